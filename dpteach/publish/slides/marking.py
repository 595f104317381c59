"""The slide marks stored in each chapter: every cell's role in a slideshow.

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
"""

from __future__ import annotations

import copy
import re
import subprocess
import sys
from pathlib import Path

from ..paths import Project

ROLES = ("slide", "subslide", "fragment", "notes", "skip", "-")
LONG_CODE = 12

_HEADING = re.compile(r"^(#{1,3}) ")
_FRAGMENT_LEADS = ("**Step", "**Proof", "**By symmetry", "**Theorem", "**Definition", "**Fact", "**Claim")
_SKIPPED_SECTIONS = ("## Exercises", "## Prerequisites")


def role(cell) -> str | None:
    """A cell's stored slide role, or None if it has none."""
    return cell.get("metadata", {}).get("slideshow", {}).get("slide_type")


def set_role(cell, kind: str) -> None:
    cell.metadata.setdefault("slideshow", {})["slide_type"] = kind


def heading(cell) -> str | None:
    """The first heading (``#`` to ``###``) of a Markdown cell, or None."""
    found = re.search(r"(?m)^#{1,3} (.+?)\s*$", cell.source) if cell.cell_type == "markdown" else None
    return found.group(1) if found else None


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
        found = _HEADING.match(source)
        if cell.cell_type == "markdown" and found and len(found.group(1)) <= 2:
            skipping = source.startswith(_SKIPPED_SECTIONS)
        guess = "-"
        if skipping or "solution" in cell.metadata.get("tags", []):
            guess = "skip"
        elif cell.cell_type == "markdown" and found:
            guess = "subslide" if len(found.group(1)) == 3 else "slide"
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
            set_role(cell, guess)
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
