"""Figures for chapter 01: how far a query moves over neighbouring databases (Definition 3.1)."""

from __future__ import annotations

import matplotlib
import matplotlib.pyplot
import matplotlib.ticker
import numpy as np

from ..sensitivity import NeighbourDifferences
from ._base import (
    PALETTE,
    _Updatable,
    new_figure,
    styled,
)


class NeighbourChangesFigure(_Updatable):
    """How far a query moves over every neighbouring pair; Δf is the largest bar's position.

    One panel per query, side by side, so that two queries (k overlapping counts and a
    k-cell histogram, say) can be compared at a glance.
    """

    def __init__(self, labels: tuple[str, ...] = ("query",)) -> None:
        self.labels = labels
        self.fig, axes = new_figure(1, len(labels), height=3.8, squeeze=False)
        self.axes = list(axes[0])
        with styled():
            for ax in self.axes:
                ax.set_xlabel("‖f(x) − f(y)‖₁ over neighbouring pairs")
            self.axes[0].set_ylabel("number of pairs")

    def update(self, *diffs: NeighbourDifferences) -> dict:
        if len(diffs) != len(self.axes):
            raise ValueError(f"expected {len(self.axes)} sets of differences, got {len(diffs)}")
        out = {}
        with styled():
            for ax, d, label in zip(self.axes, diffs, self.labels):
                values, counts = np.unique(np.round(d.norm, 9), return_counts=True)
                ax.clear()
                ax.bar(values, counts, width=0.6 * _min_gap(values), color=PALETTE["sky"])
                ax.axvline(d.sensitivity, color=PALETTE["vermillion"], ls="--", lw=2)
                gap = _min_gap(values)
                ax.set_xlim(min(0.0, values.min()) - 0.6 * gap, max(values.max(), d.sensitivity) + 0.6 * gap)
                ax.set_title(f"{label}: Δf = {d.sensitivity:g}")
                ax.set_xlabel("‖f(x) − f(y)‖₁ over neighbouring pairs")
                out[label] = {"values": values, "counts": counts, "sensitivity": d.sensitivity}
            self.axes[0].set_ylabel("number of pairs")
        return out


def _min_gap(values: np.ndarray) -> float:
    return float(np.diff(values).min()) if len(values) > 1 else 1.0


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
