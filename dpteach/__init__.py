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

from .accuracy import (
    MonteCarloCoverage,
    accuracy_monte_carlo,
    binomial_ci,
    expected_linf_error,
    laplace_accuracy_bound,
    linf_error_quantile,
    linf_error_tail,
    linf_errors,
)
from .book import chapter_map
from .census import CensusFirstNames, census_first_names, name_table
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
from .sensitivity import (
    NeighbourDifferences,
    all_databases,
    l1_sensitivity,
    l2_sensitivity,
    neighbour_differences,
)
from .selection import above_threshold, sparse_vector
from .source import show_source

__version__ = "0.1.0"

_LAZY = {"plots", "widgets", "exercises"}

__all__ = [
    "above_threshold",
    "CensusFirstNames",
    "HistogramNoise",
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
    "exercises",
    "expected_linf_error",
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
    "linf_error_quantile",
    "linf_error_tail",
    "linf_errors",
    "name_table",
    "neighbour_differences",
    "plots",
    "post_processing_effect",
    "privacy_loss",
    "proof_steps",
    "release_counting_queries",
    "round_counts",
    "show_source",
    "sparse_vector",
    "widgets",
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
