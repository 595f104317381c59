"""dpteach — the package behind the workbook on the Laplace mechanism.

The maths lives here and imports only numpy, so ``import dpteach`` is cheap and every
formula can be tested alone. The figure layer (:mod:`dpteach.plots`, matplotlib) and the
slider layer (:mod:`dpteach.widgets`, ipywidgets) are loaded the first time they are used::

    import dpteach as dp
    dp.laplace_mechanism(42, sensitivity=1, epsilon=0.5, rng=rng)   # numpy only
    dp.widgets.laplace_density()                                    # loads matplotlib + ipywidgets

The face, ``__all__`` and ``dir(dp)``, is the chapters' vocabulary: the names the chapters call as
``dp.X``, and the three lazy layers. Every other public name of the maths layer (the result records,
the helpers the tests and the less common sections use) lives in its module and in
:mod:`dpteach.prelude`, the whole maths API flat (as ``opendp.prelude``); ``dp.X`` finds it there too,
on first use, so ``dp.MonteCarloCoverage`` works without being on the face.

Names follow Dwork & Roth, *The Algorithmic Foundations of Differential Privacy* (2014), ch. 3.
"""

from __future__ import annotations

import importlib

from .prelude import (
    CENSUS_2020,
    CENSUS_2020_DELTA,
    BudgetExceeded,
    Curator,
    EstimateTable,
    GeneralizedGaussianNoise,
    PrivacyBudget,
    TradeoffSampler,
    above_threshold,
    above_threshold_accuracy,
    above_threshold_probabilities,
    above_threshold_runs,
    accuracy_monte_carlo,
    advanced_composition,
    advanced_composition_max_epsilon,
    advanced_composition_max_k,
    all_databases,
    audit_variant,
    basic_composition,
    best_success,
    binomial_ci,
    calibration_audit,
    calibration_table,
    capped_histogram,
    census_first_names,
    central_proportion_variance,
    chapter_map,
    clamp_nonnegative,
    classical_gaussian_constant,
    counterexample,
    counting_queries_scale,
    counting_queries_sensitivity,
    detection_probability,
    discrete_gaussian_epsilon,
    discrete_gaussian_mechanism,
    discrete_gaussian_pmf,
    discrete_gaussian_rho,
    discrete_gaussian_variance,
    discrete_laplace_mechanism,
    discrete_laplace_scale,
    discrete_laplace_variance,
    dp_success_limit,
    dp_tradeoff_limit,
    dpsgd_logistic_regression,
    dpsgd_noise_scale,
    exact_laplace_epsilon,
    expected_linf_error,
    expected_linf_noise,
    exponential_mechanism,
    exponential_mechanism_bound,
    exponential_mechanism_probabilities,
    first_name_counts,
    floating_point_attack,
    fraction_estimate,
    gaussian_composition,
    gaussian_delta,
    gaussian_gdp_mu,
    gaussian_mechanism,
    gaussian_noise,
    gaussian_sigma,
    gaussian_zcdp_rho,
    gdp_best_success,
    gdp_compose,
    gdp_delta,
    gdp_epsilon,
    gdp_tradeoff,
    generalized_gaussian_moment,
    generalized_gaussian_sample,
    generalized_gaussian_sigma,
    generalized_gaussian_variance,
    grid_counts,
    group_best_success,
    group_privacy,
    group_tradeoff_limit,
    histogram_noise,
    l1_sensitivity,
    l2_sensitivity,
    laplace_accuracy_bound,
    laplace_attack_success,
    laplace_cdf,
    laplace_composition,
    laplace_logpdf,
    laplace_mechanism,
    laplace_noise,
    laplace_pdf,
    laplace_posterior,
    laplace_scale,
    laplace_tail,
    laplace_threshold_test,
    laplace_tradeoff,
    linf_error_quantile,
    linf_error_tail,
    linf_lower_bound_shape,
    logistic_regression,
    mean_estimate,
    name_table,
    neighbour_differences,
    neighbour_differences_reference,
    noisy_gradient_sum,
    notation_table,
    one_coordinate_delta,
    optimal_composition,
    optimal_composition_delta,
    per_person_epsilon,
    perturb_locations,
    plan_budget,
    planner_delta,
    post_processing_effect,
    posterior_bounds,
    predicted_reconstruction_rate,
    privacy_audit,
    privacy_loss,
    privacy_loss_distribution,
    project_to_total,
    proof_steps,
    randomized_response,
    randomized_response_estimate,
    randomized_response_probability,
    randomized_response_variance,
    reconstruction_attack,
    record_release_risk,
    release_counting_queries,
    releases_within,
    replace_one_sensitivity,
    report_noisy_max,
    report_noisy_max_probabilities,
    round_counts,
    show_source,
    simulate_laplace_attack,
    simulate_noise_errors,
    sparse_vector,
    sparse_vector_refinement,
    subset_queries,
    synthetic_city,
    synthetic_conversions,
    synthetic_hospital,
    synthetic_purchases,
    synthetic_town,
    textbook_laplace,
    textbook_laplace_mechanism,
    textbook_reachable,
    tracing_attack,
    zcdp_meaning,
    zcdp_rho_for,
    zcdp_to_dp,
)

