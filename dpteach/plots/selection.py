"""Figures for chapter 07: private selection (Report Noisy Max, the exponential mechanism, AboveThreshold)."""

from __future__ import annotations

import numpy as np
from matplotlib.colors import to_rgb

from .. import _validate
from ..census import CensusFirstNames
from ..laplace import laplace_scale
from ..selection import exponential_mechanism, exponential_mechanism_probabilities, report_noisy_max_probabilities
from ..threshold import above_threshold_accuracy, above_threshold_probabilities
from ._base import PALETTE, _number, _plain_log_axes, _rng, _Updatable, new_figure, styled

__all__ = ["AboveThresholdFigure", "ExponentialMechanismFigure", "NoisyMaxFigure"]


def _title_case(name: str) -> str:
    return name.title() if name.isupper() else name


def _bar_edges(n: int, width: float = 0.8) -> np.ndarray:
    """Edges of n bars of the given width centred on 0, 1, …, n − 1, with the gaps between them
    as steps of height 0: one ``stairs`` artist draws all the bars (set_data, not n set_height)."""
    centres = np.arange(n)
    return np.column_stack([centres - width / 2, centres + width / 2]).ravel()


def _bar_heights(heights) -> np.ndarray:
    """Step heights for :func:`_bar_edges`: each bar's height, then 0 for the gap after it (none after the last)."""
    h = np.asarray(heights, dtype=float)
    return np.column_stack([h, np.zeros_like(h)]).ravel()[:-1]


def _bars(ax, n: int, **kwargs):
    """n bars at 0 … n − 1 as one filled stairs artist (heights 0 until the first update)."""
    return ax.stairs(_bar_heights(np.zeros(n)), _bar_edges(n), fill=True, baseline=0.0, **kwargs)


