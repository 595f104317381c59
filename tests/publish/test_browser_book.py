"""The reader's book in headless Chromium, opened from file:// with the network cut.

Every page: no failed request, no request leaving file://, no console error, formulas
typeset by the bundled MathJax, every image loaded and described (alt), every slider named,
and no "serious" or "critical" accessibility violation found by axe-core. Screenshots at
desktop and phone width go to artifacts/screenshots/. The precomputed slider of chapter 03
switches its figure with no kernel; the offline search finds "Laplace" and "Theorem 3.8".
"""

import json

import pytest
from helpers import ARTIFACTS, ROOT, axe_source, needs_chromium
from test_book_site import PAGES, built_book

from dpteach.publish.paths import Project

pytestmark = needs_chromium
DESKTOP = {"width": 1300, "height": 900}
PHONE = {"width": 390, "height": 844}
#: Where a request may go: the book's files, and the blob:/data: URLs a page makes of its own bytes.
LOCAL = ("file://", "blob:", "data:")


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    return built_book(tmp_path_factory, "student")


def _open(browser, url, viewport=DESKTOP):
    """A page with no network: every request that is not for a local file, every failed request and
    every console error is kept in the log."""
    context = browser.new_context(viewport=viewport, offline=True)        # the network is cut
    page = context.new_page()
    log = {"outside": [], "failed": [], "errors": []}
    page.on("request", lambda r: None if r.url.startswith(LOCAL) else log["outside"].append(r.url))
    page.on("requestfailed", lambda r: log["failed"].append(f"{r.url} ({r.failure})"))
    page.on("pageerror", lambda e: log["errors"].append(str(e)))
    page.on("console", lambda m: log["errors"].append(f"console: {m.text}") if m.type == "error" else None)
    page.goto(url, wait_until="load")
    return page, log


def _settle(page):
    """Wait until MathJax has typeset the page and the widget renderer has drawn every view."""
    if page.locator("script[src*='MathJax.js']").count():       # Sphinx loads MathJax on pages with formulas only
        page.wait_for_function("() => window.MathJax && window.MathJax.Hub && window.MathJax.isReady", timeout=30_000)
        page.evaluate("() => new Promise(done => MathJax.Hub.Queue(done))")
    views = page.locator("script[type='application/vnd.jupyter.widget-view+json']").count()
    if views:
        page.wait_for_function(
            "n => document.querySelectorAll('.widget-subarea > .jupyter-widgets').length >= n", arg=views, timeout=30_000)
        page.wait_for_function("() => [...document.images].every(i => i.hasAttribute('alt'))", timeout=10_000)


