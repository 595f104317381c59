"""The Generalized Gaussian mechanism (Ganesh & Zhao 2020): f(x) plus Generalized Gaussian noise.

For k counting queries, :func:`dpteach.gg_sigma.generalized_gaussian_sigma` gives the
smallest σ that is (ε, δ)-DP; the noise's distribution is :mod:`dpteach.gg_distribution`.
"""

from __future__ import annotations

import numpy as np

from . import _validate
from .gg_distribution import generalized_gaussian_sample


def generalized_gaussian_mechanism(true_answer, p: float, sigma: float,
                                   rng: np.random.Generator | None = None) -> np.ndarray | float:
    """The Generalized Gaussian mechanism: f(x) + X, X with density ∝ exp(−(‖X‖_p/σ)^p) (Ganesh & Zhao 2020).

    The coordinates of X are i.i.d. with density p/(2σΓ(1/p))·exp(−(|x_i|/σ)^p). For k
    counting queries, :func:`generalized_gaussian_sigma` gives the smallest σ that is
    (ε, δ)-DP; this function adds the noise for a σ you choose.

    Examples
    --------
    >>> import numpy as np
    >>> generalized_gaussian_mechanism([120, 45, 3], p=2.2, sigma=4.0, rng=np.random.default_rng(0)).shape
    (3,)
    """
    answer = _validate.array("true_answer", true_answer)
    noise = generalized_gaussian_sample(p, sigma, answer.shape, rng)
    out = answer + noise
    return out if out.ndim else float(out)
