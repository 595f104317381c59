"""Broken sparse-vector variants, and an audit that refutes them (Lyu, Su & Li, PVLDB 2017).

AboveThreshold (Dwork & Roth, Algorithm 1, §3.6) adds Lap(2/ε) to the threshold once and
Lap(4/ε) to each query, and stops at the first query whose noisy answer clears the noisy
threshold: ε-DP however many queries fall below (Theorem 3.23). Its proof pays once for the
threshold noise and once for the one query reported above; every detail matters. With c
answers allowed (Lyu, Su & Li's Algorithm 1, the ``"correct"`` variant here with ``c`` > 1) the
threshold keeps Lap(2/ε) and each query gets Lap(4c/ε). Lyu, Su & Li (2017, their Figure 1 and
§4) list variants, published as private, that change one detail and lose the guarantee. Four
of them are implemented here, each a single change:

``"no halting"`` (their Algorithm 6)
    keeps answering after the first ⊤ (reports ⊤/⊥ for every query): each ⊤ after the first
    costs more ε, and the total grows with the number of ⊤.
``"no query noise"`` (their Algorithm 5)
    compares the exact answers with the noisy threshold: two queries whose order flips
    between neighbours give an output that is possible on one and impossible on the other
    (∞-DP).
``"noisy value"`` (their Algorithm 3)
    releases, with the ⊤, the noisy answer a_i + ν_i that cleared the threshold. That value
    bounds the threshold noise from above, and the ⊥ before it then leak as if the threshold
    had no noise: the loss grows with the number of queries below (∞-DP over all lengths).
``"unscaled query noise"`` (their Algorithm 4)
    allows c ⊤ answers but keeps the query noise at Lap(4/ε), the scale for one: the loss
    grows with c.

and one of this workbook's own, not in their list:

``"no threshold noise"``
    compares each noisy query with the bare threshold T: every ⊥ then leaks on its own,
    and the loss grows with the number of queries below.

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

VARIANTS = ("correct", "noisy value", "unscaled query noise", "no halting", "no query noise", "no threshold noise")

#: The variants that Lyu, Su & Li (2017) list as published and broken; "no threshold noise" is this workbook's own.
PUBLISHED = ("no halting", "no query noise", "noisy value", "unscaled query noise")


def _variant(name: str) -> str:
    if name not in VARIANTS:
        raise ValueError(f"variant must be one of {list(VARIANTS)}, got {name!r}")
    return name


def _runs(a: np.ndarray, t: float, eps: float, kind: str, n: int, gen: np.random.Generator,
          c: int) -> tuple[np.ndarray, np.ndarray]:
    """The ⊤ pattern of n runs, and the noisy answers a_i + ν_i (what ``"noisy value"`` releases at its ⊤)."""
    rho = np.zeros((n, 1)) if kind == "no threshold noise" else gen.laplace(0.0, 2 / eps, size=(n, 1))
    scale = 4 / eps if kind == "unscaled query noise" else 4 * c / eps
    noisy = a + (np.zeros((n, a.size)) if kind == "no query noise" else gen.laplace(0.0, scale, size=(n, a.size)))
    above = noisy >= t + rho
    if kind == "no halting":
        return above, noisy
    return above & (np.cumsum(above, axis=1) <= c), noisy         # halt after the c-th ⊤


def above_threshold_runs(answers, threshold: float, epsilon: float, variant: str = "correct", size: int = 1,
                         rng: np.random.Generator | None = None, c: int = 1) -> np.ndarray:
    """``size`` independent runs of AboveThreshold (or a variant) on sensitivity-1 queries: the ⊤ pattern of each.

    Returns a boolean array of shape (size, m): row r marks the queries run r reports ⊤.
    Every variant but ``"no halting"`` stops after its c-th ⊤ (the rest of the row is False);
    ``"no halting"`` reports every query. ``"noisy value"`` also releases the noisy answer at
    its ⊤ (:func:`noisy_value_runs`); its pattern is the correct one's.

    .. math:: \\hat T = T + \\mathrm{Lap}(2/ε), \\qquad ⊤_i \\iff f_i(x) + \\mathrm{Lap}(4c/ε) \\ge \\hat T

    (``"unscaled query noise"``: Lap(4/ε) whatever c.)
    """
    a = _validate.array("answers", answers, ndim=(1,))
    t = _validate.real("threshold", threshold)
    eps = _validate.epsilon(epsilon)
    kind = _variant(variant)
    n = _validate.integer("size", size, low=1, high=10**7, why="runs to sample")
    cc = _validate.integer("c", c, low=1, high=a.size, why="the number of ⊤ answers before halting, 1 to the number "
                                                          "of queries")
    return _runs(a, t, eps, kind, n, _validate.rng(rng), cc)[0]


def noisy_value_runs(answers, threshold: float, epsilon: float, size: int = 1,
                     rng: np.random.Generator | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``size`` runs of the ``"noisy value"`` variant (Lyu, Su & Li's Algorithm 3): the ⊤ pattern and the value released.

    Returns (pattern, value): the pattern as :func:`above_threshold_runs` gives it, and for each
    run the noisy answer f_i(x) + Lap(4/ε) of its ⊤ query (−∞ when no query clears the threshold:
    nothing released).
    """
    a = _validate.array("answers", answers, ndim=(1,))
    t = _validate.real("threshold", threshold)
    eps = _validate.epsilon(epsilon)
    n = _validate.integer("size", size, low=1, high=10**7, why="runs to sample")
    pattern, noisy = _runs(a, t, eps, "noisy value", n, _validate.rng(rng), 1)
    hit = pattern.any(axis=1)
    value = np.where(hit, noisy[np.arange(n), np.argmax(pattern, axis=1)], -np.inf)
    return pattern, value