def _axe(page) -> list[dict]:
    page.add_script_tag(content=axe_source())
    result = page.evaluate("async () => (await axe.run(document, {preload: false})).violations.map(v => "
                           "({id: v.id, impact: v.impact, nodes: v.nodes.length, target: v.nodes[0].target}))")
    return [v for v in result if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("name", ["index.html", *PAGES])
def test_page_is_complete_and_accessible_offline(browser, book, name):
    page, log = _open(browser, (book / name).as_uri())
    _settle(page)
    text = page.inner_text("main")
    assert "Math Processing Error" not in text, "MathJax failed on a formula (a missing font or file?)"
    for raw in ("$$", "\\frac", "\\varepsilon", "\\mathrm"):
        assert raw not in text, f"raw TeX {raw!r} left on the page"
    if name != "index.html":
        chapter = Project(ROOT).twin(ROOT / "notebooks" / name.replace(".html", ".ipynb")).read_text()
        if "$" in chapter:
            assert page.locator(".MathJax, .MathJax_Display").count() > 0, "formulas not typeset"
        assert "Error displaying widget" not in text
    images = page.evaluate("() => [...document.images].map(i => [i.complete && i.naturalWidth > 0, i.alt, i.src.slice(-50)])")
    assert all(ok for ok, _, _ in images), [src for ok, _, src in images if not ok]
    assert all(alt.strip() for _, alt, _ in images), [src for _, alt, src in images if not alt.strip()]
    handles = page.evaluate("() => [...document.querySelectorAll('[role=slider]')].map(h => [h.getAttribute('aria-label'), "
                            "h.closest('.jupyter-widgets')?.className])")
    assert all(label for label, _ in handles), ["a slider without a name", [c for label, c in handles if not label]]
    serious = _axe(page)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    stem = name.removesuffix(".html")
    page.screenshot(path=str(ARTIFACTS / f"book_{stem}.png"))
    if name in ("index.html", "03_laplace_mechanism.html", "05_accuracy_census_names.html"):
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(300)
        page.screenshot(path=str(ARTIFACTS / f"book_{stem}_phone.png"))
    assert not log["outside"], f"requests left file://: {log['outside'][:3]}"
    assert not log["failed"], f"failed requests: {log['failed'][:5]}"
    assert not log["errors"], log["errors"][:5]
    assert not serious, json.dumps(serious, ensure_ascii=False)[:2000]
    page.context.close()


def test_sidebar_lists_every_chapter_and_marks_this_one(browser, book):
    page, log = _open(browser, (book / "05_accuracy_census_names.html").as_uri())
    links = page.eval_on_selector_all(".bd-sidebar-primary nav a", "els => els.map(e => e.getAttribute('href'))")
    assert [h for h in links if h.endswith(".html") and h[:2].isdigit()] == [p for p in PAGES if not p.startswith("05")]
    current = page.locator(".bd-sidebar-primary li.current > a")
    assert current.first.inner_text().strip() == "05 · Accuracy and the census first names"
    toc = page.eval_on_selector_all(".bd-sidebar-secondary nav a", "els => els.map(e => e.textContent.trim())")
    assert any("Theorem 3.8" in t for t in toc), toc
    page.context.close()


def test_precomputed_slider_moves_without_a_kernel(browser, book):
    page, log = _open(browser, (book / "03_laplace_mechanism.html").as_uri())
    view = page.locator(".widget-vbox", has=page.locator("text=Precomputed view")).first
    view.wait_for(timeout=30_000)
    view.scroll_into_view_if_needed()
    slider = view.locator(".widget-slider")
    visible = "v => [...v.querySelectorAll('img')].find(i => i.offsetParent !== null)"
    before_label = slider.locator(".widget-readout").inner_text()
    before = view.evaluate(f"v => ({visible})(v).src")
    handle = slider.locator(".noUi-handle")
    handle.focus()
    handle.press("ArrowRight")
    try:    # waits for the change instead of sleeping a fixed time, so a loaded machine cannot fail it
        page.wait_for_function(f"([v, src]) => ({visible})(v).src !== src", arg=[view.element_handle(), before],
                               timeout=10_000)
    except Exception:
        pytest.fail("the precomputed slider did not switch its frame within 10 s")
    after_label = slider.locator(".widget-readout").inner_text()
    assert after_label != before_label
    page.wait_for_function(f"([v, label]) => ({visible})(v).alt.endsWith('= ' + label)",
                           arg=[view.element_handle(), after_label], timeout=5_000)   # the new frame is described
    page.screenshot(path=str(ARTIFACTS / "book_precomputed_after.png"))
    assert not log["outside"] and not log["failed"] and not log["errors"], log
    page.context.close()


@pytest.mark.parametrize(("query", "page_name", "section", "within"), [
    ("Theorem 3.8", "05_accuracy_census_names.html", "#theorem-3", 1),
    # most chapters speak of the Laplace mechanism: the chapter that defines it is among the first five
    ("Laplace mechanism", "03_laplace_mechanism.html", "#definition-3-3", 5),
])
def test_offline_search_lands_on_the_right_section(browser, book, query, page_name, section, within):
    """From file://, no server: the first results include the chapter, linked to its section."""
    page, log = _open(browser, (book / "search.html").as_uri() + f"?q={query.replace(' ', '+')}")
    page.wait_for_selector("#search-results ul.search li a[href*='#']", timeout=30_000)
    page.wait_for_function("() => [...document.querySelectorAll('#search-results ul.search li a')]"
                           ".every(a => a.dataset.dpteachSection)", timeout=10_000)
    hrefs = page.eval_on_selector_all("#search-results ul.search li a", "els => els.map(e => e.getAttribute('href'))")
    pages = [h.split("#")[0].split("?")[0] for h in hrefs]
    assert any(p == page_name and section in h for p, h in zip(pages[:within], hrefs)), hrefs[:8]
    target = hrefs[pages.index(page_name)]
    page.goto((book / page_name).as_uri() + "#" + target.split("#")[1])
    assert page.locator(f"[id='{target.split('#')[1]}']").count() == 1
    if query == "Theorem 3.8":
        page.screenshot(path=str(ARTIFACTS / "book_search.png"))
    assert not log["outside"] and not log["failed"] and not log["errors"], log
    page.context.close()


def test_dead_sliders_are_disabled_with_a_note(browser, book):
    """A figure drawn from its saved widget state has no kernel: its controls are disabled, with a short
    note, and do not move; the precomputed view beside it (frames switched in the browser) stays live."""
    page, log = _open(browser, (book / "03_laplace_mechanism.html").as_uri())
    _settle(page)
    page.wait_for_selector(".dpteach-dead", state="attached", timeout=10_000)
    dead = page.locator(".dpteach-dead").first
    assert "need a running kernel" in page.locator(".dpteach-dead-note").first.inner_text()
    assert page.locator(".dpteach-dead-note").count() == page.locator(".dpteach-dead").count()
    target = dead.locator(".noUi-target").first
    assert target.get_attribute("disabled") is not None
    readout = dead.locator(".widget-readout").first
    before = readout.inner_text()
    dead.locator(".noUi-handle").first.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(300)
    assert readout.inner_text() == before, "a dead slider moved"
    precomputed = page.locator(".widget-vbox", has=page.locator("text=Precomputed view")).first
    assert precomputed.evaluate("v => !v.closest('.dpteach-dead')")
    assert precomputed.locator(".noUi-target").first.get_attribute("disabled") is None
    dead.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "book_dead_slider.png"))
    assert not log["failed"] and not log["errors"], log
    page.context.close()
