"""Checkers for chapter 05: accuracy (Theorem 3.8) and the census first names (Example 3.3).

The chapters write β for the failure probability of Theorem 3.8 (the book writes δ; δ keeps
its meaning from (ε, δ)-differential privacy). Each numeric checker lists the common wrong
answers, each computed the wrong way (log10 for ln, ln(1/β) without the k, forgetting ÷ε, the
variance b² for 2b², …), so the feedback names the mistake.
:func:`check_accuracy_bound_function` runs a function the student writes on hidden cases.
"""

from __future__ import annotations

import math

from ..accuracy import laplace_accuracy_bound
from ..counting import histogram_noise
from ..laplace import laplace_scale, laplace_tail
from ._base import (
    DRAWN,
    FRESH_CASES,
    Case,
    Feedback,
    Mistake,
    check_function,
    compare,
    exercise,
    grading_draws,
    live_mistakes,
    matching_mistake,
    named_anyway,
)
from ._cells import placeholder_feedback

__all__ = ["check_accuracy_bound", "check_delta_for_bound", "check_dominance_threshold",
           "check_accuracy_bound_function"]


def _bound_mistakes(k: float, beta: float, sensitivity: float, epsilon: float,
                    figures: int | None = None) -> list[Mistake]:
    """Theorem 3.8's bound ln(k/β)·Δf/ε, computed the usual wrong ways."""
    b = laplace_scale(sensitivity, epsilon)
    confidence = [Mistake(math.log(k / (1 - beta)) * b, "you used the confidence 1 − β where the failure "
                                                        "probability β belongs.",
                          name="the complementary event")] if beta < 1 else []
    # Šidák: the t with (1 − e^(−t))^k = 1 − β, exact for k independent noises (1 − (1 − β)^(1/k) per noise)
    sidak = [Mistake(-math.log(-math.expm1(math.log1p(-beta) / k)) * b,
                     "that is Šidák's quantile, where the k noises' largest stays below the bound with probability "
                     "exactly 1 − β: right for independent noises (and a little smaller), but the exercise asks for "
                     "Theorem 3.8's bound, whose union bound holds however the noises depend on each other.",
                     name="an exact probability for Theorem 3.8's bound")] if beta < 1 else []
    # named only where it differs from the bound by more than the precision allows (it is the bound at k = 1)
    sidak = live_mistakes(math.log(k / beta) * b, sidak, figures)
    return [
        Mistake(math.log10(k / beta) * b, "you used log10. Theorem 3.8 (through Fact 3.7, Pr[|Y| ≥ t·b] = e^−t) "
                                          "uses the natural logarithm ln.", name="log10 for ln"),
        Mistake(math.log2(k / beta) * b, "you used log2. Theorem 3.8 uses the natural logarithm ln.",
                name="log10 for ln"),
        Mistake(math.log(1 / beta) * b, "ln(1/β) bounds ONE noise (Fact 3.7). For the largest of k noises the union "
                                        "bound gives each noise a tail of β/k.",
                name="one noise for the largest of k"),
        Mistake(math.log(k / beta) * sensitivity, "you forgot to divide by ε: the noise scale is b = Δf/ε.",
                name="÷ε forgotten"),
        Mistake(math.log(k / beta) * sensitivity * epsilon, "you multiplied by ε; the noise scale is b = Δf/ε, "
                                                           "Δf divided by ε.", name="×ε for ÷ε"),
        Mistake(math.log(k / beta) / epsilon, "you left out Δf: the noise scale is b = Δf/ε.", name="Δf left out"),
        Mistake(math.log(2 * k / beta) * b, "Fact 3.7 already bounds |Y|, both tails at once: no factor 2 goes "
                                            "inside the logarithm.", name="the two sides miscounted"),
        Mistake(math.log(k * beta) * b, "you wrote ln(k·β): the union bound shares β out over the k noises (β/k "
                                        "each), it does not multiply it.", name="the union bound turned around"),
        Mistake(k * math.log(1 / beta) * b, "k belongs inside the logarithm: the union bound multiplies the "
                                            "probability by k, and Fact 3.7 turns probability into distance "
                                            "through a logarithm.", name="the union bound turned around"),
    ] + confidence + sidak


