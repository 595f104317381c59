"""Figures for chapter 07: private selection (Report Noisy Max, the exponential mechanism, AboveThreshold)."""

from __future__ import annotations

import numpy as np

from .. import _validate
from ..census import CensusFirstNames
from ..laplace import laplace_scale
from ..selection import (
    above_threshold_accuracy,
    above_threshold_probabilities,
    exponential_mechanism,
    exponential_mechanism_probabilities,
    report_noisy_max_probabilities,
)
from ._base import PALETTE, _plain_log_axes, _rng, _Updatable, new_figure, styled

__all__ = ["AboveThresholdFigure", "ExponentialMechanismFigure", "NoisyMaxFigure"]


def _title_case(name: str) -> str:
    return name.title() if name.isupper() else name


class NoisyMaxFigure(_Updatable):
    """Report Noisy Max on the first names of a town: how often it names the most common one.

    Each town draws its people's names from the census frequencies (a fixed seed per town
    size). Left: Pr[Report Noisy Max returns a most common name] against ε, exact (numerical
    integration, :func:`~dpteach.report_noisy_max_probabilities`) and measured on ``runs``
    runs (unit Laplace noise drawn once and rescaled: argmax(c + b·U) is the algorithm).
    Right, at the slider's ε: the probability of each of the town's ``top`` most common
    names and of all the others together. Taking the argmax of a histogram released with
    Lap(1/ε) per cell is the same algorithm, so it has the same curves.
    """

    TOWNS = (500, 1_000, 2_000, 5_000, 20_000)

    def __init__(self, data: CensusFirstNames, runs: int = 200, top: int = 6,
                 rng: np.random.Generator | None = None) -> None:
        if not isinstance(data, CensusFirstNames):
            raise TypeError(f"data must come from dp.census_first_names(), got {type(data).__name__}")
        self.names = data.names
        gen = _rng(rng)
        share = data.counts / data.total
        self.towns = {n: gen.multinomial(n, share) for n in self.TOWNS}
        self.unit = gen.laplace(0.0, 1.0, size=(_validate.integer("runs", runs, low=20), data.k)).astype(np.float32)
        self.runs = self.unit.shape[0]
        self.top = _validate.integer("top", top, low=1, high=12)
        self.grid = np.logspace(-2, 1, 25)
        self.measured_grid = np.logspace(-2, 1, 7)
        self._curves: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.fig, (self.left, self.right) = new_figure(1, 2, height=4.6, width_ratios=(4, 5))
        with styled():
            left, right = self.left, self.right
            (self.theory,) = left.semilogx(self.grid, self.grid, color=PALETTE["blue"], label="exact (integral)")
            (self.measured,) = left.semilogx(self.measured_grid, self.measured_grid, "o", color=PALETTE["vermillion"],
                                             label=f"measured, {self.runs} runs")
            self.marker = left.axvline(1, color=PALETTE["orange"], ls="--", lw=2)
            left.set_xlim(self.grid[0], self.grid[-1])
            left.set_ylim(0, 1.05)
            left.set_xlabel("ε")
            left.set_ylabel("Pr[picks a most common name]")
            left.set_title(" ")
            left.legend(loc="upper left", fontsize="small")
            positions = np.arange(self.top + 1)
            self.bars = right.bar(positions, np.zeros(self.top + 1), color=PALETTE["sky"], label="exact")
            (self.freq,) = right.plot(positions, np.zeros(self.top + 1), "D", color=PALETTE["vermillion"], ms=7,
                                      label="measured")
            right.set_xticks(positions)
            right.set_xticklabels([""] * (self.top + 1), rotation=30, ha="right")
            right.set_ylim(0, 1.05)
            right.set_ylabel("Pr[returned]")
            right.set_title(" ")
            right.legend(loc="upper right", fontsize="small")
            _plain_log_axes(left)

    def _winners(self, counts: np.ndarray, epsilon: float) -> np.ndarray:
        noisy = counts.astype(np.float32) + self.unit * np.float32(laplace_scale(1.0, epsilon))
        return np.argmax(noisy, axis=1)

    def curves(self, people: int) -> tuple[np.ndarray, np.ndarray]:
        """(exact on self.grid, measured on self.measured_grid) for one town, computed once."""
        if people not in self._curves:
            counts = self.towns[people]
            best = counts == counts.max()
            exact = np.array([report_noisy_max_probabilities(counts, e, points_per_scale=25)[best].sum()
                              for e in self.grid])
            measured = np.array([best[self._winners(counts, e)].mean() for e in self.measured_grid])
            self._curves[people] = (exact, measured)
        return self._curves[people]

    def update(self, people: int, epsilon: float) -> dict:
        if people not in self.towns:
            raise ValueError(f"people must be one of {self.TOWNS}, got {people!r}")
        counts = self.towns[people]
        exact_curve, measured_curve = self.curves(people)
        order = np.argsort(-counts, kind="stable")[: self.top]
        p = report_noisy_max_probabilities(counts, epsilon, points_per_scale=25)
        winners = self._winners(counts, epsilon)
        freq = np.bincount(winners, minlength=counts.size) / self.runs
        best = counts == counts.max()
        shown_p = np.r_[p[order], 1 - p[order].sum()]
        shown_f = np.r_[freq[order], 1 - freq[order].sum()]
        self.theory.set_ydata(exact_curve)
        self.measured.set_ydata(measured_curve)
        self.marker.set_xdata([epsilon, epsilon])
        for bar, h in zip(self.bars, shown_p):
            bar.set_height(h)
        self.freq.set_ydata(shown_f)
        labels = [f"{_title_case(str(self.names[i]))} ({counts[i]})" for i in order] + ["any other"]
        self.right.set_xticklabels(labels)
        p_best = float(p[best].sum())
        self.left.title.set_text(f"town of {people:,}: top name picked {p_best:.1%}")
        self.right.title.set_text(f"ε = {epsilon:.3g}: which name is returned")
        return {"people": people, "epsilon": float(epsilon), "counts": counts, "probabilities": p,
                "p_best": p_best, "measured_best": float(best[winners].mean()), "shown": shown_p,
                "shown_measured": shown_f, "labels": labels}


