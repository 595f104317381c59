"""A chapter's core path and its "Going further" parts (issue 52).

The one rule: **a cell is Going further when it carries the cell tag** ``going-further``, and a Going-further
part opens with a tagged Markdown cell whose heading is ``## Going further: <topic>`` (``###`` inside a
section). Every cell of the part carries the tag, up to the next untagged cell; everything untagged is the
core. A learner can skip a part without losing the thread; the course edition can leave it out
(:func:`dpteach.course.edition.course_edition`, ``core_only``); the book sets it apart (:func:`book_marks`);
the lab's table of contents and the slides show its heading as it is written.

No core cell uses a name a Going-further cell defines (:func:`core_uses_of_depth` finds one that does), so a
core-only hand-out runs top to bottom. Functions here read notebooks (``nbformat`` nodes or plain dicts) and
never execute anything.
"""

from __future__ import annotations

import ast
import builtins
import re

#: The cell tag of a Going-further cell.
TAG = "going-further"
#: A Going-further part's heading (its cell's first heading): ``## Going further: <topic>`` or ``###``.
HEADING = re.compile(r"(?m)^(##|###) Going further: (\S.*?)\s*$")
#: The box the book puts under a Going-further heading.
BOOK_BOX = ("```{admonition} Going further\n:class: dpteach-going-further\n"
            "Depth beyond the core path: skip it without losing the thread. The course edition can leave it out.\n```")
_ANY_HEADING = re.compile(r"(?m)^#{1,6} ")


def _source(cell) -> str:
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else text


def is_going_further(cell) -> bool:
    """Whether ``cell`` carries the ``going-further`` tag."""
    return TAG in cell.get("metadata", {}).get("tags", [])


def core_cells(nb) -> list:
    """The cells of the chapter's core path (every untagged cell, in order)."""
    return [cell for cell in nb["cells"] if not is_going_further(cell)]


def parts(nb) -> list[tuple[str, list[int]]]:
    """Each Going-further part of ``nb``: (its topic, the indices of its cells).

    Raises ``ValueError`` when a tagged run of cells does not open with a Going-further heading, or a
    Going-further heading sits in an untagged cell (the rule above, checked)."""
    found: list[tuple[str, list[int]]] = []
    for index, cell in enumerate(nb["cells"]):
        text = _source(cell) if cell.get("cell_type") == "markdown" else ""
        heading = HEADING.search(text)
        if heading and not is_going_further(cell):
            raise ValueError(f"cell {index} has the heading {heading.group(0)!r} but not the tag {TAG!r}")
        if not is_going_further(cell):
            continue
        opens = heading is not None and text.lstrip().startswith(heading.group(0).strip())
        if opens:
            found.append((heading.group(2), [index]))
        elif found and found[-1][1][-1] == index - 1 and not _ANY_HEADING.search(text):
            found[-1][1].append(index)
        else:
            raise ValueError(f"cell {index} is tagged {TAG!r} but no Going-further heading "
                             "('## Going further: <topic>') opens its run of tagged cells")
    return found


def _assigned(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
    return names


def _loaded(tree: ast.AST) -> set[str]:
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}


def _tree(cell) -> ast.AST:
    lines = [line for line in _source(cell).splitlines() if not line.lstrip().startswith(("%", "!"))]
    return ast.parse("\n".join(lines))


def core_uses_of_depth(nb) -> list[tuple[int, str]]:
    """(cell index, name) for every core code cell that reads a name which, at that point, only a
    Going-further cell has defined: the cells a core-only hand-out could not run. Empty when the core stands
    alone. A static reading (the names each cell assigns and loads), so it runs no code."""
    core_defined = set(dir(builtins))
    depth_defined: set[str] = set()
    found = []
    for index, cell in enumerate(nb["cells"]):
        if cell.get("cell_type") != "code":
            continue
        tree = _tree(cell)
        if is_going_further(cell):
            depth_defined |= _assigned(tree) - core_defined
            continue
        local = _assigned(tree)
        found += [(index, name) for name in sorted(_loaded(tree) & depth_defined - local - core_defined)]
        core_defined |= local
    return found


def book_marks(nb) -> None:
    """Set the Going-further parts apart in the book, in place: the box :data:`BOOK_BOX` under each part's
    heading (the code cells carry myst-nb's ``tag_going-further`` class, styled by the book's CSS)."""
    for cell in nb["cells"]:
        if cell.get("cell_type") == "markdown" and is_going_further(cell):
            text = _source(cell)
            heading = HEADING.search(text)
            if heading and BOOK_BOX not in text:
                cell["source"] = text[:heading.end()] + "\n\n" + BOOK_BOX + "\n" + text[heading.end():]
