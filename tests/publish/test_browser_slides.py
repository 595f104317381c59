"""The static slides (make slides) in headless Chromium, from file:// with the network cut.

The decks are built as `make slides` builds them, in a process of its own: every chapter executed afresh
(its figures drawn for a projector), which prints nothing about the kernels' transport. One page per
chapter's deck. At 1920×1080 it walks every slide and fragment (Reveal.next(), what → and Space do in
linear navigation) and checks that body text is at least 24 px, that the smallest text of every figure is
at least 24 px too (each dpteach PNG says how small its text is drawn), that nothing lies outside the
screen, that every slide has a heading, that "What to watch" sits on its figure's slide, that no control's
label is cut, that no heading is upper-cased (ε would become "Ε") and that no code the slides hide shows.
reveal.js lays a slide out at 1920×1080 and scales it to the screen, so at 1280×720 the scale is
checked (2/3 of it: text the same share, 16 px), and chapters 03 and 05 are walked again. The deck
loads with 0 failed requests and no console error. On chapter 03 the real keys → and Space reach the
next slide, the precomputed slider moves its figure with no kernel, and the speaker
view (S) shows the current slide's notes, the next slide and a timer, and follows the show.
Accessibility, every deck with all its slides shown at once: axe-core (WCAG 2.1 A and AA) finds nothing, every
image has a text alternative, formulas carry MathJax's assistive MathML, links are underlined and open a page
(a deck), not a notebook; on chapter 03 an arrow key on a focused slider moves the slider, not the show.
Screenshots go to artifacts/screenshots/slides_*.png.
"""

import re
import subprocess
import sys

import nbformat
import pytest
from helpers import ARTIFACTS, ROOT, axe_source, needs_chromium

from dpteach.publish import slides
from dpteach.publish.book_site import instructor_edition
from dpteach.publish.paths import Project

pytestmark = needs_chromium
PROJECT = Project(ROOT)
CHAPTERS = [c.path.stem for c in PROJECT.chapters()]
SIZES = [(1920, 1080), (1280, 720)]
#: Decks walked at both sizes (the others at 1920×1080, and their scale checked at 1280×720).
WALKED_AT_BOTH_SIZES = ("03_laplace_mechanism", "05_accuracy_census_names")
#: Where a request may go: the deck's files, and the blob:/data: URLs a page makes of its own bytes
#: (about:blank is MathJax's font probe, answered locally).
LOCAL = ("file://", "blob:", "data:", "about:blank")

