/* A form sent back with a refusal: the refusal is brought into view, and its box given the cursor, wherever the
   form sits on a long page (the Money page's refund at the foot of a long door list, a setting far down). A page
   that puts the cursor somewhere itself (the keeper's desk) keeps it there. */
(function () {
  "use strict";

  function refused() {
    return document.querySelector(".has-error") || document.querySelector(".error[role=alert], form .error");
  }

  document.addEventListener("DOMContentLoaded", function () {
    var shown = refused();
    if (!shown) return;
    for (var open = shown.closest("details"); open; open = open.parentElement.closest("details")) {
      open.open = true;
    }
    setTimeout(function () {  // after the page's own scripts: the cursor they place stays
      shown.scrollIntoView({ block: "center" });
      if (document.activeElement && document.activeElement !== document.body) return;
      var box = shown.matches(".has-error")
        ? shown.querySelector("input:not([type=hidden]), select, textarea")
        : null;
      if (box) box.focus({ preventScroll: true });
    }, 0);
  });
})();
