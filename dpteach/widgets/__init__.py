"""Sliders wired to figures: each factory returns an :class:`Interactive` ready to display.

Each topic's sliders live in ``dpteach/widgets/T.py``; ``Interactive`` and the slider makers are in
``_base``. This module only re-exports their public names.
"""

from ._base import Interactive, beta_slider, direction_ends, epsilon_slider, log_slider, private_end, sensitivity_slider
from .accuracy import (
    accuracy_bound,
    marketing_noise,
    name_reliability,
)
from .applications import (
    hospital_count,
    purchase_histogram,
)
from .attack import (
    attack_success,
)
from .composition import (
    advanced_composition,
    post_processing,
    sequential_averaging,
)
from .counting import (
    count_error_by_size,
    counting_vs_histogram,
)
from .dpsgd import dpsgd_accuracy
from .exact_composition import composition_compared
from .gaussian import (
    error_tradeoff,
    gaussian_calibration,
    generalized_gaussian_density,
    privacy_delta_slider,
    sensitivity_norms,
)
from .hypothesis import gdp_composition, tradeoff_region
from .laplace import (
    laplace_density,
    privacy_loss,
)
from .local import local_vs_central, location_density
from .noise import (
    discrete_gaussian,
    discrete_laplace,
)
from .planner import budget_planner
from .precomputed import (
    PrecomputedView,
    precomputed,
)
from .reconstruction import reconstruction_attack
from .selection import (
    above_threshold_stream,
    exponential_choice,
    noisy_max,
)
from .sensitivity import (
    clipped_sum_sensitivity,
    counting_queries_sensitivity,
)

__all__ = [
    "Interactive",
    "beta_slider",
    "direction_ends",
    "private_end",
    "epsilon_slider",
    "log_slider",
    "sensitivity_slider",
    "accuracy_bound",
    "name_reliability",
    "marketing_noise",
    "dpsgd_accuracy",
    "hospital_count",
    "local_vs_central",
    "location_density",
    "purchase_histogram",
    "attack_success",
    "advanced_composition",
    "post_processing",
    "sequential_averaging",
    "count_error_by_size",
    "counting_vs_histogram",
    "error_tradeoff",
    "gaussian_calibration",
    "generalized_gaussian_density",
    "privacy_delta_slider",
    "sensitivity_norms",
    "laplace_density",
    "privacy_loss",
    "discrete_gaussian",
    "discrete_laplace",
    "PrecomputedView",
    "precomputed",
    "above_threshold_stream",
    "exponential_choice",
    "noisy_max",
    "clipped_sum_sensitivity",
    "counting_queries_sensitivity",
    "composition_compared",
    "tradeoff_region",
    "gdp_composition",
    "reconstruction_attack",
    "budget_planner",
]
