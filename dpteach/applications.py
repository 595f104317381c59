"""Small synthetic datasets for chapter 10, where the Laplace mechanism goes to work.

Every dataset is drawn from the ``rng`` it is given, so a notebook that passes a seeded
generator gets the same data every time. They are small (thousands of rows) and made up:
a hospital's patients, a city's residents, an online shop's purchases, a campaign's
conversions. None describes real people.
"""

from __future__ import annotations

import numpy as np

from . import _validate
from .local import CITY_KM

#: Product categories of the synthetic shop (in the order of :func:`synthetic_purchases`' cells).
CATEGORIES = ("books", "music", "games", "toys", "garden", "kitchen", "sports", "beauty", "pets", "tools")
#: Campaigns of the synthetic conversion log (:func:`synthetic_conversions`).
CAMPAIGNS = ("search", "social", "email", "video", "display", "affiliate")

# Neighbourhoods of the synthetic city: (east km, north km, spread km, share of residents).
_NEIGHBOURHOODS = ((5.0, 5.2, 0.9, 0.30), (2.2, 7.6, 0.6, 0.15), (7.8, 2.4, 0.7, 0.18),
                   (7.4, 7.8, 0.5, 0.10), (2.4, 2.0, 0.8, 0.12))


def synthetic_hospital(n: int = 2_000, rng: np.random.Generator | None = None) -> dict:
    """A hospital's patients: age, systolic blood pressure, and whether they have the condition.

    Ages are uniform on 20–85 years, blood pressure normal around 105 + 0.5·age mmHg (sd 15),
    and the condition follows a logistic model in the two standardised measurements,

    .. math:: \\Pr[\\text{condition}] = σ(1.6 z_{\\text{age}} + 1.2 z_{\\text{bp}} - 1.0),

    so about a third of patients have it and a logistic regression can learn it (chapter 10's
    DP-SGD). Synthetic: no real patient is in it.

    Parameters
    ----------
    n : int
        Number of patients, n ≥ 1.
    rng : numpy.random.Generator, optional
        Source of randomness.

    Returns
    -------
    dict
        ``age`` and ``blood_pressure`` (n,), ``features`` (n, 2): the two standardised,
        ``condition`` (n,) of 0/1.

    Examples
    --------
    >>> import numpy as np
    >>> sorted(synthetic_hospital(10, rng=np.random.default_rng(0)))
    ['age', 'blood_pressure', 'condition', 'features']
    """
    m = _validate.integer("n", n, low=1, why="a hospital has at least one patient")
    gen = _validate.rng(rng)
    age = gen.uniform(20.0, 85.0, size=m)
    bp = gen.normal(105.0 + 0.5 * age, 15.0)
    features = np.column_stack([(age - 52.5) / 18.8, (bp - 131.25) / 17.4])
    logit = 1.6 * features[:, 0] + 1.2 * features[:, 1] - 1.0
    condition = (gen.random(m) < 1.0 / (1.0 + np.exp(-logit))).astype(np.int64)
    return {"age": age, "blood_pressure": bp, "features": features, "condition": condition}


def synthetic_city(n: int = 20_000, rng: np.random.Generator | None = None) -> np.ndarray:
    """Where n residents of a 10 km × 10 km city live: a mixture of Gaussian neighbourhoods.

    Five neighbourhoods (a dense centre and four smaller ones) hold 85% of the residents;
    the rest live anywhere, uniformly. A draw that falls outside the square is redrawn
    uniformly inside it, so every point lies in [0, CITY_KM]².

    Parameters
    ----------
    n : int
        Number of residents, n ≥ 1.
    rng : numpy.random.Generator, optional
        Source of randomness.

    Returns
    -------
    numpy.ndarray, shape (n, 2)
        (east, north) in km.

    Examples
    --------
    >>> import numpy as np
    >>> synthetic_city(5, rng=np.random.default_rng(0)).shape
    (5, 2)
    """
    m = _validate.integer("n", n, low=1, why="a city has at least one resident")
    gen = _validate.rng(rng)
    centres = np.array([h[:2] for h in _NEIGHBOURHOODS])
    spreads = np.array([h[2] for h in _NEIGHBOURHOODS])
    shares = np.array([h[3] for h in _NEIGHBOURHOODS] + [1.0 - sum(h[3] for h in _NEIGHBOURHOODS)])
    which = gen.choice(len(shares), size=m, p=shares)
    spread = np.where(which < len(centres), spreads[np.minimum(which, len(centres) - 1)], 0.0)
    points = centres[np.minimum(which, len(centres) - 1)] + spread[:, None] * gen.standard_normal((m, 2))
    uniform = gen.uniform(0.0, CITY_KM, size=(m, 2))
    redraw = (which == len(centres)) | ((points < 0) | (points > CITY_KM)).any(axis=1)
    points[redraw] = uniform[redraw]
    return points


