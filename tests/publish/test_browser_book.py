"""The reader's book in headless Chromium, opened from file:// with the network cut.

Every page: no failed request, no request leaving file://, no console error, formulas
typeset by the bundled MathJax, every image loaded and described (alt), every slider named,
and no "serious" or "critical" accessibility violation found by axe-core; one <title>, maths in the
prose typeset rather than written with carets and underscores, links to chapters named by their
titles, and none of the exercise checkers' "run the cell again" (a book runs nothing). Screenshots at
desktop and phone width go to artifacts/screenshots/. The precomputed slider of chapter 03
switches its figure with no kernel; the offline search finds "Laplace" and "Theorem 3.8".

Reflow (WCAG 1.4.10), at 320 CSS px and at 200 % zoom (a 640 px viewport, device scale 2): no page
scrolls sideways, every display formula is whole or scrolls inside its own box (then a Tab stop of its own),
no widget label, direction row or previous/next title is cut, and no formula is a Tab stop otherwise. A precomputed view's slider
announces the label its readout shows, and its figure's new description is said in a polite live region.

On a phone (Chromium's mobile emulation, 390×844, touch): the ☰ and "contents" buttons open their
sidebars when tapped, no code is cut at the right edge (solutions opened), "Back to top" never covers
code, and a tapped figure opens at a size whose text can be read. A book built with the defaults (no
option) works with no network, and a book built for the network says so on a page opened without one.
"""

import json
import re

import pytest
from helpers import ARTIFACTS, ROOT, axe_source, needs_chromium
from test_book_site import PAGES, built_book

from dpteach.publish.paths import Project

pytestmark = needs_chromium
DESKTOP = {"width": 1300, "height": 900}
PHONE = {"width": 390, "height": 844}
#: Where a request may go: the book's files, and the blob:/data: URLs a page makes of its own bytes.
LOCAL = ("file://", "blob:", "data:")


PHONE_CONTEXT = {"viewport": PHONE, "is_mobile": True, "has_touch": True, "device_scale_factor": 3}

#: The prose of a page as a reader sees it: the Markdown text, without code, outputs, widgets and typeset maths.
PROSE = """() => {
  const main = document.querySelector('main').cloneNode(true);
  main.querySelectorAll('.cell, pre, code, script, style, .MathJax, .MathJax_Display, .MathJax_Preview, mjx-container, ' +
                        '.MJX_Assistive_MathML, .jupyter-widgets, .headerlink').forEach(e => e.remove());
  return main.textContent;
}"""
#: Maths written in plain text: a letter with a subscript (M_L, p_x) or anything with a caret (e^ε, e^(−t)).
PLAIN_MATHS = re.compile(r"(?:^|[^\w.])[A-Za-zα-ωΔ]_[A-Za-z0-9α-ω{(]|\)_[A-Za-z0-9α-ω]|[\wα-ωΔ)\]]\^[\w(α-ωΔ−{-]")


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
    # one title, typeset maths in the prose, chapters named by their titles, nothing that asks to run a cell
    parts = page.title().split(" \u2014 ")
    assert len(set(parts)) == len(parts), f"the title repeats itself: {page.title()!r}"
    plain = [m.group(0) for m in PLAIN_MATHS.finditer(page.evaluate(PROSE))]
    assert not plain, f"maths in plain text beside the typeset maths: {plain[:6]}"
    named = page.eval_on_selector_all("main a", "els => els.map(a => a.textContent.trim())")
    files = [t for t in named if re.search(r"\b\d\d_\w+\.(ipynb|html|md)\b", t)]
    assert not files, f"links named by a file instead of the chapter's title: {files[:4]}"
    for words in ("Not answered yet", "run the cell again"):
        assert words not in text, f"{words!r}: a checker's message that means nothing in a book"
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
    # the new frame is described: by the text the view's JSON holds for the label shown (dpteach_frames)
    frames = view.evaluate("v => JSON.parse(v.closest('.cell_output').querySelector("
                           "'script[type=\"application/vnd.jupyter.widget-view+json\"]').textContent).dpteach_frames")
    expected = frames["alts"][frames["labels"].index(after_label)]
    assert expected != frames["alts"][frames["labels"].index(before_label)]
    page.wait_for_function(f"([v, alt]) => ({visible})(v).alt === alt", arg=[view.element_handle(), expected],
                           timeout=5_000)
    # the handle announces the label shown (not the option's index), and a live region says the new description
    assert handle.get_attribute("aria-valuetext") == after_label, (handle.get_attribute("aria-valuetext"), after_label)
    alt = view.evaluate(f"v => ({visible})(v).alt")
    live = "v => [...v.closest('.cell_output').querySelectorAll('[aria-live=polite]')]"
    assert view.evaluate(f"v => ({live})(v).length") == 1, "no polite live region (or more than one) for the figure"
    try:
        page.wait_for_function(f"([v, alt]) => ({live})(v)[0].textContent === alt", arg=[view.element_handle(), alt],
                               timeout=5_000)
    except Exception:
        pytest.fail(f"the live region did not say the new description: {view.evaluate(f'v => ({live})(v)[0].textContent')!r}")
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


