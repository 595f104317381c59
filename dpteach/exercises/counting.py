"""Checkers for chapter 04: counting and histogram queries (Examples 3.1 and 3.2)."""

from __future__ import annotations

import math

import numpy as np

from ..counting import counting_queries_scale, counting_queries_sensitivity, histogram_noise
from ._base import Feedback, compare

__all__ = ["check_overlapping_bands_sensitivity", "check_count_relative_error", "check_derived_count_std"]


def check_overlapping_bands_sensitivity(answer) -> Feedback:
    """Ch. 04, exercise 1: Δf of four overlapping age bands, 0–29, 20–49, 40–69 and 60–99,
    counted over a universe of ages 0–99."""
    ages = np.arange(100)
    bands = [(0, 30), (20, 50), (40, 70), (60, 100)]
    queries = np.array([(ages >= lo) & (ages < hi) for lo, hi in bands])
    expected = counting_queries_sensitivity(queries)
    return compare(answer, expected,
                    f"the bands overlap in pairs (20–29, 40–49, 60–69), so one person is counted by at most "
                    f"{expected:g} bands: Δf = {expected:g}, and each band needs Lap({expected:g}/ε).",
                    "Δf is the largest number of queries one person can be counted in. Find an age that two "
                    "bands share; can any age be in three?")


def check_count_relative_error(answer, count: int = 5_000, n: int = 1_000_000, epsilon: float = 0.1) -> Feedback:
    """Ch. 04, exercise 2: the expected relative error E|Y| / count of a count of 5,000 among
    n = 1,000,000 people, released at ε = 0.1."""
    b = counting_queries_scale(1, epsilon, disjoint=True)
    expected = b / count
    return compare(answer, expected,
                    f"E|Y| = b = 1/ε = {b:g} people whatever n is, so the relative error is "
                    f"{b:g}/{count:,} = {expected:g} ({expected:.1%}). n = {n:,} plays no part.",
                    "A count has Δf = 1, so the expected absolute error is E|Y| = b = 1/ε; divide by the count. "
                    "Does n enter?", rel=1e-3)


def check_derived_count_std(answer, cells: int = 4, epsilon: float = 1.0) -> Feedback:
    """Ch. 04, exercise 3: the standard deviation of "age ≥ 60" computed by adding the 4 decade
    cells 60–69, …, 90–99 of a histogram released at ε = 1."""
    per_cell = histogram_noise(1, epsilon, cells)
    expected = math.sqrt(cells * per_cell.variance)
    return compare(answer, expected,
                    f"each cell's noise has variance 2(1/ε)² = {per_cell.variance:g}; independent variances add, "
                    f"so the sum of {cells} cells has std √({cells}·{per_cell.variance:g}) = {expected:.4f}.",
                    "The cells' noises are independent, so their variances add. The variance of Lap(b) is 2b².",
                    rel=1e-3)
