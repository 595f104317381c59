"""The shipped calibration table: σ(k, p, ε, δ) of the Generalized Gaussian mechanism, interpolated.

Calibrating σ with the accountant (:func:`dpteach.generalized_gaussian_sigma`)
takes a tenth of a second or more, too slow for a slider. So the accountant was run once on
a grid (dpteach/data/gg_calibration.csv, rebuilt by dpteach/data/rebuild_gg_calibration.py)
and :class:`CalibrationTable` interpolates in it; the same script ships E‖X‖∞ at σ = 1 on
the table's (p, k) grid (dpteach/data/gg_linf.csv), read by :func:`unit_linf_table`.
"""

from __future__ import annotations

import functools
import math
from importlib import resources

import numpy as np

from .. import _validate
from .accountant import privacy_loss_distribution
from .distribution import GeneralizedGaussianNoise, check_shape
from .mechanism import generalized_gaussian_sigma

_WHY_K = "k counting queries, k ≥ 1"


#: The grid of dpteach/data/gg_calibration.csv (rebuilt by dpteach/data/rebuild_gg_calibration.py).
TABLE_P = (1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 2.75, 3.0, 3.5, 4.0, 5.0, 6.0, 8.0)
TABLE_K = (10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000)
TABLE_DELTA = tuple(10.0**-e for e in range(2, 11))                 # 1e-2, 1e-3, …, 1e-10
TABLE_EPSILON_RANGE = (0.1, 10.0)
TABLE_SIGMAS = 12


def calibration_table_rows(k: int, p: float, *, resolution: float = 50) -> tuple[np.ndarray, np.ndarray]:
    """One (k, p) block of the calibration table: σ values and ε(σ, δ) for every δ of TABLE_DELTA.

    The σ grid is log-uniform between the calibrated σ at the easiest corner of the table,
    (ε, δ) = (10, 10⁻²), and at the hardest, (0.1, 10⁻¹⁰), with a 10% margin, so every
    (ε, δ) of the table's range is inside it. Each ε comes from the accountant's exact
    inverse :meth:`PrivacyLossDistribution.epsilon`.

    Returns
    -------
    sigmas : numpy.ndarray, shape (TABLE_SIGMAS,)
    epsilons : numpy.ndarray, shape (TABLE_SIGMAS, len(TABLE_DELTA))
    """
    kk = _validate.integer("k", k, low=1, high=10**7, why=_WHY_K)
    pp = check_shape(p)
    e_lo, e_hi = TABLE_EPSILON_RANGE
    # the grid's ends need no precision: the coarse accountant (resolution 25) made the stored table
    low = generalized_gaussian_sigma(kk, pp, e_hi, max(TABLE_DELTA), rtol=1e-4, resolution=25)
    high = generalized_gaussian_sigma(kk, pp, e_lo, min(TABLE_DELTA), rtol=1e-4, resolution=25)
    sigmas = np.geomspace(low / 1.1, high * 1.1, TABLE_SIGMAS)
    eps = np.array([privacy_loss_distribution(GeneralizedGaussianNoise(pp, s), kk, resolution=resolution)
                    .epsilon(np.array(TABLE_DELTA)) for s in sigmas])
    return sigmas, eps


