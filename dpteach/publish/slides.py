"""The chapters as slides: the slide marks stored in each chapter, and the reveal.js export.

Every cell of a chapter carries its role in a slideshow in its metadata
(``slideshow.slide_type``: slide, subslide, fragment, notes, skip or -), the field that both
JupyterLab's live slideshow (RISE) and nbconvert's reveal.js export read. The marks were
written once into the chapters by :func:`mark_chapter` from these rules, and from then on
they are the one source of truth (an author changes a cell's role in the notebook, with
RISE's Shift+I/B/G or the property inspector, or in the .md twin):

* ``#`` and ``##`` headings open a slide, ``###`` a sub-slide (a markdown cell holding two
  headings is split in two, so that each heading can open its own slide);
* the statements of definitions, theorems and facts and the steps of a proof come in as
  fragments, each with the code cell that checks it;
* exercises, solutions and prerequisites are skipped; speaker notes (``notes``) show only
  in the speaker view;
* code longer than :data:`LONG_CODE` lines is tagged ``remove_input``: the slide shows its
  output only.

Speaker notes are not in the chapters: they live in ``instructor/NN_name.md`` and come into
the slides (role ``notes``, the speaker view) through the instructor edition
(:func:`dpteach.publish.book_site.instructor_edition`).

    python -m dpteach.publish mark [--force]     # write marks into notebooks/ (cells without one)
    python -m dpteach.publish slides [--offline] # build/slides/NN_name.slides.html
"""

from __future__ import annotations

import copy
import re
import subprocess
import sys
from pathlib import Path

from .assets import MATHJAX_TEX_FONTS, copy_offline_assets, extract, npm_pack
from .book_site import instructor_edition
from .execute import execute
from .paths import TEMPLATE_DIRS, Project

ROLES = ("slide", "subslide", "fragment", "notes", "skip", "-")
LONG_CODE = 12

_HEADING = re.compile(r"^(#{1,3}) ")
_FRAGMENT_LEADS = ("**Step", "**Proof", "**By symmetry", "**Theorem", "**Definition", "**Fact", "**Claim")
_SKIPPED_SECTIONS = ("## Exercises", "## Prerequisites")


def role(cell) -> str | None:
    """A cell's stored slide role, or None if it has none."""
    return cell.get("metadata", {}).get("slideshow", {}).get("slide_type")


def split_at_headings(nb):
    """One markdown cell per heading: a cell that holds two sections becomes two cells."""
    import nbformat

    cells = []
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            cells.append(cell)
            continue
        parts = [p.strip("\n") for p in re.split(r"(?m)^(?=#{1,3} )", cell.source)]
        parts = [p for p in parts if p]
        if len(parts) <= 1:
            cells.append(cell)
            continue
        for part in parts:
            cells.append(nbformat.v4.new_markdown_cell(part, metadata=copy.deepcopy(cell.metadata)))
    nb.cells = cells
    return nb


def mark(nb, force: bool = False):
    """Give every cell a slide role by the rules above; a role already stored wins unless ``force``."""
    nb = split_at_headings(copy.deepcopy(nb))
    skipping, previous_fragment = False, False
    for cell in nb.cells:
        source = cell.source.lstrip()
        heading = _HEADING.match(source)
        if cell.cell_type == "markdown" and heading and len(heading.group(1)) <= 2:
            skipping = source.startswith(_SKIPPED_SECTIONS)
        guess = "-"
        if skipping or "solution" in cell.metadata.get("tags", []):
            guess = "skip"
        elif cell.cell_type == "markdown" and heading:
            guess = "subslide" if len(heading.group(1)) == 3 else "slide"
        elif cell.cell_type == "markdown" and source.startswith(_FRAGMENT_LEADS):
            guess = "fragment"
        elif cell.cell_type == "code" and previous_fragment:
            guess = "fragment"
        if cell.cell_type == "code" and len(cell.source.splitlines()) > LONG_CODE:
            tags = cell.metadata.setdefault("tags", [])
            if "remove_input" not in tags:
                tags.append("remove_input")
        previous_fragment = guess == "fragment" and cell.cell_type == "markdown"
        if force or role(cell) is None:
            cell.metadata.setdefault("slideshow", {})["slide_type"] = guess
    return nb


