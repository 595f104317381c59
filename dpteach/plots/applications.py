"""Figures for chapter 10: the Laplace mechanism at work (a hospital, a shop, a city, a survey, a model).

Every figure a slider drives keeps its axes fixed over each control's whole range and lists in
``dynamic`` the artists ``update`` changes, so a frame redraws only those (see ``_base``).
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.colors import to_rgba

from .. import _validate
from ..applications import capping_error
from ..attack import laplace_attack_success
from ..counting import capped_histogram
from ..laplace import laplace_pdf, laplace_scale
from ..local import (
    randomized_response_probability,
)
from ._base import PALETTE, _number, _plain_log_axes, _rng, _Updatable, new_figure, styled
from ._describe import plain_number

__all__ = ["CappedReportFigure", "HospitalCountFigure"]


class HospitalCountFigure(_Updatable):
    """One count, Lap(1/ε): the released count's density with and without one patient.

    The two curves are the output densities on neighbouring databases (the count with the
    patient, and without); their ratio never exceeds e^ε (Theorem 3.6). The note turns ε into
    what it means for the patient: an attacker who thought "50–50: is this patient in the
    data?" guesses right with probability 1 − ½e^(−ε/2) at best against this count, and against
    any ε-DP mechanism at most e^ε/(1 + e^ε).

    The axes stay put while ε moves: counts within ±8 of the truth, densities on a log scale
    from 0.001 to 10 (the peak 1/(2b) = ε/2 runs from 0.005 to 5 over ε in [0.01, 10]). On a
    log axis the ratio of the two curves is the vertical gap between them.
    """

    #: half-width of the window of counts shown, around count − ½
    HALF = 8.0
    Y_LIMITS = (1e-3, 10.0)

    def __init__(self, count: int, rng: np.random.Generator | None = None) -> None:
        self.count = _validate.integer("count", count, low=1)
        gen = _rng(rng)
        self.unit = float(gen.laplace(0.0, 1.0))        # one release, rescaled with ε
        self.z = np.linspace(count - 0.5 - self.HALF, count - 0.5 + self.HALF, 801)
        self.fig, self.ax = new_figure(height=4.2)
        with styled():
            ax = self.ax
            (self.with_line,) = ax.plot(self.z, self.z, color=PALETTE["blue"], label=f"with the patient (count {count:,})")
            (self.without_line,) = ax.plot(self.z, self.z, color=PALETTE["orange"], ls="--",
                                           label=f"without (count {count - 1:,})")
            # a light fill with full-colour edges: the band's edges read at 3:1 on white, its fill does not
            self.band = ax.axvspan(0, 1, facecolor=to_rgba(PALETTE["sky"], 0.2), edgecolor=PALETTE["sky"], lw=1.2,
                                   label="95% of releases")
            self.release = ax.axvline(count, color=PALETTE["vermillion"], lw=2, ls="-.", label="one release")
            ax.set_yscale("log")
            ax.set_xlim(self.z[0], self.z[-1])
            ax.set_ylim(*self.Y_LIMITS)
            _plain_log_axes(ax)
            ax.set_xlabel("released count of patients with the condition")
            ax.set_ylabel("density (log scale)")
            ax.set_title(" \n ", fontsize="medium")     # 2nd line: the noise and this release (a note inside would sit on the band)
            # below the axes: the band covers the whole width at small ε, the curves reach the top at large ε
            self.fig.legend(loc="outside lower center", ncols=2, fontsize="small")
        self.dynamic = [self.with_line, self.without_line, self.band, self.release, ax.title]
        #: the data table's rows: the whole counts from 6 below the true count to 5 above (indices into z)
        self._rows = [int(np.argmin(np.abs(self.z - c))) for c in range(count - 6, count + 6)]
        self._drawn: dict | None = None

    def update(self, epsilon: float) -> dict:
        b = laplace_scale(1.0, epsilon)
        z = self.z
        p_with, p_without = laplace_pdf(z - self.count, b), laplace_pdf(z - (self.count - 1), b)
        within = math.log(20) * b                          # Fact 3.7: Pr[|Y| ≥ ln(20)·b] = 5%
        released = self.count + b * self.unit
        belief = randomized_response_probability(epsilon)  # e^ε/(1 + e^ε): prior 1/2, odds × e^ε at most
        guess = laplace_attack_success(epsilon)             # 1 − ½e^(−ε/2): the best 50/50 guess against this count
        self.with_line.set_ydata(p_with)
        self.without_line.set_ydata(p_without)
        self.band.set_x(self.count - within)
        self.band.set_width(2 * within)
        self.release.set_xdata([released, released])
        beyond = " (off the plot)" if not z[0] <= released <= z[-1] else ""
        # no mathtext: the title changes every frame, and a parse per frame costs ~9 ms
        self.ax.title.set_text(f"ε = {epsilon:.3g}: ± {_number(within)} (95%); best guess "
                               f"{guess:.1%} (any ε-DP ≤ {belief:.1%})\nnoise Lap({b:.3g}); curves' ratio ≤ exp(ε) = {_number(math.exp(epsilon))}; "
                               f"release {released:,.{1 if abs(released) < 1e4 else 0}f}{beyond}")
        result = {"scale": b, "within_95": within, "released": released, "posterior_bound": belief, "best_guess": guess,
                  "ratio_bound": math.exp(epsilon), "z": z, "with": p_with, "without": p_without}
        self._drawn = {**result, "epsilon": epsilon, "beyond": beyond}
        return result

    def alt_text(self) -> str:
        """The two densities, and what ε means for the patient: the 95% range, the best guess and its limit."""
        c = self.count
        what = (f"Line chart, log scale: the density of the released count of patients with the condition, with the "
                f"patient (true count {c:,}) and without (count {c - 1:,}), with the band that holds 95% of releases "
                "and one release")
        r = self._drawn
        if r is None:
            return what + "."
        return (f"{what}. At ε = {r['epsilon']:.3g} the noise is Lap({r['scale']:.3g}): 95% of releases within "
                f"± {_number(r['within_95'])}, the curves' ratio never exceeds exp(ε) = {_number(r['ratio_bound'])}, and "
                f"this release is {r['released']:,.{1 if abs(r['released']) < 1e4 else 0}f}{r['beyond']}. An attacker's "
                f"best guess whether the patient is in the data is right {r['best_guess']:.1%} of the time against this "
                f"count; no ε-DP mechanism allows more than {r['posterior_bound']:.1%}.")

    def data_table(self) -> dict | None:
        """Both densities and their ratio at the whole counts around the truth."""
        r = self._drawn
        if r is None:
            return None
        rows = [[f"{self.z[i]:,.0f}", plain_number(r["with"][i]), plain_number(r["without"][i]),
                 plain_number(r["with"][i] / r["without"][i])] for i in self._rows]
        return {"caption": f"Density of the released count at ε = {r['epsilon']:.3g} (noise Lap({r['scale']:.3g}))",
                "columns": ["released count", f"with the patient ({self.count:,})",
                            f"without ({self.count - 1:,})", "ratio"], "rows": rows}

    def explore_points(self) -> list[dict]:
        """Both densities, 81 points each over the window of counts shown."""
        r = self._drawn
        if r is None:
            return []
        z = [round(x, 6) for x in self.z[::10].tolist()]
        return [{"name": name, "x": "released count", "y": "density",
                 "points": [[x, float(y)] for x, y in zip(z, r[key][::10])]}
                for name, key in ((f"with the patient (count {self.count:,})", "with"),
                                  (f"without (count {self.count - 1:,})", "without"))]


def _bar_edges(k: int, width: float = 0.8) -> np.ndarray:
    """Edges of k bars of ``width`` centred on 0, 1, …, k − 1, with the gaps between them as steps."""
    centres = np.arange(k)
    return np.column_stack([centres - width / 2, centres + width / 2]).ravel()


def _bar_values(heights: np.ndarray) -> np.ndarray:
    """Step values for :func:`_bar_edges`: each bar's height, 0 in each gap."""
    out = np.zeros(2 * len(heights) - 1)
    out[::2] = heights
    return out


