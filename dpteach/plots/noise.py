"""Chapter 09's figures: the gaps of floating-point Laplace noise, the discrete Laplace and Gaussian, the auditor."""

from __future__ import annotations

import numpy as np

from .. import _validate
from ..audit import AuditResult
from ..discrete import (
    discrete_gaussian_epsilon,
    discrete_gaussian_pmf,
    discrete_gaussian_rho,
    discrete_gaussian_variance,
    discrete_laplace_pmf,
    discrete_laplace_scale,
)
from ..exact_composition import zcdp_to_dp
from ..floating import textbook_reachable
from ..laplace import laplace_pdf
from ._base import PALETTE, _Updatable, new_figure, styled
from ._describe import plain_number

__all__ = ["AuditFigure", "DiscreteGaussianFigure", "DiscreteLaplaceFigure", "FloatGapsFigure"]


class FloatGapsFigure(_Updatable):
    """The doubles next to one output z, and which of them each true value can produce.

    Each column is one double (z and its neighbours, one unit in the last place apart);
    a filled marker on the top row means the textbook float64 mechanism can output that
    double when f(x) = ``fx``, on the bottom row when f(y) = ``fy``. Where a column has a
    top marker and no bottom one, that output betrays x.
    """

    def __init__(self, z: float, fx: float = 0.0, fy: float = 1.0, sensitivity: float = 1.0,
                 epsilon: float = 1.0, width: int = 12) -> None:
        z0 = _validate.real("z", z)
        n = _validate.integer("width", width, low=1)
        below = [z0]
        for _ in range(n):
            below.append(np.nextafter(below[-1], -np.inf))
        above = [z0]
        for _ in range(n):
            above.append(np.nextafter(above[-1], np.inf))
        self.doubles = np.array(below[::-1] + above[1:])
        self.offsets = np.arange(-n, n + 1)
        self.from_x = textbook_reachable(self.doubles, fx, sensitivity, epsilon)
        self.from_y = textbook_reachable(self.doubles, fy, sensitivity, epsilon)
        self.fig, ax = new_figure(height=3.4)
        with styled():
            for row, hits, colour, marker, label in ((1, self.from_x, PALETTE["blue"], "o", f"f(x) = {fx:g}"),
                                                     (0, self.from_y, PALETTE["orange"], "s", f"f(y) = {fy:g}")):
                ax.scatter(self.offsets, np.full(self.offsets.shape, row), s=160, marker=marker,
                           facecolors=np.where(hits, colour, "white").tolist(), edgecolors=colour, linewidths=2,
                           label=f"can be output from {label}")
            betray = self.from_x & ~self.from_y
            ax.scatter(self.offsets[betray], np.full(betray.sum(), 1.45), marker="v", s=120,
                       color=PALETTE["vermillion"], label="betrays x: impossible from y")
            ax.set_yticks([0, 1], [f"from f(y) = {fy:g}", f"from f(x) = {fx:g}"])
            ax.set_ylim(-0.6, 2.1)
            ax.set_xlabel(f"neighbouring doubles of z = {z0!r}, in units in the last place")
            ax.set_title(f"Near z ≈ {z0:.4g}: x can output {int(self.from_x.sum())} of these {self.doubles.size} "
                         f"doubles, y {int(self.from_y.sum())}; {int(betray.sum())} betray x")
            ax.legend(loc="upper right", ncols=3, fontsize="small")
            ax.grid(False)
        self.z, self.fx, self.fy, self.betray = z0, fx, fy, betray

    def alt_text(self) -> str:
        """The two rows of doubles, and how many each side reaches and how many betray x."""
        n, betray = self.doubles.size, int(self.betray.sum())
        return (f"Dot chart of the {n} doubles next to z ≈ {self.z:.4g}, one unit in the last place apart: top row, "
                f"filled where the textbook float64 mechanism can output that double when f(x) = {self.fx:g}; bottom "
                f"row, when f(y) = {self.fy:g}. x can output {int(self.from_x.sum())} of these {n} doubles, y "
                f"{int(self.from_y.sum())}; {betray} betray x (impossible from y).")

    def data_table(self) -> dict | None:
        """One row per double (the 25 nearest z at most): who can output it."""
        middle = self.doubles.size // 2
        shown = range(max(0, middle - 12), min(self.doubles.size, middle + 13))
        yes = {True: "yes", False: "no"}
        return {"caption": f"The doubles next to z = {self.z!r}",
                "columns": ["offset (units in the last place)", "double", f"from f(x) = {self.fx:g}",
                            f"from f(y) = {self.fy:g}", "betrays x"],
                "rows": [[f"{self.offsets[i]:+d}", repr(float(self.doubles[i])), yes[bool(self.from_x[i])],
                          yes[bool(self.from_y[i])], yes[bool(self.betray[i])]] for i in shown]}


