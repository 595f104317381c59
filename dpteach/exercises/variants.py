"""A course's homework numbers in a student's notebook: each student's own variant, drawn from a key.

A course that grades hands each student the chapters with numbers of their own (PrairieLearn's
"variants"): every numeric exercise asks its question at parameter values drawn from the exercise's
registered alternatives (:attr:`ExerciseSpec.homework`), and a choice exercise shows its options in an
order drawn the same way. The draw is :func:`variant`: an HMAC-SHA256 of the student's id (or course
email), the chapter and the exercise under the course's key, so the same key and student always give
the same numbers, and nobody without the key can tell which numbers a classmate got.

In the notebook, the first code cell of a homework chapter says whose numbers they are::

    dp.exercises.homework("03_laplace_mechanism", {"check_scale_for_overlapping_counts": {"k": 4, "epsilon": 0.8}})

and from then on every checker of that chapter judges at those numbers when called as the chapter
calls it (``dp.exercises.check_scale_for_overlapping_counts(answer)``), so the ✅ a student sees is the
grade's. A checker called with other numbers still answers, and says that this is practice, not the
homework. A course that cannot hand each student a file of their own (one notebook for everyone, on
Gradescope) writes instead ``dp.exercises.homework("03_…", email="ada@uni.edu", salt="…")``: the
numbers are drawn from the email and the course's salt, in the notebook, and shown in a table. Those
numbers are not secret (anyone with the salt can draw anyone's), only different for each student.
"""

from __future__ import annotations

import hashlib
import hmac
import html
from collections.abc import Mapping
from typing import Any

from ._registry import _SESSION, AWAITING, EXERCISES, NO_EMAIL, describe


def _digest(key: str | bytes, *parts: str) -> bytes:
    key = key.encode() if isinstance(key, str) else bytes(key)
    if not key:
        raise ValueError("key must be a non-empty string or bytes (got an empty one)")
    return hmac.new(key, "\x1f".join(("dpteach", *parts)).encode(), hashlib.sha256).digest()


def variant(key: str | bytes, who: str, chapter: str, name: str, avoid=()) -> dict[str, Any]:
    """The homework parameters of exercise ``name`` (a checker's name) in ``chapter`` for ``who``.

    One of :meth:`ExerciseSpec.variants`, chosen by HMAC-SHA256(key, chapter, exercise, who): uniform
    over the combinations (the 256-bit digest reduced modulo their number, a bias below 2⁻²⁰⁰),
    the same for the same arguments, independent between students and exercises. ``who`` is a
    student's id or course email ("" for a course without a roster: one variant for the class).
    ``avoid`` lists combinations (their indices in ``variants()``) never to draw: those whose answer the
    chapter shows elsewhere (a course works them out when it is built).
    """
    spec = EXERCISES.get(name)
    if spec is None:
        raise ValueError(f"name must be a registered exercise's checker (got {name!r})")
    if not spec.homework:
        return {}
    skip = set(avoid)
    options = [combination for index, combination in enumerate(spec.variants()) if index not in skip]
    if not options:
        raise ValueError(f"avoid must leave some of {name}'s {len(spec.variants())} combinations (it names them all)")
    index = int.from_bytes(_digest(key, "variant", chapter, name, who), "big") % len(options)
    return dict(options[index])


def tag(key: str | bytes, who: str) -> str:
    """A short mark of whose notebook this is, under the course's key (16 hex digits): the grader, who
    has the key, can tell whose it is; nobody else can make one for another student."""
    return _digest(key, "tag", who).hex()[:16]


def email_key(email: str) -> str:
    """An email as a variant's ``who``: case and surrounding spaces don't matter."""
    return email.strip().lower()


