"""Checkers for chapter 03: the Laplace mechanism (Definition 3.3) and its proof (Theorem 3.6)."""

from __future__ import annotations

import math

import numpy as np

from ..laplace import laplace_scale, privacy_loss
from ..sensitivity import l1_sensitivity
from ._base import Case, Feedback, Mistake, check_choice, check_function, compare

__all__ = ["check_scale_for_overlapping_counts", "check_understated_loss", "check_gaussian_proof_step",
           "check_my_laplace_mechanism"]


def check_scale_for_overlapping_counts(answer, k: int = 3, epsilon: float = 0.5) -> Feedback:
    """Ch. 03, exercise 1: the Laplace scale for 3 counts that one person can all change, at ε = 0.5."""
    universe = np.arange(2)
    sensitivity = l1_sensitivity(lambda x: np.full(k, x[1]), universe, max_size=1)
    expected = laplace_scale(sensitivity, epsilon)
    mistakes = [
        Mistake(laplace_scale(1.0, epsilon), f"you used Δf = 1, the sensitivity of ONE count. One person changes all "
                                             f"{k} counts, and Δf is the ℓ1 norm of the change over all of them."),
        Mistake(sensitivity, "that is Δf itself: you forgot to divide by ε."),
        Mistake(sensitivity * epsilon, "you multiplied Δf by ε; the scale is Δf divided by ε (smaller ε, more noise)."),
        Mistake(epsilon / sensitivity, "that is ε/Δf, upside down: b = Δf/ε."),
        Mistake(laplace_scale(sensitivity / k, epsilon) * math.sqrt(k), "you used a √k (ℓ2) sensitivity; the "
                                                                        "Laplace mechanism needs the ℓ1 sensitivity."),
        Mistake(1.0 * epsilon, "you used Δf = 1 and multiplied by ε: one person changes all the counts, and the "
                               "scale is Δf divided by ε."),
    ]
    return compare(answer, expected,
                   f"Δf = {sensitivity:g} (one person changes all {k} counts), so b = Δf/ε = {expected:g}.",
                   "First find Δf over all three coordinates together (ℓ1), then b = Δf/ε.", mistakes=mistakes)


def check_understated_loss(answer, epsilon: float = 1.0) -> Feedback:
    """Ch. 03, exercise 2: the worst privacy loss when the noise is calibrated to Δf = 0.5 but the
    neighbours' counts differ by 1, at ε = 1."""
    z = np.linspace(-20, 21, 4101)
    expected = float(np.abs(privacy_loss(z, 0.0, 1.0, 0.5, epsilon)).max())
    mistakes = [
        Mistake(epsilon, "that is the promised ε. Theorem 3.6 only holds when the noise is calibrated to the real "
                         "Δf; here it is calibrated to half of it. Compute the loss far from both answers."),
        Mistake(math.exp(expected), "that is the ratio p_x/p_y of the densities; the privacy loss is its logarithm."),
        Mistake(0.5 * epsilon, "you multiplied the calibrated Δf = 0.5 by ε. The noise scale is b = 0.5/ε, and far "
                               "from both answers the loss is |f(x) − f(y)|/b."),
        Mistake(math.exp(epsilon), "that is e^ε, the ratio Theorem 3.6 would promise; the loss is a logarithm, "
                                   "and here the promise does not hold."),
    ]
    return compare(answer, expected,
                   f"b = 0.5/ε, and far from both answers the loss is |f(x) − f(y)|/b = {expected:g} = 2ε: "
                   "the promised ε is broken by a factor 2.",
                   "Far to the left of both answers the loss is constant: (|f(y) − z| − |f(x) − z|)/b. "
                   "What is b here?", rel=1e-6, mistakes=mistakes)


# -- a proof question: why the same proof fails for Gaussian noise --------------------------------

