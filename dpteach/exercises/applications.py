"""Checkers for chapter 10: the Laplace mechanism at work."""

from __future__ import annotations

import math

import numpy as np

from ..dpsgd import dpsgd_noise_scale
from ..local import randomized_response_estimate
from ..sensitivity import l1_sensitivity
from ._base import Feedback, Mistake, compare, exercise

__all__ = ["check_dpsgd_noise_scale", "check_purchase_sensitivity", "check_randomized_response_estimate"]


@exercise(prompt="{n:,} people answer a yes/no question by randomized response at ε = ln {odds:g}, and {yes:,} reports "
                 "say yes. What is the unbiased estimate of the true proportion of yes? Give 3 significant figures.",
          homework={"yes": (480, 520, 540, 660, 700, 840, 880, 900), "n": (1_200, 1_500, 2_000),
                    "odds": (4.0, 5.0, 7.0, 9.0)}, figures=3)
def check_randomized_response_estimate(answer, yes: int = 600, n: int = 1_000, odds: float = 3.0) -> Feedback:
    """Ch. 10, exercise 1: 1,000 people answer by randomized response at ε = ln 3 (``odds`` = e^ε = 3);
    600 reports say yes. What is the unbiased estimate of the true proportion of yes?"""
    epsilon = math.log(odds)
    expected = randomized_response_estimate([1] * yes + [0] * (n - yes), epsilon)
    share = yes / n
    q = odds / (1 + odds)
    q_raw = 1 / (1 + math.exp(-odds))                     # ε = odds typed for ε = ln(odds)
    mistakes = [
        Mistake(share, f"{share:g} is the raw share of yes reports. A share 1 − q of the reports is flipped, which "
                       "pulls the share towards 1/2: undo that.", name="randomized response not undone"),
        Mistake(share / (2 * q - 1), "the flipped reports' share 1 − q is not subtracted first.",
                name="randomized response not undone"),
        Mistake(share - (1 - q), "the flipped reports are subtracted, but the result is not rescaled: the share of "
                                 "yes reports moves by only 2q − 1 per unit of p.",
                name="randomized response not undone"),
        Mistake((share - (1 - q)) / q, "that divides by q. The share of yes reports moves by 2q − 1 per unit of p, "
                                       "not by q.", name="randomized response not undone"),
        Mistake((share - (1 - q_raw)) / (2 * q_raw - 1), f"that uses ε = {odds:g}. The exercise has ε = ln {odds:g}, "
                                                         f"so e^ε = {odds:g}.", name="a ratio for its logarithm"),
        Mistake(1 - expected, "that estimates the proportion of *no*. The question asks for yes.",
                name="the share of no for yes"),
        Mistake((share - q) / (1 - 2 * q), "q and 1 − q are swapped: a report is truthful with probability "
                                           "q = e^ε/(1 + e^ε), the larger one.", name="q and 1 − q swapped"),
    ]
    return compare(answer, expected,
                   f"q = e^ε/(1 + e^ε) = {q:g}, so p̂ = ({share:g} − {1 - q:g}) / (2·{q:g} − 1) = {expected:g}.",
                   "Each report is truthful with probability q = e^ε/(1 + e^ε) and flipped otherwise: write the "
                   "expected share of yes reports in terms of p, and invert it.", figures=3, mistakes=mistakes)


@exercise(prompt="A shop with {categories} categories publishes, for each category, the number of customers who "
                 "bought in it; a customer who bought in 3 categories is counted in 3. What is the ℓ1-sensitivity Δf "
                 "of the release? Give a whole number.",
          homework={"categories": (5, 6, 7, 8, 9)},
          few_answers="Δf is the number of categories, and the checker enumerates all 2^categories kinds of customer, "
                      "which keeps a shop to at most 9 categories (4 is the chapter's; 3 would be the example "
                      "customer's count): 5 to 9 categories, 5 answers.")