#: Walks the deck from its first slide with Reveal.next() and measures every state: the smallest text
#: (px on the screen: computed size × reveal's scale), what lies outside the screen, upper-cased headings.
WALK = """async () => {
  const scale = Reveal.getScale(), W = innerWidth, H = innerHeight, states = [];
  // the smallest text a dpteach PNG is drawn with (px of the image), from its tEXt chunk "dpteach:text-px"
  const textPx = {};
  async function pngTextPx(src) {
    if (src in textPx) return textPx[src];
    const bytes = new Uint8Array(await (await fetch(src)).arrayBuffer());
    let found = null;
    for (let at = 8; at + 8 <= bytes.length;) {
      const length = (bytes[at] << 24 | bytes[at + 1] << 16 | bytes[at + 2] << 8 | bytes[at + 3]) >>> 0;
      const kind = String.fromCharCode(...bytes.slice(at + 4, at + 8));
      if (kind === 'tEXt') {
        const text = String.fromCharCode(...bytes.slice(at + 8, at + 8 + length)).split('\\0');
        if (text[0] === 'dpteach:text-px') found = parseFloat(text[1]);
      }
      if (kind === 'IDAT' || kind === 'IEND') break;
      at += 12 + length;
    }
    return textPx[src] = found;
  }
  const TEXT = 'p, li, h1, h2, h3, h4, td, th, pre, .widget-label, .widget-readout, .widget-html-content, ' +
               '.widget-button, .widget-toggle-button, .dpteach-dead-note';
  Reveal.slide(0, 0, -1);
  for (let step = 0; step < 2000; step++) {
    const slide = Reveal.getCurrentSlide(), where = Reveal.getIndices();
    const title = (slide.querySelector('h1, h2, h3') || {}).textContent || '';
    let smallest = 1e9, smallestWhat = '';
    const outside = [];
    for (const el of slide.querySelectorAll('*')) {
      if (el.closest('aside.notes') || el.closest('.MathJax_Preview') || el.closest('script') ||
          el.closest('.MJX_Assistive_MathML')) continue;      // (the formulas' MathML, for screen readers only)
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1) {
        outside.push(`${el.tagName}.${el.className} ${Math.round(r.top)}..${Math.round(r.bottom)} x ${Math.round(r.left)}..${Math.round(r.right)}`);
      }
      if (el.matches(TEXT) && el.textContent.trim()) {
        const px = parseFloat(getComputedStyle(el).fontSize) * scale;
        if (px < smallest) { smallest = px; smallestWhat = el.tagName + ': ' + el.textContent.trim().slice(0, 40); }
      }
    }
    const upper = [...slide.querySelectorAll('h1, h2, h3, h4')].filter(h => getComputedStyle(h).textTransform !== 'none')
                  .map(h => h.textContent.trim());
    // figures: the smallest text each is drawn with on the screen; controls whose label is cut
    const figures = [];
    for (const img of slide.querySelectorAll('img')) {
      const r = img.getBoundingClientRect();
      if (r.width < 50 || img.closest('aside.notes') || getComputedStyle(img).visibility === 'hidden') continue;
      const px = await pngTextPx(img.src);       // (object-fit: contain draws it at the smaller of the two scales)
      figures.push(px === null ? null : px * Math.min(r.width / img.naturalWidth, r.height / img.naturalHeight));
    }
    const cut = [...slide.querySelectorAll('.widget-label, .widget-readout, .widget-button, .widget-toggle-button')]
      .filter(e => e.getClientRects().length && e.textContent.trim() && e.scrollWidth > e.clientWidth + 1)
      .map(e => e.textContent.trim());
    states.push({h: where.h, f: where.f, title: title.trim(), smallest, smallestWhat, outside: outside.slice(0, 3),
                 upper, text: slide.innerText, figures, cut});
    if (Reveal.isLastSlide() && !Reveal.availableFragments().next) break;
    Reveal.next();
  }
  return {states, total: Reveal.getTotalSlides(), scale};
}"""


def _hidden_code(stem: str) -> list[str]:
    """A distinctive line of every code cell the slides hide (the book hides them, or they are long)."""
    nb = nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4)
    edition = slides.slide_edition(instructor_edition(nb, stem, PROJECT), live=False)
    lines = []
    for cell in edition.cells:
        if slides.hides_code(cell) and slides.role(cell) != "skip":
            longest = max(cell.source.splitlines(), key=len).strip()
            if len(longest) > 25:
                lines.append(longest)
    return lines


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Every chapter's deck, built as `make slides` builds it (its own process; the chapters executed afresh)."""
    work = tmp_path_factory.mktemp("slides")
    done = subprocess.run([sys.executable, "-m", "dpteach", "slides", "--offline", "--out", str(work / "slides"),
                           "--executed", str(work / "executed")], cwd=ROOT, capture_output=True, text=True, timeout=3600)
    assert done.returncode == 0, done.stderr[-3000:]
    pages = sorted((work / "slides").glob("*.slides.html"))
    return {page.name.removesuffix(".slides.html"): page for page in pages}, done.stdout + done.stderr


@pytest.fixture(scope="module")
def deck(built):
    return built[0]


def test_building_the_slides_prints_nothing_about_the_kernels_transport(built):
    """Executing the chapters starts kernels: over IPC, or at least without "running over TCP without
    encryption" printed once per chapter into the instructor's terminal."""
    _, printed = built
    assert "without encryption" not in printed, printed[-2000:]