def _gradient(ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """``np.gradient(ys, xs, edge_order=1)`` of 1-d arrays: the same arithmetic, without its argument
    handling (a slider that moves δ builds 24 curves a frame, and np.gradient's overhead was most of it)."""
    if ys.ndim != 1 or ys.size < 2 or xs.shape != ys.shape:
        return np.gradient(ys, xs, edge_order=1)
    dx = np.diff(xs)
    out = np.empty_like(ys, dtype=float)
    if (dx == dx[0]).all():                      # np.gradient's uniform-spacing branch
        out[1:-1] = (ys[2:] - ys[:-2]) / (2. * dx[0])
        dx0 = dxn = dx[0]
    else:
        dx1, dx2 = dx[0:-1], dx[1:]
        a = -(dx2) / (dx1 * (dx1 + dx2))
        b = (dx2 - dx1) / (dx1 * dx2)
        c = dx1 / (dx2 * (dx1 + dx2))
        out[1:-1] = a * ys[:-2] + b * ys[1:-1] + c * ys[2:]
        dx0, dxn = dx[0], dx[-1]
    out[0] = (ys[1] - ys[0]) / dx0
    out[-1] = (ys[-1] - ys[-2]) / dxn
    return out


def _hermite(x: float, xs: np.ndarray, ys: np.ndarray, slopes: np.ndarray | None = None) -> np.ndarray:
    """Cubic Hermite interpolation at x, slopes by finite differences (ys may hold one row per curve;
    pass ``slopes``, np.gradient(ys, xs, axis=-1, edge_order=1), when they are known)."""
    i = min(max(int(np.searchsorted(xs, x)) - 1, 0), xs.size - 2)
    if slopes is None:
        slopes = np.gradient(ys, xs, axis=-1, edge_order=1)
    h = xs[i + 1] - xs[i]
    t = (x - xs[i]) / h
    return ((2 * t**3 - 3 * t**2 + 1) * ys[..., i] + (t**3 - 2 * t**2 + t) * h * slopes[..., i]
            + (-2 * t**3 + 3 * t**2) * ys[..., i + 1] + (t**3 - t**2) * h * slopes[..., i + 1])


class CalibrationTable:
    """σ(k, p, ε, δ) by interpolation in the shipped table of accountant results.

    For each σ of the (k, p) block, ε is interpolated in √ln(1/δ) (between the table's δs),
    then ln σ in ln ε, both by cubic Hermite interpolation. The tests compare it with
    :func:`generalized_gaussian_sigma` across the range: agreement within 0.5%.

    The curve ln σ(ln ε) of a (p, k, δ) and its slopes are kept (up to :attr:`MAX_CURVES`),
    so a slider that moves ε or p at a fixed δ only evaluates a cubic.
    """

    MAX_CURVES = 4096

    def __init__(self, text: str) -> None:
        lines = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
        header = lines[0].split(",")
        deltas = tuple(float(h.split("=")[1]) for h in header[3:])
        if header[:3] != ["p", "k", "sigma"] or not np.allclose(deltas, TABLE_DELTA, rtol=1e-9):
            raise ValueError("gg_calibration.csv does not match TABLE_DELTA: rebuild it "
                             "(python dpteach/data/rebuild_gg_calibration.py)")
        data = np.array([[float(v) for v in ln.split(",")] for ln in lines[1:]])
        self.blocks: dict[tuple[float, int], tuple[np.ndarray, np.ndarray]] = {}
        for p in TABLE_P:
            for k in TABLE_K:
                rows = data[(data[:, 0] == p) & (data[:, 1] == k)]
                if rows.shape[0] != TABLE_SIGMAS:
                    raise ValueError(f"gg_calibration.csv has {rows.shape[0]} rows for p = {p}, k = {k}, "
                                     f"expected {TABLE_SIGMAS}: rebuild it")
                self.blocks[(p, k)] = (rows[:, 2], rows[:, 3:])
        self._root_log = np.sqrt(np.log(1 / np.array(TABLE_DELTA)))
        self._slopes = {key: np.gradient(table, self._root_log, axis=-1, edge_order=1)
                        for key, (_, table) in self.blocks.items()}
        self._curves: dict[tuple[float, int, float], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def sigma(self, k: int, p: float, epsilon: float, delta: float) -> float:
        """The calibrated σ for (ε, δ), interpolated; k and p must be on the table's grid."""
        kk = _validate.integer("k", k, low=1, why=_WHY_K)
        pp = check_shape(p)
        if (pp, kk) not in self.blocks:
            raise ValueError(f"(p, k) must be on the table's grid, p in {TABLE_P}, k in {TABLE_K}; got ({p!r}, {k!r})")
        eps = _validate.real("epsilon", epsilon, low=TABLE_EPSILON_RANGE[0], high=TABLE_EPSILON_RANGE[1],
                             low_open=False, why="the range the table was computed for")
        d = _validate.real("delta", delta, low=min(TABLE_DELTA), high=max(TABLE_DELTA), low_open=False,
                           why="the range the table was computed for")
        return self._sigma(kk, pp, eps, d)

    def _sigma(self, k: int, p: float, epsilon: float, delta: float) -> float:
        """:meth:`sigma` for arguments already checked (a caller that asks for many at once checks them once)."""
        return float(np.exp(_hermite(-math.log(epsilon), *self._curve(p, k, delta))))

    def _curve(self, p: float, k: int, delta: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """−ln ε, ln σ and the slopes for the (p, k) block at δ, where ε is still falling."""
        key = (p, k, delta)
        if key not in self._curves:
            sigmas, table = self.blocks[(p, k)]
            column = _hermite(math.sqrt(math.log(1 / delta)), self._root_log, table, self._slopes[(p, k)])
            # ε falls as σ grows: interpolate ln σ against −ln ε, where ε is still falling
            keep = (column > 1e-9) & (np.r_[np.inf, column[:-1]] > column * (1 + 1e-9))
            xs, ys = -np.log(column[keep]), np.log(sigmas[keep])
            if len(self._curves) >= self.MAX_CURVES:
                self._curves.clear()
            self._curves[key] = (xs, ys, _gradient(ys, xs))
        return self._curves[key]


@functools.lru_cache(maxsize=1)
def calibration_table() -> CalibrationTable:
    """The shipped calibration table (read once, then cached)."""
    return CalibrationTable(_data_text("gg_calibration.csv"))


@functools.lru_cache(maxsize=1)
def unit_linf_table() -> dict[tuple[float, int], float]:
    """E‖X‖∞ at σ = 1 for k i.i.d. Generalized Gaussian coordinates, on the table's (p, k) grid.

    The values of :func:`dpteach.expected_linf_noise` (k, p, 1.0), computed once by
    dpteach/data/rebuild_gg_calibration.py (140 quadratures take about 0.4 s, too slow for a
    slider) and shipped in dpteach/data/gg_linf.csv; E‖X‖∞ scales with σ. Keys are (p, k).
    """
    lines = [ln for ln in _data_text("gg_linf.csv").splitlines() if ln and not ln.startswith("#")]
    if lines[0] != "p,k,linf_per_sigma":
        raise ValueError("gg_linf.csv has an unexpected header: rebuild it (python dpteach/data/rebuild_gg_calibration.py)")
    out = {}
    for ln in lines[1:]:
        p, k, value = ln.split(",")
        out[(float(p), int(k))] = float(value)
    missing = [(p, k) for p in TABLE_P for k in TABLE_K if (p, k) not in out]
    if missing:
        raise ValueError(f"gg_linf.csv lacks (p, k) = {missing[:3]}…: rebuild it")
    return out


def _data_text(name: str) -> str:
    return resources.files("dpteach").joinpath("data", name).read_text(encoding="ascii")
