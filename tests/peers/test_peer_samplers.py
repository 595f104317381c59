"""dpteach's noise against OpenDP's and diffprivlib's samplers, and against its own pmfs.

Each comparison is a statistical test at level 10⁻⁴: a correct pair of samplers fails it with probability
10⁻⁴ (the false-failure rate); the 30 such tests in this file (17 test cases, most with a two-sample test
and a test against the pmf) together fail correct samplers with probability at most 3·10⁻³ per run
(Bonferroni). dpteach and diffprivlib are seeded; OpenDP draws from the operating system's randomness and
cannot be seeded, so its samples differ on every run.
"""

from __future__ import annotations

import math

import numpy as np
import opendp.prelude as odp
import pytest
from diffprivlib.mechanisms import GaussianDiscrete, Geometric
from peers_common import compares, fits_pmf_p, same_law_p
from scipy import stats

import dpteach as dp

pytestmark = pytest.mark.slow

odp.enable_features("contrib")

LEVEL = 1e-4
INT_VECTORS = odp.vector_domain(odp.atom_domain(T=int))
FLOAT_VECTORS = odp.vector_domain(odp.atom_domain(T=float, nan=False))


@compares(quantity="discrete Laplace samples (discrete_laplace_sample, exact)", peer="opendp",
          grid="scale t ∈ {1/2, 1, 3, 10}, 50,000 draws from each",
          tolerance="two-sample χ² and χ² against the pmf, each at level 1e-4")
@pytest.mark.parametrize("scale", [0.5, 1.0, 3.0, 10.0])
def test_discrete_laplace_sampler(scale):
    n = 50_000
    theirs = np.array(odp.m.make_laplace(INT_VECTORS, odp.l1_distance(T=int), scale=scale)([0] * n))
    ours = dp.discrete_laplace_sample(scale, size=n, rng=np.random.default_rng(1))
    assert same_law_p(ours, theirs) > LEVEL
    assert fits_pmf_p(theirs, lambda z: dp.discrete_laplace_pmf(z, scale)) > LEVEL


@compares(quantity="discrete Gaussian samples (discrete_gaussian_sample, exact)", peer="opendp",
          grid="σ ∈ {0.4419, 1, 3, 10}, 50,000 draws from each",
          tolerance="two-sample χ² and χ² against the pmf, each at level 1e-4")
@pytest.mark.parametrize("sigma", [1 / math.sqrt(5.12), 1.0, 3.0, 10.0])
def test_discrete_gaussian_sampler(sigma):
    n = 50_000
    theirs = np.array(odp.m.make_gaussian(INT_VECTORS, odp.l2_distance(T=int), scale=sigma)([0] * n))
    ours = dp.discrete_gaussian_sample(sigma, size=n, rng=np.random.default_rng(2))
    assert same_law_p(ours, theirs) > LEVEL
    assert fits_pmf_p(theirs, lambda z: dp.discrete_gaussian_pmf(z, sigma)) > LEVEL


@compares(quantity="Laplace mechanism's noise (laplace_mechanism)", peer="opendp",
          grid="scale b ∈ {0.5, 2}, 20,000 draws from each",
          tolerance="two-sample Kolmogorov–Smirnov at level 1e-4")
@pytest.mark.parametrize("scale", [0.5, 2.0])
def test_laplace_sampler(scale):
    n = 20_000
    theirs = np.array(odp.m.make_laplace(FLOAT_VECTORS, odp.l1_distance(T=float), scale=scale)([0.0] * n))
    ours = dp.laplace_mechanism(np.zeros(n), 1.0, 1 / scale, rng=np.random.default_rng(3))
    assert stats.ks_2samp(ours, theirs).pvalue > LEVEL


@compares(quantity="Gaussian mechanism's noise (gaussian_mechanism, σ from the analytic calibration)", peer="opendp",
          grid="(ε, δ) ∈ {(1, 10⁻⁵), (0.5, 10⁻⁶)}, Δ₂ = 1, 10,000 draws from each",
          tolerance="two-sample Kolmogorov–Smirnov at level 1e-4")
@pytest.mark.parametrize("eps, delta", [(1.0, 1e-5), (0.5, 1e-6)])
def test_gaussian_sampler(eps, delta):
    n = 10_000
    sigma = dp.gaussian_sigma(1.0, eps, delta)
    theirs = np.array(odp.m.make_gaussian(FLOAT_VECTORS, odp.l2_distance(T=float), scale=sigma)([0.0] * n))
    ours = dp.gaussian_mechanism(np.zeros(n), 1.0, eps, delta, rng=np.random.default_rng(4))
    assert stats.ks_2samp(ours, theirs).pvalue > LEVEL


@compares(quantity="discrete Laplace samples (discrete_laplace_mechanism) against the two-sided geometric",
          peer="diffprivlib",
          grid="ε ∈ {0.5, 1, 2}, Δ = 1, 30,000 draws from each",
          tolerance="two-sample χ² and χ² against the pmf, each at level 1e-4")
@pytest.mark.parametrize("eps", [0.5, 1.0, 2.0])
def test_geometric_sampler(eps):
    n = 30_000
    mechanism = Geometric(epsilon=eps, sensitivity=1, random_state=5)
    theirs = np.array([mechanism.randomise(0) for _ in range(n)])
    ours = dp.discrete_laplace_mechanism(np.zeros(n, dtype=np.int64), 1, eps, rng=np.random.default_rng(5))
    assert same_law_p(ours, theirs) > LEVEL
    scale = dp.discrete_laplace_scale(1, eps)
    assert fits_pmf_p(theirs, lambda z: dp.discrete_laplace_pmf(z, scale)) > LEVEL


@compares(quantity="discrete Gaussian samples (discrete_gaussian_mechanism) at diffprivlib's calibrated σ",
          peer="diffprivlib",
          grid="(ε, δ) ∈ {(1, 10⁻⁵), (0.5, 10⁻³)}, Δ = 1, 20,000 draws from each",
          tolerance="two-sample χ² and χ² against the pmf, each at level 1e-4")
@pytest.mark.parametrize("eps, delta", [(1.0, 1e-5), (0.5, 1e-3)])
def test_discrete_gaussian_sampler_diffprivlib(eps, delta):
    n = 20_000
    mechanism = GaussianDiscrete(epsilon=eps, delta=delta, sensitivity=1, random_state=6)
    theirs = np.array([mechanism.randomise(0) for _ in range(n)])
    sigma = mechanism._scale
    ours = dp.discrete_gaussian_mechanism(np.zeros(n, dtype=np.int64), sigma, rng=np.random.default_rng(6))
    assert same_law_p(ours, theirs) > LEVEL
    assert fits_pmf_p(theirs, lambda z: dp.discrete_gaussian_pmf(z, sigma)) > LEVEL
