"""What a screen reader gets from the live workbook in the real JupyterLab (headless Chromium, playwright).

Read from Chromium's accessibility tree (CDP ``Accessibility.getPartialAXTree`` of each element: what a screen reader
reads), after Run All in every chapter whose notebook shows a widget (read from the notebooks; a chapter without one is
skipped, saying so; each chapter's page is loaded and run once, and the tests of the same chapter share it): every
slider is named after its visible label, described by its direction row, and announces exactly the text its readout
shows (its aria-valuetext: CDP leaves that out); the readout is named; a toggle exposes whether it is pressed; Reset
is named "Reset"; every figure has a text alternative. An ArrowRight on a figure's first slider changes the
alternative, which a polite live region then says once the slider rests, the focus still on the slider; a focus
JupyterLab moves from the slider to its cell on its own (as it did after Run All, with cells still running) comes
back. axe-core (WCAG 2.1 A and AA) finds nothing in the workbook's own outputs (JupyterLab's own chrome is counted
apart, in the report). A probe notebook gives a figure a data table and points: its "Data" toggle is reached with
Tab and opens a table, and its curve is walked with the arrow keys, the live region reading x and y (chapter 02's
Laplace density as well, once it gives its points). The front end is dpteach/widgets/a11y.js (the anywidget of
dpteach/widgets/_a11y.py).
"""

from __future__ import annotations

import json
import shutil
import urllib.request
import weakref

import nbformat
import pytest
from helpers import ARTIFACTS, ROOT, axe_source, needs_chromium
from labserver import KERNEL_READY, open_notebook, run_all, running_lab

pytestmark = needs_chromium

WIDGET = "application/vnd.jupyter.widget-view+json"


def _shows_widgets(path) -> bool:
    """Whether a chapter shows a widget: a stored widget output, or a code cell that calls ``dp.widgets``."""
    cells = [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
    return any("dp.widgets." in c.source or any(WIDGET in o.get("data", {}) for o in c.get("outputs", []))
               for c in cells)


#: Every chapter; one that shows no widget (no slider, no live figure) is skipped, saying so: the list comes from
#: the notebooks, so a chapter that gains a widget is checked.
CHAPTERS = [stem if _shows_widgets(ROOT / "notebooks" / f"{stem}.ipynb") else
            pytest.param(stem, marks=pytest.mark.skip(reason=f"{stem} shows no widget: no slider or live figure to check"))
            for stem in sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))]
#: The chapters whose first sliders are moved (test_a_moved_slider...), and chapter 02, whose curve is walked: their
#: pages, loaded and run by test_every_control_and_figure_speaks, stay open for those tests.
MOVED = ("03_laplace_mechanism", "06_composition_and_budget")
KEPT = {*MOVED, "02_laplace_distribution"}
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
#: The probe: a Laplace density whose figure also gives a data table and a curve to walk (the contracts of
#: plots._Updatable.data_table and explore_points), so the front end is tested whatever the figures give.
PROBE = '''\
import numpy as np
import dpteach as dp

w = dp.widgets.laplace_density()
fig = w.figure
fig.data_table = lambda: {"caption": "Probe: the density at five points", "columns": ["noise", "density"],
                          "rows": [[f"{x:g}", f"{y:.3g}"] for x, y in zip(fig.line.get_xdata()[::200],
                                                                       fig.line.get_ydata()[::200])]}
fig.explore_points = lambda: [
    {"name": "density", "x": "noise", "y": "density",
     "points": [[float(x), float(y)] for x, y in zip(fig.line.get_xdata()[::100], fig.line.get_ydata()[::100])]},
    {"name": "half", "x": "noise", "y": "half density", "points": [[0.0, 0.25], [1.0, 0.125]]}]
w.redraw()
w
'''

