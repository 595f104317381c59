"""The whole maths API of dpteach in one flat namespace, as OpenDP's ``opendp.prelude`` gathers its modules.

``import dpteach as dp`` shows the chapters' everyday names (its ``__all__``, what ``dir(dp)`` lists); this
module holds every public function and class of the maths layer, the result records and the less common
helpers with them, each imported from the module that defines and documents it::

    import dpteach.prelude as dp           # every maths name, flat
    from dpteach.accuracy import linf_errors   # or one name from its home module

Numpy only, like ``import dpteach``: the figures and sliders (:mod:`dpteach.plots`, :mod:`dpteach.widgets`)
and the exercise checkers (:mod:`dpteach.exercises`) are not here. ``__all__`` is grouped by home module.
"""

from __future__ import annotations

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
from .attack import AttackSimulation, dp_success_limit, laplace_attack_success, laplace_posterior, posterior_bounds, simulate_laplace_attack
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
from .dpsgd import clip_gradients, dpsgd_logistic_regression, dpsgd_noise_scale, logistic_gradients, logistic_regression, noisy_gradient_sum
from .estimate import Estimate, EstimateTable, clopper_pearson_lower, clopper_pearson_upper, detection_probability, fraction_estimate, mean_estimate
from .exact_composition import CompositionTotals, exact_laplace_epsilon, gaussian_zcdp_rho, laplace_composition, releases_within, zcdp_to_dp
from .floating import FloatingPointAttack, floating_point_attack, textbook_laplace, textbook_laplace_mechanism, textbook_reachable
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
from .gdp import GaussianCompositionTotals, gaussian_composition, gaussian_gdp_mu, gdp_best_success, gdp_compose, gdp_delta, gdp_epsilon, gdp_tradeoff
from .generalized_gaussian import (
    CalibrationTable,
    ErrorTradeoff,
    GeneralizedGaussianNoise,
    MechanismError,
    NoiseErrors,
    PrivacyLossDistribution,
    SparseVectorRefinement,
    calibration_table,
    counting_query_errors,
    error_tradeoff,
    expected_l1_noise,
    expected_linf_noise,
    ganesh_zhao_growth,
    ganesh_zhao_shapes,
    gaussian_noise,
    generalized_gaussian_cdf,
    generalized_gaussian_mechanism,
    generalized_gaussian_moment,
    generalized_gaussian_pdf,
    generalized_gaussian_sample,
    generalized_gaussian_sigma,
    generalized_gaussian_tail,
    generalized_gaussian_variance,
    laplace_noise,
    linf_lower_bound_shape,
    linf_tail_bound,
    mechanism_error,
    one_coordinate_delta,
    privacy_loss_distribution,
    simulate_noise_errors,
    sparse_vector_refinement,
)
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
from .laplace import ProofSteps, laplace_cdf, laplace_logpdf, laplace_mechanism, laplace_pdf, laplace_scale, laplace_tail, privacy_loss, proof_steps
from .local import (
    central_proportion_variance,
    grid_counts,
    perturb_locations,
    randomized_response,
    randomized_response_estimate,
    randomized_response_probability,
    randomized_response_variance,
)
from .notation import notation_table
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
from .selection import exponential_mechanism, exponential_mechanism_bound, exponential_mechanism_probabilities, report_noisy_max, report_noisy_max_probabilities
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
from .sparse_variants import Counterexample, above_threshold_runs, audit_variant, counterexample, first_above, noisy_value_runs
from .threshold import above_threshold, above_threshold_accuracy, above_threshold_probabilities, sparse_vector
from .tracing import TracingAttack, tracing_attack, tracing_score

