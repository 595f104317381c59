"""The checkers as graders that can't be fooled (issue 19, part 2).

Every registered numeric checker, at its defaults and at a fixed sample of its homework combinations
(at most 24: the first, the last, and the rest drawn by numpy.random.default_rng(0)), is run over
many wrong answers (each registered mistake, ×/÷ 10, ±1, the negation, off by 1%, 5% and 30%):
none passes, and no message gives the expected value away (in any format) or names a dpteach call
that computes it. Answers at exactly the stated precision pass. Function checkers fail the wrong
implementations a student would write, naming the property broken, and they judge outcomes from a
sandboxed grading process (a fake one here) exactly as outcomes in this process.
"""

from __future__ import annotations

import math
import pickle
import re

import numpy as np
import pytest
from helpers import sensitivity_by_enumeration

import dpteach as dp
from dpteach import exercises as ex
from dpteach.exercises._feedback import matching_mistake, recording, rounded_too_early, significant_figures, tolerance

VALUES = [spec for spec in ex.EXERCISES.values() if spec.kind == "value"]

#: dpteach functions that compute an exercise's answer: a wrong message never names one as ``dp.<name>``.
COMPUTING = sorted(name for name in dp.prelude.__all__ if callable(getattr(dp, name)))


def significant(text: str) -> int:
    """How many significant digits a printed number has ("0.0120" has 3, "2" has 1)."""
    mantissa = re.split(r"[eE]", text)[0].replace(",", "").lstrip("-").replace(".", "").lstrip("0")
    return len(mantissa)


def formats(value: float) -> set[str]:
    """The ways a message could print ``value`` to 2–6 significant figures: with and without trailing
    zeros, :g, repr, fixed decimals, and with thousands separators."""
    shown = {f"{value:g}", repr(value), repr(float(value))}
    for n in range(2, 7):
        shown |= {f"{value:.{n}g}", f"{value:#.{n}g}".rstrip("."), f"{value:,.{n}g}", f"{value:,.{n}f}",
                  f"{value:.{n}f}"}
    if float(value).is_integer():
        shown |= {str(int(value)), f"{int(value):,}"}
    for decimals in range(0, 5):
        shown |= {f"{value:.{decimals}f}", f"{value:,.{decimals}f}"}
    return {text for text in shown if significant(text) >= 2}


#: Section numbers of the book, which are not answers: "Theorem 3.8", "Fact 3.7", …
CITATION = re.compile(r"(Theorem|Fact|Definition|Example|Claim|Corollary|Lemma)\s+$")


def _pattern(value: float) -> re.Pattern:
    alternatives = "|".join(re.escape(text) for text in sorted(formats(value), key=len, reverse=True))
    return re.compile(rf"(?<![\w.,\-−^/])(?:{alternatives})(?![\w²³]|[.,]\d)")


def shows(message: str, value: float, pattern: re.Pattern | None = None) -> str | None:
    """The format of ``value`` that ``message`` prints as a number of its own (not part of a longer
    number, a word, a formula like 2b², or a citation like Theorem 3.8), or None. A single-digit whole
    value (2, Δf = 4, …) counts only where the message states it: "= 2", "is 2", "be 2"."""
    for found in (pattern or _pattern(value)).finditer(message):
        if not CITATION.search(message[:found.start()]):
            return found.group(0)
    if float(value).is_integer() and abs(value) < 10:
        digit = str(int(value))
        stated = re.search(rf"(=|\bis|\bbe)\s+{re.escape(digit)}(?![\w²³]|[.,]\d)", message)
        if stated:
            return stated.group(0)
    return None


def test_shows_finds_the_value_in_every_format_and_only_as_a_number():
    assert shows("the bound is 23.03 here", 23.02585) == "23.03"
    assert shows("about 23", 23.02585) == "23"
    assert shows("k = 1,000,000 counts", 1e6) == "1,000,000"
    assert shows("it is 0.1175 or so", 0.117503) == "0.1175"
    assert shows("23.2561 is not it", 23.02585) is None          # a longer number
    assert shows("the variance 2b² of Lap(b)", 2.0) is None       # a formula
    assert shows("-23.0259 is not it", 23.02585) is None          # the student's own negated answer
    assert shows("Theorem 3.8 uses ln", 3.8) is None               # a citation
    assert shows("you added the 4 standard deviations", 4.0) is None
    assert shows("so Δf = 4 here", 4.0) == "= 4"