class _NeighbourPmfs(_Updatable):
    """Two pmfs on the integers side by side, as bars of width 0.4: ``self.z`` holds the integers."""

    z: np.ndarray
    #: the probability axis: every pmf fits (Pr ≤ 1)
    Y_TOP = 1.05

    def _draw(self, reach: int, noise: str, neighbour: str, continuous: str) -> None:
        """Fixed axes over the counts ±``reach``: one ``stairs`` artist per row of bars (a frame moves two artists,
        not 50 bars), the two continuous densities as dashed lines, a title and a note, all dynamic."""
        self.reach = _validate.integer("reach", reach, low=2)
        self.z = np.arange(-self.reach, self.reach + 1)
        self.x = np.linspace(-self.reach - 0.5, self.reach + 0.5, 600)
        self.fig, self.ax = new_figure(height=4.2)
        with styled():
            ax = self.ax
            empty = np.zeros(2 * self.z.size - 1)
            self.bars_x = ax.stairs(empty, self._edges(-0.2), fill=True, color=PALETTE["blue"],
                                    label=f"{noise} on f(x) = 0")
            # outlined, not filled: the two rows of bars differ in more than hue
            self.bars_y = ax.stairs(empty, self._edges(0.2), fill=False, baseline=0, color=PALETTE["orange"], lw=1.6,
                                    label=f"{noise} on {neighbour}")
            (self.line_x,) = ax.plot(self.x, np.zeros_like(self.x), color=PALETTE["blue"], lw=1.5, ls="--",
                                     label=continuous)
            (self.line_y,) = ax.plot(self.x, np.zeros_like(self.x), color=PALETTE["orange"], lw=1.5, ls="--")
            ax.set_xlim(self.x[0], self.x[-1])
            ax.set_ylim(0, self.Y_TOP)
            ax.set_xlabel("released count z (integers only)")
            ax.set_ylabel("probability (bars), density (lines)")
            ax.set_title(" ")
            ax.legend(loc="upper right", fontsize="small")
            self.note = ax.text(0.02, 0.95, "", transform=ax.transAxes, va="top", fontsize="small")
        self.dynamic = [self.bars_x, self.bars_y, self.line_x, self.line_y, ax.title, self.note]
        self.noise, self.neighbour = noise, neighbour
        self._drawn: dict | None = None

    #: the rows of the data table: the 25 integers nearest 0 and the neighbour
    TABLE_REACH = 12

    def _pmf_table(self, caption: str) -> dict | None:
        """Both pmfs and their ratio at the integers within ±12 of the middle of the two counts."""
        r = self._drawn
        if r is None:
            return None
        reach = min(self.reach, self.TABLE_REACH)
        rows = []
        for i in np.flatnonzero(np.abs(self.z) <= reach):
            px, py = r["pmf_x"][i], r["pmf_y"][i]
            rows.append([f"{self.z[i]:d}", plain_number(px), plain_number(py), _ratio(px, py)])
        return {"caption": caption, "columns": ["released count z", "Pr on f(x) = 0",
                                                 f"Pr on {self.neighbour}", "ratio"], "rows": rows}

    def _reading(self, r: dict) -> str:
        """What the numbers of the last update say (a sentence without its full stop)."""
        raise NotImplementedError

    def _caption(self, r: dict) -> str:
        """The data table's caption at the last update."""
        raise NotImplementedError

    def alt_text(self) -> str:
        """The two pmfs over the continuous densities, and what the last update's numbers say (:meth:`_reading`)."""
        what = (f"Bar chart: the {self.noise} pmf, the probability of each released integer count z from "
                f"−{self.reach} to {self.reach}, on f(x) = 0 (filled bars) and on {self.neighbour} (outlined bars), "
                "over the continuous densities (dashed)")
        r = self._drawn
        if r is None:
            return what + "."
        above = f"; the continuous peak, {r['peak']:.3g}, is above the axis" if r["peak"] > self.Y_TOP else ""
        return f"{what}. {self._reading(r)}{above}."

    def data_table(self) -> dict | None:
        """Both pmfs and their ratio at the integers within ±12 of 0."""
        r = self._drawn
        return None if r is None else self._pmf_table(self._caption(r))

    def _edges(self, shift: float) -> np.ndarray:
        """Edges of bars of width 0.4 centred on z + shift, with the gaps between them as steps of height 0."""
        left = self.z + shift - 0.2
        return np.column_stack([left, left + 0.4]).ravel()

    @staticmethod
    def _heights(pmf: np.ndarray) -> np.ndarray:
        """One step per bar, a zero-height step in each gap."""
        out = np.zeros(2 * pmf.size - 1)
        out[::2] = pmf
        return out


