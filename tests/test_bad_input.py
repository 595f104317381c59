"""The bad-input table: every public function and class of dpteach refuses bad values, naming them.

DESIGN.md: "every public function checks its parameters and raises ValueError naming the
parameter, the value and the allowed range"; a value of the wrong kind (a string, a bool, a float
where an integer is needed, a RandomState where a Generator is needed) raises TypeError. The
ranges come from Dwork & Roth: ε > 0 and Δf > 0 (Definition 3.3, Theorem 3.6), b > 0
(Definition 3.2), 0 < β ≤ 1 and k ≥ 1 (Theorem 3.8).

One table, ``CASES``, each row a public name, the arguments that replace some of its valid ones,
the exception, the parameter the message must name and the text it must show. It is built
from two sources and each row appears once:

* by introspection, for the WHOLE public API (every function or class in ``dp.prelude.__all__``):
  ``VALID`` holds one valid call per public callable (a factory, so every test gets fresh
  objects); ``EXEMPT`` lists, with the reason, the public names that take no user input to
  check (result records, exception types). For every parameter, ``KIND`` (by parameter name,
  overridden per function in ``KIND_OF``) says what the parameter is; each kind has a row of bad
  values (zero, negative, NaN, ±inf, wrong types, wrong shapes, empty arrays, k < 1, δ outside its
  range, p < 1) and the exception each must raise;
* by hand, for the maths of chapters 01–05 (``MATHS_LAYER``), in depth: the message shows the
  bad value ("got -1"), and bad combinations of arguments (f(x) and f(y) of different shapes,
  z whose last axis is not k, min_size = max_size). A hand row that repeats an introspected one
  adds what its message must show to it.

Meta-tests fail, listing them, when a public name has neither a VALID nor an EXEMPT entry, when a
table entry names something that is no longer public, or when a parameter has no kind, so nothing
slips past the table and nothing is silently dropped from it.
"""

from __future__ import annotations

import inspect
import math
import re
from fractions import Fraction
from typing import NamedTuple

import numpy as np
import pytest

import dpteach as dp
from dpteach import accuracy, estimate, laplace, sensitivity

NAN, INF = float("nan"), float("inf")


def count(x):
    """A counting query, where a valid f is needed."""
    return float(x.sum())


def _rng():
    return np.random.default_rng(0)


def _gg_valid():
    return dict(true_answer=[1.0, 2.0], p=1.5, sigma=2.0, rng=_rng())


def _noise():
    from dpteach.generalized_gaussian import accountant
    return accountant.GeneralizedGaussianNoise(2.0, 3.0)


def _town():
    return dp.synthetic_town(50, rng=_rng())