def wrong_answers(expected: float, mistakes) -> list[float]:
    candidates = [float(m.value) for m in mistakes]
    candidates += [expected * 10, expected / 10, expected + 1, expected - 1, -expected]
    candidates += [expected * f for f in (1.01, 0.99, 1.05, 0.95, 1.3, 0.7)]
    return candidates


def is_right(value: float, expected: float, figures: int | None) -> bool:
    if figures is None:
        return math.isclose(value, expected, rel_tol=1e-9, abs_tol=1e-12)
    return abs(value - expected) <= tolerance(expected, figures)


def test_every_checker_is_registered_with_a_well_formed_spec():
    import inspect
    checkers = {name for name, value in inspect.getmembers(ex, inspect.isfunction)
                if name.startswith("check_") and name not in ("check_choice", "check_function")}
    checkers |= {name for name in ex.__all__ if name.startswith("check_") and name not in ("check_choice",
                                                                                           "check_function")}
    assert checkers == set(ex.EXERCISES), checkers ^ set(ex.EXERCISES)
    assert len(ex.EXERCISES) >= 33
    for spec in ex.EXERCISES.values():
        assert spec.kind in ("value", "choice", "function")
        assert "{" not in spec.render() and "}" not in spec.render()
        for params in [{}, *spec.variants()]:       # numbers as the prose writes them: 10⁻⁶, never 1e-06
            assert not re.search(r"\de[-+]?\d", spec.render(**params)), (spec.name, params, spec.render(**params))
        for name, values in spec.homework.items():
            assert values and all(v != spec.defaults[name] for v in values), (spec.name, name)
            shown = "{options}" if name == "order" and spec.choices else "{" + name   # the order is the list's
            assert shown in spec.prompt, f"{spec.name}: homework parameter {name} does not appear in the prompt"
        if spec.kind == "value":
            sentence = "Give a whole number." if spec.figures is None else f"Give {spec.figures} significant figures."
            assert spec.prompt.endswith(sentence), spec.name
        elif spec.kind == "choice":      # a homework shuffles the options, and nothing else
            assert spec.figures is None and set(spec.homework) <= {"order"} and spec.choices
        else:
            assert spec.figures is None and not spec.homework
    with pytest.raises(ValueError, match="params must be among"):
        ex.EXERCISES["check_accuracy_bound"].render(delta=0.1)


def test_the_chapter_05_checkers_call_the_failure_probability_beta():
    assert "beta" in ex.EXERCISES["check_accuracy_bound"].defaults
    assert "delta" not in ex.EXERCISES["check_accuracy_bound"].defaults


@pytest.mark.parametrize("check, answer", [
    (ex.check_accuracy_bound, 23),                      # 23.03
    (ex.check_laplace_delta, 0.118),                    # 0.1175
    (ex.check_generalized_gaussian_variance, 1.35),     # 1.352
    (ex.check_epsilon_for_std, 0.141),                  # 0.1414
    (ex.check_above_threshold_alpha, 170),              # 169.5
])
def test_the_issues_answers_right_to_three_figures_pass(check, answer):
    assert check(answer).correct is True


def keeps_mistakes_apart(spec, params) -> None:
    """The combination has an answer of its own (off the default's by more than the stated precision),
    the checker states the registered precision, and no known mistake falls within the (n − 1)-figure
    tolerance of the answer unless it IS the answer there (two formulas that coincide, e.g. at ε = 1):
    such a mistake is never diagnosed, and a wrong method never passes as 'close' or right."""
    with recording() as calls:
        spec.checker(None, **params)
    (call,) = calls
    expected, figures = call["expected"], call["figures"]
    assert figures == spec.figures
    assert math.isfinite(expected)
    if params:
        default = spec.expected()
        assert not is_right(expected, default, figures) and expected != default, (params, expected, default)
    for mistake in call["mistakes"]:
        value = float(mistake.value)
        coincides = math.isclose(value, expected, rel_tol=1e-9, abs_tol=1e-12)
        near = figures is not None and abs(value - expected) <= tolerance(expected, figures - 1)
        assert coincides or not near, f"{params}: {mistake.message!r} gives {value!r}, too close to {expected!r}"