_GAUSSIAN_STEP = {
    "a": (False, "Step 1 still holds: Gaussian noise is independent in each coordinate, so the density is a product "
                 "and the normalising constants cancel in the ratio, exactly as for Laplace."),
    "b": (True, "Right. For Laplace, |f(y)ᵢ − zᵢ| − |f(x)ᵢ − zᵢ| ≤ |f(x)ᵢ − f(y)ᵢ| whatever z is (the triangle "
                "inequality), so each coordinate's exponent is bounded by a constant. For Gaussian noise the "
                "exponent is ((zᵢ − f(y)ᵢ)² − (zᵢ − f(x)ᵢ)²)/(2σ²) = (f(x)ᵢ − f(y)ᵢ)(2zᵢ − f(x)ᵢ − f(y)ᵢ)/(2σ²): "
                "it grows linearly in zᵢ, without bound. Squares have no triangle inequality |a|² − |b|² ≤ |a − b|², "
                "so no ε bounds the ratio at every z; the Gaussian mechanism only gets (ε, δ), δ paying for the "
                "rare far-out z (chapter 08)."),
    "c": (False, "Step 3 is algebra (a product of exponentials is the exponential of the sum) and holds for any "
                 "exponents, Gaussian or not. The trouble comes one step earlier."),
    "d": (False, "Step 4 would need the ℓ2 sensitivity for Gaussian noise, but that is a change of norm, not the "
                 "failure: by Step 4 there must already be a bound that does not depend on z, and for Gaussian "
                 "noise there is none."),
    "e": (False, "Integrating a pointwise bound over S is always valid. The problem is that for Gaussian noise "
                 "there is no pointwise bound p_x(z) ≤ e^ε·p_y(z) holding at every z to integrate."),
}


def check_gaussian_proof_step(answer) -> Feedback:
    """Ch. 03, exercise 3 (proof): which step of Theorem 3.6's proof fails for Gaussian noise, and why.

    Options: (a) Step 1, the ratio is one product; (b) Step 2, the triangle inequality bounds
    each coordinate's exponent independently of z; (c) Step 3, product of exponentials is the
    exponential of the sum; (d) Step 4, the definition of Δf; (e) integrating the density bound
    over a set S.
    """
    return check_choice(answer, _GAUSSIAN_STEP,
                        question="Which step of Theorem 3.6's proof fails when the noise is Gaussian?")


# -- a function the student writes: the Laplace mechanism itself ----------------------------------

#: How many releases each hidden case draws from the student's function (one seeded generator).
DRAWS = 4_000
#: The band, in standard errors, for the two statistics of the pooled standardised noise.
BAND = 6.0


class _Releases:
    """What the student's function produced on one hidden case: ``draws`` releases, stacked."""

    def __init__(self, values: np.ndarray, reproducible: bool) -> None:
        self.values = values
        self.reproducible = reproducible

    def __repr__(self) -> str:
        shape = self.values.shape[1:]
        return f"{self.values.shape[0]:,} releases" + (f" of shape {shape}" if shape else " of one number")


def _run(function):
    """Wrap the student's mechanism: call it DRAWS times with one seeded generator per case."""

    def run(true_answer, sensitivity, epsilon, seed):
        rng = np.random.default_rng(seed)
        draws = [function(true_answer, sensitivity, epsilon, rng) for _ in range(DRAWS)]
        if any(d is None for d in draws):
            raise ValueError("the function returned None: did you forget `return`?")
        values = np.array([np.asarray(d, dtype=float) for d in draws])
        again = np.asarray(function(true_answer, sensitivity, epsilon, np.random.default_rng(seed)), dtype=float)
        reproducible = again.shape == values[0].shape and bool(np.array_equal(again, values[0]))
        return _Releases(values, reproducible)

    return run


def _mechanism_cases() -> list[Case]:
    """Scalar and vector answers, several Δf and ε (chosen so that Δf/ε ≠ ε/Δf, Δf ≠ 1/ε …)."""
    settings = [
        ("one count 42, Δf = 1, ε = 1", 42.0, 1.0, 1.0),
        ("one count 42, Δf = 1, ε = 0.5", 42.0, 1.0, 0.5),
        ("a sum 250 clipped at Δf = 10, ε = 2", 250.0, 10.0, 2.0),
        ("three overlapping counts [9, 6, 3], Δf = 3, ε = 1", [9.0, 6.0, 3.0], 3.0, 1.0),
        ("a 5-cell histogram, Δf = 1, ε = 4", [120.0, 45.0, 3.0, 0.0, 17.0], 1.0, 4.0),
        ("two counts [−5, 7.5], Δf = 2, ε = 0.25", [-5.0, 7.5], 2.0, 0.25),
    ]
    return [Case(label, (answer, sens, eps, 2014 + i),
                 expected={"true": np.asarray(answer, dtype=float), "scale": laplace_scale(sens, eps),
                           "sensitivity": sens, "epsilon": eps})
            for i, (label, answer, sens, eps) in enumerate(settings)]