@exercise(prompt="A histogram of {k:,} cells (Δf = 1) is released at ε = {epsilon:g}. What bound does Theorem 3.8 give "
                 "on its largest error at failure probability β = {beta:g}? Give 3 significant figures.",
          homework={"k": (200, 500, 2_000, 5_000, 10_000), "beta": (0.02, 0.05, 0.1),
                    "epsilon": (0.2, 0.25, 0.3, 0.75, 1.5, 2.0)},
          figures=3)
def check_accuracy_bound(answer, k: int = 1_000, beta: float = 0.01, epsilon: float = 0.5) -> Feedback:
    """Ch. 05, exercise 1: Theorem 3.8's bound for a 1,000-cell histogram (Δf = 1) at ε = 0.5,
    failure probability β = 0.01 (the book's δ)."""
    expected = laplace_accuracy_bound(k, beta, 1, epsilon)
    mistakes = _bound_mistakes(k, beta, 1, epsilon, figures=3) + [
        Mistake(laplace_accuracy_bound(k, beta, k, epsilon),
                "you used Δf = k, as for k arbitrary counts. A histogram's cells are disjoint: Δf = 1.",
                name="k counts' Δf for a histogram"),
    ]
    return compare(answer, expected,
                   f"ln(k/β)·Δf/ε = ln({k:,}/{beta:g}) · 1/{epsilon:g} = {expected:.4f}.",
                   "Theorem 3.8 bounds the largest of k Laplace noises: Fact 3.7's tail for each, and a union bound "
                   "over the k cells. A histogram has Δf = 1.", figures=3, mistakes=mistakes)


@exercise(prompt="A release of k = {k:,} names' counts (Δf = 1) at ε = {epsilon:g}, as in Example 3.3: for which "
                 "failure probability β does Theorem 3.8 promise that no name is off by {error:g} or more? "
                 "Give 3 significant figures.",
          homework={"k": (1_000, 2_000, 3_000, 5_000), "error": (8.0, 8.5, 9.0, 9.5),
                    "epsilon": (1.15, 1.2, 1.25, 1.3)}, figures=3)
def check_delta_for_bound(answer, k: int = 10_000, error: float = 10.0, epsilon: float = 1.0) -> Feedback:
    """Ch. 05, exercise 2: for Example 3.3 (k = 10,000, Δf = 1, ε = 1), the failure probability β
    (the book's δ) at which Theorem 3.8's bound is 10.

    The exact 1 − (1 − e^(−t))^k for k independent noises is named as such, even where it is within two
    figures of the union bound's k·e^(−t) (:func:`named_anyway`): a right answer to another question."""
    expected = k * laplace_tail(error * epsilon)
    mistakes = [
        Mistake(laplace_tail(error * epsilon), "that is the tail of ONE noise (Fact 3.7). The union bound over the "
                                               "k names multiplies it by k.", name="one noise for the largest of k"),
        Mistake(k * 10 ** (-error * epsilon), "you undid a log10. Theorem 3.8's logarithm is natural.",
                name="log10 for ln"),
        Mistake(1 - expected, "that is the probability that the bound holds, 1 − β. The question asks for the "
                              "failure probability β.", name="the complementary event"),
        Mistake(laplace_tail(error * epsilon) / k, "you divided by k: the union bound over the k names multiplies "
                                                  "the one-noise tail by k.", name="the union bound turned around"),
        Mistake(k * math.exp(-error), "you left out ε: Theorem 3.8's bound has Δf/ε in it.", name="÷ε forgotten"),
        Mistake(k * math.exp(-error / epsilon), "ε is on the wrong side: the bound is ln(k/β)·Δf/ε, so solving "
                                                "for β multiplies the error by ε.", name="×ε for ÷ε"),
        Mistake(k * math.exp(-error * epsilon) / 2, "that halves the tail: Fact 3.7's Pr[|Y| ≥ t·b] = e^(−t) counts "
                                                    "both sides already.", name="the two sides miscounted"),
    ]
    exact = Mistake(-math.expm1(k * math.log1p(-laplace_tail(error * epsilon))),
                    "that is 1 − (1 − e^(−t))^k, the exact chance that one of k independent noises is that far off: "
                    "right for independent noise (and a little smaller), but the exercise asks for the β of Theorem "
                    "3.8, whose union bound holds however the noises depend on each other.",
                    name="an exact probability for Theorem 3.8's bound")
    hint = "Set Theorem 3.8's bound equal to the error and solve for the failure probability β."
    verdict = compare(answer, expected,
                      f"ln(k/β)/ε = {error:g} gives β = k·e^(−{error:g}ε) = {expected:.4f}: the theorem then "
                      f"promises 'within ±{error:g}' only with probability {1 - expected:.1%}.",
                      hint, figures=3, mistakes=mistakes + live_mistakes(expected, [exact], 3))
    return named_anyway(verdict, answer, exact, 3, hint)