def refuses_wrong_answers_without_the_answer(spec, params) -> None:
    """Each wrong answer fails; no message shows the expected value or names a dpteach call; an answer
    right to n − 1 figures only is told 'close' and nothing else."""
    expected = spec.expected(**params)
    pattern = _pattern(expected)
    for wrong in wrong_answers(expected, spec.mistakes(**params)):
        if is_right(wrong, expected, spec.figures):
            continue
        verdict = spec.checker(wrong, **params)
        assert verdict.correct is False, (params, wrong, verdict)
        message = verdict.message
        leaked = shows(message, expected, pattern)
        assert leaked is None, f"{params}, {wrong!r}: the message shows the answer as {leaked!r}: {message}"
        assert "dp." not in message, f"{params}, {wrong!r}: the message names a dpteach call: {message}"
        named = matching_mistake(wrong, expected, spec.mistakes(**params), spec.figures) is not None
        assert message.startswith("close:") == (not named and bool(rounded_too_early(wrong, expected, spec.figures))), \
            message


def accepts_the_stated_precision(spec, params) -> None:
    """The answer rounded to n figures, and anything within half a unit of the n-th figure, passes;
    beyond the (n − 1)-figure tolerance fails; in between is 'close'."""
    expected = spec.expected(**params)
    n = spec.figures
    if n is None:
        assert spec.checker(expected, **params).correct is True
        assert spec.checker(int(round(expected)), **params).correct is True
        return
    rounded = float(f"{expected:.{n}g}")
    tol = tolerance(expected, n)
    for right in (expected, rounded, expected + 0.99 * tol, expected - 0.99 * tol):
        assert spec.checker(right, **params).correct is True, (params, right, expected)
    for off in (expected + 1.01 * tolerance(expected, n - 1), expected - 1.01 * tolerance(expected, n - 1)):
        assert spec.checker(off, **params).correct is False, (params, off, expected)
    near = spec.checker(expected + 3 * tol, **params)            # near, but not the answer rounded: wrong, not close
    assert near.correct is False and not near.message.startswith("close"), (params, near)
    early = float(f"{expected:.{n - 1}g}")                      # the answer rounded to n − 1 figures
    if not is_right(early, expected, n) and significant_figures(early) == n - 1 and \
            matching_mistake(early, expected, spec.mistakes(**params), n) is None:
        said = spec.checker(early, **params)
        assert said.correct is False and said.message.startswith("close:") and f"give {n}." in said.message


#: How many homework combinations of an exercise the adversarial checks run (besides the defaults).
SAMPLED = 24


def sampled_variants(spec) -> list[dict]:
    """At most SAMPLED of ``spec.variants()``: all of them when there are no more, else the first, the last,
    and SAMPLED − 2 others drawn without replacement by numpy.random.default_rng(0), in their order (the same
    sample every run)."""
    variants = spec.variants()
    if len(variants) <= SAMPLED:
        return variants
    drawn = np.random.default_rng(0).choice(np.arange(1, len(variants) - 1), size=SAMPLED - 2, replace=False)
    return [variants[0], *(variants[i] for i in sorted(drawn)), variants[-1]]


def test_the_sample_is_fixed_and_keeps_both_ends():
    spec = max(VALUES, key=lambda s: len(s.variants()))
    variants = spec.variants()
    sample = sampled_variants(spec)
    assert len(variants) > SAMPLED and len(sample) == SAMPLED and sample == sampled_variants(spec)
    assert sample[0] == variants[0] and sample[-1] == variants[-1]
    assert len({tuple(sorted(map(str, p.items()))) for p in sample}) == SAMPLED


