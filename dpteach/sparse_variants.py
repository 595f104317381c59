"""Broken sparse-vector variants, and an audit that refutes them (Lyu, Su & Li, PVLDB 2017).

AboveThreshold (Dwork & Roth, Algorithm 1, §3.6) adds Lap(2/ε) to the threshold once and
Lap(4/ε) to each query, and stops at the first query whose noisy answer clears the noisy
threshold: ε-DP however many queries fall below (Theorem 3.23). Its proof pays once for the
threshold noise and once for the one query reported above; every detail matters. Lyu, Su &
Li (2017) list variants, published as private, that change one detail and lose the
guarantee. Three are implemented here, each a single change to AboveThreshold:

``"no halting"``
    keeps answering after the first ⊤ (reports ⊤/⊥ for every query): each ⊤ after the first
    costs more ε, and the total grows with the number of ⊤.
``"no threshold noise"``
    compares each noisy query with the bare threshold T: every ⊥ then leaks on its own,
    and the loss grows with the number of queries below.
``"no query noise"``
    compares the exact answers with the noisy threshold: two queries whose order flips
    between neighbours give an output that is possible on one and impossible on the other
    (∞-DP).

Each variant comes with a pair of neighbouring query answers (every query moves by at most 1)
and a statistic of its output, fixed before any sampling: :func:`audit_variant` hands both
to the chapter 09 auditor (:func:`dpteach.privacy_audit`), which refutes the claimed ε with
an empirical lower bound above it at a stated false-alarm rate. The same pair and the same
kind of statistic leave the correct AboveThreshold unrefuted.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _validate
from .audit import AuditResult, privacy_audit

VARIANTS = ("correct", "no halting", "no threshold noise", "no query noise")


def _variant(name: str) -> str:
    if name not in VARIANTS:
        raise ValueError(f"variant must be one of {list(VARIANTS)}, got {name!r}")
    return name


def above_threshold_runs(answers, threshold: float, epsilon: float, variant: str = "correct", size: int = 1,
                         rng: np.random.Generator | None = None) -> np.ndarray:
    """``size`` independent runs of AboveThreshold (or a variant) on sensitivity-1 queries: the ⊤ pattern of each.

    Returns a boolean array of shape (size, m): row r marks the queries run r reports ⊤.
    The correct algorithm and the two with one noise removed stop at the first ⊤ (the rest
    of the row is False); ``"no halting"`` reports every query.

    .. math:: \\hat T = T + \\mathrm{Lap}(2/ε), \\qquad ⊤_i \\iff f_i(x) + \\mathrm{Lap}(4/ε) \\ge \\hat T
    """
    a = _validate.array("answers", answers, ndim=(1,))
    t = _validate.real("threshold", threshold)
    eps = _validate.epsilon(epsilon)
    kind = _variant(variant)
    n = _validate.integer("size", size, low=1, high=10**7, why="runs to sample")
    gen = _validate.rng(rng)
    rho = np.zeros((n, 1)) if kind == "no threshold noise" else gen.laplace(0.0, 2 / eps, size=(n, 1))
    nu = np.zeros((n, a.size)) if kind == "no query noise" else gen.laplace(0.0, 4 / eps, size=(n, a.size))
    above = a + nu >= t + rho
    if kind == "no halting":
        return above
    hit = above.any(axis=1)
    first = np.zeros_like(above)
    first[np.flatnonzero(hit), np.argmax(above, axis=1)[hit]] = True
    return first


def first_above(pattern) -> np.ndarray:
    """The index of the first ⊤ in each row of a ⊤ pattern, m (the number of queries) when there is none."""
    p = np.asarray(pattern)
    if p.ndim != 2 or p.dtype.kind not in "biu":
        raise ValueError(f"pattern must be a 2-d array of ⊤ marks (True/False), one row per run, got {pattern!r}")
    p = p.astype(bool)
    return np.where(p.any(axis=1), np.argmax(p, axis=1), p.shape[1])


@dataclass(frozen=True)
class Counterexample:
    """Neighbouring answers x and y (each query moves by ≤ 1), the threshold, and the statistic audited."""

    variant: str
    x: np.ndarray
    y: np.ndarray
    threshold: float
    statistic: str

    def summarise(self, pattern: np.ndarray) -> np.ndarray:
        """The scalar the auditor sees: a post-processing of the output, fixed in advance."""
        if self.statistic == "first ⊤":
            return first_above(pattern)
        if self.statistic == "first ⊤, −1 if none":
            first = first_above(pattern)
            return np.where(first == pattern.shape[1], -1, first)
        half = pattern.shape[1] // 2
        return pattern[:, half:].sum(axis=1) - pattern[:, :half].sum(axis=1)


def counterexample(variant: str) -> Counterexample:
    """The neighbours and statistic on which :func:`audit_variant` tests ``variant``.

    * ``"no halting"``: 16 queries, x = (0,…,0, 1,…,1) and y = (1,…,1, 0,…,0), T = ½;
      the statistic is (number of ⊤ in the second half) − (number in the first half).
    * ``"no threshold noise"``: 20 queries, x all 0 and y all 1, T = 2; statistic: the index
      of the first ⊤ (20 if none). On x each ⊥ is likelier by up to e^{ε/4}, and that adds up.
    * ``"no query noise"``: x = (0, 1) and y = (1, 0), T = ½; statistic: the first ⊤ (−1 if none),
      so that {Z ≥ 1} is "the first ⊤ is the second query": 0 < T̂ ≤ 1 on x, and 1 < T̂ ≤ 0,
      impossible, on y.
    * ``"correct"``: the first counterexample's neighbours, and the first ⊤ (all it outputs).
    """
    kind = _variant(variant)
    if kind in ("no halting", "correct"):
        half = 8
        x = np.r_[np.zeros(half), np.ones(half)]
        return Counterexample(kind, x, 1 - x, 0.5, "first ⊤" if kind == "correct" else "⊤ later − ⊤ earlier")
    if kind == "no threshold noise":
        return Counterexample(kind, np.zeros(20), np.ones(20), 2.0, "first ⊤")
    return Counterexample(kind, np.array([0.0, 1.0]), np.array([1.0, 0.0]), 0.5, "first ⊤, −1 if none")


#: Samples per database that :func:`audit_variant` draws by default: enough to refute each broken
#: variant by a clear margin at α = 10⁻³, few enough for a live cell.
SAMPLES = {"correct": 100_000, "no halting": 100_000, "no threshold noise": 200_000, "no query noise": 20_000}


def audit_variant(variant: str, epsilon: float = 1.0, *, n: int | None = None, alpha: float = 1e-3,
                  rng: np.random.Generator | None = None) -> AuditResult:
    """Audit the claim that ``variant`` of AboveThreshold is ε-DP, on its :func:`counterexample`.

    The mechanism handed to :func:`dpteach.privacy_audit` runs the variant ``size`` times on
    x or y and returns the counterexample's statistic of each run. The thresholds of the
    events {Z ≥ t} and {Z ≤ t} are every value the statistic can take, fixed in advance.
    A claim that is true is refuted with probability at most ``alpha``. ``n`` samples per
    database (default :data:`SAMPLES` of the variant).

    Returns
    -------
    dpteach.AuditResult
        ``epsilon_lower_bound`` above ``epsilon`` refutes the claim.
    """
    case = counterexample(variant)
    size = SAMPLES[case.variant] if n is None else _validate.integer("n", n, low=10, why="samples per database")
    eps = _validate.epsilon(epsilon)
    gen = _validate.rng(rng)
    m = case.x.size

    def mechanism(answers, size, g):
        return case.summarise(above_threshold_runs(answers, case.threshold, eps, case.variant, size, g))

    values = np.arange(-m, m + 1) if case.statistic.startswith("⊤") else np.arange(-1, m + 1)
    return privacy_audit(mechanism, case.x, case.y, eps, 0.0, n=size, alpha=alpha, thresholds=values, rng=gen)