class ExponentialMechanismFigure(_Updatable):
    """The exponential mechanism's output law (Definition 3.4) over non-numeric candidates.

    Bars: Pr[r] ∝ exp(ε·u(r)/(2Δu)), exact. Diamonds: the frequencies of ``runs`` runs of
    :func:`~dpteach.exponential_mechanism` (a fixed seed, so the dots move smoothly with ε).
    The dotted line is 1/|R|, the uniform choice that ε → 0 tends to.
    """

    def __init__(self, candidates, utilities, sensitivity: float, runs: int = 2_000, seed: int = 2014) -> None:
        self.u = _validate.array("utilities", utilities, ndim=(1,))
        self.candidates = [str(c) for c in candidates]
        if len(self.candidates) != self.u.size:
            raise ValueError(f"candidates must have one entry per utility ({self.u.size}), got {len(self.candidates)}")
        self.sensitivity = _validate.positive("sensitivity", sensitivity)
        self.runs = _validate.integer("runs", runs, low=10)
        self.seed = seed
        positions = np.arange(self.u.size)
        self.fig, self.ax = new_figure(height=4.4)
        with styled():
            ax = self.ax
            self.bars = ax.bar(positions, np.zeros(self.u.size), color=PALETTE["sky"], label="exact probability")
            (self.freq,) = ax.plot(positions, np.zeros(self.u.size), "D", color=PALETTE["vermillion"], ms=7,
                                   label=f"measured, {self.runs:,} runs")
            ax.axhline(1 / self.u.size, color=PALETTE["black"], ls=":", lw=1.5, label="uniform (ε → 0)")
            ax.set_xticks(positions)
            ax.set_xticklabels([f"{c}\nu = {v:g}" for c, v in zip(self.candidates, self.u)])
            ax.set_ylim(0, 1.05)
            ax.set_ylabel("Pr[chosen]")
            ax.set_title(" ")
            ax.legend(loc="upper right", fontsize="small")

    def update(self, epsilon: float) -> dict:
        p = exponential_mechanism_probabilities(self.u, self.sensitivity, epsilon)
        picks = exponential_mechanism(self.u, self.sensitivity, epsilon, rng=np.random.default_rng(self.seed),
                                      size=self.runs)
        freq = np.bincount(picks, minlength=self.u.size) / self.runs
        for bar, h in zip(self.bars, p):
            bar.set_height(h)
        self.freq.set_ydata(freq)
        best = int(np.argmax(self.u))
        self.ax.title.set_text(f"ε = {epsilon:.3g}, Δu = {self.sensitivity:g}: {self.candidates[best]} "
                               f"(the best) is chosen with probability {p[best]:.0%}")
        return {"epsilon": float(epsilon), "probabilities": p, "measured": freq, "best": self.candidates[best],
                "p_best": float(p[best])}


