"""Presenting live: RISE slides of the slide edition, in the presenting venv, with sliders that answer
and a speaker view that follows the show and drives it.

`make present CHAPTER=03` starts JupyterLab from .venv-present (RISE, and the ipywidgets front end
its slideshow renders) on a scratch copy of the chapter's slide edition (``dpteach
present``), with DPTEACH_PRESENTATION=1 and the server extension that scripts RISE's page
(dpteach.publish.present), and serves the speaker view (dpteach-presenter.html) from the same origin.
This test does the same in a temporary folder, for chapters 03, 05 and 11: Run All, save, open the
speaker view, press Start (the slideshow opens in a window of its own), then walk every slide and
fragment with → at 1920×1080 and back with ← at 1280×720, checking at each step that the text is at
least 24 px (the same share of 720 px), that nothing lies outside the screen, that no hidden code shows,
that every slide has a heading and that "What to watch" is on its figure's slide; drag a slider on the
figure slide and see the figure redraw; see the speaker view show the current slide's notes, the next
slide and a timer, follow a step, and leave the show where it is; count the show's console errors and
its requests outside the machine (none of either). On chapter 03, keys pressed with the slider focused
keep the slide and the notebook, and → and ← in the speaker view move the show. `make present` names the
chapters there are. Skipped, saying why, without Chromium or without the presenting venv (`make test`
installs it).
"""

import json
import re
import subprocess

import nbformat
import pytest
from helpers import ARTIFACTS, ROOT, make, needs_chromium
from labserver import KERNEL_READY, run_all, running_lab

from dpteach.publish import slides
from dpteach.publish.book_site import instructor_edition
from dpteach.publish.paths import Project

PRESENT = ROOT / ".venv-present"
CHAPTERS = {"03_laplace_mechanism": "dp.widgets.privacy_loss()", "05_accuracy_census_names": "dp.widgets.accuracy_bound()",
            "11_what_epsilon_promises": "dp.widgets.reconstruction_attack()"}
#: Where the live show may send requests: the lab's own server, and the data:/blob: URLs a page makes of its own
#: bytes (about:blank is MathJax's font probe, answered locally). Nothing else: no font service, no CDN.
LOCAL = ("http://127.0.0.1", "data:", "blob:", "about:blank")

pytestmark = [needs_chromium, pytest.mark.skipif(not (PRESENT / "bin" / "jupyter").exists(),
                                                 reason="the presenting venv is missing: `make test` installs it")]