class NoisyMaxFigure(_Updatable):
    """Report Noisy Max on the first names of a town: how often it names the most common one.

    Each town draws its people's names from the census frequencies (a fixed seed per town
    size). Left: Pr[Report Noisy Max returns a most common name] against ε, exact (numerical
    integration, :func:`~dpteach.report_noisy_max_probabilities`) and measured on ``runs``
    runs (unit Laplace noise drawn once and rescaled: argmax(c + b·U) is the algorithm).
    Right, at the slider's ε: the probability of each of the town's ``top`` most common
    names (ranked 1st, 2nd, …, each bar labelled with its name and count) and of all the
    others together. Taking the argmax of a histogram released with Lap(1/ε) per cell is the
    same algorithm, so it has the same curves.

    Every town's curves are computed when the figure is built, and the numbers at each
    (town, ε) visited once, so a slider that comes back costs no integration. Both panels'
    axes are fixed (probabilities 0 to 1; ε from 0.01 to 10 on a log axis).
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
        self._groups = {n: self._town_groups(counts) for n, counts in self.towns.items()}
        self._warmed: set = set()
        self._curves = {people: self._curve(people) for people in self.TOWNS}
        self._at: dict[tuple[int, float], tuple[np.ndarray, np.ndarray]] = {}
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
            positions = np.arange(self.top + 1)
            self.bars = _bars(right, self.top + 1, color=PALETTE["sky"], label="exact")
            (self.freq,) = right.plot(positions, np.zeros(self.top + 1), "D", color=PALETTE["vermillion"], ms=7,
                                      label="measured")
            self.name_labels = [right.text(i, 0.05, "", rotation=90, ha="center", va="bottom", fontsize="small")
                                for i in positions[:-1]]
            right.set_xticks(positions)
            right.set_xticklabels([_ordinal(i + 1) for i in positions[:-1]] + ["others"])
            right.set_xlim(-0.6, self.top + 0.6)
            right.set_ylim(0, 1.05)
            right.set_xlabel("the town's names, most common first")
            right.set_ylabel("Pr[returned]")
            right.set_title(" ")
            # one legend below the panels: inside, the ε marker crosses the whole height of the left one, and the
            # 1st and "others" bars reach the top of the right one
            self.fig.legend(handles=[self.theory, self.measured, self.bars, self.freq], loc="outside lower center",
                            ncols=4, fontsize="small")
            _plain_log_axes(left)
        self.dynamic = [self.theory, self.measured, self.marker, self.bars, self.freq, *self.name_labels,
                        left.title, right.title]

    def frame(self, dpi: float | None = None) -> np.ndarray:
        """The blitted frame; after the first of each static state, every town's name labels are rendered
        as sprites, so that moving the town slider pastes them instead of laying out six new strings."""
        pixels = super().frame(dpi)
        renderer = self._renderer
        if (renderer, renderer._epoch) not in self._warmed:
            self._warmed.add((renderer, renderer._epoch))
            towns = [self._labels(n) for n in self.TOWNS]
            with styled():
                for i, text in enumerate(self.name_labels):
                    renderer.warm_text(text, [labels[i] for labels in towns if labels[i] != text.get_text()])
        return pixels

    def _labels(self, people: int) -> list[str]:
        """The town's ``top`` most common names, most common first, each with its count."""
        counts = self.towns[people]
        order = np.argsort(-counts, kind="stable")[: self.top]
        return [f"{_title_case(str(self.names[i]))} ({counts[i]})" for i in order]

    def _town_groups(self, counts: np.ndarray) -> tuple:
        """For each run and each distinct count: the name with the largest noise among the names with that
        count, its noise, and the second largest (−inf if the count is one name's). Names with equal counts
        can only win through the noisiest of them, so a run's winner is found among one name per count
        (a few hundred columns instead of every name), computed once per town."""
        values, inverse = np.unique(counts, return_inverse=True)
        order = np.argsort(inverse, kind="stable")                    # names grouped by count, index order kept
        bounds = np.searchsorted(inverse[order], np.arange(values.size + 1))
        runs = np.arange(self.runs)
        best = np.empty((self.runs, values.size), dtype=np.int64)
        first = np.empty((self.runs, values.size), dtype=np.float32)
        second = np.full((self.runs, values.size), -np.inf, dtype=np.float32)
        for g in range(values.size):
            cols = order[bounds[g]:bounds[g + 1]]
            noise = self.unit[:, cols]
            j = np.argmax(noise, axis=1)
            best[:, g], first[:, g] = cols[j], noise[runs, j]
            if cols.size > 1:
                second[:, g] = np.partition(noise, -2, axis=1)[:, -2]
        return values.astype(np.float32), best, first, second

    def _winners(self, counts: np.ndarray, epsilon: float) -> np.ndarray:
        """argmax(counts + b·U) per run, U the fixed unit Laplace noise (float32), ties to the lowest index.

        Through :meth:`_town_groups`: the same float32 sums for one name per distinct count; a run whose
        largest sum is reached twice (two counts, or a count's second noisiest name) is recomputed on
        every name, so the winners are exactly those of the argmax over all names."""
        scale = np.float32(laplace_scale(1.0, epsilon))
        groups = next((g for n, g in self._groups.items() if counts is self.towns[n]), None)
        if groups is None:
            return np.argmax(counts.astype(np.float32) + self.unit * scale, axis=1)
        values, best, first, second = groups
        sums = values + first * scale
        g = np.argmax(sums, axis=1)
        runs = np.arange(self.runs)
        top = sums[runs, g]
        tied = ((sums == top[:, None]).sum(axis=1) > 1) | (values[g] + second[runs, g] * scale == top)
        out = best[runs, g]
        if tied.any():
            out[tied] = np.argmax(counts.astype(np.float32) + self.unit[tied] * scale, axis=1)
        return out

    def _curve(self, people: int) -> tuple[np.ndarray, np.ndarray]:
        counts = self.towns[people]
        best = counts == counts.max()
        exact = np.array([report_noisy_max_probabilities(counts, e, points_per_scale=25)[best].sum()
                          for e in self.grid])
        measured = np.array([best[self._winners(counts, e)].mean() for e in self.measured_grid])
        return exact, measured

    def curves(self, people: int) -> tuple[np.ndarray, np.ndarray]:
        """(exact on self.grid, measured on self.measured_grid) for one town (computed when the figure is built)."""
        if people not in self.towns:
            raise ValueError(f"people must be one of {self.TOWNS}, got {people!r}")
        return self._curves[people]

    def at(self, people: int, epsilon: float) -> tuple[np.ndarray, np.ndarray]:
        """(exact law of the output, frequencies over the runs) for one town at ε, computed once."""
        key = (people, float(epsilon))
        if key not in self._at:
            counts = self.towns[people]
            p = report_noisy_max_probabilities(counts, epsilon, points_per_scale=25)
            freq = np.bincount(self._winners(counts, epsilon), minlength=counts.size) / self.runs
            self._at[key] = (p, freq)
        return self._at[key]

    def update(self, people: int, epsilon: float) -> dict:
        exact_curve, measured_curve = self.curves(people)
        counts = self.towns[people]
        order = np.argsort(-counts, kind="stable")[: self.top]
        p, freq = self.at(people, epsilon)
        best = counts == counts.max()
        shown_p = np.r_[p[order], 1 - p[order].sum()]
        shown_f = np.r_[freq[order], 1 - freq[order].sum()]
        self.theory.set_ydata(exact_curve)
        self.measured.set_ydata(measured_curve)
        self.marker.set_xdata([epsilon, epsilon])
        self.bars.set_data(_bar_heights(shown_p))
        self.freq.set_ydata(shown_f)
        labels = self._labels(people)
        for text, label in zip(self.name_labels, labels):
            text.set_text(label)
        p_best = float(p[best].sum())
        self.left.title.set_text(f"{people:,} people: top name {p_best:.1%}")
        self.right.title.set_text(f"ε = {epsilon:.3g}: the name returned")
        self._now = (people, float(epsilon), p_best, float(freq[best].sum()), labels, shown_p, shown_f)
        return {"people": people, "epsilon": float(epsilon), "counts": counts, "probabilities": p,
                "p_best": p_best, "measured_best": float(freq[best].sum()), "shown": shown_p,
                "shown_measured": shown_f, "labels": labels + ["any other"]}


    def alt_text(self) -> str:
        if not hasattr(self, "_now"):
            return super().alt_text()
        people, eps, p_best, measured, labels, shown, _ = self._now
        bars = ", ".join(f"{_ordinal(i + 1)} {label} {max(q, 0.0):.1%}" for i, (label, q) in enumerate(zip(labels, shown)))
        return (f"Left: the probability that Report Noisy Max returns a most common first name of a town, against ε "
                f"from {self.grid[0]:g} to {self.grid[-1]:g} on a log axis, exact and measured on {self.runs} runs. "
                f"In a town of {people:,} people at ε = {eps:.3g} the top name is returned {p_best:.1%} of the time "
                f"({measured:.1%} measured). Right: the probability of each of the town's {self.top} most common "
                f"names: {bars}, any other {max(shown[-1], 0.0):.1%}.")

    def data_table(self) -> dict | None:
        if not hasattr(self, "_now"):
            return None
        people, eps, _, _, labels, shown, measured = self._now
        names = [f"{_ordinal(i + 1)}: {label}" for i, label in enumerate(labels)] + ["any other"]
        return {"caption": f"The name Report Noisy Max returns in a town of {people:,} people at ε = {eps:.3g}",
                "columns": ["name (count)", "Pr[returned], exact", f"measured, {self.runs} runs"],
                "rows": [[n, f"{max(q, 0.0):.1%}", f"{max(f, 0.0):.1%}"] for n, q, f in zip(names, shown, measured)]}


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


