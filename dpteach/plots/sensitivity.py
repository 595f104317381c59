"""Figures for chapter 01: how far a query moves over neighbouring databases (Definition 3.1)."""

from __future__ import annotations

import matplotlib
import matplotlib.ticker
import numpy as np

from .. import _validate
from ..sensitivity import NeighbourDifferences
from ._base import PALETTE, _Updatable, new_figure, styled


class NeighbourChangesFigure(_Updatable):
    """How far a query moves over every neighbouring pair; Δf is the largest bar's position.

    One panel per query, side by side, so that two queries (k overlapping counts and a
    k-cell histogram, say) can be compared at a glance. Each panel's bars are one ``stairs``
    artist (a bar every amount of change, of height its number of pairs).

    With ``x_max`` and ``y_max`` the axes are fixed, changes from 0 to ``x_max`` and 0 to
    ``y_max`` pairs in every panel: a slider that sweeps a family of queries then moves only the
    bars, the dashed Δf line and the titles. Without them each update fits the axes to its data,
    for a figure drawn once.
    """

    def __init__(self, labels: tuple[str, ...] = ("query",), x_max: float | None = None,
                 y_max: float | None = None) -> None:
        self.labels = labels
        self.fixed = x_max is not None and y_max is not None
        self.fig, axes = new_figure(1, len(labels), height=3.8, squeeze=False)
        self.axes = list(axes[0])
        self.bars, self.lines = [], []
        with styled():
            for ax, label in zip(self.axes, labels):
                self.bars.append(ax.stairs([0.0], [0.0, 1.0], fill=True, color=PALETTE["sky"], lw=0))
                self.lines.append(ax.axvline(0.0, color=PALETTE["vermillion"], ls="--", lw=2))
                ax.set_title(label)
                ax.set_xlabel("‖f(x) − f(y)‖₁ over neighbouring pairs")
                if self.fixed:
                    ax.set_xlim(-0.6, _validate.positive("x_max", x_max) + 0.6)
                    ax.set_ylim(0, _validate.positive("y_max", y_max))
            self.axes[0].set_ylabel("number of pairs")
        self.dynamic = self.bars + self.lines + [ax.title for ax in self.axes]

    def update(self, *diffs: NeighbourDifferences, names: tuple[str, ...] | None = None) -> dict:
        """One panel per set of differences; each title says ``name: Δf = …``, where a name says what the
        panel's query is on this frame (``names``, e.g. with a slider's value in it) or, by default, its label."""
        if len(diffs) != len(self.axes):
            raise ValueError(f"expected {len(self.axes)} sets of differences, got {len(diffs)}")
        names = self.labels if names is None else tuple(names)
        if len(names) != len(self.axes):
            raise ValueError(f"expected {len(self.axes)} names, one a panel, got {len(names)}")
        out = {}
        for ax, bars, line, d, label, name in zip(self.axes, self.bars, self.lines, diffs, self.labels, names):
            values, counts = d.change_counts()
            gap = _min_gap(values)
            heights, edges = _bar_outline(values, counts, 0.6 * gap)
            bars.set_data(heights, edges)
            line.set_xdata([d.sensitivity, d.sensitivity])
            ax.title.set_text(f"{name}: Δf = {d.sensitivity:g}")
            if not self.fixed:
                ax.set_xlim(min(0.0, values.min()) - 0.6 * gap, max(values.max(), d.sensitivity) + 0.6 * gap)
                ax.set_ylim(0, 1.05 * counts.max())
            out[label] = {"values": values, "counts": counts, "sensitivity": d.sensitivity}
        self._now = [(name, out[label]) for label, name in zip(self.labels, names)]
        return out

    def alt_text(self) -> str:
        if not hasattr(self, "_now"):
            return super().alt_text()
        panels = []
        for name, d in self._now:
            values, counts = d["values"], d["counts"]
            common = int(np.argmax(counts))
            spread = (f"every pair moves it by {values[0]:g}" if values.size == 1 else
                      f"the pairs move it by {values.min():g} to {values.max():g}, most often by {values[common]:g} "
                      f"({counts[common]:,} of {counts.sum():,} pairs)")
            panels.append(f"{name}: Δf = {d['sensitivity']:g}; {spread}")
        kind = "Bar chart" if len(panels) == 1 else f"{len(panels)} bar charts side by side"
        return (f"{kind} of the number of neighbouring pairs by how far the query moves, ‖f(x) − f(y)‖₁, with the "
                f"largest change, Δf, as a dashed line. " + ". ".join(panels) + ".")

    def data_table(self) -> dict | None:
        if not hasattr(self, "_now"):
            return None
        rows = [[name, f"{v:g}", f"{c:,}", "Δf" if v == d["sensitivity"] else ""]
                for name, d in self._now for v, c in zip(d["values"], d["counts"])]
        if len(rows) > 25:        # the largest changes of each panel matter most: keep Δf's rows
            per = 25 // len(self._now)
            rows = [[name, f"{v:g}", f"{c:,}", "Δf" if v == d["sensitivity"] else ""]
                    for name, d in self._now for v, c in list(zip(d["values"], d["counts"]))[-per:]]
        return {"caption": "Neighbouring pairs by how far the query moves",
                "columns": ["query", "‖f(x) − f(y)‖₁", "pairs", "largest"], "rows": rows}


