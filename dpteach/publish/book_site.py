"""The reader's book: the chapters as a Sphinx site (myst-nb, sphinx-book-theme).

    python -m dpteach.publish html [--online] [--instructor] [--repo owner/name] [--hub URL] [--branch main]

``make html`` calls it. Each chapter comes executed (``build/executed``, else it is run
headless first, widget state saved), so every figure, including those inside sliders, is in the
page as a still image, and every formula is typeset by MathJax. Solutions stay folded in their
``<details>`` for students; the instructor edition (:func:`instructor_edition`) opens them and
adds the speaker notes. By default MathJax, require.js and the widget renderer are copied next to
the pages (:mod:`dpteach.publish.assets`), so the folder works with no network at all; ``--online``
loads them from CDNs instead (a smaller folder), and a page opened with no network then says why its
formulas and figures are missing.
"""

from __future__ import annotations

import copy
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from ..book import Chapter
from . import mistakes_page, notation_page, reading_time
from .assets import book_assets
from .editions import MARKER
from .execute import execute
from .going_further import book_marks
from .paths import TEMPLATES, Project
from .prose import name_chapter_links, typeset_plain_maths

BOOK_CONF = TEMPLATES / "book"

#: Text that says an interactive figure needs a kernel: true in JupyterLab, not in an image's description.
_LIVE_HINT = re.compile(r"\s*\((?:move|drag)[^()]*\)\s*$")
_FIGURE_REPR = re.compile(r"^<(\w+): (.*)>$", re.S)
_CONTROLS = ("SliderModel", "ToggleButtonModel", "CheckboxModel", "DropdownModel", "RadioButtonsModel",
             "ToggleButtonsModel", "IntTextModel", "FloatTextModel", "BoundedIntTextModel", "BoundedFloatTextModel")


def _link_pages(source: str) -> str:
    """Links between chapters point at the book's pages, not at the notebooks."""
    return re.sub(r"(\d\d_[a-z0-9_]+)\.ipynb", r"\1.html", source)


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value or "")


def _figure_alt(output: dict, section: str) -> str:
    """A short description of an inline figure: the figure's own (``alt`` metadata, from
    ``alt_text()``), else its title from the ``<FigureClass: title>`` repr, else the section it is in."""
    alt = output.get("metadata", {}).get("image/png", {}).get("alt")
    if alt:
        return str(alt)
    shown = _FIGURE_REPR.match(_text(output.get("data", {}).get("text/plain")).strip())
    if shown and shown.group(2).strip():
        return f"Figure: {shown.group(2).strip()}"
    return f"Figure in the section “{section}”" if section else "Figure"


