"""The trust suite's audits: every mechanism in dpteach, run on neighbours, against its own claim.

One table, ``REGISTRY``. Each entry names a mechanism, a pair of neighbouring inputs x and y,
the (ε, δ) the mechanism claims on them, and a *broken twin*: the same mechanism with its
noise scale halved (noise calibrated to half the sensitivity, or twice the ε). For every
entry two tests run :func:`dpteach.privacy_audit`:

* the real mechanism must NOT be refuted. The audit's false-alarm rate is α = 10⁻⁶ (one-sided
  Clopper–Pearson bounds with a Bonferroni correction over the events), so a correct
  mechanism fails this test with probability at most 10⁻⁶;
* the broken twin MUST be refuted: an audit that cannot fail proves nothing. The neighbours,
  events and N of each entry were chosen so that the twin's true privacy loss on them is
  far above the claim (the expected margin is in each entry's ``note``); with the fixed seed
  the outcome is deterministic.

Adding a mechanism is one entry. Nothing is skipped: a mechanism renamed or removed from
``dpteach`` fails its entries (and a public one without an entry fails the coverage test below).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pytest

import dpteach as dp

ALPHA = 1e-6


@dataclass(frozen=True)
class Entry:
    name: str
    mechanism: Callable          # mechanism(data, size, rng) -> `size` scalar outputs
    twin: Callable               # the same with half the noise scale
    x: object
    y: object
    epsilon: float | Callable    # the claim (a callable is computed when the test runs, not at collection)
    delta: float = 0.0
    n: int = 100_000
    thresholds: tuple | None = None
    private: bool = True         # False for a mechanism the workbook shows to be broken
    note: str = ""
    covers: tuple[str, ...] = field(default=())   # the public names this entry audits

    def claim(self) -> float:
        return self.epsilon() if callable(self.epsilon) else self.epsilon


def _repeat(fn: Callable) -> Callable:
    """A mechanism that returns one output per call, run ``size`` times (for the unvectorised ones)."""
    def mechanism(data, size, rng):
        return np.array([fn(data, rng) for _ in range(size)])
    return mechanism


# -- the mechanisms, on scalar statistics of their outputs (post-processing is free) -------------

def _laplace(sensitivity):
    return lambda d, size, rng: dp.laplace_mechanism(np.full(size, float(d)), sensitivity, 1.0, rng)


def _laplace_sum(sensitivity):
    """Three overlapping counts released together (Δf = 3); the audit looks at their sum."""
    return lambda d, size, rng: dp.laplace_mechanism(np.broadcast_to(np.asarray(d, float), (size, 3)),
                                                     sensitivity, 1.0, rng).sum(axis=1)


def _discrete(epsilon):
    return lambda d, size, rng: dp.discrete_laplace_mechanism(np.full(size, d), 1, epsilon, rng)


def _discrete_gaussian(sigma):
    return lambda d, size, rng: dp.discrete_gaussian_mechanism(np.full(size, d), sigma, rng)


DG_SIGMA, DG_DELTA = 1.0, 1e-5


def _discrete_gaussian_claim() -> float:
    """The exact ε at δ = 10⁻⁵ of one discrete Gaussian release with σ = 1 on a count (its privacy loss summed)."""
    return dp.discrete_gaussian_epsilon(DG_SIGMA, DG_DELTA)


def _textbook_betrayal(sensitivity):
    """The textbook float mechanism, post-processed by a fixed public test: is z reachable from f = 1?"""
    def mechanism(d, size, rng):
        z = dp.textbook_laplace_mechanism(np.full(size, float(d)), sensitivity, 1.0, rng)
        return dp.textbook_reachable(z, 1.0, sensitivity, 1.0).astype(np.int64)
    return mechanism


def _noisy_max(epsilon):
    return lambda d, size, rng: dp.report_noisy_max(d, epsilon, rng, size=size)


def _exponential(sensitivity):
    return lambda d, size, rng: dp.exponential_mechanism(d, sensitivity, 1.0, rng, size=size)


def _above_threshold(sensitivity):
    def once(d, rng):
        hit = dp.above_threshold(d, 0.0, 1.0, sensitivity=sensitivity, rng=rng)
        return -1 if hit is None else hit
    return _repeat(once)


def _sparse_vector(sensitivity):
    def once(d, rng):
        found = dp.sparse_vector(d, 0.0, 1.0, 1, sensitivity=sensitivity, rng=rng)
        return found[0] if found else -1
    return _repeat(once)


def _gaussian(l2_sensitivity):
    return lambda d, size, rng: dp.gaussian_mechanism(np.full(size, float(d)), l2_sensitivity, 1.0, 1e-5, rng)


GG_P, GG_SIGMA, GG_DELTA = 1.5, 4.0, 1e-5


def _generalized_gaussian(sigma):
    return lambda d, size, rng: dp.generalized_gaussian_mechanism(np.full(size, float(d)), GG_P, sigma, rng)


def _generalized_gaussian_claim() -> float:
    """ε at δ = 10⁻⁵ of one coordinate of GG(p = 1.5, σ = 4) shifted by 1, from the workbook's accountant."""
    from dpteach.generalized_gaussian import accountant
    pld = accountant.privacy_loss_distribution(accountant.GeneralizedGaussianNoise(GG_P, GG_SIGMA), k=1)
    return pld.epsilon(GG_DELTA)