#: Per workbook control: the accessibility-tree node of its handle, readout and direction row, and what they show.
CONTROLS = """() => [...document.querySelectorAll('.jp-OutputArea-output .widget-slider')].map((s, i) => {
    s.dataset.a11yProbe = 's' + i;
    const readout = s.querySelector('.widget-readout');
    const row = s.nextElementSibling?.classList.contains('dpteach-direction') ? s.nextElementSibling : null;
    return {id: 's' + i, label: s.querySelector('.widget-label').textContent.trim(),
            readout: readout.textContent.trim(),
            valuetext: s.querySelector('.noUi-handle').getAttribute('aria-valuetext'),
            row: row ? row.innerText.replace(/\\s+/g, ' ').trim() : null};
})"""


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """The lab over a scratch copy of notebooks/ (autosave never reaches the repository) and the probe."""
    root = tmp_path_factory.mktemp("a11y")
    shutil.copytree(ROOT / "notebooks", root / "notebooks")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(PROBE)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, root / "probe.ipynb")
    with running_lab(root=root) as server:
        yield server


@pytest.fixture(scope="module")
def chapters(browser, lab):
    """Each chapter's page, loaded and run once: ``chapters.open(stem)`` (the page and its errors), ``chapters.done(stem)``
    closes it and shuts its kernel down unless a later test reads the same chapter (KEPT)."""
    class Pages(dict):
        def open(self, stem: str):
            if stem not in self:
                self[stem] = _open_and_run(browser, lab, f"notebooks/{stem}.ipynb", stem)
            return self[stem]

        def done(self, stem: str, keep: bool = False) -> None:
            if stem in self and not keep:
                self.pop(stem)[0].close()
                _shut_down(lab, f"notebooks/{stem}.ipynb")

    pages = Pages()
    yield pages
    for stem in list(pages):
        pages.done(stem)


def _shut_down(lab, path: str) -> None:
    """Shut the kernel of the notebook ``path`` down (the lab keeps a closed page's kernel running)."""
    base, token = lab
    with urllib.request.urlopen(f"{base}/api/sessions?token={token}", timeout=30) as reply:
        sessions = json.load(reply)
    for session in sessions:
        if session.get("path") == path:
            request = urllib.request.Request(f"{base}/api/sessions/{session['id']}?token={token}", method="DELETE")
            urllib.request.urlopen(request, timeout=30).close()


#: One CDP session a page, for _ax (a session costs round trips to open and close; it goes with its page)
_CDP: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _ax(page, selector: str) -> dict:
    """The accessibility-tree entry (what a screen reader reads) of the element ``selector`` finds, scrolled into
    view first: JupyterLab leaves the cells out of sight out of the tree."""
    cdp = _CDP.get(page) or _CDP.setdefault(page, page.context.new_cdp_session(page))
    expression = f"(() => {{ const e = document.querySelector({json.dumps(selector)}); e?.scrollIntoView({{block: 'center'}}); return e; }})()"
    obj = cdp.send("Runtime.evaluate", {"expression": expression})["result"]
    assert "objectId" in obj, f"nothing matches {selector}"
    page.wait_for_timeout(50)
    backend = cdp.send("DOM.describeNode", {"objectId": obj["objectId"]})["node"]["backendNodeId"]
    nodes = cdp.send("Accessibility.getPartialAXTree", {"objectId": obj["objectId"], "fetchRelatives": False})["nodes"]
    return next(n for n in nodes if n.get("backendDOMNodeId") == backend)


def _text(node: dict, key: str) -> str:
    return str(node.get(key, {}).get("value", ""))


def _prop(node: dict, name: str):
    return next((p["value"].get("value") for p in node.get("properties", []) if p["name"] == name), None)


def _open_and_run(browser, lab, path: str, stem: str):
    page, errors = open_notebook(browser, lab, path)
    run_all(page, stem)
    # every figure has its alt once its access widget has rendered
    page.wait_for_function("""() => {
        const imgs = [...document.querySelectorAll('.jp-OutputArea-output img.widget-image')];
        return imgs.length > 0 && imgs.every(i => i.alt.trim());
    }""", timeout=60_000)
    return page, errors


def _axe(page) -> dict[str, list]:
    """axe's WCAG 2.1 A/AA violations: in the cell outputs ("ours"), in the static figures among them ("static":
    a PNG output, whose alt JupyterLab's image renderer drops), and in JupyterLab's own chrome ("theirs")."""
    page.add_script_tag(content=axe_source())
    found = page.evaluate("""async (tags) => {
        const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
        return r.violations.flatMap(v => v.nodes.map(n => {
            const el = document.querySelector(n.target.join(' '));
            const where = !el?.closest('.jp-OutputArea-output') ? 'theirs' : el.closest('.jp-RenderedImage') ? 'static' : 'ours';
            return {id: v.id, target: n.target.join(' '), html: n.html.slice(0, 160), where};
        }));
    }""", WCAG)
    return {where: [v for v in found if v["where"] == where] for where in ("ours", "static", "theirs")}