class CappedReportFigure(_Updatable):
    """A histogram of events by cell with each user capped at c events: bias against noise.

    Left: per cell, every event (uncapped, outline), the events the cap keeps (bars) and the
    release Lap(c/ε) added to the kept counts (dots with their 95% interval). Right: the
    root-mean-square error of the release against the uncapped truth, by cap, on a log scale
    (error 0.1 to 3,000 per cell covers every c and ε): small caps drop many events (bias),
    large caps need much noise (Δf = c).
    """

    #: errors reach 3,000 (c = 20, ε = 0.01); the two decades above are the legend's
    ERROR_LIMITS = (0.1, 1e6)

    def __init__(self, users, cells, labels, cap_max: int = 20, subject: str = "purchases",
                 rng: np.random.Generator | None = None) -> None:
        self.labels = tuple(str(s) for s in labels)
        k = len(self.labels)
        self.cap_max = _validate.integer("cap_max", cap_max, low=1)
        self.subject = subject
        self.caps = np.arange(1, self.cap_max + 1)
        self.truth = capped_histogram(users, cells, k, max(1, len(users)))
        self.kept = np.array([capped_histogram(users, cells, k, int(c)) for c in self.caps])
        self.bias = capping_error(self.truth, self.kept, self.caps, 1.0)["bias"]
        gen = _rng(rng)
        self.unit = gen.laplace(0.0, 1.0, size=k)
        self.fig, (self.left, self.right) = new_figure(1, 2, height=4.6, width_ratios=(1.6, 1))
        pos = np.arange(k)
        edges = _bar_edges(k)
        with styled():
            left, right = self.left, self.right
            left.stairs(_bar_values(self.truth), edges, baseline=0, fill=False, color=PALETTE["black"], lw=1.2,
                        label=f"all {subject}")
            self.kept_bars = left.stairs(_bar_values(self.truth), edges, fill=True, color=PALETTE["sky"],
                                         label="kept by the cap")
            self.released = left.errorbar(pos, self.truth, yerr=np.ones(k), fmt="o", color=PALETTE["vermillion"],
                                          elinewidth=2, label="released ± 95%")
            left.set_xticks(pos, self.labels, rotation=45, ha="right")
            left.set_xlim(-0.7, k - 0.3)
            left.set_ylabel(f"{subject} per cell")
            left.set_title(f"{subject} per cell")
            left.legend(loc="upper right", frameon=True, framealpha=0.9, edgecolor="none")
            left.set_ylim(0, 1.25 * self.truth.max())
            self.note = left.text(0.02, 0.97, "", transform=left.transAxes, va="top", fontsize="small",
                                  bbox={"facecolor": "white", "alpha": 0.9, "edgecolor": "none"})
            self.suptitle = self.fig.suptitle(" ", fontweight="bold")
            (self.rmse_line,) = right.plot(self.caps, self.caps.astype(float), color=PALETTE["blue"],
                                           label="total (RMS)")
            shown_bias = np.where(self.bias > 0, self.bias, np.nan)     # a cap that drops nothing: no bias to draw
            right.plot(self.caps, shown_bias, color=PALETTE["orange"], ls="--", label="bias (dropped)")
            (self.noise_line,) = right.plot(self.caps, self.caps.astype(float), color=PALETTE["green"], ls=":",
                                            label="noise std √2·c/ε")
            (self.marker,) = right.plot([1], [1], "o", color=PALETTE["vermillion"], ms=9)
            right.set_yscale("log")
            right.set_xlim(0.5, self.cap_max + 0.5)
            right.set_ylim(*self.ERROR_LIMITS)
            _plain_log_axes(right)
            right.set_xlabel("c, cap per user (Δf = c)")
            right.set_ylabel("error per cell (log scale)")
            right.set_title("Error against the cap")
            right.legend(loc="upper right", fontsize="small")
        line, _, (bars,) = self.released.lines
        self.dynamic = [self.kept_bars, line, bars, self.note, self.rmse_line, self.noise_line, self.marker,
                        right.title, self.suptitle]
        self._drawn: dict | None = None

    def update(self, cap: int, epsilon: float) -> dict:
        c = _validate.integer("cap", cap, low=1, high=self.cap_max)
        b = laplace_scale(float(c), epsilon)
        kept = self.kept[c - 1]
        released = kept + b * self.unit
        within = math.log(20) * b                          # Fact 3.7: 95% of Lap(b) within ±ln(20)·b
        self.kept_bars.set_data(_bar_values(kept))
        line, _, (bars,) = self.released.lines
        line.set_ydata(released)
        bars.set_segments([np.array([[i, r - within], [i, r + within]]) for i, r in enumerate(released)])
        error = capping_error(self.truth, self.kept, self.caps, epsilon)
        rmse = error["total"]
        self.rmse_line.set_ydata(rmse)
        self.noise_line.set_ydata(error["noise"])
        self.marker.set_data([c], [rmse[c - 1]])
        best = int(error["best"])
        dropped = 1 - kept.sum() / self.truth.sum()
        top = self.left.get_ylim()[1]
        self.note.set_text(f"noise: 95% within ±{_number(within)}"
                           + ("\n(beyond the axes)" if within > top else ""))
        self.suptitle.set_text(f"c = Δf = {c}, ε = {epsilon:.3g}: noise Lap({_number(b)}), "
                               f"{dropped:.0%} of {self.subject} dropped")
        self.right.title.set_text(f"least error at c = {best}")
        result = {"cap": c, "sensitivity": c, "scale": b, "truth": self.truth, "kept": kept, "released": released,
                  "dropped": float(dropped), "rmse": rmse, "best_cap": best}
        self._drawn = {**result, "epsilon": epsilon, "within": within}
        return result

    def alt_text(self) -> str:
        """Both panels, and at the slider's c and ε: the noise, what the cap drops, the error and the best cap."""
        s = self.subject
        what = (f"Two panels: left, a bar chart of {s} per cell ({', '.join(self.labels)}), every one (outlines), those "
                f"the cap c keeps (bars) and the release with Laplace noise (dots with their 95% interval); right, a line "
                f"chart of the error per cell against the cap c from 1 to {self.cap_max}: the total (RMS), the bias of "
                "what the cap drops and the noise")
        r = self._drawn
        if r is None:
            return what + "."
        c = r["cap"]
        return (f"{what}. At c = Δf = {c}, ε = {r['epsilon']:.3g}: noise Lap({_number(r['scale'])}), 95% within "
                f"±{_number(r['within'])}; {r['dropped']:.0%} of {s} dropped; RMS error {_number(r['rmse'][c - 1])} per "
                f"cell; the least error is at c = {r['best_cap']}.")

    def data_table(self) -> dict | None:
        """One row per cell: every event, those kept and the release."""
        r = self._drawn
        if r is None:
            return None
        rows = [[label, f"{self.truth[i]:,.0f}", f"{r['kept'][i]:,.0f}", f"{r['released'][i]:,.1f}"]
                for i, label in enumerate(self.labels[:25])]
        return {"caption": f"{self.subject} per cell, capped at c = {r['cap']}, released at ε = {r['epsilon']:.3g}",
                "columns": ["cell", f"all {self.subject}", "kept by the cap", "released"], "rows": rows}