#: The state of the show (RISE: a sub-slide <section> in each slide's <section>) and what it shows:
#: the smallest text, what lies outside the screen, the code it shows, the notes it holds.
MEASURE = """() => {
  const W = innerWidth, H = innerHeight;
  // (the slide edition has no sub-slides: one <section> in each slide's, or none)
  const slides = [...document.querySelectorAll('.reveal .slides > section')];
  const slide = document.querySelector('.reveal .slides > section.present');
  if (!slide) return null;
  const TEXT = 'p, li, h1, h2, h3, h4, td, th, .jp-OutputArea-output pre, .cm-line, .widget-label, .widget-readout, ' +
               '.widget-button, .widget-toggle-button, .widget-html-content';
  const BOXES = 'p, li, h1, h2, h3, h4, table, pre, img, .widget-slider, .widget-button, .widget-toggle-button, ' +
                '.jp-InputArea-editor, .jp-OutputArea-output, .MathJax_Display, mjx-container';
  let smallest = 1e9, what = '';
  const outside = [];
  const visible = el => !el.closest('aside.notes') && !el.closest('.lm-mod-hidden') && el.getClientRects().length > 0
                        && getComputedStyle(el).display !== 'none';
  for (const el of slide.querySelectorAll(BOXES)) {
    if (!visible(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1)
      outside.push(`${el.tagName}.${String(el.className).slice(0, 40)} y ${Math.round(r.top)}..${Math.round(r.bottom)} ` +
                   `x ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  for (const el of slide.querySelectorAll(TEXT)) {
    if (!visible(el) || !el.textContent.trim()) continue;
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (px < smallest) { smallest = px; what = el.tagName + ' ' + el.textContent.trim().slice(0, 40); }
  }
  const code = [...slide.querySelectorAll('.jp-CodeCell .jp-InputArea-editor')].filter(visible).map(e => e.textContent);
  const notes = [...slide.querySelectorAll('aside.notes')].map(a => a.textContent).join(' ');
  const figure = [...slide.querySelectorAll('img')].some(i => visible(i) && i.getBoundingClientRect().height > 100);
  const shown = [...slide.querySelectorAll('p, li, td')].filter(e => visible(e) && !e.closest('.fragment:not(.visible)'))
                 .map(e => e.textContent).join(' ');
  return {index: slides.indexOf(slide), total: slides.length, f: slide.querySelectorAll('.fragment.visible').length,
          figure, watch: /What to watch/.test(shown),
          left: slide.querySelectorAll('.fragment:not(.visible)').length,
          title: ((slide.querySelector('h1, h2, h3') || {}).textContent || '').replace(/¶$/, ''),
          smallest, what, outside: outside.slice(0, 3), code, notes,
          upper: [...slide.querySelectorAll('h1, h2, h3')].some(h => getComputedStyle(h).textTransform !== 'none')};
}"""


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("present")
    # what make present does: each chapter's folder to present from (its slide edition, notes in, the slideshow's
    # styles, the speaker view), written by the presenting venv; one lab over them all, with the server extension
    for stem in CHAPTERS:
        subprocess.run([str(PRESENT / "bin" / "python"), "-m", "dpteach", "--root", str(ROOT), "present", "--chapter",
                        stem[:2], "--out", str(scratch / stem), "--prepare-only"], check=True, capture_output=True)
    static = scratch / next(iter(CHAPTERS)) / ".static"
    with running_lab(python=PRESENT / "bin" / "python", root=scratch, env={"DPTEACH_PRESENTATION": "1"},
                     extra=(f"--ServerApp.extra_static_paths=['{static}']",
                            "--ServerApp.jpserver_extensions={'dpteach.publish.present': True}")) as server:
        yield server, scratch


def test_the_repository_chapter_is_presented_from_a_copy():
    """make present writes the chapter's copy to build/present/ before the lab opens it: a talk never edits
    notebooks/. The lab serves the speaker view and loads the server extension that scripts the show."""
    recipe = (ROOT / "Makefile").read_text().split("\npresent:", 1)[1].split("\n\n", 1)[0]
    assert "$(PRESENT_BIN)/dpteach present --chapter" in recipe and "--out build/present" in recipe
    # what `dpteach present` starts: tests/test_cli.py's test_present_starts_the_presenting_lab_on_a_copy


def test_the_presented_copy_has_the_speaker_notes(lab):
    """The speaker view (and nothing the students open) shows the notes of instructor/NN_name.md."""
    _, scratch = lab
    for stem in CHAPTERS:
        assert {p.name for p in (scratch / stem).iterdir()} == {f"{stem}.ipynb", "rise.css", f"{stem}.css", ".static"}
        nb = json.loads((scratch / stem / f"{stem}.ipynb").read_text())
        notes = [c for c in nb["cells"] if c["metadata"].get("slideshow", {}).get("slide_type") == "notes"
                 and "instructor" in c["metadata"].get("tags", [])]
        assert len(notes) >= 3 and all("".join(c["source"]).startswith("**Speaker notes") for c in notes)
        assert nb["metadata"]["rise"]["scroll"] is False
        assert "Speaker notes" not in (ROOT / "notebooks" / f"{stem}.ipynb").read_text()


def _hidden_lines(stem):
    nb = nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4)
    edition = slides.slide_edition(instructor_edition(nb, stem, Project(ROOT)))
    return [max(c.source.splitlines(), key=len).strip() for c in edition.cells
            if slides.hides_code(c) and slides.role(c) != "skip"]