def _ratio(px: float, py: float) -> str:
    """The ratio of two probabilities: 2.718, 36,316, or "—" where the second is 0."""
    if py <= 0:
        return "—"
    ratio = px / py
    return f"{ratio:.3f}" if ratio < 1000 else f"{ratio:,.0f}"


class DiscreteLaplaceFigure(_NeighbourPmfs):
    """The discrete Laplace pmf on two neighbouring counts, over the continuous Lap(Δf/ε) density.

    Bars: Pr[f(x) + Z = z] for f(x) = 0 and f(y) = Δf, Z discrete Laplace with scale Δf/ε;
    lines: the continuous densities the textbook mechanism uses. The title gives the largest
    ratio of the two pmfs, which is e^ε.

    The axes stay put while ε moves (probability 0 to 1.05: a pmf never exceeds 1), so the
    bars grow into a spike as ε grows; the continuous density's peak ε/2 leaves the axis
    beyond ε = 2.1, and a note says so. Each row of bars is one ``stairs`` artist (bars of
    width 0.4 separated by empty steps), so a frame moves two artists, not 50 bars.
    """

    def __init__(self, reach: int = 12) -> None:
        self._draw(reach, "discrete Laplace", "f(y) = Δf", "continuous Lap(Δf/ε) densities")

    def update(self, epsilon: float, sensitivity: int = 1) -> dict:
        scale = discrete_laplace_scale(sensitivity, epsilon)
        t = float(scale)
        px = discrete_laplace_pmf(self.z, scale)
        py = discrete_laplace_pmf(self.z - sensitivity, scale)
        self.bars_x.set_data(values=self._heights(px))
        self.bars_y.set_data(values=self._heights(py))
        self.line_x.set_ydata(laplace_pdf(self.x, t))
        self.line_y.set_ydata(laplace_pdf(self.x - sensitivity, t))
        peak = float(laplace_pdf(0.0, t))
        self.note.set_text(f"continuous peak 1/(2b) = {peak:.3g}, above the axis" if peak > self.Y_TOP else "")
        ratio = float(np.max(px / py))
        self.ax.title.set_text(f"ε = {epsilon:.3g}: integer noise, scale Δf/ε = {t:.3g}; "
                               f"max ratio {ratio:.3f} = exp(ε)")   # no mathtext: parsed anew each frame
        result = {"epsilon": epsilon, "scale": scale, "z": self.z, "pmf_x": px, "pmf_y": py, "max_ratio": ratio}
        self._drawn = {**result, "peak": peak}
        return result

    def _reading(self, r: dict) -> str:
        """The scale, the chance of no noise and the largest ratio (e^ε) at the slider's ε."""
        return (f"At ε = {r['epsilon']:.3g} the noise is integer, scale Δf/ε = {float(r['scale']):.3g}: Pr[no noise] = "
                f"{r['pmf_x'][self.reach]:.3g}, and the largest ratio of the two pmfs is {r['max_ratio']:.3f} = exp(ε)")

    def _caption(self, r: dict) -> str:
        return f"Discrete Laplace pmfs at ε = {r['epsilon']:.3g}, scale {float(r['scale']):.3g}"


