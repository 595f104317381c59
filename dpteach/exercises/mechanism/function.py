"""Chapter 03's function exercise: the student writes the Laplace mechanism (Definition 3.3), and the checker
tests the whole law of its noise on hidden cases (shape, tails, scale, independence, stuck bits)."""

from __future__ import annotations

import math
import random

import numpy as np

from ...laplace import laplace_scale
from .._base import Case, Feedback, check_function, exercise
from ._replay import _generator, _planted, _replay_problem

__all__ = ["check_my_laplace_mechanism", "run_mechanism"]


# -- a function the student writes: the Laplace mechanism itself ----------------------------------

#: How many releases each hidden case draws from the student's function (one seeded generator).
DRAWS = 4_000
#: The band, in standard errors, for the statistics judged by a normal approximation (centre, scale,
#: correlations): two-sided, about 2·10⁻⁹ each.
BAND = 6.0
#: The false-rejection rate of each test judged by an exact bound (the CDF gap by the DKW inequality,
#: the tail counts and the bound on the noise by Chernoff bounds).
ALPHA = 1e-8
#: Fact 3.7's tail point for the tail counts: Pr[|Y| ≥ 4b] = e⁻⁴ for Y ~ Lap(b).
TAIL = 4.0
#: The long run of a graded check: LONG_CALLS releases of LONG_COUNTS counts, 2²⁰ noises in all, so
#: that noise bounded anywhere within about ±10.9·b is caught (see ``_shape_problem``).
LONG_COUNTS, LONG_CALLS = 2**18, 4
#: The low-order bits of each release tested for being stuck (bit 0 is the last bit of the float's mantissa).
LOW_BITS = 20
def run_mechanism(function, true_answer, sensitivity, epsilon, seed, calls: int = DRAWS) -> dict:
    """Call the student's mechanism ``calls`` times with one generator seeded ``seed``; plain data back.

    Returns ``{"values": array of shape (calls,) + shape of the answer, "reproducible": bool}``:
    ``reproducible`` says whether a second generator seeded alike gives the first release again.
    ``{"returned_none": True}`` if the function returns None, ``{"mutates_input": True}`` if it changes
    the array it is given. Each call gets its own copy of ``true_answer``. A runner for
    :func:`check_function`.
    """
    def fresh():
        return np.array(true_answer, dtype=float) if isinstance(true_answer, np.ndarray) else true_answer

    rng = _generator(seed)      # default_rng(seed), from the classes taken before the student's cell
    given = fresh()
    first = function(given, sensitivity, epsilon, rng)
    if first is None:
        return {"returned_none": True}
    if isinstance(given, np.ndarray) and not np.array_equal(given, true_answer):
        return {"mutates_input": True}
    draws = [first] + [function(fresh(), sensitivity, epsilon, rng) for _ in range(calls - 1)]
    if any(d is None for d in draws):
        raise ValueError("the function returned None on some calls: did you forget a `return`?")
    values = np.array([np.asarray(d, dtype=float) for d in draws])
    again = np.asarray(function(fresh(), sensitivity, epsilon, _generator(seed)), dtype=float)
    reproducible = again.shape == values[0].shape and bool(np.array_equal(again, values[0]))
    return {"values": values, "reproducible": reproducible}


