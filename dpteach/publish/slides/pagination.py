"""Slides that fit: a section taller than the screen split into slides, each with a heading.

:func:`paginate` walks a chapter's cells in order and starts a new slide before the cell that would
overflow :data:`~.sizing.SLIDE_BUDGET`, under the section's heading with "(continued)". Every slide has a
heading, so that the outline and the speaker view can name it: a slide the chapter opens with a cell that
has none (a figure and the line that introduces it) gets its section's. Text that follows a figure stays
with it where it can: on the live slides the figure is drawn smaller (64vh instead of 72vh) to make room;
on the static deck, where a figure is drawn large enough for its text to read (:func:`~.sizing.size_figures`),
the text goes beside it. A table taller than a slide is shown in pieces, its header repeated.
"""

from __future__ import annotations

import re

from .marking import heading, role, set_role
from .sizing import (
    BESIDE_GAP,
    BESIDE_MIN,
    CONTENT_WIDTH,
    FIGURE_BUDGET,
    LIVE_FIGURE_CAP,
    LIVE_FIGURE_NOTED,
    PROSE_CHARS,
    SLIDE_BUDGET,
    cell_height,
    figure_box,
    live_figure,
    markdown_height,
    row_height,
    text,
)

#: The tag of the instructor's speaker notes (instructor/NN_name.md), which go to their section's first slide.
INSTRUCTOR_TAG = "instructor"
#: Static deck: the tags of a figure and of the text beside it (nbconvert makes them classes: slides.css lays
#: them out side by side).
FIGURE_TAG, BESIDE_TAG = "dpteach-figure", "dpteach-beside"


def split_tall_tables(cells: list) -> list:
    """A code cell whose table output is taller than a slide: its rows shown in Markdown cells that each
    fit (the header repeated), the cell itself skipped on the slides (it still runs)."""
    import nbformat

    out = []
    for cell in cells:
        out.append(cell)
        if cell.cell_type != "code" or role(cell) in ("skip", "notes"):
            continue
        html = next((text(o["data"]["text/html"]) for o in cell.get("outputs", []) if "text/html" in o.get("data", {})), "")
        rows = re.findall(r"<tr.*?</tr>", html, re.S)
        if not rows or sum(map(row_height, rows)) <= SLIDE_BUDGET - 200:
            continue
        head = html.split("<tbody", 1)[0] if "<tbody" in html else html[:html.index(rows[0])]
        body = rows[1:] if "<tbody" not in html else re.findall(r"<tr.*?</tr>", html.split("<tbody", 1)[1], re.S)
        if "<tbody" not in html:
            head += rows[0]
        chunks, current, used = [], [], sum(map(row_height, re.findall(r"<tr.*?</tr>", head, re.S)))
        for row in body:
            if current and used + row_height(row) > SLIDE_BUDGET - 200:
                chunks.append(current)
                current, used = [], sum(map(row_height, re.findall(r"<tr.*?</tr>", head, re.S)))
            current.append(row)
            used += row_height(row)
        chunks.append(current)
        kind = role(cell) or "-"
        set_role(cell, "skip")
        for n, chunk in enumerate(chunks):
            table = head + ("<tbody>" if "<tbody" in html else "") + "".join(chunk) + "</tbody></table>"
            out.append(nbformat.v4.new_markdown_cell(re.sub(r"\n\s*", " ", table), metadata={
                "slideshow": {"slide_type": kind if n == 0 else "-"}, "tags": ["slides"]}))     # (paginate splits them)
    return out


def _title(section: str):
    """The heading of a slide that continues a section."""
    import nbformat

    return nbformat.v4.new_markdown_cell(f"### {section} (continued)" if section else "### (continued)",
                                         metadata={"slideshow": {"slide_type": "slide"}, "tags": ["slides"]})


def _tag(cell, tag: str) -> None:
    tags = cell.metadata.setdefault("tags", [])
    if tag not in tags:
        tags.append(tag)


