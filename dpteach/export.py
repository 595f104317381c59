"""Build the workbook for readers (HTML book) and instructors (reveal.js slides).

    python -m dpteach.export html   [--offline] [--instructor] [--out build/html]
    python -m dpteach.export slides [--offline] [--out build/slides]

``make html`` / ``make slides`` call these. Each chapter is executed headless first (a fresh
kernel, widget state saved), so every figure, including those inside sliders, is in the
page as a still image, and every formula is typeset by MathJax. ``--offline`` copies MathJax
(from the PyPI package jupyter-server-mathjax), require.js, the widget renderer
(@jupyter-widgets/html-manager) and reveal.js (both from the npm registry, fetched with
``npm pack``) next to the pages, so the folder works with no network at all.

This module is a build tool: ``import dpteach`` does not import it.
"""

from __future__ import annotations

import argparse
import copy
import html
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from .book import Chapter, chapters

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
TEMPLATES = Path(__file__).resolve().parent / "templates"
#: Our templates (dpteach_html, dpteach_slides) and the pieces they share (dpteach_common/).
_TEMPLATE_DIRS = {"extra_template_basedirs": [str(TEMPLATES)], "extra_template_paths": [str(TEMPLATES)]}

#: npm packages for offline pages: (name, version, {path in package: path in the book's assets/}).
NPM_ASSETS = [
    ("requirejs", "2.3.8", {"require.js": "require.js"}),
    ("@jupyter-widgets/html-manager", "1.0.15", {"dist": "html-manager"}),
]
REVEAL = ("reveal.js", "4.6.1", {"dist": "reveal.js/dist", "plugin": "reveal.js/plugin"})
JQUERY = ("jquery", "3.7.1", {"dist/jquery.min.js": "jquery.min.js"})


# -- executing ---------------------------------------------------------------------------