def _min_gap(values: np.ndarray) -> float:
    return float(np.diff(values).min()) if len(values) > 1 else 1.0


def _bar_outline(values: np.ndarray, counts: np.ndarray, width: float) -> tuple[np.ndarray, np.ndarray]:
    """Bars of ``width`` centred on ``values`` as one step outline: (heights, edges) for ``stairs``,
    height 0 in the gaps between bars (``width`` must be below the smallest gap)."""
    edges = np.column_stack([values - width / 2, values + width / 2]).ravel()
    heights = np.column_stack([counts, np.zeros_like(counts)]).ravel()[:-1]
    return heights.astype(float), edges


class ChangeBySizeFigure(_Updatable):
    """The largest change one record can cause, against the size n of the smaller database.

    For a count or a clipped sum the line is flat: one bound serves every n. For a mean it
    falls like R/(n + 1), so its worst case sits at the smallest database.
    """

    def __init__(self, diffs: dict[str, NeighbourDifferences]) -> None:
        self.fig, ax = new_figure(height=3.8)
        self.data = {}
        with styled():
            for (label, d), marker in zip(diffs.items(), "osd^v"):
                sizes, largest = d.by_size()
                ax.plot(sizes, largest, marker=marker, label=label)
                self.data[label] = (sizes, largest)
            ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
            ax.set_xlabel("n, records in the smaller database")
            ax.set_ylabel("largest ‖f(x) − f(y)‖₁")
            ax.set_title("Where the worst case lives: the largest change at each database size")
            ax.legend()

    def alt_text(self) -> str:
        ax = self.fig.axes[0]
        lines = []
        for label, (sizes, largest) in self.data.items():
            if np.ptp(largest) == 0:
                lines.append(f"{label}: {largest[0]:.3g} at every n")
            else:
                top = int(np.argmax(largest))
                lines.append(f"{label}: largest {largest[top]:.3g} at n = {sizes[top]:g}, "
                             f"{largest[-1]:.3g} at n = {sizes[-1]:g}")
        return (f"{ax.get_title()}. Line chart of {ax.get_ylabel()} against {ax.get_xlabel()}. "
                + "; ".join(lines) + ".")

    def data_table(self) -> dict | None:
        sizes = sorted({float(n) for s, _ in self.data.values() for n in s})[:25]
        cells = {label: dict(zip(map(float, s), v)) for label, (s, v) in self.data.items()}
        return {"caption": "The largest change one record causes, by database size",
                "columns": ["n", *self.data],
                "rows": [[f"{n:g}", *(f"{cells[label][n]:.3g}" if n in cells[label] else "" for label in self.data)]
                         for n in sizes]}