__version__ = "0.1.0"

_LAZY = {"plots", "widgets", "exercises"}

__all__ = [
    "accuracy_monte_carlo", "binomial_ci", "expected_linf_error", "laplace_accuracy_bound", "linf_error_quantile",
    "linf_error_tail", "synthetic_city", "synthetic_conversions", "synthetic_hospital", "synthetic_purchases",
    "dp_success_limit", "laplace_attack_success", "laplace_posterior", "posterior_bounds",
    "simulate_laplace_attack", "calibration_audit", "privacy_audit", "chapter_map", "census_first_names",
    "name_table", "BudgetExceeded", "PrivacyBudget", "advanced_composition", "advanced_composition_max_epsilon",
    "advanced_composition_max_k", "basic_composition", "optimal_composition", "optimal_composition_delta",
    "project_to_total",
    "capped_histogram", "clamp_nonnegative", "counting_queries_scale", "counting_queries_sensitivity",
    "histogram_noise", "post_processing_effect", "release_counting_queries", "round_counts", "Curator",
    "first_name_counts", "synthetic_town", "CENSUS_2020", "CENSUS_2020_DELTA", "discrete_gaussian_epsilon",
    "discrete_gaussian_mechanism", "discrete_gaussian_pmf", "discrete_gaussian_rho", "discrete_gaussian_variance",
    "discrete_laplace_mechanism", "discrete_laplace_scale", "discrete_laplace_variance", "zcdp_meaning",
    "zcdp_rho_for", "dpsgd_logistic_regression", "dpsgd_noise_scale", "logistic_regression", "noisy_gradient_sum",
    "EstimateTable", "detection_probability", "fraction_estimate", "mean_estimate", "exact_laplace_epsilon",
    "gaussian_zcdp_rho", "laplace_composition", "releases_within", "zcdp_to_dp", "floating_point_attack",
    "textbook_laplace", "textbook_laplace_mechanism", "textbook_reachable", "classical_gaussian_constant",
    "gaussian_delta", "gaussian_mechanism", "gaussian_sigma", "gaussian_composition", "gaussian_gdp_mu",
    "gdp_best_success", "gdp_compose", "gdp_delta", "gdp_epsilon", "gdp_tradeoff", "GeneralizedGaussianNoise",
    "calibration_table", "expected_linf_noise", "gaussian_noise", "generalized_gaussian_moment",
    "generalized_gaussian_sample", "generalized_gaussian_sigma", "generalized_gaussian_variance", "laplace_noise",
    "linf_lower_bound_shape", "one_coordinate_delta", "privacy_loss_distribution", "simulate_noise_errors",
    "sparse_vector_refinement", "TradeoffSampler", "best_success", "dp_tradeoff_limit", "group_best_success",
    "group_privacy", "group_tradeoff_limit", "laplace_threshold_test", "laplace_tradeoff", "laplace_cdf",
    "laplace_logpdf", "laplace_mechanism", "laplace_pdf", "laplace_scale", "laplace_tail", "privacy_loss",
    "proof_steps", "central_proportion_variance", "grid_counts", "perturb_locations", "randomized_response",
    "randomized_response_estimate", "randomized_response_probability", "randomized_response_variance",
    "plan_budget", "planner_delta", "record_release_risk", "per_person_epsilon", "predicted_reconstruction_rate",
    "reconstruction_attack", "subset_queries", "exponential_mechanism", "exponential_mechanism_bound",
    "exponential_mechanism_probabilities", "report_noisy_max", "report_noisy_max_probabilities", "all_databases",
    "l1_sensitivity", "l2_sensitivity", "neighbour_differences", "neighbour_differences_reference",
    "replace_one_sensitivity", "show_source", "above_threshold_runs", "audit_variant", "counterexample",
    "above_threshold", "above_threshold_accuracy", "above_threshold_probabilities", "sparse_vector",
    "tracing_attack", "notation_table",
    *sorted(_LAZY),
]


def __getattr__(name: str):
    # PEP 562: `dp.widgets` imports ipywidgets and matplotlib only when first touched; a maths name that is
    # not on the face comes from the prelude, which the face's import has already loaded.
    if name in _LAZY:
        module = importlib.import_module(f".{name}", __name__)
        globals()[name] = module
        return module
    prelude = importlib.import_module(".prelude", __name__)
    if name in prelude.__all__:
        return getattr(prelude, name)
    raise AttributeError(f"module 'dpteach' has no attribute {name!r}")


def __dir__():
    return sorted({*__all__, "prelude", "__version__"})