#: name -> factory of valid keyword arguments.
VALID = {
    "laplace_pdf": lambda: dict(x=[0.5, -1.0], scale=1.0),
    "laplace_cdf": lambda: dict(x=[0.5, -1.0], scale=1.0),
    "laplace_logpdf": lambda: dict(x=[0.5, -1.0], scale=1.0),
    "laplace_tail": lambda: dict(t=[0.0, 1.0]),
    "laplace_scale": lambda: dict(sensitivity=1.0, epsilon=1.0),
    "laplace_mechanism": lambda: dict(true_answer=[3.0, 4.0], sensitivity=1.0, epsilon=1.0, rng=_rng()),
    "privacy_loss": lambda: dict(z=[0.0, 0.5], fx=0.0, fy=1.0, sensitivity=1.0, epsilon=1.0),
    "proof_steps": lambda: dict(z=[0.0, 0.5], fx=0.0, fy=1.0, sensitivity=1.0, epsilon=1.0),
    "laplace_accuracy_bound": lambda: dict(k=10, beta=0.05, sensitivity=1.0, epsilon=1.0),
    "all_databases": lambda: dict(universe_size=3, max_size=2, min_size=0),
    "neighbour_differences": lambda: dict(f=count, universe=[0, 1, 2], max_size=2, min_size=0, ord=1),
    "l1_sensitivity": lambda: dict(f=count, universe=[0, 1, 2], max_size=2, min_size=0),
    "neighbour_differences_reference": lambda: dict(f=count, universe=[0, 1, 2], max_size=2, min_size=0, ord=1),
    "replace_one_sensitivity": lambda: dict(f=count, universe=[0, 1, 2], size=2, ord=1),
    "mean_estimate": lambda: dict(terms=[1.0, 2.0], theory=1.5, term_variance=1.0, name="mean"),
    "fraction_estimate": lambda: dict(outcomes=[1, 0, 1], theory=0.5, name="fraction"),
    "detection_probability": lambda: dict(shift=0.02, se=0.0045, tolerance=0.018),
    "l2_sensitivity": lambda: dict(f=count, universe=[0, 1, 2], max_size=2, min_size=0),
    "linf_error_tail": lambda: dict(threshold=[0.0, 2.0], k=10, sensitivity=1.0, epsilon=1.0),
    "linf_error_density": lambda: dict(threshold=[0.0, 2.0], k=10, sensitivity=1.0, epsilon=1.0),
    "linf_error_quantile": lambda: dict(k=10, beta=0.05, sensitivity=1.0, epsilon=1.0),
    "expected_linf_error": lambda: dict(k=10, sensitivity=1.0, epsilon=1.0),
    "binomial_ci": lambda: dict(successes=3, trials=10, confidence=0.95, method="clopper-pearson"),
    "linf_errors": lambda: dict(true_answer=[3.0, 4.0], sensitivity=1.0, epsilon=1.0, runs=5, rng=_rng(),
                                chunk_size=100),
    "accuracy_monte_carlo": lambda: dict(true_answer=[3.0, 4.0], beta=0.05, sensitivity=1.0, epsilon=1.0,
                                         runs=5, rng=_rng(), confidence=0.95, method="clopper-pearson"),
    "capped_histogram": lambda: dict(users=[7, 7, 8], cells=[0, 1, 1], n_cells=3, cap=2),
    "census_first_names": lambda: dict(),
    "chapter_map": lambda: dict(),
    "notation_table": lambda: dict(local=False),
    "clamp_nonnegative": lambda: dict(noisy=[-1.0, 2.0]),
    "round_counts": lambda: dict(noisy=[-1.4, 2.6]),
    "counting_queries_scale": lambda: dict(k=3, epsilon=1.0, disjoint=True),
    "counting_queries_sensitivity": lambda: dict(queries=np.eye(3)),
    "histogram_noise": lambda: dict(sensitivity=1.0, epsilon=1.0, cells=10, beta=0.05),
    "release_counting_queries": lambda: dict(queries=np.eye(3), x=[1.0, 2.0, 3.0], epsilon=1.0, rng=_rng()),
    "post_processing_effect": lambda: dict(true_counts=[0.0, 5.0], noisy=[-1.0, 5.5]),
    "name_table": lambda: dict(data=dp.census_first_names(), rows=3),
    "show_source": lambda: dict(obj=dp.laplace_scale),
    "above_threshold": lambda: dict(answers=[0.0, 5.0], threshold=1.0, epsilon=1.0, sensitivity=1.0, rng=_rng()),
    "sparse_vector": lambda: dict(answers=[0.0, 5.0], threshold=1.0, epsilon=1.0, c=1, sensitivity=1.0, rng=_rng()),
    "above_threshold_accuracy": lambda: dict(k=10, beta=0.05, epsilon=1.0),
    "above_threshold_probabilities": lambda: dict(answers=[0.0, 5.0], threshold=1.0, epsilon=1.0, sensitivity=1.0),
    "report_noisy_max": lambda: dict(counts=[3.0, 1.0], epsilon=1.0, rng=_rng()),
    "report_noisy_max_probabilities": lambda: dict(counts=[3.0, 1.0], epsilon=1.0),
    "exponential_mechanism": lambda: dict(utilities=[3.0, 1.0], sensitivity=1.0, epsilon=1.0, rng=_rng()),
    "exponential_mechanism_probabilities": lambda: dict(utilities=[3.0, 1.0], sensitivity=1.0, epsilon=1.0),
    "exponential_mechanism_bound": lambda: dict(utilities=[3.0, 1.0], sensitivity=1.0, epsilon=1.0, t=1.0),
    "basic_composition": lambda: dict(k=3, epsilon=0.5, delta=0.0),
    "advanced_composition": lambda: dict(k=3, epsilon=0.5, delta_prime=1e-5, delta=0.0),
    "advanced_composition_max_k": lambda: dict(total_epsilon=2.0, epsilon=0.1, delta_prime=1e-5),
    "advanced_composition_max_epsilon": lambda: dict(total_epsilon=2.0, k=10, delta_prime=1e-5),
    "advanced_composition_crossover": lambda: dict(epsilon=0.1, delta_prime=1e-6),
    "averaged_answers_std": lambda: dict(k=4, sensitivity=1.0, epsilon=1.0),
    "project_to_total": lambda: dict(noisy=[1.0, 2.0, 3.5], total=6.0),
    "PrivacyBudget": lambda: dict(epsilon=1.0, delta=0.0),
    "Curator": lambda: dict(data=_town(), budget=1.0, rng=_rng()),
    "synthetic_town": lambda: dict(n=50, rng=_rng()),
    "gaussian_mechanism": lambda: dict(true_answer=[1.0, 2.0], l2_sensitivity=1.0, epsilon=1.0, delta=1e-5,
                                       rng=_rng()),
    "gaussian_sigma": lambda: dict(l2_sensitivity=1.0, epsilon=1.0, delta=1e-5),
    "gaussian_sigma_curve": lambda: dict(epsilons=[0.5, 1.0], delta=1e-5, l2_sensitivity=1.0),
    "laplace_gaussian_crossover": lambda: dict(epsilon=1.0, delta=1e-5),
    "gaussian_delta": lambda: dict(sigma=3.0, l2_sensitivity=1.0, epsilon=1.0),
    "classical_gaussian_sigma": lambda: dict(l2_sensitivity=1.0, epsilon=0.5, delta=1e-5),
    "classical_gaussian_constant": lambda: dict(delta=1e-5),
    "generalized_gaussian_mechanism": _gg_valid,
    "generalized_gaussian_pdf": lambda: dict(x=[0.0, 1.0], p=1.5, sigma=2.0),
    "generalized_gaussian_cdf": lambda: dict(x=[0.0, 1.0], p=1.5, sigma=2.0),
    "generalized_gaussian_tail": lambda: dict(t=[0.0, 1.0], p=1.5, sigma=2.0),
    "generalized_gaussian_moment": lambda: dict(r=2.0, p=1.5, sigma=2.0),
    "generalized_gaussian_variance": lambda: dict(p=1.5, sigma=2.0),
    "generalized_gaussian_sample": lambda: dict(p=1.5, sigma=2.0, size=4, rng=_rng()),
    "generalized_gaussian_sigma": lambda: dict(k=4, p=1.5, epsilon=1.0, delta=1e-5),
    "expected_linf_noise": lambda: dict(k=4, p=1.5, sigma=2.0),
    "expected_l1_noise": lambda: dict(k=4, p=1.5, sigma=2.0),
    "linf_tail_bound": lambda: dict(k=4, beta=0.05, p=1.5, sigma=2.0),
    "simulate_noise_errors": lambda: dict(k=4, p=1.5, sigma=2.0, runs=5, rng=_rng()),
    "first_name_counts": lambda: dict(first_names=["MARY", "JAMES"]),
    "GeneralizedGaussianNoise": lambda: dict(p=1.5, scale=2.0),
    "gaussian_noise": lambda: dict(std=2.0),
    "laplace_noise": lambda: dict(scale=2.0),
    "one_coordinate_delta": lambda: dict(noise=_noise(), epsilon=[0.5, 1.0]),
    "privacy_loss_distribution": lambda: dict(noise=_noise(), k=2),
    "calibration_audit": lambda: dict(noise=_noise(), k=1, epsilon=1.0, delta=1e-5, samples=200, rng=_rng()),
    "calibration_table": lambda: dict(),
    "counting_query_errors": lambda: dict(k=4, epsilon=1.0, delta=1e-5, p=1.5),
    "ganesh_zhao_shapes": lambda: dict(k=[10, 100], epsilon=1.0, delta=1e-5),
    "ganesh_zhao_growth": lambda: dict(k=[20, 100], anchor_k=100.0),
    "error_tradeoff": lambda: dict(p=4.0, k=100, epsilon=1.0, delta=1e-6),
    "linf_lower_bound_shape": lambda: dict(k=[10, 100], epsilon=1.0, delta=1e-5),
    "mechanism_error": lambda: dict(name="Gaussian", k=4, p=2.0, sigma=3.0),
    "sparse_vector_refinement": lambda: dict(true_answer=np.zeros(20), p=1.5, epsilon=1.0, delta=1e-5, c=2,
                                             rng=_rng()),
    # chapter 09 (this issue)
    "discrete_laplace_mechanism": lambda: dict(counts=[3, 4], sensitivity=1, epsilon=1.0, rng=_rng()),
    "discrete_laplace_pmf": lambda: dict(z=[0, 1, -2], scale=1.0),
    "discrete_laplace_variance": lambda: dict(scale=1.0),
    "discrete_laplace_scale": lambda: dict(sensitivity=1, epsilon=0.5),
    "discrete_laplace_sample": lambda: dict(scale=Fraction(3, 2), size=4, rng=_rng()),
    "bernoulli_exp": lambda: dict(gamma=Fraction(1, 2), size=4, rng=_rng()),
    "discrete_gaussian_mechanism": lambda: dict(counts=[3, 4], sigma=2.0, rng=_rng()),
    "discrete_gaussian_pmf": lambda: dict(z=[0, 1, -2], sigma=1.0),
    "discrete_gaussian_variance": lambda: dict(sigma=1.0),
    "discrete_gaussian_sample": lambda: dict(sigma=Fraction(3, 2), size=4, rng=_rng()),
    "discrete_gaussian_rho": lambda: dict(sigma=2.0, sensitivity=1.0),
    "discrete_gaussian_delta": lambda: dict(sigma=1.0, epsilon=1.0, k=2, sensitivity=1),
    "discrete_gaussian_epsilon": lambda: dict(sigma=1.0, delta=1e-6, k=2, sensitivity=1),
    "zcdp_meaning": lambda: dict(rho=2.56, delta=1e-10),
    "zcdp_rho_for": lambda: dict(epsilon=2.0, delta=1e-6),
    "gaussian_epsilon": lambda: dict(sigma=2.0, l2_sensitivity=1.0, delta=1e-5),
    "textbook_laplace": lambda: dict(scale=1.0, size=4, rng=_rng()),
    "textbook_laplace_mechanism": lambda: dict(true_answer=[0.0, 1.0], sensitivity=1.0, epsilon=1.0, rng=_rng()),
    "textbook_reachable": lambda: dict(z=[0.5, 1.5], true_value=0.0, sensitivity=1.0, epsilon=1.0, window=4),
    "floating_point_attack": lambda: dict(fx=0.0, fy=1.0, sensitivity=1.0, epsilon=1.0, n=50, rng=_rng()),
    "clopper_pearson_lower": lambda: dict(successes=3, trials=10, level=0.05),
    "clopper_pearson_upper": lambda: dict(successes=3, trials=10, level=0.05),
    "privacy_audit": lambda: dict(mechanism=lambda d, size, rng: rng.laplace(d, 1.0, size), x=0.0, y=1.0,
                                  epsilon=1.0, delta=0.0, n=100, false_alarm=1e-3, rng=_rng()),
    # chapter 03: the differencing attack
    "dp_success_limit": lambda: dict(epsilon=[0.5, 1.0]),
    "laplace_attack_success": lambda: dict(epsilon=[0.5, 1.0], sensitivity=1.0, gap=0.5),
    "posterior_bounds": lambda: dict(prior=[0.1, 0.5], epsilon=1.0),
    "laplace_posterior": lambda: dict(z=[3.0, 4.5], prior=0.1, f_in=4.0, f_out=3.0, sensitivity=1.0, epsilon=1.0),
    "simulate_laplace_attack": lambda: dict(epsilon=[0.5, 1.0], trials=50, sensitivity=1.0, rng=_rng()),
    # chapter 10: the Laplace mechanism at work
    "randomized_response": lambda: dict(answers=[1, 0, 1], epsilon=1.0, rng=_rng()),
    "randomized_response_estimate": lambda: dict(answers=[1, 0, 1], epsilon=1.0),
    "randomized_response_probability": lambda: dict(epsilon=1.0),
    "randomized_response_variance": lambda: dict(n=100, epsilon=1.0),
    "central_proportion_variance": lambda: dict(n=100, epsilon=1.0),
    "perturb_locations": lambda: dict(x=[[1.0, 2.0], [3.0, 4.0]], epsilon=1.0, rng=_rng()),
    "grid_counts": lambda: dict(x=[[1.0, 2.0], [3.0, 4.0]], cells=4),
    "logistic_gradients": lambda: dict(w=[0.0, 0.0], x=[[1.0], [-1.0]], y=[1, 0]),
    "clip_gradients": lambda: dict(gradients=[[3.0, -1.0], [0.2, 0.1]], clip=1.0, ord=1),
    "noisy_gradient_sum": lambda: dict(gradients=[[3.0, -1.0], [0.2, 0.1]], clip=1.0, epsilon=1.0, rng=_rng()),
    "dpsgd_noise_scale": lambda: dict(clip=1.0, epsilon=1.0, steps=10),
    "dpsgd_logistic_regression": lambda: dict(x=[[1.0], [-1.0]], y=[1, 0], epsilon=1.0, steps=3, clip=1.0,
                                              learning_rate=1.0, rng=_rng()),
    "logistic_regression": lambda: dict(x=[[1.0], [-1.0]], y=[1, 0], steps=3, learning_rate=1.0),
    "synthetic_hospital": lambda: dict(n=20, rng=_rng()),
    "synthetic_city": lambda: dict(n=20, rng=_rng()),
    "synthetic_purchases": lambda: dict(n=20, rng=_rng()),
    "synthetic_conversions": lambda: dict(n=20, rng=_rng()),
    # chapter 11: what ε promises
    "subset_queries": lambda: dict(n=10, m=20, rng=_rng()),
    "least_squares_decoder": lambda: dict(queries=[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]),
    "reconstruct": lambda: dict(queries=[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], answers=[1.0, 0.0, 1.0]),
    "reconstruction_attack": lambda: dict(n=10, m=40, noise_scale=1.0, trials=2, rng=_rng()),
    "predicted_reconstruction_rate": lambda: dict(n=10, m=40, noise_scale=1.0, rng=_rng()),
    "ReconstructionSweep": lambda: dict(n=10, ms=(20, 40), trials=2, rng=_rng()),
    "dp_tradeoff_limit": lambda: dict(fpr=[0.1, 0.5], epsilon=1.0),
    "laplace_tradeoff": lambda: dict(fpr=[0.1, 0.5], epsilon=1.0, shift=1.0),
    "laplace_threshold_test": lambda: dict(threshold=[0.0, 1.0], epsilon=1.0, shift=1.0),
    "best_success": lambda: dict(epsilon=1.0),
    "protection_epsilon": lambda: dict(epsilon=1.0, people=2, replace=True),
    "TradeoffSampler": lambda: dict(n=100, confidence=0.95, rng=_rng()),
    "exact_laplace_epsilon": lambda: dict(k=3, epsilon=0.5, delta=1e-6),
    "laplace_composition": lambda: dict(k=3, epsilon=0.5, delta=1e-6),
    "releases_within": lambda: dict(total=1.0, epsilon=0.5, delta=1e-6),
    "gaussian_zcdp_rho": lambda: dict(std=2.0, sensitivity=1.0),
    "zcdp_to_dp": lambda: dict(rho=0.1, delta=1e-6),
    "gaussian_gdp_mu": lambda: dict(std=10.0, sensitivity=1.0),
    "gdp_tradeoff": lambda: dict(fpr=[0.05, 0.5], mu=1.0),
    "gdp_compose": lambda: dict(mus=[0.1, 0.2]),
    "gdp_delta": lambda: dict(epsilon=1.0, mu=1.0),
    "gdp_epsilon": lambda: dict(delta=1e-6, mu=1.0),
    "gdp_best_success": lambda: dict(mu=1.0),
    "gaussian_composition": lambda: dict(k=3, std=10.0, delta=1e-6, sensitivity=1.0),
    "plan_budget": lambda: dict(people=1_000, releases=3, accuracy=10.0, confidence=0.95),
    "planner_delta": lambda: dict(people=1_000, share=0.01),
    "record_release_risk": lambda: dict(delta=1e-6, people=1_000),
    "release_epsilon": lambda: dict(accuracy=10.0, confidence=0.95, sensitivity=1.0),
    "above_threshold_runs": lambda: dict(answers=[0.0, 1.0], threshold=0.5, epsilon=1.0, variant="correct", size=5,
                                         rng=_rng()),
    "first_above": lambda: dict(pattern=[[False, True], [False, False]]),
    "counterexample": lambda: dict(variant="no halting"),
    "audit_variant": lambda: dict(variant="no query noise", epsilon=1.0, n=200, rng=_rng()),
    "noisy_value_runs": lambda: dict(answers=[0.0, 1.0], threshold=0.5, epsilon=1.0, size=5, rng=_rng()),
    "optimal_composition": lambda: dict(k=10, epsilon=0.1, delta_prime=1e-6),
    "optimal_composition_delta": lambda: dict(k=10, epsilon=0.1, epsilon_prime=0.5),
    "optimal_composition_max_k": lambda: dict(total_epsilon=1.0, epsilon=0.1, delta_prime=1e-6),
    "group_tradeoff_limit": lambda: dict(fpr=[0.1, 0.5], epsilon=1.0, k=2, delta=0.0),
    "group_best_success": lambda: dict(epsilon=1.0, k=2, delta=0.0),
    "group_privacy": lambda: dict(epsilon=1.0, k=2, delta=0.0),
    "per_person_epsilon": lambda: dict(queries=[[1.0, 0.0], [1.0, 1.0]], noise_scale=1.0),
    "tracing_attack": lambda: dict(others=5, attributes=10, trials=20, rng=_rng()),
    "tracing_score": lambda: dict(target=[1.0, 0.0], counts=[3.0, 4.0], frequencies=[0.5, 0.4], others=5),
}