@pytest.mark.parametrize("stem", CHAPTERS)
def test_every_control_and_figure_speaks(chapters, stem):
    page, errors = chapters.open(stem)
    controls = page.evaluate(CONTROLS)
    assert controls, "no slider in the outputs"
    for c in controls:
        handle = _ax(page, f"[data-a11y-probe={c['id']}] .noUi-handle")
        assert _text(handle, "role") == "slider"
        assert _text(handle, "name") == c["label"], c
        # what a screen reader announces as a slider's value is its aria-valuetext (Core-AAM; Chromium passes it to
        # the platform's value), which CDP does not report (its valuetext is '' even for a static aria-valuetext):
        # read the attribute itself
        assert c["valuetext"] == c["readout"], f"{c['label']} announces {c['valuetext']!r}, its readout shows {c['readout']!r}"
        if c["row"]:
            assert _text(handle, "description") == c["row"], c
        readout = _ax(page, f"[data-a11y-probe={c['id']}] .widget-readout")
        assert _text(readout, "name") == f"{c['label']} value"
    toggles = page.locator(".jp-OutputArea-output button.widget-toggle-button")
    for i in range(toggles.count()):
        pressed = page.evaluate(
            "i => document.querySelectorAll('.jp-OutputArea-output button.widget-toggle-button')[i].classList"
            ".contains('mod-active')", i)
        page.evaluate("i => document.querySelectorAll('.jp-OutputArea-output button.widget-toggle-button')[i]"
                      ".dataset.a11yProbe = 't' + i", i)
        node = _ax(page, f"[data-a11y-probe=t{i}]")
        assert str(_prop(node, "pressed")).lower() == str(pressed).lower(), _text(node, "name")
    resets = page.locator(".jp-OutputArea-output .dpteach-interactive button.dpteach-reset")
    assert resets.count() == page.locator(".jp-OutputArea-output .dpteach-interactive").count()
    for i in range(resets.count()):
        page.evaluate("i => document.querySelectorAll('.jp-OutputArea-output button.dpteach-reset')[i]"
                      ".dataset.a11yProbe = 'r' + i", i)
        assert _text(_ax(page, f"[data-a11y-probe=r{i}]"), "name") == "Reset"
    # a figure's Data toggle (where it gives a table) is a native button in the Tab order that says if it is open
    for toggle in page.locator(".jp-OutputArea-output button.dpteach-data-toggle:not([hidden])").all():
        assert toggle.get_attribute("tabindex") in (None, "0") and toggle.get_attribute("aria-expanded") == "false"
    n_images = page.evaluate("() => document.querySelectorAll('.jp-OutputArea-output img.widget-image').length")
    for i in range(n_images):
        page.evaluate("i => document.querySelectorAll('.jp-OutputArea-output img.widget-image')[i]"
                      ".dataset.a11yProbe = 'i' + i", i)
        assert _text(_ax(page, f"[data-a11y-probe=i{i}]"), "name").strip()

    found = _axe(page)
    print(f"{stem}: axe found {len(found['theirs'])} violations in JupyterLab's own chrome: "
          f"{sorted({v['id'] for v in found['theirs']})}")
    assert not found["ours"], found["ours"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"lab_a11y_{stem}.png"))
    if stem not in MOVED:       # those are moved, with JupyterLab's focus taken first, by the test below
        _every_figure_moves_and_says_so(page)
    assert not errors, errors
    chapters.done(stem, keep=stem in KEPT)
    # a still figure keeps its alt in the lab: it is sent as text/html (<img alt>), since JupyterLab's PNG renderer
    # drops an image/png output's alt metadata
    assert not found["static"], found["static"]


