"""The machinery every exercise checker shares: a verdict, numeric answers that recognise the
common mistakes, multiple-choice questions, and functions the student writes.

A checker takes the student's answer and returns a :class:`Feedback`, which shows as a
coloured box in a notebook and as one line of text elsewhere. The expected answer is
computed with dpteach itself (by enumeration or by formula), never typed in.

A wrong answer is compared with the answers that the usual mistakes produce (log10 for ln,
forgetting to divide by ε, the variance b² for 2b², …), so the feedback can name the mistake
instead of only saying "incorrect". A wrong message never prints the expected value.

Every numeric answer is judged by one precision rule, stated in its prompt: right to n
significant figures (:func:`tolerance`), or exact for whole numbers. Every exercise is
registered in :data:`EXERCISES` (its prompt, its precision, and the parameter values a homework
may use instead of the chapter's), and a function the student writes can be run here or, through
``run_cases``, in a sandboxed grading process (:func:`check_function`).
"""

from __future__ import annotations

import html
import inspect
import itertools
import math
import numbers
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._text import power_text

PLACEHOLDER = "Not answered yet: replace ... (or None) with your answer and run the cell again."


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer: correct (True), wrong (False) or not answered yet (None)."""

    correct: bool | None
    message: str

    def __repr__(self) -> str:
        mark = {True: "✅ Correct", False: "❌ Not quite", None: "✏️ Your turn"}[self.correct]
        return f"{mark}: {self.message}"

    def __bool__(self) -> bool:
        return bool(self.correct)

    def _repr_html_(self) -> str:
        colour = {True: "#009E73", False: "#D55E00", None: "#0072B2"}[self.correct]
        return (f"<div style='border-left:6px solid {colour};padding:6px 12px;margin:4px 0;"
                f"background:{colour}14'>{html.escape(repr(self))}</div>")


@dataclass(frozen=True)
class Mistake:
    """A wrong answer that a known mistake produces, and what to tell the student who gives it.

    ``value`` is computed the wrong way by the checker (e.g. with ``math.log10`` where the
    theorem has ``ln``); ``message`` names the mistake without giving the right answer away.
    """

    value: float
    message: str


def _looks_numeric(text: str) -> bool:
    try:
        float(text.strip().replace("_", ""))
    except ValueError:
        return False
    return True


def as_number(answer) -> float | None | Feedback:
    """The answer as a finite float; None if not answered yet; a ❌ Feedback if it is no number."""
    if answer is None or answer is Ellipsis:
        return None
    if isinstance(answer, str) and _looks_numeric(answer):
        return Feedback(False, f"the answer should be a number, and {answer!r} is text (in quotes): write the "
                               "number itself, without quotes, and run the cell again.")
    if isinstance(answer, bool) or not isinstance(answer, numbers.Real):
        return Feedback(False, f"the answer should be a number, got {answer!r}.")
    value = float(answer)
    if not math.isfinite(value):
        return Feedback(False, f"the answer should be a finite number, got {answer!r}.")
    return value


def tolerance(expected: float, figures: int) -> float:
    """Half a unit in the ``figures``-th significant figure of ``expected``, plus float slack.

    An answer is right to n significant figures iff |answer − expected| ≤ tolerance(expected, n):
    ½·10^(floor(log10|expected|) − n + 1), so 23 is right to 3 figures for 23.03 (½·10^(1 − 3 + 1)
    = 0.05). The slack, 10⁻¹² relative, absorbs floating-point rounding of the expected value.
    """
    size = abs(float(expected))
    if size == 0:
        return 1e-12
    exponent = math.floor(math.log10(size))
    if 10.0 ** (exponent + 1) <= size:     # log10 rounded down across a power of ten
        exponent += 1
    elif 10.0 ** exponent > size:
        exponent -= 1
    return 0.5 * 10.0 ** (exponent - figures + 1) + 1e-12 * size


def _agrees(value: float, expected: float, figures: int | None) -> bool:
    if figures is None:
        return math.isclose(value, expected, rel_tol=1e-9, abs_tol=1e-12)
    return abs(value - expected) <= tolerance(expected, figures)


#: Recorders of the comparisons made while they are active (see :func:`recording`).
_RECORDERS: list[list[dict]] = []


@contextmanager
def recording():
    """Collect what every :func:`compare` called inside the block was given.

    Yields a list that receives, per call, ``{"expected": …, "figures": …, "mistakes": [...]}``.
    :class:`ExerciseSpec` uses it to read an exercise's expected value and known mistakes at any
    parameters without repeating the checker's arithmetic.
    """
    calls: list[dict] = []
    _RECORDERS.append(calls)
    try:
        yield calls
    finally:
        _RECORDERS.remove(calls)


def compare(answer, expected: float, why: str, hint: str, figures: int | None = None,
            mistakes: Iterable[Mistake] = ()) -> Feedback:
    """✅ with ``why`` if ``answer`` agrees with ``expected`` to ``figures`` significant figures.

    The precision rule (one for every exercise): with ``figures = n`` an answer is right iff
    |answer − expected| ≤ ½·10^(floor(log10|expected|) − n + 1) (see :func:`tolerance`). An answer
    right to n − 1 figures but not n is told so ("close … give more digits") and never gets a
    mistake's diagnosis. ``figures = None`` asks for an exact answer (a whole number, a count):
    equal up to floating-point rounding. A wrong answer is looked up among ``mistakes`` (each
    matched at the n-figure tolerance of its own value); mistakes within the (n − 1)-figure
    tolerance of the expected value are dropped, since they would collide with "close". Else the
    generic ``hint``. Neither message shows the expected value.
    """
    mistakes = list(mistakes)
    expected = float(expected)
    for calls in _RECORDERS:
        calls.append({"expected": expected, "figures": figures, "mistakes": mistakes})
    value = as_number(answer)
    if value is None:
        return Feedback(None, PLACEHOLDER)
    if isinstance(value, Feedback):
        return value
    if _agrees(value, expected, figures):
        return Feedback(True, why)
    if figures is not None and _agrees(value, expected, figures - 1):
        return Feedback(False, f"close: right to {figures - 1} significant figures but not to {figures} — "
                               "give more digits.")
    named = matching_mistake(value, expected, mistakes, figures)
    if named is not None:
        return Feedback(False, f"{value:g} is not it: {named}")
    return Feedback(False, f"{value:g} is not it. {hint}")


def live_mistakes(expected: float, mistakes: Iterable[Mistake], figures: int | None) -> list[Mistake]:
    """The mistakes that can be diagnosed: those not within the (n − 1)-figure tolerance of ``expected``
    (or, for exact answers, not equal to it). A mistake that gives the right answer on this case is
    no mistake here."""
    near = figures - 1 if figures is not None else None
    return [m for m in mistakes if not _agrees(float(m.value), expected, near)]


def matching_mistake(value: float, expected: float, mistakes: Iterable[Mistake], figures: int | None = None) -> str | None:
    """The message of the live known mistakes (see :func:`live_mistakes`) whose value ``value`` agrees
    with to ``figures`` significant figures (exactly when None), or None. When two mistakes give the
    same number here, both are named ("… Or: …")."""
    named: list[str] = []
    for mistake in live_mistakes(expected, mistakes, figures):
        if _agrees(value, float(mistake.value), figures) and mistake.message not in named:
            named.append(mistake.message)
    if not named:
        return None
    return " Or: ".join(named)


def check_choice(answer, options: Mapping[str, tuple[bool, str]], question: str = "", order: str | None = None) -> Feedback:
    """A multiple-choice question: ``options`` maps each letter to (is it right, what to say).

    Every option carries its own feedback, so a wrong choice says *why* it is wrong. ``order`` (a
    permutation of the letters, see :func:`choice_list`) is the order the prompt shows them in: the
    student's letter names the option shown at that place (with order "cab", answering "a" picks "c").
    """
    if answer is None or answer is Ellipsis:
        return Feedback(None, PLACEHOLDER)
    letter = str(answer).strip().strip("()").lower()
    shown = _shown_letters(options, order)
    if letter not in shown:
        choices = ", ".join(f"'{key}'" for key in shown)
        return Feedback(False, f"answer with one of {choices}, got {answer!r}.")
    right, message = options[shown[letter]]
    return Feedback(right, message)


def _shown_letters(options: Mapping[str, Any], order: str | None) -> dict[str, str]:
    """Each letter the student sees, mapped to the option's own key."""
    keys = list(options)
    if order is None:
        return {key.lower(): key for key in keys}
    if sorted(order) != sorted(keys):
        raise ValueError(f"order must be a permutation of {''.join(keys)!r} (got {order!r})")
    return {shown.lower(): original for shown, original in zip(keys, order)}