def mark_chapter(project: Project, path: Path, force: bool = False) -> int:
    """Write the marks into a chapter's .ipynb (outputs kept) and sync its .md twin; return the cell count."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    marked = mark(nb, force=force)
    nbformat.write(marked, path)
    jupytext = Path(sys.executable).with_name("jupytext")
    subprocess.run([str(jupytext), "--sync", str(path)], check=True, capture_output=True, cwd=project.root)
    return len(marked.cells)


def unmarked(nb) -> list[str]:
    """The first words of every cell with no valid slide role (empty when the chapter is fully marked)."""
    return [c.source[:40] for c in nb.cells if role(c) not in ROLES]


def build_slides(project: Project, out: Path | None = None, *, offline: bool = False,
                 executed: Path | None = None, only: list[str] | None = None) -> list[Path]:
    """reveal.js slides of every chapter of ``project`` into ``out`` (default ``build/slides``), from the
    marks stored in it and the instructor's speaker notes, made for a room by :func:`slide_edition`
    (``only``: the chapters whose file name starts with one of these, e.g. ``["03"]``)."""
    import nbformat
    from nbconvert import SlidesExporter
    from traitlets.config import Config

    out = Path(out) if out is not None else project.build / "slides"
    executed = Path(executed) if executed is not None else project.executed
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
        nb = nbformat.read(path, as_version=4) if path.exists() else execute(chapter, executed)
        missing = unmarked(nb)
        if missing:
            raise ValueError(f"{chapter.path.name} has cells without a slide mark (run `python -m dpteach.publish "
                             f"mark`): {missing[:3]}")
        nb = slide_edition(instructor_edition(nb, chapter.path.stem, project), live=False)
        body, _ = exporter.from_notebook_node(nb, resources={
            "metadata": {"name": f"{chapter.number} · {chapter.title}"}, "dpteach_offline": offline})
        page = out / f"{chapter.path.stem}.slides.html"
        page.write_text(body, encoding="utf-8")
        pages.append(page)
    return pages


# -- the slide edition -------------------------------------------------------------------------------
#
# A slide is read from the back of a room, not at a desk: the same chapter, made for it at build time
# (nothing in notebooks/ or instructor/ changes). :func:`slide_edition` is applied to the static deck
# (:func:`build_slides`) and to the live copy ``make present`` writes (``python -m dpteach.publish
# instructor --slides``). Its budget is a 1920×1080 slide with body text at 28 px (24 px and more at
# 1920×1080, the same share of a 1280×720 screen).

#: A slide's height and the height its content may fill (px of a 1920×1080 slide: the margins aside).
SLIDE_HEIGHT = 1080
SLIDE_BUDGET = 960
#: Characters on a line of prose (28 px) and of code or printed output (24 px), across 1800 px.
PROSE_CHARS, CODE_CHARS = 105, 118
PROSE_LINE, CODE_LINE = 38, 31
#: The tallest a figure is drawn on a slide (px of 1080; the CSS caps it the same way).
FIGURE_CAP = 540
#: On the live slides an interactive figure (``dpteach-interactive``) sits beside its controls, as wide as
#: the rest of the slide and at most this high (72vh; the live copy's rise.css caps it the same way).
LIVE_FIGURE_CAP = 778
#: Tags under which the book hides a cell's code (the slides hide it too).
HIDE_INPUT_TAGS = ("remove_input", "remove-input", "hide-input", "hide_input")
#: Prose longer than this (characters) is shortened on the slide, the full text moving to the speaker notes.
LONG_PROSE = 170
_STATEMENT = ("**Definition", "**Theorem", "**Fact", "**Claim", "**Corollary", "**Lemma")
_ABBREVIATIONS = ("e.g", "i.e", "vs", "cf", "al", "Fig", "Eq", "Def", "Thm", "No", "p", "pp", "ca", "approx")
_PRECOMPUTED = re.compile(r"dp\.widgets\.precomputed\(\s*(?:dp\.widgets\.)?(\w+)")
_CONTROL_MODELS = ("SliderModel", "ButtonModel", "ToggleButtonModel", "CheckboxModel", "DropdownModel",
                   "RadioButtonsModel", "ToggleButtonsModel", "TextModel", "IntTextModel", "FloatTextModel")


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value or "")


def _set_role(cell, kind: str) -> None:
    cell.metadata.setdefault("slideshow", {})["slide_type"] = kind


def hides_code(cell) -> bool:
    """True when the slides show only the output of this code cell: the book hides its code (a tag),
    or it is longer than :data:`LONG_CODE` lines."""
    if cell.cell_type != "code":
        return False
    tags = cell.metadata.get("tags", [])
    return any(t in tags for t in HIDE_INPUT_TAGS) or len(cell.source.splitlines()) > LONG_CODE \
        or cell.metadata.get("jupyter", {}).get("source_hidden", False)


def _sentences(text: str) -> list[str]:
    """``text`` cut into sentences, never inside $…$ math, after an abbreviation or after a bold label."""
    masked = re.sub(r"\$[^$]+\$", lambda m: "\0" * len(m.group()), text)
    cuts, start = [], 0
    for found in re.finditer(r"(?<=[.!?])\s+(?=[A-Z(*$\[“\"ΔεδΘ])", masked):
        before = masked[start:found.start()].rsplit(None, 1)[-1] if masked[start:found.start()].strip() else ""
        if before.rstrip(".").rstrip("!?") in _ABBREVIATIONS or re.fullmatch(r"[A-Za-z]\.", before):
            continue
        cuts.append(found.start())
    pieces, last = [], 0
    for cut in cuts:
        pieces.append(text[last:cut].strip())
        last = cut
    pieces.append(text[last:].strip())
    return [p for p in pieces if p]


def _blocks(markdown: str) -> list[str]:
    """Markdown cut into blocks at blank lines, a ```fence or a $$ display kept whole."""
    blocks, current, fence, display = [], [], False, False
    for line in markdown.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            fence = not fence
        if stripped.startswith("$$") and not fence:
            display = not display if stripped == "$$" or not (stripped.endswith("$$") and len(stripped) > 2) else display
        if not stripped and not fence and not display:
            if current:
                blocks.append("\n".join(current))
            current = []
            continue
        current.append(line)
    if current:
        blocks.append("\n".join(current))
    return blocks


def _shorten_paragraph(block: str) -> str:
    """A paragraph's first sentence (its display formulas kept); a list's items, each to its first sentence."""
    lines = block.splitlines()
    if re.match(r"^\s*([-*+]|\d+[.)])\s", lines[0]):
        items, out = [], []
        for line in lines:
            if re.match(r"^\s*([-*+]|\d+[.)])\s", line) or not items:
                items.append(line)
            else:
                items[-1] += " " + line.strip()
        for item in items:
            lead = re.match(r"^(\s*(?:[-*+]|\d+[.)])\s+)(.*)$", item)
            first = _sentences(lead.group(2))
            out.append(lead.group(1) + (first[0] if first else lead.group(2)))
        return "\n".join(out)
    text = " ".join(line.strip() for line in lines)
    displays = re.findall(r"\$\$.+?\$\$", text)
    first = _sentences(re.sub(r"\$\$.+?\$\$", " ", text))
    short = first[0] if first else text
    return "\n\n".join([short, *displays])


def short_version(markdown: str) -> tuple[str, bool]:
    """The slide's version of a Markdown cell, and whether anything was left off.

    Headings, display formulas, code, tables and statements (definitions, theorems, facts, claims)
    stay whole; a paragraph longer than :data:`LONG_PROSE` characters keeps its first sentence, a
    list each item's first sentence.

    >>> short_version("## A\\n\\nOne. Two and more, a long sentence that goes on " + "and on " * 30 + ".")
    ('## A\\n\\nOne.', True)
    >>> short_version("**Theorem 3.6.** The Laplace mechanism preserves ε-DP. It is long.")[1]
    False
    """
    out, changed = [], False
    for block in _blocks(markdown):
        stripped = block.lstrip()
        keep = (stripped.startswith(("#", "```", "$$", "|", "<", ">")) or stripped.startswith(_STATEMENT)
                or len(block) <= LONG_PROSE)
        if keep:
            out.append(block)
            continue
        short = _shorten_paragraph(block)
        changed = changed or short != block
        out.append(short)
    return "\n\n".join(out), changed



