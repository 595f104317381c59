/* The live slideshow's own script (make present): the presenting server puts it in RISE's slideshow page
   (dpteach.publish.present), before the page's application starts.

   1. Keys pressed while a widget has the focus (a slider, right after it was dragged) either go to the widget
      or do what they do on a slide. The slide-moving keys (arrows, Page Up/Down, Home, End, Space) pass as
      they are; every other key stays with the widget: it does not reach JupyterLab's notebook shortcuts, which
      inserted, cut, pasted or retyped cells of the presented notebook (A, B, X, V, M, D D), restarted its
      kernel (0 0), or opened RISE's own speaker notes (T), whose window sent the show back to its first slide
      (jupyterlab-contrib/rise#47, #74). T is never RISE's notes here, widget or not: the speaker view
      (dpteach-presenter.html) is this show's.
   2. The toolbars JupyterLab builds for the presented notebook (hidden on the slides) no longer recompute
      their colour from their parent's when they are attached: in the slideshow's page that recomputation
      recursed without end (about 24 "RangeError: Maximum call stack size exceeded" in the console; the same
      loop as jupyterlab/jupyterlab#17877, in @jupyter/web-components' Toolbar.connectedCallback). */
(function () {
  "use strict";
  var SLIDE_KEYS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "];

  function editable(el) {
    return !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || !!el.closest(".cm-editor"));
  }

  window.addEventListener("keydown", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target || event.ctrlKey || event.metaKey || event.altKey) { return; }
    var inWidget = !!target.closest(".jupyter-widgets");
    var notes = (event.key === "t" || event.key === "T") && !editable(target);
    if ((inWidget && SLIDE_KEYS.indexOf(event.key) < 0) || notes) {
      // the widget still gets what the browser does with the key (typing in a text box, a button's Enter)
      event.stopImmediatePropagation();
    }
  }, true);

  var define = CustomElementRegistry.prototype.define;
  CustomElementRegistry.prototype.define = function (name, constructor, options) {
    if (/-toolbar$/.test(name)) {
      for (var proto = constructor.prototype; proto && proto !== HTMLElement.prototype; proto = Object.getPrototypeOf(proto)) {
        var own = Object.getOwnPropertyDescriptor(proto, "connectedCallback");
        if (own && typeof own.value === "function" && /setValueFor/.test(String(own.value))) {
          var base = Object.getPrototypeOf(proto);
          proto.connectedCallback = function () { base.connectedCallback.call(this); };
          break;
        }
      }
    }
    return define.call(this, name, constructor, options);
  };
})();