def _mechanism_cases(fresh: random.Random | None = None) -> list[Case]:
    """Scalar and vector answers (numpy arrays, as the prompt promises), several Δf and ε, chosen so
    that Δf/ε ≠ ε/Δf, Δf ≠ 1/ε, Δf ≠ k (so Δf/(kε) ≠ 1/ε in the first vector case) …

    Without ``fresh`` the answers and seeds are fixed (a notebook's self-check gives the same verdict
    on every run). With ``fresh`` (a grader's, seeded from the operating system) each answer is moved
    by a whole number drawn from it, every seed is a fresh 128-bit number (as ``default_rng()`` draws
    for itself, so a check's generator looks like a user's), and a seventh case, the long run, adds
    2²⁰ noises for the far tails: a function cannot recognise a check by its inputs or its random state.
    """
    settings = [
        ("one count {}, Δf = 1, ε = 1", 42.0, 1.0, 1.0),
        ("one count {}, Δf = 1, ε = 0.5", 42.0, 1.0, 0.5),
        ("a sum {} clipped at Δf = 10, ε = 2", 250.0, 10.0, 2.0),
        ("a count and a clipped sum {}, Δf = 5, ε = 0.25", np.array([-5.0, 7.5]), 5.0, 0.25),
        ("a 5-cell histogram, Δf = 1, ε = 4", np.array([120.0, 45.0, 3.0, 0.0, 17.0]), 1.0, 4.0),
        ("three overlapping counts {}, Δf = 3, ε = 1", np.array([9.0, 6.0, 3.0]), 3.0, 1.0),
    ]
    cases = []
    for i, (label, answer, sens, eps) in enumerate(settings):
        seed = 2014 + i
        if fresh is not None:
            answer = answer + np.array([fresh.randint(1, 900) for _ in range(np.size(answer))]).reshape(np.shape(answer))
            answer = float(answer) if np.ndim(answer) == 0 else answer
            seed = fresh.getrandbits(128)
        shown = (f"{answer:g}" if np.ndim(answer) == 0 else "[" + ", ".join(f"{a:g}" for a in answer) + "]").replace("-", "−")
        cases.append(Case(label.format(shown), (answer, sens, eps, seed),
                          expected={"true": np.asarray(answer, dtype=float), "scale": laplace_scale(sens, eps),
                                    "sensitivity": sens, "epsilon": eps, "seed": seed, "calls": DRAWS}))
    if fresh is not None:
        counts = np.array([fresh.randrange(1000) for _ in range(LONG_COUNTS)], dtype=float)
        seed = _planted(fresh, fresh.randrange(LONG_COUNTS * LONG_CALLS))
        cases.append(Case(f"a long run: a histogram of {LONG_COUNTS:,} counts released {LONG_CALLS} times, Δf = 1, "
                          "ε = 1", (counts, 1.0, 1.0, seed), {"calls": LONG_CALLS},
                          expected={"true": counts, "scale": laplace_scale(1.0, 1.0), "sensitivity": 1.0,
                                    "epsilon": 1.0, "long": True, "seed": seed, "calls": LONG_CALLS}))
    return cases


def _laplace_cdf(v: np.ndarray) -> np.ndarray:
    return np.where(v < 0, 0.5 * np.exp(np.minimum(v, 0)), 1 - 0.5 * np.exp(-np.maximum(v, 0)))


def _cdf_gap(v: np.ndarray) -> float:
    """Kolmogorov–Smirnov distance between the sample ``v`` and Lap(1)."""
    v = np.sort(v.ravel())
    n = v.size
    cdf = _laplace_cdf(v)
    return float(max((np.arange(1, n + 1) / n - cdf).max(), (cdf - np.arange(n) / n).max()))


def _ks_limit(n: int) -> float:
    """The DKW (Massart) bound: Pr[√n·gap > x] ≤ 2e^(−2x²); the gap limit at false-rejection ALPHA."""
    return math.sqrt(math.log(2 / ALPHA) / 2) / math.sqrt(n)


def _tail_band(n: int, p_low: float, p_high: float) -> tuple[float, float]:
    """Chernoff bounds on a Binomial(n, p) count, p in [p_low, p_high]: each side exceeded with
    probability ≤ ALPHA."""
    log = math.log(1 / ALPHA)
    mu_low, mu_high = n * p_low, n * p_high
    low = mu_low * (1 - math.sqrt(2 * log / mu_low))                      # exp(−μd²/2) = ALPHA
    d = (log + math.sqrt(log**2 + 8 * mu_high * log)) / (2 * mu_high)       # exp(−μd²/(2 + d)) = ALPHA
    return low, mu_high * (1 + d)


