// dpteach's screen-reader access to a live figure and its controls (an anywidget ESM: render({model, el})).
//
// Placed inside an interactive figure's box (class dpteach-interactive, or dpteach-precomputed), it
//  1. names every control: a slider handle (role=slider) gets its visible label as aria-label, the direction row
//     under it as aria-describedby, and aria-valuetext = exactly the text its readout shows (kept in step with a
//     MutationObserver); the readout is named "<label> value"; a toggle button exposes aria-pressed; the Reset
//     button's icon is hidden from the accessibility tree, so its name is "Reset";
//  2. sets the figure image's alt to the model's `alt` (or, in a precomputed view, `alts[index]`), again whenever
//     the image view replaces its <img> or its src;
//  3. announces that text in a visually hidden polite live region once the controls rest (debounced), never
//     taking the focus;
//  4. offers a "Data" toggle (a native button with aria-expanded) that shows the figure's data as a <table>;
//  5. keeps the focus on a control when JupyterLab moves it, unasked, to the control's own cell (see keepFocus);
//  6. where `points` is non-empty, an "Explore the curve" element: arrow keys walk the points of a series,
//     Home/End jump, up/down switch series, and an assertive live region reads "x = …, y = …"; an optional tone
//     (Web Audio, off by default) follows y.
// Self-contained: the DOM and model.get/model.on only (no imports, no network, no globals), so the same file runs
// in JupyterLab, in the live slides and in the offline book (through a small loader that calls render).

const REST_MS = 500;
// a focus move to the cell within this long of a pointer press or Escape is the student's own: it stays
const INTENT_MS = 400;
const BOXES = ".dpteach-interactive, .dpteach-precomputed";
const HIDDEN = "position:absolute;width:1px;height:1px;margin:-1px;padding:0;border:0;overflow:hidden;" +
  "clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap";
let counter = 0;

function uid(prefix) {
  counter += 1;
  return `dpteach-a11y-${prefix}-${Date.now().toString(36)}-${counter}`;
}

function setAttr(node, name, value) {
  if (value === null || value === undefined) {
    if (node.hasAttribute(name)) node.removeAttribute(name);
  } else if (node.getAttribute(name) !== String(value)) {
    node.setAttribute(name, String(value));
  }
}

/** A number to 3 significant figures, as a person writes it: 0.5, 1230, 1.2e−6, with a real minus sign. */
export function formatNumber(value) {
  const v = Number(value);
  if (!Number.isFinite(v)) return String(value);
  if (v === 0) return "0";
  const a = Math.abs(v);
  const text = a >= 1e-3 && a < 1e6 ? String(parseFloat(v.toPrecision(3))) : v.toExponential(2).replace(/\.?0+e/, "e");
  return text.replace("e+", "e").replace(/-/g, "\u2212");
}

function labelOf(control) {
  const label = control.querySelector(".widget-label");
  return label ? label.textContent.trim() : "";
}

/** The controls of the box: one pass that sets each attribute only where it differs (so it never loops). */
function nameControls(box, own) {
  for (const control of box.querySelectorAll(".widget-slider")) {
    if (own.contains(control)) continue;
    const name = labelOf(control);
    const readout = control.querySelector(".widget-readout");
    const shown = readout && readout.style.display !== "none" ? readout.textContent.trim() : null;
    let row = control.nextElementSibling;
    row = row && row.classList.contains("dpteach-direction") ? row : null;
    if (row && !row.id) row.id = uid("direction");
    for (const handle of control.querySelectorAll(".noUi-handle")) {
      if (name) setAttr(handle, "aria-label", name);
      if (row) setAttr(handle, "aria-describedby", row.id);
      if (shown !== null && shown !== "") setAttr(handle, "aria-valuetext", shown);
    }
    if (readout) {
      setAttr(readout, "role", "textbox");
      if (name) setAttr(readout, "aria-label", `${name} value`);
    }
  }
  for (const button of box.querySelectorAll("button.widget-toggle-button")) {
    if (!own.contains(button)) setAttr(button, "aria-pressed", button.classList.contains("mod-active") ? "true" : "false");
  }
  for (const button of box.querySelectorAll("button.widget-button")) {
    if (own.contains(button)) continue;
    for (const icon of button.querySelectorAll("i")) setAttr(icon, "aria-hidden", "true");
    if (button.classList.contains("dpteach-reset")) setAttr(button, "aria-label", "Reset");
  }
}

