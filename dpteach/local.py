"""The local model: each person randomizes their own data before anyone sees it.

In the central model of chapters 03–05 a trusted curator holds the true data and adds
Laplace noise once, to the answer. In the local model there is no trusted curator: each
person releases a privatized version of their own record, and the analyst only ever sees
those. Randomized response (Warner 1965; Dwork & Roth §3.2) is the oldest local
mechanism: it is ε-differentially private for each person's answer on its own ("ε-LDP").

Location privacy is the same idea for coordinates: each person adds Laplace noise to
their own (east, north) position, calibrated to how far apart two locations in the city
can be.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from . import _validate
from .laplace import laplace_scale

#: The synthetic city is the square [0, CITY_KM] × [0, CITY_KM], in kilometres.
CITY_KM = 10.0


def _bits(name: str, value) -> np.ndarray:
    a = _validate.array(name, value, ndim=(1,))
    if not np.isin(a, (0.0, 1.0)).all():
        raise ValueError(f"{name} must hold only 0 (no) and 1 (yes), got {_validate._short(a)}")
    return a.astype(np.int64)


def randomized_response_probability(epsilon: float) -> float:
    """The probability that randomized response at ε tells the truth: q = e^ε / (1 + e^ε).

    .. math:: \\frac{\\Pr[\\text{report } b \\mid \\text{truth } b]}{\\Pr[\\text{report } b \\mid \\text{truth } 1 - b]}
              = \\frac{q}{1 - q} = e^{ε}

    so the report is ε-differentially private for the one answer it carries (Dwork & Roth,
    §3.2, where the coin-flip version has q = 3/4 and ε = ln 3).

    Parameters
    ----------
    epsilon : float
        ε > 0.

    Examples
    --------
    >>> round(randomized_response_probability(math.log(3)), 6)
    0.75
    """
    e = _validate.positive("epsilon", epsilon, why="epsilon = 0 would mean a report that ignores the truth")
    return 1.0 / (1.0 + math.exp(-e))


def randomized_response(answers, epsilon: float, rng: np.random.Generator | None = None) -> np.ndarray:
    """Randomized response: each person reports their true yes/no answer with probability q, else the opposite.

    .. math:: \\tilde a_i = \\begin{cases} a_i & \\text{with probability } q = e^{ε}/(1 + e^{ε}) \\\\
              1 - a_i & \\text{with probability } 1 - q \\end{cases}

    Each report is ε-differentially private with respect to the answer it carries, whoever
    collects it: ε-local differential privacy (Dwork & Roth, §3.2; Warner 1965).

    Parameters
    ----------
    answers : array_like of 0/1, shape (n,)
        The true answers, one per person (1 = yes).
    epsilon : float
        ε > 0 for each person's report.
    rng : numpy.random.Generator, optional
        Source of randomness (each person's coin).

    Returns
    -------
    numpy.ndarray of int, shape (n,)
        The randomized answers, 0 or 1.

    Examples
    --------
    >>> import numpy as np
    >>> randomized_response([1, 0, 1, 1], epsilon=1.0, rng=np.random.default_rng(0)).shape
    (4,)
    """
    a = _bits("answers", answers)
    q = randomized_response_probability(epsilon)
    gen = _validate.rng(rng)
    truthful = gen.random(a.shape) < q
    return np.where(truthful, a, 1 - a)


def randomized_response_estimate(answers, epsilon: float) -> float:
    """The unbiased estimate of the true proportion of yes from randomized answers.

    A person whose true answer is yes reports yes with probability q, one whose answer is no
    with probability 1 − q, so E[mean of reports] = (1 − q) + (2q − 1)·p and

    .. math:: \\hat p = \\frac{\\bar{\\tilde a} - (1 - q)}{2q - 1}, \\qquad E[\\hat p] = p

    (post-processing of the reports, Proposition 2.1). It can leave [0, 1]; clamping it
    would be free but biased.

    Parameters
    ----------
    answers : array_like of 0/1, shape (n,)
        The randomized answers as collected (the output of :func:`randomized_response`).
    epsilon : float
        The ε they were randomized with.

    Examples
    --------
    1,000 reports at ε = ln 3 (q = 3/4), 600 of them yes: p̂ = (0.6 − 0.25)/0.5 = 0.7.

    >>> round(randomized_response_estimate([1] * 600 + [0] * 400, math.log(3)), 6)
    0.7
    """
    a = _bits("answers", answers)
    q = randomized_response_probability(epsilon)
    return float((a.mean() - (1.0 - q)) / (2.0 * q - 1.0))


def randomized_response_variance(n: int, epsilon: float) -> float:
    """Variance of the randomized-response estimate p̂ of a proportion among n people.

    Every report is yes with probability q or 1 − q, so each has variance q(1 − q) whatever
    its true answer, and

    .. math:: \\mathrm{Var}[\\hat p] = \\frac{q(1-q)}{n(2q-1)^2} = \\frac{e^{ε}}{n\\,(e^{ε}-1)^2}

    (for the n people fixed; only the coins are random). It falls like 1/n: the error like 1/√n.

    Parameters
    ----------
    n : int
        Number of people, n ≥ 1.
    epsilon : float
        ε > 0 of each report.

    Examples
    --------
    >>> round(randomized_response_variance(1_000, math.log(3)), 6)   # 3 / (1000 · 4)
    0.00075
    """
    m = _validate.integer("n", n, low=1, why="a proportion needs at least one person")
    e = _validate.epsilon(epsilon)
    return math.exp(-e) / (m * math.expm1(-e) ** 2)      # = e^ε/(n(e^ε − 1)²), written not to overflow


def central_proportion_variance(n: int, epsilon: float) -> float:
    """Variance of the central estimate of a proportion: (count + Lap(1/ε)) / n, n public.

    A trusted curator counts the yes answers (Δf = 1) and adds Lap(1/ε) once (Example 3.1);
    dividing by the public n is post-processing, so

    .. math:: \\mathrm{Var}[\\hat p] = \\frac{2}{(nε)^2}

    It falls like 1/n²: the error like 1/n, against 1/√n in the local model.

    Parameters
    ----------
    n : int
        Number of people, n ≥ 1.
    epsilon : float
        ε > 0.

    Examples
    --------
    >>> central_proportion_variance(1_000, 1.0)
    2e-06
    """
    m = _validate.integer("n", n, low=1, why="a proportion needs at least one person")
    return 2.0 * laplace_scale(1.0, epsilon) ** 2 / m**2


def perturb_locations(x, epsilon: float, rng: np.random.Generator | None = None) -> np.ndarray:
    """Local-model location privacy: each person adds Lap(Δ/ε) to each of their coordinates.

    .. math:: (e', n') = (e + Y_1,\\; n + Y_2), \\qquad Y_j \\sim \\mathrm{Lap}(Δ/ε), \\quad Δ = 2 \\cdot \\mathrm{CITY\\_KM}

    Any two locations in the city square differ by at most Δ = 20 km in ℓ1 (10 km east, 10
    km north), so this is the Laplace mechanism (Definition 3.3) applied by each person to
    their own record: ε-differentially private for that person's location (ε-LDP).

    Parameters
    ----------
    x : array_like, shape (n, 2)
        The true locations, in km, inside [0, CITY_KM]².
    epsilon : float
        ε > 0 of each person's report.
    rng : numpy.random.Generator, optional
        Source of randomness.

    Returns
    -------
    numpy.ndarray, shape (n, 2)
        The reported locations (they may fall outside the city).

    Examples
    --------
    >>> import numpy as np
    >>> perturb_locations([[1.0, 2.0], [5.0, 5.0]], epsilon=1.0, rng=np.random.default_rng(0)).shape
    (2, 2)
    """
    pts = _locations(x)
    b = laplace_scale(2 * CITY_KM, epsilon)
    gen = _validate.rng(rng)
    return pts + gen.laplace(0.0, b, size=pts.shape)


def grid_counts(x, cells: int) -> np.ndarray:
    """How many locations fall in each cell of a cells × cells grid over the city (a histogram).

    .. math:: h_{ij} = \\#\\{\\text{people in cell } (i, j)\\}, \\qquad Δh = 1

    Each person is in one cell, so the grid is a histogram query with Δf = 1 (Example 3.2):
    the central release adds Lap(1/ε) to each cell, however many cells there are. Points
    outside the city (reports pushed out by local noise) are not counted.

    Parameters
    ----------
    x : array_like, shape (n, 2)
        Locations in km (east, north).
    cells : int
        Cells per side, cells ≥ 1.

    Returns
    -------
    numpy.ndarray, shape (cells, cells)
        Row i is the i-th band north, column j the j-th band east.

    Examples
    --------
    >>> grid_counts([[1.0, 1.0], [9.0, 1.0], [9.5, 1.5]], cells=2)
    array([[1, 2],
           [0, 0]])
    """
    pts = _validate.array("x", x, ndim=(2,), nonempty=False)
    if pts.shape[-1] != 2:
        raise ValueError(f"x must have shape (n, 2), one (east, north) location per row, got shape {pts.shape}")
    k = _validate.integer("cells", cells, low=1, why="a grid has at least one cell")
    edges = np.linspace(0.0, CITY_KM, k + 1)
    inside = ((pts >= 0) & (pts <= CITY_KM)).all(axis=1)
    col = np.minimum(np.searchsorted(edges, pts[inside, 0], side="right") - 1, k - 1)
    row = np.minimum(np.searchsorted(edges, pts[inside, 1], side="right") - 1, k - 1)
    return np.bincount(row * k + col, minlength=k * k).reshape(k, k)


def _locations(x) -> np.ndarray:
    pts = _validate.array("x", x, ndim=(2,))
    if pts.shape[1] != 2:
        raise ValueError(f"x must have shape (n, 2), one (east, north) location per row, got shape {pts.shape}")
    return pts


@functools.lru_cache(maxsize=4096)
def survey_estimates(proportion: float, n: int, epsilon: float, runs: int = 2_000,
                     seed: int = 2014) -> tuple[np.ndarray, np.ndarray]:
    """Simulated estimates of a proportion from ``runs`` surveys of n people: local against central.

    In each survey round(proportion·n) people truly answer yes. Locally every person tells the
    truth with probability q = e^ε/(1 + e^ε) (randomized response, Dwork & Roth 2014, §3.2),
    so the yes reports are Bin(yes, q) + Bin(n − yes, 1 − q), de-biased to
    p̂ = (share − (1 − q))/(2q − 1). Centrally a curator releases (yes + Lap(1/ε))/n
    (Example 3.1). Their variances are :func:`randomized_response_variance` and
    :func:`central_proportion_variance`.

    The draws come from ``default_rng(seed)``, so the same arguments give the same arrays;
    results are cached (a slider revisiting a value costs nothing) and returned read-only.

    Returns
    -------
    (local, central) : two read-only arrays of shape (runs,)

    Examples
    --------
    >>> local, central = survey_estimates(0.3, 1_000, 1.0, runs=50)
    >>> local.shape, central.shape
    ((50,), (50,))
    """
    p = _validate.real("proportion", proportion, low=0.0, high=1.0, low_open=False)
    m = _validate.integer("n", n, low=1, why="a proportion needs at least one person")
    q = randomized_response_probability(epsilon)
    size = _validate.integer("runs", runs, low=1)
    gen = np.random.default_rng(seed)
    yes = round(p * m)
    reports = gen.binomial(yes, q, size=size) + gen.binomial(m - yes, 1 - q, size=size)
    local = (reports / m - (1 - q)) / (2 * q - 1)
    central = (yes + gen.laplace(0.0, laplace_scale(1.0, epsilon), size=size)) / m
    local.flags.writeable = False
    central.flags.writeable = False
    return local, central
