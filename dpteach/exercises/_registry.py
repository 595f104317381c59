"""The registry of exercises: each checker's prompt, precision and homework alternatives (:data:`EXERCISES`),
and the homework numbers a course's notebook registers, at which its checkers then judge.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._text import power_text
from ._feedback import Feedback, Mistake, choice_list, live_mistakes, recording

KINDS = ("value", "choice", "function")

class _PromptFormatter(string.Formatter):
    """``str.format`` with one more spec, ``pow10``: a small number such as a δ as the prose writes it
    (10⁻⁶, 3.2·10⁻⁷; never 1e-06)."""

    def format_field(self, value, format_spec):
        return power_text(value) if format_spec == "pow10" else super().format_field(value, format_spec)


_PROMPTS = _PromptFormatter()


@dataclass(frozen=True)
class ExerciseSpec:
    """One exercise as a chapter shows it and a homework varies it.

    ``prompt`` is the text after the chapter's bold label "**Exercise N (title).**", a
    ``str.format`` template over the checker's keyword parameters (plus the spec ``pow10``, which writes a
    δ as 10⁻⁶); ``defaults`` are those
    parameters' defaults (the chapter's worked numbers); ``homework`` maps a parameter to
    alternative values (none equal to the default), every combination of which is a well-posed
    exercise with another answer; ``figures`` is the number of significant figures a numeric
    answer must have (None: an exact answer, a whole number). A multiple-choice exercise lists its
    ``choices`` (letter → text), which the prompt shows where it says ``{options}``, in the order its
    checker's ``order`` parameter gives (a homework shuffles them). ``few_answers`` says why a numeric
    exercise's homework cannot have many distinct answers (a whole number with a small range), where
    that is so; otherwise its combinations give at least 40 answers that differ at its precision (so that 200
    students drawn at random see at least 20).
    """

    name: str
    checker: Callable[..., Feedback]
    kind: str
    prompt: str
    defaults: Mapping[str, Any]
    homework: Mapping[str, tuple]
    figures: int | None
    title: str | None
    choices: Mapping[str, str] | None = None
    few_answers: str | None = None

    def render(self, **params) -> str:
        """The prompt at ``params`` (the defaults fill in the rest)."""
        unknown = sorted(set(params) - set(self.defaults))
        if unknown:
            raise ValueError(f"params must be among {sorted(self.defaults)} for {self.name} (got {unknown})")
        values = {**self.defaults, **params}
        if self.choices is not None:
            values["options"] = choice_list(self.choices, values.get("order"))
        return _PROMPTS.format(self.prompt, **values)

    def variants(self) -> list[dict[str, Any]]:
        """Every homework combination: one value of each parameter in ``homework``."""
        names = list(self.homework)
        return [dict(zip(names, values)) for values in itertools.product(*(self.homework[n] for n in names))]

    def _recorded(self, params: Mapping[str, Any]) -> dict:
        if self.kind != "value":
            raise ValueError(f"only a numeric exercise has an expected value; {self.name} is a {self.kind} exercise")
        with recording() as calls:
            self.checker(None, **params)
        return calls[-1]

    def expected(self, **params) -> float:
        """The right answer at ``params`` (numeric exercises), computed by the checker itself."""
        return self._recorded(params)["expected"]

    def mistakes(self, **params) -> list[Mistake]:
        """The known mistakes the checker diagnoses at ``params`` (those it can tell from the answer)."""
        recorded = self._recorded(params)
        return live_mistakes(recorded["expected"], recorded["mistakes"], recorded["figures"])


#: Every exercise of the workbook, keyed by its checker's name.
EXERCISES: dict[str, ExerciseSpec] = {}


def exercise(prompt: str, homework: Mapping[str, Sequence] | None = None, figures: int | None = None,
             title: str | None = None, kind: str = "value", choices: Mapping[str, str] | None = None,
             few_answers: str | None = None) -> Callable:
    """Register a checker as an exercise (see :class:`ExerciseSpec`); returns the checker unchanged.

    A numeric prompt ends with its precision sentence: "Give n significant figures." when
    ``figures = n``, "Give a whole number." when the answer is exact (``figures = None``).
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS} (got {kind!r})")
    if figures is not None and (isinstance(figures, bool) or not isinstance(figures, int) or not 2 <= figures <= 6):
        raise ValueError(f"figures must be None or a whole number in [2, 6] (got {figures!r})")

    def register(checker: Callable[..., Feedback]) -> Callable[..., Feedback]:
        parameters = inspect.signature(checker).parameters
        defaults = {name: p.default for name, p in parameters.items() if p.default is not inspect.Parameter.empty}
        alternatives = {name: tuple(values) for name, values in (homework or {}).items()}
        for name, values in alternatives.items():
            if name not in defaults:
                raise ValueError(f"homework parameter {name!r} of {checker.__name__} must be one of its keyword "
                                 f"parameters {sorted(defaults)}")
            if not values or any(_equal(value, defaults[name]) for value in values):
                raise ValueError(f"homework values of {name!r} in {checker.__name__} must be non-empty and differ "
                                 f"from the default {defaults[name]!r} (got {values!r})")
        if kind == "value":
            sentence = "Give a whole number." if figures is None else f"Give {figures} significant figures."
            if not prompt.rstrip().endswith(sentence):
                raise ValueError(f"the prompt of {checker.__name__} must end with {sentence!r}")
        if (choices is not None) != (kind == "choice" and "{options}" in prompt):
            raise ValueError(f"{checker.__name__}: a choice exercise lists its choices and shows them as {{options}} "
                             "in its prompt; no other exercise has choices")
        spec = ExerciseSpec(name=checker.__name__, checker=checker, kind=kind, prompt=prompt,
                            defaults=defaults, homework=alternatives, figures=figures, title=title,
                            choices=dict(choices) if choices is not None else None, few_answers=few_answers)
        spec.render()       # the template fills from the defaults
        EXERCISES[spec.name] = spec
        if not alternatives:
            return checker
        @functools.wraps(checker)
        def check(*args, **kwargs):
            return judged(checker, args, kwargs)
        return check      # at a course's homework numbers, when a course's notebook registered them

    return register