def _step(show, key, before):
    """Press ``key`` in the show and wait until it moves; the new state, or None from the last step (→)
    or the first (←)."""
    if (key == "ArrowRight" and before["index"] == before["total"] - 1 and not before["left"]) or \
            (key == "ArrowLeft" and before["index"] == 0 and not before["f"]):
        return None
    show.keyboard.press(key)
    try:
        show.wait_for_function(f"b => {{ const s = ({MEASURE})(); return s && (s.index !== b.index || s.f !== b.f); }}",
                               arg=before, timeout=20_000)
    except Exception:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        show.screenshot(path=str(ARTIFACTS / "present_stuck.png"))
        focus = show.evaluate("() => [document.activeElement.tagName, document.activeElement.className, location.hash, "
                              "[...document.querySelectorAll('.reveal .slides > section')].slice(-3).map(x => "
                              "[x.className, x.getAttribute('style'), x.hidden, x.children.length, x.textContent.slice(0, 40)])]")
        focus.append(show.evaluate("() => document.activeElement.textContent.slice(0, 60)"))
        for other in ("Space", "PageDown"):
            show.keyboard.press(other)
            show.wait_for_timeout(1500)
            focus.append((other, show.evaluate("() => location.hash")))
        show.evaluate("() => document.activeElement.blur()")
        show.keyboard.press(key)
        show.wait_for_timeout(1500)
        focus.append(("blurred", show.evaluate("() => location.hash")))
        pytest.fail(f"{key} did not move the show from slide {before['index'] + 1} of {before['total']} "
                    f"({before['title'][:40]}, step {before['f']}, {before['left']} left); focus {focus}")
    show.wait_for_timeout(150)          # (fragments fade; MathJax typesets a new slide)
    return show.evaluate(MEASURE)


def _check(state, size, hidden, problems, shot=None):
    least = 24 * size[1] / 1080
    where = f"{size[0]}x{size[1]} slide {state['index'] + 1} ({state['title'][:40]}) step {state['f']}"
    if state["smallest"] < least - 0.05:
        problems.append(f"{where}: text {state['smallest']:.1f} px < {least:.1f} ({state['what']})")
    if state["outside"]:
        problems.append(f"{where}: outside the screen {state['outside']}")
        if shot is not None:
            shot.screenshot(path=str(ARTIFACTS / "present_outside.png"))
    if state["upper"]:
        problems.append(f"{where}: an upper-cased heading")
    if not state["title"].strip():
        problems.append(f"{where}: a slide without a heading (the outline and the speaker view cannot name it)")
    if state["watch"] and not state["figure"]:
        problems.append(f"{where}: 'What to watch' away from the figure it describes")
    for line in hidden:
        if any(line in code for code in state["code"]):
            problems.append(f"{where}: hidden code shown: {line[:50]}")