def _phone(browser, url):
    """A page on a phone: Chromium's mobile emulation (390×844, touch), the network cut."""
    context = browser.new_context(**PHONE_CONTEXT, offline=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url, wait_until="load")
    _settle(page)
    return page, errors


@pytest.mark.parametrize(("toggle", "dialog", "inside"), [
    (".primary-toggle", "#pst-primary-sidebar-modal", "a[href='03_laplace_mechanism.html']"),
    (".secondary-toggle", "#pst-secondary-sidebar-modal", "a[href^='#theorem']"),
])
def test_phone_sidebars_open_on_tap(browser, book, toggle, dialog, inside):
    """The ☰ (chapters) and "contents" (this page's sections) buttons, tapped on a phone, open their sidebar.
    The theme binds its handler to the first such button of the page, which is hidden at this width."""
    page, errors = _phone(browser, (book / "05_accuracy_census_names.html").as_uri())
    button = page.locator(f"{toggle}:visible").first
    button.tap()
    try:
        page.wait_for_selector(f"{dialog}[open] {inside}", state="visible", timeout=5_000)
    except Exception:
        page.screenshot(path=str(ARTIFACTS / f"book_phone_{toggle[1:]}_closed.png"))
        pytest.fail(f"tapping {toggle} opened nothing")
    page.screenshot(path=str(ARTIFACTS / f"book_phone_{toggle[1:]}_open.png"))
    page.keyboard.press("Escape")
    page.wait_for_selector(f"{dialog}[open]", state="detached", timeout=5_000)
    assert not errors, errors
    page.context.close()


#: Every code block on the screen (solutions opened): cut at the right edge, or covered by "Back to top".
CODE_ON_PHONE = """() => {
  const W = innerWidth, codes = [...document.querySelectorAll('pre')].filter(p => p.getClientRects().length);
  const cut = codes.filter(p => p.scrollWidth > p.clientWidth + 1 || p.getBoundingClientRect().right > W + 1)
                   .map(p => p.textContent.trim().split('\\n')[0].slice(0, 50));
  const top = document.getElementById('pst-back-to-top');
  let covered = [];
  if (top && top.getClientRects().length && getComputedStyle(top).visibility !== 'hidden') {
    const b = top.getBoundingClientRect();
    covered = codes.filter(p => { const r = p.getBoundingClientRect();
      return r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom; })
      .map(p => p.textContent.trim().split('\\n')[0].slice(0, 50));
  }
  return {codes: codes.length, cut, covered};
}"""


def test_phone_code_is_whole_and_back_to_top_leaves_it_alone(browser, book):
    """At 390 px every code block, solutions opened, fits the screen (wrapped, nothing hidden to the right),
    and "Back to top", which the theme shows while the reader scrolls up, never covers code."""
    page, errors = _phone(browser, (book / "03_laplace_mechanism.html").as_uri())
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
    page.wait_for_timeout(300)
    state = page.evaluate(CODE_ON_PHONE)
    assert state["codes"] > 5
    assert not state["cut"], f"code cut at the right edge on a phone: {state['cut'][:4]}"
    solution = page.locator("details pre").first
    solution.scroll_into_view_if_needed()
    page.mouse.wheel(0, 600)
    page.wait_for_timeout(300)
    covered = []
    for _ in range(6):              # scrolling back up over the solution: the theme shows "Back to top"
        page.mouse.wheel(0, -120)
        page.wait_for_timeout(250)
        covered += page.evaluate(CODE_ON_PHONE)["covered"]
    page.screenshot(path=str(ARTIFACTS / "book_phone_solution.png"))
    assert not covered, f"'Back to top' covers code: {covered[:3]}"
    assert not errors, errors
    page.context.close()