#: Public names with nothing to validate, and why.
EXEMPT = {
    "ReconstructionResult": "a result record built by reconstruction_attack",
    "EmpiricalTradeoff": "a result record built by TradeoffSampler.measure",
    "CompositionTotals": "a result record built by laplace_composition",
    "BudgetPlan": "a result record built by plan_budget",
    "GaussianCompositionTotals": "a result record built by gaussian_composition",
    "Counterexample": "a record built by counterexample",
    "AuditResult": "a result record built by privacy_audit",
    "CensusFirstNames": "a result record built by census_first_names",
    "FloatingPointAttack": "a result record built by floating_point_attack",
    "HistogramNoise": "a result record built by histogram_noise",
    "MonteCarloCoverage": "a result record built by accuracy_monte_carlo",
    "NeighbourDifferences": "a result record built by neighbour_differences",
    "PostProcessingEffect": "a result record built by post_processing_effect",
    "ProofSteps": "a result record built by proof_steps",
    "Charge": "a ledger line built by PrivacyBudget.spend",
    "BudgetExceeded": "an exception type raised by PrivacyBudget",
    "PrivacyLossDistribution": "a result record built by privacy_loss_distribution",
    "NoiseErrors": "a result record built by simulate_noise_errors",
    "MechanismError": "a result record built by mechanism_error",
    "SparseVectorRefinement": "a result record built by sparse_vector_refinement",
    "CalibrationTable": "a result record built by calibration_table",
    "ErrorTradeoff": "a result record built by error_tradeoff",
    "Estimate": "a result record built by mean_estimate and fraction_estimate",
    "EstimateTable": "a display of Estimate records (a tuple)",
    "AttackSimulation": "a result record built by simulate_laplace_attack",
    "TracingAttack": "a result record built by tracing_attack",
    "ZCDPMeaning": "a result record built by zcdp_meaning",
}

