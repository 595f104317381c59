"""Gaussian differential privacy: one number μ for the whole trade-off curve (Dong, Roth & Su 2019).

Chapter 11 reads ε-DP as a limit on hypothesis tests: every test of "the data is x" against a
neighbour y has a false negative rate (type-II error) FNR at least f(FPR) for the false positive rate
(type-I error) FPR it accepts. Dong, Roth &
Su (*Gaussian Differential Privacy*, arXiv:1905.02383, 2019, whose numbering is cited here; in
J. R. Stat. Soc. B 2022 Theorem 2.7 and Corollary 2.13 are Theorem 1 and Corollary 1) call a
mechanism f-DP when every test obeys FNR ≥ f(FPR), and single out one family of curves,

.. math:: G_μ(x) = Φ\\left(Φ^{-1}(1 - x) - μ\\right) \\quad \\text{at } \\mathrm{FPR} = x,

the trade-off of testing N(0, 1) against N(μ, 1). A mechanism is μ-GDP when it is G_μ-DP.

* The Gaussian mechanism N(0, σ²) on a query of ℓ2-sensitivity Δ is μ-GDP with μ = Δ/σ, and
  exactly so: its best tests are thresholds, and their errors trace G_μ (their Theorem 2.7).
* Composition is exact and closed: a μ₁-GDP and a μ₂-GDP mechanism, even chosen adaptively,
  compose to √(μ₁² + μ₂²)-GDP (their Corollary 3.3), so k Gaussian releases at σ cost μ√k,
  with nothing lost on the way. An accountant that composes (ε, δ) pairs loses at each step.
* μ-GDP is (ε, δ(ε))-DP for every ε ≥ 0 at once, with
  δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (their Corollary 2.13), and for no smaller δ: the
  same formula as Balle & Wang's (2018) exact δ of the Gaussian mechanism with Δ/σ = μ
  (:func:`~dpteach.gaussian_delta`).

Φ and Φ⁻¹ come from :mod:`dpteach._special` (numpy and the standard library only).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import _special, _validate
from .composition import advanced_composition, optimal_composition
from .exact_composition import gaussian_zcdp_rho, zcdp_to_dp
from .gaussian import gaussian_delta, gaussian_epsilon

__all__ = [
    "GaussianCompositionTotals",
    "gaussian_composition",
    "gaussian_gdp_mu",
    "gdp_best_success",
    "gdp_compose",
    "gdp_delta",
    "gdp_epsilon",
    "gdp_tradeoff",
]

_WHY_MU = "μ ≥ 0 measures how far apart the two worlds are (μ = Δ/σ for the Gaussian mechanism; 0 is a coin toss)"
_WHY_DELTA = "δ in (0, 1): μ-GDP with μ > 0 is (ε, δ)-DP for no ε at δ = 0"


def _mu(mu) -> float:
    return _validate.real("mu", mu, low=0.0, low_open=False, why=_WHY_MU)


def _out(a: np.ndarray):
    return a if a.ndim else float(a)


def gaussian_gdp_mu(std: float, sensitivity: float = 1.0) -> float:
    """μ = Δ/σ: N(0, σ²) noise on a query of ℓ2-sensitivity Δ is exactly μ-GDP (Dong, Roth & Su 2019, Theorem 2.7).

    Examples
    --------
    >>> gaussian_gdp_mu(10.0)
    0.1
    """
    s = _validate.positive("std", std, why="σ, the noise's standard deviation")
    d = _validate.positive("sensitivity", sensitivity, why="Δ₂f, the largest ℓ2 change one person can cause")
    return d / s


def gdp_tradeoff(fpr, mu: float) -> np.ndarray | float:
    """G_μ(FPR) = Φ(Φ⁻¹(1 − FPR) − μ): the smallest false negative rate at a false positive rate FPR, against μ-GDP.

    The trade-off curve of testing N(0, 1) against N(μ, 1) (Dong, Roth & Su 2019, Definition 2.5):
    the test "say y when z ≥ t" has FPR = 1 − Φ(t) and FNR = Φ(t − μ), and no test does better
    (Neyman–Pearson: the likelihood ratio grows with z). Computed as Φ(−Φ⁻¹(FPR) − μ), which keeps
    full precision for small FPR. μ = 0 is the coin toss FNR = 1 − FPR.

    Examples
    --------
    >>> round(gdp_tradeoff(0.05, 1.0), 5)
    0.74049
    """
    a = _validate.array("fpr", fpr, nonempty=False)
    if ((a < 0) | (a > 1)).any():
        raise ValueError(f"fpr must be in [0, 1] everywhere, got {fpr!r}; FPR is a probability (a test's false "
                         "positive rate, its type-I error)")
    m = _mu(mu)
    z = -np.asarray(_special.ndtri(a))                 # Φ⁻¹(1 − FPR), ±∞ at the ends
    with np.errstate(invalid="ignore"):
        fnr = _special.norm_cdf_array(np.where(np.isfinite(z), z - m, z))
    fnr = np.where(a <= 0.0, 1.0, np.where(a >= 1.0, 0.0, fnr))
    return _out(np.asarray(fnr, dtype=np.float64))


def gdp_compose(mus) -> float:
    """√(Σ μᵢ²): μᵢ-GDP mechanisms, composed (adaptively, in any order), are exactly this GDP (Dong, Roth & Su
    2019, Corollary 3.3). k releases at one μ cost μ√k: 100 Gaussians at σ = 10 (μ = 0.1 each) are 1-GDP.

    Examples
    --------
    >>> round(gdp_compose([0.1] * 100), 12)
    1.0
    """
    m = _validate.array("mus", mus, ndim=(0, 1), nonnegative=True)
    return float(np.sqrt(np.sum(np.atleast_1d(m) ** 2)))


def gdp_delta(epsilon, mu: float) -> np.ndarray | float:
    """The smallest δ with which a μ-GDP mechanism is (ε, δ)-DP, for each ε ≥ 0 (Dong, Roth & Su 2019, Cor. 2.13).

    .. math:: δ(ε) = Φ\\left(-\\frac{ε}{μ} + \\frac{μ}{2}\\right) - e^{ε}\\, Φ\\left(-\\frac{ε}{μ} - \\frac{μ}{2}\\right)

    μ-GDP holds every one of these (ε, δ(ε)) at once; each alone says less than G_μ (its
    region's straight edges touch the curve at one pair of points). The formula is Balle &
    Wang's (2018) exact δ of the Gaussian mechanism with Δ/σ = μ, computed by
    :func:`~dpteach.gaussian_delta` (the second term as exp(ε + ln Φ), finite where Φ underflows).

    Examples
    --------
    >>> round(gdp_delta(1.0, 1.0), 5)
    0.12694
    """
    e = _validate.array("epsilon", epsilon, nonempty=False)
    if (e < 0).any():
        raise ValueError(f"epsilon must be >= 0 everywhere, got {epsilon!r}; δ(ε) is asked for ε ≥ 0")
    m = _mu(mu)
    if m == 0.0:
        return _out(np.zeros(e.shape))
    values = np.array([gaussian_delta(1.0 / m, 1.0, float(x)) for x in e.ravel()]).reshape(e.shape)
    return _out(values)


def gdp_epsilon(delta: float, mu: float) -> float:
    """The smallest ε with which a μ-GDP mechanism is (ε, δ)-DP: :func:`gdp_delta` inverted (δ(ε) falls with ε).

    By bisection to 1e-12 relative, on the safe side (:func:`~dpteach.gaussian_epsilon` at σ = 1/μ,
    Δ = 1: only Δ/σ matters).

    Examples
    --------
    >>> round(gdp_epsilon(1e-6, 1.0), 4)
    4.8866
    """
    d = _validate.real("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True, why=_WHY_DELTA)
    m = _mu(mu)
    if m == 0.0:
        return 0.0
    return gaussian_epsilon(1.0 / m, 1.0, d)


def gdp_best_success(mu: float) -> float:
    """Φ(μ/2): the best chance of guessing x or y right, with a 50/50 prior, against a μ-GDP mechanism.

    The smallest (FPR + FNR)/2 on G_μ is at the symmetric point FPR = FNR = Φ(−μ/2) (the curve is
    symmetric and convex), so the best guess is right with probability 1 − Φ(−μ/2) = Φ(μ/2).
    """
    return float(_special.norm_cdf(_mu(mu) / 2.0))


#: The shares of δ that advanced and optimal composition may give to the releases (the rest is their slack δ′).
DELTA_SHARES = (0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99)


@dataclass(frozen=True)
class GaussianCompositionTotals:
    """The total ε at δ of k releases of N(0, σ²) on a query of ℓ2-sensitivity Δ, accounted five ways.

    ``mu`` is one release's Δ/σ and ``mu_total`` the composition's μ√k. ``exact`` is μ√k-GDP's
    ε(δ) (:func:`gdp_epsilon`): the truth for these releases. ``zcdp`` converts kρ-zCDP
    (:func:`~dpteach.zcdp_to_dp`). ``basic``, ``advanced`` and ``optimal`` are chapter 06's
    accounting, which needs each release as an (ε₀, δ₀)-DP mechanism, ε₀ the Gaussian's exact
    ε at δ₀: ``basic`` is (kε₀, kδ₀) with δ₀ = δ/k; ``advanced`` (Theorem 3.20) and ``optimal``
    (Kairouz, Oh & Viswanath 2015, Theorem 3.3) give a share f of δ to the releases (δ₀ = fδ/k)
    and the rest to their slack δ′, each at the best f of :data:`DELTA_SHARES`
    (``advanced_share``, ``optimal_share``). ``pairs`` is the smallest of the three.
    """

    k: int
    std: float
    sensitivity: float
    delta: float
    mu: float
    mu_total: float
    basic: float
    advanced: float
    optimal: float
    zcdp: float
    exact: float
    advanced_share: float
    optimal_share: float

    @property
    def pairs(self) -> float:
        """The best of chapter 06's (ε, δ) accounting: min(basic, advanced, optimal)."""
        return min(self.basic, self.advanced, self.optimal)

    def __repr__(self) -> str:
        return (f"{self.k} Gaussian releases at σ = {self.std:g} (μ = {self.mu:.3g} each, {self.mu_total:.3g} in "
                f"all), total ε at δ = {self.delta:g}: basic {self.basic:.3g}, advanced {self.advanced:.3g}, "
                f"optimal {self.optimal:.3g}, zCDP {self.zcdp:.3g}, exact (GDP) {self.exact:.3g}")


def gaussian_composition(k: int, std: float, delta: float = 1e-6, sensitivity: float = 1.0) -> GaussianCompositionTotals:
    """k releases of N(0, σ²) noise on a query of ℓ2-sensitivity Δ: their total ε at δ by GDP, zCDP and chapter 06.

    GDP is exact: the k releases are μ√k-GDP with μ = Δ/σ (Dong, Roth & Su 2019), whose ε(δ) is
    the smallest ε of any (ε, δ) guarantee they have. zCDP adds ρ = Δ²/(2σ²) per release and
    converts (Canonne, Kamath & Steinke 2020). Chapter 06's (ε, δ) accounting first replaces
    each release by one (ε₀, δ₀) pair, which forgets the rest of its curve; see
    :class:`GaussianCompositionTotals` for how δ is shared.

    Examples
    --------
    >>> gaussian_composition(100, 10.0)
    100 Gaussian releases at σ = 10 (μ = 0.1 each, 1 in all), total ε at δ = 1e-06: basic 49.3, advanced 59.7, optimal 34.3, zCDP 5.22, exact (GDP) 4.89
    """
    kk = _validate.integer("k", k, low=1, high=10_000_000, why="k releases, k ≥ 1")
    s = _validate.positive("std", std, why="σ, the noise's standard deviation")
    sens = _validate.positive("sensitivity", sensitivity, why="Δ₂f, the largest ℓ2 change one person can cause")
    d = _validate.real("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True, why=_WHY_DELTA)
    mu = sens / s
    mu_total = mu * math.sqrt(kk)
    advanced = optimal = (math.inf, 0.0)
    for share in DELTA_SHARES:
        d0, slack = share * d / kk, (1 - share) * d
        eps0 = gdp_epsilon(d0, mu)
        advanced = min(advanced, (advanced_composition(kk, eps0, slack, d0)[0], share))
        optimal = min(optimal, (optimal_composition(kk, eps0, slack, d0)[0], share))
    zcdp = float(zcdp_to_dp(kk * gaussian_zcdp_rho(s, sens), d))
    return GaussianCompositionTotals(kk, s, sens, d, mu, mu_total, kk * gdp_epsilon(d / kk, mu), advanced[0],
                                     optimal[0], zcdp, gdp_epsilon(d, mu_total), advanced[1], optimal[1])
