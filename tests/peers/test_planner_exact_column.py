"""The budget planner's exact column against an independent, exponentially tilted accountant (issue 51).

``exact_laplace_epsilon`` promises an upper bound on the true ε(δ) of k releases of Lap(1/ε₀) on a count, at most
:data:`STATED` of the total above it. Its plain FFT once broke that promise on the planner's own grid (8 rows
below the truth at δ = 10⁻¹⁰ and k in the thousands: the round-off of thousands of self-convolutions outweighed
the pessimistic discretisation). Every row of ``dpteach/data/planner_totals.csv``'s first grid (6 data sizes × 10 accuracies
× 13 release counts) is held here to an accountant written for this test that shares no code with dpteach's:

* one release's privacy loss L, exactly: +ε₀ with probability ½, −ε₀ with probability ½e^(−ε₀), density
  ¼e^(−ε₀/2)e^(l/2) between; each grid bin of width ε₀/n sent to its centre (rounding to the nearest grid
  point, not dpteach's pessimistic two-ended split): an error of order 1/n², so two resolutions n and 2n are
  extrapolated (Richardson) and their difference bounds what is left;
* the k-fold convolution by FFT under the exponential tilt e^(tL) whose k-fold mean is near the total asked for
  (the saddle point), tilted back afterwards, so the FFT's round-off stays relative to the tail that δ reads;
* δ(ε) = Σ_{l > ε} p(l)(1 − e^(ε − l)) solved for ε in closed form within the grid cell where it crosses δ.

One release is Laplace's closed form, ε₀ + 2 ln(1 − δ). The referee's own anchor: MATH.md's 34.828232 at
k = 5,000, α = 50, δ = 10⁻¹⁰. Every row of the first grid (Δf = 1, each count) is held, and a seeded sample of
the rows a contribution cap and "all at once" added (issue 52) at each k. About two minutes on one free core.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpteach import planner
from dpteach.planner import PLANNER_ACCURACY, PLANNER_PEOPLE, PLANNER_RELEASES, planner_delta, release_epsilon, table

pytestmark = pytest.mark.slow

#: The relative precision exact_laplace_epsilon's docstring states.
STATED = 1.2e-5
def _resolution(k: int) -> int:
    """Grid points per ε₀ of one release's loss: n·k ≥ 80,000 up to n = 4,096 (few releases are the most
    discrete, and their Richardson extrapolation the least exact)."""
    return min(4096, max(32, 1 << math.ceil(math.log2(80_000 / k))))


def _one_release(eps0: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The losses j·ε₀/n, j = −n … n, and the probability (under the first neighbour) of each one's bin."""
    h = eps0 / n
    loss = np.arange(-n, n + 1) * h
    lo, hi = np.maximum(loss - h / 2, -eps0), np.minimum(loss + h / 2, eps0)
    mass = 0.5 * math.exp(-eps0 / 2) * (np.exp(hi / 2) - np.exp(lo / 2))
    mass[-1] += 0.5
    mass[0] += 0.5 * math.exp(-eps0)
    return loss, mass


def _saddle_tilt(loss: np.ndarray, log_mass: np.ndarray, k: int, total: float) -> float:
    def k_mean(t: float) -> float:
        w = log_mass + t * loss
        w = np.exp(w - w.max())
        return k * float(w @ loss / w.sum())

    if k_mean(0.0) >= total:
        return 0.0
    lo, hi = 0.0, 1.0 / loss.max()
    while k_mean(hi) < total:
        lo, hi = hi, 2 * hi
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if k_mean(mid) < total else (lo, mid)
    return (lo + hi) / 2


def _epsilons(eps0: float, k: int, deltas: list[float], n: int, centre: float) -> list[float]:
    """ε(δ) for each δ, from the k-fold convolution at resolution n, tilted at the total ``centre``."""
    loss, mass = _one_release(eps0, n)
    h = eps0 / n
    t = _saddle_tilt(loss, np.log(mass), k, centre)
    w = np.log(mass) + t * loss
    top = w.max()
    q = np.exp(w - top)
    log_mgf = top + math.log(q.sum())
    q /= q.sum()
    mu = float(q @ loss)
    sd = math.sqrt(float(q @ (loss - mu) ** 2))
    half = 16 * math.sqrt(k) * sd / h + 2 * n                      # ±16 tilted standard deviations
    s_lo = max(-k * n, math.floor(k * mu / h - half))
    s_hi = min(k * n, math.ceil(k * mu / h + half))
    size = 1 << (s_hi - s_lo + 1).bit_length()
    pmf = np.bincount(np.arange(2 * n + 1) % size, weights=q, minlength=size)
    composed = np.fft.irfft(np.fft.rfft(pmf) ** k, size)
    s = np.arange(s_lo, s_hi + 1)
    c = composed[(s + k * n) % size]
    keep = c > 1e-13 * c.max()
    reaches_top = s[keep][-1] == k * n                              # the window holds the largest total, kε₀
    totals = s[keep] * h
    log_p = np.log(c[keep]) + k * log_mgf - t * totals              # tilted back
    above = np.cumsum(np.exp(log_p)[::-1])[::-1]                  # Σ_{i ≥ j} p_i
    log_weighted = np.logaddexp.accumulate((log_p - totals)[::-1])[::-1]     # ln Σ_{i ≥ j} p_i e^(−l_i)
    at_grid = np.append(above[1:] - np.exp(totals[:-1] + log_weighted[1:]), 0.0)     # δ(l_j)
    out = []
    for delta in deltas:
        j = int(np.argmax(at_grid <= delta))
        assert 0 < j and (j < totals.size - 1 or reaches_top), (eps0, k, delta, "the window misses the crossing")
        out.append(max(math.log(above[j] - delta) - log_weighted[j], totals[j - 1]))
    return out


