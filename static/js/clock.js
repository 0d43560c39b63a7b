/* Head Table's clocks: countdowns from the end the server stored, and the bell sound. No library needed; htmx
   brings the changes (the room display's pages turn in room.js). */
(function () {
  "use strict";
  var offset = 0; // the server's clock minus this device's, in milliseconds
  var lastState = null;
  var soundOn = false;
  var bell = null;

  function syncClock(root) {
    var el = root.querySelector("[data-server-now]");
    if (el) offset = Number(el.dataset.serverNow) - Date.now();
  }

  function format(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var m = Math.floor(s / 60);
    return m + ":" + String(s % 60).padStart(2, "0");
  }

  function tick() {
    var now = Date.now() + offset;
    document.querySelectorAll("[data-ends-at]").forEach(function (el) {
      var left = Number(el.dataset.endsAt) - now;
      el.textContent = format(left);
      var warn = Number(el.dataset.warnMs || 0);
      el.classList.toggle("warning", left > 0 && left <= warn);
      el.classList.toggle("over", left <= 0);
    });
  }

  function ringIfBell() {
    var root = document.querySelector("[data-room-state]");
    if (!root) return;
    var state = root.dataset.roomState;
    if (state === "bell" && lastState !== null && lastState !== "bell" && soundOn && bell) {
      bell.currentTime = 0;
      bell.play().catch(function () {});
    }
    lastState = state;
  }

  function enableSound(button) {
    bell = new Audio(button.dataset.bellUrl);
    bell.volume = 1.0;
    bell.play().then(function () {
      soundOn = true;
      button.textContent = "Bell sound on";
      button.classList.add("on");
    }).catch(function () {
      button.textContent = "This browser would not play sound: tap again";
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-bell-url]");
    if (button) enableSound(button);
  });
  document.addEventListener("htmx:afterSwap", function () {
    syncClock(document);
    tick();
    ringIfBell();
  });
  document.addEventListener("DOMContentLoaded", function () {
    syncClock(document);
    tick();
    ringIfBell();
    window.setInterval(tick, 250);
  });
})();
