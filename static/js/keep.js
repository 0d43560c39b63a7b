/* Flaky venue Wi-Fi: what a scorer typed stays on the phone until the server says it is saved.
   Forms with data-keep="name" are copied to localStorage as they are typed, restored after a reload, and
   cleared once the answer shows the score was stored. The form's one-time key is kept too, so sending the
   same score again after a dropped connection can never store it twice. */
(function () {
  "use strict";

  function status(form, text, bad) {
    var el = form.querySelector(".keep-status");
    if (el) {
      el.textContent = text;
      el.classList.toggle("error", !!bad);
    }
  }

  function save(form) {
    var data = {};
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") data[name] = value;
    });
    try {
      localStorage.setItem("keep:" + form.dataset.keep, JSON.stringify(data));
      status(form, "Not sent yet: kept on this phone until you press Save.");
    } catch (e) {}
  }

  function restore(form) {
    var raw = null;
    try {
      raw = localStorage.getItem("keep:" + form.dataset.keep);
    } catch (e) {}
    if (!raw) return;
    if (form.querySelector(".error")) {
      // The server refused it and sent it back as typed: nothing to restore, only why it was not saved.
      status(form, "Not saved: see why above. What you typed is still here.", true);
      return;
    }
    var data = JSON.parse(raw);
    Object.keys(data).forEach(function (name) {
      var fields = form.querySelectorAll('[name="' + name + '"]');
      fields.forEach(function (field) {
        if (field.type === "radio" || field.type === "checkbox") field.checked = field.value === data[name];
        else field.value = data[name];
      });
    });
    status(form, "Restored what you typed before: not sent yet. Check it and press Save.");
  }

  function forget(name) {
    try {
      localStorage.removeItem("keep:" + name);
    } catch (e) {}
  }

  function wire(root) {
    // The server answered with a saved score: nothing left to keep (before any form is refilled from storage).
    root.querySelectorAll("[data-saved-keep]").forEach(function (el) { forget(el.dataset.savedKeep); });
    root.querySelectorAll("form[data-keep]").forEach(function (form) {
      if (form.dataset.kept) return;
      form.dataset.kept = "1";
      restore(form);
      form.addEventListener("input", function () { save(form); });
      form.addEventListener("change", function () { save(form); });
    });
  }

  // The words of the server's own error page ("This table link is no longer in use: …"), "" when it has none.
  // live.js says a poll's "not found" with them too.
  function serverWords(xhr) {
    if (!xhr || !xhr.responseText) return "";
    var page = new DOMParser().parseFromString(xhr.responseText, "text/html");
    var big = page.querySelector("main .big, .card .big");
    return big ? big.textContent.trim() : "";
  }
  window.headTableServerWords = serverWords;

  // Any other form sent by htmx whose answer is an error would otherwise change nothing on the page: say why
  // above the form, in the words of the server's own error page where it has them.
  function refused(form, xhr, fallback) {
    var words = serverWords(xhr);
    if (!words) {
      words = fallback || (xhr && xhr.status === 429 ? "Too many requests: wait a minute, then try again." :
        "Not saved: the server had a problem" + (xhr && xhr.status ? " (" + xhr.status + ")" : "") + ". Try again.");
    }
    var el = form.querySelector(":scope > .answer-error");
    if (!el) {
      el = document.createElement("p");
      el.className = "error answer-error";
      el.setAttribute("role", "alert");
      form.insertBefore(el, form.firstChild);
    }
    el.textContent = words;
  }

  document.addEventListener("htmx:sendError", function (event) {
    var elt = event.detail.elt;
    var form = elt.closest && elt.closest("form[data-keep]");
    if (form) status(form, "Not sent: no connection. Your score is kept here: press Save again.", true);
    else if ((form = elt.closest && elt.closest("form"))) refused(form, null, "Not sent: no connection. Try again.");
  });
  document.addEventListener("htmx:responseError", function (event) {
    var elt = event.detail.elt;
    var form = elt.closest && elt.closest("form[data-keep]");
    if (form) {
      // The server's reason where it gives one (the table's link replaced by a new one: scan the card again).
      var words = serverWords(event.detail.xhr);
      status(form, words ? "Not saved: " + words + " What you typed is kept here." :
        "Not saved: the server had a problem. Your score is kept here: try again.", true);
    } else if ((form = elt.closest && elt.closest("form"))) refused(form, event.detail.xhr);
  });
  document.addEventListener("htmx:afterSwap", function (event) { wire(event.detail.target.parentNode || document); });
  document.addEventListener("DOMContentLoaded", function () { wire(document); });
})();