def _beside(cell, figure: dict | None) -> bool:
    """Static deck: put a Markdown cell beside the figure just before it, if the figure leaves a column wide
    enough and the text, wrapped in it, is no taller than the figure."""
    if figure is None or not figure.get("box") or cell.cell_type != "markdown" or heading(cell):
        return False
    width, height = figure["box"]
    column = CONTENT_WIDTH - width - BESIDE_GAP
    if column < BESIDE_MIN or markdown_height(cell.source, int(column * PROSE_CHARS / 1800)) > height:
        return False
    _tag(figure["cell"], FIGURE_TAG)
    _tag(cell, BESIDE_TAG)
    return True


def _following(cells: list, index: int):
    """The next cell the slides show after ``cells[index]`` (notes and skipped cells aside), or None."""
    return next((c for c in cells[index + 1:] if role(c) not in ("skip", "notes")), None)


def _is_note(cell) -> bool:
    """Text that belongs to the figure before it: a Markdown cell on the same slide, not a section of its own."""
    return cell is not None and cell.cell_type == "markdown" and role(cell) != "slide" and not heading(cell)


def paginate(cells: list, state: dict, live: bool = False) -> list:
    """Split every slide taller than :data:`SLIDE_BUDGET` before the cell that would overflow it; give every
    slide a heading; keep the text that follows a figure with it (below it on the live slides, the figure
    drawn smaller; beside it on the static deck)."""
    out, section, used, moved_notes = [], "", 0, []
    figure = None          # static: the figure just placed on this slide, and the box it takes
    kept = None            # live: the text after a figure, budgeted with it on the figure's slide
    bare = False           # the slide holds its heading only: whatever comes next stays on it, however tall
    for index, cell in enumerate(cells):
        kind = role(cell)
        if kind == "skip":
            out.append(cell)
            continue
        if kind == "notes":
            # the instructor's notes (placed at the end of the section) go to the section's first slide
            if INSTRUCTOR_TAG in cell.metadata.get("tags", []) and moved_notes:
                moved_notes[-1][1].append(cell)
            else:
                out.append(cell)
            continue
        follows_figure, figure = (figure if kind != "slide" else None), None
        if kind == "slide":
            used, bare = 0, False
            moved_notes.append((len(out), []))
            if heading(cell):
                section = heading(cell)
            else:          # a slide the chapter opens without a heading: its section's, so that it can be named
                title = _title(section)
                out.append(title)
                set_role(cell, "-")
                kind, used, bare = "-", cell_height(title), True
        height = cell_height(cell, state, live)
        if cell is kept:
            kept, bare = None, False
            used += height
            out.append(cell)
            continue
        need = height
        if live and live_figure(cell, state) and _is_note(_following(cells, index)):
            # rise.css draws a figure with text after it on its slide smaller: the two go on one slide if they can
            note = _following(cells, index)
            shrunk = height - (LIVE_FIGURE_CAP - LIVE_FIGURE_NOTED)
            unit = shrunk + cell_height(note, state, live)
            if bare or used + unit <= SLIDE_BUDGET or cell_height(_title(section)) + unit <= SLIDE_BUDGET:
                height, need, kept = shrunk, unit, note
        budget = FIGURE_BUDGET if not live and figure_box(cell, state) else SLIDE_BUDGET
        if kind != "slide" and used and used + need > budget and not bare:
            if not live and _beside(cell, follows_figure):
                out.append(cell)
                continue
            title = _title(section)
            out.append(title)
            if kind == "fragment":
                set_role(cell, "-")
            used = cell_height(title)
        bare = kind == "slide" and cell.cell_type == "markdown" and not re.sub(r"(?m)^#{1,6} .*$", "", cell.source).strip()
        used += height
        out.append(cell)
        if not live and cell.cell_type == "code":
            box = figure_box(cell, state)
            figure = {"cell": cell, "box": box} if box else None
    # put each section's instructor notes right after its opening cell
    for at, notes in reversed(moved_notes):
        out[at + 1:at + 1] = notes
    return out