def _start_show(browser, base: str, token: str, stem: str, shot: str):
    """Chapter ``stem`` run top to bottom in the lab and saved, then its speaker view, which opens the show in a
    window of its own (one browser context for all three, at 1920×1080; the speaker view is on the lab's origin,
    logged in by its cookie). Returns the context, the lab page's errors, the speaker view and the show."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page, errors = context.new_page(), []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/lab/tree/{stem}/{stem}.ipynb?token={token}&reset", wait_until="domcontentloaded")
    page.wait_for_selector(".jp-Notebook", timeout=60_000)
    run_all(page, shot)
    page.wait_for_function(KERNEL_READY, timeout=120_000)
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=30_000)
    speaker = context.new_page()
    speaker.goto(f"{base}/static/dpteach-presenter.html?notebook={stem}/{stem}.ipynb", wait_until="load")
    with context.expect_page(timeout=30_000) as opened:
        speaker.click("#start")
    show = opened.value
    show.set_viewport_size({"width": 1920, "height": 1080})
    return context, errors, speaker, show


@pytest.mark.parametrize("stem", list(CHAPTERS))
def test_live_slides_fit_redraw_and_the_speaker_view_follows(browser, lab, stem):
    server, scratch = lab
    base, token = server
    context, errors, speaker, show = _start_show(browser, base, token, stem, f"present_{stem[:2]}")
    show_errors, outside = [], []
    show.on("pageerror", lambda e: show_errors.append(str(e)))
    show.on("console", lambda m: show_errors.append(f"console: {m.text[:120]}") if m.type == "error" else None)
    show.on("request", lambda r: None if r.url.startswith(LOCAL) else outside.append(r.url))
    show.wait_for_function(f"() => ({MEASURE})() !== null", timeout=90_000)
    show.wait_for_selector(".reveal .widget-slider", state="attached", timeout=90_000)
    show.bring_to_front()
    hidden, problems = _hidden_lines(stem), []
    state = show.evaluate(MEASURE)
    states, figure, followed = [state], None, False
    while True:
        _check(state, (1920, 1080), hidden, problems, show)
        if figure is None and CHAPTERS[stem] in " ".join(state["code"]):
            figure = state
            _drag_slider_and_see_the_figure_redraw(show, stem)
        if not followed and state["notes"] and "Speaker notes" in state["notes"]:
            # the speaker view shows this slide's notes, the next slide and a running timer
            speaker.wait_for_function("t => document.getElementById('title').textContent === t",
                                      arg=state["title"].strip(), timeout=10_000)
            assert "Speaker notes" in speaker.inner_text("#notes")
            assert speaker.inner_text("#next-title").strip() not in ("", "—")
            assert re.fullmatch(r"\d+:\d\d:\d\d", speaker.inner_text("#timer").strip())
            speaker.screenshot(path=str(ARTIFACTS / f"present_{stem[:2]}_speaker_view.png"))
            nxt = _step(show, "ArrowRight", state)
            assert nxt is not None
            speaker.wait_for_function("w => document.getElementById('where').textContent.startsWith('slide ' + w)",
                                      arg=nxt["index"] + 1, timeout=10_000)
            show.wait_for_timeout(2_500)     # the projected show stays on its slide (RISE's own view moved it back)
            after = show.evaluate(MEASURE)
            assert (after["index"], after["f"]) == (nxt["index"], nxt["f"]), "the speaker view moved the show"
            followed, state = True, nxt
            states.append(state)
            continue
        if state["index"] in (2, 6):
            show.screenshot(path=str(ARTIFACTS / f"present_{stem[:2]}_slide{state['index'] + 1}_1920.png"))
        nxt = _step(show, "ArrowRight", state)
        if nxt is None:
            break
        state = nxt
        states.append(state)
    total = state["total"]
    assert {s["index"] for s in states} == set(range(total)), f"→ did not reach slides {set(range(total)) - {s['index'] for s in states}}"
    assert figure is not None, "no slide showed the figure's slider"
    assert followed, "no slide with speaker notes was met"
    # the same show at 1280×720, walked back with ←
    show.set_viewport_size({"width": 1280, "height": 720})
    show.wait_for_timeout(500)
    state = show.evaluate(MEASURE)
    while True:
        _check(state, (1280, 720), hidden, problems)
        if state["index"] == 2:
            show.screenshot(path=str(ARTIFACTS / f"present_{stem[:2]}_slide3_1280.png"))
        nxt = _step(show, "ArrowLeft", state)
        if nxt is None:
            break
        state = nxt
    assert state["index"] == 0
    print(f"{stem}: {len(states)} states over {total} slides; {len(show_errors)} console errors, "
          f"{len(outside)} requests outside the machine")
    assert not problems, "\n".join(problems[:12])
    assert not outside, f"the show asked the network: {sorted(set(outside))[:4]}"
    assert not show_errors, f"{len(show_errors)} errors in the show's console: {sorted(set(show_errors))[:4]}"
    assert show.locator("[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
    assert not errors, errors
    context.close()


def _drag_slider_and_see_the_figure_redraw(show, stem):
    slide = show.locator(".reveal .slides > section.present")
    slider = slide.locator(".widget-slider").first
    image = slide.locator(".widget-image").first
    image.wait_for(timeout=30_000)
    for box in (slider.bounding_box(), image.bounding_box()):
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= 1081, ("sliders and figure on the screen", box)
    readout = slider.locator(".widget-readout")
    before_value, before_src = readout.inner_text(), image.get_attribute("src")
    handle, track = slider.locator(".noUi-handle").bounding_box(), slider.locator(".noUi-base").bounding_box()
    y = handle["y"] + handle["height"] / 2
    show.mouse.move(handle["x"] + handle["width"] / 2, y)
    show.mouse.down()
    show.mouse.move(track["x"] + 0.85 * track["width"], y, steps=10)
    show.mouse.up()
    show.wait_for_function("([el, src]) => el.getAttribute('src') !== src", arg=[image.element_handle(), before_src],
                           timeout=30_000)
    assert readout.inner_text() != before_value, "the slider did not move"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    show.screenshot(path=str(ARTIFACTS / f"present_{stem[:2]}_figure_1920.png"))


def test_make_present_names_the_chapters_there_are():
    """Asked for a chapter that does not exist, make present says which there are: the first and the last
    notebook's numbers, read from notebooks/ (not a range typed into the Makefile)."""
    numbers = sorted(p.name[:2] for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    done = make("present", "CHAPTER=99")
    assert done.returncode != 0
    assert f"{numbers[0]} to {numbers[-1]}" in done.stdout + done.stderr, done.stdout + done.stderr


#: What a presenter may press while a slider has the focus (right after dragging it): RISE's T (its own speaker
#: notes, which sent the show back to its first slide), the keys a notebook binds (insert, cut, copy, paste, undo,
#: change a cell's type, delete, restart and interrupt the kernel), RISE's help, overview and full-screen help,
#: and a few others. Each must go to the widget or do what it does on a slide: keep the slide, the notebook, the
#: kernel and the windows as they were.
KEYS = ["t", "a", "b", "x", "c", "v", "z", "m", "y", "r", "s", "f", "w", "q", "o", "l", "1", "?", ",", "Enter",
        "Escape", "Backspace", "Delete", "Shift+M", "d d", "0 0", "i i"]

#: The show's state for the keys test: the slide and step, the notebook's cells, dialogs, the overview.
SHOW_STATE = """() => {
  const slides = [...document.querySelectorAll('.reveal .slides > section')];
  const slide = document.querySelector('.reveal .slides > section.present');
  return {index: slides.indexOf(slide), f: slide ? slide.querySelectorAll('.fragment.visible').length : -1,
          cells: document.querySelectorAll('.jp-Cell').length, code: document.querySelectorAll('.jp-CodeCell').length,
          dialogs: document.querySelectorAll('.jp-Dialog').length, overview: !!document.querySelector('.reveal.overview')};
}"""

#: The speaker view's "Next" preview: the smallest text in it (px, any zoom included), its height, its text.
PREVIEW = """() => {
  const box = document.getElementById('preview');
  let smallest = 1e9;
  const zoom = el => { let z = 1; for (let a = el; a; a = a.parentElement) z *= parseFloat(getComputedStyle(a).zoom || 1) || 1; return z; };
  for (const el of box.querySelectorAll('*')) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) continue;
    smallest = Math.min(smallest, parseFloat(getComputedStyle(el).fontSize) * zoom(el));
  }
  return {smallest, height: box.getBoundingClientRect().height, text: box.innerText};
}"""

#: Text the show keeps off the next slide: its skipped cells, its notes, the code it hides (a line that the slide
#: also shows, as a paragraph's first sentence shown and also in the notes, aside).
NEXT_HIDDEN = """() => {
  const slides = [...document.querySelectorAll('.reveal .slides > section')];
  const next = slides[slides.indexOf(document.querySelector('.reveal .slides > section.present')) + 1];
  if (!next) return [];
  const HIDDEN = '.reveal-skip, aside.notes, .jp-mod-hidden, .lm-mod-hidden';
  const shown = next.cloneNode(true);
  shown.querySelectorAll(HIDDEN).forEach(e => e.remove());
  const flat = t => t.replace(/\\s+/g, ' ').trim();
  return [...next.querySelectorAll(HIDDEN)].flatMap(e => [...e.querySelectorAll('p, li, td, pre')].map(b => flat(b.textContent)))
    .filter(t => t.length > 25 && !flat(shown.textContent).includes(t));
}"""


def test_keys_with_a_widget_focused_keep_the_slide_and_the_speaker_view_drives_the_show(browser, lab):
    """On the figure slide of chapter 03, with the slider focused, every key of KEYS leaves the show where it
    was (no first slide, no notes window, no cell inserted or changed, no dialog). Then → and Space in the
    speaker view move the projected show forward and ← back (the presenter drives from the laptop); its "Next"
    preview reads at 14 px or more and shows nothing the show keeps off that slide."""
    server, scratch = lab
    base, token = server
    stem = "03_laplace_mechanism"
    context, _, speaker, show = _start_show(browser, base, token, stem, f"present_keys_{stem[:2]}")
    show.wait_for_function(f"() => ({MEASURE})() !== null", timeout=90_000)
    show.wait_for_selector(".reveal .noUi-handle", state="attached", timeout=90_000)

    # the speaker view drives the show: →, Space and ← pressed in it move the projected show
    speaker.bring_to_front()
    first = show.evaluate(MEASURE)
    problems = []
    for key, forward in (("ArrowRight", True), ("Space", True), ("ArrowLeft", False)):
        before = show.evaluate(MEASURE)
        hidden = show.evaluate(NEXT_HIDDEN)
        preview = speaker.evaluate(PREVIEW)
        if preview["smallest"] < 14 or preview["height"] < 100:
            problems.append(f"slide {before['index'] + 1}: the Next preview is {preview['height']:.0f} px high, "
                            f"its text {preview['smallest']:.1f} px")
        seen = " ".join(preview["text"].split())
        shown = [line for line in hidden if line in seen]
        if shown:
            problems.append(f"slide {before['index'] + 1}: the Next preview shows what the show skips: {shown[:2]}")
        speaker.keyboard.press(key)
        try:
            show.wait_for_function(f"b => {{ const s = ({MEASURE})(); return s && (s.index !== b.index || s.f !== b.f); }}",
                                   arg=before, timeout=5_000)
        except Exception:
            problems.append(f"{key} in the speaker view did not move the show from slide {before['index'] + 1}")
            continue
        after = show.evaluate(MEASURE)
        moved = (after["index"], after["f"]) > (before["index"], before["f"])
        if moved != forward:
            problems.append(f"{key} in the speaker view moved the show the wrong way ({before['index']} → {after['index']})")
    speaker.screenshot(path=str(ARTIFACTS / "present_03_speaker_drives.png"))
    assert not problems, "\n".join(problems)
    assert show.evaluate(MEASURE)["index"] >= first["index"]

    # the figure slide, its slider focused: every key keeps the slide, the notebook and the windows
    show.bring_to_front()
    figure = show.evaluate("() => [...document.querySelectorAll('.reveal .slides > section')]"
                           ".findIndex(s => s.querySelector('.noUi-handle'))")
    assert figure >= 0
    state = show.evaluate(MEASURE)
    while state["index"] != figure:
        state = _step(show, "ArrowRight" if state["index"] < figure else "ArrowLeft", state)
    handle = show.locator(".reveal .slides > section.present .noUi-handle").first
    pages = len(context.pages)
    for key in KEYS:
        handle.focus()
        before = show.evaluate(SHOW_STATE)
        for part in key.split(" "):
            show.keyboard.press(part)
        show.wait_for_timeout(2_500 if key == "t" else 400)      # (RISE's notes window sent the show back later)
        after = show.evaluate(SHOW_STATE)
        changed = {k: (before[k], after[k]) for k in before if before[k] != after[k]}
        if len(context.pages) != pages:
            changed["windows"] = (pages, len(context.pages))
            for extra in context.pages[pages:]:
                extra.close()
        if changed:
            problems.append(f"{key!r} with the slider focused changed {changed}")
            show.keyboard.press("Escape")
            state = show.evaluate(MEASURE)
            while state["index"] != figure:
                state = _step(show, "ArrowRight" if state["index"] < figure else "ArrowLeft", state)
            handle = show.locator(".reveal .slides > section.present .noUi-handle").first
    assert not problems, "\n".join(problems)
    context.close()
