/* A table's phone that loses the Wi-Fi loses nothing (#37).

   The venue serves plain http:// on the hall's network, where browsers give no service worker: the queue lives in
   the open page and in localStorage. Every action on the table's pages (a hand's tricks, Undo, Game over, the game
   score, a confirmation) that cannot be sent now is kept on the phone with everything its form said: its one-time
   key, the game it was drawn for, the hand it enters or takes back. The page says at once "Saved on this phone,
   sending when the Wi-Fi is back (3 waiting)" and goes on from what the phone holds: the running score, the dealer
   and the hand count, with each choice's points from the kit the server put in the page (#hand-kit). As soon as the
   server answers, the kept actions are sent one at a time, in order; the server's own checks decide each (a key
   already used is the hand already stored, never a second one). What it refuses is said on the phone with the
   server's words and stays there until someone taps "Understood"; the actions after it in the same game are not
   sent (they followed it) and are listed with it. The queue survives a reload and a closed tab: it is sent the next
   time the table's page opens. Once it is empty the page is drawn again from the server. */
(function () {
  "use strict";

  var found = location.pathname.match(/^\/t\/([^/]+)\//);
  if (!found) return;
  var token = found[1];
  var STORE = "offline:" + token;
  var LOCK = "offline-sending:" + token;
  var me = Math.random().toString(36).slice(2);
  var kit = null; // the game as the server last drew it, and each choice's points
  var draft = { maker: "", alone: "", blind: "", defender_alone: "", bid: "", pepper: "" };
  var firstDealer = "N";
  var local = false; // the hand panel is drawn here, from what the phone holds
  var sending = null; // the id of the action on its way

  function load() {
    var state = null;
    try {
      state = JSON.parse(localStorage.getItem(STORE) || "null");
    } catch (e) {}
    state = state || {};
    state.queue = state.queue || [];
    state.refused = state.refused || [];
    return state;
  }

  function save(state) {
    try {
      localStorage.setItem(STORE, JSON.stringify(state));
    } catch (e) {}
  }

  function holding() {
    return load().queue.length > 0 || navigator.onLine === false;
  }

  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  function newKey() {
    var bytes = new Uint8Array(24);
    crypto.getRandomValues(bytes); // unlike randomUUID, given on plain http too
    return btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function csrf() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }

  function readKit(root) {
    var el = (root || document).querySelector("#hand-kit");
    if (!el) return;
    try {
      kit = JSON.parse(el.textContent);
    } catch (e) {}
  }

  // ---- the draft: the choices of the hand being entered, named as the server's links name them ----------------

  var ORDER = ["maker", "alone", "blind", "defender_alone", "bid", "pepper"];

  function keyOf(values) {
    var parts = [];
    ORDER.forEach(function (name) {
      if (values[name]) parts.push(name + "=" + encodeURIComponent(values[name]));
    });
    return parts.length ? "?" + parts.join("&") : "";
  }

  function draftOf(query) {
    var params = new URLSearchParams(query.replace(/^[^?]*\?/, ""));
    var values = {};
    ORDER.forEach(function (name) {
      values[name] = params.get(name) || "";
    });
    return { values: values, dealer: params.get("dealer") || "" };
  }

  // ---- what the phone holds: the server's game, then the kept actions of that game, in order --------------------

  function view() {
    var state = load();
    var hands = (kit ? kit.hands : []).map(function (hand) { return Object.assign({}, hand); });
    var finished = false;
    state.queue.forEach(function (item) {
      if (!kit || item.game !== kit.game) return;
      if (item.kind === "hand") hands.push(Object.assign({ kept: true }, item.hand));
      else if (item.kind === "undo" && hands.length && hands[hands.length - 1].number === item.undo) hands.pop();
      else if (item.kind === "finish") finished = true;
    });
    var ns = 0;
    var ew = 0;
    hands.forEach(function (hand) {
      ns += hand.ns;
      ew += hand.ew;
    });
    var last = hands[hands.length - 1];
    var seats = ["N", "E", "S", "W"];
    var dealer = last ? seats[(seats.indexOf(last.dealer) + 1) % 4] : firstDealer;
    var reached = kit && kit.target && (ns >= kit.target || ew >= kit.target);
    var allDealt = Boolean(kit && ((kit.head && hands.length >= kit.hands_per_game) || reached));
    return {
      hands: hands,
      ns: ns,
      ew: ew,
      next: hands.length + 1,
      dealer: dealer,
      finished: finished,
      allDealt: allDealt,
      mayFinish: hands.length > 0 && !finished && (!kit.head || allDealt || kit.bell),
      waiting: state.queue.length,
    };
  }

  // ---- the words on the page ---------------------------------------------------------------------------------------

  function waitingWords(count) {
    return "Saved on this phone, sending when the Wi-Fi is back (" + count + " waiting).";
  }

  function notes() {
    var state = load();
    var panel = document.querySelector("#hand-panel, #entry");
    if (!panel) return;
    var note = document.getElementById("offline-note");
    if (!note) {
      note = document.createElement("div");
      note.id = "offline-note";
      note.className = "pending offline-note";
      note.setAttribute("role", "status");
      panel.parentNode.insertBefore(note, panel);
    }
    note.hidden = !state.queue.length;
    note.textContent = state.queue.length ? waitingWords(state.queue.length) : "";
    var box = document.getElementById("offline-refused");
    if (kit && state.refused.some(function (refusal) { return refusal.game && refusal.game < kit.game - 1; })) {
      // Said through the whole of the next game; gone once the table is two games on, read or not.
      state.refused = state.refused.filter(function (refusal) { return !refusal.game || refusal.game >= kit.game - 1; });
      save(state);
    }
    if (!state.refused.length) {
      if (box) box.remove();
      return;
    }
    if (!box) {
      box = document.createElement("div");
      box.id = "offline-refused";
      box.className = "error offline-refused";
      box.setAttribute("role", "alert");
      panel.parentNode.insertBefore(box, note);
    }
    var html = "<p><b>Not saved</b> when this phone sent what it kept:</p><ul>";
    state.refused.forEach(function (refusal) {
      // Each names its game. One of a game this table has left is history: no invitation to enter it again.
      var over = !kit || (refusal.game && refusal.game !== kit.game) || !kit.open;
      var named = refusal.game ? "Game " + refusal.game + ", " + lower(refusal.words) : refusal.words;
      html += "<li><b>" + esc(named) + "</b>: " + (over && refusal.again ? "not saved (" + esc(refusal.reason) + ")" :
        esc(refusal.reason) + (refusal.again ? " " + AGAIN : "")) + "</li>";
    });
    html += '</ul><button type="button" class="offline-understood">Understood</button>';
    if (box.innerHTML !== html) box.innerHTML = html;
  }

  var AGAIN = "Check the hands on this page and enter it again if it is still right.";

  // "Hand 5 (E, 3 tricks)" inside a sentence: its first letter only, never the seats'.
  function lower(words) {
    return words.charAt(0).toLowerCase() + words.slice(1);
  }

  function trickWords(count) {
    return count + (String(count) === "1" ? " trick" : " tricks");
  }

  function called(values) {
    var words = values.maker;
    if (values.alone) words += " alone";
    if (values.blind) words += " blind";
    if (values.bid) words += " bid " + values.bid;
    if (values.pepper) words += " " + values.pepper + " pepper";
    return words;
  }

  function side(seat) {
    return "NS".indexOf(seat) >= 0 ? "N–S" : "E–W";
  }

  function choices(shown) {
    var seats = kit.seats;
    var html = '<p class="next">Hand ' + shown.next + (kit.head ? " of " + kit.hands_per_game : "") +
      (kit.target ? " · game to " + kit.target : "") + " · <b>" + esc(seats[shown.dealer] || shown.dealer) +
      "</b> deals (" + shown.dealer + ")</p>";
    if (!shown.hands.length) {
      html += '<div class="choice small-choice" role="group" aria-label="First dealer">First dealer: ';
      ["N", "E", "S", "W"].forEach(function (seat) {
        html += '<button type="button" class="chip' + (seat === firstDealer ? " on" : "") + '" data-dealer="' + seat +
          '" aria-pressed="' + (seat === firstDealer) + '">' + seat + "</button>";
      });
      html += "</div>";
    }
    var offered = kit.drafts[keyOf(draft)];
    if (!draft.maker || !offered) {
      html += '<h2>Who called trump?</h2><div class="big-buttons four">';
      ["N", "E", "S", "W"].forEach(function (seat) {
        html += '<button type="button" class="big-button side-' + ("NS".indexOf(seat) >= 0 ? "ns" : "ew") +
          '" data-draft="' + esc(keyOf({ maker: seat })) + '"><b>' + esc(seats[seat] || "?") + "</b><small>" + seat +
          " · " + side(seat) + "</small></button>";
      });
      return html + "</div>";
    }
    html += '<div class="called"><span><b>' + esc(seats[draft.maker] || "") + "</b> called (" + draft.maker +
      ')</span> <button type="button" class="chip" data-draft="">change</button></div>';
    if (offered.options.length) {
      html += '<div class="choice">';
      offered.options.forEach(function (option) {
        html += '<button type="button" class="toggle' + (option[2] ? " on" : "") + '" aria-pressed="' + option[2] +
          '" data-draft="' + esc(option[1]) + '">' + (option[2] ? "✓ " : "") + esc(option[0]) + "</button>";
      });
      html += "</div>";
    }
    if (offered.bids.length) {
      html += '<h2>Bid</h2><div class="choice">';
      offered.bids.forEach(function (bid) {
        html += '<button type="button" class="toggle' + (bid[2] ? " on" : "") + '" aria-pressed="' + bid[2] +
          '" data-draft="' + esc(bid[1]) + '">' + esc(bid[0]) + "</button>";
      });
      html += "</div>";
    }
    if (offered.tricks.length) {
      html += "<h2>Tricks taken by " + side(draft.maker) + '</h2><div class="big-buttons tricks">';
      offered.tricks.forEach(function (trick) {
        html += '<button type="button" class="big-button" name="tricks" value="' + trick[0] + '" data-tricks="' +
          trick[0] + '"><b>' + trick[0] + "</b><small>" + esc(trick[1]) + "</small></button>";
      });
      if (offered.passing) {
        html += '<div class="renege-row"><span class="muted">The opponents do not play the hand:</span>' +
          '<button type="button" class="toggle" data-passed="1">Opponents pass:&nbsp;<small>' +
          esc(offered.passing[0]) + "</small></button></div>";
      }
      if (offered.reneges.length) {
        html += '<div class="renege-row"><span class="muted">A renege gives the hand to the other side:</span>';
        offered.reneges.forEach(function (renege) {
          html += '<button type="button" class="toggle" data-renege="' + renege[0] + '">' + esc(renege[1]) +
            ":&nbsp;<small>" + esc(renege[2]) + "</small></button>";
        });
        html += "</div>";
      }
      html += "</div>";
    } else if (offered.bids.length) {
      html += '<p class="muted">Tap the bid, then the tricks.</p>';
    }
    return html;
  }

  // A code box as the server draws the finish form's (tournament/_field.html, score_forms.code_field).
  function codeBox(name, words) {
    return '<div class="field"><label for="offline-' + name + '-code">A code from ' + words + "</label>" +
      '<input type="text" id="offline-' + name + '-code" name="' + name + '_code" inputmode="numeric" ' +
      'autocomplete="off" maxlength="12" size="6"></div>';
  }

  function drawHands() {
    if (!kit) return;
    var shown = view();
    var seats = kit.seats;
    var html = '<div class="score-names"><p class="who"><b>N–S</b> ' + esc(seats.N || "") + " &amp; " +
      esc(seats.S || "") + '</p><p class="who"><b>E–W</b> ' + esc(seats.E || "") + " &amp; " + esc(seats.W || "") +
      '</p></div><div class="scoreboard" role="group" aria-label="Score">' +
      '<p class="team"><span class="side">N–S</span> <span class="pts">' + shown.ns + "</span></p>" +
      '<p class="team"><span class="side">E–W</span> <span class="pts">' + shown.ew + "</span></p></div>" +
      '<h1 class="hand-title">Table ' + kit.table + (kit.table === 1 ? ' <span class="tag">Head table</span>' : "") +
      " · game " + kit.game + "</h1>" +
      '<div class="table-state state-offline" role="status"><b>' +
      (navigator.onLine === false ? "No connection" : "Sending") +
      ":</b> this phone keeps every hand and sends them, in order, once the Wi-Fi is back.</div>";
    if (shown.finished) {
      html += '<p class="big done-note">Game over at ' + shown.ns + "–" + shown.ew +
        ": saved on this phone, sending when the Wi-Fi is back.</p>";
    } else if (!kit.open) {
      html += '<p class="big">This table\'s game takes no more hands: see the notes above.</p>';
    } else if (shown.allDealt) {
      html += '<p class="next"><b>' + (kit.head && shown.hands.length >= kit.hands_per_game ? "All " +
        kit.hands_per_game + " hands are in." : "A side reached " + kit.target + " points: the game is over.") +
        "</b> Check them below, then both sides tap “Game over”. A hand entered by mistake? Undo it.</p>";
    } else {
      html += choices(shown);
    }
    if (shown.hands.length) {
      html += '<table class="hands"><thead><tr><th>#</th><th>Deal</th><th>Called</th><th>Tricks</th><th>N–S</th>' +
        "<th>E–W</th></tr></thead><tbody>";
      shown.hands.slice().reverse().forEach(function (hand) {
        html += "<tr" + (hand.kept ? ' class="kept"' : "") + "><td>" + hand.number + (hand.kept ? " (on this phone)" : "") +
          "</td><td>" + hand.dealer + "</td><td>" + esc(hand.called) + "</td><td>" + hand.tricks + "</td><td>" + hand.ns +
          "</td><td>" + hand.ew + "</td></tr>";
      });
      html += "</tbody></table>";
      if (kit.open && !shown.finished) {
        var last = shown.hands[shown.hands.length - 1];
        html += '<div class="after-hands"><button type="button" data-undo="' + last.number + '">↶ Undo hand ' +
          last.number + "</button>";
        if (shown.mayFinish) {
          html += '<form class="finish offline-finish" novalidate>';
          if (kit.confirm) {
            html += '<p class="muted small">Both sides say the game is over: one player of each side types the code ' +
              "on their tally card.</p>" +
              codeBox("ns", "N–S") + codeBox("ew", "E–W") +
              '<p class="error offline-finish-error" role="alert" hidden></p>';
          }
          html += "<button>Game over</button></form>";
        }
        html += "</div>";
      }
    }
    var panel = document.getElementById("hand-panel");
    var fresh = document.createElement("section");
    fresh.id = "hand-panel";
    fresh.className = "hand-panel offline-panel";
    fresh.innerHTML = html;
    panel.replaceWith(fresh);
    local = true;
  }

  function draw() {
    notes();
    if (kit && (local || load().queue.length) && document.getElementById("hand-panel")) drawHands();
    else entryNote();
  }

  // The game score page: what it kept is said in place of the form it came from.
  function entryNote() {
    var entry = document.getElementById("entry");
    if (!entry) return;
    load().queue.forEach(function (item) {
      var form = entry.querySelector('form[action="' + item.url + '"]');
      if (form && !form.hidden) {
        form.hidden = true;
        var said = document.createElement("p");
        said.className = "ok-note";
        said.setAttribute("role", "status");
        said.textContent = item.words + ": " + waitingWords(load().queue.length);
        form.parentNode.insertBefore(said, form);
      }
    });
  }

  // ---- keeping an action -------------------------------------------------------------------------------------------

  function kindOf(url) {
    if (/\/hands\/add\/$/.test(url)) return "hand";
    if (/\/hands\/undo\/$/.test(url)) return "undo";
    if (/\/finish\/$/.test(url)) return "finish";
    if (/\/confirm\/$/.test(url)) return "confirm";
    return "score";
  }

  function field(fields, name) {
    for (var i = 0; i < fields.length; i++) if (fields[i][0] === name) return fields[i][1];
    return "";
  }

  function keep(url, fields) {
    var state = load();
    var kind = kindOf(url);
    var game = parseInt(field(fields, "game"), 10) || 0;
    var item = { id: newKey(), url: url, fields: fields, kind: kind, game: game };
    if (kind === "hand") {
      var values = draftOf("?" + new URLSearchParams(fields).toString()).values;
      var offered = kit && kit.drafts[keyOf(values)];
      var points = null;
      var tricks = field(fields, "tricks");
      if (offered && field(fields, "renege")) {
        offered.reneges.forEach(function (r) { if (r[0] === field(fields, "renege")) points = [r[3], r[4]]; });
      } else if (offered && field(fields, "passed")) {
        points = offered.passing ? [offered.passing[1], offered.passing[2]] : null;
      } else if (offered) {
        offered.tricks.forEach(function (t) { if (String(t[0]) === tricks) points = [t[2], t[3]]; });
      }
      if (!points) return false; // a hand the kit cannot score: left to the server's own answer
      if (!field(fields, "key")) fields.push(["key", newKey()]);
      var number = parseInt(field(fields, "hand"), 10);
      var words = called(values) + (field(fields, "renege") ? ", " + side(field(fields, "renege")) + " reneged" : "");
      item.hand = {
        number: number,
        dealer: field(fields, "dealer"),
        called: words,
        tricks: field(fields, "passed") ? "passed" : field(fields, "renege") ? 0 : parseInt(tricks, 10),
        ns: points[0],
        ew: points[1],
      };
      item.words = "Hand " + number + " (" + words + ", " + (field(fields, "passed") ? "passed" : trickWords(tricks)) + ")";
    } else if (kind === "undo") {
      if (!field(fields, "key")) fields.push(["key", newKey()]); // the same Undo sent again is done once
      item.undo = parseInt(field(fields, "hand"), 10);
      item.words = "Undo hand " + item.undo;
      var last = state.queue[state.queue.length - 1];
      if (last && last.kind === "hand" && last.hand.number === item.undo && last.id !== sending) {
        state.queue.pop(); // never sent: taking it back is forgetting it
        save(state);
        return true;
      }
    } else if (kind === "finish") {
      if (!field(fields, "key")) fields.push(["key", newKey()]); // and the same Game over
      item.words = "Game over";
    } else if (kind === "confirm") {
      item.words = "The confirmation of the score";
    } else {
      item.words = "The score N–S " + field(fields, "ns_points") + ", E–W " + field(fields, "ew_points");
    }
    state.queue.push(item);
    save(state);
    return true;
  }

  function fieldsOf(formData) {
    var fields = [];
    formData.forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") fields.push([name, String(value)]);
    });
    return fields;
  }

  function isPoll(elt) {
    return Boolean(elt && elt.classList && elt.classList.contains("live-poll"));
  }

  // Offline, or with actions still waiting: nothing goes past them. Polls wait; a tap that chooses the hand is drawn
  // here; an action is kept behind the others.
  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    if (!holding()) return;
    if (isPoll(detail.elt)) {
      event.preventDefault();
      return;
    }
    if (detail.verb === "get" && kit && detail.elt.closest && detail.elt.closest("#hand-panel")) {
      event.preventDefault();
      choose(detail.path);
    } else if (detail.verb === "post" && (kindOf(detail.path) !== "hand" || kit)) {
      if (keep(detail.path, fieldsOf(detail.formData))) {
        event.preventDefault();
        draftReset();
        draw();
        flush();
      }
    }
  });

  // The Wi-Fi is gone but the phone does not know it yet: the request that failed is kept (its key makes a second
  // arrival the same one) or, for a choice, drawn here.
  document.addEventListener("htmx:sendError", function (event) {
    var config = event.detail.requestConfig;
    if (!config || isPoll(config.elt)) return;
    if (config.verb === "get" && kit && config.elt.closest && config.elt.closest("#hand-panel")) {
      choose(config.path);
    } else if (config.verb === "post" && (kindOf(config.path) !== "hand" || kit)) {
      if (keep(config.path, fieldsOf(config.formData))) {
        draftReset();
        draw();
      }
    }
  });

  function choose(path) {
    var chosen = draftOf(path);
    draft = chosen.values;
    if (chosen.dealer && kit && !kit.hands.length) firstDealer = chosen.dealer;
    local = true;
    draw();
  }

  function draftReset() {
    draft = { maker: "", alone: "", blind: "", defender_alone: "", bid: "", pepper: "" };
  }

  // Taps on the panel drawn here.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button");
    if (!button) return;
    if (button.classList.contains("offline-understood")) {
      var state = load();
      state.refused = [];
      save(state);
      notes();
      return;
    }
    if (!button.closest(".offline-panel")) return;
    var shown = view();
    if (button.dataset.dealer) {
      firstDealer = button.dataset.dealer;
    } else if (button.hasAttribute("data-draft")) {
      draft = draftOf(button.dataset.draft).values;
    } else if (button.dataset.tricks || button.dataset.renege || button.dataset.passed) {
      var fields = [["game", String(kit.game)], ["hand", String(shown.next)], ["dealer", shown.dealer]];
      ORDER.forEach(function (name) { if (draft[name]) fields.push([name, draft[name]]); });
      if (button.dataset.tricks) fields.push(["tricks", button.dataset.tricks]);
      if (button.dataset.renege) fields.push(["renege", button.dataset.renege]);
      if (button.dataset.passed) fields.push(["passed", "1"]);
      fields.push(["key", newKey()]);
      keep(kit.add, fields);
      draftReset();
    } else if (button.dataset.undo) {
      keep(kit.undo, [["game", String(kit.game)], ["hand", button.dataset.undo], ["dealer", shown.dealer]]);
    } else {
      return;
    }
    event.preventDefault();
    draw();
    flush();
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList.contains("offline-finish")) return;
    event.preventDefault();
    var shown = view();
    // The hands and score the players confirmed: the server refuses the Game over if the table's hands changed since.
    var fields = [["game", String(kit.game)], ["hands", String(shown.hands.length)], ["score", shown.ns + "–" + shown.ew]];
    if (kit.confirm) {
      var ns = form.querySelector("[name=ns_code]").value.trim();
      var ew = form.querySelector("[name=ew_code]").value.trim();
      if (!ns || !ew) {
        var error = form.querySelector(".offline-finish-error");
        error.hidden = false;
        error.textContent = "Type a code from each side's tally card.";
        return;
      }
      fields.push(["ns_code", ns], ["ew_code", ew]);
    }
    if (!window.confirm("End this table's game at " + shown.ns + "–" + shown.ew + "?")) return;
    keep(kit.finish, fields);
    draw();
    flush();
  });

  // ---- sending, in order, once the server answers ---------------------------------------------------------------

  // One tab of the phone sends at a time (two tabs of one table would otherwise send the same action together).
  function mine() {
    var now = Date.now();
    var held = null;
    try {
      held = JSON.parse(localStorage.getItem(LOCK) || "null");
    } catch (e) {}
    if (held && held.by !== me && now - held.at < 20000) return false;
    try {
      localStorage.setItem(LOCK, JSON.stringify({ by: me, at: now }));
    } catch (e) {}
    return true;
  }

  // The lock goes with the tab that held it: a tab closed while sending left it for 20 s, and the table's phone,
  // opened again, waited that long before sending what it kept (a test run through a lossy relay).
  function release() {
    try {
      var held = JSON.parse(localStorage.getItem(LOCK) || "null");
      if (!held || held.by === me) localStorage.removeItem(LOCK);
    } catch (e) {}
  }
  window.addEventListener("pagehide", release);

  // An answer that never comes (the Wi-Fi gone without a word, a connection left hanging) does not hold the queue:
  // the send is given up after SEND_TIMEOUT ms and tried again on the next round, its key making a second arrival
  // the same action.
  var SEND_TIMEOUT = 15000;

  function reasons(text, status) {
    var page = new DOMParser().parseFromString(text || "", "text/html");
    var said = [];
    var found = page.querySelectorAll(status === 200 ? ".error:not(.big), .errorlist li" : "main .big, .card .big");
    found.forEach(function (el) {
      var words = el.textContent.replace(/\s+/g, " ").trim();
      if (words && said.indexOf(words) < 0) said.push(words);
    });
    if (!said.length && status !== 200) said.push("The server turned it away (" + status + "). Ask the score keeper.");
    return said.join(" ") || "The server did not take it. Ask the score keeper.";
  }

  function flush() {
    var state = load();
    if (sending || !state.queue.length || navigator.onLine === false || !mine()) return;
    var item = state.queue[0];
    sending = item.id;
    var body = new FormData();
    item.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    body.append("csrfmiddlewaretoken", csrf());
    var abort = window.AbortController ? new AbortController() : null;
    var timer = abort ? window.setTimeout(function () { abort.abort(); }, SEND_TIMEOUT) : null;
    fetch(item.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": csrf() },
      signal: abort ? abort.signal : undefined,
    }).then(function (response) {
      return response.text().then(function (text) {
        window.clearTimeout(timer);
        sending = null;
        if (response.status === 200 && response.headers.get("X-Saved")) sent(item, text);
        else if (response.status === 200 || response.status === 403 || response.status === 404) {
          refused(item, reasons(text, response.status), text);
        } else {
          release(); // busy (429) or the server's own trouble: sent again on the next round
          draw();
          return;
        }
        release();
        flush();
      });
    }).catch(function () {
      window.clearTimeout(timer);
      sending = null; // still no connection, or no answer in time: the next round tries again
      release();
      draw();
    });
  }

  function latest(text) {
    var page = new DOMParser().parseFromString(text || "", "text/html");
    readKit(page);
  }

  function drop(id) {
    var state = load();
    state.queue = state.queue.filter(function (item) { return item.id !== id; });
    save(state);
    return state;
  }

  function sent(item, text) {
    latest(text);
    if (item.kind === "score") {
      try {
        localStorage.removeItem("keep:table-" + token + "-" + item.game);
      } catch (e) {}
    }
    var state = drop(item.id);
    if (!state.queue.length) redraw();
    else draw();
  }

  function refused(item, reason, text) {
    latest(text);
    var state = load();
    var after = [];
    state.queue = state.queue.filter(function (other) {
      if (other.id === item.id) return false;
      if (other.game === item.game) {
        after.push(other);
        return false;
      }
      return true;
    });
    state.refused.push({ words: item.words, reason: reason, game: item.game });
    after.forEach(function (other) {
      state.refused.push({ words: other.words, game: other.game, again: true,
        reason: "Not sent: it came after " + lower(item.words) + ", which was not saved." });
    });
    save(state);
    if (!state.queue.length) redraw();
    else draw();
  }

  // Nothing left waiting: the page is drawn again from the server, as it stands now.
  function redraw() {
    local = false;
    draftReset();
    notes();
    var target = document.getElementById("hand-panel") ? "#hand-panel" : "#entry";
    if (window.htmx && document.querySelector(target)) {
      window.htmx.ajax("GET", location.pathname, { target: target, swap: "outerHTML" }).then(notes);
    }
  }

  document.addEventListener("htmx:afterSwap", function () {
    readKit(document);
    if (!holding()) local = false;
    notes();
  });
  window.addEventListener("online", function () {
    draw();
    flush();
  });
  window.addEventListener("offline", draw);
  window.addEventListener("storage", function (event) {
    if (event.key === STORE) draw();
  });
  function start() {
    readKit(document);
    draw();
    flush();
    setInterval(flush, 3000);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
