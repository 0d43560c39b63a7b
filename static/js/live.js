// Live working screens: the keeper's desk, the table's phone, the organizer's night page.
//
// Each page carries a poller (class "live-poll") that asks every few seconds with the stamp it was drawn from.
// The server answers 204 while nothing changed; otherwise it sends each part of the page that may have changed,
// marked to replace its twin (hx-swap-oob), and a new poller, last. A part that holds typing not yet sent is left
// as it is, so nothing typed is lost to a redraw; the poller then keeps its old stamp, and the part is redrawn on a
// later poll once it is left alone. A part the cursor is merely in is redrawn, the cursor put back in its box.
(function () {
  "use strict";

  var poll = null; // the poller whose answer is being swapped in
  var heldBack = false; // a part of that answer was kept as it was
  var actions = 0; // requests the person made (a tap, a form): a poll sent before the latest one is out of date

  function isPoll(element) {
    return Boolean(element && element.classList && element.classList.contains("live-poll"));
  }

  // The cursor alone, in a part that holds nothing typed, does not keep the part from being redrawn: its twin
  // takes its place and the cursor goes back into the same box (`refocus`). A keeper's desk waits with the cursor
  // in the first missing table; held back, that table showed "missing" for good after its phone had scored it (a
  // volunteer's trial).
  var refocus = null;

  function busy(element) {
    if (!element || !element.querySelectorAll) return false;
    if (typedIn(element)) return true;
    var active = document.activeElement;
    if (active && element.contains(active) && active.matches("input, select, textarea")) {
      refocus = active.name || active.id || null;
    }
    return false;
  }

  function typedIn(element) {
    var fields = element.querySelectorAll("input, select, textarea");
    for (var i = 0; i < fields.length; i++) {
      var field = fields[i];
      if (field.type === "hidden" || field.type === "submit" || field.type === "button") continue;
      if (field.type === "checkbox" || field.type === "radio") {
        if (field.checked !== field.defaultChecked) return true;
      } else if (field.tagName === "SELECT") {
        // A list with no option marked selected starts on its first one.
        var start = 0;
        for (var j = 0; j < field.options.length; j++) {
          if (field.options[j].defaultSelected) start = j;
        }
        if (field.selectedIndex !== start) return true;
      } else if (field.value !== field.defaultValue) {
        return true;
      }
    }
    return false;
  }

  // A busy server asks the pages that poll to wait (X-Poll-After, in seconds): until then this page's polls are
  // not sent, so that the laptop's time goes to the scores and the seats rather than to "nothing new". Taps and
  // forms are never held back.
  var quietUntil = 0;

  function polls(element) {
    return isPoll(element) || Boolean(element && element.hasAttribute && element.hasAttribute("data-poll"));
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var source = event.detail.elt;
    if (polls(source) && Date.now() < quietUntil) {
      event.preventDefault();
      return;
    }
    if (isPoll(source)) source.liveSentAfter = actions;
    else actions += 1;
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    var wait = xhr ? parseFloat(xhr.getResponseHeader("X-Poll-After") || "") : NaN;
    if (wait > 0) quietUntil = Date.now() + wait * 1000;
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var source = event.detail.requestConfig && event.detail.requestConfig.elt;
    poll = isPoll(source) ? source : null;
    heldBack = false;
    if (poll && poll.liveSentAfter !== actions) {
      // The person tapped something while this poll was on its way: its answer would undo the tap's page.
      event.detail.shouldSwap = false;
      poll = null;
    }
  });

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    if (!poll) return;
    var target = event.detail.target;
    if (target.matches && target.matches("tr.desk-row")) {
      var twin = rowIn(event.detail.fragment);
      if (twin) cameIn(target, twin);
    }
    if (target === poll) {
      if (heldBack) event.detail.shouldSwap = false; // ask again with the old stamp
      return;
    }
    if (busy(target)) {
      event.detail.shouldSwap = false;
      heldBack = true;
    } else if (refusedAsBefore(target, event.detail.fragment)) {
      // Kept, but not asked for again: the row comes back on a later poll only once its table's state changes.
      event.detail.shouldSwap = false;
    }
  });

  // A keeper's desk row showing a refusal of what the keeper typed keeps it (the message and the boxes as typed)
  // while its table stands as it did: the poll's twin is the empty form, and a redraw took a box the keeper had
  // just typed again to the same value (not "typed" by `typedIn`) with it, so the next save was refused for a box
  // left empty. Once the table's state changes (its phone sent the score), the new row replaces it.
  function refusedAsBefore(target, fragment) {
    if (!target.matches || !target.matches("tr.desk-row") || !target.querySelector(".desk-form .error")) return false;
    var twin = rowIn(fragment);
    return Boolean(twin && twin.className === target.className);
  }

  function rowIn(fragment) {
    return fragment && (fragment.matches && fragment.matches("tr") ? fragment : fragment.querySelector && fragment.querySelector("tr"));
  }

  // A table's score that came in from its phone while the keeper was typing its slip (the cursor in its row, or
  // its refusal showing): the row is redrawn with the score and the cursor put back, and what the keeper typed
  // next was saved over the phone's confirmed score without a word (a trial). The new row is marked; the desk
  // asks before a save from it (desk.js).
  function cameIn(target, twin) {
    if (target.classList.contains("state-in") || !twin.classList.contains("state-in")) return;
    var active = document.activeElement;
    if ((active && target.contains(active)) || target.querySelector(".desk-form .error")) twin.setAttribute("data-came-in", "");
  }

  document.addEventListener("htmx:oobAfterSwap", function () {
    if (!refocus) return;
    var name = refocus;
    refocus = null;
    if (document.activeElement && document.activeElement !== document.body) return; // it went somewhere itself
    var box = document.getElementsByName(name)[0] || document.getElementById(name);
    if (box && box.focus) box.focus();
  });

  document.addEventListener("htmx:afterSwap", function () {
    poll = null;
  });

  // A screen rides out a restart (#37): when the laptop's server is stopped or the Wi-Fi is gone, a poll fails and
  // the page keeps what it last drew, with "Reconnecting… (40 s)" on top counting the time since the laptop last
  // answered. htmx keeps polling on its own schedule, each poll with the stamp of what the page shows: the first one
  // answered brings the current state and the line goes. A poll is given up after POLL_TIMEOUT ms, so that a
  // connection that hangs (Wi-Fi gone without a word) does not hold back every poll after it.
  var POLL_TIMEOUT = 8000;
  var lastAnswer = Date.now();
  var lostSince = 0; // when the laptop last answered, while it does not
  var ticking = null;

  // A line on top of the page (above it, pushing it down: CSS), made once.
  function topLine(id, role) {
    var line = document.getElementById(id);
    if (line) return line;
    line = document.createElement("div");
    line.id = id;
    line.className = "reconnecting";
    line.setAttribute("role", role);
    document.body.insertBefore(line, document.body.firstChild);
    return line;
  }

  function reconnectLine() {
    var line = topLine("reconnecting", "status");
    var seconds = Math.floor((Date.now() - lostSince) / 1000);
    if (navigator.onLine === false) {
      // The phone itself has no network: said at once, before any poll fails (a table's phone holds its polls
      // while offline, offline.js), in the words of what the page does meanwhile.
      line.textContent = (KEEPS ? "No Wi-Fi: hands are kept on this phone" : "No Wi-Fi · showing what the laptop last sent") +
        " (" + seconds + " s)";
    } else {
      line.textContent = "Reconnecting… (" + seconds + " s) · showing what the laptop last sent";
    }
  }

  // A table's own pages (its link, /t/…) keep what is entered with no Wi-Fi (offline.js).
  var KEEPS = /^\/t\//.test(location.pathname);

  function offline() {
    if (!lostSince) lostSince = Date.now();
    reconnectLine();
    if (!ticking) ticking = window.setInterval(reconnectLine, 1000);
  }
  window.addEventListener("offline", offline);
  if (navigator.onLine === false) {
    if (document.body) offline();
    else document.addEventListener("DOMContentLoaded", offline);
  }

  function lost(event) {
    if (!polls(event.detail.elt)) return; // a tap or a form says so next to itself (keep.js, offline.js)
    if (!lostSince) lostSince = lastAnswer;
    reconnectLine();
    if (!ticking) ticking = window.setInterval(reconnectLine, 1000);
  }

  // A proxy's "the server is not there" (hosted) is the laptop gone too; any other answer is the laptop's.
  function proxyGone(xhr) {
    return xhr.status === 502 || xhr.status === 503 || xhr.status === 504;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (polls(event.detail.elt) && event.detail.xhr) event.detail.xhr.timeout = POLL_TIMEOUT;
  });
  document.addEventListener("htmx:sendError", lost);
  document.addEventListener("htmx:timeout", lost);
  document.addEventListener("htmx:responseError", function (event) {
    if (proxyGone(event.detail.xhr)) lost(event);
    else if (event.detail.xhr.status === 404 && polls(event.detail.elt)) gone(event.detail.xhr);
  });

  // A poll answered "not found": the table's link replaced by a new one, the night deleted. The page would go on
  // looking live with nothing coming to it; it says so on top, in the server's words.
  function gone(xhr) {
    var words = window.headTableServerWords ? window.headTableServerWords(xhr) : "";
    topLine("page-gone", "alert").textContent =
      words || "This page is no longer here: open it again from its link or its code.";
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || xhr.status === 0 || proxyGone(xhr)) return;
    lastAnswer = Date.now();
    if (!lostSince) return;
    lostSince = 0;
    window.clearInterval(ticking);
    ticking = null;
    var line = document.getElementById("reconnecting");
    if (line) line.remove();
  });

  // A panel the organizer opened (<details data-remember>) stays open when the page is drawn again after an
  // action (a late arrival, a player leaving), for this browser tab.
  function remembered(root) {
    (root || document).querySelectorAll("details[data-remember]").forEach(function (panel) {
      var key = "open:" + location.pathname + ":" + panel.id;
      try {
        if (sessionStorage.getItem(key) === "1") panel.open = true;
      } catch (e) {}
      if (panel.dataset.rememberWired) return;
      panel.dataset.rememberWired = "1";
      panel.addEventListener("toggle", function () {
        try {
          sessionStorage.setItem(key, panel.open ? "1" : "0");
        } catch (e) {}
      });
    });
  }
  document.addEventListener("DOMContentLoaded", function () { remembered(document); });
  document.addEventListener("htmx:load", function (event) { remembered(event.detail.elt); });
})();
