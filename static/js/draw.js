// The room display's draw: the names of everyone in the draw run across the middle of the screen, slow down and
// stop on each winner in turn, then the winners stay. The winners are the server's (drawn from the recorded seed);
// this is only the show. A display plays each draw once: a redrawn page (a poll) shows the winners at once.
(function () {
  "use strict";
  var SPIN_MS = 5000;

  function played(key) {
    try {
      if (sessionStorage.getItem("draw:" + key)) { return true; }
      sessionStorage.setItem("draw:" + key, "1");
    } catch (error) { /* private mode: every display plays it */ }
    return false;
  }

  function run(section) {
    var key = section.getAttribute("data-draw");
    var spin = section.querySelector(".room-draw-spin");
    var winners = section.querySelectorAll(".room-draw-winners li");
    var data = section.querySelector("#draw-names");
    var names = data ? JSON.parse(data.textContent) : [];
    if (!spin || !winners.length || names.length < 2 || played(key)) { return; }
    section.classList.add("spinning");
    var shown = 0;
    var won = []; // the names already listed below: the spin never runs through them again
    function pick() {
      var left = names.filter(function (name) { return won.indexOf(name) < 0; });
      var from = left.length ? left : names;
      return from[Math.floor(Math.random() * from.length)];
    }
    function next() {
      if (shown >= winners.length) {
        spin.textContent = "";
        section.classList.remove("spinning");
        return;
      }
      var started = Date.now();
      var per = Math.max(1500, SPIN_MS / winners.length);
      (function step() {
        var spent = Date.now() - started;
        if (!document.body.contains(spin)) { return; }
        if (spent >= per) {
          // The spin stops on the winner; a moment later the name moves to the list, so it is never shown twice.
          var winner = winners[shown];
          var name = winner.firstChild ? winner.firstChild.textContent.trim() : winner.textContent;
          spin.textContent = winner.textContent;
          setTimeout(function () {
            spin.textContent = "";
            winner.classList.add("shown");
            won.push(name);
            shown += 1;
            setTimeout(next, 300);
          }, 1200);
          return;
        }
        spin.textContent = pick();
        setTimeout(step, 40 + 260 * Math.pow(spent / per, 2)); // slows toward the stop
      })();
    }
    next();
  }

  function look() {
    var section = document.querySelector(".room-draw[data-draw]");
    if (section && !section.hasAttribute("data-seen")) {
      section.setAttribute("data-seen", "1");
      run(section);
    }
  }
  document.addEventListener("DOMContentLoaded", look);
  document.addEventListener("htmx:afterSwap", look);
})();