def _open(browser, page_path, size):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, offline=True)
    page = context.new_page()
    log = {"outside": [], "failed": [], "errors": []}
    page.on("request", lambda r: None if r.url.startswith(LOCAL) else log["outside"].append(r.url))
    page.on("requestfailed", lambda r: log["failed"].append(f"{r.url} ({r.failure})"))
    page.on("pageerror", lambda e: log["errors"].append(str(e)))
    page.on("console", lambda m: log["errors"].append(f"console: {m.text}") if m.type == "error" else None)
    page.goto(page_path.as_uri(), wait_until="load")
    page.wait_for_selector(".reveal.ready", timeout=60_000)
    page.wait_for_function("() => window.MathJax && MathJax.isReady", timeout=60_000)
    page.evaluate("() => new Promise(done => MathJax.Hub.Queue(done))")
    views = page.locator("script[type='application/vnd.jupyter.widget-view+json']").count()
    if views:
        page.wait_for_function("n => document.querySelectorAll('.widget-subarea > .jupyter-widgets').length >= n",
                               arg=views, timeout=60_000)
    page.wait_for_function("() => [...document.images].every(i => i.complete)", timeout=30_000)
    return page, log


def _check_walk(page, stem, size, hidden):
    result = page.evaluate(WALK)        # (async: it reads the figures' bytes)
    states = result["states"]
    least = 24 * size[1] / 1080
    small = [(s["h"], s["title"][:40], round(s["smallest"], 1), s["smallestWhat"]) for s in states if s["smallest"] < least]
    outside = [(s["h"], s["f"], s["title"][:40], s["outside"]) for s in states if s["outside"]]
    upper = [s["upper"] for s in states if s["upper"]]
    shown = [line for line in hidden for s in states if line in s["text"]]
    visited = {s["h"] for s in states}
    assert visited == set(range(result["total"])), f"{stem}: slides {set(range(result['total'])) - visited} never reached"
    assert not small, f"{stem} at {size}: text under {least:.1f} px: {small[:4]}"
    assert not outside, f"{stem} at {size}: outside the screen: {outside[:3]}"
    assert not upper, f"{stem}: upper-cased headings {upper[:3]}"
    assert not shown, f"{stem}: code the slides hide is shown: {shown[:2]}"
    assert not [s["title"] for s in states if "Ε" in s["text"] or "ΔF" in s["text"]]
    # what the room sees: every slide named, a figure's note beside it, every label whole, figure text that reads
    problems = []
    untitled = [(s["h"], s["text"][:50]) for s in states if not s["title"]]
    if untitled:
        problems.append(f"slides without a heading: {untitled[:3]}")
    away = [(s["h"], s["title"][:40]) for s in states if "What to watch" in s["text"] and not s["figures"]]
    if away:
        problems.append(f"'What to watch' away from its figure: {away[:3]}")
    cut = [(s["h"], s["title"][:40], s["cut"][:3]) for s in states if s["cut"]]
    if cut:
        problems.append(f"controls whose label is cut: {cut[:3]}")
    if size == SIZES[0]:
        unknown = [(s["h"], s["title"][:40]) for s in states if None in s["figures"]]
        if unknown:
            problems.append(f"figures that do not say how small their text is: {unknown[:3]}")
        tiny = [(s["h"], s["title"][:40], round(min(x for x in s["figures"] if x is not None), 1)) for s in states
                if [x for x in s["figures"] if x is not None and x < 24]]
        if tiny:
            problems.append(f"figure text under 24 px at {size}: {tiny[:4]}")
    assert not problems, f"{stem}: " + "\n".join(problems)
    return states


