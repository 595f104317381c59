"""The HTML book in headless Chromium with the network cut: what a reader on a plane sees.

Every page: formulas typeset by the local MathJax (no raw TeX left), every image loaded,
widgets rendered from the saved state, no page errors, no request leaving 127.0.0.1.
The precomputed slider of chapter 03 switches its figure with no kernel at all.
"""

import functools
import http.server
import threading

import pytest
from conftest import ARTIFACTS, ROOT, needs_chromium

from dpteach import export
from dpteach.book import chapters

pytestmark = needs_chromium
PAGES = [c.path.stem + ".html" for c in chapters(ROOT / "notebooks")]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The offline book served on 127.0.0.1 (built from the committed, executed notebooks)."""
    out = tmp_path_factory.mktemp("book") / "html"
    export.build_html(out, offline=True, executed=ROOT / "notebooks")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", out
    server.shutdown()
    server.server_close()


def _load(browser, base, name):
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    escaped, errors = [], []
    page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(base) else
               (escaped.append(r.request.url), r.abort()))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/{name}", wait_until="load")
    return page, escaped, errors


def _typeset(page):
    """Wait until MathJax has finished its queue on this page."""
    page.wait_for_function("() => window.MathJax && window.MathJax.Hub && window.MathJax.isReady", timeout=30_000)
    page.evaluate("() => new Promise(done => MathJax.Hub.Queue(done))")


@pytest.mark.parametrize("name", PAGES)
def test_page_is_complete_without_a_network(browser, site, name):
    base, out = site
    page, escaped, errors = _load(browser, base, name)
    _typeset(page)
    page.wait_for_timeout(500)
    text = page.inner_text("body")
    chapter = (ROOT / "notebooks" / name.replace(".html", ".md")).read_text()
    if "$" in chapter:
        typeset = page.locator("script[type^='math/tex']").count()
        assert typeset > 0 and page.locator(".MathJax, .MathJax_Display").count() >= typeset, "formulas not typeset"
    assert "Math Processing Error" not in text, "MathJax failed on a formula (a missing font or file?)"
    for raw in ("$$", "\\frac", "\\varepsilon", "\\mathrm"):
        assert raw not in text, f"raw TeX {raw!r} left on the page"
    images = page.evaluate("() => [...document.images].map(i => [i.complete && i.naturalWidth > 0, i.src.slice(0, 40)])")
    assert images and all(ok for ok, _ in images), [src for ok, src in images if not ok]
    if page.locator(".jupyter-widgets").count():
        page.wait_for_selector(".widget-image, .widget-slider, .widget-html", timeout=30_000)
        assert "Error displaying widget" not in text
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"book_{name.removesuffix('.html')}.png"))
    assert not escaped, f"requests left the machine: {escaped[:3]}"
    assert not errors, errors
    page.close()


def test_index_links_all_resolve(browser, site):
    base, out = site
    page, escaped, errors = _load(browser, base, "index.html")
    hrefs = page.eval_on_selector_all("a", "els => els.map(e => e.getAttribute('href'))")
    assert sorted(hrefs) == sorted(PAGES)
    for href in hrefs:
        assert page.request.get(f"{base}/{href}").ok, href
    page.close()


def test_precomputed_slider_moves_without_a_kernel(browser, site):
    base, out = site
    page, escaped, errors = _load(browser, base, "03_laplace_mechanism.html")
    view = page.locator(".widget-vbox", has=page.locator("text=Precomputed view")).first
    view.wait_for(timeout=30_000)
    view.scroll_into_view_if_needed()
    slider = view.locator(".widget-slider")
    stack = view.locator(".widget-image >> visible=true").first

    visible_src = "v => [...v.querySelectorAll('img')].find(i => i.offsetParent !== null)?.src"
    before_label, before = slider.locator(".widget-readout").inner_text(), view.evaluate(visible_src)
    handle = slider.locator(".noUi-handle")
    handle.focus()
    handle.press("ArrowRight")
    try:    # waits for the change instead of sleeping a fixed time, so a loaded machine cannot fail it
        page.wait_for_function(f"([v, src]) => ({visible_src})(v) !== src",
                               arg=[view.element_handle(), before], timeout=10_000)
    except Exception:
        pytest.fail("the precomputed slider did not switch its frame within 10 s")
    assert slider.locator(".widget-readout").inner_text() != before_label
    assert stack.count() == 1
    page.screenshot(path=str(ARTIFACTS / "book_precomputed_after.png"))
    assert not escaped and not errors
    page.close()


def test_offline_slides_open(browser, tmp_path):
    pages = export.build_slides(tmp_path / "slides", offline=True, executed=ROOT / "notebooks")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(_Quiet, directory=str(tmp_path / "slides")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        page, escaped, errors = _load(browser, base, pages[3].name)
        page.wait_for_selector(".reveal.ready", timeout=30_000)     # reveal.js adds "ready" once initialised
        assert page.locator(".reveal .slides > section").count() > 5
        before = page.evaluate("() => location.hash")
        page.keyboard.press("ArrowRight")
        page.wait_for_function("h => location.hash !== h", arg=before, timeout=10_000)
        page.wait_for_timeout(800)
        page.screenshot(path=str(ARTIFACTS / "slides_03.png"))
        assert not escaped, escaped
        assert not errors, errors
        page.close()
    finally:
        server.shutdown()
        server.server_close()
