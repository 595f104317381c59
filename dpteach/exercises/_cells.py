"""What the student's own cell says, for a checker that was handed no answer: a ``def`` of the answer written
above the chapter's placeholder line ``name = ...``, which then replaces the function by ``...`` before the
checker runs.

A notebook's cell is compiled under a file name whose text IPython keeps in :mod:`linecache`; the checker reads the
cell that called it (the first caller outside dpteach) from there. Without that text (a plain script, a grading
process that runs the cell some other way) nothing is detected, and the checker says "not answered yet" as before.
"""

from __future__ import annotations

import ast
import linecache
import sys

__all__ = ["OVERWRITTEN", "overwritten_definition", "overwritten_in", "placeholder_feedback"]

#: What a checker says when the student's ``def`` is replaced by the placeholder line below it.
OVERWRITTEN = ("your `def {name}(...)` is there, but the line `{name} = ...` below it (the placeholder the chapter "
               "gave) replaces it by `...` before the checker runs: delete that line, or write your def in its "
               "place, and run the cell again.")


def _calling_cell():
    """The frame of the first caller outside dpteach (the student's cell), or None."""
    frame = sys._getframe(1)
    while frame is not None and str(frame.f_globals.get("__name__", "")).split(".")[0] == "dpteach":
        frame = frame.f_back
    return frame


def _placeholder(node: ast.stmt, name: str) -> bool:
    """``name = ...`` or ``name = None`` at the top level of a cell."""
    return (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
            and isinstance(node.value, ast.Constant) and (node.value.value is Ellipsis or node.value.value is None))


def overwritten_definition(name: str) -> bool:
    """True when the cell that called the checker defines ``def name(...)`` at its top level and, below that
    ``def``, sets ``name`` back to ``...`` (or None): the student's function never reaches the checker."""
    frame = _calling_cell()
    if frame is None:
        return False
    return overwritten_in("".join(linecache.getlines(frame.f_code.co_filename)), name)


def overwritten_in(source: str, name: str) -> bool:
    """True when the cell ``source`` defines ``def name(...)`` at its top level and, below that ``def``, sets
    ``name`` back to ``...`` (or None): what a grader reading the cell's text can check before running it."""
    if not source:
        return False
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    defined = False
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            defined = True
        elif defined and _placeholder(node, name):
            return True
    return False


def placeholder_feedback(function, name: str):
    """The feedback for a function exercise handed ``...`` or None while the calling cell defines ``def name``
    above its placeholder line (see :func:`overwritten_definition`); None otherwise (the checker judges as usual)."""
    from ._feedback import Feedback

    if (function is None or function is Ellipsis) and overwritten_definition(name):
        return Feedback(None, OVERWRITTEN.format(name=name))
    return None
