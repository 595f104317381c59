"""Presenting live: RISE slides inside JupyterLab, in the presenting venv, with sliders that answer.

`make present CHAPTER=03` starts JupyterLab from .venv-present (RISE, and the ipywidgets front
end its slideshow renders) on a scratch copy of the chapter, with DPTEACH_PRESENTATION=1. This
test does the same in a temporary folder: Run All, open the slideshow (RISE:preview, what Alt+R
does) at the privacy-loss figure, drag ε with the mouse, and see the figure change, with no
error and no stderr output. Skipped, saying why, without Chromium or without the presenting venv
(`make test` installs it).
"""

import json
import shutil
import subprocess
import time

import pytest
from conftest import ARTIFACTS, ROOT, needs_chromium
from labserver import open_notebook, run_all, running_lab

PRESENT = ROOT / ".venv-present"
CHAPTER = "03_laplace_mechanism.ipynb"

pytestmark = [needs_chromium, pytest.mark.skipif(not (PRESENT / "bin" / "jupyter").exists(),
                                                 reason="the presenting venv is missing: `make test` installs it")]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("present")
    # what make present does: the chapter's instructor edition (notes in), written by the presenting venv
    subprocess.run([str(PRESENT / "bin" / "python"), "-m", "dpteach.build", "--root", str(ROOT), "instructor",
                    f"notebooks/{CHAPTER}", "--out", str(scratch)], check=True, capture_output=True)
    shutil.copy(ROOT / "dpteach" / "build" / "templates" / "present" / "rise.css", scratch)
    with running_lab(python=PRESENT / "bin" / "python", root=scratch, env={"DPTEACH_PRESENTATION": "1"}) as server:
        yield server, scratch


def test_the_repository_chapter_is_presented_from_a_copy():
    """make present copies the chapter to build/present/ before the lab opens it: a talk never edits notebooks/."""
    recipe = (ROOT / "Makefile").read_text().split("\npresent:", 1)[1].split("\n\n", 1)[0]
    assert "build/present" in recipe and "cp " in recipe and "DPTEACH_PRESENTATION=1" in recipe
    assert "cd build/present" in recipe and "-m dpteach.build instructor" in recipe


def test_the_presented_copy_has_the_speaker_notes(lab):
    """RISE's speaker view (and nothing the students open) shows the notes of instructor/NN_name.md."""
    _, scratch = lab
    nb = json.loads((scratch / CHAPTER).read_text())
    notes = [c for c in nb["cells"] if c["metadata"].get("slideshow", {}).get("slide_type") == "notes"]
    assert len(notes) >= 3 and all("".join(c["source"]).startswith("**Speaker notes") for c in notes)
    assert "Speaker notes" not in (ROOT / "notebooks" / CHAPTER).read_text()


def test_slideshow_slider_redraws_the_figure(browser, lab):
    server, _ = lab
    page, errors = open_notebook(browser, server, CHAPTER, viewport=(1600, 1000))
    run_all(page, "present_03")
    # Select the privacy-loss cell, so that the slideshow opens on its slide, then start it (Alt+R).
    cell = page.locator(".jp-CodeCell", has_text="dp.widgets.privacy_loss()").first
    cell.scroll_into_view_if_needed()
    cell.locator(".jp-InputPrompt").click()
    page.evaluate("() => window.jupyterapp.commands.execute('RISE:preview')")
    deadline = time.monotonic() + 60
    frame = None
    while frame is None and time.monotonic() < deadline:
        frame = next((f for f in page.frames if "/rise/" in f.url), None)
        page.wait_for_timeout(500)          # (lets playwright take in the new frame; time.sleep would not)
    if frame is None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "present_03_no_slideshow.png"))
    assert frame is not None, f"the RISE slideshow did not open (frames: {[f.url for f in page.frames]})"
    slide = frame.locator(".reveal section.present").last
    frame.wait_for_selector(".reveal section.present .widget-slider", timeout=60_000)
    assert "privacy_loss" in slide.inner_text()
    slider = slide.locator(".widget-slider").first
    image = slide.locator(".widget-image").first
    readout = slider.locator(".widget-readout")
    before_value, before_src = readout.inner_text(), image.get_attribute("src")
    handle, track = slider.locator(".noUi-handle").bounding_box(), slider.locator(".noUi-base").bounding_box()
    y = handle["y"] + handle["height"] / 2
    page.mouse.move(handle["x"] + handle["width"] / 2, y)
    page.mouse.down()
    page.mouse.move(track["x"] + 0.9 * track["width"], y, steps=12)
    page.mouse.up()
    frame.wait_for_function("([el, src]) => el.getAttribute('src') !== src",
                            arg=[image.element_handle(), before_src], timeout=30_000)
    assert readout.inner_text() != before_value, "the slider did not move"
    assert frame.locator("[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
    assert page.locator("[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
    image.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "present_03_slideshow.png"))
    assert not errors, errors
    page.close()