@pytest.mark.parametrize("stem", CHAPTERS)
def test_every_slide_fits_and_reads_from_the_back(browser, deck, stem):
    hidden = _hidden_code(stem)
    page, log = _open(browser, deck[stem], SIZES[0])
    minimum = {}
    for size in SIZES:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.wait_for_function("w => Math.abs(Reveal.getScale() - w / 1920 * 0.98) < 0.02", arg=size[0], timeout=10_000)
        if size != SIZES[0] and stem not in WALKED_AT_BOTH_SIZES:
            # reveal.js lays every slide out at 1920×1080 and scales it: the scale is the whole difference
            minimum[size] = round(minimum[SIZES[0]] * page.evaluate("() => Reveal.getScale()") / 0.98, 1)
            continue
        states = _check_walk(page, stem, size, hidden)
        minimum[size] = min(s["smallest"] for s in states)
        figures = [px for s in states for px in s["figures"] if px is not None]
        if figures:
            minimum[f"figures {size[0]}x{size[1]}"] = round(min(figures), 1)
    page.evaluate("() => Reveal.slide(0)")
    page.wait_for_timeout(200)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"slides_{stem}_1280.png"))
    print(f"{stem}: {len(states)} states; smallest text {minimum}")
    assert not log["outside"], f"requests left file://: {log['outside'][:3]}"
    assert not log["failed"], f"failed requests: {log['failed'][:5]}"
    assert not log["errors"], log["errors"][:5]
    page.context.close()


def test_keys_figure_and_speaker_view_of_chapter_03(browser, deck):
    page, log = _open(browser, deck["03_laplace_mechanism"], SIZES[0])
    # → and Space both go forward, in reading order (linear navigation: no slide below another)
    assert page.evaluate("() => [...document.querySelectorAll('.reveal .slides > section')]"
                         ".every(s => s.querySelectorAll(':scope > section').length <= 1)")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => Reveal.getIndices().h === 1", timeout=5_000)
    page.keyboard.press("Space")
    page.wait_for_function("() => Reveal.getIndices().h === 2 || Reveal.getIndices().f >= 0", timeout=5_000)
    # the figure slide: the precomputed view, its slider and the whole figure on the screen, and it moves
    index = page.evaluate("() => Reveal.getSlides().findIndex(s => /The picture/.test(s.textContent) && "
                          "s.querySelector('.widget-slider'))")
    assert index >= 0, "no slide with the picture's slider"
    page.evaluate(f"() => Reveal.slide({index})")
    slide = page.locator(".reveal .slides section.present:not(.stack)")
    assert slide.locator(".dpteach-dead").count() == 0, "the precomputed view is live, not dead"
    handle = slide.locator(".noUi-handle").first
    figure = "s => [...s.querySelectorAll('img')].find(i => i.offsetParent !== null)"
    before = slide.evaluate(f"s => ({figure})(s).src")
    for box in (handle.bounding_box(), slide.evaluate(f"s => ({figure})(s).getBoundingClientRect().toJSON()")):
        assert box["y"] >= 0 and box["y"] + box["height"] <= SIZES[0][1] + 1, box
    # dragged with the mouse, as on a live slide (on a slide the arrow keys change slides)
    box, track = handle.bounding_box(), slide.locator(".noUi-base").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(track["x"] + 0.9 * track["width"], box["y"] + box["height"] / 2, steps=8)
    page.mouse.up()
    assert page.evaluate("() => Reveal.getIndices().h") == index, "dragging the slider changed the slide"
    page.wait_for_function(f"([s, src]) => ({figure})(s).src !== src", arg=[slide.element_handle(), before],
                           timeout=10_000)
    # an arrow key on the focused slider moves the slider and its figure, and leaves the show where it is
    readout = slide.locator(".widget-readout").first
    shown, before = readout.inner_text(), slide.evaluate(f"s => ({figure})(s).src")
    handle.focus()
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("([r, t]) => r.textContent.trim() !== t", arg=[readout.element_handle(), shown.strip()],
                           timeout=5_000)
    assert page.evaluate("() => Reveal.getIndices().h") == index, "an arrow key on the slider changed the slide"
    page.wait_for_function(f"([s, src]) => ({figure})(s).src !== src", arg=[slide.element_handle(), before],
                           timeout=10_000)
    page.screenshot(path=str(ARTIFACTS / "slides_03_figure_1920.png"))
    # the speaker view: this slide's notes, the next slide, a timer; it follows the show
    noted = page.evaluate("() => Reveal.getSlides().findIndex(s => [...s.querySelectorAll('aside.notes')]"
                          ".some(a => a.textContent.includes('Speaker notes')))")
    page.evaluate(f"() => Reveal.slide({noted})")
    assert "Speaker notes" in page.evaluate("() => Reveal.getSlideNotes()")
    index = noted
    with page.expect_popup() as popup:
        page.keyboard.press("s")
    speaker = popup.value
    speaker.wait_for_function("() => document.querySelector('.speaker-controls-notes .value')?.textContent.includes('Speaker notes')",
                              timeout=30_000)
    assert speaker.locator("#upcoming-slide iframe, .speaker-controls-upcoming iframe, iframe").count() >= 2
    assert re.search(r"\d+:\d\d:\d\d", speaker.locator(".speaker-controls-time .timer").first.inner_text())
    first = speaker.locator(".speaker-controls-notes .value").inner_text()
    page.bring_to_front()
    page.keyboard.press("ArrowRight")
    speaker.wait_for_function("t => document.querySelector('.speaker-controls-notes .value').innerText !== t",
                              arg=first, timeout=15_000)
    speaker.screenshot(path=str(ARTIFACTS / "slides_03_speaker_view.png"))
    assert page.evaluate("() => Reveal.getIndices().h") >= index
    assert not log["failed"] and not log["outside"], log
    page.context.close()