# -- what each parameter is, and its bad values ---------------------------------------------------

_WRONG_TYPE_NUMBER = ("1", True, None, [1.0])
BAD = {
    # finite real > 0 (ε, Δf, b, σ): zero, negative, NaN, ±inf → ValueError; not a number → TypeError
    "positive": [(0, ValueError), (-1, ValueError), (NAN, ValueError), (INF, ValueError), (-INF, ValueError)]
                + [(v, TypeError) for v in _WRONG_TYPE_NUMBER],
    # finite real ≥ 0
    "nonnegative": [(-1, ValueError), (NAN, ValueError), (INF, ValueError)] + [(v, TypeError) for v in ("1", True)],
    # a probability: δ, δ′, β, α, a confidence
    "probability": [(-0.1, ValueError), (1.5, ValueError), (NAN, ValueError), (INF, ValueError)]
                   + [(v, TypeError) for v in ("0.05", True)],
    # an integer ≥ 1 (k, runs, trials, c, a size): k < 1 → ValueError; a float or a string → TypeError
    "count": [(0, ValueError), (-3, ValueError)] + [(v, TypeError) for v in (2.5, True, "3", NAN)],
    # an integer ≥ 0
    "index": [(-1, ValueError)] + [(v, TypeError) for v in (2.5, "3")],
    # any finite real
    "real": [(NAN, ValueError), (INF, ValueError)] + [(v, TypeError) for v in ("1", True)],
    # a real array: NaN → ValueError, strings → TypeError
    "array": [([1.0, NAN], ValueError), (["a", "b"], TypeError), ("abc", TypeError)],
    # a real array that must not be empty, nor infinite
    "finite array": [([1.0, NAN], ValueError), ([1.0, INF], ValueError), ([], ValueError), (["a", "b"], TypeError)],
    # a 1-d array of candidates or queries: also wrong shapes
    "vector": [([1.0, NAN], ValueError), ([], ValueError), ([[1.0, 2.0], [3.0, 4.0]], ValueError),
               (["a", "b"], TypeError)],
    # integer counts
    "integers": [([1, NAN], ValueError), ([1.5, 2], ValueError), ([], ValueError), ([1, INF], ValueError),
                 ("3", TypeError)],
    # integer points at which a pmf is evaluated (empty is fine)
    "integer points": [([1, NAN], ValueError), ([0.5], ValueError), ([INF], ValueError), ("3", TypeError)],
    # one answer or a vector of answers: f(x), f(y)
    "answer": [(NAN, ValueError), ([0.0, INF], ValueError), ([], ValueError), ("1", TypeError)],
    # a column of first names from the census list
    "names": [([1, 2], TypeError), (["NOT A NAME"], ValueError)],
    # a Generator or None
    "rng": [(42, TypeError), ("seed", TypeError), (np.random.RandomState(0), TypeError)],
    # the Generalized Gaussian's shape p ≥ 1
    "shape p": [(0.5, ValueError), (0, ValueError), (-1, ValueError), (NAN, ValueError), ("2", TypeError)],
}

