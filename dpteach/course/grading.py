"""Grading a class: every submission run in a sandbox of its own, every verdict computed here.

::

    dpteach grade --course build/course/instructor/course.json SUBMISSION... [--out build/graded]
        [--jobs N] [--timeout 120] [--cell-timeout 60] [--memory 2048] [--function-timeout 20] [--pattern REGEX]
        [--chapter NN] [--overrides FILE] [--figures] [--unsafe]
    dpteach gradebook --course ... [--out build/graded] [--overrides FILE]

A run's story, one module a step (``dpteach grade``, :func:`dpteach.cli.course`): the course file read and checked
(:func:`load_manifest`), the submissions found and each file's name read once into a
:class:`dpteach.course.model.Place` (:func:`find_submissions`, :func:`identify_all`), the instructor's overrides
checked (:func:`load_overrides`), every submission graded into a :class:`dpteach.course.model.Record`
(:func:`grade_all`), and the records written (:func:`write_results`, :func:`summary`).

The contract. A ``SUBMISSION`` is a notebook or a folder (searched for ``*.ipynb``). Whose a notebook is comes
only from the entry holding it at the top of the folder named (:func:`dpteach.course.names.identify`, with the
roster), never from a name a student chose inside it; its chapter from its
registration, else ``--chapter``, its file's name or the course's only chapter (one registered for another
chapter is flagged and replaces no stored grade: :func:`dpteach.course.store.refusal`). Its code cells run
top to bottom in a sandbox of its own (:mod:`dpteach.course.sandbox`; ``--unsafe``: a plain process, recorded as
such), each cell under ``--cell-timeout`` and the whole under ``--timeout``, with ``dp.plots`` and ``dp.widgets``
as stand-ins that draw nothing unless ``--figures``; the sandbox reports only the answers' values (numbers,
strings, else a type's name), and a function answer is read from the submitted file's source
(:mod:`dpteach.course.reading`). Every verdict is computed in this process, part by part, at the student's own
numbers from the course file: a function by its checker on cases drawn at grading time, in a sandbox of its own
(:mod:`dpteach.course.functions`). Nothing a notebook does to its own process changes a verdict. What is written
in ``--out`` is :mod:`dpteach.course.gradebook`'s.

What an instructor does with it (collecting, the limits, flags, points, overrides, a term's assignments):
``docs/instructor/grading.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .batch import fingerprint, grade_all
from .gradebook import write_results
from .judging import checker, forbidden_names, grade_exercise
from .manifest import columns, load_manifest
from .model import KINDS, Record
from .names import find_submissions, identify, identify_all, strays
from .overrides import load_overrides
from .running import DEFAULT, Options, Run, execute
from .submission import grade_submission
from .terminal import summary

__all__ = ["DEFAULT", "KINDS", "Options", "Record", "Run", "checker", "columns", "execute", "find_submissions",
           "fingerprint", "forbidden_names", "grade_all", "grade_exercise", "grade_submission", "identify",
           "identify_all", "load_manifest", "load_overrides", "stray_records", "summary", "write_results"]


def stray_records(roots: Sequence[str | Path]) -> list[Record]:
    """A record of status ``unmatched`` for each entry of the folders named that holds no notebook (listed in
    ``unmatched.csv`` and the report, graded into no row)."""
    return [Record(id="", file=str(path), status="unmatched",
                   reason="not graded: it holds no notebook (.ipynb); the grader reads only notebooks")
            for path in strays(roots)]
