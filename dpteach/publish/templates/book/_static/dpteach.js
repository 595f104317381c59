/* dpteach's book: describe every widget figure and name every control, once the widget
   renderer has drawn them (it draws after the page loads, from the saved widget state).
   Each widget view's JSON carries "dpteach_alt": one text alternative per image, in the
   order the renderer draws them (written at build time by dpteach.publish.book_site). */
(function () {
  "use strict";
  var VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]';

  function describeFigures() {
    document.querySelectorAll(VIEW).forEach(function (tag) {
      var data;
      try { data = JSON.parse(tag.textContent); } catch (e) { return; }
      var alts = data.dpteach_alt, frames = data.dpteach_frames;
      var view = tag.previousElementSibling;       // the renderer inserts the view just before its tag
      if (!alts || !alts.length || !view) { return; }
      if (frames) {
        // A precomputed view draws one frame at a time: describe it by the slider's current label, and say the
        // new description in a polite live region once the slider rests (unless the view's own anywidget does).
        var readout = view.querySelector(".widget-readout");
        var i = readout ? frames.labels.indexOf(readout.textContent.trim()) : -1;
        var alt = i >= 0 ? frames.alts[i] : frames.alts[0];
        view.querySelectorAll("img").forEach(function (img) {
          if (img.getAttribute("alt") !== alt) { img.setAttribute("alt", alt); }
        });
        announce(view, alt);
        return;
      }
      view.querySelectorAll("img").forEach(function (img, i) {
        img.setAttribute("alt", alts[Math.min(i, alts.length - 1)]);
      });
    });
  }

  // The live region of a precomputed view: it says the frame's description once the slider has rested REST_MS
  // (not every frame of a drag), and never what the page showed at first.
  var REST_MS = 500;
  var HIDDEN = "position:absolute;width:1px;height:1px;margin:-1px;padding:0;border:0;overflow:hidden;" +
    "clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap";
  function announce(view, text) {
    if (view.querySelector(".dpteach-access:not(.dpteach-access-fallback)")) {     // its anywidget says it
      if (view.dpteachLive) { view.dpteachLive.remove(); view.dpteachLive = null; }
      return;
    }
    var region = view.dpteachLive;
    if (!region) {
      region = view.dpteachLive = document.createElement("div");
      region.className = "dpteach-live";
      region.setAttribute("role", "status");
      region.setAttribute("aria-live", "polite");
      region.setAttribute("aria-atomic", "true");
      region.style.cssText = HIDDEN;
      view.appendChild(region);
      view.dpteachShown = text;
      return;
    }
    if (text === view.dpteachShown) { return; }
    view.dpteachShown = text;
    clearTimeout(view.dpteachTimer);
    view.dpteachTimer = setTimeout(function () { region.textContent = view.dpteachShown; }, REST_MS);
  }

  // A slider announces the value its readout shows, not its option's index or its log exponent (noUiSlider writes
  // its own aria-valuetext on every move: a per-handle observer puts the readout's text back at once).
  function readOut(handle) {
    var slider = handle.closest(".widget-slider"), readout = slider && slider.querySelector(".widget-readout");
    var view = handle.closest(".widget-subarea"), tag = view && view.parentElement &&
      view.parentElement.querySelector(VIEW), frames = null;
    if (tag) { try { frames = JSON.parse(tag.textContent).dpteach_frames; } catch (e) { frames = null; } }
    var now = Math.round(parseFloat(handle.getAttribute("aria-valuenow")));
    if (frames && frames.labels[now] !== undefined) { return frames.labels[now]; }   // (ahead of its readout)
    return readout && readout.style.display !== "none" ? readout.textContent.trim() : null;
  }
  function valueTexts() {
    document.querySelectorAll('.jupyter-widgets .noUi-handle[role="slider"]').forEach(function (handle) {
      var put = function () {
        var text = readOut(handle);
        if (text && handle.getAttribute("aria-valuetext") !== text) { handle.setAttribute("aria-valuetext", text); }
      };
      put();
      if (!handle.dpteachValueText) {
        handle.dpteachValueText = new MutationObserver(put);
        handle.dpteachValueText.observe(handle, { attributes: true, attributeFilter: ["aria-valuetext", "aria-valuenow"] });
      }
    });
  }

  // Formulas: MathJax 2 made each one a Tab stop (its menu; off in the book's MathJax configuration). A display
  // formula wider than its column scrolls inside its box, which is then a Tab stop of its own (to scroll it by
  // keyboard), named as a formula; it stops being one when it fits again.
  function scrollingFormulas() {
    document.querySelectorAll("main div.math").forEach(function (box) {
      var scrolls = box.scrollWidth > box.clientWidth + 1;
      if (scrolls && !box.dataset.dpteachScrolls) {
        box.dataset.dpteachScrolls = "1";
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "group");
        box.setAttribute("aria-label", "Formula, wider than the page: scroll it sideways");
      } else if (!scrolls && box.dataset.dpteachScrolls) {
        delete box.dataset.dpteachScrolls;
        ["tabindex", "role", "aria-label"].forEach(function (name) { box.removeAttribute(name); });
      }
    });
  }

  // A figure squeezed so small that a tap opens it enlarged (see openZoom) is a Tab stop, opened by Enter or Space.
  function zoomableFigures() {
    document.querySelectorAll(".cell_output img, .jupyter-widgets img").forEach(function (img) {
      if (img.closest(".dpteach-zoom") || !img.naturalWidth) { return; }
      var shrunk = img.getClientRects().length > 0 && img.getBoundingClientRect().width <= img.naturalWidth * SHRUNK;
      if (shrunk && !img.dataset.dpteachZoom) {
        img.dataset.dpteachZoom = "1";
        img.setAttribute("tabindex", "0");
      } else if (!shrunk && img.dataset.dpteachZoom) {
        delete img.dataset.dpteachZoom;
        img.removeAttribute("tabindex");
      }
    });
  }

  function nameControls() {
    // A control's visible label is a .widget-label child of one of its ancestors (the widget's own box).
    document.querySelectorAll('.jupyter-widgets [role="slider"], .jupyter-widgets input, .jupyter-widgets select, .jupyter-widgets textarea')
      .forEach(function (el) {
        if (el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby")) { return; }
        for (var box = el.parentElement; box && !box.classList.contains("widget-subarea"); box = box.parentElement) {
          var label = box.querySelector(":scope > .widget-label");
          if (label && label.textContent.trim()) { el.setAttribute("aria-label", label.textContent.trim()); return; }
        }
      });
  }

  // Search results (search.html): a page found for every word of the query links to its
  // section whose title holds them all ("Theorem 3.8" lands on the section on Theorem 3.8).
  function anchorSearchResults() {
    // searchtools.js declares Search with const: a global name, not a property of window
    var index = typeof Search !== "undefined" && Search._index;
    var query = new URLSearchParams(window.location.search).get("q");
    if (!index || !query) { return; }
    var words = query.toLowerCase().split(/\s+/).filter(Boolean);
    document.querySelectorAll("#search-results ul.search li > a").forEach(function (a) {
      var href = a.getAttribute("href");
      if (a.dataset.dpteachSection) { return; }
      a.dataset.dpteachSection = href.indexOf("#") >= 0 ? "sphinx" : "checked";   // a title Sphinx found: its own
      if (href.indexOf("#") >= 0) { return; }
      var file = index.docnames.indexOf(href.split("?")[0].replace(/\.html$/, ""));
      var best = null;           // the shortest (most specific) section title holding every word
      Object.keys(index.alltitles).forEach(function (title) {
        var lower = title.toLowerCase();
        if ((best && best[0].length <= title.length) || !words.every(function (w) { return lower.indexOf(w) >= 0; })) { return; }
        index.alltitles[title].forEach(function (place) {
          if (place[0] === file && place[1] && index.titles[file] !== title) { best = [title, place[1]]; }
        });
      });
      if (best) {
        a.setAttribute("href", href + "#" + best[1]);
        var where = document.createElement("span");
        where.className = "dpteach-search-section";
        where.textContent = " › " + best[0];
        a.appendChild(where);
      }
    });
  }

  // Dead sliders: a figure drawn from its saved widget state has no kernel behind it, so its
  // controls could move while the figure stays as it was saved. They are disabled, with a short
  // note. A precomputed view (its slider picks frames in the browser) stays live: the book marks
  // it with "dpteach_frames", the slides with "dpteach_precomputed".
  var DEAD_NOTE = "Saved figure: its controls need a running kernel (open the chapter in JupyterLab).";
  var CONTROLS = ".noUi-target, button, input, select, textarea, .widget-readout, [role=slider], [tabindex]";
  function disableDeadControls() {
    document.querySelectorAll(VIEW).forEach(function (tag) {
      var view = tag.previousElementSibling, data;
      if (!view || !view.classList.contains("jupyter-widgets") && !view.querySelector(".jupyter-widgets")) { return; }
      try { data = JSON.parse(tag.textContent); } catch (e) { return; }
      if (data.dpteach_frames || data.dpteach_precomputed) { return; }
      var controls = [].filter.call(view.querySelectorAll(CONTROLS), function (el) { return el.tagName !== "IMG"; });
      if (!controls.length) { return; }     // (a figure stays: a squeezed one opens enlarged, by keyboard too)
      controls.forEach(function (el) {
        if (el.classList.contains("noUi-target") || el.getAttribute("role") === "slider") { el.setAttribute("disabled", "true"); }
        if ("disabled" in el) { el.disabled = true; }
        if (el.hasAttribute("contenteditable")) { el.setAttribute("contenteditable", "false"); }
        if (el.hasAttribute("tabindex")) { el.setAttribute("tabindex", "-1"); }
        el.setAttribute("aria-disabled", "true");
      });
      if (!view.classList.contains("dpteach-dead")) {
        view.classList.add("dpteach-dead");
        var note = document.createElement("p");
        note.className = "dpteach-dead-note";
        note.textContent = DEAD_NOTE;
        view.parentElement.insertBefore(note, view);
      }
    });
  }

  // The sidebars' buttons on a phone: the theme (pydata-sphinx-theme 0.20, sphinx-book-theme 1.4) binds its
  // handler to the first ☰ (and the first "contents") button of the page, the header's, which is hidden at a
  // phone's width; the one the reader sees, above the article, did nothing. It now does what the first does.
  function bindSidebarToggles() {
    ["primary-toggle", "secondary-toggle"].forEach(function (name) {
      var toggles = document.querySelectorAll("." + name);
      for (var i = 1; i < toggles.length; i++) {
        if (toggles[i].dataset.dpteachBound) { continue; }
        toggles[i].dataset.dpteachBound = "1";
        toggles[i].addEventListener("click", function (event) {
          event.preventDefault();
          event.stopPropagation();
          toggles[0].click();
        });
      }
    });
  }

  // A figure squeezed to a phone's width (text of 5-6 px) opens, when tapped, over the page at its own size
  // or more, so that its smallest text is 13 px (the PNG says how small it is drawn, "dpteach:text-px"; else
  // 1.25 times its pixels), to be panned; ✕ or Escape closes it.
  var SHRUNK = 0.6, TEXT = 13, ZOOM = 1.25;
  function pngTextPx(bytes) {
    for (var at = 8; at + 8 <= bytes.length;) {
      var length = (bytes[at] << 24 | bytes[at + 1] << 16 | bytes[at + 2] << 8 | bytes[at + 3]) >>> 0;
      var kind = String.fromCharCode(bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]);
      if (kind === "tEXt") {
        var text = String.fromCharCode.apply(null, bytes.subarray(at + 8, at + 8 + length)).split("\0");
        if (text[0] === "dpteach:text-px") { return parseFloat(text[1]); }
      }
      if (kind === "IDAT" || kind === "IEND") { return null; }
      at += 12 + length;
    }
    return null;
  }
  function closeZoom() {
    var box = document.querySelector(".dpteach-zoom");
    if (!box) { return; }
    box.remove();
    document.documentElement.classList.remove("dpteach-zoomed");
    if (box.dpteachFrom && box.dpteachFrom.focus) { box.dpteachFrom.focus(); }
  }
  function openZoom(img) {
    closeZoom();
    var box = document.createElement("div");
    box.className = "dpteach-zoom";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-modal", "true");
    box.setAttribute("aria-label", "The figure, enlarged: pan it; Close or Escape to go back");
    box.dpteachFrom = img;
    var close = document.createElement("button");
    close.type = "button";
    close.className = "dpteach-zoom-close";
    close.textContent = "✕ Close";
    close.addEventListener("click", closeZoom);
    var copy = document.createElement("img");
    copy.src = img.src;
    copy.alt = img.alt;
    copy.style.width = Math.round(img.naturalWidth * ZOOM) + "px";
    box.appendChild(close);
    box.appendChild(copy);
    document.body.appendChild(box);
    document.documentElement.classList.add("dpteach-zoomed");
    close.focus();
    fetch(img.src).then(function (r) { return r.arrayBuffer(); }).then(function (buffer) {
      var px = pngTextPx(new Uint8Array(buffer));
      if (px) { copy.style.width = Math.round(img.naturalWidth * Math.max(ZOOM, TEXT / px)) + "px"; }
    }).catch(function () { /* the figure stays at ZOOM */ });
  }
  document.addEventListener("click", function (event) {
    var img = event.target.closest && event.target.closest(".cell_output img, .jupyter-widgets img");
    if (!img || img.closest(".dpteach-zoom") || !img.naturalWidth) { return; }
    if (img.getBoundingClientRect().width > img.naturalWidth * SHRUNK) { return; }    // readable as it is
    event.preventDefault();
    openZoom(img);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && document.querySelector(".dpteach-zoom")) { event.preventDefault(); closeZoom(); }
    var img = event.target;
    if ((event.key === "Enter" || event.key === " ") && img.dataset && img.dataset.dpteachZoom && img.tagName === "IMG") {
      event.preventDefault();
      openZoom(img);
    }
  });

  // A book built for the network (make html ONLINE=1, or a course's book) loads MathJax and the widget renderer
  // from CDNs: opened without a network its formulas stay TeX and its widget figures are missing. Say so.
  function sayWhenTheNetworkIsMissing() {
    var remote = [].slice.call(document.querySelectorAll("script[src]")).map(function (s) { return s.src; })
      .filter(function (src) { return /^https?:/.test(src); });
    var maths = remote.some(function (src) { return /mathjax/i.test(src); }) && !window.MathJax;
    var widgets = remote.some(function (src) { return /require|embed-amd|html-manager/.test(src); }) && !window.require;
    if (!(maths || widgets) || document.querySelector(".dpteach-offline-note")) { return; }
    var note = document.createElement("p");
    note.className = "dpteach-offline-note";
    note.setAttribute("role", "status");
    note.textContent = "This copy of the book loads its " + (maths ? "formulas" : "") + (maths && widgets ? " and " : "") +
      (widgets ? "interactive figures" : "") + " from the internet (MathJax and the widget renderer, from public " +
      "servers), and there is no network: the formulas show as TeX and the figures inside widgets are missing. " +
      "Connect to a network, or read a copy built with make html, which needs none.";
    var article = document.querySelector(".bd-article, article, main") || document.body;
    article.insertBefore(note, article.firstChild);
  }
  window.addEventListener("load", sayWhenTheNetworkIsMissing);

  var pending = false;
  function update() {
    if (pending) { return; }
    pending = true;
    window.requestAnimationFrame(function () {
      pending = false; describeFigures(); nameControls(); valueTexts(); anchorSearchResults(); disableDeadControls();
      bindSidebarToggles(); scrollingFormulas(); zoomableFigures();
    });
  }
  window.addEventListener("resize", update);
  window.addEventListener("load", update);

  function start() {
    update();
    new MutationObserver(update).observe(document.body, { childList: true, subtree: true, characterData: true });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();

/* Search ranking (Sphinx's searchtools.js uses a global Scorer when one is defined before it
   loads): Sphinx's own weights, and a chapter whose title holds the whole query comes first. */
var Scorer = {
  score: function (result) {
    var query = (new URLSearchParams(window.location.search).get("q") || "").toLowerCase().trim();
    var title = String(result[1] || "").toLowerCase();
    return result[4] + (query.length > 2 && title.indexOf(query) >= 0 ? 30 : 0);
  },
  objNameMatch: 11, objPartialMatch: 6, objPrio: { 0: 15, 1: 5, 2: -5 }, objPrioDefault: 0,
  title: 15, partialTitle: 7, term: 5, partialTerm: 2
};
