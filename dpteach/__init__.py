"""dpteach — the package behind the workbook on the Laplace mechanism.

The maths lives here and imports only numpy, so ``import dpteach`` is cheap and every
formula can be tested alone. The figure layer (:mod:`dpteach.plots`, matplotlib) and the
slider layer (:mod:`dpteach.widgets`, ipywidgets) are loaded the first time they are used::

    import dpteach as dp
    dp.laplace_mechanism(42, sensitivity=1, epsilon=0.5, rng=rng)   # numpy only
    dp.widgets.laplace_density()                                    # loads matplotlib + ipywidgets

Names follow Dwork & Roth, *The Algorithmic Foundations of Differential Privacy* (2014), ch. 3.
"""

from __future__ import annotations

import importlib

from . import generalized_gaussian
from .accuracy import (
    MonteCarloCoverage,
    accuracy_monte_carlo,
    binomial_ci,
    expected_linf_error,
    laplace_accuracy_bound,
    linf_error_density,
    linf_error_quantile,
    linf_error_tail,
    linf_errors,
)
from .applications import synthetic_city, synthetic_conversions, synthetic_hospital, synthetic_purchases
from .attack import (
    AttackSimulation,
    dp_success_limit,
    laplace_attack_success,
    laplace_posterior,
    posterior_bounds,
    simulate_laplace_attack,
)
from .audit import AuditResult, calibration_audit, privacy_audit
from .book import chapter_map
from .census import CensusFirstNames, census_first_names, name_table
from .composition import (
    BudgetExceeded,
    Charge,
    PrivacyBudget,
    advanced_composition,
    advanced_composition_crossover,
    advanced_composition_max_epsilon,
    advanced_composition_max_k,
    averaged_answers_std,
    basic_composition,
    optimal_composition,
    optimal_composition_delta,
    optimal_composition_max_k,
    project_to_total,
)
from .counting import (
    HistogramNoise,
    PostProcessingEffect,
    capped_histogram,
    clamp_nonnegative,
    counting_queries_scale,
    counting_queries_sensitivity,
    histogram_noise,
    post_processing_effect,
    release_counting_queries,
    round_counts,
)
from .curator import Curator, first_name_counts, synthetic_town
from .discrete import (
    CENSUS_2020,
    CENSUS_2020_DELTA,
    ZCDPMeaning,
    bernoulli_exp,
    discrete_gaussian_delta,
    discrete_gaussian_epsilon,
    discrete_gaussian_mechanism,
    discrete_gaussian_pmf,
    discrete_gaussian_rho,
    discrete_gaussian_sample,
    discrete_gaussian_variance,
    discrete_laplace_mechanism,
    discrete_laplace_pmf,
    discrete_laplace_sample,
    discrete_laplace_scale,
    discrete_laplace_variance,
    zcdp_meaning,
    zcdp_rho_for,
)
from .dpsgd import (
    clip_gradients,
    dpsgd_logistic_regression,
    dpsgd_noise_scale,
    logistic_gradients,
    logistic_regression,
    noisy_gradient_sum,
)
from .estimate import (
    Estimate,
    EstimateTable,
    clopper_pearson_lower,
    clopper_pearson_upper,
    detection_probability,
    fraction_estimate,
    mean_estimate,
)
from .exact_composition import (
    CompositionTotals,
    exact_laplace_epsilon,
    gaussian_zcdp_rho,
    laplace_composition,
    releases_within,
    zcdp_to_dp,
)
from .floating import (
    FloatingPointAttack,
    floating_point_attack,
    textbook_laplace,
    textbook_laplace_mechanism,
    textbook_reachable,
)
from .gaussian import (
    classical_gaussian_constant,
    classical_gaussian_sigma,
    gaussian_delta,
    gaussian_epsilon,
    gaussian_mechanism,
    gaussian_sigma,
    gaussian_sigma_curve,
    laplace_gaussian_crossover,
)
from .gdp import (
    GaussianCompositionTotals,
    gaussian_composition,
    gaussian_gdp_mu,
    gdp_best_success,
    gdp_compose,
    gdp_delta,
    gdp_epsilon,
    gdp_tradeoff,
)
from .generalized_gaussian import *  # noqa: F403  (the family's __all__, added to ours below)
from .hypothesis import (
    EmpiricalTradeoff,
    TradeoffSampler,
    best_success,
    dp_tradeoff_limit,
    group_best_success,
    group_privacy,
    group_tradeoff_limit,
    laplace_threshold_test,
    laplace_tradeoff,
    protection_epsilon,
)
from .laplace import (
    ProofSteps,
    laplace_cdf,
    laplace_logpdf,
    laplace_mechanism,
    laplace_pdf,
    laplace_scale,
    laplace_tail,
    privacy_loss,
    proof_steps,
)
from .local import (
    central_proportion_variance,
    grid_counts,
    perturb_locations,
    randomized_response,
    randomized_response_estimate,
    randomized_response_probability,
    randomized_response_variance,
)
from .planner import BudgetPlan, plan_budget, planner_delta, record_release_risk, release_epsilon
from .reconstruction import (
    ReconstructionResult,
    ReconstructionSweep,
    least_squares_decoder,
    per_person_epsilon,
    predicted_reconstruction_rate,
    reconstruct,
    reconstruction_attack,
    subset_queries,
)
from .selection import (
    exponential_mechanism,
    exponential_mechanism_bound,
    exponential_mechanism_probabilities,
    report_noisy_max,
    report_noisy_max_probabilities,
)
from .sensitivity import (
    NeighbourDifferences,
    all_databases,
    l1_sensitivity,
    l2_sensitivity,
    neighbour_differences,
    neighbour_differences_reference,
    replace_one_sensitivity,
)
from .source import show_source
from .sparse_variants import (
    Counterexample,
    above_threshold_runs,
    audit_variant,
    counterexample,
    first_above,
    noisy_value_runs,
)
from .threshold import above_threshold, above_threshold_accuracy, above_threshold_probabilities, sparse_vector
from .tracing import TracingAttack, tracing_attack, tracing_score