#: Default kind of a parameter, by its name.
KIND = {
    "epsilon": "positive", "sensitivity": "positive", "scale": "positive", "l2_sensitivity": "positive",
    "sigma": "positive", "total_epsilon": "positive",
    "delta": "probability", "delta_prime": "probability", "beta": "probability", "confidence": "probability",
    "level": "probability", "false_alarm": "probability",
    "k": "count", "runs": "count", "trials": "count", "c": "count", "cap": "count", "n_cells": "count",
    "universe_size": "count", "max_size": "count", "chunk_size": "count", "cells": "count", "n": "count",
    "successes": "index", "window": "index",
    "threshold": "real", "t": "real", "total": "real", "fx": "answer", "fy": "answer", "true_value": "real",
    "true_answer": "finite array", "x": "array", "z": "array", "noisy": "array", "true_counts": "array",
    "answers": "vector", "utilities": "vector", "counts": "vector",
    "rng": "rng", "p": "shape p", "first_names": "names", "r": "nonnegative",
    "gradients": "finite array", "w": "finite array", "clip": "positive", "learning_rate": "positive",
    "steps": "count",
}

#: Per function: a different kind, or None where the parameter is not a plain value (a callable, data).
KIND_OF = {
    "dpsgd_logistic_regression": {"public_size": "count"},
    "subset_queries": {"m": "count"},
    "reconstruction_attack": {"m": "count", "noise_scale": "nonnegative"},
    "predicted_reconstruction_rate": {"m": "count", "noise_scale": "nonnegative"},
    "ReconstructionSweep": {"ms": None},
    "TradeoffSampler": {"offsets": "vector"},
    "least_squares_decoder": {"queries": "array"},
    "reconstruct": {"queries": "array", "answers": "array"},
    "dp_tradeoff_limit": {"fpr": "array", "epsilon": "nonnegative"},
    "laplace_tradeoff": {"fpr": "array", "epsilon": "nonnegative", "shift": "nonnegative"},
    "laplace_threshold_test": {"threshold": "array", "shift": "nonnegative"},
    "best_success": {"epsilon": "nonnegative"},
    "protection_epsilon": {"epsilon": "nonnegative", "people": "count", "replace": None},
    "notation_table": {"local": None},
    "gaussian_zcdp_rho": {"std": "positive"},
    "zcdp_to_dp": {"rho": "array"},
    "gaussian_gdp_mu": {"std": "positive"},
    "gdp_tradeoff": {"fpr": "array", "mu": "nonnegative"},
    "gdp_compose": {"mus": "vector"},
    "gdp_delta": {"epsilon": "array", "mu": "nonnegative"},
    "gdp_epsilon": {"mu": "nonnegative"},
    "gdp_best_success": {"mu": "nonnegative"},
    "gaussian_composition": {"std": "positive"},
    "plan_budget": {"people": "count", "releases": "count", "accuracy": "positive", "simultaneous": None,
                    "guesses": None, "exact": None},
    "planner_delta": {"people": "count", "share": "probability"},
    "record_release_risk": {"people": "count"},
    "release_epsilon": {"accuracy": "positive"},
    "above_threshold_runs": {"variant": None, "size": "count"},
    "first_above": {"pattern": None},
    "counterexample": {"variant": None},
    "audit_variant": {"variant": None, "n": "count"},
    "laplace_tail": {"t": "array"},
    "linf_error_tail": {"threshold": "array"},
    "linf_error_density": {"threshold": "array"},
    "privacy_audit": {"epsilon": "nonnegative", "x": None, "y": None, "n": "count"},
    "discrete_laplace_mechanism": {"counts": "integers", "sensitivity": "count"},
    "discrete_laplace_scale": {"sensitivity": "count"},
    "discrete_laplace_pmf": {"z": "integer points"},
    "bernoulli_exp": {"gamma": "nonnegative"},
    "discrete_gaussian_mechanism": {"counts": "integers"},
    "discrete_gaussian_pmf": {"z": "integer points"},
    "discrete_gaussian_delta": {"epsilon": "array", "sensitivity": "count"},
    "discrete_gaussian_epsilon": {"sensitivity": "count"},
    "zcdp_meaning": {"rho": "positive"},
    "release_counting_queries": {"x": "finite array"},
    "histogram_noise": {"cells": "count"},
    "capped_histogram": {"cells": None},
    "synthetic_town": {"n": "count"},
    "Curator": {"budget": None},
    "exponential_mechanism_bound": {"t": "nonnegative"},
    "project_to_total": {"total": "nonnegative"},
    "basic_composition": {"delta": None},
    "advanced_composition": {"delta": None},
    "PrivacyBudget": {"delta": None, "accounting": None},
    "gaussian_delta": {"epsilon": "nonnegative"},
    "floating_point_attack": {"fx": "real", "fy": "real"},
    "name_table": {"rows": None},
    "generalized_gaussian_tail": {"t": "array"},
    "GeneralizedGaussianNoise": {"scale": "positive"},
    "one_coordinate_delta": {"epsilon": None},
    "ganesh_zhao_shapes": {"k": None},
    "ganesh_zhao_growth": {"k": None, "anchor_k": "positive"},
    "gaussian_sigma_curve": {"epsilons": None},
    "linf_lower_bound_shape": {"k": None},
    "calibration_audit": {"samples": "count", "epsilon": "nonnegative"},
    "privacy_loss_distribution": {"tail_mass": "probability", "tilt_at": "real"},
    "gaussian_noise": {"std": "positive"},
    "replace_one_sensitivity": {"size": "count"},
    "mean_estimate": {"terms": "finite array", "theory": "real", "term_variance": "positive"},
    "fraction_estimate": {"outcomes": "array", "theory": "probability"},
    "detection_probability": {"shift": "real", "se": "positive", "tolerance": "positive"},
    "dp_success_limit": {"epsilon": "array"},
    "laplace_attack_success": {"epsilon": "array", "gap": "nonnegative"},
    "posterior_bounds": {"epsilon": "array", "prior": "array"},
    "laplace_posterior": {"prior": "probability", "f_in": "real", "f_out": "real"},
    "simulate_laplace_attack": {"epsilon": "array"},
    "noisy_value_runs": {"size": "count"},
    "optimal_composition": {"delta": None},
    "optimal_composition_delta": {"epsilon_prime": "nonnegative", "delta": None},
    "group_tradeoff_limit": {"fpr": "array", "epsilon": "nonnegative"},
    "group_best_success": {"epsilon": "nonnegative"},
    "group_privacy": {"epsilon": "nonnegative"},
    "per_person_epsilon": {"noise_scale": "positive"},
    "tracing_attack": {"others": "count", "attributes": "count"},
    "tracing_score": {"target": None, "counts": None, "frequencies": "array", "others": "count"},
}