def _widget_alts(state: dict, model_id: str, description: str, section: str) -> tuple[list[str], dict | None]:
    """One description per image of a widget view (in the order of the widget tree), and for a
    precomputed view ``{"labels": slider labels, "alts": one description per frame}``.

    A figure whose view holds an anywidget (``_model_module`` "anywidget", as
    :class:`dpteach.widgets` puts one in each interactive figure) is described by the anywidget's ``alt``,
    written from the figure's data, and a precomputed view's frames by its ``alts`` (one per frame) when it
    has as many as the slider has labels. Otherwise a frame is described with the slider value it was
    drawn at (the page shows one frame at a time: its script picks the description by the slider's
    readout), and a live figure with the values its controls had when the chapter was executed."""
    base = _LIVE_HINT.sub("", description).strip() or (
        f"Interactive figure in the section “{section}”" if section else "Interactive figure")
    nodes, images, stacks, controls, written = [], [], {}, [], {}

    def walk(mid: str, parent: str | None) -> None:
        model = state.get(mid)
        if model is None:
            return
        name, st = model.get("model_name", ""), model.get("state", {})
        if name == "ImageModel":
            images.append((mid, parent))
        if name == "AnyModel" and st.get("_model_module", model.get("model_module")) == "anywidget":
            written.setdefault("alt", str(st.get("alt") or ""))
            alts = st.get("alts")
            if isinstance(alts, list) and alts and "alts" not in written:
                written["alts"] = [str(a) for a in alts]
        if name == "StackModel":
            stacks[mid] = [c.removeprefix("IPY_MODEL_") for c in st.get("children", [])]
        if name.endswith(_CONTROLS) and st.get("description"):
            if "_options_labels" in st:
                labels = st["_options_labels"]
                index = st.get("index", 0)
                value = labels[index] if isinstance(index, int) and 0 <= index < len(labels) else ""
            else:
                value = st.get("value", "")
                value = f"{value:g}" if isinstance(value, float) else str(value)
            controls.append((st["description"], value, st.get("_options_labels")))
        nodes.append(mid)
        for child in st.get("children", []):
            if isinstance(child, str):
                walk(child.removeprefix("IPY_MODEL_"), mid)

    walk(model_id, None)
    frames = next((labels for _, _, labels in controls if labels), None)
    chooser = next((desc for desc, _, labels in controls if labels), "")
    alts, frame_alts = [], None
    per_frame = written.get("alts") if frames and len(written.get("alts", [])) == len(frames) else None
    for mid, parent in images:
        if parent in stacks and frames and len(frames) == len(stacks[parent]):
            i = stacks[parent].index(mid)
            alts.append(per_frame[i] if per_frame else
                        f"{base}; frame {i + 1} of {len(frames)}, drawn at {chooser} = {frames[i]}")
            frame_alts = frame_alts or {"labels": list(frames), "alts": []}
            frame_alts["alts"].append(alts[-1])
        elif written.get("alt"):
            alts.append(written["alt"])
        elif controls:
            alts.append(f"{base}; drawn at " + ", ".join(f"{d} = {v}" for d, v, _ in controls))
        else:
            alts.append(base)
    return alts, frame_alts


def describe_figures(nb):
    """Every figure of ``nb`` with a text alternative, in place, where a page made by nbconvert reads it (the static
    decks): an inline figure's ``alt`` metadata (its own, else :func:`_figure_alt`'s), and a widget view's
    ``dpteach_alt`` (and ``dpteach_frames``) for the script that describes the widget's images (:func:`_widget_alts`).
    Returns ``nb``."""
    state = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    section = ""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            headings = re.findall(r"(?m)^#{1,3} (.+)$", cell.source)
            section = headings[-1].strip() if headings else section
            continue
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            data = output.get("data", {})
            if "image/png" in data:
                output.setdefault("metadata", {}).setdefault("image/png", {})["alt"] = _figure_alt(output, section)
            view = data.get("application/vnd.jupyter.widget-view+json")
            if view and view.get("model_id") in state:
                view["dpteach_alt"], frames = _widget_alts(state, view["model_id"], _text(data.get("text/plain")), section)
                if frames:
                    view["dpteach_frames"] = frames
    return nb


def instructor_edition(nb, stem: str, project: Project):
    """The instructor's copy of a chapter: solutions open and speaker notes merged back in, by
    ``dpteach.publish.editions.instructor_edition`` (the notes live in ``instructor/NN_name.md``)."""
    if importlib.util.find_spec(f"{__package__}.editions") is None:
        raise RuntimeError("the instructor edition needs dpteach.publish.editions (instructor_edition), "
                           "which is missing from this installation")
    from .editions import instructor_edition as merge

    return merge(nb, stem, project)