__version__ = "0.1.0"

_LAZY = {"plots", "widgets", "exercises"}

__all__ = [
    "above_threshold",
    "above_threshold_accuracy",
    "above_threshold_probabilities",
    "advanced_composition",
    "advanced_composition_crossover",
    "advanced_composition_max_epsilon",
    "advanced_composition_max_k",
    "averaged_answers_std",
    "basic_composition",
    "optimal_composition",
    "optimal_composition_delta",
    "optimal_composition_max_k",
    "BudgetExceeded",
    "Charge",
    "Curator",
    "exponential_mechanism",
    "exponential_mechanism_bound",
    "exponential_mechanism_probabilities",
    "first_name_counts",
    "PrivacyBudget",
    "project_to_total",
    "report_noisy_max",
    "report_noisy_max_probabilities",
    "synthetic_town",
    "CensusFirstNames",
    "HistogramNoise",
    "Estimate",
    "EstimateTable",
    "MonteCarloCoverage",
    "NeighbourDifferences",
    "PostProcessingEffect",
    "ProofSteps",
    "accuracy_monte_carlo",
    "all_databases",
    "binomial_ci",
    "capped_histogram",
    "census_first_names",
    "chapter_map",
    "clamp_nonnegative",
    "counting_queries_scale",
    "counting_queries_sensitivity",
    "detection_probability",
    "expected_linf_error",
    "fraction_estimate",
    "histogram_noise",
    "l1_sensitivity",
    "l2_sensitivity",
    "laplace_accuracy_bound",
    "laplace_cdf",
    "laplace_logpdf",
    "laplace_mechanism",
    "laplace_pdf",
    "laplace_scale",
    "laplace_tail",
    "linf_error_density",
    "linf_error_quantile",
    "linf_error_tail",
    "linf_errors",
    "mean_estimate",
    "name_table",
    "neighbour_differences",
    "neighbour_differences_reference",
    "post_processing_effect",
    "privacy_loss",
    "proof_steps",
    "release_counting_queries",
    "replace_one_sensitivity",
    "round_counts",
    "show_source",
    "sparse_vector",
    "AuditResult",
    "FloatingPointAttack",
    "bernoulli_exp",
    "clopper_pearson_lower",
    "clopper_pearson_upper",
    "discrete_laplace_mechanism",
    "discrete_laplace_pmf",
    "discrete_laplace_sample",
    "discrete_laplace_scale",
    "discrete_laplace_variance",
    "CENSUS_2020",
    "CENSUS_2020_DELTA",
    "ZCDPMeaning",
    "discrete_gaussian_delta",
    "discrete_gaussian_epsilon",
    "discrete_gaussian_mechanism",
    "discrete_gaussian_pmf",
    "discrete_gaussian_rho",
    "discrete_gaussian_sample",
    "discrete_gaussian_variance",
    "zcdp_meaning",
    "zcdp_rho_for",
    "floating_point_attack",
    "privacy_audit",
    "textbook_laplace",
    "textbook_laplace_mechanism",
    "textbook_reachable",
    "calibration_audit",
    "classical_gaussian_constant",
    "classical_gaussian_sigma",
    "gaussian_delta",
    "gaussian_epsilon",
    "gaussian_mechanism",
    "gaussian_sigma",
    "gaussian_sigma_curve",
    "laplace_gaussian_crossover",
    "central_proportion_variance", "clip_gradients", "dpsgd_logistic_regression", "dpsgd_noise_scale",
    "grid_counts", "logistic_gradients", "logistic_regression", "noisy_gradient_sum", "perturb_locations",
    "randomized_response", "randomized_response_estimate", "randomized_response_probability",
    "randomized_response_variance", "synthetic_city", "synthetic_conversions", "synthetic_hospital",
    "synthetic_purchases",
    "AttackSimulation", "dp_success_limit", "laplace_attack_success", "laplace_posterior", "posterior_bounds",
    "simulate_laplace_attack",
    "CompositionTotals",
    "exact_laplace_epsilon",
    "gaussian_zcdp_rho",
    "laplace_composition",
    "releases_within",
    "zcdp_to_dp",
    "GaussianCompositionTotals",
    "gaussian_composition",
    "gaussian_gdp_mu",
    "gdp_best_success",
    "gdp_compose",
    "gdp_delta",
    "gdp_epsilon",
    "gdp_tradeoff",
    "EmpiricalTradeoff",
    "TradeoffSampler",
    "best_success",
    "dp_tradeoff_limit",
    "group_best_success",
    "group_privacy",
    "group_tradeoff_limit",
    "laplace_threshold_test",
    "laplace_tradeoff",
    "protection_epsilon",
    "ReconstructionResult",
    "ReconstructionSweep",
    "least_squares_decoder",
    "per_person_epsilon",
    "predicted_reconstruction_rate",
    "reconstruct",
    "reconstruction_attack",
    "subset_queries",
    "Counterexample",
    "above_threshold_runs",
    "audit_variant",
    "counterexample",
    "first_above",
    "noisy_value_runs",
    "TracingAttack",
    "tracing_attack",
    "tracing_score",
    "BudgetPlan",
    "plan_budget",
    "planner_delta",
    "record_release_risk",
    "release_epsilon",
    *generalized_gaussian.__all__,
    *sorted(_LAZY),
]


def __getattr__(name: str):
    # PEP 562: `dp.widgets` imports ipywidgets and matplotlib only when first touched.
    if name in _LAZY:
        module = importlib.import_module(f".{name}", __name__)
        globals()[name] = module
        return module
    raise AttributeError(f"module 'dpteach' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _LAZY)
