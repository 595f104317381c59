"""Parameter checks shared by every public function.

Each check raises ``ValueError`` (or ``TypeError`` for a value of the wrong kind) with a
message that names the parameter, shows the value it got and states the allowed range,
so that a student who mistypes a slider value reads what went wrong, not a stack of numpy
internals.
"""

from __future__ import annotations

import math
import numbers
import operator

import numpy as np


def real(name: str, value, *, low: float | None = None, high: float | None = None,
         low_open: bool = True, high_open: bool = False, why: str = "") -> float:
    """Return ``value`` as a float after checking it is a finite real in the given range.

    ``low``/``high`` bound the range; ``low_open``/``high_open`` say whether the ends are
    excluded. ``why`` is appended to the message (the reason the range is what it is).
    """
    if type(value) is float:                # the common case, checked first: a root finder calls this ~50 times
        x = value
    elif isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r} of type {type(value).__name__}")
    else:
        x = float(value)
    bad = not math.isfinite(x)
    if low is not None and (x <= low if low_open else x < low):
        bad = True
    if high is not None and (x >= high if high_open else x > high):
        bad = True
    if bad:
        raise ValueError(f"{name} must be {_describe(low, high, low_open, high_open)}, got {value!r}"
                         + (f"; {why}" if why else ""))
    return x


def positive(name: str, value, why: str = "") -> float:
    """A finite real number > 0."""
    return real(name, value, low=0.0, low_open=True, why=why)


#: Why ε must be > 0, said the same way wherever an ε is checked.
WHY_EPSILON = "epsilon = 0 would mean infinite noise, and epsilon < 0 means nothing"


def epsilon(value, name: str = "epsilon") -> float:
    """A privacy parameter ε: a finite real number > 0 (Definition 3.3 divides by it)."""
    return positive(name, value, why=WHY_EPSILON)


def integer(name: str, value, *, low: int | None = None, high: int | None = None, why: str = "") -> int:
    """An integer (Python or numpy; not bool, not a float) within ``[low, high]``."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    try:
        n = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {value!r} of type {type(value).__name__}") from None
    if (low is not None and n < low) or (high is not None and n > high):
        if high is None:
            allowed = f"an integer >= {low}"
        elif low is None:
            allowed = f"an integer <= {high}"
        else:
            allowed = f"an integer in [{low}, {high}]"
        raise ValueError(f"{name} must be {allowed}, got {value!r}" + (f"; {why}" if why else ""))
    return n


def array(name: str, value, *, ndim: tuple[int, ...] | None = None, nonempty: bool = True,
          nonnegative: bool = False, allow_inf: bool = False) -> np.ndarray:
    """A real-valued array (as float64) with no NaN (and no ±inf unless allowed).

    Booleans are accepted on purpose and read as 0/1: a database of yes/no answers is a
    natural input to a count. (A lone ``True`` for a *parameter* is refused by ``real``.)
    """
    try:
        a = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a number or an array of numbers, got {value!r}") from exc
    if a.dtype == object or a.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be a number or an array of real numbers, got {value!r}")
    a = a.astype(np.float64, copy=False)
    if ndim is not None and a.ndim not in ndim:
        shapes = " or ".join({0: "a scalar", 1: "a 1-d array", 2: "a 2-d array"}.get(d, f"{d}-d") for d in ndim)
        raise ValueError(f"{name} must be {shapes}, got an array of shape {a.shape}")
    if nonempty and a.size == 0:
        raise ValueError(f"{name} must not be empty, got an array of shape {a.shape}")
    if np.isnan(a).any():
        raise ValueError(f"{name} must not contain NaN, got {_short(a)}")
    if not allow_inf and np.isinf(a).any():
        raise ValueError(f"{name} must be finite, got {_short(a)}")
    if nonnegative and (a < 0).any():
        raise ValueError(f"{name} must be >= 0 everywhere, got {_short(a)}")
    return a


def rng(value) -> np.random.Generator:
    """``None`` → a fresh unseeded Generator; a Generator passes through; anything else is refused."""
    if value is None:
        return np.random.default_rng()
    if isinstance(value, np.random.Generator):
        return value
    raise TypeError(
        f"rng must be a numpy.random.Generator (e.g. numpy.random.default_rng(0)) or None, got {value!r}")


def delta(name: str, value) -> float:
    """δ of (ε, δ)-DP (Dwork & Roth, Definition 2.4) as a charge or a slack takes it: 0 ≤ δ < 1."""
    return real(name, value, low=0.0, high=1.0, low_open=False, high_open=True,
                why="δ is the additive slack in Definition 2.4 of (ε, δ)-DP; δ = 1 would promise nothing")


def size(size) -> tuple[int, ...]:
    """A sampler's ``size`` argument as a shape: None is one draw (``()``), an int or a tuple of ints ≥ 0."""
    if size is None:
        return ()
    if isinstance(size, tuple):
        return tuple(integer("size", s, low=0) for s in size)
    return (integer("size", size, low=0),)


def _describe(low, high, low_open, high_open) -> str:
    if low is not None and high is not None:
        lb = "(" if low_open else "["
        rb = ")" if high_open else "]"
        return f"a finite number in {lb}{low:g}, {high:g}{rb}"
    if low is not None:
        return f"a finite number {'>' if low_open else '>='} {low:g}"
    if high is not None:
        return f"a finite number {'<' if high_open else '<='} {high:g}"
    return "a finite number"


def _short(a: np.ndarray) -> str:
    return np.array2string(a, threshold=6, edgeitems=2)