# Below-threshold queries move up by 1 and the reported one down by 1: the worst case of
# Theorem 3.23's proof, where the ratio approaches e^ε.
_AT_X = np.array([0.0] * 5 + [0.0])
_AT_Y = np.array([1.0] * 5 + [-1.0])

REGISTRY = [
    Entry("laplace_mechanism: one count", _laplace(1.0), _laplace(0.5), 0, 1, 1.0, n=200_000,
          covers=("laplace_mechanism",), note="tight: true ε = 1 on {Z ≤ t}; twin's is 2"),
    Entry("laplace_mechanism: 3 counts, Δf = 3, their sum", _laplace_sum(3.0), _laplace_sum(1.5),
          (0, 0, 0), (1, 1, 1), 1.0, n=200_000, covers=("laplace_mechanism",),
          note="the sum's tail ratio tends to e^ε (twin e^2ε) slowly"),
    Entry("discrete_laplace_mechanism", _discrete(1.0), _discrete(2.0), 0, 1, 1.0, n=200_000,
          covers=("discrete_laplace_mechanism",), note="tight: ratio e^ε on {Z ≤ 0}; twin e^2ε"),
    Entry(f"discrete_gaussian_mechanism: σ = {DG_SIGMA:g}", _discrete_gaussian(DG_SIGMA), _discrete_gaussian(DG_SIGMA / 2),
          0, 1, _discrete_gaussian_claim, delta=DG_DELTA, n=200_000, covers=("discrete_gaussian_mechanism",),
          note="claim: the exact ε (4.43); twin σ halved: Pr[Z ≤ −1] ≈ 0.107 vs Pr[Z ≤ −2] ≈ 2.6e-4, ln ratio ≈ 6"),
    Entry("textbook_laplace_mechanism (float64, Mironov)", _textbook_betrayal(1.0), _textbook_betrayal(0.5),
          0, 1, 1.0, n=20_000, thresholds=(0, 1), private=False, covers=("textbook_laplace_mechanism",),
          note="deliberately broken: ~80% of outputs from f = 0 are impossible from f = 1, ε = ∞"),
    Entry("report_noisy_max: 5 counts, the other four go up", _noisy_max(1.0), _noisy_max(2.0),
          np.zeros(5), np.array([0.0, 1, 1, 1, 1]), 1.0, n=100_000, thresholds=tuple(range(5)),
          covers=("report_noisy_max",),
          note="exact: ln Pr ratio of index 0 is 0.98 (twin 1.98)"),
    Entry("exponential_mechanism: 10 candidates", _exponential(1.0), _exponential(0.5),
          np.array([0.0] + [1.0] * 9), np.array([1.0] + [0.0] * 9), 1.0, n=100_000, thresholds=tuple(range(10)),
          covers=("exponential_mechanism",),
          note="exact: ln ratio of candidate 0 is 0.90 (twin 1.78)"),
    Entry("above_threshold: 5 below, then 1", _above_threshold(1.0), _above_threshold(0.5), _AT_X, _AT_Y, 1.0,
          n=50_000, thresholds=tuple(range(-1, 6)), covers=("above_threshold",),
          note="exact: ln ratio of index 5 is 0.91 (twin 1.85)"),
    Entry("sparse_vector (c = 1): 5 below, then 1", _sparse_vector(1.0), _sparse_vector(0.5), _AT_X, _AT_Y, 1.0,
          n=40_000, thresholds=tuple(range(-1, 6)), covers=("sparse_vector",),
          note="c = 1 is AboveThreshold run through Sparse; for c ≥ 2 the twin's excess needs far more samples"),
    Entry("gaussian_mechanism: (1, 1e-5), Δ₂ = 1", _gaussian(1.0), _gaussian(0.5), 0, 1, 1.0, delta=1e-5,
          n=200_000, covers=("gaussian_mechanism",),
          note="twin σ halved: Pr[Z ≥ 4] ≈ 0.054 vs 0.016 on the neighbour, ratio 3.3 > e"),
    Entry(f"generalized_gaussian_mechanism: p = {GG_P}, σ = {GG_SIGMA}", _generalized_gaussian(GG_SIGMA),
          _generalized_gaussian(GG_SIGMA / 2), 0, 1, _generalized_gaussian_claim, delta=GG_DELTA, n=200_000,
          covers=("generalized_gaussian_mechanism",), note="claim from the PLD accountant; twin σ halved"),
]

