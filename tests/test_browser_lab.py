"""The live workbook in a real browser: JupyterLab in headless Chromium, driven by playwright.

This is what `make lab` gives a student: chapter opens, Run All works, a slider moved with
the keyboard redraws its figure, and a Markdown twin opens as a notebook, not as text.
Skipped, with the reason, where Chromium is not installed (`apt-get install -y chromium`).
"""

import pytest
from conftest import ARTIFACTS, needs_chromium
from labserver import open_notebook, run_all, running_lab

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def lab():
    with running_lab() as server:
        yield server


def _open(browser, lab, path):
    return open_notebook(browser, lab, path)


def _run_all(page, name):
    try:
        run_all(page, name)
    except RuntimeError as error:
        pytest.fail(str(error))


@pytest.mark.parametrize("chapter", ["00_start_here", "03_laplace_mechanism"])
def test_run_all_then_move_the_epsilon_slider(browser, lab, chapter):
    page, errors = _open(browser, lab, f"notebooks/{chapter}.ipynb")
    _run_all(page, chapter)
    slider = page.locator(".widget-slider").first
    slider.scroll_into_view_if_needed()
    readout = slider.locator(".widget-readout")
    image = page.locator(".widget-image").first
    before_value, before_src = readout.inner_text(), image.get_attribute("src")
    handle = slider.locator(".noUi-handle")
    handle.focus()
    for _ in range(10):
        handle.press("ArrowRight")
    page.wait_for_function(
        "([el, src]) => el.getAttribute('src') !== src", arg=[image.element_handle(), before_src], timeout=20_000)
    assert readout.inner_text() != before_value
    assert page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"lab_{chapter}.png"))
    assert not errors, errors
    page.close()


def test_markdown_twin_opens_as_a_notebook(browser, lab):
    page, errors = _open(browser, lab, "notebooks/01_sensitivity.md")
    page.wait_for_function("() => document.querySelectorAll('.jp-Notebook .jp-Cell').length > 5", timeout=30_000)
    assert page.locator(".jp-FileEditor").count() == 0, "the .md opened in the text editor"
    assert not errors, errors
    page.close()
