"""The Generalized Gaussian mechanism for k counting queries (Ganesh & Zhao 2020).

Noise x ∈ ℝ^k with density ∝ exp(−(‖x‖_p/σ)^p): i.i.d. coordinates with density

.. math:: f(x) = \\frac{p}{2σΓ(1/p)} \\exp\\left(-\\left(\\frac{|x|}{σ}\\right)^p\\right),

Laplace at p = 1, Gaussian (variance σ²/2) at p = 2, flatter and flatter as p grows. One
shape parameter trades the ℓ1 error (the sum of the k errors) against the ℓ∞ error (the
largest). σ is calibrated numerically with a privacy accountant, not from an asymptotic
formula. One module per concern:

- :mod:`.distribution`: the distribution (density, tails, moments, sampler);
- :mod:`.accountant`: the privacy loss distribution of k coordinates of such noise (Laplace
  and Gaussian included), and δ(ε) from it;
- :mod:`.mechanism`: the mechanism f(x) + X and the smallest (ε, δ)-DP σ, by root-finding
  on the accountant;
- :mod:`.errors`: its ℓ1 and ℓ∞ errors and the bounds they are compared with;
- :mod:`.sparse`: the sparse-vector refinement;
- :mod:`.table`: the shipped calibration table the sliders interpolate in.

``__all__`` below is the family's public API; :mod:`dpteach` re-exports it as it is, so
``dp.generalized_gaussian_sigma`` and ``dp.privacy_loss_distribution`` are these names.
The table's grid (``TABLE_P``, ``TABLE_K``, …) is reachable here, as
``dp.generalized_gaussian.TABLE_P``, not at the top of :mod:`dpteach`.
"""

from __future__ import annotations

from .accountant import (
    PrivacyLossDistribution,
    gaussian_noise,
    laplace_noise,
    one_coordinate_delta,
    privacy_loss_distribution,
)
from .distribution import (
    GeneralizedGaussianNoise,
    generalized_gaussian_cdf,
    generalized_gaussian_moment,
    generalized_gaussian_pdf,
    generalized_gaussian_sample,
    generalized_gaussian_tail,
    generalized_gaussian_variance,
)
from .errors import (
    ErrorTradeoff,
    MechanismError,
    NoiseErrors,
    counting_query_errors,
    error_tradeoff,
    expected_l1_noise,
    expected_linf_noise,
    ganesh_zhao_growth,
    ganesh_zhao_shapes,
    linf_lower_bound_shape,
    linf_tail_bound,
    mechanism_error,
    simulate_noise_errors,
)
from .mechanism import generalized_gaussian_mechanism, generalized_gaussian_sigma
from .sparse import SparseVectorRefinement, sparse_vector_refinement

# the shipped table's grid: here for the chapter's cells (dp.generalized_gaussian.TABLE_P), not in __all__
from .table import TABLE_DELTA as TABLE_DELTA
from .table import TABLE_EPSILON_RANGE as TABLE_EPSILON_RANGE
from .table import TABLE_K as TABLE_K
from .table import TABLE_P as TABLE_P
from .table import TABLE_SIGMAS as TABLE_SIGMAS
from .table import CalibrationTable, calibration_table

__all__ = [
    "CalibrationTable",
    "ErrorTradeoff",
    "GeneralizedGaussianNoise",
    "MechanismError",
    "NoiseErrors",
    "PrivacyLossDistribution",
    "SparseVectorRefinement",
    "calibration_table",
    "counting_query_errors",
    "error_tradeoff",
    "expected_l1_noise",
    "expected_linf_noise",
    "ganesh_zhao_growth",
    "ganesh_zhao_shapes",
    "gaussian_noise",
    "generalized_gaussian_cdf",
    "generalized_gaussian_mechanism",
    "generalized_gaussian_moment",
    "generalized_gaussian_pdf",
    "generalized_gaussian_sample",
    "generalized_gaussian_sigma",
    "generalized_gaussian_tail",
    "generalized_gaussian_variance",
    "laplace_noise",
    "linf_lower_bound_shape",
    "linf_tail_bound",
    "mechanism_error",
    "one_coordinate_delta",
    "privacy_loss_distribution",
    "simulate_noise_errors",
    "sparse_vector_refinement",
]

