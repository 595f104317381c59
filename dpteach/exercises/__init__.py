"""Checkers for the workbook's exercises: each says right or wrong, and why.

A checker takes the student's answer and returns a :class:`Feedback`, which shows as a
coloured box in a notebook and as one line of text elsewhere. The expected answer is
computed with dpteach itself (by enumeration or by formula), never typed in. Each topic's
checkers live in the module of that topic (``dpteach/exercises/T.py``); the shared machinery
(Feedback, numeric answers with known mistakes, multiple choice, functions the student
writes) is in ``_base``, with the registry :data:`EXERCISES` of every exercise: its prompt, its
precision (significant figures), and the parameter values a homework may use instead of the
chapter's. Every known mistake a checker names is registered in :data:`MISTAKES` (its name, why it is
wrong, and the section that teaches the right step), and :func:`common_mistakes` lists them for a page;
:func:`wrong_claims` lists the claims teaching material most often gets wrong.
"""

from ._base import (
    EXERCISES,
    KINDS,
    Case,
    ExerciseSpec,
    Feedback,
    Mistake,
    as_number,
    check_choice,
    check_function,
    compare,
    exercise,
    run_in_process,
    to_plain,
    tolerance,
)
from ._cells import OVERWRITTEN, overwritten_in
from ._mistakes import CLAIMS, MISTAKES, common_mistakes, wrong_claims
from .accuracy import (
    check_accuracy_bound,
    check_accuracy_bound_function,
    check_delta_for_bound,
    check_dominance_threshold,
)
from .applications import (
    check_dpsgd_noise_scale,
    check_purchase_sensitivity,
    check_randomized_response_estimate,
)
from .composition import (
    check_promised_accuracy,
    check_queries_bought,
    check_session_spend,
    check_split_variance,
)
from .counting import (
    check_count_relative_error,
    check_counting_sensitivity_function,
    check_derived_count_std,
    check_overlapping_bands_sensitivity,
)
from .exact_composition import check_exact_releases
from .gaussian import (
    check_gaussian_sigma_for_counts,
    check_generalized_gaussian_variance,
    check_laplace_delta,
)
from .hypothesis import check_attribute_success, check_gdp_composed_beta, check_laplace_best_beta
from .laplace import (
    check_epsilon_for_std,
    check_my_laplace_cdf,
    check_scale_for_count,
    check_tail_probability,
)
from .mechanism import (
    check_gaussian_proof_step,
    check_my_laplace_mechanism,
    check_scale_for_overlapping_counts,
    check_understated_loss,
)
from .noise import (
    check_audit_epsilon,
    check_discrete_laplace_variance,
)
from .planning import check_release_plan
from .reconstruction import check_reconstruction_noise
from .release import check_weekly_rho, check_weekly_scale
from .selection import (
    check_above_threshold_alpha,
    check_exponential_probability,
    check_noisy_max_upset,
)
from .sensitivity import (
    check_count_and_sum_sensitivity,
    check_l2_sensitivity_of_counts,
    check_my_l1_sensitivity,
)
from .sparse_variants import check_unnoised_threshold_ratio
from .variants import homework, question

__all__ = [
    "OVERWRITTEN",
    "overwritten_in",
    "EXERCISES",
    "KINDS",
    "homework",
    "question",
    "ExerciseSpec",
    "exercise",
    "run_in_process",
    "to_plain",
    "tolerance",
    "Case",
    "Feedback",
    "Mistake",
    "as_number",
    "check_choice",
    "check_function",
    "compare",
    "check_accuracy_bound",
    "check_accuracy_bound_function",
    "check_delta_for_bound",
    "check_dominance_threshold",
    "check_dpsgd_noise_scale",
    "check_purchase_sensitivity",
    "check_randomized_response_estimate",
    "check_queries_bought",
    "check_session_spend",
    "check_split_variance",
    "check_promised_accuracy",
    "check_release_plan",
    "check_overlapping_bands_sensitivity",
    "check_count_relative_error",
    "check_derived_count_std",
    "check_counting_sensitivity_function",
    "check_gaussian_sigma_for_counts",
    "check_generalized_gaussian_variance",
    "check_laplace_delta",
    "check_scale_for_count",
    "check_tail_probability",
    "check_epsilon_for_std",
    "check_my_laplace_cdf",
    "check_scale_for_overlapping_counts",
    "check_understated_loss",
    "check_gaussian_proof_step",
    "check_my_laplace_mechanism",
    "check_discrete_laplace_variance",
    "check_audit_epsilon",
    "check_above_threshold_alpha",
    "check_exponential_probability",
    "check_noisy_max_upset",
    "check_count_and_sum_sensitivity",
    "check_l2_sensitivity_of_counts",
    "check_my_l1_sensitivity",
    "check_exact_releases",
    "check_attribute_success",
    "check_gdp_composed_beta",
    "check_laplace_best_beta",
    "check_reconstruction_noise",
    "check_weekly_scale",
    "check_weekly_rho",
    "check_unnoised_threshold_ratio",
    "MISTAKES",
    "CLAIMS",
    "common_mistakes",
    "wrong_claims",
]