def first_above(pattern) -> np.ndarray:
    """The index of the first ⊤ in each row of a ⊤ pattern, m (the number of queries) when there is none."""
    p = np.asarray(pattern)
    if p.ndim != 2 or p.dtype.kind not in "biu":
        raise ValueError(f"pattern must be a 2-d array of ⊤ marks (True/False), one row per run, got {pattern!r}")
    p = p.astype(bool)
    return np.where(p.any(axis=1), np.argmax(p, axis=1), p.shape[1])


@dataclass(frozen=True)
class Counterexample:
    """Neighbouring answers x and y (each query moves by ≤ 1), the threshold, the statistic audited, and c."""

    variant: str
    x: np.ndarray
    y: np.ndarray
    threshold: float
    statistic: str
    c: int = 1

    def summarise(self, pattern: np.ndarray, value: np.ndarray | None = None) -> np.ndarray:
        """The scalar the auditor sees: a post-processing of the output (``value``: what "noisy value" releases)."""
        if self.statistic == "value released at the last query":
            last = pattern[:, -1]
            return np.where(last, value if value is not None else np.inf, np.inf)
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
    * ``"noisy value"``: 9 queries, x = (0,…,0, 2) and y = x + 1, T = 0; statistic: the value
      released when the ⊤ is the last query (+∞ otherwise). A small value caps the threshold
      noise, and then each of the 8 ⊥ before it is likelier on x by up to e^{ε/4}.
    * ``"unscaled query noise"``: the neighbours and statistic of ``"no halting"``, with c = 8
      ⊤ answers allowed before halting.
    * ``"correct"``: the first counterexample's neighbours, and the first ⊤ (all it outputs).
    """
    kind = _variant(variant)
    if kind in ("no halting", "correct", "unscaled query noise"):
        half = 8
        x = np.r_[np.zeros(half), np.ones(half)]
        return Counterexample(kind, x, 1 - x, 0.5, "first ⊤" if kind == "correct" else "⊤ later − ⊤ earlier",
                              c=half if kind == "unscaled query noise" else 1)
    if kind == "no threshold noise":
        return Counterexample(kind, np.zeros(20), np.ones(20), 2.0, "first ⊤")
    if kind == "noisy value":
        x = np.r_[np.zeros(8), 2.0]
        return Counterexample(kind, x, x + 1, 0.0, "value released at the last query")
    return Counterexample(kind, np.array([0.0, 1.0]), np.array([1.0, 0.0]), 0.5, "first ⊤, −1 if none")


#: Samples per database that :func:`audit_variant` draws by default: enough to refute each broken
#: variant by a clear margin at p_FA = 10⁻³, few enough for a live cell.
SAMPLES = {"correct": 100_000, "no halting": 100_000, "no threshold noise": 200_000, "no query noise": 20_000,
           "noisy value": 2_000_000, "unscaled query noise": 100_000}

#: The thresholds t of the events {Z ≥ t}, {Z ≤ t} for the released value of ``"noisy value"``.
VALUE_THRESHOLDS = (1.5, 2.0, 2.5)

_CHUNK = 200_000           # runs sampled at a time (memory: a chunk of 9 queries is 14 MB)


def audit_variant(variant: str, epsilon: float = 1.0, *, n: int | None = None, false_alarm: float = 1e-3,
                  rng: np.random.Generator | None = None) -> AuditResult:
    """Audit the claim that ``variant`` of AboveThreshold is ε-DP, on its :func:`counterexample`.

    The mechanism handed to :func:`dpteach.privacy_audit` runs the variant ``size`` times on
    x or y and returns the counterexample's statistic of each run. The thresholds of the
    events {Z ≥ t} and {Z ≤ t} are every value the statistic can take, fixed in advance.
    A claim that is true is refuted with probability at most ``false_alarm`` (p_FA). ``n`` samples per
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
        parts = []
        for start in range(0, size, _CHUNK):
            pattern, noisy = _runs(answers, case.threshold, eps, case.variant, min(_CHUNK, size - start), g, case.c)
            value = None
            if case.variant == "noisy value":
                value = np.where(pattern.any(axis=1), noisy[np.arange(len(noisy)), np.argmax(pattern, axis=1)], np.inf)
            parts.append(case.summarise(pattern, value))
        return np.concatenate(parts)

    if case.variant == "noisy value":
        values = np.array(VALUE_THRESHOLDS)
    else:
        values = np.arange(-m, m + 1) if case.statistic.startswith("⊤") else np.arange(-1, m + 1)
    return privacy_audit(mechanism, case.x, case.y, eps, 0.0, n=size, false_alarm=false_alarm, thresholds=values, rng=gen)
