"""The reader's book (Sphinx + myst-nb + sphinx-book-theme), checked without a browser.

One offline build of the student edition is shared by this file and the browser tests
(``built_book``); the instructor edition is built once more, online and with a hub link.
"""

import html
import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from helpers import ROOT, make

from dpteach.book import chapters
from dpteach.publish.book_site import _figure_alt, book_sources, build_html
from dpteach.publish.paths import Project

# the slow tier (make test-slow, make check): builds the whole book three times
pytestmark = pytest.mark.slow

PROJECT = Project(ROOT)
PAGES = [c.path.stem + ".html" for c in chapters(ROOT / "notebooks")]
REPO, HUB = "someone/dpteach", "https://hub.example.edu"
_BUILT: dict[str, Path] = {}


def built_book(tmp_path_factory, edition: str) -> Path:
    """The book, built once per test session from the committed (executed, nbval-checked) notebooks.

    "student": offline, with a Binder link; "instructor": online (CDN scripts), Binder and hub links;
    "default": as `make html` builds it with no option."""
    if edition not in _BUILT:
        out = tmp_path_factory.mktemp(f"book-{edition}") / "html"
        if edition == "student":
            build_html(PROJECT, out, offline=True, executed=ROOT / "notebooks", repo=REPO)
        elif edition == "default":
            build_html(PROJECT, out, executed=ROOT / "notebooks")
        else:
            build_html(PROJECT, out, offline=False, instructor=True, executed=ROOT / "notebooks", repo=REPO, hub=HUB)
        _BUILT[edition] = out
    return _BUILT[edition]


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    return built_book(tmp_path_factory, "student")


@pytest.fixture(scope="module")
def instructor(tmp_path_factory):
    return built_book(tmp_path_factory, "instructor")


def _links(page: Path) -> list[str]:
    return re.findall(r"href=\"([^\"]+)\"", page.read_text())


def test_every_chapter_is_a_page_in_the_sidebar_of_every_page(book):
    for name in ["index.html", *PAGES]:
        text = (book / name).read_text()
        sidebar = text.split('class="bd-sidebar-primary', 1)[1].split("</nav>", 1)[0]
        listed = re.findall(r"href=\"(\d\d_[a-z0-9_]+\.html)\"", sidebar)
        assert listed == [p for p in PAGES if p != name], name     # the current page links to itself as "#"


def test_pages_link_to_previous_and_next(book):
    for i, name in enumerate(PAGES):
        links = set(_links(book / name))
        assert "index.html" in links or i > 0
        if i > 0:
            assert PAGES[i - 1] in links
        if i + 1 < len(PAGES):
            assert PAGES[i + 1] in links
        assert not any(re.match(r"\d\d_[a-z0-9_]+\.ipynb", h) for h in links), "links must point at pages"


def test_every_page_has_binder_and_download_links_that_resolve(book):
    for name in PAGES:
        stem = name.removesuffix(".html")
        links = _links(book / name)
        assert f"https://mybinder.org/v2/gh/{REPO}/HEAD?urlpath=lab/tree/notebooks/{stem}.ipynb" in links
        assert not any("git-pull" in h for h in links), "no hub link without HUB"
        for ext in (".ipynb", ".md"):
            assert f"downloads/{stem}{ext}" in links
            assert (book / "downloads" / f"{stem}{ext}").is_file()
    nb = json.loads((book / "downloads" / "03_laplace_mechanism.ipynb").read_text())
    assert any(c.get("outputs") for c in nb["cells"]), "the downloaded notebook keeps its outputs"


def test_binder_link_is_the_one_make_binder_url_prints(book):
    printed = make("binder-url", f"REPO={REPO}", check=True).stdout.strip()
    assert printed in _links(book / "00_start_here.html")


def test_hub_link_is_the_one_make_nbgitpuller_url_prints(instructor):
    printed = make("nbgitpuller-url", f"HUB={HUB}", f"REPO=https://github.com/{REPO}", check=True).stdout.strip()
    assert printed in _links(instructor / "00_start_here.html")
    link = next(h for h in _links(instructor / "05_accuracy_census_names.html") if "git-pull" in h)
    query = parse_qs(urlparse(link.replace("&amp;", "&")).query)
    assert query["urlpath"] == ["lab/tree/dpteach/notebooks/05_accuracy_census_names.ipynb"]


def test_no_launch_links_when_no_repository_is_given(tmp_path_factory):
    out = built_book(tmp_path_factory, "default")
    links = _links(out / "03_laplace_mechanism.html")
    assert not any("mybinder" in h or "git-pull" in h for h in links)
    assert "downloads/03_laplace_mechanism.ipynb" in links


def test_the_common_mistakes_page_is_in_the_book_and_every_link_reaches_its_section(book):
    """Issue 44: the self-study book's "Common mistakes" page, in every page's sidebar; each of its links to a
    section lands on a heading of that chapter's page (an id the page has, on a heading)."""
    from dpteach.exercises import CLAIMS, MISTAKES
    page = (book / "common_mistakes.html").read_text()
    for name in ["index.html", *PAGES]:
        assert 'href="common_mistakes.html"' in (book / name).read_text(), name
    links = re.findall(r'href="(\d\d_[a-z0-9_]+\.html)#([^"]+)"', page)
    assert len(links) == len(MISTAKES) + len(CLAIMS)
    for target, anchor in set(links):
        text = (book / target).read_text()
        assert re.search(rf'<section id="{re.escape(anchor)}"', text), (target, anchor)
    for name in MISTAKES:
        assert f"<strong>{name}.</strong>" in html.unescape(page).replace("\u2019", "'"), name     # Sphinx's smart quotes


