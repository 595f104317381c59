"""A membership (tracing) attack on released column counts, and what ε-DP does to it.

A dataset holds n people, each a row of d binary attributes (answers to d yes/no questions);
attribute j is 1 with a public population frequency p_j. The curator releases the d column
counts c_j. An attacker who holds a target's row t and the frequencies asks: is the target in
the data? The tracing test of Homer et al. (PLoS Genetics 2008), in the inner-product form of
Dwork, Smith, Steinke, Ullman & Vadhan ("Robust traceability from trace amounts", FOCS 2015),
scores

.. math:: s = \\sum_j (t_j - p_j)\\,(c_j - N p_j),

N the number of other people (public), and says "in" when s ≥ τ. If the target is in, her row
adds Σ_j (t_j − p_j)t_j, about Σ_j p_j(1 − p_j), to the score; the other rows add noise of
standard deviation about √(N·Σ_j p_j²(1 − p_j)²), of order √(dN). With d well above N the
exact counts give the target away.

Released with the Laplace mechanism, each count gets Lap(d/ε): the d counts have ℓ1-sensitivity
d under add/remove (one person changes each count by at most 1), so the release is ε-DP
(Theorem 3.6). The test is then a test of the neighbours "the others" against "the others and
the target", and its errors obey FPR + e^ε·FNR ≥ 1 and e^ε·FPR + FNR ≥ 1 for every threshold τ,
whatever the draw of the others and the target (the region is convex, so averaging over those
draws keeps the rates in it). FPR = Pr[say "in" | out] is the false positive rate, FNR = Pr[say
"out" | in] = 1 − the true positive rate.

:func:`tracing_attack` draws the scores once; :meth:`TracingAttack.rates` gives the test's
(FPR, FNR) at each threshold, with no noise or at any ε, without drawing again (the Laplace part of
the score is Σ_j (t_j − p_j)L_j·d/ε for unit Laplace L_j, drawn once).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import _validate

__all__ = ["TracingAttack", "tracing_attack", "tracing_score"]


def tracing_score(target, counts, frequencies, others: int) -> np.ndarray | float:
    """The tracing test's score s = Σ_j (t_j − p_j)(c_j − N·p_j) for released counts c and a target's row t.

    ``target`` and ``counts`` may hold one row or a stack of rows (the last axis is the d attributes).
    """
    p = _validate.array("frequencies", frequencies, ndim=(1,))
    if ((p <= 0) | (p >= 1)).any():
        raise ValueError(f"frequencies must be in (0, 1) everywhere, got {frequencies!r}; p_j is a share of "
                         "the population")
    t = _validate.array("target", target, ndim=(1, 2))
    c = _validate.array("counts", counts, ndim=(1, 2))
    n = _validate.integer("others", others, low=1, why="N, the number of other people in the data")
    if t.shape[-1] != p.size or c.shape[-1] != p.size:
        raise ValueError(f"target and counts must have {p.size} attributes (the frequencies' length) on their "
                         f"last axis, got shapes {t.shape} and {c.shape}")
    s = np.einsum("...j,...j->...", t - p, c - n * p)
    return s if np.ndim(s) else float(s)


@dataclass(frozen=True)
class TracingAttack:
    """The tracing test's scores over ``trials`` experiments with the target out and as many with her in.

    ``out_exact``/``in_exact`` are the scores on exact counts; ``out_unit``/``in_unit`` the
    part unit Laplace noise on every count adds (Σ_j (t_j − p_j)L_j): at ε the noisy score is
    the exact one plus (d/ε) times it.
    """

    others: int
    attributes: int
    trials: int
    frequencies: np.ndarray = field(repr=False)
    out_exact: np.ndarray = field(repr=False)
    in_exact: np.ndarray = field(repr=False)
    out_unit: np.ndarray = field(repr=False)
    in_unit: np.ndarray = field(repr=False)

    def scores(self, epsilon: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The scores (target out, target in): on exact counts (``epsilon`` None), or on counts + Lap(d/ε)."""
        if epsilon is None:
            return self.out_exact, self.in_exact
        scale = self.attributes / _validate.epsilon(epsilon)
        return self.out_exact + scale * self.out_unit, self.in_exact + scale * self.in_unit

    def rates(self, epsilon: float | None = None, thresholds=None) -> tuple[np.ndarray, np.ndarray]:
        """(FPR, FNR) of the test "in when s ≥ τ" at each threshold τ: FPR = false positive rate, FNR = 1 − true positive rate.

        ``thresholds`` default: every score of either side (the whole empirical ROC curve), plus
        one above them all (FPR = 0, FNR = 1).
        """
        out, inn = self.scores(epsilon)
        out, inn = np.sort(out), np.sort(inn)
        if thresholds is None:
            ts = np.r_[np.unique(np.r_[out, inn]), np.inf]
        else:
            ts = _validate.array("thresholds", thresholds, ndim=(1,), allow_inf=True)
        fpr = (out.size - np.searchsorted(out, ts, side="left")) / out.size
        fnr = np.searchsorted(inn, ts, side="left") / inn.size
        return fpr, fnr

    def power_at(self, levels, epsilon: float | None = None) -> np.ndarray:
        """The true positive rate 1 − FNR of the test whose threshold τ is the (1 − a)-quantile of the scores with the
        target out, for each false positive rate a in ``levels``: what the test reaches at FPR ≈ a.

        Measured on samples: compare it with the most any test can reach against an ε-DP release at
        FPR = a, min(1, e^ε·a, 1 − e^{−ε}(1 − a)) (:func:`~dpteach.dp_tradeoff_limit`).
        """
        a = _validate.array("levels", levels, ndim=(0, 1))
        if ((a <= 0) | (a >= 1)).any():
            raise ValueError(f"levels must be false positive rates in (0, 1), got {levels!r}")
        out, inn = self.scores(epsilon)
        tau = np.quantile(out, 1.0 - a, method="higher")
        tpr = np.mean(inn[None, :] >= np.atleast_1d(tau)[:, None], axis=1)
        return tpr if np.ndim(levels) else float(tpr[0])