#: Every slide and fragment shown at once (reveal.js hides all but the current one), for one run of axe.
SHOW_ALL = """.reveal .slides section { display: block !important; position: relative !important; opacity: 1 !important;
  visibility: visible !important; transform: none !important; top: auto !important; }
.reveal .slides .fragment { opacity: 1 !important; visibility: visible !important; }"""
AXE_WCAG21 = ("async () => (await axe.run(document, {preload: false, runOnly: {type: 'tag', values: "
              "['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})).violations.map(v => ({id: v.id, impact: v.impact, "
              "nodes: v.nodes.length, first: v.nodes[0].target.join(' ')}))")


@pytest.mark.parametrize("stem", CHAPTERS)
def test_every_deck_is_accessible(browser, deck, stem):
    """axe-core finds no WCAG 2.1 A/AA violation in the deck (every slide shown); every image has a text
    alternative; formulas carry assistive MathML for screen readers; links are underlined and open a deck in the
    browser, never a notebook."""
    page, log = _open(browser, deck[stem], SIZES[0])
    page.wait_for_function("() => [...document.images].every(i => (i.getAttribute('alt') || '').trim())", timeout=10_000)
    formulas = page.locator("span.MathJax").count()        # (one per formula, inline or displayed)
    mathml = page.locator("span.MathJax .MJX_Assistive_MathML math").count()
    assert mathml >= formulas > 0 or formulas == 0, f"{formulas} formulas, {mathml} with assistive MathML"
    page.add_style_tag(content=SHOW_ALL)
    links = page.eval_on_selector_all(".reveal .slides a[href]", "els => els.map(a => [a.getAttribute('href'), "
                                      "getComputedStyle(a).textDecorationLine, a.textContent.trim()])")
    notebooks = [href for href, _, _ in links if re.search(r"\.ipynb\b", href)]
    plain = [(href, text) for href, line, text in links if "underline" not in line]
    page.add_script_tag(content=axe_source())
    violations = page.evaluate(AXE_WCAG21)
    assert not violations, f"{stem}: {violations}"
    assert not notebooks, f"{stem}: links to notebooks: {notebooks[:3]}"
    assert not plain, f"{stem}: links told from the text by colour alone: {plain[:3]}"
    assert not log["outside"] and not log["failed"] and not log["errors"], log
    page.context.close()
