"""What a screen reader gets from the live show (``make present``: RISE slides in the presenting venv, its own
ipywidgets 8.1.2 front end), as a blind student following the projected show on their own screen would.

As `make present CHAPTER=03` does, in a temporary folder: the chapter's slide edition, the presenting lab with the
server extension that scripts RISE's page; Run All in the lab, save, open the show (RISE's page, as the speaker view
opens it), then walk it with → and, on every slide that shows a figure with its controls, read Chromium's
accessibility tree (CDP ``Accessibility.getPartialAXTree``): every slider is named after its visible label and
announces exactly the text its readout shows (its aria-valuetext), the readout is named, a toggle says whether it
is pressed, every figure has a text alternative; and axe-core (WCAG 2.1 A and AA) finds nothing in the slide's
outputs (RISE's and JupyterLab's own page is counted apart, and printed). The front end is
dpteach/widgets/a11y.js. Skipped, saying why, without Chromium or without the presenting venv (`make test`
installs it).
"""

from __future__ import annotations

import json
import subprocess

import pytest
from helpers import ARTIFACTS, ROOT, axe_source, needs_chromium
from labserver import KERNEL_READY, run_all, running_lab

PRESENT = ROOT / ".venv-present"
#: A chapter with live figures, a precomputed view (its own slider) and a toggle
STEM = "03_laplace_mechanism"
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

pytestmark = [needs_chromium, pytest.mark.skipif(not (PRESENT / "bin" / "jupyter").exists(),
                                                 reason="the presenting venv is missing: `make test` installs it")]

#: What the show never shows: a skipped cell, the speaker notes (a precomputed view is skipped in chapter 03's show)
SKIPPED = ".reveal-skip, aside.notes, .jp-mod-hidden, .lm-mod-hidden"
#: The show's current slide: its index, the number of fragments shown, whether it is the last step, and how many
#: figures with controls it shows that are not checked yet (not in a fragment still to come).
WHERE = """() => {
  const SKIPPED = '""" + SKIPPED + """';
  const shown = b => !b.closest(`${SKIPPED}, .fragment:not(.visible)`) && b.getClientRects().length > 0 && !b.dataset.a11yChecked;
  const slides = [...document.querySelectorAll('.reveal .slides > section')];
  const slide = document.querySelector('.reveal .slides > section.present');
  if (!slide) return null;
  const boxes = [...slide.querySelectorAll('.dpteach-interactive, .dpteach-precomputed')].filter(shown);
  return {index: slides.indexOf(slide), f: slide.querySelectorAll('.fragment.visible').length,
          last: slides.indexOf(slide) === slides.length - 1 && !slide.querySelector('.fragment:not(.visible)'),
          boxes: boxes.length};
}"""

#: The figures of WHERE's count, marked checked, and in them (marked for _ax, the marks of earlier slides gone): each
#: slider's label, readout and the text it announces, whether each toggle is pressed, and the number of images.
MARK = """() => {
  const SKIPPED = '""" + SKIPPED + """';
  document.querySelectorAll('[data-a11y-probe]').forEach(e => delete e.dataset.a11yProbe);
  const shown = b => !b.closest(`${SKIPPED}, .fragment:not(.visible)`) && b.getClientRects().length > 0 && !b.dataset.a11yChecked;
  const slide = document.querySelector('.reveal .slides > section.present');
  const boxes = [...slide.querySelectorAll('.dpteach-interactive, .dpteach-precomputed')].filter(shown);
  boxes.forEach(b => b.dataset.a11yChecked = 'yes');
  const all = sel => boxes.flatMap(b => [...b.querySelectorAll(sel)]);
  return {
    controls: all('.widget-slider').map((s, i) => {
      s.dataset.a11yProbe = 's' + i;
      return {id: 's' + i, label: s.querySelector('.widget-label').textContent.trim(),
              readout: s.querySelector('.widget-readout').textContent.trim(),
              valuetext: s.querySelector('.noUi-handle').getAttribute('aria-valuetext')};
    }),
    toggles: all('button.widget-toggle-button').map((t, i) => { t.dataset.a11yProbe = 't' + i; return t.classList.contains('mod-active'); }),
    images: all('img.widget-image').filter(m => m.getClientRects().length).map((m, i) => m.dataset.a11yProbe = 'i' + i).length,
  };
}"""


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """The presenting lab over the chapter's folder, as `make present` writes and serves it."""
    scratch = tmp_path_factory.mktemp("present_a11y")
    subprocess.run([str(PRESENT / "bin" / "python"), "-m", "dpteach", "--root", str(ROOT), "present", "--chapter",
                    STEM[:2], "--out", str(scratch / STEM), "--prepare-only"], check=True, capture_output=True)
    with running_lab(python=PRESENT / "bin" / "python", root=scratch, env={"DPTEACH_PRESENTATION": "1"},
                     extra=("--ServerApp.jpserver_extensions={'dpteach.publish.present': True}",)) as server:
        yield server


def _ax(page, selector: str) -> dict:
    """The accessibility-tree entry (what a screen reader reads) of the element ``selector`` finds."""
    cdp = page.context.new_cdp_session(page)
    obj = cdp.send("Runtime.evaluate", {"expression": f"document.querySelector({json.dumps(selector)})"})["result"]
    assert "objectId" in obj, f"nothing matches {selector}"
    backend = cdp.send("DOM.describeNode", {"objectId": obj["objectId"]})["node"]["backendNodeId"]
    nodes = cdp.send("Accessibility.getPartialAXTree", {"objectId": obj["objectId"], "fetchRelatives": False})["nodes"]
    cdp.detach()
    return next(n for n in nodes if n.get("backendDOMNodeId") == backend)


