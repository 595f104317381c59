/* The anywidget front end for the offline book and the static decks: an AMD module named "anywidget", the module
   an anywidget's saved state names (_model_module "anywidget", _model_name "AnyModel", _view_name "AnyView"), so
   that the widget renderer (@jupyter-widgets/html-manager) finds it here, beside require.js, instead of asking a CDN
   for it (a failed request and a console error with the network cut).

   Its view runs the model's own ES module (the `_esm` trait's source) as anywidget does in JupyterLab: the module is
   imported from a Blob URL and its render({model, el}) called with a small adapter of the model (get, set, on, off;
   save_changes and send do nothing: no kernel listens). The same figure then says in the book what it says in the lab
   (the image's alt, a polite live region, the "Data" table, keyboard exploration). Where the module cannot be run
   (an import refused, a module with no render), a minimal renderer of its own sets the figure's alt (the model's
   `alt`, or `alts[index]` of a precomputed view, following the slider), announces a change in a polite live region
   once the slider rests, and offers the `table` ({caption, columns, rows}) behind a "Data" toggle.

   Loaded as a plain script after require.js: define() with a name registers the module for the first require(). */
(function () {
  "use strict";
  if (typeof define !== "function" || !define.amd) { return; }
  var REST_MS = 500;
  var HIDDEN = "position:absolute;width:1px;height:1px;margin:-1px;padding:0;border:0;overflow:hidden;" +
    "clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap";

  function adapter(model) {
    return {
      get: function (name) { return model.get(name); },
      set: function (name, value) { model.set(name, value); },
      on: function (event, callback) { model.on(event, callback); },
      off: function (event, callback) { model.off(event, callback || null); },
      save_changes: function () {},
      send: function () {},
      widget_manager: model.widget_manager
    };
  }

  function importSource(source) {
    var url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    return import(url).then(function (module) { URL.revokeObjectURL(url); return module; },
                            function (error) { URL.revokeObjectURL(url); throw error; });
  }

  /** The module's render: `export default {render}`, a default function returning one, or `export function render`. */
  function widgetOf(module) {
    var found = module && module.default;
    return Promise.resolve(typeof found === "function" ? found() : found).then(function (def) {
      var render = (def && def.render) || module.render;
      if (typeof render !== "function") { throw new Error("the anywidget module has no render()"); }
      return { render: render, initialize: (def && def.initialize) || module.initialize };
    });
  }

  /** The text alternative now: a precomputed view's frame (alts[index]), else the figure's alt. */
  function currentAlt(model) {
    var alts = model.get("alts") || [], index = model.get("index");
    return alts.length && index >= 0 && index < alts.length ? alts[index] : model.get("alt") || "";
  }

  function dataTable(table) {
    var element = document.createElement("table");
    if (table.caption) { element.createCaption().textContent = table.caption; }
    var head = element.createTHead().insertRow();
    (table.columns || []).forEach(function (name) {
      var th = document.createElement("th");
      th.scope = "col";
      th.textContent = name;
      head.appendChild(th);
    });
    var body = element.createTBody();
    (table.rows || []).forEach(function (row) {
      var tr = body.insertRow();
      row.forEach(function (cell) { tr.insertCell().textContent = cell; });
    });
    return element;
  }

  /** The minimal renderer: alt, live region and Data table, for the box (the figure's widget box) around `el`. */
  function fallback(model, el) {
    el.classList.add("dpteach-access", "dpteach-access-fallback");
    var status = document.createElement("div");
    status.className = "dpteach-live";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    status.setAttribute("aria-atomic", "true");
    status.style.cssText = HIDDEN;
    el.appendChild(status);
    var table = model.get("table") || {};
    if (table.columns && table.columns.length) {
      var details = document.createElement("details");
      details.className = "dpteach-data";
      var summary = document.createElement("summary");
      summary.textContent = "Data";
      details.appendChild(summary);
      details.appendChild(dataTable(table));
      el.appendChild(details);
    }
    var box = null, timer = null, announced = currentAlt(model);
    function images() {
      box = box || el.parentElement && el.parentElement.closest(".widget-box, .widget-container") || el.parentElement;
      var text = currentAlt(model);
      if (box && text) {
        box.querySelectorAll("img").forEach(function (img) {
          if (img.getAttribute("alt") !== text) { img.setAttribute("alt", text); }
        });
      }
    }
    function changed() {
      images();
      clearTimeout(timer);
      timer = setTimeout(function () {
        var text = currentAlt(model);
        if (text && text !== announced) { announced = text; status.textContent = text; }
      }, REST_MS);
    }
    ["change:alt", "change:alts", "change:index"].forEach(function (name) { model.on(name, changed); });
    window.requestAnimationFrame(function () {       // the box is drawn by now: follow its image as it changes
      images();
      if (box) { new MutationObserver(images).observe(box, { childList: true, subtree: true, attributeFilter: ["src"] }); }
    });
  }

  // ES classes, not Backbone's extend: the renderer calls the model class's static methods (_deserialize_state),
  // which extend does not copy from a class.
  define("anywidget", ["@jupyter-widgets/base"], function (base) {
    class AnyModel extends base.DOMWidgetModel {
      defaults() {
        return Object.assign(super.defaults(), {
          _model_name: "AnyModel", _model_module: "anywidget", _view_name: "AnyView", _view_module: "anywidget"
        });
      }
    }
    class AnyView extends base.DOMWidgetView {
      render() {
        var model = this.model, el = this.el, view = this, source = model.get("_esm") || "";
        el.classList.add("dpteach-anywidget");
        var ready = /^(https?:|file:)/.test(source.trim()) || !source.trim()
          ? Promise.reject(new Error("no module source in the saved state"))
          : importSource(source).then(widgetOf);
        return ready.then(function (widget) {
          if (widget.initialize && !model.dpteachInitialized) {
            model.dpteachInitialized = true;
            widget.initialize({ model: adapter(model) });
          }
          return widget.render({ model: adapter(model), el: el });
        }).then(function (cleanup) {
          view.dpteachCleanup = typeof cleanup === "function" ? cleanup : null;
        }).catch(function () {
          fallback(model, el);
        });
      }
      remove() {
        if (this.dpteachCleanup) { this.dpteachCleanup(); }
        return super.remove();
      }
    }
    return { AnyModel: AnyModel, AnyView: AnyView };
  });
})();
