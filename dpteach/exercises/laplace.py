"""Checkers for chapters 00 and 02: the Laplace distribution (Dwork & Roth, Definition 3.2, Fact 3.7)."""

from __future__ import annotations

import math

from ..laplace import laplace_cdf, laplace_pdf, laplace_scale, laplace_tail
from ._base import (
    DRAWN,
    FRESH_CASES,
    Case,
    Feedback,
    Mistake,
    as_number,
    check_function,
    compare,
    exercise,
    grading_draws,
    matching_mistake,
)

__all__ = ["check_scale_for_count", "check_tail_probability", "check_epsilon_for_std", "check_my_laplace_cdf"]


#: The trial exercise's homework ε: 0.05, 0.1, …, 3 but 0.5 (the chapter's), 1 (where b = Δf, and b² = b) and 2 (where
#: the variance 2b² equals b).
_TRIAL_EPSILONS = tuple(round(0.05 * i, 2) for i in range(1, 61) if i not in (10, 20, 40))


@exercise(prompt="The Laplace mechanism adds noise of scale b = Δf/ε. What is b for a count (Δf = 1) released at "
                 "ε = {epsilon:g}? Replace `...` with your answer and run the cell. Give 3 significant figures.",
          homework={"epsilon": _TRIAL_EPSILONS}, figures=3)
def check_scale_for_count(answer, epsilon: float = 0.5) -> Feedback:
    """Ch. 00, the trial exercise: the Laplace scale b = Δf/ε for a count (Δf = 1) at ε = 0.5."""
    sensitivity = 1.0
    expected = laplace_scale(sensitivity, epsilon)
    mistakes = [
        Mistake(sensitivity * epsilon, "you multiplied by ε (or computed ε/Δf). The scale is Δf divided by ε: "
                                       "a smaller ε means more noise.", name="×ε for ÷ε"),
        Mistake(sensitivity, "that is Δf itself: you forgot to divide by ε.", name="÷ε forgotten"),
        Mistake(math.sqrt(2) * expected, "that is the standard deviation √2·b of the noise, not its scale b.",
                name="the wrong measure of spread"),
        Mistake(2 * expected ** 2, "that is the variance 2b² of the noise, not its scale b.",
                name="the wrong measure of spread"),
        Mistake(expected ** 2, "that squares the scale; b itself is Δf divided by ε.",
                name="the wrong measure of spread"),
    ]
    return compare(answer, expected, f"b = Δf/ε = 1/{epsilon:g} = {expected:g}.",
                   "A count has Δf = 1; the scale is Δf divided by ε.", figures=3, mistakes=mistakes)


@exercise(prompt="Y ~ Lap({scale:g}) is the noise on a count. What is Pr[|Y| ≥ {threshold:g}]? Replace `...` with a "
                 "number and run the cell. Give 3 significant figures.",
          homework={"scale": (1.25, 1.5, 2.5, 3.5, 4.5),
                    "threshold": (2.0, 3.0, 4.0, 5.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0)},
          figures=3, title="Fact 3.7")
