"""Running one submitted notebook: its code cells, one by one, in a sandbox of its own, and the answers it set.

Step b and c of :mod:`dpteach.course.grading`'s list: what a run gives (:class:`Run`) for the verdicts to judge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import sandbox
from .inside import READY
from .model import GradingError


@dataclass(frozen=True)
class Options:
    """Limits for one submission: the whole notebook run (s), one cell (s), the sandbox's memory (MB), a
    function's cases (s); whether figures are drawn; the isolation (``"none"`` only for trusted files); the
    regex naming students in file names (``--pattern``; by default an LMS's bulk-download names are read)."""

    timeout: float = 120.0
    memory_mb: int = 2048
    function_timeout: float = 20.0
    figures: bool = False
    cell_timeout: float = 60.0
    isolation: str = "bubblewrap"
    pattern: str = ""


#: The limits ``make grade`` uses when none are given.
DEFAULT = Options()


# -- executing the submission ---------------------------------------------------------------------

#: Seconds a notebook's sandbox may take to start (IPython, numpy, dpteach) before its first cell.
STARTUP_SECONDS = 30.0


class _Opaque:
    """An answer that was neither a number nor a string, known only by its type's name."""

    def __init__(self, type_name: str):
        self.type_name = type_name

    def __repr__(self) -> str:
        return f"a {self.type_name}"


def _answer_value(entry: Any) -> Any:
    if not isinstance(entry, dict) or len(entry) != 1:
        raise GradingError("the notebook's answers could not be read")
    (kind, value), = entry.items()
    if kind in ("missing", "blank"):
        return None
    if kind == "bool" and isinstance(value, bool):
        return value
    if kind == "number" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if kind == "number" and value in ("nan", "inf", "-inf"):
        return float(value)
    if kind == "text" and isinstance(value, str):
        return value
    if kind == "type" and isinstance(value, str):
        return _Opaque(value)
    raise GradingError("the notebook's answers could not be read")


@dataclass
class Run:
    """What running a notebook gave: its answers by name, each failing cell (number, error), the cell it
    was stopped at (None if it ran to the end) and why, and the isolation it ran under."""

    answers: dict
    errors: list
    stopped_at: int | None
    stopped: str
    isolation: str


def execute(cells: Sequence[tuple[int, str]], names: Sequence[str], options: Options) -> Run:
    """Run a notebook's code ``cells`` (each ``(number, source)``, as :class:`dpteach.course.reading.Cell` keeps
    them) in a sandbox, one by one, each within ``options.cell_timeout``; read back the answers ``names``.

    A run that ran out of time is run again alone (no other sandbox of the grader's beside it,
    :func:`dpteach.course.sandbox.turn`) before it is failed: a classmate's load never costs it a point."""
    cells = list(cells)
    job = {"kind": "notebook", "cells": [source for _, source in cells], "names": list(names),
           "figures": options.figures}
    limits = sandbox.Limits(wall_seconds=STARTUP_SECONDS + options.timeout, cpu_seconds=STARTUP_SECONDS + options.timeout,
                            memory_mb=options.memory_mb)
    def watch(item):
        return STARTUP_SECONDS if item == READY else options.cell_timeout
    result = sandbox.run(job, limits, options.isolation, watch=watch)
    if result.end == "timeout":     # perhaps for others' load, not its own: run alone before it is failed
        result = sandbox.run(job, limits, options.isolation, watch=watch, alone=True)
    if result.items[:1] != [READY]:
        raise GradingError(f"the notebook could not be run: its sandbox did not start ({result.end})")
    answers, errors, running, done = {}, [], None, False
    for item in result.items[1:]:
        if not isinstance(item, dict):
            continue
        event, index = item.get("event"), item.get("index")
        if event == "answers" and isinstance(item.get("values"), dict):
            answers = item["values"]
        elif event == "cell" and isinstance(index, int) and 0 <= index < len(cells):
            running = index
        elif event == "ran" and index == running:
            if isinstance(item.get("error"), str):
                errors.append((cells[index][0], item["error"][:300]))
            running = None
        elif event == "done":
            done = True
    values = {name: _answer_value(answers.get(name, {"missing": True})) for name in names}
    if done and result.end == "exited":
        return Run(values, errors, None, "", result.isolation)
    number = cells[running][0] if running is not None else None
    where = f"cell {number}" if number is not None else "the notebook"
    if result.end == "timeout":
        limit = options.cell_timeout if number is not None else options.timeout
        why = f"{where} ran longer than the time limit ({limit:g} s): stopped there, also when run again alone"
    elif result.end == "memory":
        why = f"{where} wrote more into /dev/shm than its limit: stopped there"
    elif result.end == "output":
        why = f"{where} sent the grader more output than it reads: stopped there"
    elif result.end.startswith("signal"):
        why = (f"{where} was killed ({result.end}): it ran out of memory (the limit is {options.memory_mb} MB) "
               "or killed its own process")
    else:
        why = f"{where} ended the notebook's own process"
    if number is None:
        raise GradingError(why)
    return Run(values, errors, number, why + "; the exercises after it score 0", result.isolation)