@exercise(prompt="A conversion report caps each user at c = {cap} conversions and is released at ε = {epsilon:g}. "
                 "Below what cell size does the DP noise dominate Poisson sampling noise? Give 3 significant figures.",
          homework={"cap": (2, 4, 5, 6, 7, 8, 10, 12, 15, 20), "epsilon": (0.1, 0.2, 0.25, 0.3, 0.4, 0.6, 0.75, 1.25, 1.5)},
          figures=3)
def check_dominance_threshold(answer, cap: int = 3, epsilon: float = 0.5) -> Feedback:
    """Ch. 05, exercise 3: the cell size below which DP noise dominates Poisson sampling noise in a
    conversion report capped at c = 3 per user, released at ε = 0.5 (Var Lap(b) = 2b²)."""
    expected = histogram_noise(cap, epsilon, 1).crossover
    b = cap / epsilon
    mistakes = [
        Mistake(b**2, "the variance of Lap(b) is 2b², not b².", name="b² for 2b²"),
        Mistake(math.sqrt(2) * b, "you set n equal to the DP standard deviation √2·b. Compare like with like: "
                                  "the sampling variance n against the DP variance.",
                name="the wrong measure of spread"),
        Mistake(2 * (1 / epsilon) ** 2, "you used Δf = 1. Capping each user at c conversions makes Δf = c.",
                name="Δf = 1 where one person moves more"),
        Mistake(2 * (cap * epsilon) ** 2, "you multiplied by ε; the noise scale is b = Δf/ε.", name="×ε for ÷ε"),
        Mistake(b, "that is the noise scale b = c/ε. Compare variances: the Laplace variance is not b.",
                name="the wrong measure of spread"),
        Mistake(2 * b, "the variance of Lap(b) is 2b²: square b first.", name="b² for 2b²"),
    ]
    return compare(answer, expected,
                   f"Δf = c = {cap}, so the DP variance is 2(c/ε)² = 2·{cap / epsilon:g}² = {expected:g}; "
                   f"sampling variance n is smaller than that for cells under {expected:g} conversions.",
                   "Compare variances: Poisson sampling noise on a cell of n has variance n. Set it equal to the "
                   "variance of the Laplace noise, with Δf = c.", figures=3, mistakes=mistakes)


# -- exercise 4: the student writes Theorem 3.8's bound ----------------------------------------