def _shape_problem(u: np.ndarray) -> str | None:
    """None if the standardised noise ``u`` (entries of the pooled releases, in units of b) has the shape
    of Lap(1) whatever its scale; else what is wrong with it. The scale is estimated by the mean of |u|
    (within ±BAND/√n of the truth but with probability about 2·10⁻⁹)."""
    n = u.size
    spread = float(np.abs(u).mean())
    v = u / spread
    top = float(np.abs(v).max())
    margin = BAND / math.sqrt(n)
    # noise clipped at ±c·b piles up exactly there; for continuous noise three draws within a relative
    # 10⁻⁹ of the largest happen with probability about 10⁻¹⁶ (the top spacings are Exp(1) in units of b)
    at_top = int(np.sum(np.abs(v) >= top * (1 - 1e-9)))
    if at_top >= 3:
        limit = float(np.abs(u).max())
        return (f"clamped noise is not ε-DP: {at_top} releases sit exactly at f(x) ± {limit:.3g}·b, the edge of its "
                f"noise, so nothing beyond it can come from x, yet it can from a neighbour whose answer is Δf "
                "larger, and no e^ε bounds that ratio. The tails of Lap(b), Pr[|Y| ≥ t·b] = e^(−t), are where "
                "the guarantee lives: never clip the noise.")
    # Pr[max |Y| < c·b] = (1 − e^(−c))^n ≤ exp(−n e^(−c)) for Lap(b) noise: below ALPHA at c = ln(n/ln(1/ALPHA))
    bound = math.log(n / math.log(1 / ALPHA)) / (1 + margin)
    if top < bound:
        edge = float(np.mean(np.abs(v) >= 0.9 * top))
        if edge >= 0.01:
            limit = float(np.abs(u).max())
            return (f"bounded noise is not ε-DP: every noise lies within ±{limit:.2g}·b, so an output beyond "
                    f"f(x) + {limit:.2g}·b cannot come from x but can from a neighbour whose answer is Δf larger, "
                    "and no e^ε bounds that ratio. Laplace noise is unbounded, with tails Pr[|Y| ≥ t·b] = e^(−t).")
        return _LIGHT
    low, high = _tail_band(n, math.exp(-TAIL * (1 + margin)), math.exp(-TAIL * (1 - margin)))
    beyond = int(np.sum(np.abs(v) >= TAIL))
    if beyond < low:
        return _LIGHT
    if beyond > high:
        return _HEAVY
    if _cdf_gap(v) > _ks_limit(n):
        return ("the distribution of its noise is not Laplace: the share of noises below each value differs from "
                "Lap(b)'s CDF by more than chance allows. Draw each noise from Lap(b) itself.")
    return None


_LIGHT = ("too light tails: large noises are rarer than under Lap(b), whose tails fall like e^(−t) (Fact 3.7). "
          "Gaussian noise, or any noise whose density falls faster than e^(−|y|/b), is not ε-DP: far out, the ratio "
          "of the densities at neighbouring answers grows without bound.")
_HEAVY = ("too heavy tails for its size: large noises are more frequent than under Lap(b) of the same E|Y|. A mix "
          "of scales, or a scale that changes from call to call, is not Lap(Δf/ε): draw every noise with the one "
          "scale b = Δf/ε.")


def _correlation(a: np.ndarray, b: np.ndarray) -> float:
    a, b = a - a.mean(), b - b.mean()
    scale = math.sqrt(float(a @ a) * float(b @ b))
    return float(a @ b) / scale if scale > 0 else 1.0


def _stuck_bits(values: np.ndarray) -> str | None:
    """None unless the last LOW_BITS bits of the releases (draws × coordinates) hold a fixed pattern
    with ones in it: a bit that is 1 in more than 99% of 1,000 or more releases of one coordinate.

    The last bits of f(x) + Y, for Y drawn from Lap(b) in double precision, are those of a rounded
    continuous draw: each is 1 about half the time, and 99% of 4,000 fair bits happens with probability
    far below 10⁻¹⁰⁰. A pattern of ones there is a channel beside the noise (for the true answer, say).
    Zeros only, as from rounding to float32, carry nothing and are not judged here.
    """
    if len(values) < 1000:
        return None
    bits = (values.astype(np.float64).view(np.uint64)[:, :, None] >> np.arange(LOW_BITS, dtype=np.uint64)) & 1
    share = bits.mean(axis=0)
    stuck = np.argwhere(share > 0.99)
    if stuck.size == 0:
        return None
    coordinate = int(stuck[0, 0])
    where = "" if values.shape[1] == 1 else f" of coordinate {coordinate + 1}"
    positions = ", ".join(str(int(j)) for j in stuck[stuck[:, 0] == coordinate, 1][:6])
    return (f"the last bits of its releases{where} are not noise: bits {positions} of the mantissa are 1 in "
            "over 99% of them, a fixed pattern that can carry information past the noise (the true answer, "
            "say). Definition 3.3 releases f(x) + Y and nothing else: return true_answer + noise.")