def tracing_attack(others: int = 30, attributes: int = 300, trials: int = 1_000,
                   rng: np.random.Generator | None = None) -> TracingAttack:
    """Run the tracing test ``trials`` times with the target out and ``trials`` times with her in.

    The population frequencies p_j are drawn once, uniform on [0.1, 0.9]. Each experiment draws
    a fresh target row t (t_j ~ Bernoulli(p_j)) and the counts of N = ``others`` fresh rows
    (Binomial(N, p_j) each); with the target in, her row is added to the counts. The unit
    Laplace noise of every count is drawn too (see :class:`TracingAttack`).

    Examples
    --------
    >>> import numpy as np
    >>> attack = tracing_attack(50, 500, trials=500, rng=np.random.default_rng(0))
    >>> fpr, fnr = attack.rates(thresholds=[50.0])     # half the ~98 her row adds, on exact counts
    >>> bool(fpr[0] < 0.1 and fnr[0] < 0.1)            # far better than a coin (FPR + FNR = 1)
    True
    """
    n = _validate.integer("others", others, low=1, high=100_000, why="N, the number of other people in the data")
    d = _validate.integer("attributes", attributes, low=1, high=100_000, why="d, the number of released counts")
    tt = _validate.integer("trials", trials, low=10, high=1_000_000, why="experiments on each side")
    if d * tt > 50_000_000:
        raise ValueError(f"attributes × trials must be at most 50,000,000 (memory), got {d} × {tt}")
    gen = _validate.rng(rng)
    p = gen.uniform(0.1, 0.9, size=d)
    exact, unit = [], []
    for present in (False, True):
        target = (gen.random(size=(tt, d)) < p).astype(np.float64)
        counts = gen.binomial(n, p, size=(tt, d)).astype(np.float64) + (target if present else 0.0)
        noise = gen.laplace(0.0, 1.0, size=(tt, d))
        exact.append(tracing_score(target, counts, p, n))
        unit.append(np.einsum("ij,ij->i", target - p, noise))
    return TracingAttack(n, d, tt, p, exact[0], exact[1], unit[0], unit[1])
