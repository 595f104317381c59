"""Integer noise for integer answers, drawn exactly: the discrete Laplace and the discrete Gaussian.

* :mod:`.laplace`: the discrete Laplace mechanism (ε-DP) and the exact primitives both samplers
  use: Bernoulli(e^{−γ}) and the discrete Laplace sampler (Canonne, Kamath & Steinke 2020,
  Algorithms 1–2), and the rounding of a float to a fraction on the safe side;
* :mod:`.gaussian`: the discrete Gaussian mechanism (ρ-zCDP, the 2020 US Census's noise), its
  exact sampler (CKS Algorithm 3), its exact δ(ε), and what a zCDP budget ρ means in (ε, δ).
"""

from .gaussian import (
    CENSUS_2020,
    CENSUS_2020_DELTA,
    ZCDPMeaning,
    discrete_gaussian_delta,
    discrete_gaussian_epsilon,
    discrete_gaussian_mechanism,
    discrete_gaussian_pmf,
    discrete_gaussian_rho,
    discrete_gaussian_sample,
    discrete_gaussian_variance,
    zcdp_meaning,
    zcdp_rho_for,
)
from .laplace import (
    bernoulli_exp,
    discrete_laplace_mechanism,
    discrete_laplace_pmf,
    discrete_laplace_sample,
    discrete_laplace_scale,
    discrete_laplace_variance,
)

__all__ = [
    "CENSUS_2020",
    "CENSUS_2020_DELTA",
    "ZCDPMeaning",
    "bernoulli_exp",
    "discrete_gaussian_delta",
    "discrete_gaussian_epsilon",
    "discrete_gaussian_mechanism",
    "discrete_gaussian_pmf",
    "discrete_gaussian_rho",
    "discrete_gaussian_sample",
    "discrete_gaussian_variance",
    "discrete_laplace_mechanism",
    "discrete_laplace_pmf",
    "discrete_laplace_sample",
    "discrete_laplace_scale",
    "discrete_laplace_variance",
    "zcdp_meaning",
    "zcdp_rho_for",
]
