"""dpteach's accountants and calibrations against Google's dp-accounting.

Each comparison states its tolerance (see peers_common.compares) and, for every accountant, a safe-side
check: dpteach never reports a smaller δ or ε, or a larger number of releases, than the truth allows.
Where the truth is not known in closed form, dp-accounting's *optimistic* estimate (a lower bound on the
truth) bounds δ and ε from below and its *pessimistic* one (an upper bound) bounds the release count.
"""

from __future__ import annotations

import math

import pytest
from dp_accounting import gaussian_mechanism as dpa_gauss
from dp_accounting.pld import privacy_loss_distribution as dpa_pld
from dp_accounting.pld import privacy_loss_mechanism as dpa_plm
from peers_common import close, compares
from scipy import optimize, stats

import dpteach as dp

pytestmark = pytest.mark.slow

#: dp-accounting's discretisation of the loss axis (its default); from 1,000 releases on a tenth of it, since its
#: pessimism adds up over the releases (at 10⁴ Gaussians and 1e-4 its δ is 2.5e-3 high, at 1e-5 3e-5)
INTERVAL = 1e-4


def _interval(k: int) -> float:
    return INTERVAL if k < 1000 else INTERVAL / 10


def _composed(pld, k: int):
    return pld.self_compose(k) if k > 1 else pld


def _laplace(b: float, k: int, pessimistic: bool = True):
    return _composed(dpa_pld.from_laplace_mechanism(b, value_discretization_interval=_interval(k),
                                                    pessimistic_estimate=pessimistic,
                                                    use_connect_dots=pessimistic), k)


def _gaussian(std: float, k: int, pessimistic: bool = True):
    return _composed(dpa_pld.from_gaussian_mechanism(std, value_discretization_interval=_interval(k),
                                                     pessimistic_estimate=pessimistic,
                                                     use_connect_dots=pessimistic), k)


# -- privacy loss distributions --------------------------------------------------------------------

@compares(quantity="δ(ε) of k Laplace releases on a count (privacy loss distribution)", peer="dp-accounting",
          grid="(k, b) ∈ {(1, 0.7), (1, 2), (10, 4), (100, 30), (1000, 100)} × ε ∈ {0.1, 0.3, 0.7, 1, 1.5}",
          tolerance="2e-3 relative + 1e-9; never below dp-accounting's optimistic δ")
@pytest.mark.parametrize("k, b", [(1, 0.7), (1, 2.0), (10, 4.0), (100, 30.0), (1000, 100.0)])
def test_laplace_pld(k, b):
    ours = dp.privacy_loss_distribution(dp.laplace_noise(b), k)
    upper, lower = _laplace(b, k), _laplace(b, k, pessimistic=False)
    for eps in (0.1, 0.3, 0.7, 1.0, 1.5):
        close(ours.delta(eps), upper.get_delta_for_epsilon(eps), rel=2e-3, atol=1e-9, what=f"k={k} b={b} ε={eps}")
        assert ours.delta(eps) >= lower.get_delta_for_epsilon(eps) * (1 - 1e-12)


@compares(quantity="δ(ε) of k Gaussian releases (privacy loss distribution)", peer="dp-accounting",
          grid="(k, σ) ∈ {(1, 3.7306), (1, 1), (100, 40), (1000, 120), (10⁴, 400)} × ε ∈ {0.25, 0.5, 1, 2}",
          tolerance="2e-3 relative + 1e-12; never below Balle & Wang's exact δ (dp-accounting's formula)")
@pytest.mark.parametrize("k, std", [(1, 3.7306), (1, 1.0), (100, 40.0), (1000, 120.0), (10_000, 400.0)])
def test_gaussian_pld(k, std):
    ours = dp.privacy_loss_distribution(dp.gaussian_noise(std), k)
    upper = _gaussian(std, k)
    exact = dpa_plm.GaussianPrivacyLoss(std / math.sqrt(k), sensitivity=1.0)    # k shifted by 1 = one shifted by √k
    for eps in (0.25, 0.5, 1.0, 2.0):
        close(ours.delta(eps), upper.get_delta_for_epsilon(eps), rel=2e-3, atol=1e-12, what=f"k={k} σ={std} ε={eps}")
        assert ours.delta(eps) >= exact.get_delta_for_epsilon(eps) * (1 - 1e-12) - 1e-15