def execute(chapter: Chapter, out_dir: Path, timeout: int = 600):
    """Run a chapter top to bottom in a fresh kernel (cwd = notebooks/), widget state saved."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(chapter.path, as_version=4)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", record_timing=False,
                            store_widget_state=True, resources={"metadata": {"path": str(chapter.path.parent)}})
    client.execute()
    out_dir.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, out_dir / chapter.path.name)
    return nb


# -- offline assets ----------------------------------------------------------------------

def _npm_pack(name: str, version: str, cache: Path) -> Path:
    """The package tarball from the npm registry (via npm itself), cached in ``cache``."""
    cache.mkdir(parents=True, exist_ok=True)
    stem = name.lstrip("@").replace("/", "-")
    tgz = cache / f"{stem}-{version}.tgz"
    if not tgz.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("offline builds need npm (Debian: apt-get install -y npm) to fetch "
                               f"{name}@{version} from the npm registry")
        subprocess.run([npm, "pack", "--silent", f"{name}@{version}", "--pack-destination", str(cache)],
                       check=True, capture_output=True)
    return tgz


def _extract(tgz: Path, mapping: dict[str, str], dest: Path) -> None:
    with tarfile.open(tgz) as tar:
        for member in tar.getmembers():
            if not member.isfile() or member.name.endswith(".map"):
                continue
            inner = member.name.split("/", 1)[1]          # drop the leading "package/"
            for src, target in mapping.items():
                if inner == src or inner.startswith(src + "/"):
                    path = dest / target / inner[len(src):].lstrip("/") if inner != src else dest / target
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(tar.extractfile(member).read())


def copy_offline_assets(dest: Path, cache: Path, reveal: bool = False) -> dict[str, str]:
    """Put MathJax, require.js and the widget renderer (and reveal.js) under ``dest``/assets.

    Returns the nbconvert settings that point the pages at them (relative URLs).
    """
    import jupyter_server_mathjax

    assets = dest / "assets"
    mathjax = Path(jupyter_server_mathjax.__file__).parent / "static"
    if not (assets / "mathjax" / "MathJax.js").exists():
        shutil.copytree(mathjax, assets / "mathjax", dirs_exist_ok=True)
    for name, version, mapping in NPM_ASSETS + ([REVEAL, JQUERY] if reveal else []):
        _extract(_npm_pack(name, version, cache), mapping, assets)
    settings = {
        "mathjax_url": "assets/mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full,Safe",
        "require_js_url": "assets/require.js",
        "widget_renderer_url": "assets/html-manager/embed-amd.js",
    }
    if reveal:
        settings["reveal_url_prefix"] = "assets/reveal.js"
        settings["jquery_url"] = "assets/jquery.min.js"
    return settings


# -- HTML book ---------------------------------------------------------------------------

def _nav(items: list[Chapter], i: int, suffix: str = ".html") -> str:
    prev_link = (f"<a href='{items[i - 1].path.stem}{suffix}'>← {items[i - 1].number} "
                 f"{html.escape(items[i - 1].title)}</a>") if i > 0 else "<span></span>"
    next_link = (f"<a href='{items[i + 1].path.stem}{suffix}'>{items[i + 1].number} "
                 f"{html.escape(items[i + 1].title)} →</a>") if i + 1 < len(items) else "<span></span>"
    return (f"<nav class='dpteach-nav'>{prev_link}<a href='index.html'>Contents</a>{next_link}</nav>")


def _link_pages(source: str) -> str:
    """Links between chapters point at the exported pages, not at the notebooks."""
    return re.sub(r"(\d\d_[a-z0-9_]+)\.ipynb", r"\1.html", source)


def build_html(out: Path, offline: bool = False, instructor: bool = False,
               executed: Path | None = None) -> list[Path]:
    """Execute every chapter and write one HTML page each, an index and the assets."""
    import nbformat
    from nbconvert import HTMLExporter

    items = chapters(NOTEBOOKS)
    out.mkdir(parents=True, exist_ok=True)
    executed = executed or out.parent / "executed"
    settings = copy_offline_assets(out, out.parent / "npm-cache") if offline else {}
    exporter = HTMLExporter(template_name="dpteach_html", **_TEMPLATE_DIRS,
                            embed_images=True, **settings)
    pages = []
    for i, chapter in enumerate(items):
        path = executed / chapter.path.name
        nb = nbformat.read(path, as_version=4) if path.exists() else execute(chapter, executed)
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                cell.source = _link_pages(cell.source)
            for output in cell.get("outputs", []):
                if "text/html" in output.get("data", {}):
                    output["data"]["text/html"] = _link_pages(output["data"]["text/html"])
        resources = {"dpteach_nav": _nav(items, i), "dpteach_show_solutions": instructor, "dpteach_offline": offline,
                     "metadata": {"name": f"{chapter.number} · {chapter.title}"}}
        if instructor:
            resources["dpteach_banner"] = "Instructor edition: every solution is shown open."
        body, _ = exporter.from_notebook_node(nb, resources=resources)
        page = out / f"{chapter.path.stem}.html"
        page.write_text(body, encoding="utf-8")
        pages.append(page)
    (out / "index.html").write_text(_index(items, instructor), encoding="utf-8")
    return [out / "index.html", *pages]


def _index(items: list[Chapter], instructor: bool) -> str:
    rows = "\n".join(
        f"<li><a href='{c.path.stem}.html'><b>{c.number}</b> {html.escape(c.title)}</a>"
        f"<p>{html.escape(c.summary)}</p></li>" for c in items)
    edition = " (instructor edition: solutions shown)" if instructor else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>dpteach: the Laplace mechanism, a workbook</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
 body {{ font: 17px/1.5 system-ui, sans-serif; max-width: 52em; margin: 2em auto; padding: 0 1em; color: #222; }}
 h1 {{ font-size: 1.8em; }} li {{ margin: 0.8em 0; list-style: none; }} ul {{ padding: 0; }}
 a {{ color: #0072B2; text-decoration: none; font-size: 1.1em; }} a:hover {{ text-decoration: underline; }}
 p {{ margin: 0.2em 0 0 0; color: #444; }}
</style></head>
<body><h1>The Laplace mechanism: an interactive workbook{edition}</h1>
<p>Differential privacy from Dwork &amp; Roth, <i>The Algorithmic Foundations of Differential Privacy</i>,
chapter 3. These pages were executed when they were built: figures and formulas are all here, and the
interactive figures show the state they were saved in (precomputed views still move). To move every
slider and run the code, open the notebooks in JupyterLab (<code>make lab</code>).</p>
<ul>
{rows}
</ul></body></html>
"""


# -- slides ------------------------------------------------------------------------------

_HEADING = re.compile(r"^(#{1,3}) ")
_FRAGMENT_LEADS = ("**Step", "**Proof", "**By symmetry", "**Theorem", "**Definition", "**Fact", "**Claim")
_SKIPPED_SECTIONS = ("## Exercises", "## Prerequisites")
LONG_CODE = 12