class ExponentialMechanismFigure(_Updatable):
    """The exponential mechanism's output law (Definition 3.4) over non-numeric candidates.

    Bars: Pr[r] ∝ exp(ε·u(r)/(2Δu)), exact. Diamonds: the frequencies of ``runs`` runs of
    :func:`~dpteach.exponential_mechanism` (a fixed seed, so the dots move smoothly with ε).
    The dotted line is 1/|R|, the uniform choice that ε → 0 tends to. The probability axis
    is fixed from 0 to 1.
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
            self.bars = _bars(ax, self.u.size, color=PALETTE["sky"], label="exact probability")
            (self.freq,) = ax.plot(positions, np.zeros(self.u.size), "D", color=PALETTE["vermillion"], ms=7,
                                   label=f"measured, {self.runs:,} runs")
            ax.axhline(1 / self.u.size, color=PALETTE["black"], ls=":", lw=1.5, label="uniform (ε → 0)")
            ax.set_xticks(positions)
            ax.set_xticklabels([f"{c}\nu = {v:g}" for c, v in zip(self.candidates, self.u)])
            ax.set_xlim(-0.6, self.u.size - 0.4)
            ax.set_ylim(0, 1.05)
            ax.set_ylabel("Pr[chosen]")
            ax.set_title(" ")
            ax.legend(loc="upper right", fontsize="small")
        self.dynamic = [self.bars, self.freq, ax.title]

    def update(self, epsilon: float) -> dict:
        p = exponential_mechanism_probabilities(self.u, self.sensitivity, epsilon)
        picks = exponential_mechanism(self.u, self.sensitivity, epsilon, rng=np.random.default_rng(self.seed),
                                      size=self.runs)
        freq = np.bincount(picks, minlength=self.u.size) / self.runs
        self.bars.set_data(_bar_heights(p))
        self.freq.set_ydata(freq)
        best = int(np.argmax(self.u))
        self.ax.title.set_text(f"ε = {epsilon:.3g}, Δu = {self.sensitivity:g}: {self.candidates[best]} "
                               f"(the best) is chosen with probability {p[best]:.0%}")
        self._now = (float(epsilon), p, freq, best)
        return {"epsilon": float(epsilon), "probabilities": p, "measured": freq, "best": self.candidates[best],
                "p_best": float(p[best])}


    def alt_text(self) -> str:
        if not hasattr(self, "_now"):
            return super().alt_text()
        eps, p, _, best = self._now
        each = ", ".join(f"{c} (u = {u:g}) {q:.0%}" for c, u, q in zip(self.candidates, self.u, p))
        return (f"Bar chart of the probability that the exponential mechanism chooses each of {self.u.size} "
                f"candidates, with the frequencies of {self.runs:,} runs as diamonds and the uniform choice "
                f"1/{self.u.size} dotted. At ε = {eps:.3g} and Δu = {self.sensitivity:g}, {self.candidates[best]} (the "
                f"best) is chosen with probability {p[best]:.0%}: {each}.")

    def data_table(self) -> dict | None:
        if not hasattr(self, "_now"):
            return None
        eps, p, freq, _ = self._now
        return {"caption": f"The exponential mechanism's choice at ε = {eps:.3g}, Δu = {self.sensitivity:g}",
                "columns": ["candidate", "utility u", "Pr[chosen], exact", f"measured, {self.runs:,} runs"],
                "rows": [[c, f"{u:g}", f"{q:.1%}", f"{f:.1%}"]
                         for c, u, q, f in list(zip(self.candidates, self.u, p, freq))[:25]]}


class AboveThresholdFigure(_Updatable):
    """AboveThreshold (§3.6, Algorithm 1) on a stream of counting queries.

    Top: the queries' true answers in the order they are asked, the threshold T and the
    band T ± α of Theorem 3.24 (β = 0.05). Bottom: the exact probability that each query is
    the one reported (numerical integration, :func:`~dpteach.above_threshold_probabilities`)
    and that none is; diamonds are measured on ``runs`` runs (unit noise drawn once and
    rescaled: T + 2Δ/ε·ρ against f_i + 4Δ/ε·ν_i is the algorithm). Both panels' axes are
    fixed: counts from 0 to a quarter above the largest answer, probabilities from 0 to 1.
    At small ε the band is wider than the top panel; the title's second line says so.
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
            self.band = top.axhspan(0, 1, facecolor=(*to_rgb(PALETTE["orange"]), 0.15), edgecolor=PALETTE["orange"],
                                    ls="--", lw=1.2, label="T ± α (Thm 3.24, β = 0.05)")
            self.threshold = top.axhline(0, color=PALETTE["vermillion"], lw=2.2, label="threshold T")
            self.y_top = 1.25 * max(self.answers.max(), 1.0)
            top.set_ylim(0, self.y_top)
            top.set_ylabel("count")
            top.set_title(" \n ")     # 2nd line: α (a note inside would sit on the band, which can cover the panel)
            self.prob_bars = _bars(bottom, k, color=PALETTE["blue"], label="exact")
            self.none_bar = bottom.stairs([0.0], [k - 0.4, k + 0.4], fill=True, baseline=0.0, color=PALETTE["black"])
            (self.freq,) = bottom.plot(positions, np.zeros(k + 1), "D", color=PALETTE["vermillion"], ms=6,
                                       label=f"measured, {n:,} runs")
            bottom.set_xlim(-0.6, k + 0.6)
            bottom.set_ylim(0, 1.05)
            bottom.set_ylabel("Pr[reported first]")
            bottom.set_xticks(positions)
            bottom.set_xticklabels(self.labels + ["none"], rotation=30, ha="right")
            # one legend below the panels: inside, the band and the threshold line cross the top one's whole width
            self.fig.legend(handles=[self.answer_bars, self.band, self.threshold, self.prob_bars, self.freq],
                            loc="outside lower center", ncols=3, fontsize="small")
        self.dynamic = [self.band, self.threshold, top.title, self.prob_bars, self.none_bar, self.freq]

    def update(self, epsilon: float, threshold: float) -> dict:
        b = laplace_scale(1.0, epsilon)
        t = _validate.real("threshold", threshold)
        k = self.answers.size
        p = above_threshold_probabilities(self.answers, t, epsilon)
        above = self.answers + 4 * b * self.nu >= t + 2 * b * self.rho
        first = np.where(above.any(axis=1), above.argmax(axis=1), k)
        freq = np.bincount(first, minlength=k + 1) / self.runs
        alpha = above_threshold_accuracy(k, 0.05, epsilon)
        self.prob_bars.set_data(_bar_heights(p[:-1]))
        self.none_bar.set_data([p[-1]])
        self.freq.set_ydata(freq)
        self.threshold.set_ydata([t, t])
        self.band.set_y(t - alpha)
        self.band.set_height(2 * alpha)
        covers = t - alpha <= 0 and t + alpha >= self.y_top
        truly = np.flatnonzero(self.answers >= t)
        first_true = int(truly[0]) if truly.size else k
        name = self.labels[first_true] if truly.size else "none"
        self.top.title.set_text(f"ε = {epsilon:.3g}, T = {t:g}: {name} is first above T, "
                                f"reported {p[first_true]:.1%} of runs\nα = {_number(alpha)}"
                                + (": the band covers the whole panel" if covers else ""))
        self._now = (float(epsilon), t, p, freq, alpha, first_true, name, covers)
        return {"epsilon": float(epsilon), "threshold": t, "probabilities": p, "measured": freq, "alpha": alpha,
                "first_above": first_true, "p_first_above": float(p[first_true])}

    def alt_text(self) -> str:
        if not hasattr(self, "_now"):
            return super().alt_text()
        eps, t, p, _, alpha, first, name, covers = self._now
        return (f"Top: bar chart of the true answers of {self.answers.size} counting queries in the order they are "
                f"asked, with the threshold T and the band T ± α. Bottom: the probability that each query is the "
                f"one AboveThreshold reports first, and that none is, exact and measured on {self.runs:,} runs. At "
                f"ε = {eps:.3g} and T = {t:g}, {name} is first above T and is reported {p[first]:.1%} of runs; "
                f"none is reported {p[-1]:.1%}; α = {_number(alpha)}"
                + (", so the band covers the whole panel." if covers else "."))

    def data_table(self) -> dict | None:
        if not hasattr(self, "_now"):
            return None
        eps, t, p, freq, *_ = self._now
        answers = [f"{a:g}" for a in self.answers] + [""]
        rows = [[label, a, f"{q:.1%}", f"{f:.1%}"]
                for label, a, q, f in zip(self.labels + ["none"], answers, p, freq)]
        return {"caption": f"AboveThreshold at ε = {eps:.3g}, T = {t:g}: the query reported first",
                "columns": ["query", "true answer", "Pr[reported first], exact", f"measured, {self.runs:,} runs"],
                "rows": rows[:24] + rows[-1:] if len(rows) > 25 else rows}