#: (function, parameter, bad value) rows known NOT to raise as the table expects: each is a finding
#: about someone else's code, kept visible as a strict xfail (it turns red when it is fixed).
KNOWN_GAPS: dict[tuple[str, str, str], str] = {}

#: Parameters that are not plain values (functions, objects, options) and are checked elsewhere.
_NOT_VALUES = {"f", "universe", "min_size", "ord", "method", "disjoint", "obj", "docstring", "data", "folder",
               "mechanism", "thresholds", "pilot", "size", "candidates", "points_per_scale", "reach", "queries",
               "users", "nonnegative", "gamma", "rows", "budget", "y", "resolution", "rtol",
               "vectorized", "noise", "event_noise", "samples", "tail_mass", "split", "name", "std"}

#: The maths of chapters 01–05 (dpteach.laplace, dpteach.sensitivity, dpteach.accuracy, and the
#: Clopper–Pearson bounds of dpteach.estimate that accuracy's intervals are made of): the hand rows.
MATHS_LAYER = (
    "laplace_pdf", "laplace_cdf", "laplace_logpdf", "laplace_tail", "laplace_scale", "laplace_mechanism",
    "privacy_loss", "proof_steps", "laplace_accuracy_bound", "all_databases", "neighbour_differences",
    "l1_sensitivity", "l2_sensitivity", "neighbour_differences_reference", "replace_one_sensitivity",
    "linf_error_tail", "linf_error_density", "linf_error_quantile", "expected_linf_error", "binomial_ci",
    "clopper_pearson_lower", "clopper_pearson_upper", "linf_errors", "accuracy_monte_carlo",
)


def _public() -> dict[str, object]:
    return {name: getattr(dp, name) for name in dp.prelude.__all__
            if inspect.isfunction(getattr(dp, name)) or inspect.isclass(getattr(dp, name))
            or (callable(getattr(dp, name)) and not inspect.ismodule(getattr(dp, name)))}


PUBLIC = _public()


def _label(value) -> str:
    """A stable test-id fragment: the repr of plain values, the type name of other objects."""
    if value is None or isinstance(value, (bool, int, float, str, list)):
        return repr(value)
    return type(value).__name__


class Row(NamedTuple):
    name: str              # the public name called
    overrides: dict        # the arguments replacing valid ones
    exc: type              # ValueError or TypeError
    named: str             # the parameter the message must name
    shows: tuple           # texts the message must show


ROWS: dict[str, Row] = {}


def case(name, overrides, exc, named=None, shows=None):
    """Add a row (``named``: the parameter the message must name, by default the one overridden). A row
    already in the table must expect the same exception; what the message must show is added to it."""
    if named is None:
        (named,) = overrides
    key = f"{name}-" + ",".join(f"{k}={_label(v)}" for k, v in overrides.items())
    shows = () if shows is None else (shows,)
    old = ROWS.get(key)
    if old is not None:
        assert (old.exc, old.named) == (exc, named), f"{key}: two rows disagree: {old} and {exc, named}"
        shows = old.shows + tuple(s for s in shows if s not in old.shows)
    ROWS[key] = Row(name, overrides, exc, named, shows)


# -- by introspection: every parameter of every public callable, by its kind ----------------------

for _name in sorted(VALID):
    if _name not in PUBLIC:         # a stale entry: test_every_table_entry_is_public fails, naming it
        continue
    _params = inspect.signature(PUBLIC[_name]).parameters
    for _param in VALID[_name]():
        if _param not in _params:
            continue
        _kind = KIND_OF.get(_name, {}).get(_param, KIND.get(_param))
        if _kind is None:
            continue
        for _bad, _exc in BAD[_kind]:
            case(_name, {_param: _bad}, _exc)


# -- by hand: the chapters 01–05 maths in depth ---------------------------------------------------

#: The names of the maths layer given rows by hand.
BY_HAND: set[str] = set()


def by_hand(name, overrides, exc, named=None, shows=None):
    BY_HAND.add(name)
    case(name, overrides, exc, named, shows)


def with_param(name):
    """The functions of the maths layer that take a parameter called ``name``."""
    return [f for f in MATHS_LAYER if name in inspect.signature(PUBLIC[f]).parameters]


# ε > 0, Δf > 0, b > 0: zero, negative, NaN, infinite → ValueError naming the parameter and the value.
for param in ("epsilon", "sensitivity", "scale"):
    for func in with_param(param):
        for bad in (0, -1, NAN, INF, -INF):
            by_hand(func, {param: bad}, ValueError, param, f"got {bad!r}")
        # A string or a bool is not a number at all → TypeError.
        for bad in ("1", True, None, [1.0]):
            by_hand(func, {param: bad}, TypeError, param)