def check_tail_probability(answer, scale: float = 2.0, threshold: float = 6.0) -> Feedback:
    """Ch. 02, exercise 1: Pr[|Y| ≥ 6] for Y ~ Lap(2)."""
    t = threshold / scale
    expected = laplace_tail(t)
    mistakes = [
        Mistake(math.exp(-threshold), "you put the threshold itself into exp(−t). Fact 3.7 measures the "
                                      "threshold in units of b: write it as t·b first.",
                name="the threshold not in units of b"),
        Mistake(math.exp(-threshold * scale), "you multiplied the threshold by b; write the threshold as t·b, "
                                              "so t is the threshold divided by b.",
                name="the threshold not in units of b"),
        Mistake(1 - math.exp(-t), "that is Pr[|Y| < t·b], the probability of a SMALL draw; Fact 3.7 gives "
                                  "the probability of a large one.", name="the complementary event"),
        Mistake(0.5 * math.exp(-t), "that is one tail only, Pr[Y ≥ t·b]; |Y| ≥ t·b happens on both sides.",
                name="the two sides miscounted"),
        Mistake(laplace_pdf(threshold, scale), "that is the density at the threshold, not the probability "
                                               "of reaching it.", name="a density for a probability"),
        Mistake(math.exp(-scale / threshold), "t is upside down: the threshold is t·b, so t is the threshold "
                                              "divided by b.", name="the threshold not in units of b"),
        Mistake(math.exp(-t / 2), "that halves t; Fact 3.7's exponent is t itself, for |Y| ≥ t·b.",
                name="the two sides miscounted"),
        Mistake(2 * math.exp(-t), "that doubles Fact 3.7's tail: e^(−t) already counts both sides, Y ≥ t·b and "
                                  "Y ≤ −t·b.", name="the two sides miscounted"),
        Mistake(100 * expected, "that looks like a percentage. Give the probability as a number between 0 and 1, "
                                "not in percent.", name="a percentage for a fraction"),
    ]
    return compare(answer, expected,
                   f"{threshold:g} = {t:g}·b, so Fact 3.7 gives exp(−{t:g}) = {expected:.4f}.",
                   "Write the threshold as t·b and use Fact 3.7.", figures=3, mistakes=mistakes)


#: Exercise 2's homework standard deviations, ε = √2/std from 2.8 down to 0.047: 0.5 to 9.5 by halves (and quarters
#: below 2) but 1 (where ε = √2 = 1/√(std/2), the variance mistaken for the standard deviation), then 11 to 30.
_STDS = (0.5, 0.75, 1.25, 1.5, 1.75) + tuple(0.5 * i for i in range(4, 20)) + tuple(float(s) for s in range(11, 31))


@exercise(prompt="A count (Δf = 1) is to be released with Laplace noise whose standard deviation is {std:g}. Which ε "
                 "gives that? Give 3 significant figures.",
          homework={"std": _STDS}, figures=3, title="variance 2b²")
def check_epsilon_for_std(answer, std: float = 10.0, sensitivity: float = 1.0) -> Feedback:
    """Ch. 02, exercise 2: which ε gives a count (Δf = 1) noise with standard deviation 10?"""
    expected = sensitivity * math.sqrt(2) / std
    mistakes = [
        Mistake(sensitivity / std, "you took the standard deviation to be b (variance b²). The variance of "
                                   "Lap(b) is 2b², so the standard deviation is √2·b.", name="b² for 2b²"),
        Mistake(sensitivity / math.sqrt(std / 2), f"you treated {std:g} as the variance; it is the standard "
                                                  "deviation, √2·b.", name="the wrong measure of spread"),
        Mistake(sensitivity * 2 / std, "you took the standard deviation to be 2b; it is √(2b²) = √2·b.",
                name="the wrong measure of spread"),
        Mistake(std / (math.sqrt(2) * sensitivity), "that is b = Δf/ε itself, not ε: solve b = Δf/ε for ε.",
                name="a scale for ε, or ε for a scale"),
        Mistake(sensitivity / (math.sqrt(2) * std), "√2 is on the wrong side: the standard deviation is √2·b, "
                                                    "so b is the standard deviation divided by √2.",
                name="the wrong measure of spread"),
        Mistake(std / sensitivity, "that is the standard deviation itself, not ε: ε = Δf/b, and b comes from "
                                   "the standard deviation.", name="a scale for ε, or ε for a scale"),
    ]
    hint = "The variance of Lap(b) is 2b², which gives b from the standard deviation; then ε = Δf/b."
    verdict = compare(answer, expected, f"std = √2·b = {std:g} means b = {std / math.sqrt(2):.4f}, "
                                        f"so ε = Δf/b = {expected:.4f}.", hint, figures=3, mistakes=mistakes)
    value = as_number(answer)
    if verdict.correct is False and isinstance(value, float) and value > 0 and verdict.message.endswith(hint):
        # no known mistake matched: say what the student's ε gives instead
        return Feedback(False, f"with ε = {value:g} the noise has standard deviation "
                               f"{math.sqrt(2) * sensitivity / value:.4g}, not {std:g}. {hint}")
    return verdict