def check_purchase_sensitivity(answer, categories: int = 4) -> Feedback:
    """Ch. 10, exercise 2: a shop has 4 categories and publishes, per category, the number of customers
    who bought in it (a customer who bought in 3 categories is counted in 3). What is Δf?"""
    universe = np.arange(2 ** categories)       # a customer type = the set of categories they bought in
    member = (universe[:, None] >> np.arange(categories)) & 1
    expected = l1_sensitivity(lambda x: x @ member, universe, max_size=1)
    mistakes = [
        Mistake(1.0, "Δf = 1 holds when each customer is counted once. Here a customer can be counted in several "
                     "categories: how many counts can one customer change?", name="Δf = 1 where one person moves more"),
        Mistake(3.0, "3 is the example customer's count. Δf is the worst case over all customers: how many "
                     "categories can one customer be in?", name="an example for the worst case"),
        Mistake(float(universe.size), "that counts the kinds of customer (sets of categories). Δf is how much "
                                      "one customer can change the counts, in ℓ1.",
                name="Δf counted over the queries, not one person"),
        Mistake(math.sqrt(categories), "that is the ℓ2-sensitivity. The Laplace mechanism uses the ℓ1 norm.",
                name="ℓ2 for ℓ1"),
        Mistake(2.0 * categories, "that counts one customer's change twice. Definition 3.1's neighbours differ by "
                                  "adding or removing ONE customer; and here even swapping one customer for another "
                                  "moves the counts no further than adding or removing one does.",
                name="a change counted twice"),
    ]
    return compare(answer, expected,
                   f"one customer can be counted in all {categories} categories, so Δf = {expected:g} "
                   f"(unless each customer is capped at fewer, as dp.capped_histogram does: then Δf = c).",
                   "How many of the counts can one customer change, and by how much each?", figures=None,
                   mistakes=mistakes)


@exercise(prompt="DP-SGD clips each gradient to ℓ1 norm C = {clip:g} and takes T = {steps} steps, with a total ε = "
                 "{epsilon:g} by basic composition. What Laplace scale does each coordinate of each step's gradient "
                 "sum get? Give 3 significant figures.",
          homework={"clip": (0.3, 0.75, 1.5, 2.0), "epsilon": (0.5, 3.0, 4.0, 8.0),
                    "steps": (20, 40, 50, 60, 80, 100, 150, 200)}, figures=3)
def check_dpsgd_noise_scale(answer, clip: float = 0.5, epsilon: float = 2.0, steps: int = 10) -> Feedback:
    """Ch. 10, exercise 3: DP-SGD with ℓ1 clip C = 0.5, T = 10 steps and a total ε = 2 by basic composition.
    What Laplace scale does each coordinate of each step's gradient sum get?"""
    expected = dpsgd_noise_scale(clip, epsilon, steps)
    replace_one = 2 * clip * steps / epsilon
    no_clip = steps / epsilon
    both = math.isclose(replace_one, no_clip, rel_tol=1e-9)
    mistakes = [
        Mistake(clip / epsilon, f"{clip / epsilon:g} = C/ε spends the whole ε on one step. There are {steps} "
                                "steps, and their ε add up (Theorem 3.16).", name="the budget not shared"),
        Mistake(replace_one, ("that is the scale for replace-one neighbours, whose gradient sum can move by 2C — "
                              "or, the same number here, a scale without the clip C. " if both else
                              "that is the scale for replace-one neighbours, whose gradient sum can move by 2C. ")
                + "Here neighbours add or remove one example, so the clipped sum moves by at most C: Δf = C.",
                name="replace-one for add/remove"),
        Mistake(no_clip, "the clip C is missing: the clipped gradient sum's Δf is C.", name="Δf left out"),
        Mistake(clip / (epsilon * steps), "that divides by T twice over: each step gets ε/T, and the scale "
                                          "Δf/(ε/T) is larger than C/ε, not smaller.",
                name="the k releases counted twice"),
        Mistake(clip * math.sqrt(steps) / epsilon, "that scales with √T, as advanced composition or a moments "
                                                   "accountant would. The exercise uses basic composition: ε/T "
                                                   "per step.", name="advanced composition where only basic holds"),
        Mistake(clip * steps * epsilon, "that multiplies by ε. The Laplace scale is Δf/ε_step: it divides.",
                name="×ε for ÷ε"),
        Mistake(epsilon / (clip * steps), "that is upside down: the Laplace scale is Δf divided by ε_step.",
                name="Δf/ε upside down"),
    ]
    return compare(answer, expected,
                   f"each step gets ε/T = {epsilon / steps:g}; the clipped sum has Δf = C = {clip:g}, so "
                   f"b = C/(ε/T) = {expected:g}.",
                   "Split ε over the T steps (basic composition), then the Laplace scale for the clipped sum's Δf.",
                   figures=3, mistakes=mistakes)