#: The figure opened by a tap: its drawn width per pixel of the image, and whether the reader can pan it.
ZOOMED = """() => {
  const box = document.querySelector('.dpteach-zoom');
  if (!box || !box.getClientRects().length) return null;
  const img = box.querySelector('img');
  return {scale: img.getBoundingClientRect().width / img.naturalWidth, natural: img.naturalWidth,
          pans: box.scrollWidth > box.clientWidth, alt: img.alt};
}"""


def test_phone_figures_open_readable_on_tap(browser, book):
    """A figure squeezed to the phone's width has text of 5–6 px: tapped, it opens over the page at 1.25×
    its own pixels or more (its text 12 px and up), to be panned, with its description; Escape closes it."""
    page, errors = _phone(browser, (book / "05_accuracy_census_names.html").as_uri())
    figures = page.locator(".cell_output img:visible")
    assert figures.count() > 0
    first = figures.first
    first.scroll_into_view_if_needed()
    assert first.bounding_box()["width"] < 400
    first.tap()
    try:
        page.wait_for_function(f"() => ({ZOOMED})() !== null", timeout=5_000)
    except Exception:
        pytest.fail("tapping a figure on a phone opened nothing")
    zoomed = page.evaluate(ZOOMED)
    page.screenshot(path=str(ARTIFACTS / "book_phone_figure_zoomed.png"))
    assert zoomed["scale"] >= 1.25 and zoomed["pans"], zoomed
    assert zoomed["alt"].strip()
    page.keyboard.press("Escape")
    page.wait_for_function(f"() => ({ZOOMED})() === null", timeout=5_000)
    # what a tap opens, the keyboard opens too: the squeezed figure is a Tab stop, and Enter opens it
    assert first.get_attribute("tabindex") == "0", "a figure that opens when tapped is not reachable by keyboard"
    first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => ({ZOOMED})() !== null", timeout=5_000)
    page.keyboard.press("Escape")
    page.wait_for_function(f"() => ({ZOOMED})() === null", timeout=5_000)
    assert not errors, errors
    page.context.close()


def test_a_book_built_with_the_defaults_works_offline(browser, tmp_path_factory):
    """`make html` with no option: opened with the network cut, its formulas are typeset and its figures
    drawn (MathJax and the widget renderer come with it), and its index mentions no launch menu (none without
    REPO=)."""
    default = built_book(tmp_path_factory, "default")
    page, log = _open(browser, (default / "03_laplace_mechanism.html").as_uri())
    try:
        _settle(page)
    except Exception:
        pass                    # (waits for MathJax and the widgets: checked below)
    text = page.inner_text("main")
    assert page.locator(".MathJax, .MathJax_Display").count() > 0, "formulas not typeset with no network"
    assert "\\varepsilon" not in text and "$$" not in text, "raw TeX with no network"
    drawn = page.evaluate("() => [...document.querySelectorAll('.cell_output img')].filter(i => i.complete && i.naturalWidth)"
                          ".length")
    views = page.locator("script[type='application/vnd.jupyter.widget-view+json']").count()
    assert drawn >= views > 0, f"{drawn} figures drawn for {views} widget views"
    assert not log["outside"] and not log["failed"], log
    page.goto((default / "index.html").as_uri())
    index = page.inner_text("main").lower()
    assert "rocket" not in index and "launch" not in index, "the index mentions a launch menu the pages lack"
    page.context.close()


def test_a_book_built_for_the_network_says_so_without_it(browser, tmp_path_factory):
    """The instructor edition is built for the network (MathJax and the widget renderer from CDNs): opened
    without one, a page says why its formulas and figures are missing, instead of showing raw TeX silently."""
    online = built_book(tmp_path_factory, "instructor")
    page, _ = _open(browser, (online / "03_laplace_mechanism.html").as_uri())
    try:
        page.wait_for_selector(".dpteach-offline-note", state="visible", timeout=15_000)
    except Exception:
        pytest.fail("a page built for the network, opened without one, says nothing about its missing formulas")
    assert "network" in page.inner_text(".dpteach-offline-note")
    page.screenshot(path=str(ARTIFACTS / "book_online_page_offline.png"))
    page.context.close()