# -- a function the student writes: the Laplace CDF --------------------------------------------

def _cdf_cases(fresh=None) -> list[Case]:
    """Points on both sides of 0, at 0, far out, and with several scales; F from dpteach.

    With ``fresh`` (a grader's ``random.SystemRandom``, see :func:`grading_draws`), :data:`FRESH_CASES` more:
    a scale b in [0.1, 5] and a point x with 0.05 ≤ |x|/b ≤ 8, first below 0, then above, then on either side,
    so that F(x) is neither ½ nor within 10⁻⁴ of 0 or 1 and each branch of the formula is tried afresh.
    """
    points = [("x = 0 (the centre)", 0.0, 2.0), ("x < 0, b = 2", -2.0, 2.0), ("x > 0, b = 2", 3.0, 2.0),
              ("x < 0 with a small scale b = 0.25", -0.5, 0.25), ("x > 0 far out, b = 1", 10.0, 1.0),
              ("x < 0, b = 3.5", -7.0, 3.5), ("x > 0 with a small scale b = 0.5", 0.2, 0.5)]
    for number in range(FRESH_CASES if fresh is not None else 0):
        b = round(fresh.uniform(0.1, 5.0), 3)
        side = (-1.0, 1.0)[number] if number < 2 else fresh.choice((-1.0, 1.0))
        x = side * round(b * fresh.uniform(0.05, 8.0), 4)
        points.append((f"{DRAWN}: x = {x:g}, b = {b:g}", x, b))
    return [Case(label, (x, b), expected=laplace_cdf(x, b)) for label, x, b in points]


def _known_cdf_mistakes(case: Case, got) -> str:
    """Name the mistake whose answer on this case equals what the student's function returned."""
    x, b = case.args
    wrong = [
        # each of the next two is the CDF itself on one side of 0, so it can only match on the other side
        (0.5 * math.exp(-abs(x) / b), "for this x > 0 that is ½e^(−x/b), below ½: Pr[Y > x], the upper tail, or "
                                      "the formula of the x < 0 side used here. The CDF is Pr[Y ≤ x]: it passes ½ at 0 "
                                      "and grows towards 1 for x > 0.", "the CDF's branches mixed up"),
        (1 - 0.5 * math.exp(-abs(x) / b), "for this x < 0 that is 1 − ½e^(x/b), above ½: Pr[Y > x], the upper tail, "
                                          "or the formula of the x ≥ 0 side used here. The CDF is Pr[Y ≤ x]: it starts "
                                          "near 0 far to the left.", "the CDF's branches mixed up"),
        (math.exp(-abs(x) / b) / (2 * b), "that is the density Lap(x | b); the CDF is its integral up to x.",
         "a density for a probability"),
        (0.5 * math.exp(x / b) if x >= 0 else 1 - 0.5 * math.exp(-x / b),
         "the two branches are swapped: for x < 0 the CDF must be below ½.", "the CDF's branches mixed up"),
        (1 - 0.5 * math.exp(x / b) if x >= 0 else 0.5 * math.exp(x / b),
         "for x ≥ 0 the exponent has the wrong sign: the CDF grows towards 1, never below 0.",
         "the CDF's branches mixed up"),
        (0.5 * math.exp(x) if x < 0 else 1 - 0.5 * math.exp(-x), "you forgot to divide x by the scale b.",
         "the threshold not in units of b"),
        (math.exp(x / b) if x < 0 else 1 - math.exp(-x / b), "you forgot the factor ½: half the mass lies "
                                                             "on each side of 0.", "the two sides miscounted"),
    ]
    if got is None:
        return "Your function returned None: did you forget `return`?"
    try:
        value = float(got)
    except (TypeError, ValueError):
        return "Return one number, Pr[Y ≤ x]."
    named = matching_mistake(value, case.expected, [Mistake(*w) for w in wrong])
    if named is not None:
        return named[0].upper() + named[1:]
    return ("F(x) is the integral of Definition 3.2's density from −∞ to x: work it out on each side of 0 "
            "(F(0) = ½, F → 0 on the left, F → 1 on the right).")


