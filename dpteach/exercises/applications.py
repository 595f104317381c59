"""Checkers for chapter 10: the Laplace mechanism at work."""

from __future__ import annotations

import math

import numpy as np

from ..dpsgd import dpsgd_noise_scale
from ..local import randomized_response_estimate
from ..sensitivity import l1_sensitivity
from ._base import Feedback, Mistake, compare

__all__ = ["check_dpsgd_noise_scale", "check_purchase_sensitivity", "check_randomized_response_estimate"]


def check_randomized_response_estimate(answer, yes: int = 600, n: int = 1_000, epsilon: float = math.log(3)) -> Feedback:
    """Ch. 10, exercise 1: 1,000 people answer by randomized response at ε = ln 3; 600 reports say yes.
    What is the unbiased estimate of the true proportion of yes?"""
    expected = randomized_response_estimate([1] * yes + [0] * (n - yes), epsilon)
    share = yes / n
    q = 1 / (1 + math.exp(-epsilon))
    q_raw = 1 / (1 + math.exp(-3.0))                     # ε = 3 typed for ε = ln 3
    mistakes = [
        Mistake(share, f"{share:g} is the raw share of yes reports. A quarter of the reports are flipped, which "
                       "pulls the share towards 1/2: undo that."),
        Mistake(share / (2 * q - 1), "the flipped reports' share 1 − q is not subtracted: "
                                     "p̂ = (share − (1 − q))/(2q − 1)."),
        Mistake((share - (1 - q)) / q, "that divides by q. The share moves by 2q − 1 per unit of p: "
                                       "p̂ = (share − (1 − q))/(2q − 1)."),
        Mistake((share - (1 - q_raw)) / (2 * q_raw - 1), "that uses ε = 3. The exercise has ε = ln 3, so e^ε = 3 "
                                                         "and q = 3/4."),
        Mistake(1 - expected, "that estimates the proportion of *no*. The question asks for yes."),
    ]
    return compare(answer, expected,
                   f"q = e^ε/(1 + e^ε) = {q:g}, so p̂ = ({share:g} − {1 - q:g}) / (2·{q:g} − 1) = {expected:g}.",
                   "E[share of yes reports] = (1 − q) + (2q − 1)·p with q = e^ε/(1 + e^ε); solve for p.", rel=1e-6,
                   mistakes=mistakes)


def check_purchase_sensitivity(answer, categories: int = 4) -> Feedback:
    """Ch. 10, exercise 2: a shop has 4 categories and publishes, per category, the number of customers
    who bought in it (a customer who bought in 3 categories is counted in 3). What is Δf?"""
    universe = np.arange(2 ** categories)       # a customer type = the set of categories they bought in
    member = (universe[:, None] >> np.arange(categories)) & 1
    expected = l1_sensitivity(lambda x: x @ member, universe, max_size=1)
    mistakes = [
        Mistake(1.0, "Δf = 1 holds when each customer is counted once. Here one customer can be in every "
                     "category at once."),
        Mistake(3.0, "3 is the example customer's count. Δf is the worst case over all customers: how many "
                     "categories can one customer be in?"),
        Mistake(float(universe.size), "that counts the kinds of customer (sets of categories). Δf is how much "
                                      "one customer can change the counts, in ℓ1."),
        Mistake(math.sqrt(categories), "that is the ℓ2-sensitivity. The Laplace mechanism uses the ℓ1 norm."),
    ]
    return compare(answer, expected,
                   f"one customer can be counted in all {categories} categories, so Δf = {expected:g} "
                   f"(unless each customer is capped at fewer, as dp.capped_histogram does: then Δf = c).",
                   "How many of the counts can one customer change, and by how much each?", mistakes=mistakes)


def check_dpsgd_noise_scale(answer, clip: float = 0.5, epsilon: float = 2.0, steps: int = 10) -> Feedback:
    """Ch. 10, exercise 3: DP-SGD with ℓ1 clip C = 0.5, T = 10 steps and a total ε = 2 by basic composition.
    What Laplace scale does each coordinate of each step's gradient sum get?"""
    expected = dpsgd_noise_scale(clip, epsilon, steps)
    mistakes = [
        Mistake(clip / epsilon, f"{clip / epsilon:g} = C/ε spends the whole ε on one step. There are {steps} "
                                "steps, and their ε add up (Theorem 3.16)."),
        Mistake(steps / epsilon, "the clip C is missing: the gradient sum's Δf is C, so b = C/(ε/T)."),
        Mistake(clip / (epsilon * steps), "that divides by T twice over: each step gets ε/T, and the scale is "
                                          "Δf/(ε/T) = C·T/ε, larger than C/ε, not smaller."),
        Mistake(clip * math.sqrt(steps) / epsilon, "that scales with √T, as advanced composition or a moments "
                                                   "accountant would. The exercise uses basic composition: ε/T "
                                                   "per step."),
        Mistake(clip * steps * epsilon, "that multiplies by ε. The Laplace scale is Δf/ε_step: it divides."),
    ]
    return compare(answer, expected,
                   f"each step gets ε/T = {epsilon / steps:g}; the clipped sum has Δf = C = {clip:g}, so "
                   f"b = C/(ε/T) = {expected:g}.",
                   "Split ε over the T steps (basic composition), then b = Δf/ε_step with Δf = C.", mistakes=mistakes)