class AboveThresholdFigure(_Updatable):
    """AboveThreshold (§3.6, Algorithm 1) on a stream of counting queries.

    Top: the queries' true answers in the order they are asked, the threshold T and the
    band T ± α of Theorem 3.24 (β = 0.05). Bottom: the exact probability that each query is
    the one reported (numerical integration, :func:`~dpteach.above_threshold_probabilities`)
    and that none is; diamonds are measured on ``runs`` runs (unit noise drawn once and
    rescaled: T + 2Δ/ε·ρ against f_i + 4Δ/ε·ν_i is the algorithm).
    """

    def __init__(self, labels, answers, runs: int = 2_000, rng: np.random.Generator | None = None) -> None:
        self.answers = _validate.array("answers", answers, ndim=(1,))
        self.labels = [str(x) for x in labels]
        if len(self.labels) != self.answers.size:
            raise ValueError(f"labels must have one entry per answer ({self.answers.size}), got {len(self.labels)}")
        gen = _rng(rng)
        n = _validate.integer("runs", runs, low=10)
        self.rho = gen.laplace(0.0, 1.0, size=(n, 1))
        self.nu = gen.laplace(0.0, 1.0, size=(n, self.answers.size))
        self.runs = n
        k = self.answers.size
        positions = np.arange(k + 1)
        self.fig, (self.top, self.bottom) = new_figure(2, 1, height=6.2, sharex=True)
        with styled():
            top, bottom = self.top, self.bottom
            self.answer_bars = top.bar(positions[:-1], self.answers, color=PALETTE["sky"], label="true answer")
            self.band = top.axhspan(0, 1, color=PALETTE["orange"], alpha=0.15, label="T ± α (Thm 3.24, β = 0.05)")
            self.threshold = top.axhline(0, color=PALETTE["vermillion"], lw=2.2, label="threshold T")
            top.set_ylim(0, 1.25 * max(self.answers.max(), 1.0))
            top.set_ylabel("count")
            top.set_title(" ")
            top.legend(loc="upper left", fontsize="small", ncols=3)
            colours = [PALETTE["blue"]] * k + [PALETTE["black"]]
            self.prob_bars = bottom.bar(positions, np.zeros(k + 1), color=colours, label="exact")
            (self.freq,) = bottom.plot(positions, np.zeros(k + 1), "D", color=PALETTE["vermillion"], ms=6,
                                       label=f"measured, {n:,} runs")
            bottom.set_ylim(0, 1.05)
            bottom.set_ylabel("Pr[reported first]")
            bottom.set_xticks(positions)
            bottom.set_xticklabels(self.labels + ["none"], rotation=30, ha="right")
            bottom.legend(loc="upper right", fontsize="small")

    def update(self, epsilon: float, threshold: float) -> dict:
        b = laplace_scale(1.0, epsilon)
        t = _validate.real("threshold", threshold)
        k = self.answers.size
        p = above_threshold_probabilities(self.answers, t, epsilon)
        above = self.answers + 4 * b * self.nu >= t + 2 * b * self.rho
        first = np.where(above.any(axis=1), above.argmax(axis=1), k)
        freq = np.bincount(first, minlength=k + 1) / self.runs
        alpha = above_threshold_accuracy(k, 0.05, epsilon)
        for bar, h in zip(self.prob_bars, p):
            bar.set_height(h)
        self.freq.set_ydata(freq)
        self.threshold.set_ydata([t, t])
        self.band.set_y(t - alpha)
        self.band.set_height(2 * alpha)
        truly = np.flatnonzero(self.answers >= t)
        first_true = int(truly[0]) if truly.size else k
        name = self.labels[first_true] if truly.size else "none"
        self.top.title.set_text(f"ε = {epsilon:.3g}, T = {t:g}: {name} is first above T, "
                                f"reported {p[first_true]:.1%} of runs")
        return {"epsilon": float(epsilon), "threshold": t, "probabilities": p, "measured": freq, "alpha": alpha,
                "first_above": first_true, "p_first_above": float(p[first_true])}