# 0 < β ≤ 1 (Theorem 3.8, where the book writes δ).
for bad in (0, 1.5, -0.1, NAN, INF):
    by_hand("laplace_accuracy_bound", {"beta": bad}, ValueError, "beta", f"got {bad!r}")
for bad in ("0.05", True):
    by_hand("laplace_accuracy_bound", {"beta": bad}, TypeError, "beta")

# k ≥ 1 coordinates, an integer (Theorem 3.8).
for bad in (0, -3):
    by_hand("laplace_accuracy_bound", {"k": bad}, ValueError, "k", f"got {bad!r}")
for bad in (2.5, True, 10.0, "10"):
    by_hand("laplace_accuracy_bound", {"k": bad}, TypeError, "k")

# f(x) for the mechanism: finite, not empty (Definition 3.3).
for bad, shows in ([1.0, NAN], "nan"), (NAN, "nan"), ([INF, 2.0], "inf"), (-INF, "inf"), ([], "empty"):
    by_hand("laplace_mechanism", {"true_answer": bad}, ValueError, "true_answer", shows)
for bad in ("42", ["a", "b"], None):
    by_hand("laplace_mechanism", {"true_answer": bad}, TypeError, "true_answer")

# rng: a numpy Generator or None.
for bad in (42, np.random.RandomState(0), "seed", np.random.PCG64(0)):
    by_hand("laplace_mechanism", {"rng": bad}, TypeError, "rng")

# fx, fy and z for the privacy loss and the proof (Theorem 3.6).
for func in ("privacy_loss", "proof_steps"):
    by_hand(func, {"fx": [0.0, 0.0], "fy": [1.0, 0.0, 0.0]}, ValueError, "fx")             # shapes differ
    by_hand(func, {"fx": [0.0, 0.0], "fy": 1.0, "z": [[0.0, 0.0]]}, ValueError, "fx")       # vector vs scalar
    by_hand(func, {"fx": NAN}, ValueError, "fx", "nan")
    by_hand(func, {"fy": INF}, ValueError, "fy", "inf")
    by_hand(func, {"fx": [[0.0, 1.0]], "fy": [[1.0, 1.0]]}, ValueError, "fx")               # a 2-d answer
    by_hand(func, {"fx": [], "fy": []}, ValueError, "fx", "empty")
    by_hand(func, {"z": [0.0, NAN]}, ValueError, "z", "nan")
    by_hand(func, {"fx": [0.0, 0.0], "fy": [1.0, 0.0], "z": [0.0, 0.0, 0.0]}, ValueError, "z")  # last axis ≠ k

# Points at which the distribution is evaluated.
for func in ("laplace_pdf", "laplace_cdf", "laplace_logpdf"):
    by_hand(func, {"x": [0.0, NAN]}, ValueError, "x", "nan")
    by_hand(func, {"x": "0.5"}, TypeError, "x")
by_hand("laplace_tail", {"t": -1.0}, ValueError, "t")                   # Fact 3.7 needs t ≥ 0
by_hand("laplace_tail", {"t": [1.0, NAN]}, ValueError, "t", "nan")

# The enumeration of Definition 3.1.
for func in ("all_databases", "neighbour_differences", "l1_sensitivity", "l2_sensitivity",
             "neighbour_differences_reference"):
    by_hand(func, {"max_size": 0}, ValueError, "max_size", "got 0")
    by_hand(func, {"max_size": 2.5}, TypeError, "max_size")
    by_hand(func, {"max_size": True}, TypeError, "max_size")
    by_hand(func, {"min_size": -1}, ValueError, "min_size", "got -1")
    by_hand(func, {"min_size": 2}, ValueError, "min_size", "got 2")       # = max_size: no room to grow
    by_hand(func, {"min_size": 0.5}, TypeError, "min_size")
by_hand("all_databases", {"universe_size": 0}, ValueError, "universe_size", "got 0")
by_hand("all_databases", {"universe_size": 2.0}, TypeError, "universe_size")
for func in ("neighbour_differences", "l1_sensitivity", "l2_sensitivity", "neighbour_differences_reference",
             "replace_one_sensitivity"):
    by_hand(func, {"f": 42}, TypeError, "f")
    by_hand(func, {"universe": []}, ValueError, "universe")
for func in ("neighbour_differences", "neighbour_differences_reference", "replace_one_sensitivity"):
    by_hand(func, {"ord": 3}, ValueError, "ord", "got 3")
    by_hand(func, {"ord": np.inf}, ValueError, "ord")
by_hand("replace_one_sensitivity", {"size": 0}, ValueError, "size", "got 0")
by_hand("replace_one_sensitivity", {"size": 2.5}, TypeError, "size")
by_hand("replace_one_sensitivity", {"universe": [0]}, ValueError, "universe")

# Theorem 3.8 by simulation, and the exact law of the largest of k noises (chapter 05).
for func in ("linf_error_quantile", "accuracy_monte_carlo"):
    for bad in (0, 1.5, -0.1, NAN, INF):
        by_hand(func, {"beta": bad}, ValueError, "beta", f"got {bad!r}")
    for bad in ("0.05", True):
        by_hand(func, {"beta": bad}, TypeError, "beta")
for func in ("linf_error_tail", "linf_error_density", "linf_error_quantile", "expected_linf_error"):
    for bad in (0, -3):
        by_hand(func, {"k": bad}, ValueError, "k", f"got {bad!r}")
    for bad in (2.5, True, "10"):
        by_hand(func, {"k": bad}, TypeError, "k")
for func in ("linf_error_tail", "linf_error_density"):
    by_hand(func, {"threshold": -1.0}, ValueError, "threshold")
    by_hand(func, {"threshold": [1.0, NAN]}, ValueError, "threshold", "nan")
for func in ("linf_errors", "accuracy_monte_carlo"):
    by_hand(func, {"true_answer": [1.0, NAN]}, ValueError, "true_answer", "nan")
    by_hand(func, {"true_answer": []}, ValueError, "true_answer", "empty")
    by_hand(func, {"runs": 0}, ValueError, "runs", "got 0")
    by_hand(func, {"runs": 2.5}, TypeError, "runs")
    by_hand(func, {"rng": 42}, TypeError, "rng")
