/* The room display's stage: slides that take turns (the seating, the leaders, the prizes), each laid out in pages
   that fit the screen and turn by themselves, "page 2 of 4" beside the title. Every name is on screen in turn and
   held still for several seconds; nothing scrolls, so a name is never read on the move.

   A slide is `[data-slides] > section`; a paged slide holds `[data-items]` (a list's items, or a table's rows)
   inside a `.page-box` that the page fills. `data-seconds`: how long a page stays; `data-cycle`: the seating's
   pages, with the slides after them, come round again within that many seconds (a page never stays less than
   MIN_SECONDS); `data-max-pages`: show only the first pages (the leaders).

   The room is redrawn by htmx when the game moves; the show goes on where it was if the stage shows the same thing
   (its `data-key`), else it starts again from the first page. A draw shown as a band above the seating goes by
   itself at `data-until` (the server's clock). */
(function () {
  "use strict";
  var MIN_SECONDS = 5;
  // Where the show is: the slide, its page, when the page turns, and the first line on it (a page count that
  // changes under the show, the screen resized or a band come or gone, goes on from that line, skipping nobody).
  var show = { key: null, slide: 0, page: 0, until: 0, first: 0, per: 0 };
  var timer = null;
  var offset = 0; // the server's clock minus this device's

  function stage() {
    return document.querySelector("[data-slides]");
  }

  function slides() {
    var root = stage();
    return root ? Array.prototype.slice.call(root.children) : [];
  }

  function lines(slide) {
    var box = slide.querySelector("[data-items]");
    return box ? Array.prototype.slice.call(box.children) : [];
  }

  function gap(element) {
    var value = parseFloat(window.getComputedStyle(element).columnGap);
    return isNaN(value) ? 0 : value;
  }

  var SMALLEST = 0.6; // the smallest a line too long for its column is drawn, of the list's size

  // How many lines a page of this slide holds; for a list, also its columns and rows, set on the list.
  function measure(slide) {
    var items = lines(slide);
    var box = slide.querySelector(".page-box");
    var list = slide.querySelector("[data-items]");
    if (!items.length || !box || !list) return { per: 1, pages: 1 };
    items.forEach(function (item) { item.hidden = false; });
    var height = box.clientHeight;
    var per;
    if (list.tagName === "TBODY") {
      var head = box.querySelector("thead");
      var row = 0;
      items.forEach(function (item) { row = Math.max(row, item.offsetHeight); });
      per = Math.max(1, Math.floor((height - (head ? head.offsetHeight : 0)) / Math.max(row, 1)));
    } else {
      // Each line at its own width (its name and its seat side by side, nothing cut), then the columns that fit.
      // A line far longer than the rest (an 80-letter name) does not take the others' columns from them: it is
      // drawn smaller, down to SMALLEST of the list's size, whole, in a column the other lines fit.
      list.style.gridTemplateColumns = "1fr";
      list.style.gridTemplateRows = "";
      list.style.gridAutoFlow = "row";
      var widths = [];
      var tallest = 0;
      items.forEach(function (item) { item.style.fontSize = ""; item.style.alignItems = ""; item.style.width = "max-content"; });
      items.forEach(function (item) {
        widths.push(Math.ceil(item.getBoundingClientRect().width) + 2);
        tallest = Math.max(tallest, item.offsetHeight);
      });
      items.forEach(function (item) { item.style.width = ""; });
      var between = gap(list);
      var rows = Math.max(1, Math.floor(height / Math.max(tallest, 1)));
      var widest = Math.max.apply(null, widths);
      var columns = Math.max(1, Math.min(4, Math.floor((box.clientWidth + between) / (widest + between))));
      var pages = Math.ceil(items.length / (rows * columns));
      // More columns than the longest line allows, for fewer pages, only for the few lines far longer than the
      // rest (one in ten at most): every other line keeps the list's size.
      var few = Math.max(1, Math.floor(items.length / 10));
      for (var count = columns + 1; count <= 4; count++) {
        var room = (box.clientWidth + between) / count - between;
        var over = widths.filter(function (width) { return width > room; });
        var fewer = Math.ceil(items.length / (rows * count)) < pages;
        if (fewer && over.length <= few && over.every(function (width) { return width * SMALLEST <= room; })) {
          columns = count;
          pages = Math.ceil(items.length / (rows * count));
        }
      }
      var column = (box.clientWidth + between) / columns - between;
      items.forEach(function (item, index) {
        var small = widths[index] > column;
        item.style.fontSize = small ? Math.max(SMALLEST, (column / widths[index]) * 0.97) * 100 + "%" : "";
        item.style.alignItems = small ? "center" : ""; // mid-line in its row, as the full-size lines read
      });
      list.style.gridTemplateColumns = "repeat(" + columns + ", minmax(0, 1fr))";
      list.style.gridTemplateRows = "repeat(" + rows + ", " + tallest + "px)";
      list.style.gridAutoFlow = "column";
      per = rows * columns;
    }
    var pages = Math.ceil(items.length / per);
    var most = parseInt(slide.getAttribute("data-max-pages") || "0", 10);
    return { per: per, pages: most ? Math.min(most, pages) : pages };
  }

  function plan() {
    var all = slides();
    var laid = all.map(function (slide) {
      var fit = slide.hasAttribute("data-paged") ? measureShown(slide) : { per: 1, pages: 1 };
      return { slide: slide, per: fit.per, pages: fit.pages, seconds: parseFloat(slide.getAttribute("data-seconds") || "8") };
    });
    laid.forEach(function (entry) {
      var cycle = parseFloat(entry.slide.getAttribute("data-cycle") || "0");
      if (!cycle || entry.pages < 2) return;
      var others = 0;
      laid.forEach(function (other) { if (other !== entry) others += other.pages * other.seconds; });
      var fits = (cycle - others) / entry.pages;
      entry.seconds = Math.max(MIN_SECONDS, Math.min(entry.seconds, fits));
    });
    return laid;
  }

  // Measuring needs the slide on screen: shown for the moment, then put back as it was.
  function measureShown(slide) {
    var wasHidden = slide.hidden;
    slide.hidden = false;
    var fit = measure(slide);
    slide.hidden = wasHidden;
    return fit;
  }

  function paint(laid) {
    laid.forEach(function (entry, index) {
      var current = index === show.slide;
      entry.slide.hidden = !current;
      if (!current) return;
      var items = lines(entry.slide);
      var first = show.page * entry.per;
      show.first = first;
      show.per = entry.per;
      items.forEach(function (item, at) { item.hidden = at < first || at >= first + entry.per; });
      var label = entry.slide.querySelector("[data-page-label]");
      if (label) label.textContent = entry.pages > 1 ? "· page " + (show.page + 1) + " of " + entry.pages : "";
    });
  }

  // The page that holds the line the show was at, after a change of the page's size.
  function keepPlace(laid) {
    var entry = laid[Math.min(show.slide, laid.length - 1)];
    if (show.per && entry.per !== show.per) show.page = Math.floor(show.first / entry.per);
    show.page = Math.min(show.page, entry.pages - 1);
  }

  function turn() {
    var laid = plan();
    if (!laid.length) return;
    keepPlace(laid);
    show.page += 1;
    if (show.page >= laid[show.slide].pages) {
      show.page = 0;
      show.slide = (show.slide + 1) % laid.length;
    }
    begin(laid);
  }

  function begin(laid) {
    paint(laid);
    var seconds = laid[show.slide].seconds;
    show.until = Date.now() + seconds * 1000;
    schedule(seconds * 1000);
  }

  function schedule(ms) {
    window.clearTimeout(timer);
    timer = window.setTimeout(turn, Math.max(ms, 250));
  }

  // A new or redrawn stage: go on where the show was if it shows the same thing, else from the start.
  function take() {
    var root = stage();
    if (!root) return;
    var key = root.getAttribute("data-key");
    var laid = plan();
    if (!laid.length) return;
    if (key !== show.key) {
      show.key = key;
      show.slide = 0;
      show.page = 0;
      show.per = 0;
      begin(laid);
      return;
    }
    show.slide = Math.min(show.slide, laid.length - 1);
    keepPlace(laid);
    paint(laid);
    schedule(show.until - Date.now());
  }

  function relayout() {
    var laid = plan();
    if (!laid.length) return;
    show.slide = Math.min(show.slide, laid.length - 1);
    keepPlace(laid);
    paint(laid);
  }

  function syncClock() {
    var element = document.querySelector("#room[data-server-now]");
    if (element) offset = Number(element.getAttribute("data-server-now")) - Date.now();
  }

  // A draw's band goes at its time; the seating then has the room again.
  function drawDue() {
    var band = document.querySelector(".room-draw[data-until]");
    if (!band || band.hidden) return;
    var until = Number(band.getAttribute("data-until"));
    if (until && Date.now() + offset >= until) {
      band.hidden = true;
      relayout();
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    syncClock();
    drawDue();
    take();
    window.setInterval(drawDue, 1000);
  });
  document.addEventListener("htmx:afterSwap", function () {
    syncClock();
    drawDue();
    take();
  });
  var resized = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(resized);
    resized = window.setTimeout(relayout, 200);
  });
})();