def test_report_an_error_is_on_every_page_with_a_github_repository_and_on_none_without(book, tmp_path_factory):
    for name in ["index.html", "common_mistakes.html", *PAGES]:
        links = [h.replace("&amp;", "&") for h in _links(book / name) if "/issues/new?" in h]
        assert len(links) == 1 and links[0].startswith(f"https://github.com/{REPO}/issues/new?title="), name
        title = parse_qs(urlparse(links[0]).query)["title"][0]
        page_title = re.search(r"<title>(.*?)( &#8212;.*)?</title>", (book / name).read_text()).group(1)
        assert title == f"Error on the page “{page_title}”", name
    for name in ["index.html", "common_mistakes.html", "03_laplace_mechanism.html"]:
        assert "/issues/new" not in (built_book(tmp_path_factory, "default") / name).read_text(), name


def test_offline_book_asks_nothing_of_the_network(book):
    """Scripts, styles and fonts come from _static/, not from a CDN (the browser test checks the requests)."""
    for page in book.glob("*.html"):
        text = page.read_text()
        for url in re.findall(r"<(?:script|link)[^>]+(?:src|href)=\"([^\"]+)\"", text):
            assert not url.startswith(("http:", "https:", "//")), (page.name, url)
    for asset in ("mathjax/MathJax.js", "require.js", "html-manager/embed-amd.js"):
        assert (book / "_static" / asset).exists()


def test_solutions_are_folded_for_students_and_open_for_instructors(book, instructor):
    """Each solution (a Markdown cell tagged solution) is a <details> holding highlighted Python: folded
    under "Show the solution" for students, open in the instructor edition."""
    import nbformat
    stored = nbformat.read(ROOT / "notebooks" / "03_laplace_mechanism.ipynb", as_version=4)
    count = sum("solution" in c.metadata.get("tags", []) for c in stored.cells)
    solution = r"<details( open)?><summary>([^<]*)</summary>\s*<div class=\"highlight-python"
    student = re.findall(solution, (book / "03_laplace_mechanism.html").read_text())
    assert len(student) == count >= 2 and set(student) == {("", "Show the solution")}
    teacher = re.findall(solution, (instructor / "03_laplace_mechanism.html").read_text())
    assert len(teacher) == count and all(shown == " open" for shown, _ in teacher)
    assert "Instructor edition" in (instructor / "03_laplace_mechanism.html").read_text()


def test_speaker_notes_are_for_the_instructor_edition_only(book, instructor):
    """The notes (instructor/NN_name.md) never reach the students' book; the instructor edition has them."""
    for name in PAGES:
        assert "Speaker notes" not in (book / name).read_text(), name
    assert "Speaker notes" in (instructor / "03_laplace_mechanism.html").read_text()


def test_every_figure_has_a_text_alternative(book):
    """Inline figures get alt at build time; each widget image's description travels in its view."""
    for name in PAGES:
        text = (book / name).read_text()
        for img in re.findall(r"<img [^>]*src=\"_images/[^>]*>", text):
            alt = re.search(r"alt=\"([^\"]*)\"", img).group(1)
            assert alt and not alt.startswith("_images") and not alt.endswith(".png"), (name, img)
        for view in re.findall(r"<script type=\"application/vnd.jupyter.widget-view\+json\">(.*?)</script>", text):
            data = json.loads(view)
            assert data.get("dpteach_alt") and all(a.strip() for a in data["dpteach_alt"]), (name, data)


def test_widget_alts_describe_precomputed_frames():
    """Each frame of a precomputed view is described: by the figure's own text for that frame (the ``alts`` of
    the anywidget in its view) when the saved state has them, else by the slider value it was drawn at."""
    import nbformat
    stored = nbformat.read(ROOT / "notebooks" / "03_laplace_mechanism.ipynb", as_version=4)
    state = stored.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    written = [m["state"]["alts"] for m in state.values() if m["model_name"] == "AnyModel" and m["state"].get("alts")]
    nb = book_sources(stored)
    views = [o["data"]["application/vnd.jupyter.widget-view+json"] for c in nb.cells for o in c.get("outputs", [])
             if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    frames = next(v["dpteach_frames"] for v in views if "dpteach_frames" in v)
    assert len(frames["alts"]) == len(frames["labels"]) > 1
    if any(alts == frames["alts"] for alts in written):
        return
    for i, (label, alt) in enumerate(zip(frames["labels"], frames["alts"])):
        assert f"frame {i + 1} of {len(frames['alts'])}" in alt and alt.endswith(f"= {label}")


def test_search_index_holds_the_sections(book):
    index = (book / "searchindex.js").read_text()
    data = json.loads(index[index.index("(") + 1:index.rindex(")")])
    titles = {t for page_titles in data["alltitles"] for t in [page_titles]}
    assert any("Theorem 3.8" in t for t in titles)
    assert "laplac" in data["terms"]


def test_a_figure_describes_itself_to_the_book():
    """A figure's PNG carries its alt text (titles and axes) as display metadata; the book uses it."""
    import numpy as np
    from IPython.core.formatters import DisplayFormatter

    from dpteach import plots
    fig = plots.TailFigure(np.random.default_rng(1).laplace(size=200), 1.0)
    ax = fig.fig.axes[0]
    data, metadata = DisplayFormatter().format(fig)
    alt = metadata["image/png"]["alt"]
    assert alt == fig.alt_text() and ax.get_title() in alt and ax.get_xlabel().strip() in alt
    output = {"data": {"image/png": "", "text/plain": repr(fig)}, "metadata": metadata}
    assert _figure_alt(output, "a section") == alt
    del output["metadata"]
    assert _figure_alt(output, "a section") == f"Figure: {ax.get_title()}"     # from the repr, as stored