by_hand("linf_errors", {"chunk_size": 0}, ValueError, "chunk_size", "got 0")
by_hand("binomial_ci", {"trials": 0}, ValueError, "trials", "got 0")
by_hand("binomial_ci", {"successes": 11}, ValueError, "successes", "got 11")
by_hand("binomial_ci", {"successes": 1.5}, TypeError, "successes")
for bad in (0, 1, NAN):
    by_hand("binomial_ci", {"confidence": bad}, ValueError, "confidence")
by_hand("binomial_ci", {"method": "wald"}, ValueError, "method", "wald")
for func in ("clopper_pearson_lower", "clopper_pearson_upper"):
    by_hand(func, {"successes": 11}, ValueError, "successes", "got 11")
    by_hand(func, {"trials": 0}, ValueError, "trials", "got 0")
    for bad in (0, 1, NAN):
        by_hand(func, {"level": bad}, ValueError, "level")


def _marks(row: Row) -> list:
    if len(row.overrides) != 1:
        return []
    ((param, bad),) = row.overrides.items()
    gap = KNOWN_GAPS.get((row.name, param, _label(bad)))
    return [pytest.mark.xfail(strict=True, reason=gap)] if gap else []


CASES = [pytest.param(*row, marks=_marks(row), id=key) for key, row in ROWS.items()]


# -- the table covers everything ------------------------------------------------------------------

def test_every_public_callable_is_in_the_table():
    """A public function or class with no VALID entry (and no EXEMPT reason) fails here, by name."""
    missing = sorted(set(PUBLIC) - set(VALID) - set(EXEMPT))
    assert not missing, ("public names with no entry in tests/test_bad_input.py (add a valid call to "
                         f"VALID, or a reason to EXEMPT): {missing}")


def test_every_table_entry_is_public():
    """A public name renamed or removed fails here, by name, instead of dropping its rows silently."""
    stale = sorted((set(VALID) | set(EXEMPT) | set(MATHS_LAYER)) - set(dp.prelude.__all__))
    assert not stale, f"entries of tests/test_bad_input.py that dpteach no longer exports: {stale}"


def test_every_valid_call_succeeds():
    """The baseline calls are valid, so each error in the table comes from the one argument changed."""
    for name, obj in PUBLIC.items():
        if name in VALID:
            obj(**VALID[name]())


def test_every_parameter_of_every_entry_has_a_kind():
    """No parameter is silently left out: each has a kind, or is explicitly marked None (not a plain value)."""
    unknown = []
    for name, obj in PUBLIC.items():
        if name not in VALID:
            continue
        for param in inspect.signature(obj).parameters.values():
            if param.kind in (param.VAR_KEYWORD, param.VAR_POSITIONAL):
                continue
            overrides = KIND_OF.get(name, {})
            if param.name not in overrides and param.name not in KIND and param.name not in _NOT_VALUES:
                unknown.append(f"{name}({param.name})")
    assert not unknown, f"parameters with no kind in KIND / KIND_OF: {unknown}"


def test_the_maths_layer_is_every_public_function_of_its_modules():
    """MATHS_LAYER is every public function of dpteach.laplace, dpteach.sensitivity and dpteach.accuracy,
    and the Clopper–Pearson bounds of dpteach.estimate that dpteach.accuracy's intervals are made of;
    each is exported by dpteach, and each has rows written by hand."""
    public = {obj for module in (accuracy, laplace, sensitivity) for name, obj in vars(module).items()
              if not name.startswith("_") and inspect.isfunction(obj) and obj.__module__ == module.__name__}
    public |= {estimate.clopper_pearson_lower, estimate.clopper_pearson_upper}
    assert {f.__name__ for f in public} == set(MATHS_LAYER)
    assert {f.__name__ for f in public} <= set(dp.prelude.__all__)
    assert not set(MATHS_LAYER) - BY_HAND, f"no rows by hand: {sorted(set(MATHS_LAYER) - BY_HAND)}"


def test_table_is_big_enough_to_mean_something():
    """Guard against a table that silently shrinks (e.g. every entry skipped)."""
    assert len(CASES) > 2000 and math.isfinite(len(CASES))


# -- the rows -------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, overrides, exc, named, shows", CASES)
def test_bad_value_is_refused_naming_the_parameter(name, overrides, exc, named, shows):
    """The exception expected, a message that names the parameter and shows what the row says it must."""
    kwargs = VALID[name]() | overrides
    with pytest.raises((ValueError, TypeError)) as info:
        PUBLIC[name](**kwargs)
    message = str(info.value)
    assert issubclass(info.type, exc), f"{name}({overrides}): expected {exc.__name__}, got {info.type.__name__}: {message}"
    assert re.search(rf"\b{re.escape(named)}\b", message), f"{name}({overrides}): {message!r} does not name {named!r}"
    for text in shows:
        assert text in message, f"{name}({overrides}): {message!r} does not show {text!r}"


@pytest.mark.parametrize("param", ["epsilon", "sensitivity"])
def test_value_errors_state_the_allowed_range(param):
    """DESIGN.md: the message states the allowed range (ε > 0, Δf > 0) and why."""
    for func in with_param(param):
        with pytest.raises(ValueError, match=rf"{param} must be a finite number > 0, got -1"):
            PUBLIC[func](**(VALID[func]() | {param: -1}))


def test_accepted_edge_values():
    """The ranges are the book's: δ = 1, k = 1 (Thm 3.8), numpy scalars and ±inf for a density are allowed."""
    assert dp.laplace_accuracy_bound(np.int64(1), 1, 1.0, 1.0) == 0.0
    assert dp.laplace_accuracy_bound(1, np.float64(0.5), np.float32(2.0), np.int32(1)) > 0
    assert dp.laplace_pdf([-INF, INF], 1.0).tolist() == [0.0, 0.0]
    assert dp.laplace_tail(INF) == 0.0
    counts = np.array([1, 2], dtype=np.int64)
    assert dp.laplace_mechanism(counts, 1, 1, rng=np.random.default_rng(0)).dtype == np.float64


def test_an_infinite_noise_scale_is_refused():
    """Δf/ε that overflows to inf is named, not silently turned into infinite noise."""
    with pytest.raises(ValueError, match="overflows"):
        dp.laplace_mechanism(1.0, sensitivity=1e300, epsilon=1e-300)
    with pytest.raises(ValueError, match="overflows"):
        dp.laplace_accuracy_bound(10, 0.05, sensitivity=1e300, epsilon=1e-300)
