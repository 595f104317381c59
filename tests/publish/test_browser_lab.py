"""The live workbook in a real browser: JupyterLab in headless Chromium, driven by playwright.

What an author gets from `make lab`: a chapter's Markdown twin (sources/) opens as a notebook, not
as text. What a student gets (every chapter, Run All, answers kept, a slider moved with the
keyboard) is tested in tests/publish/test_browser_selfstudy.py.
Skipped, with the reason, where Chromium is not installed (`apt-get install -y chromium`).
"""

import pytest
from helpers import needs_chromium
from labserver import open_notebook, running_lab

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def lab():
    with running_lab() as server:
        yield server


def _open(browser, lab, path):
    return open_notebook(browser, lab, path)


def test_markdown_twin_opens_as_a_notebook(browser, lab):
    page, errors = _open(browser, lab, "sources/01_sensitivity.md")
    page.wait_for_function("() => document.querySelectorAll('.jp-Notebook .jp-Cell').length > 5", timeout=30_000)
    assert page.locator(".jp-FileEditor").count() == 0, "the .md opened in the text editor"
    assert not errors, errors
    page.close()
