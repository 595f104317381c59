"""The Generalized Gaussian mechanism for k counting queries (Ganesh & Zhao 2020), in one place.

Noise x ∈ ℝ^k with density ∝ exp(−(‖x‖_p/σ)^p): i.i.d. coordinates with density

.. math:: f(x) = \\frac{p}{2σΓ(1/p)} \\exp\\left(-\\left(\\frac{|x|}{σ}\\right)^p\\right),

Laplace at p = 1, Gaussian (variance σ²/2) at p = 2, flatter and flatter as p grows. One
shape parameter trades the ℓ1 error (the sum of the k errors) against the ℓ∞ error (the
largest). σ is calibrated numerically with the privacy accountant of
:mod:`dpteach.accountant`, not from an asymptotic formula.

This module only gathers the public names; each concern has its module:

- :mod:`dpteach.gg_distribution`: the distribution (density, tails, moments, sampler);
- :mod:`dpteach.gg_mechanism`: the mechanism f(x) + X;
- :mod:`dpteach.gg_sigma`: the smallest (ε, δ)-DP σ, by root-finding on the accountant;
- :mod:`dpteach.gg_errors`: its ℓ1 and ℓ∞ errors and the bounds they are compared with;
- :mod:`dpteach.gg_sparse`: the sparse-vector refinement;
- :mod:`dpteach.gg_table`: the shipped calibration table the sliders interpolate in.

Nothing inside the package imports this module (so it closes no import cycle).
"""

from __future__ import annotations

from .gg_distribution import (
    GeneralizedGaussianNoise,
    generalized_gaussian_cdf,
    generalized_gaussian_moment,
    generalized_gaussian_pdf,
    generalized_gaussian_sample,
    generalized_gaussian_tail,
    generalized_gaussian_variance,
)
from .gg_errors import (
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
from .gg_mechanism import generalized_gaussian_mechanism
from .gg_sigma import generalized_gaussian_sigma
from .gg_sparse import SparseVectorRefinement, sparse_vector_refinement
from .gg_table import (
    TABLE_DELTA,
    TABLE_EPSILON_RANGE,
    TABLE_K,
    TABLE_P,
    TABLE_SIGMAS,
    CalibrationTable,
    calibration_table,
    calibration_table_rows,
    unit_linf_table,
)

__all__ = [
    "TABLE_DELTA",
    "TABLE_EPSILON_RANGE",
    "TABLE_K",
    "TABLE_P",
    "TABLE_SIGMAS",
    "CalibrationTable",
    "ErrorTradeoff",
    "GeneralizedGaussianNoise",
    "MechanismError",
    "NoiseErrors",
    "SparseVectorRefinement",
    "calibration_table",
    "calibration_table_rows",
    "counting_query_errors",
    "error_tradeoff",
    "expected_l1_noise",
    "expected_linf_noise",
    "ganesh_zhao_growth",
    "ganesh_zhao_shapes",
    "generalized_gaussian_cdf",
    "generalized_gaussian_mechanism",
    "generalized_gaussian_moment",
    "generalized_gaussian_pdf",
    "generalized_gaussian_sample",
    "generalized_gaussian_sigma",
    "generalized_gaussian_tail",
    "generalized_gaussian_variance",
    "linf_lower_bound_shape",
    "linf_tail_bound",
    "mechanism_error",
    "simulate_noise_errors",
    "sparse_vector_refinement",
    "unit_linf_table",
]