def choice_list(choices: Mapping[str, str], order: str | None = None) -> str:
    """The options of a multiple-choice prompt as a Markdown list, "- (a) …", in ``order``.

    ``order`` is a permutation of the options' own letters: the option shown as (a) is ``order[0]``'s,
    and so on, so a homework can shuffle the options while its checker (given the same ``order``)
    still knows which one is right.
    """
    keys = list(choices)
    order = "".join(keys) if order is None else order
    if sorted(order) != sorted(keys):
        raise ValueError(f"order must be a permutation of {''.join(keys)!r} (got {order!r})")
    return "\n".join(f"- ({shown}) {choices[original]}" for shown, original in zip(keys, order))


def orders(keys: str) -> tuple[str, ...]:
    """Every order of the letters ``keys`` but their own: a choice exercise's homework shuffles."""
    return tuple("".join(p) for p in itertools.permutations(keys) if "".join(p) != keys)


@dataclass(frozen=True)
class Case:
    """One hidden test case for a function the student writes.

    ``args``/``kwargs`` are passed to the student's function; ``expected`` is what the
    reference gives (computed by the checker with dpteach); ``label`` says in words what the
    case exercises, and is what the student is told when it fails.
    """

    label: str
    args: tuple = ()
    kwargs: Mapping[str, Any] | None = None
    expected: Any = None