@exercise(prompt="Write `my_laplace_cdf(x, b)`: the CDF F(x) = Pr[Y ≤ x] of Y ~ Lap(b) at a single number x, with "
                 "numpy or `math` and the formula of this chapter. You may not call `dp.laplace_cdf`, `dp.laplace_pdf`, "
                 "`dp.laplace_logpdf` or `dp.laplace_tail` (the checker refuses them). The checker tries seven hidden "
                 "points and scales and names the first one your function gets wrong.",
          title="write the CDF", kind="function")
def check_my_laplace_cdf(function) -> Feedback:
    """Ch. 02, exercise 3: the student writes ``my_laplace_cdf(x, b)``, the CDF of Lap(b) at a
    single number x, without calling dpteach's laplace_cdf (or its density and tail).

    Seven hidden points (both sides of 0, at 0, far out, several scales), and graded three more drawn afresh
    (:func:`_cdf_cases`: no table of the seven passes); a failure names the
    point and, when the returned value matches one, the known mistake (the upper tail, or one
    side's formula on the other side, the density instead of the CDF, swapped branches, x not
    divided by b, no ½). A function that reaches a library's CDF (scipy's, …) is refused before the
    cases run: the prompt asks for numpy or ``math`` and the formula.
    """
    library = _library_cdf(function)
    if library:
        return Feedback(False, f"your function calls {library}: this exercise asks you to write the CDF yourself, with "
                               "numpy or `math` and the formula of this chapter.")
    return check_function(
        function, _cdf_cases(grading_draws(function)), task="my_laplace_cdf(x, b)",
        success="F(x) = ½e^(x/b) for x < 0 and 1 − ½e^(−x/b) for x ≥ 0, as the integral of Definition 3.2's density.",
        forbidden=("laplace_cdf", "laplace_pdf", "laplace_logpdf", "laplace_tail"),
        describe=_known_cdf_mistakes)


#: Libraries that compute a Laplace CDF for the student: the prompt asks for numpy or ``math`` and the formula.
_LIBRARIES = ("scipy", "statsmodels", "sympy", "torch", "tensorflow", "jax")


def _library_cdf(function) -> str | None:
    """The library (e.g. "scipy") ``function`` reaches for its CDF, read from its source (the sandbox's
    ``function.source`` or the notebook's) and from the globals its code names; None if it uses none."""
    import ast
    import inspect
    import textwrap
    import types

    source = getattr(function, "source", None)
    if not isinstance(source, str):
        try:
            source = textwrap.dedent(inspect.getsource(function))
        except (OSError, TypeError):
            source = ""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        tree = None
    for node in ast.walk(tree) if tree is not None else ():
        names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                 else [node.module or ""] if isinstance(node, ast.ImportFrom)
                 else [node.id] if isinstance(node, ast.Name) else [])
        for name in names:
            if name.split(".")[0] in _LIBRARIES:
                return name.split(".")[0]
    code = getattr(function, "__code__", None)
    namespace = getattr(function, "__globals__", {})
    values = [value for cell in getattr(function, "__closure__", None) or () for value in _contents(cell)]
    values += list(getattr(function, "__defaults__", None) or ())
    codes = [code] if code is not None else []
    while codes:
        current = codes.pop()
        codes.extend(const for const in current.co_consts if isinstance(const, types.CodeType))
        values += [namespace[name] for name in current.co_names if name in namespace]
    for value in values:
        home = (value.__name__ if isinstance(value, types.ModuleType)
                else getattr(value, "__module__", None) or getattr(type(value), "__module__", ""))
        if str(home).split(".")[0] in _LIBRARIES:
            return str(home).split(".")[0]
    return None


def _contents(cell) -> list:
    try:
        return [cell.cell_contents]
    except ValueError:      # a name the function closes over, not assigned yet
        return []