def book_sources(nb, titles: dict[str, str] | None = None):
    """A chapter made ready for the book: links to pages, and a text alternative for every
    figure, inline or inside a widget (the solutions and notes are the edition's business).

    The prose's plain-text maths is set as maths and its links to chapters are named by their
    ``titles`` (by notebook stem; :mod:`dpteach.publish.prose`). An exercise's answer cell keeps its
    code but not what its checker said when the chapter ran ("Not answered yet: … run the cell
    again"), which means nothing where no cell runs."""
    nb = copy.deepcopy(nb)
    book_marks(nb)                  # a "Going further" part is set apart by a box under its heading
    state = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    section = ""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            headings = re.findall(r"(?m)^#{1,3} (.+)$", cell.source)
            section = headings[-1].strip() if headings else section
            cell.source = name_chapter_links(typeset_plain_maths(cell.source), titles or {})
            continue
        if cell.cell_type != "code":
            continue
        if MARKER in cell.source:
            cell.outputs = []
            continue
        alts = []
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "text/html" in data:
                data["text/html"] = _link_pages(_text(data["text/html"]))
            if "image/png" in data:
                alts.append(_figure_alt(output, section))
            view = data.get("application/vnd.jupyter.widget-view+json")
            if view and view.get("model_id") in state:
                view["dpteach_alt"], frames = _widget_alts(state, view["model_id"], _text(data.get("text/plain")), section)
                if frames:
                    view["dpteach_frames"] = frames
        if alts:
            image = cell.metadata.setdefault("mystnb", {}).setdefault("image", {})
            image["alt"] = "; ".join(dict.fromkeys(alts))
    return nb


_CHAPTER_LINK = re.compile(r"\[([^\]]+)\]\((\d\d_\w+)\.ipynb(?:#[^)\s]*)?\)")


def _unlink_absent(nb, present: set[str]) -> None:
    """In a book of some chapters only, a link to a chapter left out becomes its text (no dead link)."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = _CHAPTER_LINK.sub(lambda m: m.group(0) if m.group(2) in present else m.group(1), cell.source)


def short_title(chapter: Chapter) -> str:
    """How the sidebar names a chapter: its number and its title up to the colon ("05 · Accuracy and the census
    first names")."""
    return f"{chapter.number} · {chapter.title.split(': ')[0]}"


def _index(items: list[Chapter], instructor: bool, launch: bool = False, mistakes: bool = False,
           times: dict[str, str] | None = None) -> str:
    toc = "\n".join([f"{short_title(c)} <{c.path.stem}>" for c in items]
                    + [f"{notation_page.TITLE} <{notation_page.STEM}>"]
                    + ([f"{mistakes_page.TITLE} <{mistakes_page.STEM}>"] if mistakes else []))
    times = times or {}      # each chapter's reading time (dpteach.publish.reading_time.summary)
    rows = "\n".join(f"- **{c.number}** [{c.title}]({c.path.name}): {typeset_plain_maths(c.summary)}"
                     + (f" *Reading time: {times[c.path.stem]}.*" if c.path.stem in times else "") for c in items)
    rows += f"\n\nThe [{notation_page.TITLE.lower()}]({notation_page.STEM}.md): each symbol's one meaning, and where it holds."
    if mistakes:
        rows += (f"\n\nAnd [{mistakes_page.TITLE.lower()}]({mistakes_page.STEM}.md): the wrong steps the exercises' "
                 "checkers name, each with the section that teaches the right one.")
    edition = "\n\n*Instructor edition: every solution is shown open, and the speaker notes are in.*" if instructor else ""
    # the launch menu is on the pages only when the book was built with a repository (REPO=)
    where = "the rocket menu at the top of each page, or `make lab`" if launch else "`make lab` in the workbook's folder"
    return f"""# The Laplace mechanism: an interactive workbook

Differential privacy from Dwork & Roth, *The Algorithmic Foundations of Differential Privacy*,
chapter 3, and what grows from it. These pages were executed when they were built: figures and
formulas are all here, and the interactive figures show the state they were saved in (precomputed
views still move). To move every slider and run the code, open a chapter in JupyterLab ({where});
each page can also be downloaded as a notebook.{edition}

```{{toctree}}
:hidden:
:maxdepth: 1

{toc}
```

{rows}
"""



def run_sphinx(project: Project, src: Path, out: Path, work: Path, overrides: dict) -> subprocess.CompletedProcess:
    """Sphinx's HTML builder on ``src`` into ``out`` with the book's configuration (``BOOK_CONF``), each of
    ``overrides`` given as ``-D key=value`` (an empty value left out), doctrees in ``work``. Returns the finished
    process: a build that failed has a non-zero return code, and one that warned says so on stderr."""
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-c", str(BOOK_CONF), "-d", str(work / "doctrees"),
               str(src), str(out)]
    for key, value in overrides.items():
        if value != "":
            command += ["-D", f"{key}={value}"]
    env = {**os.environ, "PYTHONWARNINGS": "ignore::DeprecationWarning"}
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=project.root)