def _dependence_problem(u: np.ndarray) -> str | None:
    """None if the coordinates and the successive draws of ``u`` (draws × coordinates) look independent:
    every correlation (of u and of |u|) within BAND/√N of 0."""
    draws, k = u.shape
    limit = BAND / math.sqrt(draws)
    for i in range(k):
        for j in range(i + 1, k):
            if abs(_correlation(u[:, i], u[:, j])) > limit or abs(_correlation(np.abs(u[:, i]),
                                                                              np.abs(u[:, j]))) > limit:
                return (f"the noises of coordinates {i + 1} and {j + 1} are not independent (they are correlated). "
                        "Definition 3.3 adds independent Y₁, …, Y_k, one per coordinate.")
    for i in range(k):
        if abs(_correlation(u[1:, i], u[:-1, i])) > limit or abs(_correlation(np.abs(u[1:, i]),
                                                                            np.abs(u[:-1, i]))) > limit:
            return ("successive releases are not independent: each call's noise depends on the previous one "
                    "(does the function change true_answer in place, or keep noise between calls?). Each call "
                    "draws fresh noise from rng and leaves its input alone.")
    return None


def _diagnose(got, expected) -> str | None:
    """None if the releases look like f(x) + Lap(Δf/ε), independently per coordinate and per call; else
    what is wrong.

    The standardised noise u = (release − f(x))/b of a correct mechanism is i.i.d. Lap(1). Pooling
    the N = 4,000·k entries of a case, the tests and their false-rejection rates for a correct
    mechanism are: the mean of u within ±6·√(2/N) and the mean of |u| within 1 ± 6/√N (normal
    approximation, about 2·10⁻⁹ each); the largest |u|, against the Chernoff-type bound
    Pr[max |u| < c] ≤ exp(−N e^(−c)) (≤ 10⁻⁸); the count of |u| ≥ 4 (after dividing by the
    mean of |u|), in a two-sided Chernoff band (10⁻⁸ each side); the Kolmogorov–Smirnov gap
    against Lap(1) after the same division, at the DKW bound 2e^(−2Nx²) (10⁻⁸; estimating the
    scale only makes the gap smaller); and, for independence, every correlation of u and of |u|
    between two coordinates and between successive draws within ±6/√4000 (about 2·10⁻⁹ each).
    """
    if not isinstance(got, dict) or not ({"values", "returned_none", "mutates_input"} & set(got)):
        return "the function must return the released value(s)."
    if got.get("returned_none"):
        return "your function returned None: did you forget `return`?"
    if got.get("mutates_input"):
        return ("it changes true_answer in place (true_answer += noise): the caller's true answer then drifts with "
                "every release. Return true_answer + noise, a new array.")
    true, b = np.asarray(expected["true"], dtype=float), expected["scale"]
    values = np.asarray(got["values"], dtype=float)
    if values.shape[1:] != true.shape:
        want = "one number" if true.ndim == 0 else f"an array of shape {true.shape}, one value per coordinate"
        return f"it should return {want}, like true_answer; it returned shape {values.shape[1:] or '()'}."
    if not np.isfinite(values).all():
        return "it returned NaN or infinite values."
    noise = values - true
    if np.all(noise == 0):
        return "it adds no noise at all: Definition 3.3 adds Lap(Δf/ε) to the true answer."
    if not got.get("reproducible", False):
        return ("called twice with generators seeded alike, it gave different releases: draw the noise from the "
                "rng argument (rng.laplace(...)), not from a fresh or global generator.")
    if np.all(noise == noise[:1]):
        return ("every call returned the same release: the noise never changes, as from a generator seeded anew "
                "inside the function. Draw the noise from the rng argument, which moves on at each call.")
    draws = noise.reshape(len(noise), -1)
    if draws.shape[1] > 1 and np.allclose(draws, draws[:, :1]):
        return ("every coordinate got the same noise. Definition 3.3 adds independent Y₁, …, Y_k, one per "
                "coordinate: draw an array of noise with the shape of true_answer.")
    n = noise.size
    if not np.any(true == 0) and np.allclose(values.mean(), 0, atol=BAND * b * math.sqrt(2 / n)) \
            and abs(noise.mean()) > BAND * b * math.sqrt(2 / n):
        return "it returns the noise alone: the mechanism adds the noise TO the true answer."
    u = draws / b
    if abs(u.mean()) > BAND * math.sqrt(2 / n):
        return "its noise is not centred at 0 (the releases are biased): Lap(b) has mean 0."
    shape = _shape_problem(u)
    if shape is not None and shape.startswith(("bounded", "clamped")):
        return shape
    if expected.get("long"):        # the long run is there for the tails; the six others test the rest
        return shape or _replay_problem(values, expected)
    problem = _stuck_bits(values.reshape(len(values), -1)) or _dependence_problem(u) or shape
    if problem is not None:
        return problem
    spread = float(np.abs(u).mean())
    if abs(spread - 1) > BAND / math.sqrt(n):
        return _scale_problem(spread, n, b, expected)
    return _replay_problem(values, expected)