#: Hidden cases (k, β, Δf, ε), in an order that tells the usual mistakes apart early: Example 3.3
#: (log bases, the missing k), then ε ≠ 1 (÷ε), then Δf ≠ 1 (the missing Δf), then the edges.
_BOUND_CASES = (
    ("Example 3.3: k = 10,000 names, β = 0.05, Δf = 1, ε = 1", (10_000, 0.05, 1, 1.0)),
    ("a 1,000-cell histogram at β = 0.01, ε = 0.5", (1_000, 0.01, 1, 0.5)),
    ("600 campaign-days capped at c = 5 (Δf = 5), β = 0.05, ε = 1", (600, 0.05, 5, 1.0)),
    ("one count (k = 1, Fact 3.7), β = 0.05, Δf = 1, ε = 2", (1, 0.05, 1, 2.0)),
    ("k = 20, β = 1: the bound is ln(k)·Δf/ε", (20, 1.0, 2, 0.25)),
    ("k = 1 and β = 1: failure allowed always, bound 0", (1, 1.0, 1, 1.0)),
    ("a large k: 1,000,000 cells, β = 0.001, Δf = 3, ε = 0.1", (1_000_000, 0.001, 3, 0.1)),
)


#: Cases a grader adds, drawn afresh for each grading, so that no table of the fixed cases passes.
FRESH_BOUND_CASES = FRESH_CASES


def _bound_cases(fresh=None) -> list[Case]:
    """The fixed cases; with ``fresh`` (a grader's ``random.SystemRandom``, see :func:`grading_draws`),
    :data:`FRESH_BOUND_CASES` more (k, β, Δf, ε) drawn from it."""
    cases = [Case(label, args, expected=laplace_accuracy_bound(*args)) for label, args in _BOUND_CASES]
    for _ in range(FRESH_BOUND_CASES if fresh is not None else 0):
        args = (fresh.randrange(2, 10**6), round(fresh.uniform(0.001, 0.5), 4), fresh.randrange(1, 11),
                round(fresh.uniform(0.05, 4.0), 3))
        cases.append(Case(f"{DRAWN}: k = {args[0]:,}, β = {args[1]:g}, Δf = {args[2]}, ε = {args[3]:g}", args,
                          expected=laplace_accuracy_bound(*args)))
    return cases


def _describe_bound(case: Case, got) -> str:
    """If the student's output equals a known wrong formula on this case, name it."""
    try:
        value = float(got)
    except (TypeError, ValueError):
        return "Return one number: Theorem 3.8's bound."
    named = matching_mistake(value, case.expected, _bound_mistakes(*case.args))
    return "" if named is None else "Your output equals the known mistake: " + named


@exercise(prompt="Write `my_accuracy_bound(k, beta, sensitivity, epsilon)`: Theorem 3.8's bound on the largest error "
                 "of k Laplace-released numbers, with failure probability β, sensitivity Δf and privacy parameter ε. "
                 "The checker runs it on hidden cases (Example 3.3, a capped report, one count, …) and tells you which "
                 "one fails, and which known mistake your output matches. Write it with numpy: "
                 "`dp.laplace_accuracy_bound` (and `dp.histogram_noise`, `dp.accuracy_monte_carlo`, which report the "
                 "same bound) are switched off while it runs.",
          title="write code", kind="function")
def check_accuracy_bound_function(my_accuracy_bound) -> Feedback:
    """Ch. 05, exercise 4: the student's ``my_accuracy_bound(k, beta, sensitivity, epsilon)``, Theorem 3.8's
    ln(k/β)·Δf/ε, run on hidden cases. It may not call ``dp.laplace_accuracy_bound`` (nor
    ``dp.histogram_noise`` or ``dp.accuracy_monte_carlo``, which report the same bound)."""
    overwritten = placeholder_feedback(my_accuracy_bound, "my_accuracy_bound")
    if overwritten is not None:
        return overwritten
    return check_function(my_accuracy_bound, _bound_cases(grading_draws(my_accuracy_bound)),
                          task="my_accuracy_bound(k, beta, sensitivity, epsilon)",
                          success="ln(k/β)·Δf/ε: Fact 3.7 at t = ln(k/β), for each of the k noises, and a union "
                                  "bound over them.",
                          same=lambda got, expected: math.isclose(float(got), expected, rel_tol=1e-9, abs_tol=1e-12),
                          forbidden=("laplace_accuracy_bound", "histogram_noise", "accuracy_monte_carlo"),
                          describe=_describe_bound)