def _text(node: dict, key: str) -> str:
    return str(node.get(key, {}).get("value", ""))


def _speaks(show) -> list[str]:
    """What is wrong for a screen reader in the figures the slide now shows: their sliders, readouts, toggles, images."""
    problems = []
    marked = show.evaluate(MARK)
    for c in marked["controls"]:
        handle = _ax(show, f"[data-a11y-probe={c['id']}] .noUi-handle")
        if _text(handle, "role") != "slider" or _text(handle, "name") != c["label"]:
            problems.append(f"the slider {c['label']!r} is read as {_text(handle, 'role')} {_text(handle, 'name')!r}")
        # (a slider's aria-valuetext is what a screen reader announces; CDP leaves it out: the attribute itself)
        if c["valuetext"] != c["readout"]:
            problems.append(f"{c['label']} announces {c['valuetext']!r}, its readout shows {c['readout']!r}")
        if _text(_ax(show, f"[data-a11y-probe={c['id']}] .widget-readout"), "name") != f"{c['label']} value":
            problems.append(f"the readout of {c['label']!r} is not named")
    for i, pressed in enumerate(marked["toggles"]):
        node = _ax(show, f"[data-a11y-probe=t{i}]")
        said = next((p["value"].get("value") for p in node.get("properties", []) if p["name"] == "pressed"), None)
        if str(said).lower() != str(pressed).lower():
            problems.append(f"the toggle {_text(node, 'name')!r} says pressed={said}, it is {pressed}")
    for i in range(marked["images"]):
        if not _text(_ax(show, f"[data-a11y-probe=i{i}]"), "name").strip():
            problems.append(f"figure {i} of the slide has no text alternative")
    return problems


def _axe(show) -> dict[str, list]:
    """axe's WCAG 2.1 A/AA violations on the show: in the current slide's outputs ("ours"), elsewhere ("theirs")."""
    found = show.evaluate("""async (tags) => {
        const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
        return r.violations.flatMap(v => v.nodes.map(n => {
            const el = document.querySelector(n.target.join(' '));
            return {id: v.id, target: n.target.join(' '), html: n.html.slice(0, 160),
                    ours: !!el?.closest('.reveal .slides > section.present .jp-OutputArea-output')};
        }));
    }""", WCAG)
    return {"ours": [v for v in found if v["ours"]], "theirs": [v for v in found if not v["ours"]]}


def test_the_live_show_names_its_sliders_and_its_figures_speak(browser, lab):
    base, token = lab
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page, errors = context.new_page(), []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/lab/tree/{STEM}/{STEM}.ipynb?token={token}&reset", wait_until="domcontentloaded")
    page.wait_for_selector(".jp-Notebook", timeout=60_000)
    run_all(page, f"present_a11y_{STEM[:2]}")
    page.wait_for_function(KERNEL_READY, timeout=120_000)
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=30_000)
    show = context.new_page()          # the page the speaker view's Start opens
    show.on("pageerror", lambda e: errors.append(str(e)))
    show.goto(f"{base}/rise/{STEM}/{STEM}.ipynb", wait_until="domcontentloaded")
    show.wait_for_function(f"() => ({WHERE})() !== null", timeout=90_000)
    show.wait_for_selector(".reveal .widget-slider", state="attached", timeout=90_000)
    show.add_script_tag(content=axe_source())
    total = show.evaluate("s => [...document.querySelectorAll('.reveal .dpteach-interactive, .reveal .dpteach-precomputed')]"
                          ".filter(b => !b.closest(s)).length", SKIPPED)
    assert total, "the show has no figure with controls"
    problems, seen, theirs, checked = [], set(), set(), 0
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    state = show.evaluate(WHERE)
    while True:
        if state["boxes"]:
            seen.add(state["index"])
            checked += state["boxes"]
            # every figure of the slide has its alt once its access widget has rendered
            show.wait_for_function("""() => [...document.querySelectorAll('.reveal .slides > section.present img.widget-image')]
                                          .every(i => i.alt.trim())""", timeout=30_000)
            problems += [f"slide {state['index'] + 1}: {p}" for p in _speaks(show)]
            found = _axe(show)
            problems += [f"slide {state['index'] + 1}: axe {v['id']} at {v['target']}: {v['html']}" for v in found["ours"]]
            theirs |= {f"{v['id']} ({v['target'][-60:]})" for v in found["theirs"]}
            show.screenshot(path=str(ARTIFACTS / f"present_a11y_{STEM[:2]}_slide{state['index'] + 1}.png"))
        if state["last"]:
            break
        show.evaluate("() => document.activeElement?.blur()")      # (a focused slider keeps the arrow keys)
        show.keyboard.press("ArrowRight")
        show.wait_for_function(f"b => {{ const s = ({WHERE})(); return s && (s.index !== b.index || s.f !== b.f); }}",
                               arg=state, timeout=20_000)
        state = show.evaluate(WHERE)
    print(f"{STEM}'s show: {len(seen)} slides with figures; axe in RISE's and JupyterLab's own page: {sorted(theirs)}")
    assert checked == total, f"the walk met {checked} of the show's {total} figures with controls"
    assert not problems, "\n".join(problems[:20])
    assert not errors, errors
    context.close()