@compares(quantity="δ(ε) of Gaussian releases composed as μ-GDP (gdp_compose then gdp_delta: Dong, Roth & Su's "
                   "Corollary 3.3 and 2.13)", peer="dp-accounting",
          grid="μ's ∈ {(0.5), (0.1 × 100), (0.3, 0.5, 1), (0.02 × 1000), (1, 2)} × ε ∈ {0.25, 0.5, 1, 2}",
          tolerance="2e-3 relative + 1e-12 of dp-accounting's composed distribution; never below Balle & Wang's "
                    "exact δ at the composed μ (dp-accounting's formula)")
@pytest.mark.parametrize("mus", [(0.5,), (0.1,) * 100, (0.3, 0.5, 1.0), (0.02,) * 1000, (1.0, 2.0)],
                         ids=["one", "100 alike", "three", "1000 alike", "two"])
def test_gdp_composition(mus):
    """A Gaussian release with Δ/σ = μ is exactly μ-GDP, and μ-GDP releases compose to √(Σμ²)-GDP: dpteach's δ
    from that one number against dp-accounting composing each release's privacy loss distribution."""
    total = dp.gdp_compose(mus)
    pld = None
    for mu, count in {m: mus.count(m) for m in mus}.items():
        part = _gaussian(1.0 / mu, count)
        pld = part if pld is None else pld.compose(part)
    exact = dpa_plm.GaussianPrivacyLoss(1.0 / total, sensitivity=1.0)
    for eps in (0.25, 0.5, 1.0, 2.0):
        ours = dp.gdp_delta(eps, total)
        close(ours, pld.get_delta_for_epsilon(eps), rel=2e-3, atol=1e-12, what=f"μ's={mus[:3]}… ε={eps}")
        assert ours >= exact.get_delta_for_epsilon(eps) * (1 - 1e-12) - 1e-15


class GeneralizedGaussianLoss(dpa_plm.AdditiveNoisePrivacyLoss):
    """dp-accounting's privacy loss for Generalized Gaussian noise (REMOVE adjacency, sensitivity 1), written
    independently of dpteach: scipy's gennorm for the CDF, brentq for the inverse loss."""

    def __init__(self, p: float, sigma: float) -> None:
        self.p, self.sigma = p, sigma
        self.rv = stats.gennorm(p, scale=sigma)
        super().__init__(1.0, False)

    def privacy_loss_tail(self):
        lower = self.rv.ppf(0.5 * math.exp(-50))
        upper = -lower
        lower -= self.sensitivity
        return dpa_plm.TailPrivacyLossDistribution(lower, upper, {
            math.inf: self.mu_upper_cdf(lower), self.privacy_loss(upper): 1 - self.mu_upper_cdf(upper)})

    def connect_dots_bounds(self):
        tail = self.privacy_loss_tail()
        return dpa_plm.ConnectDotsBounds(epsilon_upper=self.privacy_loss(tail.lower_x_truncation),
                                         epsilon_lower=self.privacy_loss(tail.upper_x_truncation))

    def _privacy_loss_without_subsampling_remove(self, x: float) -> float:
        return (abs(x) ** self.p - abs(x + 1) ** self.p) / self.sigma**self.p

    def _inverse_privacy_loss_without_subsampling_remove(self, privacy_loss: float) -> float:
        def f(x):
            return self._privacy_loss_without_subsampling_remove(x) - privacy_loss
        lo, hi = -1.0, 0.0
        while f(lo) < 0:
            lo *= 2
        while f(hi) > 0:
            hi = 2 * hi + 1
        return optimize.brentq(f, lo, hi, xtol=1e-13 * max(1.0, abs(lo)), rtol=1e-15, maxiter=500)

    def noise_cdf(self, x):
        return self.rv.cdf(x)

    def noise_log_cdf(self, x):
        return self.rv.logcdf(x)

    @classmethod
    def from_privacy_guarantee(cls, *args, **kwargs):
        raise NotImplementedError


def _generalized_gaussian(p: float, sigma: float, k: int, interval: float, pessimistic: bool = True):
    pmf = dpa_pld._create_pld_pmf_from_monotone_privacy_loss(GeneralizedGaussianLoss(p, sigma),
                                                             pessimistic_estimate=pessimistic,
                                                             value_discretization_interval=interval,
                                                             use_connect_dots=pessimistic)
    return _composed(dpa_pld.PrivacyLossDistribution(pmf), k)


@compares(quantity="δ(ε) of k Generalized Gaussian releases (privacy loss distribution; dp-accounting given the "
                   "noise's loss, written with scipy)", peer="dp-accounting",
          grid="(p, σ, k) ∈ {(1.5, 8, 10), (2.2203, 630.7, 10⁴), (4, 851.5, 10⁴)} × ε ∈ {0.5, 1}",
          tolerance="1e-3 relative; never below dp-accounting's optimistic δ")