def _diagnose(got, expected) -> str | None:
    """None if the releases look like f(x) + Lap(Δf/ε) per coordinate; else what is wrong.

    The standardised noise u = (release − f(x))/b of a correct mechanism is i.i.d. Lap(1): its mean
    is 0 with standard deviation √2, and |u| has mean 1 and standard deviation 1. Pooling the N
    entries of a case, the mean of u is tested within ±6·√(2/N) and the mean of |u| within
    1 ± 6/√N. For N ≥ 4,000 both means are very nearly normal, so a correct mechanism fails either
    band with probability about 2·10⁻⁹ per case (normal tails at 6 standard errors), under 3·10⁻⁸
    over all the cases and both tests. The seed is fixed, so the verdict on one function never
    changes between runs.
    """
    if not isinstance(got, _Releases):
        return "the function must return the released value(s)."
    true, b = expected["true"], expected["scale"]
    values = got.values
    if values.shape[1:] != true.shape:
        want = "one number" if true.ndim == 0 else f"an array of shape {true.shape}, one value per coordinate"
        return f"it should return {want}, like true_answer; it returned shape {values.shape[1:] or '()'}."
    if not np.isfinite(values).all():
        return "it returned NaN or infinite values."
    noise = values - true
    if np.all(noise == 0):
        return "it adds no noise at all: Definition 3.3 adds Lap(Δf/ε) to the true answer."
    if not got.reproducible:
        return ("called twice with generators seeded alike, it gave different releases: draw the noise from the "
                "rng argument (rng.laplace(...)), not from a fresh or global generator.")
    if true.ndim >= 1 and true.size > 1 and np.allclose(noise, noise.reshape(len(noise), -1)[:, :1].reshape(
            (len(noise),) + (1,) * true.ndim)):
        return ("every coordinate got the same noise. Definition 3.3 adds independent Y₁, …, Y_k, one per "
                "coordinate: draw an array of noise with the shape of true_answer.")
    n = noise.size
    if not np.any(true == 0) and np.allclose(values.mean(), 0, atol=BAND * b * math.sqrt(2 / n)) \
            and abs(noise.mean()) > BAND * b * math.sqrt(2 / n):
        return "it returns the noise alone: the mechanism adds the noise TO the true answer."
    u = noise / b
    if abs(u.mean()) > BAND * math.sqrt(2 / n):
        return "its noise is not centred at 0 (the releases are biased): Lap(b) has mean 0."
    spread = float(np.abs(u).mean())
    if abs(spread - 1) <= BAND / math.sqrt(n):
        return None
    sens, eps = expected["sensitivity"], expected["epsilon"]
    wrong_scales = [
        (eps / sens, "ε/Δf", "its noise has scale ε/Δf: upside down, the scale is b = Δf/ε (smaller ε, more noise)."),
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
    return (f"its noise has the wrong size: E|noise| should be b = Δf/ε, and here it is {spread:.3g}·b. "
            "Use numpy's rng.laplace(0, b, size=...) with b = Δf/ε.")


def check_my_laplace_mechanism(function) -> Feedback:
    """Ch. 03, exercise 4: the student writes ``my_laplace_mechanism(true_answer, sensitivity, epsilon, rng)``,
    Definition 3.3, without calling dpteach's Laplace mechanism or its scale.

    Six hidden cases (one count, a clipped sum, overlapping counts, a histogram, Δf ≠ 1, several ε);
    each calls the function 4,000 times with one seeded generator and tests, on the pooled standardised
    noise, the centre (mean 0) and the scale (E|Y| = b = Δf/ε) in 6-standard-error bands: a correct
    function fails with probability under 3·10⁻⁸ over the whole check (see ``_diagnose``), and the seeds
    are fixed, so a verdict never changes between runs. A failure names the case and, when it matches
    one, the mistake: scale ε/Δf, Δf or Δf·ε, no Δf, the standard deviation used for the scale,
    Gaussian noise, the same noise in every coordinate, the noise without the true answer, noise not
    drawn from the ``rng`` argument, or a wrong shape.
    """
    task = "my_laplace_mechanism(true_answer, sensitivity, epsilon, rng)"
    if function is None or function is Ellipsis or not callable(function):
        return check_function(function, [], task=task, success="")
    try:
        first = function(42.0, 1.0, 1.0, np.random.default_rng(0))
    except Exception:   # the student's code: check_function below reports the error with its case
        first = 0.0
    if first is None or first is Ellipsis:
        return Feedback(None, f"Not answered yet: {task} returns nothing (write its body, with a `return`, "
                              "and run the cell again).")
    return check_function(
        _run(function), _mechanism_cases(), task=task,
        success="f(x) + Lap(Δf/ε) independently in each coordinate: Definition 3.3, in two lines of numpy.",
        same=lambda got, expected: _diagnose(got, expected) is None,
        forbidden=("laplace_mechanism", "laplace_scale", "textbook_laplace_mechanism", "textbook_laplace",
                   "release_counting_queries", "discrete_laplace_mechanism", "gaussian_mechanism"),
        describe=lambda case, got: _capitalised(_diagnose(got, case.expected) or ""))


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]
