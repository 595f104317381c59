"""An empirical privacy auditor: try to *refute* a claimed (ε, δ) from samples.

(ε, δ)-differential privacy promises, for neighbours x, y and every set S of outputs,

.. math:: \\Pr[M(x) ∈ S] \\le e^{ε} \\Pr[M(y) ∈ S] + δ .

The auditor runs the mechanism N times on x and N times on y and counts, for each event
S in a list fixed *before* the samples are drawn, how often the output falls in S. It
bounds both probabilities with one-sided Clopper–Pearson intervals: a lower bound
L_x(S) on Pr[M(x) ∈ S] and an upper bound U_y(S) on Pr[M(y) ∈ S]. If

.. math:: L_x(S) > e^{ε'}\\, U_y(S) + δ ,

then Pr[M(x) ∈ S] > e^{ε'} Pr[M(y) ∈ S] + δ, and M is not (ε′, δ)-DP. The largest such
ε′ over the events, ln((L_x(S) − δ)/U_y(S)), is a lower bound on the true ε; when it
exceeds the claimed ε the claim is refuted. Every interval is one of 4·(number of events)
one-sided bounds, each at level p_FA/(4·events) (Bonferroni), so the chance that any of them
is wrong, and so of a false alarm, is at most p_FA (``false_alarm``) however the events are related.

What an audit cannot do: finding no violation proves nothing. The audit tries a few
events on one pair of neighbours; a mechanism can leak on another event or another pair.
It can refute a claim, never confirm one. (The same design is used by Ding et al.'s
StatDP, CCS 2018, and Google's differential-privacy stochastic tester.)

Events: thresholds t give S = {Z ≥ t} and S = {Z ≤ t} on a scalar output Z. By default
the thresholds are quantiles of a separate pilot run (fresh samples, never reused), so they
are fixed before the samples the test uses are drawn.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from . import _validate
from .estimate import clopper_pearson_lower, clopper_pearson_upper
from .generalized_gaussian.distribution import GeneralizedGaussianNoise, check_noise, generalized_gaussian_sample

#: Quantiles of the pilot run used as thresholds when none are given.
PILOT_QUANTILES = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5,
                   0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 0.998, 0.999, 0.9995)


# -- the audit -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class AuditResult:
    """What :func:`privacy_audit` found.

    ``epsilon_lower_bound`` is the largest ε′ the samples prove violated (0 when none). It is
    a test, not a probability about the mechanism (which is fixed: private or not): if the
    mechanism were (ε′, δ)-DP for some ε′ at or above the bound, an audit would report a bound
    that high with probability at most ``false_alarm`` (Clopper–Pearson, with Bonferroni over the events).
    ``refuted`` says whether that exceeds the claimed ε.
    """

    epsilon: float                 # the claim under audit
    delta: float
    n: int                         # samples on each of x and y
    false_alarm: float             # p_FA, the false-alarm rate of the whole audit
    n_events: int
    epsilon_lower_bound: float     # largest ε′ proved violated (a lower bound on the true ε)
    refuted: bool
    event: str                     # the event that gave the bound, e.g. "M(x) ≥ 1.73"
    p_first: float                 # empirical probability of the event on the first database
    p_second: float                # and on the second
    bounds: tuple[float, float]    # (lower bound on the first, upper bound on the second)
    thresholds: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False)
    #: ε proved violated by each event: rows {Z ≥ t}, {Z ≤ t}; columns the thresholds (0 where none)
    event_bounds: np.ndarray = field(default_factory=lambda: np.zeros((2, 0)), repr=False)

    @property
    def verdict(self) -> str:
        if self.refuted:
            return (f"REFUTED: the claim ε = {self.epsilon:g}, δ = {self.delta:g} is false "
                    f"(false-alarm rate p_FA ≤ {self.false_alarm:g})")
        return (f"not refuted: no violation of ε = {self.epsilon:g}, δ = {self.delta:g} found. "
                "This does not prove the claim: an audit can only refute, never confirm.")

    def __repr__(self) -> str:
        evidence = (f"largest ε proved violated: {self.epsilon_lower_bound:.3f}" +
                    (f", on the event {self.event}: Pr ≈ {self.p_first:.4f} vs {self.p_second:.4f}"
                     if self.event else ""))
        return (f"Audit of ε = {self.epsilon:g}, δ = {self.delta:g} with N = {self.n:,} samples per database, "
                f"{self.n_events} events, p_FA = {self.false_alarm:g}\n{evidence}\n{self.verdict}")


def _draw(mechanism: Callable, data, size: int, gen: np.random.Generator, which: str) -> np.ndarray:
    out = np.asarray(mechanism(data, size, gen))
    if out.shape != (size,):
        raise ValueError(f"mechanism must return {size} scalar outputs (an array of shape ({size},)) when asked "
                         f"for size={size}; on {which} it returned shape {out.shape}")
    if out.dtype.kind not in "biuf":
        raise TypeError(f"mechanism must return numbers, got dtype {out.dtype} on {which}")
    if out.dtype.kind == "f" and np.isnan(out).any():
        raise ValueError(f"mechanism returned NaN on {which}")
    return out


def privacy_audit(mechanism: Callable, x, y, epsilon: float, delta: float = 0.0, *, n: int = 100_000,
                  false_alarm: float = 1e-6, thresholds=None, pilot: int | None = None,
                  rng: np.random.Generator | None = None) -> AuditResult:
    """Try to refute the claim that ``mechanism`` is (ε, δ)-DP, on the neighbours x and y.

    For each threshold t, the events S = {Z ≥ t} and S = {Z ≤ t} are tested in both
    directions. With N samples on each side and one-sided Clopper–Pearson bounds at level
    p_FA/(4·events) each (p_FA = ``false_alarm``, 2 events per threshold), the audit reports

    .. math:: \\hat ε = \\max_{S,\\ (u, v) ∈ \\{(x, y), (y, x)\\}} \\ln \\frac{L_u(S) - δ}{U_v(S)} ,

    the largest ε′ proved violated (0 if none); the claim is refuted when ε̂ > ε.
    The probability that ε̂ exceeds the mechanism's true ε (a false alarm) is at most p_FA.

    Parameters
    ----------
    mechanism : callable
        ``mechanism(data, size, rng)`` returns ``size`` independent scalar outputs of the
        mechanism run on ``data`` (an array of shape (size,)), using ``rng``. Post-process
        vector outputs to a scalar (a sum, an index) inside it: a post-processed output is
        at least as private, so a violation found on it is a violation of the mechanism.
    x, y : object
        Neighbouring inputs, passed to ``mechanism`` as they are.
    epsilon : float
        The claimed ε ≥ 0.
    delta : float, optional
        The claimed δ, 0 ≤ δ < 1 (default 0, pure ε-DP).
    n : int, optional
        Samples on each of x and y (default 100,000).
    false_alarm : float, optional
        p_FA, the false-alarm rate of the whole audit, 0 < p_FA < 1 (default 10⁻⁶). The workbook keeps α
        for an accuracy (Dwork & Roth, Definition 3.9); see :mod:`dpteach.notation`.
    thresholds : array_like, optional
        Thresholds t, fixed in advance. Default: quantiles :data:`PILOT_QUANTILES` of a
        separate pilot run of ``pilot`` samples on each side (default n // 10, at least 1,000).
    pilot : int, optional
    rng : numpy.random.Generator, optional

    Returns
    -------
    AuditResult

    Examples
    --------
    >>> import numpy as np
    >>> from dpteach.laplace import laplace_mechanism
    >>> def count(data, size, rng):
    ...     return laplace_mechanism(np.full(size, data), sensitivity=1, epsilon=1.0, rng=rng)
    >>> privacy_audit(count, 0, 1, epsilon=1.0, rng=np.random.default_rng(0)).refuted
    False
    """
    if not callable(mechanism):
        raise TypeError(f"mechanism must be a function mechanism(data, size, rng), got {mechanism!r}")
    eps = _validate.real("epsilon", epsilon, low=0.0, low_open=False)
    d = _validate.real("delta", delta, low=0.0, high=1.0, low_open=False, high_open=True,
                       why="δ is the additive slack of the claimed (ε, δ)-DP, and δ = 1 promises nothing")
    size = _validate.integer("n", n, low=10, why="an audit needs samples")
    a = _validate.real("false_alarm", false_alarm, low=0.0, high=1.0, low_open=True, high_open=True,
                       why="p_FA is a probability, and an audit at p_FA = 0 or 1 tests nothing")
    gen = _validate.rng(rng)
    if thresholds is None:
        m = _validate.integer("pilot", pilot, low=10) if pilot is not None else max(1_000, size // 10)
        pooled = np.concatenate([_draw(mechanism, x, m, gen, "x (pilot)"), _draw(mechanism, y, m, gen, "y (pilot)")])
        ts = np.unique(np.quantile(pooled.astype(np.float64), PILOT_QUANTILES, method="inverted_cdf"))
    else:
        ts = np.unique(_validate.array("thresholds", thresholds, ndim=(0, 1), allow_inf=False))
    on_x = _draw(mechanism, x, size, gen, "x")
    on_y = _draw(mechanism, y, size, gen, "y")
    sorted_x, sorted_y = np.sort(on_x), np.sort(on_y)
    # counts of {Z ≥ t} and {Z ≤ t} on each side
    counts = {
        "≥": (size - np.searchsorted(sorted_x, ts, side="left"), size - np.searchsorted(sorted_y, ts, side="left")),
        "≤": (np.searchsorted(sorted_x, ts, side="right"), np.searchsorted(sorted_y, ts, side="right")),
    }
    n_events = 2 * ts.size
    level = a / (4 * n_events)
    best = (0.0, "", 0.0, 0.0, (0.0, 1.0))
    per_event = np.zeros((2, ts.size))
    for row, (op, (cx, cy)) in enumerate(counts.items()):
        for col, (t, sx, sy) in enumerate(zip(ts, cx, cy)):
            for first, second, s1, s2 in (("x", "y", int(sx), int(sy)), ("y", "x", int(sy), int(sx))):
                if s1 / size - d <= s2 / size:
                    continue       # empirical ratio ≤ 1: no event of this kind proves any ε > 0
                low = clopper_pearson_lower(s1, size, level)
                high = clopper_pearson_upper(s2, size, level)
                if low - d > 0 and high > 0:
                    value = math.log((low - d) / high)
                    per_event[row, col] = max(per_event[row, col], value)
                    if value > best[0]:
                        best = (value, f"M({first}) {op} {t:.6g}  (vs M({second}))", s1 / size, s2 / size,
                                (low, high))
    value, event, p1, p2, bounds = best
    return AuditResult(epsilon=eps, delta=d, n=size, false_alarm=a, n_events=n_events,
                       epsilon_lower_bound=value, refuted=value > eps, event=event,
                       p_first=p1, p_second=p2, bounds=bounds, thresholds=ts, event_bounds=per_event)


# -- auditing a calibration: does additive noise on k counts keep its (ε, δ) promise? ----------------

def calibration_audit(noise: GeneralizedGaussianNoise, k: int, epsilon: float, delta: float, *,
                      event_noise: GeneralizedGaussianNoise | None = None, thresholds=None,
                      samples: int = 20_000, false_alarm: float = 1e-3,
                      rng: np.random.Generator | None = None) -> AuditResult:
    """Try to refute, by sampling, that additive ``noise`` on k counts is (ε, δ)-DP for neighbours 0 and 1^k.

    The mechanism releases the k noisy counts; the audit post-processes each release to its
    total privacy loss Σ_i L(z_i) under ``event_noise`` (default: ``noise`` itself; pass the
    calibrated noise to audit a miscalibrated one with the same events) and hands it to
    :func:`privacy_audit`, which tests the events {Σ L ≥ c} and {Σ L ≤ c} for the
    ``thresholds`` c fixed before sampling (default ε·(1/16, 1/8, 1/4, 1/2, 1): the last is
    tight for a calibrated mechanism, the smaller ones catch noise that is too small) with
    Clopper–Pearson bounds. Post-processing cannot create a violation, so one found on the
    loss is a violation of the mechanism; a mechanism that is (ε, δ)-DP is refuted with
    probability at most ``false_alarm``. Sampling can refute a claim, never prove it.

    Returns
    -------
    dpteach.AuditResult
    """
    n = check_noise(noise)
    ref = n if event_noise is None else check_noise(event_noise)
    kk = _validate.integer("k", k, low=1, high=1000, why="a small k: the audit samples every coordinate")
    eps = _validate.real("epsilon", epsilon, low=0.0, low_open=False, why="ε ≥ 0 for a privacy guarantee")
    cs = (eps * np.array([1 / 16, 1 / 8, 1 / 4, 1 / 2, 1.0]) if thresholds is None
          else _validate.array("thresholds", thresholds, ndim=(1,)))
    m = _validate.integer("samples", samples, low=10, why="a sample of at least 10 releases per neighbour")

    def total_loss(true_count: float, size: int, gen: np.random.Generator) -> np.ndarray:
        release = true_count + generalized_gaussian_sample(n.p, n.scale, (size, kk), gen)
        return ref.loss(release).sum(axis=1)

    return privacy_audit(total_loss, 0.0, 1.0, eps, delta, n=m, false_alarm=false_alarm, thresholds=cs, rng=rng)