class _ForbiddenCall(Exception):
    """Raised inside a check when the student's function calls the dpteach function it should write."""


def to_plain(value):
    """``value`` as plain data: None, bool, int, float, str, numeric/bool numpy arrays, and lists,
    tuples and dicts of these (numpy scalars become Python numbers). What a runner returns, and
    what a grading process may send back from a student's function. Raises TypeError otherwise."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biuf":
            raise TypeError(f"an array of dtype {value.dtype} is not a numeric array")
        return np.array(value)
    if isinstance(value, (list, tuple)):
        return type(value)(to_plain(item) for item in value)
    if isinstance(value, dict):
        return {str(key): to_plain(item) for key, item in value.items()}
    if isinstance(value, numbers.Real):
        return float(value)
    raise TypeError(f"a {type(value).__name__} is not a number or an array")


def run_in_process(function, cases: Sequence[Case], runner: Callable | None = None,
                   forbidden: Sequence[str] = ()):
    """Yield ``(status, value)`` per case, running ``function`` here, as a grading process would there.

    ``("ok", plain data)`` | ``("error", "TypeError: msg")`` | ``("forbidden", name)``. While the cases
    run, each ``dpteach.<name>`` in ``forbidden`` raises instead of computing. The caller may stop
    early; the dpteach names are restored when the generator ends or is closed.
    """
    import dpteach
    saved = {name: getattr(dpteach, name) for name in forbidden if hasattr(dpteach, name)}

    def refuse(name):
        def call(*args, **kwargs):
            raise _ForbiddenCall(name)
        return call

    try:
        for name in saved:
            setattr(dpteach, name, refuse(name))
        for case in cases:
            try:
                if runner is None:
                    got = function(*case.args, **(case.kwargs or {}))
                else:
                    got = runner(function, *case.args, **(case.kwargs or {}))
                outcome = ("ok", to_plain(got))
            except _ForbiddenCall as called:
                outcome = ("forbidden", str(called))
            except Exception as error:   # the student's code: any error is feedback, never a traceback
                outcome = ("error", f"{type(error).__name__}: {error}")
            yield outcome
    finally:
        for name, value in saved.items():
            setattr(dpteach, name, value)


def check_function(function, cases: Sequence[Case], task: str, success: str,
                   same: Callable[[Any, Any], bool] | None = None,
                   forbidden: Sequence[str] = (), describe: Callable[[Case, Any], str] | None = None,
                   runner: Callable | None = None) -> Feedback:
    """Run the student's ``function`` on hidden ``cases``; say which case fails, and how.

    ``runner`` (None, or a module-level function ``runner(function, *args, **kwargs)`` returning plain
    data, see :func:`to_plain`) runs one case; without it the case is the call ``function(*args,
    **kwargs)``. ``same(got, expected)`` decides a case on what the runner (or the call) returned
    (default: numbers equal to 1e-9 relative, arrays elementwise), and ``describe(case, got)`` may
    explain a failure further. ``forbidden`` names dpteach functions the student must not call (the
    ones the exercise asks them to write): in this process ``dpteach.<name>`` raises while the cases
    run, and the feedback says so.

    A ``function`` with a ``run_cases`` attribute (a student's function held in a sandboxed grading
    process) is not called here: ``function.run_cases(cases, runner, forbidden)`` returns, in the
    order of ``cases`` (and may stop early), one ``(status, value)`` per case run: ``("ok", plain
    data)``, ``("error", "TypeError: msg")``, ``("forbidden", name)``, ``("timeout", "")`` or
    ``("memory", "")``; they are judged exactly as outcomes in this process are.
    """
    if function is None or function is Ellipsis or _is_stub(function):
        return Feedback(None, f"Not answered yet: write {task} and run the cell again.")
    sandboxed = hasattr(function, "run_cases")
    if not sandboxed and not callable(function):
        return Feedback(False, f"the answer should be a function (def ...), got {function!r}.")
    same = same or _same
    if sandboxed:
        outcomes = iter(function.run_cases(cases, runner, tuple(forbidden)))
    else:
        outcomes = run_in_process(function, cases, runner, tuple(forbidden))
    judged = 0
    try:
        for number, (case, (status, got)) in enumerate(zip(cases, outcomes), 1):
            judged = number
            where = f"case {number} of {len(cases)} ({case.label})"
            if status == "forbidden":
                return Feedback(False, f"your function calls dp.{got}, which is what this exercise asks you to "
                                       "write yourself: use numpy and the formula.")
            if status == "error":
                return Feedback(False, f"{where} raised {got}")
            if status == "timeout":
                return Feedback(False, f"{where} took longer than the time limit: look for a loop that never ends "
                                       "or far more work than the case needs.")
            if status == "memory":
                return Feedback(False, f"{where} used more memory than the limit: look for an array far larger "
                                       "than the case needs.")
            if status != "ok":
                return Feedback(False, f"{where} could not be run ({status}).")
            try:
                ok = bool(same(got, case.expected))
            except Exception:
                ok = False
            if not ok:
                try:
                    extra = describe(case, got) if describe else ""
                except Exception:
                    extra = ""
                if isinstance(got, dict):
                    return Feedback(False, f"{where}: {extra or 'not right.'}")
                return Feedback(False, f"{where} gave {_short(got)}, which is not right.{' ' + extra if extra else ''}")
    finally:
        close = getattr(outcomes, "close", None)
        if close is not None:
            close()
    if judged < len(cases):
        return Feedback(False, f"only {judged} of the {len(cases)} hidden cases could be run.")
    return Feedback(True, f"all {len(cases)} hidden cases pass. {success}")


def _same(got, expected) -> bool:
    got_array = np.asarray(got, dtype=float)
    expected_array = np.asarray(expected, dtype=float)
    return got_array.shape == expected_array.shape and bool(
        np.allclose(got_array, expected_array, rtol=1e-9, atol=1e-12, equal_nan=False))


def _is_stub(function) -> bool:
    """True for the chapter's stub as given: a ``def`` whose body is only ``...`` (and a docstring).

    The source is the sandbox's (``function.source``) or, in a notebook, the one the cell registered;
    without a source the function is judged on its cases.
    """
    import ast
    import textwrap

    name = getattr(function, "__name__", None)
    source = getattr(function, "source", None)
    if not isinstance(source, str):
        try:
            source = textwrap.dedent(inspect.getsource(function))
        except (OSError, TypeError):
            return False
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            body = [n for n in node.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
                                                and isinstance(n.value.value, str))]
            return (len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and body[0].value.value is Ellipsis)
    return False


def _short(value) -> str:
    """A student's output as a student would write it: numbers plainly (9.39, not np.float64(9.39))."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return f"{float(value):.6g}"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def strict_check(checker: Callable[..., Feedback], *args, **kwargs) -> Feedback:
    """Run ``checker`` as a grader does: as in the notebook, and stricter about forbidden calls.

    In the notebook, :func:`check_function` refuses a student's function that calls the dpteach
    function it should write as ``dp.<name>(...)``. A grader also refuses one that reaches it under
    another name (``from dpteach import <name>``, ``f = dp.<name>``, a default argument, a helper
    of the student's that calls it): before the hidden cases run, the function's code (and that of
    the student's functions it calls) is read for the forbidden names. The feedback is otherwise
    the checker's own, word for word.
    """
    namespace = getattr(checker, "__globals__", {})
    inner = namespace.get("check_function")
    if inner is None:
        return checker(*args, **kwargs)

    def scanning(function, cases, task, success, same=None, forbidden=(), describe=None, runner=None):
        reached = _reaches_forbidden(function, forbidden) if callable(function) else None
        if reached:
            return Feedback(False, f"your function calls dp.{reached}, which is what this exercise asks you to "
                                   "write yourself: use numpy and the formula.")
        return inner(function, cases, task, success, same=same, forbidden=forbidden, describe=describe,
                     runner=runner)

    namespace["check_function"] = scanning
    try:
        return checker(*args, **kwargs)
    finally:
        namespace["check_function"] = inner


