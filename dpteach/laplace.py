"""The Laplace distribution and the Laplace mechanism (Dwork & Roth, §3.3, pp. 31–34)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _validate

_WHY_SENS = "the sensitivity Δf is the largest change one person can cause, a positive number"


def laplace_pdf(x, scale: float) -> np.ndarray | float:
    """Density of Lap(b), the Laplace distribution centred at 0 (Definition 3.2).

    .. math:: \\mathrm{Lap}(x \\mid b) = \\frac{1}{2b} \\exp\\left(-\\frac{|x|}{b}\\right)

    Parameters
    ----------
    x : float or array_like
        Points at which to evaluate the density (±inf allowed; NaN is not).
    scale : float
        b > 0. The mean is 0, the variance 2b², and E|Y| = b.
    """
    b = _validate.positive("scale", scale, why="the Laplace scale b is a width")
    xs = _validate.array("x", x, nonempty=False, allow_inf=True)
    out = np.exp(-np.abs(xs) / b) / (2 * b)
    return out if out.ndim else float(out)


def laplace_logpdf(x, scale: float) -> np.ndarray | float:
    """Log-density of Lap(b): ln Lap(x | b) = −|x|/b − ln(2b). Finite far into the tails,
    where the density itself underflows to 0."""
    b = _validate.positive("scale", scale, why="the Laplace scale b is a width")
    xs = _validate.array("x", x, nonempty=False, allow_inf=True)
    out = -np.abs(xs) / b - np.log(2 * b)
    return out if out.ndim else float(out)


def laplace_cdf(x, scale: float) -> np.ndarray | float:
    """Cumulative distribution function of Lap(b).

    .. math:: F(x) = \\tfrac12 e^{x/b} \\text{ for } x < 0, \\qquad 1 - \\tfrac12 e^{-x/b} \\text{ for } x \\ge 0
    """
    b = _validate.positive("scale", scale, why="the Laplace scale b is a width")
    xs = _validate.array("x", x, nonempty=False, allow_inf=True)
    half = 0.5 * np.exp(-np.abs(xs) / b)
    out = np.where(xs < 0, half, 1.0 - half)
    return out if out.ndim else float(out)


def laplace_tail(t) -> np.ndarray | float:
    """Fact 3.7: if Y ~ Lap(b) then Pr[|Y| ≥ t·b] = exp(−t), for t ≥ 0 (whatever b is)."""
    ts = _validate.array("t", t, nonempty=False, allow_inf=True, nonnegative=True)
    out = np.exp(-ts)
    return out if out.ndim else float(out)


def laplace_scale(sensitivity: float, epsilon: float) -> float:
    """The scale the Laplace mechanism uses: b = Δf / ε."""
    s = _validate.positive("sensitivity", sensitivity, why=_WHY_SENS)
    e = _validate.epsilon(epsilon)
    b = s / e
    if not np.isfinite(b):
        raise ValueError(f"sensitivity / epsilon = {s:g} / {e:g} overflows to an infinite noise scale; "
                         "use a sensitivity and an epsilon whose ratio is a finite number")
    return b


def laplace_mechanism(true_answer, sensitivity: float, epsilon: float,
                      rng: np.random.Generator | None = None) -> np.ndarray | float:
    """The Laplace mechanism M_L(x, f, ε) = f(x) + (Y₁, …, Y_k), Y_i i.i.d. Lap(Δf/ε) (Definition 3.3).

    It is (ε, 0)-differentially private (Theorem 3.6) whenever ``sensitivity`` is at least
    the true ℓ1-sensitivity Δf of the query that produced ``true_answer``.

    Parameters
    ----------
    true_answer : float or array_like
        f(x): one number or k numbers (any shape; every entry gets its own noise).
    sensitivity : float
        Δf > 0, the ℓ1-sensitivity of f over *all* the coordinates together.
    epsilon : float
        ε > 0. Smaller ε, more privacy, more noise.
    rng : numpy.random.Generator, optional
        Source of randomness; ``None`` uses a fresh unseeded generator.

    Returns
    -------
    float or numpy.ndarray
        The noisy answer, with the shape of ``true_answer`` (a float for a scalar).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> noisy = laplace_mechanism([120, 45, 3], sensitivity=1, epsilon=1.0, rng=rng)
    >>> noisy.shape
    (3,)
    """
    answer = _validate.array("true_answer", true_answer)
    b = laplace_scale(sensitivity, epsilon)
    gen = _validate.rng(rng)
    out = answer + gen.laplace(0.0, b, size=answer.shape)
    return out if out.ndim else float(out)


def _query_vectors(fx, fy) -> tuple[np.ndarray, np.ndarray]:
    a = _validate.array("fx", fx, ndim=(0, 1))
    b = _validate.array("fy", fy, ndim=(0, 1))
    if a.shape != b.shape:
        raise ValueError(f"fx and fy must have the same shape, got {a.shape} and {b.shape}")
    return np.atleast_1d(a), np.atleast_1d(b)


def _outputs(z, k: int) -> np.ndarray:
    zs = _validate.array("z", z, nonempty=False)
    if k == 1:
        return zs[..., np.newaxis]
    if zs.ndim == 0 or zs.shape[-1] != k:
        raise ValueError(f"z must have a last axis of length k = {k} (one output vector per row), "
                         f"got shape {zs.shape}")
    return zs


def privacy_loss(z, fx, fy, sensitivity: float, epsilon: float) -> np.ndarray | float:
    """Privacy loss of the Laplace mechanism at output z: ln p_x(z) / p_y(z).

    .. math:: L(z) = \\sum_{i=1}^{k} \\frac{ε\\,(|f(y)_i - z_i| - |f(x)_i - z_i|)}{Δf}

    where p_x, p_y are the densities of M_L(x, f, ε) and M_L(y, f, ε). Theorem 3.6 says
    that when x and y are neighbours and ``sensitivity`` ≥ ‖f(x) − f(y)‖₁, L(z) lies in
    [−ε, ε] for every z.

    Parameters
    ----------
    z : float or array_like
        Outputs. For a scalar query any shape; for a k-dimensional query the last axis
        has length k.
    fx, fy : float or 1-d array_like
        The true answers on the two databases.
    sensitivity, epsilon : float
        The Δf and ε the noise was calibrated with (b = Δf/ε).
    """
    x, y = _query_vectors(fx, fy)
    b = laplace_scale(sensitivity, epsilon)
    zs = _outputs(z, x.size)
    loss = ((np.abs(y - zs) - np.abs(x - zs)) / b).sum(axis=-1)
    return loss if loss.ndim else float(loss)


@dataclass(frozen=True)
class ProofSteps:
    """Each expression in the chain of Theorem 3.6's proof, evaluated at outputs z.

    ``ratio`` is p_x(z)/p_y(z) from the densities themselves; the others are the lines of
    the proof in order; ``ratio == product ≤ triangle == norm ≤ bound`` must hold pointwise.
    """

    ratio: np.ndarray      # p_x(z) / p_y(z), from the two (log-)densities
    product: np.ndarray    # ∏ exp(ε(|f(y)_i − z_i| − |f(x)_i − z_i|)/Δf)
    triangle: np.ndarray   # ∏ exp(ε|f(x)_i − f(y)_i|/Δf)          (triangle inequality)
    norm: np.ndarray       # exp(ε‖f(x) − f(y)‖₁/Δf)
    bound: float           # exp(ε)                                 (definition of Δf)

    def holds(self, rtol: float = 1e-12) -> bool:
        """Whether every step of the chain holds at every z (up to rounding)."""
        slack = 1 + rtol
        return bool(np.allclose(self.ratio, self.product, rtol=1e-9)
                    and (self.product <= self.triangle * slack).all()
                    and np.allclose(self.triangle, self.norm, rtol=1e-12)
                    and (self.norm <= self.bound * slack).all())


def proof_steps(z, fx, fy, sensitivity: float, epsilon: float) -> ProofSteps:
    """Evaluate every line of Theorem 3.6's proof at the outputs z (see :class:`ProofSteps`).

    The last step, norm ≤ bound, needs ‖f(x) − f(y)‖₁ ≤ ``sensitivity``: pass fx, fy that
    differ by more than the claimed Δf and ``holds()`` turns False.
    """
    x, y = _query_vectors(fx, fy)
    b = laplace_scale(sensitivity, epsilon)
    eps = _validate.epsilon(epsilon)
    zs = _outputs(z, x.size)
    # The densities underflow to 0 far in the tails; their logs do not.
    ratio = np.exp(laplace_logpdf(zs - x, b).sum(axis=-1) - laplace_logpdf(zs - y, b).sum(axis=-1))
    product = np.prod(np.exp((np.abs(y - zs) - np.abs(x - zs)) / b), axis=-1)
    triangle = np.broadcast_to(np.prod(np.exp(np.abs(x - y) / b)), product.shape)
    norm = np.broadcast_to(np.exp(np.abs(x - y).sum() / b), product.shape)
    return ProofSteps(ratio=ratio, product=product, triangle=np.array(triangle),
                      norm=np.array(norm), bound=float(np.exp(eps)))