def _move_first_slider(page, box_index: int) -> dict:
    """ArrowRight (ArrowLeft at its top) on the first slider of the box-th figure; what its image, readout and live
    region say after."""
    box = page.locator(".jp-OutputArea-output :is(.dpteach-interactive, .dpteach-precomputed)").nth(box_index)
    box.scroll_into_view_if_needed()
    handle = box.locator(".noUi-handle").first
    image = box.locator("img.widget-image").first
    before = {"src": image.get_attribute("src"), "alt": image.get_attribute("alt")}
    handle.focus()
    at_top = handle.get_attribute("aria-valuenow") == handle.get_attribute("aria-valuemax")
    handle.press("ArrowLeft" if at_top else "ArrowRight")
    # a live figure gets a new src; a precomputed view's Stack shows another <img>
    page.wait_for_function("([box, src]) => box.querySelector('img.widget-image')?.getAttribute('src') !== src",
                           arg=[box.element_handle(), before["src"]], timeout=20_000)
    page.wait_for_function(KERNEL_READY, timeout=20_000)
    # the live region speaks once the slider rests (500 ms after the last change), not at every frame
    page.wait_for_timeout(900)
    image = box.locator("img.widget-image").first
    return {"before": before["alt"], "alt": image.get_attribute("alt"),
            "live": box.locator("[role=status][aria-live=polite]").text_content(),
            "focused": handle.evaluate("h => document.activeElement === h"),
            "valuetext": handle.get_attribute("aria-valuetext"),
            "readout": box.locator(".widget-readout").first.inner_text().strip()}


#: JupyterLab's own way of taking the focus from a slider (Notebook._evtFocusIn, 4.x): a focus on the notebook node
#: queues a focus on "the active cell" for when that cell is ready; a focus on the slider first makes its cell the
#: active one. After Run All the queued focus came seconds later, with cells still running, in the middle of a
#: student's key presses (CI's "the focus left the slider"); here it comes at once. Returns where the focus went.
STEAL = """(handle) => new Promise(done => {
    const cell = handle.closest('.jp-Notebook-cell'), went = [];
    const seen = e => went.push(e.target === cell ? 'cell' : e.target === handle ? 'slider' : e.target.className);
    document.addEventListener('focusin', seen, true);
    handle.closest('.jp-Notebook').focus();
    handle.focus();
    setTimeout(() => { document.removeEventListener('focusin', seen, true);
                       done({went, kept: document.activeElement === handle}); }, 300);
})"""


def _every_figure_moves_and_says_so(page, steal: bool = False) -> None:
    """An arrow key on each figure's first slider (every chapter: its live figures and precomputed views): the alt
    changes, the live region says the new alt once the slider rests, the slider keeps the focus and announces its
    readout. With ``steal``, JupyterLab is first made to take the focus its own way (STEAL), and must give it back."""
    boxes = page.locator(".jp-OutputArea-output :is(.dpteach-interactive, .dpteach-precomputed)").count()
    for i in range(boxes):
        handle = page.locator(".jp-OutputArea-output :is(.dpteach-interactive, .dpteach-precomputed)").nth(i) \
            .locator(".noUi-handle").first
        handle.scroll_into_view_if_needed()
        if steal:
            stolen = handle.evaluate(STEAL)
            assert stolen["kept"], f"figure {i}: JupyterLab took the focus from the slider to its cell: {stolen['went']}"
        said = _move_first_slider(page, i)
        assert said["focused"], f"figure {i}: the focus left the slider"
        assert said["valuetext"] == said["readout"], said
        assert said["alt"].strip()
        assert said["alt"] != said["before"], f"figure {i}: the alt did not change: {said['alt']!r}"
        assert said["live"] == said["alt"], f"figure {i}: the live region says {said['live']!r}"


@pytest.mark.parametrize("stem", MOVED)
def test_a_moved_slider_changes_the_alt_and_the_live_region_says_it(chapters, stem):
    page, errors = chapters.open(stem)
    _every_figure_moves_and_says_so(page, steal=True)
    _a_drag_is_announced_once_it_rests(page)
    assert not errors, errors
    chapters.done(stem)


#: Counts, from now on, the first figure's alt changes (with their times) and what its live region says.
COUNT = """(box) => {
    const img = box.querySelector('img.widget-image'), status = box.querySelector('[role=status]');
    window.__alts = []; window.__said = [];
    new MutationObserver(() => window.__alts.push(performance.now()))
        .observe(img, {attributes: true, attributeFilter: ['alt']});
    new MutationObserver(() => window.__said.push(status.textContent)).observe(status, {childList: true, characterData: true, subtree: true});
    return status === box.querySelector('[role=status]');
}"""