__all__ = [
    # accuracy
    "MonteCarloCoverage", "accuracy_monte_carlo", "binomial_ci", "expected_linf_error", "laplace_accuracy_bound",
    "linf_error_density", "linf_error_quantile", "linf_error_tail", "linf_errors",
    # applications
    "synthetic_city", "synthetic_conversions", "synthetic_hospital", "synthetic_purchases",
    # attack
    "AttackSimulation", "dp_success_limit", "laplace_attack_success", "laplace_posterior", "posterior_bounds",
    "simulate_laplace_attack",
    # audit
    "AuditResult", "calibration_audit", "privacy_audit",
    # book
    "chapter_map",
    # census
    "CensusFirstNames", "census_first_names", "name_table",
    # composition
    "BudgetExceeded", "Charge", "PrivacyBudget", "advanced_composition", "advanced_composition_crossover",
    "advanced_composition_max_epsilon", "advanced_composition_max_k", "averaged_answers_std", "basic_composition",
    "optimal_composition", "optimal_composition_delta", "optimal_composition_max_k", "project_to_total",
    # counting
    "HistogramNoise", "PostProcessingEffect", "capped_histogram", "clamp_nonnegative", "counting_queries_scale",
    "counting_queries_sensitivity", "histogram_noise", "post_processing_effect", "release_counting_queries",
    "round_counts",
    # curator
    "Curator", "first_name_counts", "synthetic_town",
    # discrete
    "CENSUS_2020", "CENSUS_2020_DELTA", "ZCDPMeaning", "bernoulli_exp", "discrete_gaussian_delta",
    "discrete_gaussian_epsilon", "discrete_gaussian_mechanism", "discrete_gaussian_pmf", "discrete_gaussian_rho",
    "discrete_gaussian_sample", "discrete_gaussian_variance", "discrete_laplace_mechanism", "discrete_laplace_pmf",
    "discrete_laplace_sample", "discrete_laplace_scale", "discrete_laplace_variance", "zcdp_meaning",
    "zcdp_rho_for",
    # dpsgd
    "clip_gradients", "dpsgd_logistic_regression", "dpsgd_noise_scale", "logistic_gradients", "logistic_regression",
    "noisy_gradient_sum",
    # estimate
    "Estimate", "EstimateTable", "clopper_pearson_lower", "clopper_pearson_upper", "detection_probability",
    "fraction_estimate", "mean_estimate",
    # exact_composition
    "CompositionTotals", "exact_laplace_epsilon", "gaussian_zcdp_rho", "laplace_composition", "releases_within",
    "zcdp_to_dp",
    # floating
    "FloatingPointAttack", "floating_point_attack", "textbook_laplace", "textbook_laplace_mechanism",
    "textbook_reachable",
    # gaussian
    "classical_gaussian_constant", "classical_gaussian_sigma", "gaussian_delta", "gaussian_epsilon",
    "gaussian_mechanism", "gaussian_sigma", "gaussian_sigma_curve", "laplace_gaussian_crossover",
    # gdp
    "GaussianCompositionTotals", "gaussian_composition", "gaussian_gdp_mu", "gdp_best_success", "gdp_compose",
    "gdp_delta", "gdp_epsilon", "gdp_tradeoff",
    # generalized_gaussian
    "CalibrationTable", "ErrorTradeoff", "GeneralizedGaussianNoise", "MechanismError", "NoiseErrors",
    "PrivacyLossDistribution", "SparseVectorRefinement", "calibration_table", "counting_query_errors",
    "error_tradeoff", "expected_l1_noise", "expected_linf_noise", "ganesh_zhao_growth", "ganesh_zhao_shapes",
    "gaussian_noise", "generalized_gaussian_cdf", "generalized_gaussian_mechanism", "generalized_gaussian_moment",
    "generalized_gaussian_pdf", "generalized_gaussian_sample", "generalized_gaussian_sigma",
    "generalized_gaussian_tail", "generalized_gaussian_variance", "laplace_noise", "linf_lower_bound_shape",
    "linf_tail_bound", "mechanism_error", "one_coordinate_delta", "privacy_loss_distribution",
    "simulate_noise_errors", "sparse_vector_refinement",
    # hypothesis
    "EmpiricalTradeoff", "TradeoffSampler", "best_success", "dp_tradeoff_limit", "group_best_success",
    "group_privacy", "group_tradeoff_limit", "laplace_threshold_test", "laplace_tradeoff", "protection_epsilon",
    # laplace
    "ProofSteps", "laplace_cdf", "laplace_logpdf", "laplace_mechanism", "laplace_pdf", "laplace_scale",
    "laplace_tail", "privacy_loss", "proof_steps",
    # local
    "central_proportion_variance", "grid_counts", "perturb_locations", "randomized_response",
    "randomized_response_estimate", "randomized_response_probability", "randomized_response_variance",
    # planner
    "BudgetPlan", "plan_budget", "planner_delta", "record_release_risk", "release_epsilon",
    # reconstruction
    "ReconstructionResult", "ReconstructionSweep", "least_squares_decoder", "per_person_epsilon",
    "predicted_reconstruction_rate", "reconstruct", "reconstruction_attack", "subset_queries",
    # selection
    "exponential_mechanism", "exponential_mechanism_bound", "exponential_mechanism_probabilities",
    "report_noisy_max", "report_noisy_max_probabilities",
    # sensitivity
    "NeighbourDifferences", "all_databases", "l1_sensitivity", "l2_sensitivity", "neighbour_differences",
    "neighbour_differences_reference", "replace_one_sensitivity",
    # source
    "show_source",
    # sparse_variants
    "Counterexample", "above_threshold_runs", "audit_variant", "counterexample", "first_above", "noisy_value_runs",
    # threshold
    "above_threshold", "above_threshold_accuracy", "above_threshold_probabilities", "sparse_vector",
    # tracing
    "TracingAttack", "tracing_attack", "tracing_score",
    # notation
    "notation_table",
]
