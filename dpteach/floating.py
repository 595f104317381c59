"""Laplace noise in floating point, and the attack it invites (Mironov, CCS 2012).

The textbook way to draw Lap(b) is the inverse CDF: a uniform u on (−½, ½) and

.. math:: Y = -b \\cdot \\operatorname{sign}(u) \\cdot \\ln(1 - 2|u|).

On a computer u is a double on a grid of spacing 2⁻⁵³, ln is rounded, b·ln(…) is rounded,
and so is the sum f(x) + Y. The released double can take only finitely many values,
and *which* values depends on f(x): rounding f(x) + Y lands on a different set of doubles
when f(x) = 0 than when f(x) = 1. An output that the mechanism can produce from one true
value and never from the other tells the attacker the true value with certainty, an
infinite privacy loss (Mironov, "On Significance of the Least Significant Bits for
Differential Privacy", CCS 2012).

This module holds the textbook sampler, written as one fixed sequence of float64
operations, and a test of *exact reachability*: whether a given double is an output the
sampler can produce from a given true value.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _validate
from ._validate import size as _size
from .laplace import laplace_scale

#: u = k·2⁻⁵³ − ½ for k = 1, …, 2⁵³ − 1: the uniform double on (−½, ½) the sampler uses.
GRID_BITS = 53
_TWO52 = 2.0**52


def _noise_from_m(m: np.ndarray, sign: np.ndarray, b: float) -> np.ndarray:
    """The sampler's last float operations: −b·sign(u)·ln(m) with m = 1 − 2|u| (exact in float64)."""
    return -b * sign * np.log(m)


def textbook_laplace(scale: float, size: int | tuple[int, ...] | None = None,
                     rng: np.random.Generator | None = None) -> np.ndarray | float:
    """Lap(b) drawn the textbook way in float64: Y = −b·sign(u)·ln(1 − 2|u|).

    u = k·2⁻⁵³ − ½ with k uniform on {1, …, 2⁵³ − 1} (every double of that grid in (−½, ½)).
    The steps u, 2|u| and 1 − 2|u| are exact in float64 (1 − 2|u| is a multiple of 2⁻⁵² in
    (0, 1]); the logarithm and the product with b are rounded. This is the sampler whose
    rounding Mironov (2012) exploits; it is here to be attacked, not used.

    Parameters
    ----------
    scale : float
        b > 0.
    size : int or tuple, optional
    rng : numpy.random.Generator, optional

    Examples
    --------
    >>> import numpy as np
    >>> y = textbook_laplace(1.0, size=100_000, rng=np.random.default_rng(0))
    >>> bool(abs(y.var() - 2.0) < 0.1)
    True
    """
    b = _validate.positive("scale", scale, why="the Laplace scale b is a width")
    shape = _size(size)
    gen = _validate.rng(rng)
    k = gen.integers(1, 2**GRID_BITS, size=shape)
    u = k * 2.0**-GRID_BITS - 0.5
    out = _noise_from_m(1.0 - 2.0 * np.abs(u), np.sign(u), b)
    return out if np.ndim(out) else float(out)


def textbook_laplace_mechanism(true_answer, sensitivity: float, epsilon: float,
                               rng: np.random.Generator | None = None) -> np.ndarray | float:
    """f(x) + Y in float64 with Y from :func:`textbook_laplace` at b = Δf/ε (Definition 3.3, naively).

    On paper it is the Laplace mechanism. In floating point it is not ε-differentially
    private: see :func:`textbook_reachable` and :func:`floating_point_attack`.
    """
    answer = _validate.array("true_answer", true_answer)
    b = laplace_scale(sensitivity, epsilon)
    out = answer + textbook_laplace(b, size=answer.shape, rng=rng)
    return out if np.ndim(out) else float(out)