class DiscreteGaussianFigure(_NeighbourPmfs):
    """The discrete Gaussian pmf on two neighbouring counts, over the continuous N(0, σ²) densities.

    Bars: Pr[f(x) + Z = z] for f(x) = 0 and f(y) = 1, Z discrete Gaussian with parameter σ
    (Canonne, Kamath & Steinke 2020); lines: the continuous Gaussian densities with the same σ.
    The title gives ρ = Δ²/(2σ²), the zCDP guarantee (CKS Theorem 4), and the variance next to
    σ²; the note what ρ means at δ = 10⁻⁶: the ε of CKS's conversion (Proposition 12), an upper
    bound, beside the exact ε of this one release (its privacy loss distribution).

    Built as :class:`DiscreteLaplaceFigure`: fixed axes (probability 0 to 1.05; counts ±``reach``,
    three σ at the slider's largest σ = 5), one ``stairs`` artist per row of bars. The continuous
    density's peak 1/(σ√(2π)) leaves the axis below σ = 0.38, and a note says so.
    """

    #: the δ at which the note converts ρ
    DELTA = 1e-6

    def __init__(self, reach: int = 15) -> None:
        self._draw(reach, "discrete Gaussian", "f(y) = 1", "continuous N(0, σ²) densities")

    def update(self, sigma: float) -> dict:
        s = _validate.positive("sigma", sigma)
        px = discrete_gaussian_pmf(self.z, s)
        py = discrete_gaussian_pmf(self.z - 1, s)
        self.bars_x.set_data(values=self._heights(px))
        self.bars_y.set_data(values=self._heights(py))
        density = np.exp(-self.x**2 / (2 * s * s)) / (s * np.sqrt(2 * np.pi))
        self.line_x.set_ydata(density)
        self.line_y.set_ydata(np.exp(-(self.x - 1) ** 2 / (2 * s * s)) / (s * np.sqrt(2 * np.pi)))
        rho = discrete_gaussian_rho(s)
        var = discrete_gaussian_variance(s)
        converted = float(zcdp_to_dp(rho, self.DELTA))
        exact = discrete_gaussian_epsilon(s, self.DELTA)
        peak = 1 / (s * np.sqrt(2 * np.pi))
        lines = [f"at δ = 10⁻⁶: ε = {converted:.3g} from ρ (CKS), exact {exact:.3g}"]
        if peak > self.Y_TOP:
            lines.append(f"continuous peak 1/(σ√(2π)) = {peak:.3g}, above the axis")
        self.note.set_text("\n".join(lines))
        self.ax.title.set_text(f"σ = {s:.3g}: ρ = Δ²/(2σ²) = {rho:.3g}-zCDP; "
                               f"variance {var:.4g} (σ² = {s * s:.4g})")   # no mathtext: parsed anew each frame
        result = {"sigma": s, "z": self.z, "pmf_x": px, "pmf_y": py, "rho": rho, "variance": var,
                  "epsilon_zcdp": converted, "epsilon_exact": exact}
        self._drawn = {**result, "peak": peak}
        return result

    def _reading(self, r: dict) -> str:
        """ρ, the variance and the two ε at δ = 10⁻⁶ at the slider's σ."""
        return (f"At σ = {r['sigma']:.3g}: ρ = {r['rho']:.3g}-zCDP, variance {r['variance']:.4g} (σ² = "
                f"{r['sigma'] ** 2:.4g}); at δ = 10⁻⁶, ε = {r['epsilon_zcdp']:.3g} from ρ (CKS's conversion), exactly "
                f"{r['epsilon_exact']:.3g} for this release")

    def _caption(self, r: dict) -> str:
        return f"Discrete Gaussian pmfs at σ = {r['sigma']:.3g}"


