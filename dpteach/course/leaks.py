"""What a chapter shows that would give a homework answer away, and which homework numbers to avoid for it.

A number *gives an answer away* when the checker would take it for the answer at the precision it grades, by the
checker's own rule: at n significant figures, a number written with at least n of them that lies within
:func:`dpteach.exercises._feedback.tolerance` (half a unit in the n-th figure) of the answer (0.7310, 0.731 and
73.1% all give 0.731 away; 0.73 does not; 7.835 gives 7.8354 away, though a binary float rounds 7.835 to 7.83);
for a whole-number answer, that whole number (answers below 10 are exempt: "4" cannot be kept out of a chapter's
prose). A chapter *shows* the text of its Markdown
cells (code fenced in them left out) and what its code cells print and display, as stored.

The course edition never asks a homework at numbers whose answer the chapter shows elsewhere
(:func:`avoided`): a student drawn them would read their answer, whatever its context.
"""

from __future__ import annotations

import functools
import re

from dpteach.exercises import tolerance

#: A number as prose and printed tables write it: 1,600 or 1600 or 0.731 or .5, maybe followed by %.
_NUMBER = re.compile(r"(?<![\w.,])(?:(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?|\.(\d+))(?!\.?\d)(\s?%)?")


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def cell_texts(cell) -> list[str]:
    """What a reader sees of a cell: a Markdown cell's text; a code cell's printed and displayed outputs."""
    if cell["cell_type"] == "markdown":
        return [re.sub(r"```.*?```", "", _text(cell["source"]), flags=re.S)]
    if cell["cell_type"] != "code":
        return []
    texts = []
    for out in cell.get("outputs", []):
        if out["output_type"] == "stream":
            texts.append(_text(out["text"]))
        for mime in ("text/plain", "text/html", "text/markdown", "text/latex"):
            if mime in out.get("data", {}):
                # an image inlined as a data URI is pixels, not text a reader sees (its alt and data table are)
                texts.append(_DATA_URI.sub("data:", _text(out["data"][mime])))
    return texts


_DATA_URI = re.compile(r"data:[\w/+.-]+;base64,[A-Za-z0-9+/=]+")


def numbers_written(text: str):
    """(value, significant figures written, the text) of every number in ``text``; a percentage as a fraction."""
    for m in _NUMBER.finditer(text):
        whole, decimals, bare, percent = m.group(1), m.group(2), m.group(3), m.group(4)
        integer = (whole or "0").replace(",", "")
        digits = (integer + (decimals or bare or "")).lstrip("0")
        value = float(f"{integer}.{decimals or bare or '0'}")
        if percent:
            value /= 100
        yield value, len(digits), m.group(0)


def gives_away(text: str, expected: float, figures: int | None) -> list[str]:
    """The numbers in ``text`` that the checker would take for ``expected`` (see the module's docstring)."""
    return [token for value, written, token in numbers_written(text) if _matches(value, written, token, expected, figures)]


def avoided(nb, exercise, spec) -> tuple[int, ...]:
    """The indices (in ``spec.variants()``) of the homework combinations whose answer the chapter ``nb`` shows
    outside ``exercise``'s own three cells (prompt, answer cell, solution)."""
    if spec.kind != "value" or not spec.homework:
        return ()
    own = {exercise.prompt_cell, exercise.student_cell, exercise.solution_cell}
    texts = tuple(text for index, cell in enumerate(nb["cells"]) if index not in own for text in cell_texts(cell))
    return _avoided(texts, spec.name)


@functools.lru_cache(maxsize=256)
def _avoided(texts: tuple[str, ...], name: str) -> tuple[int, ...]:
    from dpteach.exercises import EXERCISES
    spec = EXERCISES[name]
    numbers = [(value, written, token) for text in texts for value, written, token in numbers_written(text)]
    found = []
    for index, params in enumerate(spec.variants()):
        expected = spec.expected(**params)
        if any(_matches(value, written, token, expected, spec.figures) for value, written, token in numbers):
            found.append(index)
    return tuple(found)


def _matches(value: float, written: int, token: str, expected: float, figures: int | None) -> bool:
    if figures is None:
        return abs(expected) >= 10 and value == expected and "." not in token
    return written >= figures and abs(value - expected) <= tolerance(expected, figures)    # the checker's rule
