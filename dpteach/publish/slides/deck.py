"""The static deck: reveal.js slides per chapter (``make slides``), through nbconvert.

    python -m dpteach.publish slides [--online]     # build/slides/NN_name.slides.html

Each chapter is executed with its figures drawn for a projector (DPTEACH_PRESENTATION=1, into
``build/executed-slides``), made into its instructor edition (speaker notes in) and then its slide
edition (:func:`~.edition.slide_edition`, ``live=False``), and exported with the ``dpteach_slides``
template. Offline by default: reveal.js, MathJax and the widget renderer are copied beside the decks.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..assets import MATHJAX_TEX_FONTS, copy_offline_assets, extract, npm_pack
from ..book_site import describe_figures, instructor_edition
from ..execute import execute
from ..paths import TEMPLATE_DIRS, Project
from .edition import slide_edition
from .marking import unmarked

_NOTEBOOK_LINK = re.compile(r"(?<![\w/.])(\d\d_[a-z0-9_]+)\.ipynb(?:#[^)\s\"'>]*)?")


def link_decks(nb):
    """Links to a chapter's notebook, in the prose and in HTML outputs, point at its deck beside this one
    (``NN_name.slides.html``), which a browser opens (a link to the notebook showed its JSON, or downloaded it). The
    notebook's anchor is left out (a deck's slides go by number). Returns ``nb``, changed in place."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = _NOTEBOOK_LINK.sub(r"\1.slides.html", cell.source)
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            data = output.get("data", {})
            if "text/html" in data:
                text = "".join(data["text/html"]) if isinstance(data["text/html"], list) else data["text/html"]
                data["text/html"] = _NOTEBOOK_LINK.sub(r"\1.slides.html", text)
    return nb


def build_slides(project: Project, out: Path | None = None, *, offline: bool = True,
                 executed: Path | None = None, only: list[str] | None = None) -> list[Path]:
    """reveal.js slides of every chapter of ``project`` into ``out`` (default ``build/slides``), from the
    marks stored in it and the instructor's speaker notes, made for a room by :func:`slide_edition`
    (``only``: the chapters whose file name starts with one of these, e.g. ``["03"]``).

    Chapters come from ``executed`` (default ``build/executed-slides``); the missing ones, and those older than
    their chapter, are executed into it first, their figures projector-sized. ``offline=False`` leaves
    reveal.js, MathJax and the widget renderer on CDNs."""
    import nbformat
    from nbconvert import SlidesExporter
    from traitlets.config import Config

    out = Path(out) if out is not None else project.build / "slides"
    executed = Path(executed) if executed is not None else project.build / "executed-slides"
    out.mkdir(parents=True, exist_ok=True)
    settings = copy_offline_assets(out, project.npm_cache, reveal=True) if offline else {}
    if offline:     # MathJax's TeX fonts: a few symbols ask for them (the PyPI copy has STIX-Web only)
        extract(npm_pack(*MATHJAX_TEX_FONTS[:2], project.npm_cache), MATHJAX_TEX_FONTS[2], out / "assets")
    config = Config()
    config.TagRemovePreprocessor.enabled = True
    config.TagRemovePreprocessor.remove_input_tags = {"remove_input"}
    exporter = SlidesExporter(config=config, template_name="dpteach_slides", **TEMPLATE_DIRS,
                              embed_images=True, reveal_scroll=False, reveal_theme="white", **settings)
    pages = []
    for chapter in project.chapters():
        if only is not None and not chapter.path.name.startswith(tuple(only)):
            continue
        path = executed / chapter.path.name
        fresh = path.exists() and path.stat().st_mtime >= chapter.path.stat().st_mtime
        nb = nbformat.read(path, as_version=4) if fresh else execute(chapter, executed, presentation=True)
        missing = unmarked(nb)
        if missing:
            raise ValueError(f"{chapter.path.name} has cells without a slide mark (run `python -m dpteach.publish "
                             f"mark`): {missing[:3]}")
        nb = link_decks(describe_figures(figures_as_images(
            slide_edition(instructor_edition(nb, chapter.path.stem, project), live=False))))
        body, _ = exporter.from_notebook_node(nb, resources={
            "metadata": {"name": f"{chapter.number} · {chapter.title}"}, "dpteach_offline": offline})
        page = out / f"{chapter.path.stem}.slides.html"
        page.write_text(body, encoding="utf-8")
        pages.append(page)
    return pages


def figures_as_images(nb):
    """A still figure drawn from its PNG, ``nb`` changed in place and returned: a figure's output also holds an HTML
    copy (the same image with its alt, for JupyterLab, which drops a PNG's alt), which nbconvert would prefer; a deck
    draws the PNG, sized for the room, and :func:`describe_figures` gives it the alt from its metadata."""
    for cell in nb.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            data = output.get("data", {})
            page = data.get("text/html", "")
            if "image/png" in data and ("".join(page) if isinstance(page, list) else str(page)).startswith("<img alt="):
                del data["text/html"]
    return nb