def _a_drag_is_announced_once_it_rests(page):
    """Six quick presses on the first live figure's slider: one announcement for every pause of 500 ms or more
    between its new alts (one, unless the kernel is that slow), not one a frame; the region is the same node."""
    box = page.locator(".jp-OutputArea-output .dpteach-interactive").first
    box.scroll_into_view_if_needed()
    assert page.evaluate(COUNT, box.element_handle())
    handle = box.locator(".noUi-handle").first
    handle.focus()
    for key in ("ArrowRight", "ArrowRight", "ArrowRight", "ArrowLeft", "ArrowLeft", "ArrowLeft", "ArrowRight"):
        page.keyboard.press(key)
        page.wait_for_timeout(60)
    page.wait_for_function(KERNEL_READY, timeout=20_000)
    page.wait_for_timeout(1200)
    alts, said = page.evaluate("[window.__alts, window.__said]")
    assert len(alts) >= 2, "the presses drew fewer than two new alts"
    pauses = sum(later - earlier >= 500 for earlier, later in zip(alts, alts[1:]))
    assert len(said) == 1 + pauses, f"{len(said)} announcements for {len(alts)} new alts with {pauses} pauses: {said}"
    assert said[-1] == box.locator("img.widget-image").first.get_attribute("alt")
    assert handle.evaluate("h => document.activeElement === h")


def _walk(page, box, data_toggle: bool = True):
    """Tab from the box's last slider onto its Data toggle, open it (if ``data_toggle``); then walk its curve
    explorer."""
    if data_toggle:
        _open_the_data(page, box)
    explore = box.locator(".dpteach-explore")
    reading = box.locator(".dpteach-reading")
    explore.focus()
    said = []
    for key in ("Home", "ArrowRight", "ArrowRight", "End", "ArrowLeft", "ArrowDown"):
        page.keyboard.press(key)
        said.append(reading.inner_text())
    return said


def _open_the_data(page, box):
    data = box.locator("button.dpteach-data-toggle")
    box.locator(".noUi-handle").last.focus()
    for _ in range(12):
        page.keyboard.press("Tab")
        if data.evaluate("b => document.activeElement === b"):
            break
    assert data.evaluate("b => document.activeElement === b"), "the Data toggle is not reached with Tab"
    assert data.get_attribute("aria-expanded") == "false"
    page.keyboard.press("Enter")
    assert data.get_attribute("aria-expanded") == "true"
    tone = box.locator("button.dpteach-tone")
    assert tone.get_attribute("aria-pressed") == "false"       # off by default; a press turns it on, and off
    tone.press("Space")
    assert tone.get_attribute("aria-pressed") == "true" and tone.inner_text() == "Tone"
    tone.press("Space")
    assert tone.get_attribute("aria-pressed") == "false"
    table = box.locator(".dpteach-data table")
    assert table.is_visible() and table.locator("caption").inner_text().strip()
    assert table.locator("th[scope=col]").count() >= 2 and table.locator("tbody tr").count() >= 1


def test_the_data_toggle_and_the_curve_explorer_with_the_keyboard(browser, lab):
    page, errors = _open_and_run(browser, lab, "probe.ipynb", "probe")
    box = page.locator(".jp-OutputArea-output .dpteach-interactive").first
    said = _walk(page, box)
    assert said[0].startswith("noise = −15, density = "), said
    assert said[1] != said[0] and said[2] != said[1] and said[3].startswith("noise = 15, density = ")
    assert said[5].startswith("half, 2 of 2: noise = "), said
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "lab_a11y_probe.png"))
    assert not errors, errors
    page.close()


def test_the_laplace_density_is_walked_with_the_arrow_keys(chapters):
    page, errors = chapters.open("02_laplace_distribution")
    box = page.locator(".jp-OutputArea-output .dpteach-interactive").first
    said = _walk(page, box, data_toggle=box.locator("button.dpteach-data-toggle").is_visible())
    assert all(" = " in s and "," in s for s in said), said
    assert said[1] != said[0]
    assert not errors, errors
    chapters.done("02_laplace_distribution")