@pytest.mark.parametrize("p, sigma, k", [(1.5, 8.0, 10), (2.2203, 630.7, 10_000), (4.0, 851.5, 10_000)])
def test_generalized_gaussian_pld(p, sigma, k):
    """(2.2203, 630.7, 10,000) is p = ln ln k at (ε, δ) = (1, 10⁻⁶): δ(1) is 1.0e-6 in both accountants."""
    interval = INTERVAL if k < 1000 else 2e-5
    theirs = _generalized_gaussian(p, sigma, k, interval)
    lower = _generalized_gaussian(p, sigma, k, interval, pessimistic=False)
    ours = dp.privacy_loss_distribution(dp.GeneralizedGaussianNoise(p, sigma), k)
    for eps in (0.5, 1.0):
        close(ours.delta(eps), theirs.get_delta_for_epsilon(eps), rel=1e-3, what=f"p={p} ε={eps}")
        assert ours.delta(eps) >= lower.get_delta_for_epsilon(eps) * (1 - 1e-12)


@compares(quantity="δ(ε) of k discrete Gaussian releases (exact sum)", peer="dp-accounting",
          grid="σ ∈ {0.5, 1, 3, 0.4419} × k ∈ {1, 4} × ε ∈ {0.5, 1, 2}",
          tolerance="2e-3 relative + 1e-12; between dp-accounting's optimistic and pessimistic δ")
@pytest.mark.parametrize("sigma", [0.5, 1.0, 3.0, 0.4419])
@pytest.mark.parametrize("k", [1, 4])
def test_discrete_gaussian_pld(sigma, k):
    """dpteach's δ is exact (a sum over the noises' sum); dp-accounting's pessimistic δ at a discretisation of 1e-4
    is up to 1.1e-3 high at k = 4, so the exact δ must lie between its two estimates."""
    def theirs(pessimistic):
        return _composed(dpa_pld.from_discrete_gaussian_mechanism(
            sigma, value_discretization_interval=INTERVAL, pessimistic_estimate=pessimistic), k)
    upper, lower = theirs(True), theirs(False)
    for eps in (0.5, 1.0, 2.0):
        ours = dp.discrete_gaussian_delta(sigma, eps, k=k)
        close(ours, upper.get_delta_for_epsilon(eps), rel=2e-3, atol=1e-12, what=f"σ={sigma} k={k} ε={eps}")
        assert lower.get_delta_for_epsilon(eps) * (1 - 1e-9) - 1e-15 <= ours <= upper.get_delta_for_epsilon(eps) * (1 + 1e-9) + 1e-15


# -- composition: the total ε, the number of releases ------------------------------------------------

@compares(quantity="exact total ε(δ) of k Laplace releases (laplace_composition's exact)", peer="dp-accounting",
          grid="(k, ε) ∈ {(100, 0.1), (20, 0.1), (100, 1), (1000, 0.01), (50, 0.5)}, δ ∈ {10⁻⁶, 10⁻³}",
          tolerance="2e-3 relative; never below dp-accounting's optimistic ε")
@pytest.mark.parametrize("k, eps", [(100, 0.1), (20, 0.1), (100, 1.0), (1000, 0.01), (50, 0.5)])
def test_exact_composition_epsilon(k, eps):
    for delta in (1e-6, 1e-3):
        ours = dp.laplace_composition(k, eps, delta).exact
        close(ours, _laplace(1 / eps, k).get_epsilon_for_delta(delta), rel=2e-3, what=f"k={k} ε={eps} δ={delta}")
        assert ours >= _laplace(1 / eps, k, pessimistic=False).get_epsilon_for_delta(delta) * (1 - 1e-12)


def _largest_k(total: float, eps: float, delta: float, pessimistic: bool) -> int:
    """The largest k whose dp-accounting ε(δ) is at most ``total`` (by doubling, then bisection)."""
    def fits(k):
        return _laplace(1 / eps, k, pessimistic).get_epsilon_for_delta(delta) <= total
    lo, hi = 1, 2
    while fits(hi):
        lo, hi = hi, 2 * hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    return lo


@compares(quantity="releases of Lap(1/ε) within a total ε (releases_within's exact)", peer="dp-accounting",
          grid="(total, ε, δ) ∈ {(1, 0.01, 10⁻⁶), (2, 0.04, 10⁻⁶), (1, 0.05, 10⁻³), (5, 0.1, 10⁻⁸)}",
          tolerance="equal, or 1 fewer; never more than dp-accounting's pessimistic count")