#: Public names that release data with noise and so must be audited; checked against dp.prelude.__all__ (the whole maths API).
MECHANISM_SUFFIXES = ("_mechanism",)
OTHER_MECHANISMS = {"report_noisy_max", "above_threshold", "sparse_vector"}


def _run(entry: Entry, which: str, seed: int) -> dp.AuditResult:
    mechanism = entry.mechanism if which == "real" else entry.twin
    return dp.privacy_audit(mechanism, entry.x, entry.y, entry.claim(), entry.delta, n=entry.n, false_alarm=ALPHA,
                            thresholds=entry.thresholds, rng=np.random.default_rng(seed))


IDS = [e.name.split(":")[0].split(" ")[0] + ("-" + str(i) if i else "") for i, e in enumerate(REGISTRY)]


@pytest.mark.parametrize("entry", REGISTRY, ids=IDS)
def test_real_mechanism_is_not_refuted(entry):
    """A correct mechanism is refuted with probability ≤ α = 10⁻⁶ (the audit's false-alarm rate).
    The textbook float mechanism is the exception the workbook teaches: it must be refuted."""
    result = _run(entry, "real", 2024)
    assert result.refuted is (not entry.private), f"{entry.name}: {result!r}"


@pytest.mark.parametrize("entry", REGISTRY, ids=IDS)
def test_broken_twin_is_caught(entry):
    """Half the noise: the audit must refute the claim (else it proves nothing about the real one)."""
    result = _run(entry, "twin", 2025)
    assert result.refuted, f"{entry.name}: the twin with half the noise escaped the audit: {result!r}"
    assert result.epsilon_lower_bound > result.epsilon


def test_every_public_mechanism_has_an_audit_entry():
    """A mechanism added to dpteach.prelude.__all__ without a REGISTRY entry fails here, by name."""
    mechanisms = {name for name in dp.prelude.__all__
                  if name.endswith(MECHANISM_SUFFIXES) or name in OTHER_MECHANISMS}
    covered = {name for e in REGISTRY for name in e.covers}
    missing = sorted(mechanisms - covered)
    assert not missing, f"public mechanisms with no audit entry in tests/test_trust_audit.py: {missing}"