def _scale_problem(spread: float, n: int, b: float, expected) -> str:
    """The named scale mistake that E|u| = ``spread`` matches, or what the scale is off by."""
    sens, eps = expected["sensitivity"], expected["epsilon"]
    k = max(1, int(np.asarray(expected["true"]).size))
    wrong_scales = [
        (sens / (k * eps), "Δf/(kε)", "its noise has scale Δf/(k·ε): that splits ε over the k coordinates although "
                                      "Δf already covers all of them together. Each coordinate gets Lap(Δf/ε)."),
        (eps / sens, "ε/Δf", "its noise has scale ε/Δf: upside down, the scale is Δf divided by ε (smaller ε, "
                             "more noise)."),
        (sens, "Δf", "its noise has scale Δf: you forgot to divide by ε."),
        (sens * eps, "Δf·ε", "its noise has scale Δf·ε: the scale is Δf divided by ε, not multiplied."),
        (1 / eps, "1/ε", "its noise has scale 1/ε: you left out the sensitivity Δf (b = Δf/ε)."),
        (math.sqrt(2) * b, "√2·Δf/ε", "its noise has scale √2·Δf/ε: √2·b is the standard deviation of Lap(b), "
                                      "not the scale numpy's laplace(loc, scale) expects."),
        (b / math.sqrt(2), "Δf/(√2·ε)", "its noise has standard deviation Δf/ε: you set the standard deviation to b, "
                                        "but Lap(b) has standard deviation √2·b and numpy's laplace takes the scale b."),
        (math.sqrt(2 / math.pi) * b, "Gaussian", "its noise looks Gaussian with standard deviation b: the Laplace "
                                                 "mechanism draws Laplace noise (rng.laplace)."),
    ]
    # a mistake matches when E|u| lies within 4 standard errors of what it would give (|u| has sd ≈ its mean)
    matches = [(label, message) for scale, label, message in wrong_scales
               if not math.isclose(scale / b, 1.0, rel_tol=0.05)
               and abs(spread - scale / b) <= 4 * (scale / b) / math.sqrt(n)]
    if len(matches) == 1:
        return matches[0][1]
    if matches:
        return (f"its noise has the scale that {' or '.join(label for label, _ in matches)} gives in this case; "
                "the scale is b = Δf/ε.")
    return (f"its noise has the wrong size: E|noise| should be b = Δf/ε, and here it is {spread:.3g}·b "
            "(its shape is Laplace's). Use numpy's rng.laplace(0, b, size=...) with b = Δf/ε.")


