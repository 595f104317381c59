"""Checkers for chapter 10: the Laplace mechanism at work."""

from __future__ import annotations

import math

import numpy as np

from ..dpsgd import dpsgd_noise_scale
from ..local import randomized_response_estimate
from ..sensitivity import l1_sensitivity
from ._base import Feedback, as_number, compare

__all__ = ["check_dpsgd_noise_scale", "check_purchase_sensitivity", "check_randomized_response_estimate"]


def check_randomized_response_estimate(answer, yes: int = 600, n: int = 1_000, epsilon: float = math.log(3)) -> Feedback:
    """Ch. 10, exercise 1: 1,000 people answer by randomized response at ε = ln 3; 600 reports say yes.
    What is the unbiased estimate of the true proportion of yes?"""
    expected = randomized_response_estimate([1] * yes + [0] * (n - yes), epsilon)
    value = as_number(answer)
    if isinstance(value, float) and math.isclose(value, yes / n):
        return Feedback(False, f"{yes / n:g} is the raw share of yes reports. A quarter of the reports are "
                               "flipped, which pulls the share towards 1/2: undo that.")
    q = 1 / (1 + math.exp(-epsilon))
    return compare(answer, expected,
                    f"q = e^ε/(1 + e^ε) = {q:g}, so p̂ = ({yes / n:g} − {1 - q:g}) / (2·{q:g} − 1) = {expected:g}.",
                    "E[share of yes reports] = (1 − q) + (2q − 1)·p with q = e^ε/(1 + e^ε); solve for p.", rel=1e-6)


def check_purchase_sensitivity(answer, categories: int = 4) -> Feedback:
    """Ch. 10, exercise 2: a shop has 4 categories and publishes, per category, the number of customers
    who bought in it (a customer who bought in 3 categories is counted in 3). What is Δf?"""
    universe = np.arange(2 ** categories)       # a customer type = the set of categories they bought in
    member = (universe[:, None] >> np.arange(categories)) & 1
    expected = l1_sensitivity(lambda x: x @ member, universe, max_size=1)
    value = as_number(answer)
    if isinstance(value, float) and math.isclose(value, 1.0):
        return Feedback(False, "Δf = 1 holds when each customer is counted once. Here one customer can be "
                               "in every category at once.")
    return compare(answer, expected,
                    f"one customer can be counted in all {categories} categories, so Δf = {expected:g} "
                    f"(unless each customer is capped at fewer, as dp.capped_histogram does: then Δf = c).",
                    "How many of the counts can one customer change, and by how much each?")


def check_dpsgd_noise_scale(answer, clip: float = 0.5, epsilon: float = 2.0, steps: int = 10) -> Feedback:
    """Ch. 10, exercise 3: DP-SGD with ℓ1 clip C = 0.5, T = 10 steps and a total ε = 2 by basic composition.
    What Laplace scale does each coordinate of each step's gradient sum get?"""
    expected = dpsgd_noise_scale(clip, epsilon, steps)
    value = as_number(answer)
    if isinstance(value, float) and math.isclose(value, clip / epsilon):
        return Feedback(False, f"{clip / epsilon:g} = C/ε spends the whole ε on one step. There are {steps} "
                               "steps, and their ε add up (Theorem 3.16).")
    return compare(answer, expected,
                    f"each step gets ε/T = {epsilon / steps:g}; the clipped sum has Δf = C = {clip:g}, so "
                    f"b = C/(ε/T) = {expected:g}.",
                    "Split ε over the T steps (basic composition), then b = Δf/ε_step with Δf = C.")
