/* The keeper's desk by keyboard alone: paper slips typed table after table, no mouse needed.

   - The cursor starts in the first missing table's first box (a table entering hands on its phone comes after
     the tables nobody is entering).
   - Tab goes through one table's controls, then on to its Save: the other tables' controls are left out of the
     Tab order (a click, a tap or ↑ ↓ still reaches them), so Tab never wanders down the whole page.
   - ↑ and ↓ in a box go to the same box of the table above or below.
   - Enter saves the table from any of its controls, the "last hand" choice and the ticks included.
   - Enter moves the cursor on to the next missing table's first box at once (the save answered or not); a
     refusal brings it back to the box refused (or the choice asked for), its text selected, so what is typed
     replaces it, unless the next slip is already being typed.
   The live poll (live.js) leaves a table the keeper is in alone, and htmx puts the cursor back into a part it
   redraws (every control here has an id), so neither the poll nor this file moves the cursor on its own. */
(function () {
  "use strict";

  var CONTROLS = "a[href], input:not([type=hidden]), select, textarea, button";
  var current = ""; // the id of the table Tab goes through
  var moved = ""; // the table the cursor went on to when Enter sent a slip, until its answer comes

  // Whether anything is typed in a table's boxes yet.
  function typed(row) {
    return Array.prototype.some.call(row.querySelectorAll(".desk-form input[type=text]"), function (box) {
      return box.value !== box.defaultValue;
    });
  }

  function rows() {
    return Array.prototype.slice.call(document.querySelectorAll("tr.desk-row"));
  }

  function rowOf(element) {
    return element && element.closest ? element.closest("tr.desk-row") : null;
  }

  function missing(row) {
    return !row.classList.contains("state-in");
  }

  // The first table among `list` the keeper is waited for: one nobody is entering (missing, or disputed) before one
  // whose phone is entering hands or waiting for the other side's confirmation.
  function firstDue(list) {
    var waiting = list.filter(function (row) {
      return row.classList.contains("state-missing") || row.classList.contains("state-disputed");
    });
    return waiting[0] || list.filter(missing)[0];
  }

  function firstBox(row) {
    return row && row.querySelector(".desk-form input[type=text]");
  }

  function plain(event) {
    return !event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.isComposing;
  }

  // Only the current table's controls are in the Tab order; a table the poll redraws comes back with all of its
  // controls in it, so this runs again after each swap.
  function rove() {
    var all = rows();
    if (!document.getElementById(current)) {
      var first = firstDue(all) || all[0];
      current = first ? first.id : "";
    }
    all.forEach(function (row) {
      row.querySelectorAll(CONTROLS).forEach(function (control) {
        if (row.id === current) {
          if (control.hasAttribute("data-roved")) {
            control.removeAttribute("tabindex");
            control.removeAttribute("data-roved");
          }
        } else if (!control.hasAttribute("tabindex")) {
          control.setAttribute("tabindex", "-1");
          control.setAttribute("data-roved", "");
        }
      });
    });
  }

  var pending = false;
  function roveSoon() {
    if (pending) return;
    pending = true;
    window.setTimeout(function () {
      pending = false;
      rove();
    }, 0);
  }

  // The cursor into `control`, its text selected so that typing replaces it.
  function put(control) {
    if (!control) return;
    var row = rowOf(control);
    if (row && row.id !== current) {
      current = row.id;
      rove();
    }
    control.focus();
    if (control.type === "text" && control.select) control.select();
  }

  document.addEventListener("focusin", function (event) {
    var row = rowOf(event.target);
    if (row && row.id !== current) {
      current = row.id;
      rove();
    }
  });

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    var form = target.closest && target.closest("form.desk-form");
    if (!form || !plain(event)) return;
    if (event.key === "Enter" && target.matches("input, select")) {
      // A list would open its options on Enter, and a tick would do nothing: Enter saves the table from either.
      // Enter on "yes, that is the score" (the second look at an unusual total) says yes, then saves.
      event.preventDefault();
      if (target.type === "checkbox" && /-sure$/.test(target.name) && !target.checked) target.checked = true;
      form.requestSubmit();
      // The cursor goes on to the next table at once, not when the save is answered: on a busy laptop the next
      // slip, typed straight away, went into the table being saved and replaced its score (a volunteer's trial).
      var row = rowOf(form);
      var all = rows();
      var at = all.indexOf(row);
      var next = firstDue(all.slice(at + 1).concat(all.slice(0, at)).filter(function (other) { return other !== row; }));
      if (next) {
        moved = next.id;
        put(firstBox(next));
      }
    } else if ((event.key === "ArrowDown" || event.key === "ArrowUp") && !target.matches("select")) {
      // A list keeps its arrows for its options.
      var all = rows();
      var other = all[all.indexOf(rowOf(target)) + (event.key === "ArrowDown" ? 1 : -1)];
      if (!other) return;
      event.preventDefault();
      var table = other.id.replace("desk-", "");
      var twin = null;
      if (target.name) twin = other.querySelector('[name="' + target.name.replace(/^t\d+/, "t" + table) + '"]');
      else if (target.id) twin = document.getElementById(target.id.replace(/^desk-\d+/, "desk-" + table));
      put(twin || firstBox(other));
    }
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    roveSoon();
    var config = event.detail.requestConfig;
    var form = config && config.elt;
    if (!form || !form.classList || !form.classList.contains("desk-form")) return;
    var row = event.detail.target && document.getElementById(event.detail.target.id);
    if (!row || !row.classList.contains("desk-row")) return;
    var active = document.activeElement;
    var refused = row.querySelector("[aria-invalid=true]") || (row.querySelector(".error") && firstBox(row));
    // A refusal takes the cursor back to the box refused, unless the keeper has begun the next slip meanwhile
    // (its table keeps the cursor; the refused table waits, missing, with its message, and comes round again).
    var ahead = moved && document.getElementById(moved);
    moved = "";
    if (refused && (!active || active === document.body || row.contains(active) || (ahead && ahead.contains(active) && !typed(ahead)))) {
      put(refused);
      return;
    }
    // The keeper went on to another part of the page while this table was being saved: leave the cursor there.
    if (active && active !== document.body && !row.contains(active)) return;
    var all = rows();
    var at = all.indexOf(row);
    var next = firstDue(all.slice(at + 1).concat(all.slice(0, at)));
    if (next) put(firstBox(next));
    else if (document.getElementById("desk-close")) {
      // Every slip in: the cursor on Close, one Enter away, unless closing finishes the night. Then it waits on
      // the bar ("Every table is in …"), so that a stray Enter cannot end the night before a last look.
      var close = document.getElementById("desk-close");
      var bar = document.getElementById("desk-bar");
      if (close.hasAttribute("data-last") && bar) {
        bar.setAttribute("tabindex", "-1");
        bar.focus();
      } else close.focus();
    }
  });

  // The game closed while the keeper was at its desk (the last slip in after the bell, on a night that moves on by
  // itself): the live poll draws the desk again as a closed game, and the cursor, which was on Close or the bar,
  // falls to the page. It goes to "Open game N's desk", one Enter away; after live.js has put back a cursor that
  // was in a box (a zero-delay turn), and only if the cursor is nowhere.
  document.addEventListener("htmx:oobAfterSwap", function () {
    window.setTimeout(function () {
      var next = document.getElementById("desk-next");
      if (next && (!document.activeElement || document.activeElement === document.body)) next.focus();
    }, 0);
  });

  // A table whose score came in from its phone while the keeper was typing its slip (marked by live.js): a save
  // from its row would replace that score, so the desk asks first (Enter, or the button).
  document.addEventListener("htmx:confirm", function (event) {
    var form = event.detail.elt;
    var row = rowOf(form);
    if (!row || !row.hasAttribute("data-came-in") || !form.classList || !form.classList.contains("desk-form")) return;
    event.preventDefault();
    var table = row.id.replace("desk-", "");
    var question = "Table " + table + "'s score came in from its phone while you were typing: the desk shows it now. " +
      "Save what you typed over it?";
    if (window.confirm(question)) {
      row.removeAttribute("data-came-in");
      event.detail.issueRequest(true);
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    rove();
    // The game's close was refused: the cursor on its button, whose refusal is read with it.
    var close = document.querySelector("#desk-close[aria-describedby]");
    if (close) {
      close.focus();
      return;
    }
    if (document.activeElement && document.activeElement !== document.body) return;
    put(firstBox(firstDue(rows())));
  });
})();