class Homework:
    """What :func:`homework` registered: shown as a table of each exercise's numbers (or what is missing)."""

    def __init__(self, chapter: str, numbers: Mapping[str, Mapping[str, Any]], who: str = "", problem: str = ""):
        self.chapter, self.numbers, self.who = chapter, {k: dict(v) for k, v in numbers.items()}, who
        self.problem = problem

    def _rows(self) -> list[tuple[str, str]]:
        return [(name.removeprefix("check_").replace("_", " "), describe(params)) for name, params in self.numbers.items()]

    def __repr__(self) -> str:
        if self.problem:
            return self.problem
        head = f"Homework numbers for {self.who}" if self.who else "Homework numbers"
        return "\n".join([f"{head} ({self.chapter}):"] + [f"  {name}: {text}" for name, text in self._rows()])

    def _repr_html_(self) -> str:
        if self.problem:
            return f"<p><b>{html.escape(self.problem)}</b></p>"
        head = f"Homework numbers for {html.escape(self.who)}" if self.who else "Homework numbers"
        rows = "".join(f"<tr><td>{html.escape(n)}</td><td>{html.escape(t)}</td></tr>" for n, t in self._rows())
        return f"<p><b>{head}</b> ({html.escape(self.chapter)})</p><table>{rows}</table>"


def homework(chapter: str, numbers: Mapping[str, Mapping[str, Any]] | None = None, *, email: str | None = None,
             salt: str | None = None, exercises: tuple[str, ...] | list[str] = (),
             avoid: Mapping[str, Any] | None = None) -> Homework | None:
    """Make this chapter's checkers judge at a course's homework numbers (see the module's docstring).

    Either ``numbers`` (checker name → parameters, as a course's notebook carries them) or ``email``,
    ``salt`` and ``exercises`` (the student's course email, the course's public salt and the chapter's
    checkers: the numbers are drawn here, and returned to be shown; ``avoid`` maps a checker to the
    combinations its chapter's text rules out, see :func:`variant`). An email not written yet (or not an
    email) registers nothing to judge at: the checks and :func:`question` then say what to do, and so
    does what this returns (it never raises for what a student types). Replaces what an earlier call
    registered for the same checkers.
    """
    if not isinstance(chapter, str) or not chapter:
        raise ValueError(f"chapter must be a chapter's name such as '03_laplace_mechanism' (got {chapter!r})")
    if (numbers is None) == (email is None):
        raise ValueError("give either numbers (a course's notebook) or email and salt (a shared notebook), not both")
    who = ""
    if email is not None:
        if not isinstance(salt, str) or not salt:
            raise ValueError(f"salt must be the course's salt as the notebook gives it (got {salt!r})")
        unknown = [name for name in exercises if name not in EXERCISES]
        if unknown:
            raise ValueError(f"exercises must be registered checkers' names (got {unknown[0]!r})")
        if not isinstance(email, str) or email.count("@") != 1 or len(email.split()) != 1:
            for name in exercises:
                _SESSION[name] = AWAITING
            said = f"{email!r} is not an email address. " if isinstance(email, str) and email.strip() else ""
            return Homework(chapter, {}, problem=said + NO_EMAIL)
        who = email_key(email)
        numbers = {name: variant(salt, who, chapter, name, (avoid or {}).get(name, ())) for name in exercises}
    for name, params in numbers.items():
        spec = EXERCISES.get(name)
        if spec is None or not isinstance(params, Mapping) or set(params) - set(spec.defaults):
            raise ValueError(f"numbers must map registered checkers to their parameters (got {name!r}: {params!r})")
    for name, params in numbers.items():
        _SESSION[name] = dict(params)
    return Homework(chapter, numbers, who) if email is not None else None


class Question:
    """An exercise's question at the registered homework numbers (Markdown in a notebook, text elsewhere)."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text

    def _repr_markdown_(self) -> str:
        return self.text


def question(name: str) -> Question:
    """Exercise ``name``'s question (its checker's name) at this notebook's homework numbers: what a shared
    notebook shows under each exercise, since its text cannot hold each student's numbers."""
    spec = EXERCISES.get(name)
    if spec is None:
        raise ValueError(f"name must be a registered exercise's checker (got {name!r})")
    numbers = _SESSION.get(name)
    if numbers is AWAITING:
        return Question(NO_EMAIL)
    return Question(spec.render(**(numbers or {})))


def forget() -> None:
    """Drop every registered homework (the checkers judge at the chapters' own numbers again)."""
    _SESSION.clear()
