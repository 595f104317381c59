"""Sparse-vector refinement of a Generalized Gaussian release (the idea of Ganesh & Zhao 2020's main result).

Release, find the few coordinates with the largest errors with Sparse (Dwork & Roth 2014,
Algorithm 2), answer those again, and pay for the three steps by sequential composition.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import _special, _validate
from ..gaussian import gaussian_mechanism, gaussian_sigma
from ..threshold import sparse_vector
from .distribution import check_shape, generalized_gaussian_sample
from .mechanism import check_delta, generalized_gaussian_sigma


@dataclass(frozen=True)
class SparseVectorRefinement:
    """A Generalized Gaussian release whose worst coordinates were found by Sparse and answered again."""

    first_release: np.ndarray      # d + GG noise, at (ε₁, δ/2)
    final_release: np.ndarray      # the same with the flagged coordinates answered again
    flagged: list[int]             # the coordinates Sparse reported above the threshold
    threshold: float
    sigma: float                   # the Generalized Gaussian scale, at (ε₁, δ/2)
    reanswer_std: float            # the Gaussian std of the re-answers, at (ε₃, δ/2), Δ₂ = √c
    epsilons: tuple[float, float, float]
    delta: float
    error_before: float            # ‖first_release − d‖∞
    error_after: float             # ‖final_release − d‖∞
    true_large: int                # coordinates whose first error exceeded the threshold

    def __repr__(self) -> str:
        e1, e2, e3 = self.epsilons
        return (f"budget ε = {e1:g} + {e2:g} + {e3:g} = {sum(self.epsilons):g}, δ = {self.delta:g}; "
                f"threshold {self.threshold:.4g}: {self.true_large} coordinates above it, "
                f"{len(self.flagged)} flagged; largest error {self.error_before:.4g} → {self.error_after:.4g}")


def sparse_vector_refinement(true_answer, p: float, epsilon: float, delta: float, *, c: int = 5,
                             split: tuple[float, float, float] = (0.8, 0.1, 0.1),
                             rng: np.random.Generator | None = None) -> SparseVectorRefinement:
    """The idea of Ganesh & Zhao's main result, written plainly: release, find the worst, answer again.

    1. Release d + X with X Generalized Gaussian, σ calibrated for (ε₁, δ/2).
    2. Ask the sensitivity-1 queries q_i(d) = |y_i − d_i| (y is now public) of Sparse
       (Dwork & Roth, Algorithm 2; ``dp.sparse_vector``) with budget ε₂, threshold T and at
       most c reports. T is set, from σ alone, where the expected number of coordinates
       above it is c/2.
    3. Answer the reported coordinates again with the Gaussian mechanism at (ε₃, δ/2),
       Δ₂ = √c (at most c of them), and replace them.

    By sequential composition (Theorem 3.16) the whole is (ε₁ + ε₂ + ε₃, δ)-DP. This is the
    shape of the technique only: the paper's p, threshold, c and budget split (and their
    constants) are not reproduced, so nothing here should be read as its error bound.

    Parameters
    ----------
    true_answer : 1-d array_like
        The k true counts d.
    p : float
        Shape of the first release's noise.
    epsilon, delta : float
        The total budget.
    c : int, optional
        The most coordinates Sparse may report.
    split : tuple of three floats, optional
        Fractions of ε for the release, Sparse and the re-answers (they must add up to 1).
    rng : numpy.random.Generator, optional
    """
    d = _validate.array("true_answer", true_answer, ndim=(1,))
    pp = check_shape(p)
    eps = _validate.epsilon(epsilon)
    dd = check_delta(delta)
    cc = _validate.integer("c", c, low=1, high=d.size, why="c is how many coordinates may be answered again")
    parts = tuple(_validate.real("split", s, low=0.0, high=1.0) for s in split)
    if len(parts) != 3 or not math.isclose(sum(parts), 1.0, rel_tol=1e-9):
        raise ValueError(f"split must be three fractions of epsilon that add up to 1, got {split!r}")
    gen = _validate.rng(rng)
    e1, e2, e3 = (eps * s for s in parts)
    sigma = generalized_gaussian_sigma(d.size, pp, e1, dd / 2)
    first = d + generalized_gaussian_sample(pp, sigma, d.size, gen)
    # T with k·Pr[|X| ≥ T] = c/2: where about c/2 of the k errors are expected to lie above
    a = 1.0 / pp
    y = np.linspace(0.0, (math.log(d.size) + 50.0), 20001)
    tails = d.size * _special.gammaincc(a, y)
    threshold = float(sigma * y[int(np.argmax(tails <= cc / 2))] ** a)
    errors = np.abs(first - d)
    flagged = sparse_vector(errors, threshold, e2, cc, sensitivity=1.0, rng=gen)
    final = first.copy()
    std = gaussian_sigma(math.sqrt(cc), e3, dd / 2)
    if flagged:
        final[flagged] = gaussian_mechanism(d[flagged], math.sqrt(cc), e3, dd / 2, rng=gen)
    return SparseVectorRefinement(first, final, flagged, threshold, sigma, std, (e1, e2, e3), dd,
                                  float(errors.max()), float(np.abs(final - d).max()),
                                  int((errors >= threshold).sum()))