def build_html(project: Project, out: Path | None = None, *, offline: bool = True, instructor: bool = False,
               executed: Path | None = None, repo: str = "", hub: str = "", branch: str = "main",
               cache: Path | None = None, chapters: list[str] | None = None, work: Path | None = None,
               course: bool = False) -> list[Path]:
    """The reader's book of ``project``: every chapter (executed, widget state saved) as a page of a Sphinx book,
    in ``out`` (default ``build/html``, or ``build/html-instructor``).

    Chapters come from ``executed`` (default ``build/executed``; the missing ones are run into it
    first); ``chapters`` (notebook stems) keeps only those. Sphinx's sources and caches go to ``work``
    (default: ``.<out's name>-sources`` beside ``out``), never into ``out``. ``offline`` (the default) copies
    MathJax, require.js and the widget renderer in, so the pages need no network; built for the network
    instead, a page opened without one says so.

    The self-study book (``course=False``) ends with the "Common mistakes" page (:mod:`.mistakes_page`), and,
    built with a ``repo`` on GitHub or GitLab, has a "Report an error" link on every page that opens a new issue
    titled with the page's name. The course edition's book (``course=True``) has neither: a graded course's
    book should not invite answers in public. Every edition has the "Notation" page (:mod:`.notation_page`).
    Returns the index, the chapter pages and the added pages."""
    import nbformat

    items = [c for c in project.chapters() if chapters is None or c.path.stem in chapters]
    out = Path(out) if out is not None else project.build / ("html-instructor" if instructor else "html")
    executed = Path(executed) if executed is not None else project.executed
    work = Path(work) if work is not None else out.parent / f".{out.name}-sources"
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    src = work / "src"
    src.mkdir(parents=True)
    downloads = out / "downloads"
    downloads.mkdir(parents=True)
    titles = {c.path.stem: short_title(c) for c in project.chapters()}
    times: dict[str, str] = {}
    for chapter in items:
        path = executed / chapter.path.name
        nb = nbformat.read(path, as_version=4) if path.exists() else execute(chapter, executed)
        times[chapter.path.stem] = reading_time.summary(nb)
        shown = instructor_edition(nb, chapter.path.stem, project) if instructor else nb
        pages = book_sources(shown, titles)
        if chapters is not None:
            _unlink_absent(pages, {c.path.stem for c in items})
        nbformat.write(pages, src / chapter.path.name)
        nbformat.write(nb, downloads / chapter.path.name)
        twin = project.twin(chapter.path)
        if twin is not None:
            shutil.copyfile(twin, downloads / f"{chapter.path.stem}.md")
    if not course:
        present = {c.path.stem: titles[c.path.stem] for c in items}
        (src / f"{mistakes_page.STEM}.md").write_text(mistakes_page.page(present), encoding="utf-8")
    (src / f"{notation_page.STEM}.md").write_text(notation_page.page(), encoding="utf-8")
    (src / "index.md").write_text(_index(items, instructor, launch=bool(repo), mistakes=not course, times=times), encoding="utf-8")
    overrides = {"dpteach_offline": int(offline), "dpteach_instructor": int(instructor),
                 "dpteach_repo": repo, "dpteach_hub": hub, "dpteach_branch": branch, "dpteach_report": int(not course)}
    if offline:
        overrides["dpteach_assets"] = str(book_assets(work, cache or project.npm_cache))
    done = run_sphinx(project, src, out, work, overrides)
    if done.returncode != 0 or done.stderr.strip():
        raise RuntimeError(f"the Sphinx build of the book failed or warned:\n{done.stderr[-4000:]}")
    return [out / "index.html", *(out / f"{c.path.stem}.html" for c in items), out / f"{notation_page.STEM}.html",
            *([] if course else [out / f"{mistakes_page.STEM}.html"])]