function buildTable(holder, table) {
  holder.textContent = "";
  if (!table || !Array.isArray(table.columns) || table.columns.length === 0) return false;
  const t = document.createElement("table");
  t.style.cssText = "border-collapse:collapse;margin:4px 0;font-size:90%";
  const caption = document.createElement("caption");
  caption.textContent = table.caption || "The figure's data";
  caption.style.cssText = "text-align:left;font-weight:bold;padding:2px 0";
  t.appendChild(caption);
  const head = t.createTHead().insertRow();
  for (const column of table.columns) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = String(column);
    th.style.cssText = "border-bottom:1px solid #444;padding:2px 8px;text-align:right";
    head.appendChild(th);
  }
  const body = t.createTBody();
  for (const row of table.rows || []) {
    const tr = body.insertRow();
    for (const cell of row) {
      const td = tr.insertCell();
      td.textContent = String(cell);
      td.style.cssText = "padding:2px 8px;text-align:right";
    }
  }
  holder.appendChild(t);
  return true;
}

function button(text, extra) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.style.cssText = "margin:2px 6px 2px 0;padding:2px 10px;font:inherit;color:#1a1a1a;background:#f0f0f0;" +
    "border:1px solid #555;border-radius:3px;cursor:pointer";
  Object.entries(extra || {}).forEach(([k, v]) => b.setAttribute(k, v));
  return b;
}

