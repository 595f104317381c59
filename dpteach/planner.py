"""Planning a privacy budget: from the accuracy wanted to the ε each release needs and what they cost together.

The question learners ask most is "which ε?". One honest way to answer it starts from the data and the
releases, not from a table of "strong" and "weak" values:

1. **the accuracy wanted** fixes the ε of each release. A count released with Lap(Δf/ε) is within ±α of
   the truth with probability 1 − β exactly when α ≥ ln(1/β)·Δf/ε (Fact 3.7: Pr[|Y| ≥ t·b] = e^(−t)), so
   ε = ln(1/β)·Δf/α per release: at 95%, ln 20 ≈ 3.0 divided by the error allowed;
2. **the data's size** fixes δ: the mechanism that publishes each record with probability δ is
   (0, δ)-differentially private (Dwork & Roth 2014, §2.3) and publishes nδ records of n on average, so δ
   must be well below 1/n. The planner takes δ = 1/(100 n), a hundredth of a record;
3. **the number of releases** and the accounting fix the total: kε (Theorem 3.16), Theorem 3.20, the optimal
   composition theorem (Kairouz, Oh & Viswanath 2015), the exact privacy loss distribution of these Laplace
   releases, and, for Gaussian noise of the same accuracy, Gaussian differential privacy (Dong, Roth & Su
   2019), which composes exactly.

:func:`plan_budget` does all three. The exact totals take two privacy loss distributions each (tens to
hundreds of milliseconds), and the exact best guess one more, too slow for a slider that redraws thirteen of
them: on the planner's grid (:data:`PLANNER_PEOPLE` × α/Δf for α in :data:`PLANNER_ACCURACY` and Δf in
:data:`PLANNER_CAPS` × :data:`PLANNER_RELEASES` × each count or all at once, at 95%) they are read, with the
optimal and Gaussian totals, from ``dpteach/data/planner_totals.csv``, which
``dpteach/data/rebuild_planner_table.py`` computes with the same functions, and tests/test_planner.py
recomputes. Off the grid (a typed k, another confidence) they are computed once per plan and kept;
:func:`exact_known` says beforehand whether a plan's exact numbers are at hand, so that a figure can draw the
cheap totals at once and the exact one once it is computed.

Two readings of a plan beside its totals (chapter 06, "Choosing ε and δ"): the best 50/50 guess of one person's
presence that any mechanism with the exact total allows, and the exact best guess against the planned Laplace
releases themselves (:func:`laplace_best_guess`), far lower for many small releases.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from importlib import resources

import numpy as np

from . import _special, _validate
from ._text import power_text
from .composition import advanced_composition, optimal_composition
from .exact_composition import exact_laplace_epsilon
from .gdp import gdp_best_success, gdp_epsilon
from .generalized_gaussian.accountant import laplace_noise, privacy_loss_distribution

__all__ = ["PLANNER_ACCURACY", "PLANNER_CAPS", "PLANNER_PEOPLE", "PLANNER_RELEASES", "BudgetPlan", "exact_known",
           "laplace_best_guess", "plan_budget", "planner_delta", "record_release_risk", "release_confidence",
           "release_epsilon"]

#: The planner's grid: people in the data, the ± error allowed on each count, the number of releases.
PLANNER_PEOPLE = (1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000)
PLANNER_ACCURACY = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000)
PLANNER_RELEASES = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000)
#: The contribution caps the planner offers: Δf, the most one person moves each count.
PLANNER_CAPS = (1, 2, 3, 5, 10, 20, 50, 100)
#: The planner's confidence: each count within ±α of the truth with this probability.
CONFIDENCE = 0.95
#: δ = SHARE / n: on average the record-publishing mechanism at this δ publishes SHARE of one record.
SHARE = 0.01

_WHY_CONFIDENCE = "the probability that a count is within ±accuracy; 1 would need ε = ∞"
_WHY_PEOPLE = "n, the number of people (records) in the data"


def release_epsilon(accuracy: float, confidence: float = CONFIDENCE, sensitivity: float = 1.0) -> float:
    """The ε with which Lap(Δf/ε) noise stays within ±``accuracy`` with probability ``confidence``.

    Fact 3.7 (Dwork & Roth 2014): Pr[|Y| ≥ t·b] = e^(−t) for Y ~ Lap(b). With β = 1 − confidence,
    |Y| < α with probability 1 − β exactly when b = α/ln(1/β), that is

    .. math:: ε = \\frac{\\ln(1/β)\\,Δf}{α}.

    One count at a time: for k counts *all* within α together, Theorem 3.8's union bound asks ln(k/β).

    Examples
    --------
    >>> round(release_epsilon(10), 4)     # each count within ±10 at 95%: ln(20)/10
    0.2996
    """
    a = _validate.positive("accuracy", accuracy, why="α, the ± error allowed on each count")
    c = _validate.real("confidence", confidence, low=0.0, high=1.0, high_open=True, why=_WHY_CONFIDENCE)
    d = _validate.positive("sensitivity", sensitivity, why="Δf, the most one person changes the count")
    return math.log(1.0 / (1.0 - c)) * d / a


def planner_delta(people: int, share: float = SHARE) -> float:
    """δ = share/n: the record-publishing mechanism at this δ publishes ``share`` of one record on average.

    Why δ must be well below 1/n: see :func:`record_release_risk`.

    Examples
    --------
    >>> planner_delta(1_000_000)
    1e-08
    """
    n = _validate.integer("people", people, low=1, why=_WHY_PEOPLE)
    s = _validate.real("share", share, low=0.0, high=1.0, why="the share of one record published on average")
    return s / n


def record_release_risk(delta: float, people: int) -> tuple[float, float]:
    """The mechanism that publishes each of n records, independently, with probability δ: (nδ, 1 − (1 − δ)^n).

    It is (0, δ)-differentially private (Dwork & Roth 2014, §2.3): for neighbours x and y that differ in
    one record r, an output S either shows r, which has probability δ under x and 0 under y, or does not,
    and then its probability under one is (1 − δ) times that under the other. Yet it publishes nδ records on
    average, and at least one with probability 1 − (1 − δ)^n: at δ = 1/n, about one whole record, and
    at least one with probability about 1 − 1/e. Hence δ well below 1/n.

    Examples
    --------
    >>> expected, at_least_one = record_release_risk(1 / 2_000, 2_000)
    >>> round(expected, 6), round(at_least_one, 4)
    (1.0, 0.6322)
    """
    d = _validate.real("delta", delta, low=0.0, high=1.0, low_open=False,
                       why="each record is published with probability δ")
    n = _validate.integer("people", people, low=1, why=_WHY_PEOPLE)
    return n * d, -math.expm1(n * math.log1p(-d)) if d < 1 else 1.0


@dataclass(frozen=True)
class BudgetPlan:
    """k counts about the same n people, each within ±α with probability ``confidence``: what they cost.

    ``per_release`` is each Laplace release's ε (:func:`release_epsilon`); ``delta`` the δ of every (ε, δ)
    total (:func:`planner_delta`); ``basic`` kε (pure, Theorem 3.16), ``advanced`` Theorem 3.20 with
    δ′ = δ, ``optimal`` Kairouz, Oh & Viswanath's Theorem 3.3 at δ (any ε-DP mechanisms), ``exact`` these
    Laplace releases' own ε(δ). ``gaussian_std`` is the σ of Gaussian noise with the same accuracy,
    ``gaussian_per_release`` one such release's ε at δ, and ``gaussian`` the k of them, composed exactly in
    Gaussian differential privacy (μ√k-GDP, μ = Δf/σ) and read at δ.

    ``sensitivity`` is the contribution cap Δf (the most one person moves each count); ``simultaneous`` says
    whether ``confidence`` holds for all k counts at once (each then within ±α with probability
    1 − (1 − confidence)/k, the union bound: :func:`release_confidence`) or for each count alone.
    ``worst_guess`` is the best 50/50 guess of whether one person is in the data that any mechanism with the
    exact total (ε, δ) allows, 1 − (1 − δ)/(1 + e^ε)
    (:func:`~dpteach.group_best_success`); ``exact_guess`` the best guess against
    these k Laplace releases themselves, ½(1 + TV) (:func:`laplace_best_guess`), and ``gaussian_guess``
    against the Gaussian ones, Φ(μ√k/2) (:func:`~dpteach.gdp_best_success`; chapter 11).
    """

    people: int
    releases: int
    accuracy: float
    confidence: float
    delta: float
    per_release: float
    basic: float
    advanced: float
    optimal: float
    exact: float
    gaussian_std: float
    gaussian_per_release: float
    gaussian: float
    sensitivity: float = 1.0
    simultaneous: bool = False
    worst_guess: float = math.nan
    exact_guess: float = math.nan
    gaussian_guess: float = math.nan

    def __repr__(self) -> str:
        each = "all at once" if self.simultaneous else "each"
        cap = "" if self.sensitivity == 1 else f" (each person moves each count by at most {self.sensitivity:g})"
        return (f"{self.releases:,} counts of {self.people:,} people{cap}, within ±{self.accuracy:g} with probability "
                f"{self.confidence:g} {each}: ε = {self.per_release:.3g} per release; total ε at δ = {power_text(self.delta)}: "
                f"basic {_total(self.basic)} (pure), advanced {_total(self.advanced)}, optimal {_total(self.optimal)}, "
                f"exact {_total(self.exact)}; Gaussian noise of the same accuracy (σ = {self.gaussian_std:.3g}): "
                f"{_total(self.gaussian)} (GDP); best 50/50 guess of one person's presence: any mechanism at the "
                f"exact total ≤ {_total(self.worst_guess, '.1%')}, these Laplace releases "
                f"{_total(self.exact_guess, '.1%')}, the Gaussian ones {_total(self.gaussian_guess, '.1%')}")


def _total(value: float, fmt: str = "") -> str:
    """A total as the repr writes it (three figures, whole numbers from 1,000 on; a probability with ``fmt``), NaN
    (not computed) as such."""
    return "not computed" if math.isnan(value) else format(value, fmt or (",.0f" if value >= 1000 else ".3g"))


def plan_budget(people: int, releases: int, accuracy: float, confidence: float = CONFIDENCE,
                sensitivity: float = 1.0, simultaneous: bool = False, *, guesses: bool = True,
                exact: bool = True) -> BudgetPlan:
    """What k counts about the same n people cost, each within ±α with probability ``confidence`` (see the module).

    ``sensitivity`` is the contribution cap Δf: Lap(Δf/ε) with ε = ln(1/β)·Δf/α (the total of k such releases is
    that of k releases of Lap(1/ε) shifted by 1). ``simultaneous=True`` asks all k counts within ±α together with
    probability ``confidence``: each is then planned at :func:`release_confidence` (the union bound, Dwork &
    Roth 2014, Theorem 3.8's ln(k/β)). Any k from 1 to 100,000 is planned; on the planner's grid (95%, α/Δf for α
    in :data:`PLANNER_ACCURACY` and Δf in :data:`PLANNER_CAPS`, k in :data:`PLANNER_RELEASES`, each count or all
    at once) the optimal, exact and Gaussian totals and the exact best guess are read from the shipped table;
    elsewhere they are computed once and kept (the exact total by :func:`~dpteach.exact_laplace_epsilon`, the
    guess by :func:`laplace_best_guess`: up to hundreds of milliseconds; :func:`exact_known` says beforehand).
    ``guesses=False`` leaves the best guesses NaN (a figure's curves need only the totals); ``exact=False`` leaves
    the exact total and what is read from it (``worst_guess``, ``exact_guess``) NaN, not computed (a figure that
    draws the cheap totals first).

    Examples
    --------
    >>> plan = plan_budget(1_000_000, 100, 10)      # 100 counts of a million people, each ±10 at 95%
    >>> round(plan.per_release, 3), plan.delta, round(plan.basic, 1), round(plan.exact, 1), round(plan.gaussian, 1)
    (0.3, 1e-08, 30.0, 18.7, 12.4)
    """
    n, k, a, c, d, sim = _plan_args(people, releases, accuracy, confidence, sensitivity, simultaneous)
    for name, flag in (("guesses", guesses), ("exact", exact)):
        if not isinstance(flag, (bool, np.bool_)):
            raise ValueError(f"{name} must be True or False, got {flag!r}")
    each = release_confidence(c, k) if sim else c
    eps, delta, std = release_epsilon(a, each, d), planner_delta(n), gaussian_std_for(a, each)
    if exact:
        optimal, total, gaussian = _totals(n, k, a / d, c, sim)
    else:
        optimal, total, gaussian = _cheap_totals(n, k, a / d, each)
    mu = d / std
    worst = _worst_guess(total, delta) if guesses and exact else math.nan
    laplace = _exact_guess(k, a / d, c, sim) if guesses and exact else math.nan
    gauss = gdp_best_success(mu * math.sqrt(k)) if guesses else math.nan
    return BudgetPlan(n, k, a, c, delta, eps, k * eps, _advanced(k, eps, delta), optimal, total,
                      std, gdp_epsilon(delta, 1.0 / gaussian_std_for(a / d, each)), gaussian, d, sim, worst, laplace,
                      gauss)


def _advanced(releases: int, epsilon: float, delta: float) -> float:
    """Theorem 3.20's total at δ′ = δ; infinite where its kε(e^ε − 1) passes the largest float (ε > 709 each)."""
    try:
        return advanced_composition(releases, epsilon, delta)[0]
    except OverflowError:
        return math.inf


def _plan_args(people, releases, accuracy, confidence, sensitivity, simultaneous) -> tuple:
    """plan_budget's arguments, checked: (n, k, α, confidence, Δf, simultaneous)."""
    n = _validate.integer("people", people, low=1, high=10**10, why=_WHY_PEOPLE)
    k = _validate.integer("releases", releases, low=1, high=100_000, why="k, the number of counts released")
    a = _validate.positive("accuracy", accuracy, why="α, the ± error allowed on each count")
    c = _validate.real("confidence", confidence, low=0.0, high=1.0, high_open=True, why=_WHY_CONFIDENCE)
    d = _validate.positive("sensitivity", sensitivity, why="Δf, the contribution cap: the most one person moves "
                                                           "each count")
    if not isinstance(simultaneous, (bool, np.bool_)):
        raise ValueError(f"simultaneous must be True or False, got {simultaneous!r}")
    return n, k, a, c, d, bool(simultaneous)


def exact_known(people: int, releases: int, accuracy: float, confidence: float = CONFIDENCE,
                sensitivity: float = 1.0, simultaneous: bool = False) -> bool:
    """Whether :func:`plan_budget` has this plan's exact total and exact best guess at hand (the shipped table, or
    computed already in this process): then it costs microseconds; otherwise tens to hundreds of milliseconds.

    Examples
    --------
    >>> exact_known(10_000, 50, 50, sensitivity=3, simultaneous=True)     # on the grid
    True
    >>> exact_known(10_000, 50, 50, confidence=0.9)     # off it, until plan_budget(10_000, 50, 50, confidence=0.9)
    False
    """
    n, k, a, c, d, sim = _plan_args(people, releases, accuracy, confidence, sensitivity, simultaneous)
    if c == CONFIDENCE and (n, a / d, k, sim) in grid_table():
        return True
    each = release_confidence(c, k) if sim else c
    return (n, k, float(a / d), float(each)) in _COMPUTED and (k, float(a / d), float(each)) in _GUESSED


def release_confidence(confidence: float, releases: int) -> float:
    """The confidence each of k counts needs so that all k are within ±α together with ``confidence``.

    The union bound (Dwork & Roth 2014, Theorem 3.8): if each misses with probability β/k, some miss with
    probability at most β. So 1 − (1 − confidence)/k; at 95% and 40 weekly counts, 99.875% each, and
    ε = ln(k/β)·Δf/α per release instead of ln(1/β)·Δf/α.

    Examples
    --------
    >>> release_confidence(0.95, 40)
    0.99875
    """
    c = _validate.real("confidence", confidence, low=0.0, high=1.0, high_open=True, why=_WHY_CONFIDENCE)
    k = _validate.integer("releases", releases, low=1, high=100_000, why="k, the number of counts released")
    return 1.0 - (1.0 - c) / k


def _worst_guess(epsilon: float, delta: float) -> float:
    """The best 50/50 guess any (ε, δ)-DP mechanism allows: 1 − (1 − δ)/(1 + e^ε), where FPR = FNR on the trade-off
    limit FNR = max(0, 1 − δ − e^ε·FPR, e^(−ε)(1 − δ − FPR)) (:func:`~dpteach.group_best_success` with k = 1)."""
    if not math.isfinite(epsilon):
        return 1.0
    return 1.0 - (1.0 - delta) * math.exp(-epsilon) / (1.0 + math.exp(-epsilon)) if epsilon > 0 else \
        1.0 - (1.0 - delta) / (1.0 + math.exp(epsilon))


@functools.lru_cache(maxsize=256)
def laplace_best_guess(releases: int, epsilon: float) -> float:
    """The best 50/50 guess of whether one person is in the data, from k releases of Lap(Δf/ε) on counts they move
    by Δf: ½(1 + TV), TV the total variation between the k-fold output laws with and without them.

    TV is δ(0) of the releases' privacy loss distribution (:func:`~dpteach.privacy_loss_distribution`, chapter
    08: δ(ε) = E[(1 − e^(ε − L))₊] under the law with the person, and at ε = 0 that is TV), so this is the
    workbook's own accountant read at ε = 0; its discretisation is pessimistic, so the guess is an upper
    bound by a hair. An ε-DP mechanism allows at most e^(kε)/(1 + e^(kε)) (:func:`~dpteach.best_success`):
    the worst case for any mechanism, far above what these releases give (chapter 11, the hypothesis-testing
    view; Kairouz, Oh & Viswanath 2015).

    Examples
    --------
    >>> round(laplace_best_guess(1, 1.0), 4)      # one release: ½(1 + 1 − e^(−ε/2))
    0.6967
    """
    k = _validate.integer("releases", releases, low=1, high=100_000, why="k, the number of counts released")
    eps = _validate.epsilon(epsilon)
    pld = privacy_loss_distribution(laplace_noise(1.0 / eps), k, resolution=64)
    return 0.5 * (1.0 + float(pld.delta(0.0)))


def gaussian_std_for(accuracy: float, confidence: float = CONFIDENCE) -> float:
    """σ with which N(0, σ²) noise stays within ±α with probability ``confidence``: α/Φ⁻¹((1 + c)/2).

    Examples
    --------
    >>> round(gaussian_std_for(10), 4)      # ±10 at 95%: 10/1.96
    5.1021
    """
    a = _validate.positive("accuracy", accuracy, why="α, the ± error allowed on each count")
    c = _validate.real("confidence", confidence, low=0.0, high=1.0, high_open=True, why=_WHY_CONFIDENCE)
    return a / _two_sided_z(c)


@functools.lru_cache(maxsize=16)
def _two_sided_z(confidence: float) -> float:
    """Φ⁻¹((1 + c)/2): |Z| < z with probability c for Z ~ N(0, 1) (1.96 at 95%)."""
    return float(-_special.ndtri((1.0 - confidence) / 2.0))


def _totals(people: int, releases: int, per_cap: float, confidence: float,
            simultaneous: bool) -> tuple[float, float, float]:
    """(optimal, exact, gaussian) at δ = planner_delta(people) for α/Δf = ``per_cap``: from the table on its grid,
    else computed (each count at ``confidence``, or all at once: each at :func:`release_confidence`)."""
    if confidence == CONFIDENCE:
        row = grid_table().get((people, per_cap, releases, simultaneous))
        if row is not None:
            return row[:3]
    each = release_confidence(confidence, releases) if simultaneous else confidence
    return _computed(people, releases, per_cap, each)


def _cheap_totals(people: int, releases: int, accuracy: float, confidence: float) -> tuple[float, float, float]:
    """(optimal, NaN, gaussian): :func:`_computed` without the exact total (well under a millisecond)."""
    eps, delta = release_epsilon(accuracy, confidence), planner_delta(people)
    mu = math.sqrt(releases) / gaussian_std_for(accuracy, confidence)
    return optimal_composition(releases, eps, delta)[0], math.nan, gdp_epsilon(delta, mu)


#: Plans computed off the table in this process: (people, releases, α/Δf, confidence) → (optimal, exact, gaussian),
#: and (releases, α/Δf, confidence) → the exact best guess; each forgotten whole past _KEEP entries.
_COMPUTED: dict[tuple[int, int, float, float], tuple[float, float, float]] = {}
_GUESSED: dict[tuple[int, float, float], float] = {}
_KEEP = 4096


def _computed(people: int, releases: int, accuracy: float, confidence: float) -> tuple[float, float, float]:
    """(optimal, exact, gaussian) of k releases each within ±accuracy (α/Δf) at ``confidence``, computed once."""
    def compute():
        eps, delta = release_epsilon(accuracy, confidence), planner_delta(people)
        optimal, _, gaussian = _cheap_totals(people, releases, accuracy, confidence)
        return optimal, _exact_total(releases, eps, delta), gaussian

    return _kept(_COMPUTED, (people, releases, float(accuracy), float(confidence)), compute)


def _kept(store: dict, key: tuple, compute):
    """``store[key]``, computed first if need be (the store forgotten whole once it holds _KEEP entries)."""
    if key not in store:
        if len(store) >= _KEEP:
            store.clear()
        store[key] = compute()
    return store[key]


#: The largest ε per release given to the accountant (its exponentials overflow near 710).
_TOP = 500.0


def _exact_total(releases: int, epsilon: float, delta: float) -> float:
    """:func:`~dpteach.exact_laplace_epsilon`, also past ε₀ = :data:`_TOP` per release (α/Δf = 0.01 all at once).

    There one release's privacy loss is ε₀ − T, with T = 0 with probability ½ and T ~ Exp(½) otherwise, up to
    terms of order e^(−ε₀) (the atom at −ε₀, the cut at 2ε₀): k of them total kε₀ − ΣT, so ε(δ) is kε₀ minus a
    number that ε₀ no longer moves, ε(δ; ε₀) = ε(δ; _TOP) + k(ε₀ − _TOP)."""
    if epsilon <= _TOP:
        return exact_laplace_epsilon(releases, epsilon, delta)
    return exact_laplace_epsilon(releases, _TOP, delta) + releases * (epsilon - _TOP)


def _guess_computed(releases: int, accuracy: float, confidence: float) -> float:
    """The exact best guess against k releases each within ±accuracy (α/Δf) at ``confidence``, computed once. Past
    _TOP it is 1 to double precision, and it only grows with ε₀ (TV ≥ one release's 1 − e^(−ε₀/2))."""
    return _kept(_GUESSED, (releases, float(accuracy), float(confidence)),
                 lambda: laplace_best_guess(releases, min(release_epsilon(accuracy, confidence), _TOP)))


def _exact_guess(releases: int, per_cap: float, confidence: float, simultaneous: bool) -> float:
    """The exact best guess for α/Δf = ``per_cap``: from the table on its grid (any n: it does not depend on δ),
    else computed."""
    if confidence == CONFIDENCE:
        row = grid_table().get((PLANNER_PEOPLE[0], per_cap, releases, simultaneous))
        if row is not None:
            return row[3]
    each = release_confidence(confidence, releases) if simultaneous else confidence
    return _guess_computed(releases, per_cap, each)


#: planner_totals.csv's header: α/Δf is the accuracy in units of the cap (a cap Δf with accuracy α costs what
#: Δf = 1 with accuracy α/Δf does); all_at_once is 0 (each count at 95%) or 1 (all k counts together at 95%).
_HEADER = "people,accuracy_per_cap,releases,all_at_once,optimal,exact,gaussian,exact_guess"


def grid_accuracies() -> tuple[float, ...]:
    """The α/Δf the planner's sliders reach (α in PLANNER_ACCURACY, Δf in PLANNER_CAPS), each once, increasing."""
    return tuple(sorted({float(a) / float(d) for a in PLANNER_ACCURACY for d in PLANNER_CAPS}))


def grid_keys() -> list[tuple[int, float, int, bool]]:
    """Every (people, α/Δf, releases, all at once) of the planner's grid: the table's rows, in its order."""
    return [(n, a, k, sim) for n in PLANNER_PEOPLE for a in grid_accuracies() for sim in (False, True)
            for k in PLANNER_RELEASES]


@functools.lru_cache(maxsize=1)
def grid_table() -> dict[tuple[int, float, int, bool], tuple[float, float, float, float]]:
    """dpteach/data/planner_totals.csv: (optimal, exact, gaussian, exact_guess) by (people, α/Δf, releases,
    all at once) at 95%, each as :func:`plan_budget` would compute it."""
    text = resources.files("dpteach").joinpath("data", "planner_totals.csv").read_text(encoding="ascii")
    lines = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
    if lines[0] != _HEADER:
        raise ValueError("planner_totals.csv has an unexpected header: rebuild it "
                         "(python dpteach/data/rebuild_planner_table.py)")
    out = {}
    for ln in lines[1:]:
        n, a, k, sim, *values = ln.split(",")
        out[(int(n), float(a), int(k), sim == "1")] = tuple(float(v) for v in values)
    missing = [key for key in grid_keys() if key not in out]
    if missing:
        raise ValueError(f"planner_totals.csv lacks (people, α/Δf, releases, all at once) = {missing[:3]}…: rebuild it")
    return out


@functools.lru_cache(maxsize=1)
def table() -> dict[tuple[int, float, int], tuple[float, float, float]]:
    """The grid at Δf = 1, each count at 95%: (optimal, exact, gaussian) by (people, accuracy, releases)."""
    rows = grid_table()
    return {(n, float(a), k): rows[(n, float(a), k, False)][:3]
            for n in PLANNER_PEOPLE for a in PLANNER_ACCURACY for k in PLANNER_RELEASES}


#: planner_totals.csv's comment lines.
TABLE_COMMENT = (
    "# The budget planner's grid (dpteach.planner): at delta = 0.01/people, for k counts each within",
    "# +-accuracy_per_cap (the accuracy over the contribution cap) at 95%, or all k together at 95%",
    "# (all_at_once = 1: each at 1 - 0.05/k), the total epsilon (Laplace: eps = ln(1/beta)/accuracy_per_cap",
    "# each; Gaussian: sigma = accuracy_per_cap/z): optimal composition, exact (the privacy loss",
    "# distribution), Gaussian DP; and the exact best guess of one person's presence against the k Laplace",
    "# releases. Made by rebuild_planner_table.py; do not edit.")


def row_values(people: int, per_cap: float, releases: int, simultaneous: bool) -> tuple[float, float, float, float]:
    """One row of the table, computed: (optimal, exact, gaussian, exact_guess)."""
    each = release_confidence(CONFIDENCE, releases) if simultaneous else CONFIDENCE
    return (*_computed(people, releases, per_cap, each), _guess_computed(releases, per_cap, each))


def table_rows() -> list[str]:
    """planner_totals.csv's lines: every row of :func:`grid_keys`, its values written with repr."""
    return [*TABLE_COMMENT, _HEADER, *(f"{n},{a!r},{k},{int(sim)}," + ",".join(repr(float(v)) for v in
                                                                            row_values(n, a, k, sim))
                                       for n, a, k, sim in grid_keys())]
