"""What ε means to an attacker: the differencing (membership) attack on a count (chapter 03).

Two exact counts that differ in one person reveal that person: "how many patients have
diabetes?" minus "how many patients other than Alice have diabetes?" is Alice's answer.
The Laplace mechanism (Dwork & Roth 2014, Definition 3.3) answers the first count with
noise Lap(Δf/ε). An attacker who knows everything except Alice's record then has to
decide between two neighbouring databases, x (Alice counted) and y (Alice not counted),
from one noisy release: a hypothesis test.

* Against Laplace noise the best test (the likelihood-ratio test of Neyman and Pearson)
  guesses "in" when the release is above the midpoint of f(y) and f(x). With a uniform prior
  it succeeds with probability 1 − ½·exp(−ε·gap/(2Δf)), gap = |f(x) − f(y)| ≤ Δf
  (:func:`laplace_attack_success`).
* For *every* ε-differentially private mechanism and *every* test, the success is at most
  e^ε/(1 + e^ε) (:func:`dp_success_limit`): the false positive and false negative rates FPR, FNR of any test
  satisfy FPR + e^ε·FNR ≥ 1 and e^ε·FPR + FNR ≥ 1 (Wasserman & Zhou 2010, "A statistical framework
  for differential privacy", JASA 105; Kairouz, Oh & Viswanath 2015, "The composition theorem
  for differential privacy", ICML). Randomized response attains it; Laplace stays below it.
* Whatever the attacker believed before, the release multiplies the odds of "in" by the
  likelihood ratio p_x(z)/p_y(z), which Theorem 3.6 keeps within [e^−ε, e^ε]
  (:func:`posterior_bounds`, :func:`laplace_posterior`).

Everything here is numpy only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _validate
from .laplace import laplace_scale, privacy_loss

__all__ = [
    "AttackSimulation",
    "dp_success_limit",
    "laplace_attack_success",
    "laplace_posterior",
    "posterior_bounds",
    "simulate_laplace_attack",
]

_WHY_PRIOR = "a prior probability of 0 or 1 is certainty, which no release can move"


def _epsilons(epsilon) -> np.ndarray:
    if isinstance(epsilon, (bool, np.bool_)):
        raise TypeError(f"epsilon must be a real number or an array of them, got {epsilon!r}")
    eps = _validate.array("epsilon", epsilon, allow_inf=False)
    if (eps <= 0).any():
        raise ValueError(f"epsilon must be a finite number > 0 everywhere, got {_validate._short(eps)}; {_validate.WHY_EPSILON}")
    return eps


def _out(a: np.ndarray):
    return a if a.ndim else float(a)


def dp_success_limit(epsilon) -> np.ndarray | float:
    """The most any test can achieve against any ε-DP mechanism: e^ε / (1 + e^ε).

    The attacker sees one output of an ε-differentially private mechanism (Dwork & Roth 2014,
    Definition 2.4 with δ = 0) run on x or on its neighbour y, each with probability ½, and
    guesses which. For the event S = "guess x", ε-DP gives Pr_x[S] ≤ e^ε·Pr_y[S] and
    Pr_y[not S] ≤ e^ε·Pr_x[not S]; the success ½(Pr_x[S] + Pr_y[not S]) is then at most
    e^ε/(1 + e^ε) (Wasserman & Zhou 2010, Theorem 2.4; Kairouz, Oh & Viswanath 2015, Theorem 2.1).

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.

    Returns
    -------
    float or numpy.ndarray
        A probability in (½, 1): ½ as ε → 0 (a coin toss), 1 as ε → ∞.
    """
    eps = _epsilons(epsilon)
    return _out(1.0 / (1.0 + np.exp(-eps)))     # e^ε/(1 + e^ε), without overflow for large ε


def laplace_attack_success(epsilon, sensitivity: float = 1.0, gap: float | None = None) -> np.ndarray | float:
    """Exact success of the best test against the Laplace mechanism: 1 − ½·exp(−ε·gap/(2Δf)).

    The release is f + Lap(Δf/ε) with f = f(x) or f(y), |f(x) − f(y)| = ``gap``, each world with
    probability ½. The likelihood ratio p_x(z)/p_y(z) falls monotonically from e^(ε·gap/Δf) to
    e^(−ε·gap/Δf) as z crosses from f(x) to f(y), so the best test (Neyman–Pearson; with a
    uniform prior it minimises the error) guesses by the midpoint (f(x) + f(y))/2. It errs when
    the noise carries the release past the midpoint, which Lap(b) does with probability
    ½·exp(−gap/(2b)) (the CDF of Definition 3.2).

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0 the noise was calibrated with.
    sensitivity : float
        Δf > 0 the noise was calibrated with (b = Δf/ε).
    gap : float, optional
        |f(x) − f(y)| ≥ 0, how far apart the two answers are; ``None`` means Δf (the worst case
        the calibration covers, e.g. a count and a neighbour that adds a counted person).

    Returns
    -------
    float or numpy.ndarray
        The probability that the best test is right. At gap = Δf it is 1 − ½e^(−ε/2), below
        :func:`dp_success_limit` for every ε > 0.
    """
    eps = _epsilons(epsilon)
    sens = _validate.positive("sensitivity", sensitivity, why="the sensitivity Δf is a positive number")
    d = sens if gap is None else _validate.real("gap", gap, low=0.0, low_open=False,
                                                why="gap is the distance |f(x) − f(y)|")
    return _out(1.0 - 0.5 * np.exp(-eps * d / (2 * sens)))


def posterior_bounds(prior, epsilon) -> tuple:
    """The range in which one ε-DP release can move a belief: odds × e^(±ε).

    Bayes' rule on the odds: posterior odds = prior odds × p_x(z)/p_y(z), and ε-DP (for the
    Laplace mechanism, Theorem 3.6 of Dwork & Roth 2014) keeps the likelihood ratio in
    [e^−ε, e^ε]. So whatever the output, the posterior probability of "x" lies in
    [q/(q + (1 − q)e^ε), q·e^ε/(q·e^ε + 1 − q)] for a prior q.

    Parameters
    ----------
    prior : float or array_like
        The attacker's prior probability q ∈ (0, 1) that the data are x (Alice is in).
    epsilon : float or array_like
        ε > 0 (broadcast against ``prior``).

    Returns
    -------
    (low, high) : tuple of floats or arrays
        The smallest and the largest posterior probability a release can produce.
    """
    q = _validate.array("prior", prior)
    if ((q <= 0) | (q >= 1)).any():
        raise ValueError(f"prior must be a probability in (0, 1) everywhere, got {_validate._short(q)}; "
                         f"{_WHY_PRIOR}")
    eps = _epsilons(epsilon)
    q, eps = np.broadcast_arrays(q, eps)
    odds = q / (1 - q)
    high = 1.0 / (1.0 + np.exp(-eps) / odds)
    low = 1.0 / (1.0 + np.exp(eps) / odds)
    return _out(low), _out(high)


def laplace_posterior(z, prior, f_in, f_out, sensitivity: float, epsilon: float) -> np.ndarray | float:
    """The attacker's posterior that Alice is in, after seeing the Laplace release z.

    posterior odds = prior odds × exp(L(z)), with L(z) = ln p_in(z)/p_out(z) the privacy loss
    (:func:`dpteach.privacy_loss`). Theorem 3.6 bounds |L(z)| by ε·|f_in − f_out|/Δf ≤ ε, so the
    result always lies inside :func:`posterior_bounds`.

    Parameters
    ----------
    z : float or array_like
        Released values (one count each).
    prior : float
        q ∈ (0, 1), the attacker's belief before the release.
    f_in, f_out : float
        The true count with Alice (x) and without her (y).
    sensitivity, epsilon : float
        The Δf and ε the noise was calibrated with.
    """
    q = _validate.real("prior", prior, low=0.0, high=1.0, high_open=True, why=_WHY_PRIOR)
    a = _validate.real("f_in", f_in)
    b = _validate.real("f_out", f_out)
    loss = np.asarray(privacy_loss(z, a, b, sensitivity, epsilon))
    log_odds = np.log(q) - np.log1p(-q) + loss
    return _out(1.0 / (1.0 + np.exp(-log_odds)))


@dataclass(frozen=True)
class AttackSimulation:
    """The midpoint attack run ``trials`` times against the Laplace mechanism, at each ε.

    ``successes[i]`` guesses were right out of ``trials`` at ``epsilon[i]``; ``exact`` is
    :func:`laplace_attack_success` and ``limit`` is :func:`dp_success_limit` at the same ε.
    """

    epsilon: np.ndarray
    trials: int
    successes: np.ndarray
    rate: np.ndarray          # successes / trials
    standard_error: np.ndarray   # √(p(1 − p)/trials) with p the exact success
    exact: np.ndarray
    limit: np.ndarray


def simulate_laplace_attack(epsilon, trials: int = 20_000, sensitivity: float = 1.0,
                            rng: np.random.Generator | None = None) -> AttackSimulation:
    """Play the differencing attack ``trials`` times at each ε and count the right guesses.

    Each trial tosses a fair coin for "Alice in" (true count c + Δf) or "out" (count c), releases
    the count with Lap(Δf/ε) noise (Definition 3.3) and guesses "in" when the release is above
    c + Δf/2, the midpoint. The coin tosses and the unit noise are drawn once and rescaled by
    b = Δf/ε for every ε, so neighbouring ε share their randomness (the curve is smooth).

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0, one or several.
    trials : int
        Number of attacks per ε, ≥ 1.
    sensitivity : float
        Δf > 0 (the gap between the two counts, and the calibration).
    rng : numpy.random.Generator, optional
        Source of randomness; ``None`` uses a fresh unseeded generator.
    """
    eps = np.atleast_1d(_epsilons(epsilon))
    n = _validate.integer("trials", trials, low=1)
    sens = _validate.positive("sensitivity", sensitivity, why="the sensitivity Δf is a positive number")
    alice_in, unit = attack_draws(n, _validate.rng(rng))
    successes = np.array([attack_successes(float(e), sens, alice_in, unit) for e in eps], dtype=np.int64)
    exact = np.atleast_1d(laplace_attack_success(eps, sens))
    return AttackSimulation(epsilon=eps, trials=n, successes=successes, rate=successes / n,
                            standard_error=np.sqrt(exact * (1 - exact) / n), exact=exact,
                            limit=np.atleast_1d(dp_success_limit(eps)))


def attack_draws(trials: int, gen: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The randomness of :func:`simulate_laplace_attack`: a fair coin "Alice in" and a unit
    Lap(1) noise per trial, drawn once (a figure draws them at construction and only counts
    per frame)."""
    alice_in = gen.random(trials) < 0.5
    unit = gen.laplace(0.0, 1.0, size=trials)
    return alice_in, unit


def attack_successes(epsilon: float, sensitivity: float, alice_in: np.ndarray, unit: np.ndarray) -> int:
    """How many of the trials the midpoint test wins at ε: the release is c + Δf·[in] + (Δf/ε)·unit
    (Definition 3.3, c = 0 without loss of generality) and the guess is "in" above c + Δf/2."""
    release = sensitivity * alice_in + laplace_scale(sensitivity, epsilon) * unit
    return int(((release > sensitivity / 2) == alice_in).sum())
