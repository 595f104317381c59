"""The students' edition in JupyterLab, as a student uses it: every chapter, Run All, answers kept.

For each chapter: type a (wrong) answer into the first exercise, Run All, and check that the
answer is still there and was the one judged, that no solution ran or shows (not its output, not
its first line: each stays folded in "Show the solution"), that no speaker note shows, and that
Shift+Enter on the exercise lands on the folded solution without running it. In chapters 00 and 03
the first slider is then moved with the keyboard: its figure must redraw, the kernel's busy and idle
show in the status bar, and the notebook's toolbar must not change. Skipped, with the
reason, where Chromium is not installed.
"""

import json
import shutil

import pytest
from helpers import ARTIFACTS, ROOT, needs_chromium
from labserver import KERNEL_READY, open_notebook, running_lab
from playwright.sync_api import expect

from dpteach.publish import editions

pytestmark = needs_chromium

CHAPTERS = sorted(path.stem for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
TYPED = "271828.0"
#: Chapters whose first slider a student also moves with the keyboard, after Run All: the figure redraws.
SLIDERS = ("00_start_here", "03_laplace_mechanism")
#: Records every change in the notebook's toolbar (its nodes, their attributes) from now on.
TOOLBAR_WATCH = """() => {
    window.__toolbarChanges = [];
    new MutationObserver((records) => records.forEach((r) => window.__toolbarChanges.push(
        `${r.type} ${r.attributeName ?? ''} on ${r.target.nodeName}.${r.target.className?.baseVal ?? r.target.className}`)))
        .observe(document.querySelector('.jp-NotebookPanel-toolbar'), {subtree: true, childList: true, attributes: true});
}"""


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """The lab over a scratch copy of notebooks/: what a student types (and JupyterLab autosaves)
    never reaches the repository's chapters, which other tests read meanwhile."""
    root = tmp_path_factory.mktemp("selfstudy")
    shutil.copytree(ROOT / "notebooks", root / "notebooks")
    with running_lab(root=root) as server:
        yield server


def _exercise_cells(stem):
    nb = json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8"))
    found = editions.exercises(nb, stem)
    first = next(e for e in found if e.kind == "value")
    return nb, found, first


def _cell(page, index):
    return page.locator(".jp-Notebook .jp-Cell").nth(index)


def _run_all(page):
    page.wait_for_function(KERNEL_READY, timeout=90_000)
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click(timeout=10_000)
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click(timeout=10_000)
    # every code cell has run once no prompt is empty or busy and the kernel is idle again
    page.wait_for_function("""() => {
        const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(p => p.textContent.trim());
        return prompts.length > 0 && prompts.every(t => /^\\[\\d+\\]:$/.test(t));
    }""", timeout=180_000)
    page.wait_for_function(KERNEL_READY, timeout=60_000)


def _move_the_first_slider(page):
    slider = page.locator(".widget-slider").first
    slider.scroll_into_view_if_needed()
    readout = slider.locator(".widget-readout")
    image = page.locator(".widget-image").first
    before_value, before_src = readout.inner_text(), image.get_attribute("src")
    handle = slider.locator(".noUi-handle")
    handle.focus()
    page.evaluate(TOOLBAR_WATCH)
    for _ in range(10):
        handle.press("ArrowRight")
    page.wait_for_function(
        "([el, src]) => el.getAttribute('src') !== src", arg=[image.element_handle(), before_src], timeout=20_000)
    assert readout.inner_text() != before_value
    page.wait_for_function(KERNEL_READY, timeout=20_000)
    # the kernel went busy and idle for every move: that shows in the status bar, and the notebook's toolbar
    # stays still (binder/overrides.json), since any change inside it makes JupyterLab's toolbar recompute
    # which of its buttons take focus, a forced layout of the page on every move
    assert page.evaluate("window.__toolbarChanges") == [], "the notebook toolbar changed while the slider moved"
    assert page.locator(".jp-StatusBar-Widget .jp-Notebook-ExecutionIndicator").count() == 1
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"lab_{page.url.split('/')[-1].split('.')[0]}_slider.png"))


@pytest.mark.parametrize("stem", CHAPTERS)
def test_run_all_keeps_the_students_answer_and_shows_no_solution_or_note(browser, lab, stem):
    nb, found, first = _exercise_cells(stem)
    page, errors = open_notebook(browser, lab, f"notebooks/{stem}.ipynb")
    page.wait_for_function("n => document.querySelectorAll('.jp-Notebook .jp-Cell').length === n",
                           arg=len(nb["cells"]), timeout=60_000)
    answer = _cell(page, first.student_cell)
    answer.scroll_into_view_if_needed()
    answer.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.type(f"{first.answer} = {TYPED}   # my answer\n{first.call}")
    _run_all(page)

    # the student's answer is still in its cell, and it is what the checker judged
    answer.scroll_into_view_if_needed()
    assert TYPED in answer.locator(".cm-content").inner_text()
    expect(answer.locator(".jp-OutputArea")).to_contain_text("Not quite", timeout=30_000)
    # no solution ran: no checker anywhere says Correct, and every solution is folded, showing nothing
    outputs = page.locator(".jp-OutputArea-output")
    assert not any("Correct" in text for text in outputs.all_inner_texts())
    for exercise in found:
        solution = _cell(page, exercise.solution_cell)
        solution.scroll_into_view_if_needed()
        details = solution.locator("details")
        assert details.count() == 1 and details.get_attribute("open") is None
        assert solution.locator("summary").inner_text().strip() == "Show the solution"
        assert not solution.locator("pre").is_visible(), f"{exercise.name}'s solution code shows"
        assert solution.locator(".jp-OutputArea-output").count() == 0
    # no instructor note anywhere
    assert "Speaker notes" not in page.locator(".jp-Notebook").inner_text()

    # Shift+Enter on the exercise runs it and lands on the folded solution; a second one runs nothing
    answer.locator(".cm-content").click()
    page.keyboard.press("Shift+Enter")
    page.keyboard.press("Shift+Enter")
    expect(answer.locator(".jp-OutputArea")).to_contain_text("Not quite", timeout=60_000)   # run again, judged again
    page.wait_for_function(KERNEL_READY, timeout=60_000)
    assert TYPED in answer.locator(".cm-content").inner_text()
    assert not _cell(page, first.solution_cell).locator("pre").is_visible()
    if stem in SLIDERS:
        _move_the_first_slider(page)
    if stem == "03_laplace_mechanism":
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        answer.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"selfstudy_{stem}_exercise.png"))
    assert page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
    assert not errors, errors
    page.close()


def test_a_click_on_show_the_solution_opens_it(browser, lab):
    stem = "05_accuracy_census_names"
    nb, found, first = _exercise_cells(stem)
    page, errors = open_notebook(browser, lab, f"notebooks/{stem}.ipynb")
    page.wait_for_function("n => document.querySelectorAll('.jp-Notebook .jp-Cell').length === n",
                           arg=len(nb["cells"]), timeout=60_000)
    solution = _cell(page, first.solution_cell)
    solution.scroll_into_view_if_needed()
    solution.locator("summary").click()
    assert solution.locator("pre").is_visible()
    assert first.answer in solution.locator("pre").inner_text()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"selfstudy_{stem}_solution_opened.png"))
    assert not errors, errors
    page.close()
