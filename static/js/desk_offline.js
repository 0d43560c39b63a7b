/* The keeper's desk away from the laptop (#37): a slip typed while the laptop cannot be reached is kept.

   A keeper on a tablet at the far end of the hall types a table's slip and presses Enter; when the request gets no
   answer at all (the Wi-Fi gone, the laptop restarting), the slip is kept in this browser's localStorage with all
   its form said (its one-time key and the version of the table it was typed against) and the row says "Saved on
   this tablet, sending when the laptop answers (2 waiting)". The slips typed after it wait behind it, in order.
   Every 3 s, and as soon as the browser says it is online, the first is sent; the server's own checks decide it
   (the same key twice is stored once). Its answer is the table's row, put in place of the row on the page: saved,
   or refused with the reason next to the box, as if it had been typed with the Wi-Fi up. The kept slips survive a
   reload and a closed tab: they are sent the next time the desk of that game is opened. */
(function () {
  "use strict";

  var STORE = "desk-offline:" + location.pathname + ":" + (new URLSearchParams(location.search).get("game") || "");
  var sending = false;

  function load() {
    try {
      return JSON.parse(localStorage.getItem(STORE) || "[]") || [];
    } catch (e) {
      return [];
    }
  }

  function save(queue) {
    try {
      if (queue.length) localStorage.setItem(STORE, JSON.stringify(queue));
      else localStorage.removeItem(STORE);
    } catch (e) {}
  }

  function csrf() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }

  function deskForm(elt) {
    return elt && elt.closest ? elt.closest("form.desk-form") : null;
  }

  function fieldsOf(formData) {
    var fields = [];
    formData.forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") fields.push([name, String(value)]);
    });
    return fields;
  }

  function keep(form, formData) {
    var row = form.closest("tr.desk-row");
    var queue = load();
    queue.push({ url: form.getAttribute("hx-post"), row: row ? row.id : "", fields: fieldsOf(formData) });
    save(queue);
    notes();
    // On to the next table's first box, as after a save: the keeper goes on typing slips.
    var active = document.activeElement;
    if (row && active && row.contains(active)) {
      var next = row.nextElementSibling;
      var box = next && next.querySelector(".desk-form input[type=text]");
      if (box) {
        box.focus();
        box.select();
      }
    }
  }

  // What waits is said on its row (and again after a poll redraws the row).
  function notes() {
    var queue = load();
    document.querySelectorAll(".desk-offline-note").forEach(function (note) { note.remove(); });
    queue.forEach(function (item) {
      var row = document.getElementById(item.row);
      var form = row && row.querySelector("form.desk-form");
      if (!form) return;
      var error = form.querySelector(":scope > .answer-error");
      if (error) error.remove(); // keep.js's "Not sent: no connection": it is kept, not lost
      var note = document.createElement("p");
      note.className = "pending desk-offline-note";
      note.setAttribute("role", "status");
      note.textContent = "Saved on this tablet, sending when the laptop answers (" + queue.length + " waiting).";
      form.appendChild(note);
    });
  }

  // No answer at all: the slip is kept. A slip typed while others wait goes behind them.
  document.addEventListener("htmx:sendError", function (event) {
    var config = event.detail.requestConfig;
    var form = config && deskForm(config.elt);
    if (form && config.verb === "post") keep(form, config.formData);
  });
  document.addEventListener("htmx:configRequest", function (event) {
    var form = deskForm(event.detail.elt);
    if (!form || event.detail.verb !== "post" || !load().length) return;
    event.preventDefault();
    keep(form, event.detail.formData);
    flush();
  });

  function place(text, id) {
    var holder = document.createElement("template");
    holder.innerHTML = "<table><tbody>" + text + "</tbody></table>";
    var fresh = holder.content.querySelector("tr.desk-row");
    var old = document.getElementById(id);
    if (!fresh || !old) return;
    old.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
  }

  function flush() {
    var queue = load();
    if (sending || !queue.length || navigator.onLine === false) return;
    var item = queue[0];
    sending = true;
    var body = new FormData();
    item.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    body.append("csrfmiddlewaretoken", csrf());
    fetch(item.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": csrf() },
    }).then(function (response) {
      return response.text().then(function (text) {
        sending = false;
        if (response.status >= 500 || response.status === 429) return; // the laptop's own trouble: next round
        save(load().slice(1));
        if (response.status === 200) {
          place(text, item.row); // saved, or refused with the reason next to the box
        } else {
          var row = document.getElementById(item.row);
          var form = row && row.querySelector("form.desk-form");
          if (form) {
            var said = document.createElement("p");
            said.className = "error answer-error";
            said.setAttribute("role", "alert");
            said.textContent = "Not saved: the laptop turned this slip away (" + response.status + "). Type it again.";
            form.insertBefore(said, form.firstChild);
          }
        }
        notes();
        flush();
      });
    }).catch(function () {
      sending = false; // still no answer: the next round tries again
    });
  }

  document.addEventListener("htmx:afterSwap", notes);
  window.addEventListener("online", flush);
  function start() {
    notes();
    flush();
    window.setInterval(flush, 3000);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