def _equal(a, b) -> bool:
    try:
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    except Exception:
        return a == b


# -- a course's homework numbers, registered by its notebook (see :mod:`.variants`) ---------------------

#: What the checkers of the session's homework judge at: checker name → its parameters.
_SESSION: dict[str, dict[str, Any]] = {}

#: Registered for a shared notebook's checkers until its email is written: they say so instead of judging.
AWAITING = {"__awaiting_email__": True}
#: What a check and a question say while the email is missing.
NO_EMAIL = ("Write your course email between the quotes in the first code cell and run that cell: your homework's "
            "numbers are drawn from it.")


def describe(params: Mapping[str, Any]) -> str:
    """Parameters as a student reads them: ``k = 4, epsilon = 0.8``."""
    return ", ".join(f"{k} = {v:g}" if isinstance(v, float) else f"{k} = {v}" for k, v in params.items()) or "—"


def judged(checker, args: tuple, kwargs: dict) -> Feedback:
    """Call ``checker`` as the session's homework says (see :func:`homework`)."""
    numbers = _SESSION.get(checker.__name__)
    if numbers is None:
        return checker(*args, **kwargs)
    if numbers is AWAITING:
        return Feedback(None, NO_EMAIL)
    spec = EXERCISES[checker.__name__]
    given = {k: v for k, v in kwargs.items() if k in spec.defaults}
    if not given:
        return checker(*args, **{**kwargs, **numbers})
    asked = {**spec.defaults, **numbers}
    if all(_equal(value, asked[name]) for name, value in given.items()):
        return checker(*args, **kwargs)
    verdict = checker(*args, **kwargs)
    if not isinstance(verdict, Feedback):
        return verdict
    return Feedback(verdict.correct, f"(practice at other numbers than your homework's, which are {describe(numbers)}: "
                                     f"this is not your grade) {verdict.message}")