class AuditFigure(_Updatable):
    """What an audit proved, event by event: the ε each threshold event shows violated.

    One panel per audit (say, a correct mechanism and its broken twin). For each threshold t
    the markers give the largest ε′ the event {Z ≥ t} (triangles up) or {Z ≤ t} (down)
    proves violated, at the audit's false-alarm rate; the dashed line is the claimed ε.
    A marker above the line refutes the claim.
    """

    def __init__(self, audits: dict[str, AuditResult]) -> None:
        if not audits or not all(isinstance(a, AuditResult) for a in audits.values()):
            raise TypeError("audits must be a non-empty dict of name → dp.privacy_audit(...) results")
        self.fig, axes = new_figure(1, len(audits), height=4.0, squeeze=False, sharey=True)
        self.axes = list(axes[0])
        top = max(max(a.epsilon_lower_bound, a.epsilon) for a in audits.values())
        with styled():
            for ax, (name, a) in zip(self.axes, audits.items()):
                ge, le = a.event_bounds
                ax.plot(a.thresholds, ge, "^", color=PALETTE["blue"], ms=8, label="{Z ≥ t}")
                ax.plot(a.thresholds, le, "v", color=PALETTE["green"], ms=8, label="{Z ≤ t}")
                ax.axhline(a.epsilon, color=PALETTE["vermillion"], ls="--", lw=2, label=f"claimed ε = {a.epsilon:g}")
                ax.set_ylim(0, 1.25 * top)
                ax.set_xlabel("threshold t")
                verdict = "refuted" if a.refuted else "not refuted"
                ax.set_title(f"{name}\nproved ε ≥ {a.epsilon_lower_bound:.2f}: {verdict}")   # two lines: no overlap
            self.axes[0].set_ylabel("ε proved violated")
            self.axes[0].legend(loc="upper left", fontsize="small")
        self.audits = dict(audits)

    def alt_text(self) -> str:
        """What each audit proved, against the claimed ε."""
        verdicts = "; ".join(f"{name}: proved ε ≥ {a.epsilon_lower_bound:.2f}, "
                             f"{'refuted' if a.refuted else 'not refuted'}" for name, a in self.audits.items())
        claimed = sorted({a.epsilon for a in self.audits.values()})
        return (f"Dot chart, one panel per audit: for each threshold t, the ε that the event Z ≥ t (triangles up) or "
                f"Z ≤ t (triangles down) proves violated, against the claimed ε = "
                f"{' and '.join(f'{e:g}' for e in claimed)} (dashed line); a marker above the line refutes the claim. "
                f"{verdicts}.")

    def data_table(self) -> dict | None:
        """One row per audit: the claim, what it proved, the verdict and the number of events tried."""
        return {"caption": "What each audit proved",
                "columns": ["audit", "claimed ε", "proved ε ≥", "verdict", "events tried"],
                "rows": [[name, f"{a.epsilon:g}", f"{a.epsilon_lower_bound:.2f}",
                          "refuted" if a.refuted else "not refuted", f"{a.n_events:,}"]
                         for name, a in list(self.audits.items())[:25]]}