@exercise(prompt="Write `my_laplace_mechanism(true_answer, sensitivity, epsilon, rng)`: Definition 3.3 in numpy. "
                 "`true_answer` is one number or a numpy array of k numbers; return the noisy answer with the same "
                 "shape. Draw the noise from the generator `rng` you are given (`rng.laplace(loc, scale, size=...)`), "
                 "and do not call `dp.laplace_mechanism` or `dp.laplace_scale`: the checker refuses them. It runs "
                 "your function on six hidden cases (one count, a clipped sum, overlapping counts, a histogram, "
                 "several Δf and ε), 4,000 times each with a seeded generator, tests the noise's centre, scale, "
                 "shape (its whole distribution against Lap(b)) and independence, and tells you which case fails "
                 "and which property is broken. Draw all the noise of a release with that one call, "
                 "`rng.laplace(0, b, size=np.shape(true_answer))`: the checker also replays the generator and "
                 "compares every release with it. When it is graded, the answers and seeds are new, and a seventh "
                 "case, a long run of a million noises, probes the far tails.",
          title="write the mechanism", kind="function")
def check_my_laplace_mechanism(function) -> Feedback:
    """Ch. 03, exercise 4: the student writes ``my_laplace_mechanism(true_answer, sensitivity, epsilon, rng)``,
    Definition 3.3, without calling dpteach's Laplace mechanism or its scale.

    Six hidden cases (one count, a clipped sum, overlapping counts, a histogram, Δf ≠ 1, several ε;
    vectors as numpy arrays); each calls the function 4,000 times with one seeded generator (the
    runner :func:`run_mechanism`) and tests the pooled standardised noise u = (release − f(x))/b:
    its centre, its scale E|u| = 1, its shape against Lap(1) (no bound on the noise, tail counts
    at 4b, the Kolmogorov–Smirnov gap) and the independence of its coordinates and of successive
    calls, and the last bits of the releases (see ``_diagnose``). A correct function fails with
    probability under 10⁻⁶ over the whole check (about 90 statistics: those judged by exact bounds at
    10⁻⁸ each, those judged by a normal approximation at 6 standard errors, about 2·10⁻⁹ each; the
    clamp and last-bits tests far below). In a notebook the seeds are fixed, so a verdict never
    changes between runs. Graded (``function`` has ``run_cases``: it runs in a sandbox), the answers
    and 128-bit seeds are drawn from the operating system and a seventh case, the long run, adds 2²⁰
    noises: noise bounded within about ±10.9·b, or clipped within about ±11.6·b, fails there (the
    seven statistics it adds keep the whole under 10⁻⁶). A failure names the case and the property
    broken: a wrong shape, bounded or clamped noise, too light tails (Gaussian noise, truncated
    noise), too heavy tails (a mixture), a fixed pattern in the last bits, a wrong scale
    (ε/Δf, Δf, Δf·ε, no Δf, the standard deviation used for the scale), correlated coordinates or
    successive calls, the same noise in every coordinate, the noise without the true answer, noise
    not drawn from the ``rng`` argument, or a wrong shape of the output. Last, every release is
    compared with the replay of the generator the function was handed (``_replay_problem``): exact, so
    it adds no false failure, and it catches what no statistic can (an exact release now and then, a
    far tail redrawn or clamped, a keyed channel in the low bits); the long run's generator has a noise
    planted beyond ±30·b (``_planted``), so a tail changed anywhere within that reach changes a release.
    """
    task = "my_laplace_mechanism(true_answer, sensitivity, epsilon, rng)"
    if function is None or function is Ellipsis:
        return check_function(function, [], task=task, success="")
    if not hasattr(function, "run_cases"):
        if not callable(function):
            return check_function(function, [], task=task, success="")
        try:
            first = function(42.0, 1.0, 1.0, np.random.default_rng(0))
        except Exception:   # the student's code: check_function below reports the error with its case
            first = 0.0
        if first is None or first is Ellipsis:
            return Feedback(None, f"Not answered yet: {task} returns nothing (write its body, with a `return`, "
                                  "and run the cell again).")
    fresh = random.SystemRandom() if hasattr(function, "run_cases") else None
    return check_function(
        function, _mechanism_cases(fresh), task=task,
        success="f(x) + Lap(Δf/ε) independently in each coordinate: Definition 3.3, in two lines of numpy.",
        same=lambda got, expected: _diagnose(got, expected) is None,
        forbidden=("laplace_mechanism", "laplace_scale", "textbook_laplace_mechanism", "textbook_laplace",
                   "release_counting_queries", "discrete_laplace_mechanism", "gaussian_mechanism"),
        describe=lambda case, got: _capitalised(_diagnose(got, case.expected) or ""),
        runner=run_mechanism)


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]