@pytest.mark.parametrize("spec", VALUES, ids=lambda spec: spec.name)
def test_every_setting_keeps_mistakes_apart_refuses_wrong_answers_and_accepts_the_precision(spec):
    """At the defaults and at a deterministic sample of at most 24 homework combinations (:func:`sampled_variants`:
    the first and the last of ``spec.variants()``, the others drawn by numpy.random.default_rng(0)): all of the
    ~2,500 combinations would take about half a minute. Every combination's answer is checked in
    tests/test_exercise_variants.py (many of them, none the worked answer, each prompt tidy)."""
    for params in [{}] + sampled_variants(spec):
        keeps_mistakes_apart(spec, params)
        refuses_wrong_answers_without_the_answer(spec, params)
        accepts_the_stated_precision(spec, params)


def test_wrong_feedback_never_names_the_computing_call():
    """No wrong message of a numeric checker names any dpteach function (dp.<name>): not the one that
    computes the answer, and not its parameters."""
    for spec in VALUES:
        expected = spec.expected()
        for wrong in wrong_answers(expected, spec.mistakes()):
            message = spec.checker(wrong).message
            assert not any(f"dp.{name}" in message for name in COMPUTING), message


# -- function checkers: wrong implementations a student would write -----------------------------------

def laplace_with(noise):
    def mechanism(true_answer, sensitivity, epsilon, rng):
        t = np.asarray(true_answer, dtype=float)
        return t + noise(rng, sensitivity / epsilon, t.shape)
    return mechanism


GLOBAL = np.random.default_rng(5)


def global_generator(true_answer, sensitivity, epsilon, rng):
    t = np.asarray(true_answer, dtype=float)
    return t + GLOBAL.laplace(0.0, sensitivity / epsilon, t.shape)


def reseeded(true_answer, sensitivity, epsilon, rng):
    t = np.asarray(true_answer, dtype=float)
    return t + np.random.default_rng(0).laplace(0.0, sensitivity / epsilon, t.shape)


def correlated(rng, b, shape):
    y = rng.laplace(0.0, b, shape)
    return y if y.ndim == 0 else 0.8 * y + 0.2 * np.roll(y, 1)


def mirrored(rng, b, shape):
    y = rng.laplace(0.0, b, shape)
    return y if y.ndim == 0 else np.abs(y[:1]) * rng.choice([-1.0, 1.0], size=shape)


@pytest.mark.parametrize("function, says", [
    (laplace_with(lambda rng, b, s: rng.uniform(-2 * b, 2 * b, s)), "bounded noise is not ε-DP"),
    (laplace_with(lambda rng, b, s: rng.uniform(-b, b, s)), "bounded noise is not ε-DP"),
    (laplace_with(lambda rng, b, s: rng.normal(0.0, b * math.sqrt(math.pi / 2), s)), "too light tails"),
    (laplace_with(lambda rng, b, s: rng.normal(0.0, 3 * b, s)), "too light tails"),
    (laplace_with(lambda rng, b, s: rng.laplace(0.0, b, s) * np.where(rng.random(s) < 0.5, 0.5, 1.5)),
     "not Laplace"),
    (laplace_with(lambda rng, b, s: rng.laplace(0.0, b) * np.ones(s)), "same noise"),
    (laplace_with(correlated), "not independent"),
    (laplace_with(mirrored), "not independent"),
    (global_generator, "rng argument"),
    (reseeded, "same release"),
])
def test_wrong_laplace_mechanisms_fail_naming_the_property(function, says):
    verdict = ex.check_my_laplace_mechanism(function)
    assert verdict.correct is False and says.lower() in verdict.message.lower(), verdict.message
    assert "wrong size" not in verdict.message


def test_the_uniform_mechanisms_hint_leads_nowhere_near_another_wrong_answer():
    """The issue: 'wrong size' for uniform(−b, b) led students to uniform(−2b, 2b). Both now hear that
    bounded noise is not ε-DP, whatever its size."""
    for width in (0.5, 1, 2, 3):
        verdict = ex.check_my_laplace_mechanism(laplace_with(lambda rng, b, s, w=width: rng.uniform(-w * b, w * b, s)))
        assert "bounded noise is not ε-dp" in verdict.message.lower() and "size" not in verdict.message