def _reaches_forbidden(function, forbidden: Sequence[str]) -> str | None:
    """The forbidden dpteach name that ``function`` reaches (directly or through the student's helpers), or None."""
    import dis
    import types

    import dpteach
    originals = {id(getattr(dpteach, name)): name for name in forbidden if hasattr(dpteach, name)}
    seen: set[int] = set()

    def visit(obj) -> str | None:
        if id(obj) in originals:
            return originals[id(obj)]
        if isinstance(obj, types.MethodType):
            obj = obj.__func__
        if not isinstance(obj, types.FunctionType) or id(obj) in seen:
            return None
        if (obj.__module__ or "").startswith("dpteach"):
            return None
        seen.add(id(obj))
        bound = list(obj.__defaults__ or ()) + list((obj.__kwdefaults__ or {}).values())
        bound += [cell.cell_contents for cell in (obj.__closure__ or ()) if _has_contents(cell)]
        for value in bound:
            found = visit(value)
            if found:
                return found
        codes = [obj.__code__]
        while codes:
            code = codes.pop()
            codes.extend(const for const in code.co_consts if isinstance(const, types.CodeType))
            for instruction in dis.get_instructions(code):
                name = instruction.argval
                if not isinstance(name, str):
                    continue
                if instruction.opname in ("LOAD_ATTR", "LOAD_METHOD", "IMPORT_FROM") and name in forbidden:
                    return name
                if instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME") and name in obj.__globals__:
                    found = visit(obj.__globals__[name])
                    if found:
                        return found
        return None

    return visit(function)


def _has_contents(cell) -> bool:
    try:
        _ = cell.cell_contents
    except ValueError:   # an empty cell: a name the function closes over, not assigned yet
        return False
    return True


# -- the registry of exercises ------------------------------------------------------------------------

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
    that is so; otherwise its combinations give at least 20 answers that differ at its precision.
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
        return checker

    return register


def _equal(a, b) -> bool:
    try:
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    except Exception:
        return a == b
