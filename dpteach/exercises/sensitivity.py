"""Checkers for chapter 01: ℓ1- and ℓ2-sensitivity (Definition 3.1)."""

from __future__ import annotations

import numpy as np

from ..sensitivity import l1_sensitivity, l2_sensitivity
from ._base import Feedback, compare

__all__ = ["check_count_and_sum_sensitivity", "check_l2_sensitivity_of_counts"]


def check_count_and_sum_sensitivity(answer) -> Feedback:
    """Ch. 01, exercise 1: a count of people aged 65+ released together with the sum of all ages
    clipped to [0, 100]: what is the ℓ1-sensitivity of the pair?"""
    ages = np.arange(0, 101)
    expected = l1_sensitivity(lambda x: np.array([x[65:].sum(), x @ np.clip(ages, 0, 100)]), ages, max_size=1)
    return compare(answer, expected,
                    f"one person aged 65+ can move the count by 1 and the sum by 100 at once: "
                    f"Δf = 1 + 100 = {expected:g}.",
                    "Think of the one person who moves both coordinates as far as possible, "
                    "and add the two changes (ℓ1 norm).")


def check_l2_sensitivity_of_counts(answer, k: int = 9) -> Feedback:
    """Ch. 01, exercise 2: ℓ2-sensitivity of k = 9 counting queries that one person can all change."""
    universe = np.arange(2)
    expected = l2_sensitivity(lambda x: np.full(k, x[1]), universe, max_size=1)
    return compare(answer, expected,
                    f"each of the {k} counts moves by 1, so ‖·‖₂ = √{k} = {expected:g} (ℓ1 would be {k}).",
                    "Each count can move by 1 at the same time; take the Euclidean length of that change.")
