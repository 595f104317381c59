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

from .accuracy import laplace_accuracy_bound
from .book import chapter_map
from .laplace import (
    ProofSteps,
    laplace_cdf,
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
from .source import show_source

__version__ = "0.1.0"

_LAZY = {"plots", "widgets", "exercises"}

__all__ = [
    "NeighbourDifferences",
    "ProofSteps",
    "all_databases",
    "chapter_map",
    "exercises",
    "l1_sensitivity",
    "l2_sensitivity",
    "laplace_accuracy_bound",
    "laplace_cdf",
    "laplace_mechanism",
    "laplace_pdf",
    "laplace_scale",
    "laplace_tail",
    "neighbour_differences",
    "plots",
    "privacy_loss",
    "proof_steps",
    "show_source",
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
