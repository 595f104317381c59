"""The documentation as a site (``python -m dpteach.publish docs``, ``make docs``): built once like the book, offline.

Every page the index reaches is in the folder, and every link between pages resolves (the page exists, and so
does the heading a fragment names); the site asks nothing of the network. In headless Chromium, each page opened
from file:// with the network cut: no failed or outside request and no console error, no violation of axe-core's
WCAG 2.1 A and AA rules (none of any impact), and at 320 CSS px the page does not scroll sideways (WCAG 1.4.10).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from helpers import ARTIFACTS, ROOT, axe_source, needs_chromium
from test_browser_book import _open, _settle

from dpteach.publish.docs_site import build_docs
from dpteach.publish.paths import Project

# the slow tier (make test-slow, make check): a build, then a browser
pytestmark = [pytest.mark.slow, pytest.mark.once]

#: axe-core's rules for WCAG 2.0 and 2.1, levels A and AA
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> tuple[Path, list[Path]]:
    out = tmp_path_factory.mktemp("docs") / "docs"
    return out, build_docs(Project(ROOT), out)


def _ids(page: Path) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', page.read_text(encoding="utf-8")))


def test_every_page_is_built_and_every_link_between_pages_resolves(site):
    out, built = site
    assert built[0] == out / "index.html" and len(built) >= 12
    assert all(page.is_file() for page in built), [p for p in built if not p.is_file()]
    checked, broken = 0, []
    for page in sorted(out.rglob("*.html")):
        if page.name in ("search.html", "genindex.html"):
            continue
        for href in re.findall(r'<a [^>]*href="([^"]+)"', page.read_text(encoding="utf-8")):
            url = urlsplit(html.unescape(href))
            if url.scheme or href.startswith(("//", "mailto:", "javascript:")):
                continue
            target = page if not url.path else (page.parent / unquote(url.path)).resolve()
            checked += 1
            if not target.is_file():
                broken.append(f"{page.relative_to(out)} → {href} (no such file)")
            elif url.fragment and unquote(url.fragment) not in _ids(target):
                broken.append(f"{page.relative_to(out)} → {href} (no such heading)")
    assert checked > 100, checked
    assert not broken, broken[:10]


def test_the_site_asks_nothing_of_the_network(site):
    out, built = site
    for page in built:
        for url in re.findall(r"<(?:script|link|img)[^>]+(?:src|href)=\"([^\"]+)\"", page.read_text(encoding="utf-8")):
            assert not url.startswith(("http:", "https:", "//")), (page.name, url)


def _axe(page) -> list[dict]:
    page.add_script_tag(content=axe_source())
    return page.evaluate("async tags => (await axe.run(document, {preload: false, runOnly: {type: 'tag', values: tags}}))"
                         ".violations.map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length, "
                         "target: v.nodes[0].target}))", WCAG)


@pytest.fixture(scope="module")
def visits(browser, site) -> dict[str, dict]:
    """Each page opened once from file:// with the network cut, at desktop width: what its log kept (outside and
    failed requests, console errors) and axe's WCAG A and AA violations; then at 320 CSS px: its scroll width."""
    out, built = site
    found = {}
    for path in built:
        page, log = _open(browser, path.as_uri())
        _settle(page)
        seen = {key: log[key][:3] for key in ("outside", "failed", "errors") if log[key]}
        violations = _axe(page)
        if violations:
            seen["axe"] = violations
        if path == out / "index.html":
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "docs_index.png"))
        page.set_viewport_size({"width": 320, "height": 640})
        page.wait_for_timeout(100)
        seen["width at 320 px"] = page.evaluate("() => [document.scrollingElement.scrollWidth, innerWidth]")
        if path.name == "peers.html":
            page.screenshot(path=str(ARTIFACTS / "docs_peers_320px.png"))
        found[path.relative_to(out).as_posix()] = seen
        page.context.close()
    return found


@needs_chromium
def test_every_page_is_accessible_offline(visits):
    problems = {name: {k: v for k, v in seen.items() if k != "width at 320 px"} for name, seen in visits.items()}
    problems = {name: seen for name, seen in problems.items() if seen}
    assert len(visits) >= 12 and not problems, json.dumps(problems, ensure_ascii=False)[:3000]


@needs_chromium
def test_every_page_reflows_at_320_px(visits):
    """WCAG 1.4.10: at 320 CSS px no page scrolls sideways (a wide table or code block scrolls in its own box)."""
    wide = {name: seen["width at 320 px"] for name, seen in visits.items()
            if seen["width at 320 px"][0] > seen["width at 320 px"][1]}
    assert len(visits) >= 12 and not wide, f"pages that scroll sideways at 320 px ([scroll width, window]): {wide}"