@pytest.mark.parametrize("total, eps, delta", [(1.0, 0.01, 1e-6), (2.0, 0.04, 1e-6), (1.0, 0.05, 1e-3), (5.0, 0.1, 1e-8)])
def test_releases_within(total, eps, delta):
    ours = dp.releases_within(total, eps, delta)["exact"]
    pessimistic = _largest_k(total, eps, delta, True)
    assert pessimistic - 1 <= ours <= pessimistic, (ours, pessimistic)


# -- calibrations ------------------------------------------------------------------------------------

@compares(quantity="analytic Gaussian σ for (ε, δ), Δ₂ = 1 (gaussian_sigma)", peer="dp-accounting",
          grid="ε ∈ {0.1, 0.5, 1, 2, 4, 8} × δ ∈ {10⁻³, 10⁻⁶, 10⁻¹⁰}",
          tolerance="1e-9 relative; δ(σ) ≤ δ by dp-accounting's own formula")
def test_analytic_gaussian_sigma():
    for eps in (0.1, 0.5, 1.0, 2.0, 4.0, 8.0):
        for delta in (1e-3, 1e-6, 1e-10):
            ours = dp.gaussian_sigma(1.0, eps, delta)
            close(ours, dpa_gauss.get_sigma_gaussian(eps, delta), rel=1e-9, what=f"ε={eps} δ={delta}")
            assert dpa_plm.GaussianPrivacyLoss(ours).get_delta_for_epsilon(eps) <= delta * (1 + 1e-9)


@compares(quantity="analytic Gaussian ε for (σ, δ), Δ₂ = 1 (gaussian_epsilon)", peer="dp-accounting",
          grid="σ ∈ {0.3, 0.4419, 1, 3.7306, 10, 40} × δ ∈ {10⁻³, 10⁻⁶, 10⁻¹⁰}",
          tolerance="1e-9 relative; δ(ε) ≤ δ by dp-accounting's own formula")
def test_analytic_gaussian_epsilon():
    for sigma in (0.3, 0.4419, 1.0, 3.7306, 10.0, 40.0):
        for delta in (1e-3, 1e-6, 1e-10):
            ours = dp.gaussian_epsilon(sigma, 1.0, delta)
            close(ours, dpa_gauss.get_epsilon_gaussian(sigma, delta), rel=1e-9, what=f"σ={sigma} δ={delta}")
            assert dpa_plm.GaussianPrivacyLoss(sigma).get_delta_for_epsilon(ours) <= delta * (1 + 1e-9)


@compares(quantity="Generalized Gaussian σ at p = 2 for k counts (generalized_gaussian_sigma; √2·√k times the "
                   "analytic Gaussian's)", peer="dp-accounting",
          grid="k ∈ {1, 10, 1000} × (ε, δ) ∈ {(0.5, 10⁻⁵), (1, 10⁻⁶), (2, 10⁻³)}",
          tolerance="1.3e-5 relative (the docstring's precision); never below the exact σ")
def test_generalized_gaussian_sigma_at_p_2():
    """The issue's example: generalized_gaussian_sigma(1, 2.0, 0.5, 1e-5) was 9.94580 against 9.94450."""
    for k in (1, 10, 1000):
        for eps, delta in ((0.5, 1e-5), (1.0, 1e-6), (2.0, 1e-3)):
            theirs = math.sqrt(2 * k) * dpa_gauss.get_sigma_gaussian(eps, delta)
            ours = dp.generalized_gaussian_sigma(k, 2.0, eps, delta)
            close(ours, theirs, rel=1.3e-5, what=f"k={k} ε={eps} δ={delta}")
            assert ours >= theirs * (1 - 1e-12)


@compares(quantity="δ(ε) of 1,000 Laplace releases whose total runs past 700 (privacy loss distribution)",
          peer="dp-accounting", grid="b = 0.5, k = 1000, ε ∈ {1000, 1200, 1300, 1319.5, 1330}",
          tolerance="2e-3 relative; never below dp-accounting's pessimistic δ by more")
def test_laplace_pld_past_a_total_of_700():
    """Where the total runs past 1,300 (the accountant's e^(−ℓ) sums once underflowed there: its ε(δ) was ∞ or
    1,629 for 1,320)."""
    ours = dp.privacy_loss_distribution(dp.laplace_noise(0.5), 1000)
    theirs = _laplace(0.5, 1000)
    for epsilon in (1000.0, 1200.0, 1300.0, 1319.5, 1330.0):
        want = theirs.get_delta_for_epsilon(epsilon)
        close(ours.delta(epsilon), want, rel=2e-3, what=f"δ({epsilon:g})")
        assert ours.delta(epsilon) >= want * (1 - 2e-3), epsilon