def textbook_reachable(z, true_value: float, sensitivity: float, epsilon: float, window: int = 4) -> np.ndarray | bool:
    """Whether the textbook mechanism can output exactly the double z when f(x) = ``true_value``.

    The noise is a rounded function of the integer j = 2⁵²·(1 − 2|u|) ∈ {1, …, 2⁵²} and a
    sign: z is reachable when fl(f(x) + s·fl(b·fl(−ln(j·2⁻⁵²)))) = z for some j and s.
    Every step is monotone in j, so the j that give z form one run of consecutive
    integers. We invert the formula, j ≈ 2⁵²·e^{−|z − f(x)|/b}, and try every j within
    a margin of that estimate: ``window`` plus the width of the run of j that round to
    the same output, (|z| + |f(x)| + 1)·2⁻⁵¹·j/b + 1. The margin covers the inverse's
    rounding error many times over; the tests check that every output actually sampled
    from a true value is found reachable from it (no false "unreachable").

    Parameters
    ----------
    z : float or array_like
        Outputs (float64).
    true_value : float
        f(x), the true answer the mechanism would be run on.
    sensitivity, epsilon : float
        Δf and ε, so that b = Δf/ε.
    window : int, optional
        Extra integers j tried on each side of the estimate (default 4).

    Examples
    --------
    >>> import numpy as np
    >>> z = textbook_laplace_mechanism(np.zeros(1000), 1, 1, rng=np.random.default_rng(0))
    >>> bool(textbook_reachable(z, 0.0, 1, 1).all())
    True
    """
    zs = _validate.array("z", z, nonempty=False)
    fx = _validate.real("true_value", true_value)
    b = laplace_scale(sensitivity, epsilon)
    w = _validate.integer("window", window, low=0)
    flat = zs.ravel()
    found = np.zeros(flat.shape, dtype=bool)
    gap = flat - fx
    with np.errstate(over="ignore", under="ignore"):
        centre = np.floor(_TWO52 * np.exp(-np.abs(gap) / b))
    width = np.ceil((np.abs(flat) + abs(fx) + 1.0) * 2.0**-51 * centre / b) + 1 + w
    span = int(width.max()) if flat.size else 0
    if span > 100_000:
        raise ValueError(f"epsilon = {epsilon!r} with sensitivity = {sensitivity!r} makes b = {b:g} too small for the "
                         "exact search (over 10⁵ candidates per output); use b ≥ 0.01")
    for sign in (1.0, -1.0):
        for offset in range(-span, span + 1):
            j = centre + offset
            ok = (j >= 1) & (j <= _TWO52) & (abs(offset) <= width)
            if not ok.any():
                continue
            m = np.where(ok, j, 1.0) * 2.0**-52
            candidate = fx + _noise_from_m(m, np.full(m.shape, sign), b)
            found |= ok & (candidate == flat)
    out = found.reshape(zs.shape)
    return out if out.ndim else bool(out)


@dataclass(frozen=True)
class FloatingPointAttack:
    """The outcome of :func:`floating_point_attack`: one output, two candidate true values."""

    fx: float
    fy: float
    sensitivity: float
    epsilon: float
    n: int                    # outputs drawn from each side
    only_x: float             # fraction of outputs drawn from f(x) that f(y) can never produce
    only_y: float             # and the other way round
    success: float            # attacker's success rate, prior ½ on each side
    bound: float              # e^ε/(1 + e^ε): the best success rate ε-DP allows
    examples: np.ndarray      # a few outputs reachable from f(x) and not from f(y)

    def __repr__(self) -> str:
        return (f"f(x) = {self.fx:g} vs f(y) = {self.fy:g}, b = {self.sensitivity / self.epsilon:g}: "
                f"{self.only_x:.1%} of outputs from f(x) are impossible from f(y) "
                f"({self.only_y:.1%} the other way); one output wins the guess "
                f"{self.success:.1%} of the time, where ε-DP allows at most {self.bound:.1%}")


def floating_point_attack(fx: float = 0.0, fy: float = 1.0, sensitivity: float = 1.0, epsilon: float = 1.0,
                          n: int = 10_000, rng: np.random.Generator | None = None) -> FloatingPointAttack:
    """Mironov's attack on the textbook float64 Laplace mechanism, from a single output.

    The attacker sees one output z of M(x) or M(y) (each with probability ½). If z is not
    reachable from f(y) it must come from x, and vice versa; only when z is reachable from
    both does the attacker have to guess, and then guesses the side with the larger
    Laplace density (the best guess for the ideal mechanism). Its success rate is compared
    with e^ε/(1 + e^ε), the most an attacker can reach against an ε-DP mechanism with one
    output and a fair prior.

    Parameters
    ----------
    fx, fy : float
        The two true answers (neighbours: |fx − fy| ≤ Δf).
    sensitivity, epsilon : float
        Δf and ε.
    n : int
        Outputs drawn from each side.
    rng : numpy.random.Generator, optional
    """
    x = _validate.real("fx", fx)
    y = _validate.real("fy", fy)
    count = _validate.integer("n", n, low=1)
    laplace_scale(sensitivity, epsilon)   # validates sensitivity and epsilon before any sampling
    gen = _validate.rng(rng)
    from_x = textbook_laplace_mechanism(np.full(count, x), sensitivity, epsilon, gen)
    from_y = textbook_laplace_mechanism(np.full(count, y), sensitivity, epsilon, gen)
    x_also_y = textbook_reachable(from_x, y, sensitivity, epsilon)
    y_also_x = textbook_reachable(from_y, x, sensitivity, epsilon)

    def says_x(z, also_other, from_side_x):
        """True when the attacker answers 'x' on outputs z."""
        closer_x = np.abs(z - x) < np.abs(z - y)
        if from_side_x:
            return np.where(also_other, closer_x, True)      # unreachable from y → certainly x
        return np.where(also_other, closer_x, False)         # unreachable from x → certainly y

    wins = says_x(from_x, x_also_y, True).sum() + (~says_x(from_y, y_also_x, False)).sum()
    return FloatingPointAttack(fx=x, fy=y, sensitivity=float(sensitivity), epsilon=float(epsilon), n=count,
                               only_x=float(np.mean(~x_also_y)), only_y=float(np.mean(~y_also_x)),
                               success=float(wins / (2 * count)),
                               bound=float(np.exp(epsilon) / (1 + np.exp(epsilon))),
                               examples=from_x[~x_also_y][:5])
