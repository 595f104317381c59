"""Checkers for chapter 06's "Choosing ε and δ": planning a release with the budget planner."""

from __future__ import annotations

import functools

from ..exact_composition import exact_laplace_epsilon
from ..planner import CONFIDENCE, plan_budget
from ._base import Feedback, Mistake, compare, exercise, live_mistakes, named_anyway

__all__ = ["check_release_plan"]


@functools.lru_cache(maxsize=256)
def _plans(people: int, releases: int, accuracy: float, cap: float) -> dict:
    """The plan asked (all counts at once, with the cap) and the plans and totals a known mistake computes instead:
    Šidák's per-count confidence (1 − β)^(1/k) for the union bound's 1 − β/k, and δ = 1/n for the plan's."""
    asked = plan_budget(people, releases, accuracy, sensitivity=cap, simultaneous=True)
    return {"asked": asked,
            "each": plan_budget(people, releases, accuracy, sensitivity=cap),
            "no cap": plan_budget(people, releases, accuracy, simultaneous=True),
            "sidak": plan_budget(people, releases, accuracy, CONFIDENCE ** (1 / releases), sensitivity=cap,
                                 guesses=False),
            "delta 1/n": exact_laplace_epsilon(releases, asked.per_release, 1 / people)}


@exercise(prompt="A transport authority will publish {releases} weekly counts of riders among n = {people:,} card "
                 "holders. Each holder adds at most {cap:g} to each count (the contribution cap Δf), and all "
                 "{releases} counts together must be within ±{accuracy:g} of the truth with probability 95% by the "
                 "union bound (Theorem 3.8). With Laplace noise, the same ε for every count and δ = 1/(100 n), what total ε does exact accounting "
                 "(the privacy loss distribution of these releases) give? Give 3 significant figures.",
          homework={"releases": (26, 104, 156, 260), "people": (10_000, 1_000_000), "accuracy": (50, 150, 200),
                    "cap": (1, 3, 5)}, figures=3)
def check_release_plan(answer, releases: int = 52, people: int = 100_000, accuracy: float = 100,
                       cap: float = 2) -> Feedback:
    """Ch. 06, "Choosing ε and δ": plan k counts, all within ±α together at 95%, with a contribution cap Δf.

    Each count is planned at 1 − 0.05/k (the union bound, Theorem 3.8), so ε = ln(20k)·Δf/α per count, and the
    total is the exact ε(δ) of the k Laplace releases at δ = 1/(100 n) (:func:`~dpteach.plan_budget` with
    ``sensitivity=Δf, simultaneous=True``). Šidák's 0.95^(1/k) per count, exact for these independent noises, is
    named as the right-minded answer to another question (the prompt asks for the union bound), even where it is
    within two figures of the answer. The messages say "failure probability" where the book writes β, a symbol
    chapter 06 does not define.
    """
    plans = _plans(int(people), int(releases), float(accuracy), float(cap))
    plan = plans["asked"]
    mistakes = [
        Mistake(plans["each"].exact, "that plans each count at 95% on its own: then about one count in twenty "
                                     "misses ±α. All of them together at 95% need each at 1 − 0.05/k (the union "
                                     "bound), ε = ln(20k)·Δf/α per count.", name="each release for all at once"),
        Mistake(plans["no cap"].exact, "that leaves the contribution cap out: a holder moves each count by up to "
                                       "Δf, so the noise scale is Δf/ε and each count's ε is Δf times larger.",
                name="Δf left out"),
        Mistake(plan.basic, "that is basic composition, kε: a true bound, but the question asks for the exact total "
                            "of these Laplace releases at δ, which is smaller.", name="basic composition where a δ′ buys more"),
        Mistake(plan.optimal, "that is the optimal composition theorem, exact for the worst ε-DP mechanisms; these "
                              "are Laplace releases, whose own privacy loss distribution gives less.",
                name="a looser accounting than asked"),
        Mistake(plan.gaussian, "that is Gaussian noise of the same accuracy composed in GDP; the question asks for "
                               "Laplace noise.", name="a different mechanism than asked"),
        Mistake(plan.per_release, "that is the ε of one count; the question asks for the total that all the counts "
                                  "spend together.", name="one release for all of them"),
        Mistake(plans["delta 1/n"], "that totals the releases at δ = 1/n: the plan's δ is 1/(100 n), far below 1/n "
                                    "(publishing each record with probability δ is (0, δ)-DP), and the total depends "
                                    "on δ.", name="a δ other than the plan's"),
    ]
    hint = ("All counts at once at 95%: each fails with probability at most 0.05/k; ε = ln(1/(its failure "
            "probability))·Δf/α per count; then the exact total of k Laplace releases at δ = 1/(100 n), from their "
            "privacy loss distribution.")
    verdict = compare(answer, plan.exact,
                      f"each count at {1 - 0.05 / releases:.4%} needs ε = ln({20 * releases})·{cap:g}/{accuracy:g} = "
                      f"{plan.per_release:.4g}; {releases} of them at δ = {plan.delta:.3g} total {plan.exact:.4g} "
                      f"exactly (kε would say {plan.basic:.4g}).",
                      hint, figures=3, mistakes=live_mistakes(plan.exact, mistakes, 3))
    # Šidák's total is within two figures of the answer, where compare drops a mistake: named anyway, as right-minded
    sidak = Mistake(plans["sidak"].exact, "that plans each count at 0.95^(1/k) (Šidák's correction): exact when the "
                                          "counts' noises are independent, as they are here, but the exercise asks for "
                                          "the union bound (Theorem 3.8), which holds however they depend on each "
                                          "other.", name="an exact probability for Theorem 3.8's bound")
    return named_anyway(verdict, answer, sidak, 3, hint)