def _event_log(n: int, weights: np.ndarray, mean_events: float, gen: np.random.Generator) -> dict:
    """Users with a heavy-tailed number of events (1 + Poisson(Exponential(mean − 1))), each in a cell."""
    per_user = 1 + gen.poisson(gen.exponential(mean_events - 1.0, size=n))
    users = np.repeat(np.arange(n), per_user)
    # each user prefers a few cells: the shop's popularity, tilted per user
    taste = gen.dirichlet(weights * 4.0, size=n)
    cum = np.cumsum(taste, axis=1)
    u = gen.random(users.size)
    cells = np.minimum((u[:, None] > cum[users]).sum(axis=1), len(weights) - 1)
    return {"users": users, "cells": cells.astype(np.int64)}


def synthetic_purchases(n: int = 3_000, rng: np.random.Generator | None = None) -> dict:
    """An online shop's purchase log: n customers, each buying 1 or more items across 10 categories.

    The number of purchases per customer is 1 + Poisson(λ) with λ ~ Exponential(mean 3): most
    customers buy a few items, a few buy dozens (which is why contributions must be capped).
    Each customer has their own taste, a Dirichlet tilt of the categories' popularity.

    Parameters
    ----------
    n : int
        Number of customers, n ≥ 1.
    rng : numpy.random.Generator, optional
        Source of randomness.

    Returns
    -------
    dict
        ``users`` and ``cells`` (one entry per purchase: the customer, the category index
        into ``labels``), and ``labels`` (:data:`CATEGORIES`).

    Examples
    --------
    >>> import numpy as np
    >>> log = synthetic_purchases(100, rng=np.random.default_rng(0))
    >>> log["users"].shape == log["cells"].shape, len(log["labels"])
    (True, 10)
    """
    m = _validate.integer("n", n, low=1, why="a shop has at least one customer")
    gen = _validate.rng(rng)
    weights = np.array([14.0, 6, 9, 7, 5, 11, 8, 10, 4, 6])
    return {**_event_log(m, weights / weights.sum(), 4.0, gen), "labels": CATEGORIES}


def synthetic_conversions(n: int = 5_000, rng: np.random.Generator | None = None) -> dict:
    """A campaign's conversion log: n users converting 1 or more times across 6 campaigns.

    Built like :func:`synthetic_purchases` (heavy-tailed conversions per user, mean 2.5),
    for the marketing report (chapter 05 does its numbers in full).

    Parameters
    ----------
    n : int
        Number of users, n ≥ 1.
    rng : numpy.random.Generator, optional
        Source of randomness.

    Returns
    -------
    dict
        ``users``, ``cells`` (campaign index into ``labels``) and ``labels`` (:data:`CAMPAIGNS`).

    Examples
    --------
    >>> import numpy as np
    >>> len(synthetic_conversions(50, rng=np.random.default_rng(0))["labels"])
    6
    """
    m = _validate.integer("n", n, low=1, why="a campaign has at least one user")
    gen = _validate.rng(rng)
    weights = np.array([9.0, 7, 4, 3, 2, 1])
    return {**_event_log(m, weights / weights.sum(), 2.5, gen), "labels": CAMPAIGNS}


def capping_error(truth, kept, caps, epsilon: float) -> dict:
    """Root-mean-square error per cell of a capped, noisy histogram, split into bias and noise.

    Capping each user at c events makes the histogram's ℓ1-sensitivity c (Definition 3.1),
    so the release is kept_c + Lap(c/ε) per cell (Definition 3.3). Against the uncapped
    truth h its mean squared error per cell is the squared bias plus the Laplace variance
    2(c/ε)²:

    .. math:: \\mathrm{RMSE}(c) = \\sqrt{\\tfrac{1}{k}\\|\\mathrm{kept}_c - h\\|_2^2 + 2 (c/ε)^2}

    Parameters
    ----------
    truth : array_like, shape (k,)
        The uncapped histogram.
    kept : array_like, shape (m, k)
        The capped histogram for each of the m caps.
    caps : array_like, shape (m,)
        The caps c ≥ 1.
    epsilon : float
        ε > 0.

    Returns
    -------
    dict
        ``bias`` (m,): RMS over cells of kept − truth; ``noise`` (m,): √2·c/ε;
        ``total`` (m,): √(bias² + noise²); ``best``: the cap with the least total.

    Examples
    --------
    >>> r = capping_error([4, 0], [[2, 0], [4, 0]], [1, 2], epsilon=1.0)
    >>> [round(float(v), 3) for v in r["total"]], r["best"]
    ([2.0, 2.828], 1)
    """
    h = _validate.array("truth", truth, ndim=(1,))
    k = _validate.array("kept", kept, ndim=(2,))
    c = _validate.array("caps", caps, ndim=(1,))
    if k.shape != (c.size, h.size):
        raise ValueError(f"kept must have shape (len(caps), len(truth)) = {(c.size, h.size)}, got {k.shape}")
    if np.any(c < 1):
        raise ValueError(f"caps must all be ≥ 1 (a user contributes at least one event), got {c.min()}")
    bias = np.sqrt(((k - h) ** 2).mean(axis=1))
    noise = np.sqrt(2) * c / _validate.epsilon(epsilon)
    total = np.sqrt(bias**2 + noise**2)
    best = float(c[int(np.argmin(total))])
    return {"bias": bias, "noise": noise, "total": total, "best": int(best) if best.is_integer() else best}