def test_the_mechanism_receives_arrays_as_the_prompt_promises():
    seen = []

    def recorder(true_answer, sensitivity, epsilon, rng):
        seen.append(type(true_answer))
        return true_answer + rng.laplace(0.0, sensitivity / epsilon, np.shape(true_answer))
    assert ex.check_my_laplace_mechanism(recorder).correct is True
    assert set(seen) <= {float, np.ndarray}


# -- the runner interface for a sandboxed grader ---------------------------------------------------------

FUNCTIONS = [spec for spec in ex.EXERCISES.values() if spec.kind == "function"]


class Sandbox:
    """A stand-in for a sandboxed grading process: cases and runner go through pickle, the student's
    function runs (here, in this process) through run_in_process, and plain data comes back through
    pickle; ``script`` replaces the outcomes when given."""

    def __init__(self, function=None, script=None):
        self.function, self.script, self.calls = function, script, []

    def run_cases(self, cases, runner, forbidden):
        cases, runner = pickle.loads(pickle.dumps((list(cases), runner)))
        self.calls.append((cases, runner, forbidden))
        if self.script is not None:
            return self.script
        return [pickle.loads(pickle.dumps(outcome))
                for outcome in ex.run_in_process(self.function, cases, runner, forbidden)]


REFERENCES = {
    "check_my_laplace_mechanism": lambda t, s, e, rng: np.asarray(t, dtype=float) + rng.laplace(0, s / e, np.shape(t)),
    "check_my_l1_sensitivity": None,
    "check_my_laplace_cdf": lambda x, b: 0.5 * math.exp(x / b) if x < 0 else 1 - 0.5 * math.exp(-x / b),
    "check_accuracy_bound_function": lambda k, beta, sensitivity, epsilon: math.log(k / beta) * sensitivity / epsilon,
    "check_counting_sensitivity_function": lambda q: float(np.asarray(q).sum(axis=0).max()),
}


#: Checkers whose sandboxed (graded) run draws cases afresh (every function exercise): their self-check's number
#: of cases, and the grader's.
DRAWN_AFRESH = {"check_my_laplace_mechanism": (6, 7), "check_accuracy_bound_function": (7, 10),
                "check_my_laplace_cdf": (7, 10), "check_counting_sensitivity_function": (8, 11),
                "check_my_l1_sensitivity": (7, 10)}

#: The reference my_l1_sensitivity (ℓ1 norm of the change).
l1_reference = sensitivity_by_enumeration(lambda change: float(np.abs(change).sum()))


@pytest.mark.parametrize("spec", FUNCTIONS, ids=lambda s: s.name)
def test_sandboxed_outcomes_are_judged_as_in_process_ones(spec):
    reference = REFERENCES[spec.name] or l1_reference
    here = spec.checker(reference)
    box = Sandbox(reference)
    there = spec.checker(box)
    assert here.correct is True and there.correct is True, there   # graded: fresh cases (and ch03's long run)
    mine, graded = DRAWN_AFRESH[spec.name]
    assert there.message == here.message.replace(f"all {mine} ", f"all {graded} ")
    (cases, runner, forbidden), = box.calls
    assert runner is None or runner.__module__.startswith("dpteach.exercises")
    assert all(isinstance(name, str) for name in forbidden)


def test_runner_returns_plain_data_and_cases_pickle():
    from dpteach.exercises.mechanism.function import _mechanism_cases, run_mechanism
    case = _mechanism_cases()[5]
    out = run_mechanism(REFERENCES["check_my_laplace_mechanism"], *case.args)
    assert set(out) == {"values", "reproducible"} and out["values"].shape == (4_000, 3)
    assert ex.to_plain(out)["reproducible"] is True
    with pytest.raises(TypeError):
        ex.to_plain(object())
    assert ex.to_plain([np.float64(1.5), (np.int64(2),)]) == [1.5, (2,)]


