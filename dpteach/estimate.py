"""An estimate from samples next to the value theory predicts, with its standard error.

A Monte Carlo estimate (an average of n independent terms) is random: it never equals its
theory value exactly, and how far it lands changes from draw to draw. What does not change
is the yardstick, the standard error √(variance of one term / n): a correct sampler puts the
estimate within 2 standard errors of the theory about 95% of the time (the central limit
theorem). These helpers do that bookkeeping, so a chapter shows the comparison, not the
arithmetic.

A count of successes out of n trials is estimated with exact bounds instead: the one-sided
Clopper–Pearson bounds (Clopper & Pearson 1934), which the audits and the confidence
intervals of the accuracy chapter are built on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import _validate
from ._roots import bisect


@dataclass(frozen=True)
class Estimate:
    """An estimate, the value theory predicts, and the standard error of the estimate.

    ``distance`` is (estimate − theory) / s.e.: for a correct sampler and large n it is close
    to a standard normal draw, so most of the time it lies between −2 and 2.
    """

    name: str
    estimate: float
    theory: float
    se: float
    n: int

    @property
    def distance(self) -> float:
        """How many standard errors the estimate lies from theory (signed)."""
        return (self.estimate - self.theory) / self.se

    def __repr__(self) -> str:
        return (f"{self.name}: {self.estimate:.4f}  (theory {self.theory:.4f}, s.e. {self.se:.4f}, "
                f"{self.distance:+.1f} s.e. from theory)")


class EstimateTable(tuple):
    """Several estimates, shown as one aligned table."""

    def __repr__(self) -> str:
        width = max([len(e.name) for e in self] + [8])
        lines = [f"{'':<{width}}  {'estimate':>9}  {'theory':>9}  {'s.e.':>7}  {'distance in s.e.':>16}"]
        lines += [f"{e.name:<{width}}  {e.estimate:>9.4f}  {e.theory:>9.4f}  {e.se:>7.4f}  {e.distance:>+16.1f}"
                  for e in self]
        return "\n".join(lines)


def mean_estimate(terms, theory: float, term_variance: float, name: str = "mean") -> Estimate:
    """The average of ``terms`` as an estimate of ``theory``.

    ``term_variance`` is the variance of one term *according to theory* (e.g. 2b² for a
    Laplace draw), so the standard error √(term_variance / n) does not depend on the draw.
    """
    values = _validate.array("terms", terms)
    th = _validate.real("theory", theory)
    var = _validate.positive("term_variance", term_variance, why="the standard error needs a spread")
    n = values.size
    return Estimate(str(name), float(values.mean()), th, math.sqrt(var / n), n)


def fraction_estimate(outcomes, theory: float, name: str = "fraction") -> Estimate:
    """The fraction of True ``outcomes`` as an estimate of the probability ``theory``.

    One outcome is a yes/no (Bernoulli) term with variance p(1 − p), p = ``theory``.
    """
    values = _validate.array("outcomes", outcomes)
    if not np.isin(values, (0.0, 1.0)).all():
        raise ValueError("outcomes must be yes/no values (True/False or 1/0)")
    p = _validate.real("theory", theory, low=0, high=1, low_open=True, high_open=True)
    return mean_estimate(values, p, p * (1 - p), name)


def detection_probability(shift: float, se: float, tolerance: float) -> float:
    """The probability that a check "|estimate − theory| < tolerance" fails, when the estimate
    is (approximately) normal with standard error ``se`` and its mean is ``shift`` away from
    theory: how often the check notices an error of that size (statisticians call this its power).

    .. math:: Φ((shift − tolerance)/se) + Φ((−shift − tolerance)/se)
    """
    d = _validate.real("shift", shift)
    s = _validate.positive("se", se, why="a standard error is a spread")
    tol = _validate.positive("tolerance", tolerance, why="the check's half-width")

    def phi(z: float) -> float:
        return 0.5 * math.erfc(-z / math.sqrt(2))

    return phi((d - tol) / s) + phi((-d - tol) / s)


# -- one-sided Clopper–Pearson bounds, fast for large n ------------------------------------------

def _log_binomial_coefficients(n: int, j: np.ndarray) -> np.ndarray:
    """ln C(n, j) for a run of consecutive j, from one lgamma and a cumulative sum of ratios."""
    first = int(j[0])
    start = math.lgamma(n + 1) - math.lgamma(first + 1) - math.lgamma(n - first + 1)
    steps = np.log(n - j[:-1]) - np.log(j[:-1] + 1.0)
    return start + np.r_[0.0, np.cumsum(steps)]


def _tail_sum(log_c: np.ndarray, j: np.ndarray, n: int, p: float) -> float:
    if p <= 0.0:
        return 1.0 if j[0] == 0 else 0.0
    if p >= 1.0:
        return 1.0 if j[-1] == n else 0.0
    return float(np.exp(log_c + j * math.log(p) + (n - j) * math.log1p(-p)).sum())


def _window(n: int, s: int) -> int:
    q = min(s / n, 0.5)
    return int(25 * math.sqrt(n * q * (1 - q)) + 60)


def clopper_pearson_lower(successes: int, trials: int, level: float) -> float:
    """One-sided Clopper–Pearson lower bound: the p_lo with Pr[X ≥ s | p_lo] = ``level`` (0 when s = 0).

    .. math:: \\Pr[\\,p < p_{lo}\\,] \\le \\mathrm{level} \\quad\\text{for } X \\sim \\mathrm{Bin}(n, p)

    The same bound as the lower end of :func:`dpteach.binomial_ci` with confidence
    1 − 2·level, computed by bisection on a window of the binomial tail (terms more than
    25 standard deviations out are below 10⁻¹³⁰ and left out), so it stays fast for
    n = 10⁶. The bisection returns the lower end of its final bracket: never too high.

    Examples
    --------
    >>> round(clopper_pearson_lower(25, 500, 0.025), 4)
    0.0326
    """
    n = _validate.integer("trials", trials, low=1)
    s = _validate.integer("successes", successes, low=0, high=n)
    a = _validate.real("level", level, low=0.0, high=1.0, low_open=True, high_open=True)
    if s == 0:
        return 0.0
    j = np.arange(s, min(n, s + _window(n, s)) + 1)
    log_c = _log_binomial_coefficients(n, j)
    # Pr[X ≥ s | p] increases with p; at p = s/n it is ≥ ½ > level
    lo, _ = bisect(lambda p: _tail_sum(log_c, j, n, p) < a, 0.0, s / n)
    return lo


def clopper_pearson_upper(successes: int, trials: int, level: float) -> float:
    """One-sided Clopper–Pearson upper bound: the p_hi with Pr[X ≤ s | p_hi] = ``level`` (1 when s = n): the bound fails with
    probability at most ``level``.

    Examples
    --------
    >>> round(clopper_pearson_upper(25, 500, 0.025), 4)
    0.0729
    """
    n = _validate.integer("trials", trials, low=1)
    s = _validate.integer("successes", successes, low=0, high=n)
    a = _validate.real("level", level, low=0.0, high=1.0, low_open=True, high_open=True)
    return 1.0 - clopper_pearson_lower(n - s, n, a)
