"""Figure for chapter 10's DP-SGD in miniature: test accuracy and decision boundaries against ε and the clip C."""

from __future__ import annotations

import numpy as np
from matplotlib.colors import to_rgba

from .. import _validate
from ..dpsgd import dpsgd_logistic_regression, logistic_regression
from ._base import PALETTE, _number, _plain_log_axes, _rng, _Updatable, new_figure, styled

__all__ = ["DPSGDFigure"]


class DPSGDFigure(_Updatable):
    """DP-SGD in miniature: test accuracy against ε, and the decision boundaries it learns.

    Every model is trained once, in ``__init__``, on a grid of ε and clipping bounds C
    (``repeats`` runs each); the sliders only choose among them. Left: accuracy against ε
    (median and range of the runs) for the chosen C, with the non-private model's accuracy.
    Right: the test patients and the boundaries of the runs at the chosen ε and C.
    """

    EPSILONS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
    CLIPS = (0.25, 1.0, 4.0)

    def __init__(self, train_x, train_y, test_x, test_y, steps: int = 20, repeats: int = 5,
                 rng: np.random.Generator | None = None) -> None:
        self.test_x = _validate.array("test_x", test_x, ndim=(2,))
        self.test_y = _validate.array("test_y", test_y, ndim=(1,))
        gen = _rng(rng)
        reps = _validate.integer("repeats", repeats, low=1)
        self.baseline = logistic_regression(train_x, train_y, steps=steps)
        self.baseline_accuracy = self.baseline.accuracy(test_x, test_y)
        self.models = {(e, c): [dpsgd_logistic_regression(train_x, train_y, e, steps=steps, clip=c, rng=gen)
                                for _ in range(reps)] for c in self.CLIPS for e in self.EPSILONS}
        self.accuracy = {key: np.array([m.accuracy(test_x, test_y) for m in runs])
                         for key, runs in self.models.items()}
        self.fig, (self.left, self.right) = new_figure(1, 2, height=4.6)
        eps = np.array(self.EPSILONS)
        self.xs = np.linspace(-2.5, 2.5, 2)
        self.boundary = {key: [self._boundary(m.weights) for m in runs] for key, runs in self.models.items()}
        with styled():
            left, right = self.left, self.right
            # a light fill edged in the median's colour: the edge reads at 3:1 on white, the fill does not
            self.band = left.fill_between(eps, eps, eps, facecolor=to_rgba(PALETTE["sky"], 0.35),
                                          edgecolor=PALETTE["blue"], lw=0.8, label=f"range of {reps} runs")
            (self.median_line,) = left.semilogx(eps, eps, "o-", color=PALETTE["blue"], label="DP-SGD (median)")
            left.axhline(self.baseline_accuracy, color=PALETTE["black"], ls="--", lw=1.5,
                         label=f"no privacy: {self.baseline_accuracy:.1%}")
            left.axhline(max(self.test_y.mean(), 1 - self.test_y.mean()), color="grey", ls=":", lw=1.5,
                         label="always guess the majority")
            self.marker = left.axvline(1, color=PALETTE["orange"], ls=":", lw=2)
            left.set_xlabel("ε, total for the training")
            left.set_ylabel("test accuracy")
            left.set_xlim(eps[0] / 1.5, eps[-1] * 1.5)
            left.set_ylim(0.2, 1.0)
            left.set_title("accuracy against ε")
            _plain_log_axes(left)
            ill = self.test_y == 1           # told apart by marker as well as hue: triangles have the condition
            right.scatter(self.test_x[ill, 0], self.test_x[ill, 1], color=PALETTE["vermillion"], marker="^", s=12,
                          alpha=0.7, lw=0)
            right.scatter(self.test_x[~ill, 0], self.test_x[~ill, 1], color=PALETTE["sky"], marker="o", s=8,
                          alpha=0.7, lw=0)
            self.boundaries = [right.plot([], [], color=PALETTE["green"], lw=1.5)[0] for _ in range(reps)]
            self.boundaries[0].set_label("DP-SGD boundaries")
            (no_privacy,) = right.plot(self.xs, self._boundary(self.baseline.weights), color=PALETTE["black"],
                                       ls="-.", label="no privacy (boundary)")
            right.set_xlim(-2.5, 2.5)
            right.set_ylim(-3, 3)
            right.set_xlabel("age (standardised)")
            right.set_ylabel("blood pressure (standardised)")
            right.set_title("red triangles: has the condition")
            # one legend below the panels: inside, the ε marker and the band cross the left one, the points fill
            # the right one
            self.fig.legend(handles=[self.band, self.median_line, *left.get_lines()[1:3], self.boundaries[0],
                                     no_privacy], loc="outside lower center", ncols=3, fontsize="small")
            self.suptitle = self.fig.suptitle(" ", fontweight="bold")
        self.eps = eps
        self.dynamic = [self.band, self.median_line, self.marker, *self.boundaries, self.suptitle]
        self.majority = max(self.test_y.mean(), 1 - self.test_y.mean())
        self._drawn: dict | None = None

    def _boundary(self, w: np.ndarray) -> np.ndarray:
        """y on the line w₀x + w₁y + w₂ = 0 at the two xs (NaN when the line is vertical or absent)."""
        if abs(w[1]) < 1e-12:
            return np.full(2, np.nan)
        return -(w[0] * self.xs + w[2]) / w[1]

    def update(self, epsilon: float, clip: float) -> dict:
        if (epsilon, clip) not in self.models:
            raise ValueError(f"epsilon must be one of {self.EPSILONS} and clip one of {self.CLIPS} "
                             f"(the models are trained in advance), got epsilon={epsilon!r}, clip={clip!r}")
        acc = np.array([self.accuracy[(e, clip)] for e in self.EPSILONS])
        median = np.median(acc, axis=1)
        self.median_line.set_ydata(median)
        low, high = acc.min(axis=1), acc.max(axis=1)
        verts = np.concatenate([np.column_stack([self.eps, low]), np.column_stack([self.eps[::-1], high[::-1]])])
        self.band.set_verts([verts])
        self.marker.set_xdata([epsilon, epsilon])
        for line, ys in zip(self.boundaries, self.boundary[(epsilon, clip)]):
            line.set_data(self.xs, ys)
        here = self.accuracy[(epsilon, clip)]
        scale = self.models[(epsilon, clip)][0].noise_scale
        self.suptitle.set_text(f"C = {clip:g}, ε = {epsilon:g}: noise Lap({_number(scale)}) a step, "
                               f"median accuracy {np.median(here):.1%}")
        result = {"epsilon": epsilon, "clip": clip, "accuracy": here, "median_accuracy": float(np.median(here)),
                  "baseline_accuracy": self.baseline_accuracy, "noise_scale": scale, "curve": median}
        self._drawn = {**result, "low": low, "high": high}
        return result

    def alt_text(self) -> str:
        """Both panels, and at the slider's ε and C: the noise per step and the accuracy against the baselines."""
        runs = len(self.boundaries)
        what = (f"Two panels: left, a line chart of the test accuracy of DP-SGD against the total ε from "
                f"{self.EPSILONS[0]:g} to {self.EPSILONS[-1]:g} (log scale), the median and range of {runs} runs, beside "
                f"the non-private model's {self.baseline_accuracy:.1%} and always guessing the majority "
                f"({self.majority:.1%}); right, a scatter of the test patients, age against blood pressure (standardised), "
                f"with the decision boundaries of the {runs} runs and of the non-private model")
        r = self._drawn
        if r is None:
            return what + "."
        return (f"{what}. At C = {r['clip']:g}, ε = {r['epsilon']:g}: noise Lap({_number(r['noise_scale'])}) a step, "
                f"median accuracy {r['median_accuracy']:.1%} (runs from {r['accuracy'].min():.1%} to "
                f"{r['accuracy'].max():.1%}).")

    def data_table(self) -> dict | None:
        """One row per ε: the median, lowest and highest accuracy of the runs at the slider's C."""
        r = self._drawn
        if r is None:
            return None
        rows = [[f"{e:g}", f"{m:.1%}", f"{lo:.1%}", f"{hi:.1%}"]
                for e, m, lo, hi in zip(self.EPSILONS, r["curve"], r["low"], r["high"])]
        return {"caption": f"Test accuracy of DP-SGD at clip C = {r['clip']:g} (no privacy: {self.baseline_accuracy:.1%})",
                "columns": ["ε", "median accuracy", "lowest run", "highest run"], "rows": rows}