def _split_at_headings(nb):
    """One markdown cell per heading: a cell that holds two sections becomes two slides."""
    import nbformat

    cells = []
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            cells.append(cell)
            continue
        parts = re.split(r"(?m)^(?=#{1,3} )", cell.source)
        for part in (p.strip("\n") for p in parts):
            if part:
                cells.append(nbformat.v4.new_markdown_cell(part, metadata=copy.deepcopy(cell.metadata)))
    nb.cells = cells
    return nb


def slide_markup(nb):
    """Give every cell a reveal.js role, unless the chapter already chose one in its metadata.

    # and ## headings open a slide, ### a sub-slide; proof steps and the statements of
    definitions and theorems come in as fragments, each with the code that checks it;
    exercises, solutions and prerequisites are skipped; long code shows only its output.
    """
    nb = _split_at_headings(copy.deepcopy(nb))
    skipping, previous_fragment = False, False
    for cell in nb.cells:
        source = cell.source.lstrip()
        heading = _HEADING.match(source)
        if cell.cell_type == "markdown" and heading and len(heading.group(1)) <= 2:
            skipping = source.startswith(_SKIPPED_SECTIONS)
        role = "-"
        if skipping or "solution" in cell.metadata.get("tags", []):
            role = "skip"
        elif cell.cell_type == "markdown" and heading:
            role = "subslide" if len(heading.group(1)) == 3 else "slide"
        elif cell.cell_type == "markdown" and source.startswith(_FRAGMENT_LEADS):
            role = "fragment"
        elif cell.cell_type == "code" and previous_fragment:
            role = "fragment"
        if cell.cell_type == "code" and len(cell.source.splitlines()) > LONG_CODE:
            cell.metadata.setdefault("tags", []).append("remove_input")
        previous_fragment = role == "fragment" and cell.cell_type == "markdown"
        cell.metadata.setdefault("slideshow", {}).setdefault("slide_type", role)
    return nb


def build_slides(out: Path, offline: bool = False, executed: Path | None = None) -> list[Path]:
    import nbformat
    from nbconvert import SlidesExporter
    from traitlets.config import Config

    items = chapters(NOTEBOOKS)
    out.mkdir(parents=True, exist_ok=True)
    executed = executed or out.parent / "executed"
    settings = copy_offline_assets(out, out.parent / "npm-cache", reveal=True) if offline else {}
    config = Config()
    config.TagRemovePreprocessor.enabled = True
    config.TagRemovePreprocessor.remove_input_tags = {"remove_input"}
    exporter = SlidesExporter(config=config, template_name="dpteach_slides", **_TEMPLATE_DIRS,
                              embed_images=True, reveal_scroll=True, reveal_theme="white", **settings)
    pages = []
    for chapter in items:
        path = executed / chapter.path.name
        nb = nbformat.read(path, as_version=4) if path.exists() else execute(chapter, executed)
        body, _ = exporter.from_notebook_node(slide_markup(nb), resources={
            "metadata": {"name": f"{chapter.number} · {chapter.title}"}, "dpteach_offline": offline})
        page = out / f"{chapter.path.stem}.slides.html"
        page.write_text(body, encoding="utf-8")
        pages.append(page)
    return pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dpteach.export", description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["html", "slides", "execute"])
    parser.add_argument("--out", type=Path, help="output folder (default build/html or build/slides)")
    parser.add_argument("--offline", action="store_true", help="copy MathJax, require.js, widgets, reveal.js in")
    parser.add_argument("--instructor", action="store_true", help="HTML with every solution shown")
    parser.add_argument("--executed", type=Path, default=ROOT / "build" / "executed",
                        help="folder of executed notebooks to reuse (default build/executed)")
    args = parser.parse_args(argv)
    if args.what == "execute":
        shutil.rmtree(args.executed, ignore_errors=True)
        for chapter in chapters(NOTEBOOKS):
            execute(chapter, args.executed)
            print(f"executed {chapter.path.name}")
        return 0
    if args.what == "html":
        out = args.out or ROOT / "build" / ("html-instructor" if args.instructor else "html")
        pages = build_html(out, offline=args.offline, instructor=args.instructor, executed=args.executed)
    else:
        pages = build_slides(args.out or ROOT / "build" / "slides", offline=args.offline, executed=args.executed)
    for page in pages:
        print(f"{page}  {page.stat().st_size / 1024:,.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