def _reference(eps0: float, k: int, deltas: list[float], centre: float) -> tuple[np.ndarray, np.ndarray]:
    """(the extrapolated ε(δ), the difference of the two resolutions) for each δ."""
    if k == 1:
        return np.array([eps0 + 2 * math.log1p(-d) for d in deltas]), np.zeros(len(deltas))
    n = _resolution(k)
    coarse = np.array(_epsilons(eps0, k, deltas, n, centre))
    fine = np.array(_epsilons(eps0, k, deltas, 2 * n, centre))
    return fine + (fine - coarse) / 3, np.abs(fine - coarse)


def test_the_referee_meets_the_independent_truth_at_the_issue_s_row():
    """MATH.md ("What exact accounting can promise"): 34.828232 at k = 5,000, ε₀ = ln 20/50, δ = 10⁻¹⁰."""
    ref, diff = _reference(release_epsilon(50), 5000, [1e-10], 34.83)
    assert abs(ref[0] - 34.828232) < 1e-6 and diff[0] < 1e-4


@pytest.mark.parametrize("accuracy", PLANNER_ACCURACY)
def test_the_planner_s_exact_column_is_an_upper_bound_within_its_stated_precision(accuracy):
    """Every (people, releases) at this accuracy: never below the referee (by more than a fiftieth of the
    referee's own resolution difference), and at most STATED of the total above it."""
    eps0 = release_epsilon(accuracy)
    rows = table()
    deltas = [planner_delta(n) for n in PLANNER_PEOPLE]
    failures = []
    for k in PLANNER_RELEASES:
        ours = np.array([rows[(n, float(accuracy), k)][1] for n in PLANNER_PEOPLE])
        ref, diff = _reference(eps0, k, deltas, float(np.median(ours)))
        assert (diff <= 1e-4 * ref).all(), (k, diff / ref)           # the referee has converged
        for n, o, r, d in zip(PLANNER_PEOPLE, ours, ref, diff):
            if o < r - 0.02 * d or o > r * (1 + STATED) + 0.02 * d:
                failures.append((n, accuracy, k, o, float(r), float((o - r) / r)))
    assert not failures, f"(people, α, k, planner, referee, relative excess): {failures}"


#: The largest ε per release held to the referee (the first grid's is ln 20 ≈ 3): its grid of ε₀/n per release,
#: n·k ≥ 80,000, converges too slowly past it at many releases (at k = 10,000 and ε₀ = 10.6 its two resolutions
#: differ by 2·10⁻⁴ of the total, at ε₀ = 300 and k = 1,000 too). Beyond, tests/test_planner.py holds the rows to
#: the functions and tests/test_planner_plans.py the planner's shift past the accountant's range.
REFEREED = 5.0


@pytest.mark.parametrize("releases", PLANNER_RELEASES)
def test_the_rows_a_cap_and_all_at_once_added_are_upper_bounds_within_the_stated_precision(releases):
    """Issue 52: four (α/Δf, each count or all at once) of the rows the contribution cap and "all at once" added
    at this k, drawn at random (fixed seed), every data size each: held to the referee as the first grid is, the
    referee tilted at each row's own total (at α/Δf = 333 and k = 10 the six totals spread by an eighth, and a tilt
    at their median moves the referee by 2·10⁻⁷ of the total: more than the planner's margin above the truth)."""
    rows = planner.grid_table()
    added = sorted({(a, sim) for _, a, k, sim in planner.grid_keys() if k == releases and (sim or a not in PLANNER_ACCURACY)
                    and release_epsilon(a, planner.release_confidence(0.95, releases) if sim else 0.95) <= REFEREED})
    rng = np.random.default_rng(releases)
    deltas = [planner_delta(n) for n in PLANNER_PEOPLE]
    failures = []
    for i in rng.choice(len(added), 4, replace=False):
        a, sim = added[i]
        eps0 = release_epsilon(a, planner.release_confidence(0.95, releases) if sim else 0.95)
        ours = np.array([rows[(n, a, releases, sim)][1] for n in PLANNER_PEOPLE])
        refs = [_reference(eps0, releases, [delta], float(o)) for delta, o in zip(deltas, ours)]
        ref, diff = np.array([r[0][0] for r in refs]), np.array([r[1][0] for r in refs])
        assert (diff <= 1e-4 * ref).all(), (a, sim, diff / ref)
        for n, o, r, d in zip(PLANNER_PEOPLE, ours, ref, diff):
            if o < r - 0.02 * d or o > r * (1 + STATED) + 0.02 * d:
                failures.append((n, a, sim, releases, o, float(r), float((o - r) / r)))
    assert not failures, f"(people, α/Δf, all at once, k, planner, referee, relative excess): {failures}"