def _wrapped(text: str, width: int) -> int:
    return sum(max(1, -(-len(line) // width)) for line in text.splitlines()) if text.strip() else 0


def _widget_height(state: dict, model_id: str, live: bool = False) -> int:
    """A widget view's height on a slide: its rows of controls, its text, its figure (capped).

    On the live slides (``live``) an interactive figure is laid out as a column of controls beside the
    figure, so it is as high as the taller of the two."""
    def walk(mid: str, stacked: bool = False) -> int:
        model = state.get(mid, {})
        name, st = model.get("model_name", ""), model.get("state", {})
        children = [c.removeprefix("IPY_MODEL_") for c in st.get("children", []) if isinstance(c, str)]
        if live and "dpteach-interactive" in st.get("_dom_classes", ()) and children:
            # the controls' row (an HBox the CSS turns into a column) and the status line, beside the figure
            column = sum(walk(c, stacked=True) for c in children[:-1])
            return max(column, LIVE_FIGURE_CAP)
        if name == "ImageModel":
            return FIGURE_CAP
        if name in ("HTMLModel", "HTMLMathModel", "LabelModel"):
            text = re.sub(r"<[^>]+>", "", _text(st.get("value")))
            return _wrapped(text, PROSE_CHARS) * PROSE_LINE
        if name.endswith(_CONTROL_MODELS):
            return 52
        if name == "StackModel":
            return max((walk(c) for c in children), default=0)
        if name in ("HBoxModel", "GridBoxModel") and not stacked:
            return max((walk(c) for c in children), default=0)
        if name == "OutputModel":
            return sum(_output_height(o, state, live) for o in st.get("outputs", []))
        return sum(walk(c) for c in children)
    return walk(model_id) + 16


def _output_height(output: dict, state: dict, live: bool = False) -> int:
    data = output.get("data", {})
    if output.get("output_type") == "stream":
        return _wrapped(_text(output.get("text")), CODE_CHARS) * CODE_LINE + 20
    view = data.get("application/vnd.jupyter.widget-view+json")
    if view:
        return _widget_height(state, view.get("model_id", ""), live)
    if "image/png" in data:
        return FIGURE_CAP + 12          # the CSS draws every figure FIGURE_CAP high (its shape kept)
    if "text/html" in data:
        html = _text(data["text/html"])
        rows = re.findall(r"<tr.*?</tr>", html, re.S)
        return sum(_row_height(r) for r in rows) + 20 if rows else _wrapped(re.sub(r"<[^>]+>", "", html), PROSE_CHARS) * PROSE_LINE
    if "text/markdown" in data:
        return _markdown_height(_text(data["text/markdown"]))
    if "text/latex" in data:
        return 90
    if "text/plain" in data:
        return _wrapped(_text(data["text/plain"]), CODE_CHARS) * CODE_LINE + 20
    return 0


def _row_height(row: str) -> int:
    """A table row's height: its longest cell wraps in a wide column, the others in narrow ones."""
    texts = sorted((len(re.sub(r"<[^>]+>", "", c).strip()) for c in re.findall(r"<t[dh].*?</t[dh]>", row, re.S)),
                   reverse=True) or [0]
    lines = max(-(-texts[0] // 70), -(-(texts[1] if len(texts) > 1 else 0) // 26), 1)
    return lines * 34 + 18


def _split_tall_tables(cells: list) -> list:
    """A code cell whose table output is taller than a slide: its rows shown in Markdown cells that each
    fit (the header repeated), the cell itself skipped on the slides (it still runs)."""
    import nbformat

    out = []
    for cell in cells:
        out.append(cell)
        if cell.cell_type != "code" or role(cell) in ("skip", "notes"):
            continue
        html = next((_text(o["data"]["text/html"]) for o in cell.get("outputs", []) if "text/html" in o.get("data", {})), "")
        rows = re.findall(r"<tr.*?</tr>", html, re.S)
        if not rows or sum(map(_row_height, rows)) <= SLIDE_BUDGET - 200:
            continue
        head = html.split("<tbody", 1)[0] if "<tbody" in html else html[:html.index(rows[0])]
        body = rows[1:] if "<tbody" not in html else re.findall(r"<tr.*?</tr>", html.split("<tbody", 1)[1], re.S)
        if "<tbody" not in html:
            head += rows[0]
        chunks, current, used = [], [], sum(map(_row_height, re.findall(r"<tr.*?</tr>", head, re.S)))
        for row in body:
            if current and used + _row_height(row) > SLIDE_BUDGET - 200:
                chunks.append(current)
                current, used = [], sum(map(_row_height, re.findall(r"<tr.*?</tr>", head, re.S)))
            current.append(row)
            used += _row_height(row)
        chunks.append(current)
        kind = role(cell) or "-"
        _set_role(cell, "skip")
        for n, chunk in enumerate(chunks):
            table = head + ("<tbody>" if "<tbody" in html else "") + "".join(chunk) + "</tbody></table>"
            out.append(nbformat.v4.new_markdown_cell(re.sub(r"\n\s*", " ", table), metadata={
                "slideshow": {"slide_type": kind if n == 0 else "-"}, "tags": ["slides"]}))     # (_paginate splits them)
    return out


def _markdown_height(markdown: str) -> int:
    height = 0
    for block in _blocks(markdown):
        stripped = block.lstrip()
        heading = re.match(r"^(#{1,6}) ", stripped)
        if heading:
            height += {1: 110, 2: 90}.get(len(heading.group(1)), 76)
        elif stripped.startswith("<table"):
            height += sum(_row_height(r) for r in re.findall(r"<tr.*?</tr>", block, re.S)) + 20
        elif stripped.startswith("```"):
            height += (len(block.splitlines()) - 2) * CODE_LINE + 30
        elif stripped.startswith("$$"):
            height += 70 + 48 * block.count("\\\\") + (40 if "frac" in block or "sum" in block else 0)
        elif stripped.startswith("|"):
            height += 46 * len([row for row in block.splitlines() if not re.match(r"^\s*\|[\s:|-]+\|\s*$", row)]) + 10
        elif re.match(r"^\s*([-*+]|\d+[.)])\s", stripped):
            items = re.split(r"(?m)^\s*(?:[-*+]|\d+[.)])\s", block)
            height += sum(_wrapped(i.replace("\n", " "), PROSE_CHARS - 4) * PROSE_LINE + 8 for i in items if i.strip()) + 16
        else:
            text = re.sub(r"\$\$.+?\$\$", "", block.replace("\n", " "))
            height += _wrapped(text, PROSE_CHARS) * PROSE_LINE + 22 + 70 * block.count("$$") // 2
    return height


def cell_height(cell, state: dict | None = None, live: bool = False) -> int:
    """The height (px of a 1920×1080 slide) a cell takes on a slide, estimated from its text and outputs
    (``live``: on the live slides, where an interactive figure sits beside its controls)."""
    state = state or {}
    if cell.cell_type == "markdown":
        return _markdown_height(cell.source)
    if cell.cell_type != "code":
        return 0
    height = 0 if hides_code(cell) else _wrapped(cell.source, CODE_CHARS) * CODE_LINE + 28
    return height + sum(_output_height(o, state, live) for o in cell.get("outputs", []))


def _heading(cell) -> str | None:
    found = re.search(r"(?m)^#{1,3} (.+?)\s*$", cell.source) if cell.cell_type == "markdown" else None
    return found.group(1) if found else None


def _notes(text: str):
    import nbformat

    return nbformat.v4.new_markdown_cell(text, metadata={"slideshow": {"slide_type": "notes"}, "tags": ["slides"]})


def slide_edition(nb, *, live: bool = True):
    """A chapter (its instructor edition) made for a room: what the slides show, nothing else.

    * Code the book hides is hidden (``source_hidden``, and ``remove_input`` for the static deck).
    * Book-only material is left off: the web reader's note and, when ``live``, the precomputed copy
      of a figure; without a kernel (the static deck, ``live=False``) the precomputed view *replaces*
      the live figure, whose sliders could not move it there.
    * Long prose keeps a short version on the slide (:func:`short_version`); the full text moves to
      the slide's speaker notes.
    * Sub-slides become slides (→ and Space then both walk every slide in reading order), and a
      section taller than the screen is split into slides that each fit (:func:`cell_height`),
      its heading repeated with "(continued)"; the instructor's notes stay on its first slide.

    Cells are never removed or reordered (the live copy still runs top to bottom): only their slide
    roles, tags and the Markdown shown change, and notes and continued headings are inserted.
    """
    nb = copy.deepcopy(nb)
    state = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    cells = nb.cells
    # book-only cells: the precomputed views and the note that introduces them
    for index, cell in enumerate(cells):
        found = _PRECOMPUTED.search(cell.source) if cell.cell_type == "code" else None
        if not found:
            continue
        note = index - 1 if index and cells[index - 1].cell_type == "markdown" and not _heading(cells[index - 1]) else None
        twin = next((i for i in range(index - 1, max(index - 4, -1), -1) if cells[i].cell_type == "code"
                     and re.search(rf"\b{found.group(1)}\(", cells[i].source)), None)
        if note is not None:
            _set_role(cells[note], "skip")
        if live or twin is None:
            _set_role(cell, "skip")
        else:
            _set_role(cell, role(cells[twin]) or "-")
            _set_role(cells[twin], "skip")
            cell.metadata.setdefault("tags", []).append("remove_input")     # its call is the book's business
            for output in cell.get("outputs", []):
                view = output.get("data", {}).get("application/vnd.jupyter.widget-view+json")
                if view:
                    view["dpteach_precomputed"] = True
    out = []
    for cell in cells:
        kind = role(cell)
        if kind == "subslide":
            _set_role(cell, "slide")
            kind = "slide"
        if cell.cell_type == "code" and hides_code(cell):
            cell.metadata.setdefault("jupyter", {})["source_hidden"] = True
            if not live:
                tags = cell.metadata.setdefault("tags", [])
                if "remove_input" not in tags:
                    tags.append("remove_input")
        out.append(cell)
        if cell.cell_type == "markdown" and kind not in ("skip", "notes"):
            short, changed = short_version(cell.source)
            if changed:
                body = re.sub(r"(?m)^#{1,6} .*\n*", "", cell.source).strip()
                cell.source = short
                out.append(_notes(body))
    nb.cells = _paginate(_split_tall_tables(out), state, live)
    if live:
        nb.metadata["rise"] = dict(RISE_SETTINGS)
    return nb


#: RISE's settings for the live copy (notebook metadata ``rise``, which RISE reads over the lab's settings):
#: slides fill the screen to its edges, top-aligned, never scroll (the edition makes them fit), no
#: transition, "slide n / N"; the first code cell of a new slide is not selected (it would scroll).
RISE_SETTINGS = {"scroll": False, "center": False, "margin": 0.02, "transition": "none", "slideNumber": "c/t",
                 "auto_select": "none", "width": "100%", "height": "100%", "theme": "simple"}


def _paginate(cells: list, state: dict, live: bool = False) -> list:
    """Split every slide taller than :data:`SLIDE_BUDGET` before the cell that would overflow it."""
    import nbformat

    out, heading, used, moved_notes = [], "", 0, []
    for cell in cells:
        kind = role(cell)
        if kind in ("skip",):
            out.append(cell)
            continue
        if kind == "notes":
            # the instructor's notes (placed at the end of the section) go to the section's first slide
            if INSTRUCTOR_TAG in cell.metadata.get("tags", []) and moved_notes:
                moved_notes[-1][1].append(cell)
            else:
                out.append(cell)
            continue
        if kind == "slide":
            heading = _heading(cell) or heading
            used = 0
            moved_notes.append((len(out), []))
        height = cell_height(cell, state, live)
        if kind != "slide" and used and used + height > SLIDE_BUDGET:
            title = nbformat.v4.new_markdown_cell(f"### {heading} (continued)" if heading else "### (continued)",
                                                  metadata={"slideshow": {"slide_type": "slide"}, "tags": ["slides"]})
            out.append(title)
            if kind == "fragment":
                _set_role(cell, "-")
            used = cell_height(title)
        used += height
        out.append(cell)
    # put each section's instructor notes right after its opening cell
    for at, notes in reversed(moved_notes):
        out[at + 1:at + 1] = notes
    return out


INSTRUCTOR_TAG = "instructor"