@pytest.mark.parametrize("status, value, says", [
    ("timeout", "", "took longer than the time limit"),
    ("memory", "", "more memory than the limit"),
    ("error", "ZeroDivisionError: oops", "raised ZeroDivisionError: oops"),
    ("forbidden", "laplace_accuracy_bound", "calls dp.laplace_accuracy_bound"),
])
def test_sandbox_statuses_get_their_feedback(status, value, says):
    verdict = ex.check_accuracy_bound_function(Sandbox(script=[("ok", math.log(10_000 / 0.05)), (status, value)]))
    assert verdict.correct is False and says in verdict.message
    if status in ("timeout", "memory", "error"):
        assert verdict.message.startswith("case 2 of ")


def test_a_sandbox_that_stops_early_is_not_a_pass():
    verdict = ex.check_accuracy_bound_function(Sandbox(script=[("ok", math.log(10_000 / 0.05))]))
    assert verdict.correct is False and "could be run" in verdict.message


def test_forbidden_names_are_refused_in_process_and_restored():
    def cheat(k, beta, sensitivity, epsilon):
        return dp.laplace_accuracy_bound(k, beta, sensitivity, epsilon)
    original = dp.laplace_accuracy_bound
    verdict = ex.check_accuracy_bound_function(cheat)
    assert verdict.correct is False and "dp.laplace_accuracy_bound" in verdict.message
    assert dp.laplace_accuracy_bound is original


def test_function_verdicts_are_deterministic():
    """Fixed seeds: the same function gets the same verdict, word for word, every time it is checked."""
    uniform = laplace_with(lambda rng, b, s: rng.uniform(-2 * b, 2 * b, s))
    reference = REFERENCES["check_my_laplace_mechanism"]
    for function in (uniform, reference):
        assert ex.check_my_laplace_mechanism(function) == ex.check_my_laplace_mechanism(function)


def test_prompts_write_a_power_of_ten_as_the_prose_does():
    from dpteach.exercises._base import _PROMPTS

    assert _PROMPTS.format("δ = {d:pow10}", d=1e-6) == "δ = 10⁻⁶"
    assert _PROMPTS.format("{d:pow10}, {e:pow10}", d=1e5, e=1.0) == "10⁵, 10⁰"
    assert _PROMPTS.format("{d:pow10}", d=2.5e-6) == "2.5·10⁻⁶"         # between powers of ten: two figures
    assert _PROMPTS.format("{k:,} at {e:g}", k=10_000, e=0.5) == "10,000 at 0.5"


@pytest.mark.parametrize("spec", VALUES, ids=lambda s: s.name)
def test_a_number_typed_as_text_is_told_to_drop_the_quotes(spec):
    """The right answer in quotes scores nothing, and says why (the grader shows the same message)."""
    right = spec.expected()
    verdict = spec.checker(repr(float(right)) if not isinstance(right, str) else right)
    assert verdict.correct is False and "without quotes" in verdict.message, verdict.message
    assert spec.checker("not a number").correct is False


@pytest.mark.parametrize("answer, expected, figures, close", [
    (5.99, 6.0213, 3, False), (1.99, 2.0049, 3, False), (1590, 1603.2, 3, False),   # near, but wrong at 3 figures
    (6, 6.0213, 3, True), (6.0, 6.0213, 3, True), (1700, 1651.3, 3, True), (0.07, 0.0731, 3, True),
    (2.0, 2.0149, 3, True), (23, 23.1259, 3, True), (20, 23.0259, 3, True), (30, 23.0259, 3, False),
    (6.03, 6.0213, 3, False)])
def test_close_is_said_only_when_the_digits_given_round_to_the_answer(answer, expected, figures, close):
    """Issue 37: "close: give more digits" was shown for 5.99 for 6, 1.99 for 2, 1590 for 1600, which are
    simply wrong at 3 significant figures. Close means the answer is the right value stopped too early."""
    verdict = ex.compare(answer, expected, "right", "a hint", figures=figures)
    assert verdict.correct is False
    assert verdict.message.startswith("close:") == close, verdict.message
    if close:
        assert f"give {figures}." in verdict.message


def test_two_mistakes_that_give_the_same_number_are_named_once():
    verdict = ex.compare(0.5, 2.0, "right", "a hint", figures=3, mistakes=[
        ex.Mistake(0.5, "first slip."), ex.Mistake(0.5, "second slip.")])
    assert verdict.message == "0.5 is not it: first slip." and "Or:" not in verdict.message