export function render({ model, el }) {
  el.classList.add("dpteach-access");
  el.style.cssText = "position:relative;font-size:var(--jp-widgets-font-size, 13px)";
  const status = document.createElement("div");
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  status.setAttribute("aria-atomic", "true");
  status.className = "dpteach-live";
  status.style.cssText = HIDDEN;
  const reading = document.createElement("div");       // what the curve explorer reads, at once
  reading.setAttribute("aria-live", "assertive");
  reading.setAttribute("aria-atomic", "true");
  reading.className = "dpteach-reading";
  reading.style.cssText = HIDDEN;

  const bar = document.createElement("div");
  bar.style.cssText = "display:flex;flex-wrap:wrap;align-items:center";
  const tableId = uid("table");
  const dataButton = button("Data", { "aria-expanded": "false", "aria-controls": tableId, class: "dpteach-data-toggle" });
  const holder = document.createElement("div");
  holder.id = tableId;
  holder.hidden = true;
  holder.className = "dpteach-data";
  dataButton.addEventListener("click", () => {
    const open = dataButton.getAttribute("aria-expanded") !== "true";
    dataButton.setAttribute("aria-expanded", String(open));
    holder.hidden = !open;
  });

  const help = document.createElement("span");
  help.id = uid("help");
  help.textContent = "Left and right arrows walk the curve's points, Home and End jump to its ends, " +
    "up and down switch curves.";
  help.style.cssText = HIDDEN;
  const explore = document.createElement("div");
  explore.tabIndex = 0;
  explore.setAttribute("role", "application");
  explore.setAttribute("aria-label", "Explore the curve");
  explore.setAttribute("aria-describedby", help.id);
  explore.className = "dpteach-explore";
  explore.textContent = "Explore the curve (focus, then ← →)";
  explore.style.cssText = "display:inline-block;margin:2px 6px 2px 0;padding:2px 8px;border:1px dashed #555;" +
    "border-radius:3px;color:#1a1a1a";
  const toneButton = button("Tone", { "aria-pressed": "false", class: "dpteach-tone" });
  bar.append(dataButton, explore, toneButton, help);
  el.append(bar, holder, status, reading);

  // -- the current text alternative, and what announces it --------------------------------------------------
  const current = () => {
    const alts = model.get("alts") || [];
    const index = model.get("index");
    return alts.length && index >= 0 && index < alts.length ? alts[index] : model.get("alt") || "";
  };
  let box = null;
  let timer = null;
  let announced = null;
  const setImages = () => {
    if (!box) return;
    const text = current();
    for (const img of box.querySelectorAll("img.widget-image")) {
      if (text) setAttr(img, "alt", text);
    }
  };
  const announce = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const text = current();
      if (text && text !== announced) {
        announced = text;
        status.textContent = text;
      }
    }, REST_MS);
  };
  const onText = () => {
    setImages();
    announce();
  };

  const refreshTable = () => {
    const has = buildTable(holder, model.get("table"));
    dataButton.hidden = !has;
    if (!has) {
      holder.hidden = true;
      dataButton.setAttribute("aria-expanded", "false");
    }
  };

  // -- the curve explorer ----------------------------------------------------------------------------------
  let series = 0;
  let point = 0;
  let audio = null;
  const refreshPoints = () => {
    const all = model.get("points") || [];
    const has = all.some((s) => Array.isArray(s.points) && s.points.length);
    explore.hidden = !has;
    toneButton.hidden = !has;
    series = Math.min(series, Math.max(all.length - 1, 0));
  };
  const beep = (y, s) => {
    if (toneButton.getAttribute("aria-pressed") !== "true") return;
    const AudioCtx = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!AudioCtx) return;
    audio = audio || new AudioCtx();
    const ys = s.points.map((p) => Number(p[1])).filter(Number.isFinite);
    const low = Math.min(...ys), high = Math.max(...ys);
    const share = high > low ? (Number(y) - low) / (high - low) : 0.5;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 220 * Math.pow(4, share);        // two octaves, 220 to 880 Hz
    gain.gain.value = 0.08;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.12);
  };
  const read = (prefix) => {
    const all = model.get("points") || [];
    const s = all[series];
    if (!s || !s.points || !s.points.length) return;
    point = Math.min(Math.max(point, 0), s.points.length - 1);
    const [x, y] = s.points[point];
    const said = `${s.x || "x"} = ${formatNumber(x)}, ${s.y || "y"} = ${formatNumber(y)}`;
    reading.textContent = prefix ? `${prefix}: ${said}` : said;
    beep(y, s);
  };
  explore.addEventListener("keydown", (event) => {
    const all = model.get("points") || [];
    const s = all[series];
    if (!s) return;
    const n = (s.points || []).length;
    let prefix = "";
    switch (event.key) {
      case "ArrowRight": point = Math.min(point + 1, n - 1); break;
      case "ArrowLeft": point = Math.max(point - 1, 0); break;
      case "Home": point = 0; break;
      case "End": point = n - 1; break;
      case "ArrowUp":
      case "ArrowDown": {
        series = (series + (event.key === "ArrowUp" ? -1 : 1) + all.length) % all.length;
        const next = all[series];
        point = Math.min(point, Math.max((next.points || []).length - 1, 0));
        prefix = `${next.name || `curve ${series + 1}`}, ${series + 1} of ${all.length}`;
        break;
      }
      default: return;
    }
    event.preventDefault();
    event.stopPropagation();        // JupyterLab's and the slides' own arrow keys stay out of it
    read(prefix);
  });
  explore.addEventListener("focus", () => {
    const all = model.get("points") || [];
    const s = all[series];
    if (s) read(`${s.name || "curve"}, point ${point + 1} of ${(s.points || []).length}`);
  });
  toneButton.addEventListener("click", () => {
    const on = toneButton.getAttribute("aria-pressed") !== "true";
    toneButton.setAttribute("aria-pressed", String(on));      // the name stays "Tone": aria-pressed says on/off
    toneButton.style.background = on ? "#cfe0f5" : "#f0f0f0";
  });

  // -- keeping the focus ----------------------------------------------------------------------------------
  // JupyterLab (4.x, Notebook._evtFocusIn) answers a focus on the notebook itself (Run All ends with one) by focusing
  // "the active cell" once that cell is ready, which with a long chapter still running can be seconds later; by then
  // the active cell is the control's own (a focus in a cell makes it active), so the focus leaves the slider for its
  // cell in the middle of a student's key presses. A focus that leaves a control of this box for the cell that holds
  // it, with no pointer press or Escape just before, goes back to the control.
  let intent = -Infinity;
  const onIntent = (event) => {
    if (event.type !== "keydown" || event.key === "Escape") intent = performance.now();
  };
  const keepFocus = (event) => {
    const from = event.target;
    const to = event.relatedTarget;
    if (!to || !to.classList || !to.classList.contains("jp-Notebook-cell") || !to.contains(from)) return;
    if (performance.now() - intent < INTENT_MS) return;
    setTimeout(() => {
      if (document.activeElement === to && from.isConnected) from.focus({ preventScroll: true });
    }, 0);
  };
  document.addEventListener("pointerdown", onIntent, true);
  document.addEventListener("keydown", onIntent, true);

  // -- finding the box, then keeping it in step ------------------------------------------------------------
  let observer = null;
  const attach = () => {
    box = el.closest(BOXES);
    if (!box) return false;
    const sync = () => {
      nameControls(box, el);
      setImages();
    };
    box.addEventListener("focusout", keepFocus);
    observer = new MutationObserver(sync);
    observer.observe(box, { subtree: true, childList: true, characterData: true, attributes: true,
                            attributeFilter: ["src", "alt", "aria-valuetext", "class", "style"] });
    sync();
    return true;
  };
  // the view is rendered before it is attached, and a notebook may attach a cell's output only once it scrolls
  // into view: look again, less and less often (25 ms, then up to once a second), until the box is there
  let wait = 25;
  let waiting = null;
  const waitForBox = () => {
    if (attach()) return;
    waiting = setTimeout(waitForBox, wait);
    wait = Math.min(wait * 2, 1000);
  };
  waitForBox();

  refreshTable();
  refreshPoints();
  setImages();
  announced = current();        // what is on the page at first is not news: announce only changes
  const handlers = [["change:alt", onText], ["change:alts", onText], ["change:index", onText],
                    ["change:table", refreshTable], ["change:points", refreshPoints]];
  handlers.forEach(([name, fn]) => model.on(name, fn));
  return () => {
    clearTimeout(timer);
    clearTimeout(waiting);
    if (observer) observer.disconnect();
    if (box) box.removeEventListener("focusout", keepFocus);
    document.removeEventListener("pointerdown", onIntent, true);
    document.removeEventListener("keydown", onIntent, true);
    handlers.forEach(([name, fn]) => model.off(name, fn));
    if (audio) audio.close();
  };
}

export default { render };