#: At a narrow width: what scrolls the page sideways, formulas cut (wider than their box, which does not scroll),
#: widget labels and direction rows cut, and the formulas that are Tab stops (only those that scroll may be).
REFLOW = """() => {
  const W = innerWidth, main = document.querySelector('main');
  const right = box => { let edge = 0; box.querySelectorAll('*').forEach(e => {
    if (e.closest('.MJX_Assistive_MathML')) return;
    const r = e.getBoundingClientRect(); if (r.width) edge = Math.max(edge, r.right); }); return edge; };
  const scrolls = e => /auto|scroll/.test(getComputedStyle(e).overflowX);
  const cut = [...main.querySelectorAll('div.math, .MathJax_Display')].filter(e => e.getClientRects().length)
    .filter(e => { const box = e.closest('div.math') || e;
      const whole = right(e) <= box.getBoundingClientRect().right + 1 && e.scrollWidth <= e.clientWidth + 1;
      return !whole && !(scrolls(box) && box.scrollWidth >= right(e) - box.getBoundingClientRect().left - 1); })
    .map(e => e.textContent.trim().slice(0, 40));
  const labels = [...document.querySelectorAll('main .widget-label, main .dpteach-direction, .prev-next-title')]
    .filter(e => e.getClientRects().length && e.textContent.trim())
    .filter(e => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > W + 1)
    .map(e => e.textContent.trim().slice(0, 40));
  const stops = [...main.querySelectorAll('.MathJax, .MathJax_Display, div.math, .MathJax *')]
    .filter(e => e.tabIndex >= 0 && !(e.matches('div.math') && e.scrollWidth > e.clientWidth));
  const unreachable = [...main.querySelectorAll('div.math')].filter(e => e.scrollWidth > e.clientWidth + 1 && e.tabIndex < 0);
  return {width: document.scrollingElement.scrollWidth, W, cut, labels, stops: stops.length,
          unreachable: unreachable.length, formulas: main.querySelectorAll('div.math').length};
}"""


@pytest.mark.parametrize("zoom", ["320px", "200%"])
def test_pages_reflow_without_sideways_scrolling(browser, book, zoom):
    """WCAG 1.4.10: at 320 CSS px, and at 200 % of a 1280 px window (640 CSS px, 2 device pixels each), no page
    scrolls sideways; a display formula is whole or scrolls inside its own box (a Tab stop then, to be scrolled by
    keyboard); no widget label or direction row is cut; and no formula is otherwise a Tab stop."""
    size = {"viewport": {"width": 320, "height": 640}} if zoom == "320px" else \
        {"viewport": {"width": 640, "height": 450}, "device_scale_factor": 2}
    context = browser.new_context(offline=True, **size)
    problems, formulas = {}, 0
    for name in ["index.html", *PAGES]:
        page = context.new_page()
        page.goto((book / name).as_uri(), wait_until="load")
        _settle(page)
        page.wait_for_timeout(100)         # (dpteach.js marks the formulas that scroll on the next frame)
        found = page.evaluate(REFLOW)
        formulas += found["formulas"]
        wrong = {key: found[key] for key in ("cut", "labels") if found[key]}
        if found["width"] > found["W"]:
            wrong["page width"] = f"{found['width']} px in a {found['W']} px window"
        if found["stops"] or found["unreachable"]:
            wrong["formulas in the Tab order / scrolling ones out of it"] = (found["stops"], found["unreachable"])
        if wrong:
            problems[name] = wrong
        if name == "05_accuracy_census_names.html":
            page.screenshot(path=str(ARTIFACTS / f"book_reflow_{zoom.replace('%', 'pc')}.png"))
        page.close()
    context.close()
    assert formulas > 20, "the pages' display formulas were not found"
    assert not problems, json.dumps(problems, ensure_ascii=False)[:3000]


def test_no_formula_is_a_tab_stop_before_the_first_slider(browser, book):
    """Chapter 03 at desktop width: Tab from the page's top reaches the precomputed view's slider with no stop on
    a formula (MathJax 2 made each one a Tab stop: 45 presses before the slider) but one too wide for the column,
    whose box scrolls."""
    page, log = _open(browser, (book / "03_laplace_mechanism.html").as_uri())
    _settle(page)
    stops = []
    for _ in range(400):
        page.keyboard.press("Tab")
        where = page.evaluate("() => { const e = document.activeElement; return [e.getAttribute('role'), "
                              "!!e.closest('.MathJax, .MathJax_Display, div.math') && !(e.matches('div.math') && e.scrollWidth > "
                              "e.clientWidth), e.getAttribute('aria-disabled'), "
                              "(e.textContent || '').trim().slice(0, 30)]; }")
        stops.append(where)
        if where[0] == "slider" and where[2] != "true":
            break
    assert stops[-1][0] == "slider", f"no live slider reached in {len(stops)} Tab presses"
    formulas = [text for _, maths, _, text in stops if maths]
    assert not formulas, f"{len(formulas)} of {len(stops)} Tab stops before the slider are formulas: {formulas[:3]}"
    page.context.close()
