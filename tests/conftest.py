import os
import shutil
from pathlib import Path

import pytest

# `filterwarnings = error` (pyproject) acts in the pytest process only. Kernels that nbval, nbclient or
# nbconvert start for the notebooks inherit this environment: there too, any warning is an error, so a
# library's DeprecationWarning inside a chapter fails its cell instead of passing silently.
os.environ["PYTHONWARNINGS"] = "error"

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

#: Browser tests drive Debian's Chromium; where it is missing they are skipped, saying how to enable them.
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="browser tests need Chromium: run `apt-get install -y chromium` (Debian) to enable them")


def assert_checker_contract(check, right, wrong) -> None:
    """Every exercise checker: ✅ for the right answer, ❌ for a wrong one, "your turn" for ... or None,
    and ❌ (not a crash) for a word or NaN."""
    assert check(right).correct is True
    verdict = check(wrong)
    assert verdict.correct is False and "Not quite" in repr(verdict)
    assert check(...).correct is None and check(None).correct is None
    assert check("a word").correct is False
    assert check(float("nan")).correct is False


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium (never a browser downloaded by playwright), kept off the network."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run", "--disable-quic"])
        yield b
        b.close()
