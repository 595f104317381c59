"""Figures for chapter 06: composition, post-processing and the privacy budget."""

from __future__ import annotations

import numpy as np

from .. import _validate
from ..composition import (
    PrivacyBudget,
    advanced_coefficients,
    advanced_composition,
    advanced_composition_crossover,
    advanced_total,
    averaged_answers_std,
    basic_composition,
    project_to_total,
)
from ..counting import clamp_nonnegative, round_counts
from ..laplace import laplace_scale
from ._base import PALETTE, _number, _plain_log_axes, _rng, _Updatable, new_figure, styled

__all__ = ["AdvancedCompositionFigure", "AveragingFigure", "BudgetFigure", "PostProcessingFigure"]


class AveragingFigure(_Updatable):
    """Sequential composition seen empirically: k answers to the same count, averaged.

    Left: the standard deviation of the average against k. Splitting a fixed ε into k
    answers at ε/k makes the average *worse* (std √(2k)·Δf/ε); spending ε on each answer
    makes it better (std √2·Δf/(ε√k)), which is the averaging attack. Dots are measured on
    ``runs`` simulated sessions (unit noise drawn once and rescaled). Right: what each
    session spends, by Theorem 3.16: ε for the split, kε for the attack.

    The axes are fixed over k in [1, k_max] and ε in ``epsilon_range`` (Δf = 1), on log
    scales: moving ε slides every curve up or down by the same factor, moving k moves the
    markers along them.
    """

    def __init__(self, k_max: int = 50, runs: int = 2_000, epsilon_range: tuple[float, float] = (0.01, 10.0),
                 rng: np.random.Generator | None = None) -> None:
        self.k_max = _validate.integer("k_max", k_max, low=2)
        eps_low, eps_high = (_validate.epsilon(e, "epsilon_range") for e in epsilon_range)
        gen = _rng(rng)
        unit = gen.laplace(0.0, 1.0, size=(_validate.integer("runs", runs, low=20), self.k_max))
        self.runs = unit.shape[0]
        self.ks = np.arange(1, self.k_max + 1)
        self.unit_std = (np.cumsum(unit, axis=1) / self.ks).std(axis=0)    # std of the mean of k Lap(1)
        self.shown = np.unique(np.round(np.logspace(0, np.log10(self.k_max), 8)).astype(int))
        # std of the average at ε = 1, Δf = 1; both curves scale with 1/ε (Definition 3.2: Lap(b) has std √2·b)
        self.attack_unit = np.array([averaged_answers_std(int(k), 1.0, 1.0) for k in self.ks])
        self.split_unit = np.array([averaged_answers_std(int(k), 1.0, 1.0 / k) for k in self.ks])
        self.fig, (self.left, self.right) = new_figure(1, 2, height=4.6, width_ratios=(3, 2))
        with styled():
            left, right = self.left, self.right
            split, attack, one = PALETTE["vermillion"], PALETTE["blue"], PALETTE["black"]
            (self.one_line,) = left.loglog(self.ks, self.ks * 1.0, color=one, ls=":", label="one answer at ε")
            # not by colour alone: the split dashed with squares, the attack solid with circles (WCAG 1.4.1)
            (self.split_line,) = left.loglog(self.ks, self.ks * 1.0, color=split, ls="--",
                                             label="k answers at ε/k, averaged")
            (self.attack_line,) = left.loglog(self.ks, self.ks * 1.0, color=attack,
                                              label="k answers at ε each, averaged")
            (self.split_dots,) = left.loglog(self.shown, self.shown, "s", color=split, ms=6)
            (self.attack_dots,) = left.loglog(self.shown, self.shown, "o", color=attack, ms=6,
                                              label=f"measured, {self.runs:,} sessions")
            self.left_marker = left.axvline(1, color=PALETTE["orange"], ls="--", lw=2)
            left.set_xlim(1, self.k_max)
            left.set_ylim(0.5 * self.attack_unit[-1] / eps_high, 2 * self.split_unit[-1] / eps_low)
            left.set_xlabel("k, answers to the same count")
            left.set_ylabel("std of the average")
            left.set_title(" ")
            (self.split_cost,) = right.loglog(self.ks, self.ks * 1.0, color=split, ls="--", label="split: ε in all")
            (self.attack_cost,) = right.loglog(self.ks, self.ks * 1.0, color=attack, label="attack: kε")
            self.right_marker = right.axvline(1, color=PALETTE["orange"], ls="--", lw=2)
            right.set_xlim(1, self.k_max)
            right.set_ylim(0.5 * eps_low, 2 * self.k_max * eps_high)
            right.set_xlabel("k")
            right.set_ylabel("ε spent (Theorem 3.16)")
            right.set_title(" ")
            # one legend below the panels: inside, the k marker crosses the whole height of either panel
            self.fig.legend(handles=left.get_lines()[:3] + [self.attack_dots, self.split_cost, self.attack_cost],
                            loc="outside lower center", ncols=3, fontsize="small")
            _plain_log_axes(left, right)
        self.dynamic = [self.one_line, self.split_line, self.attack_line, self.split_dots, self.attack_dots,
                        self.left_marker, self.split_cost, self.attack_cost, self.right_marker,
                        left.title, right.title]

    def update(self, k: int, epsilon: float, sensitivity: float = 1.0) -> dict:
        n = _validate.integer("k", k, low=1, high=self.k_max)
        b = laplace_scale(sensitivity, epsilon)
        one = averaged_answers_std(1, sensitivity, epsilon)
        split_theory = self.split_unit * b                    # mean of k Lap(kb): std √2·kb/√k
        attack_theory = self.attack_unit * b                  # mean of k Lap(b):  std √2·b/√k
        split_measured = self.shown * b * self.unit_std[self.shown - 1]
        attack_measured = b * self.unit_std[self.shown - 1]
        self.one_line.set_ydata(np.full(self.ks.shape, one))
        self.split_line.set_ydata(split_theory)
        self.attack_line.set_ydata(attack_theory)
        self.split_dots.set_ydata(split_measured)
        self.attack_dots.set_ydata(attack_measured)
        eps = float(epsilon)
        self.split_cost.set_ydata(np.full(self.ks.shape, basic_composition(1, eps)[0]))
        self.attack_cost.set_ydata(self.ks * eps)
        for marker in (self.left_marker, self.right_marker):
            marker.set_xdata([n, n])
        self.left.title.set_text(f"k = {n}: std of split ×{np.sqrt(n):.3g}, of attack ÷{np.sqrt(n):.3g}")
        self.right.title.set_text(f"attack: {n}ε = {_number(n * eps)}")
        self._now = (n, eps, b, one)
        return {"k": n, "epsilon": eps, "scale": b, "one_std": one,
                "split_std": averaged_answers_std(n, sensitivity, eps / n),
                "attack_std": averaged_answers_std(n, sensitivity, eps),
                "split_measured": float(n * b * self.unit_std[n - 1]),
                "attack_measured": float(b * self.unit_std[n - 1]),
                "split_spent": eps, "attack_spent": basic_composition(n, eps)[0]}


    def alt_text(self) -> str:
        if not hasattr(self, "_now"):
            return super().alt_text()
        n, eps, b, one = self._now
        split, attack = self.split_unit[n - 1] * b, self.attack_unit[n - 1] * b
        return (f"Left: the standard deviation of the average of k answers to one count against k from 1 to "
                f"{self.k_max} on log axes: the budget ε split into k answers at ε/k (dashed, grows like √k) and k "
                f"answers at ε each (solid, shrinks like 1/√k), with dots measured on {self.runs:,} sessions. Right: "
                f"the ε each spends, ε for the split and kε for the attack. At k = {n} and ε = {eps:.3g} one answer "
                f"has standard deviation {_number(one)}; the split's average {_number(split)} (×{np.sqrt(n):.3g}), "
                f"the attack's {_number(attack)} (÷{np.sqrt(n):.3g}), and the attack spends {n}ε = {_number(n * eps)}.")

    def data_table(self) -> dict | None:
        if not hasattr(self, "_now"):
            return None
        n, eps, b, _ = self._now
        ks = np.unique(np.r_[self.shown, n])
        rows = [[f"{k}" + (" (now)" if k == n else ""), _number(self.split_unit[k - 1] * b),
                 _number(k * b * self.unit_std[k - 1]), _number(self.attack_unit[k - 1] * b),
                 _number(b * self.unit_std[k - 1]), _number(k * eps)] for k in ks]
        return {"caption": f"Averaging k answers at ε = {eps:.3g} (standard deviations; the split spends ε = {eps:.3g})",
                "columns": ["k", "split: std", "split: measured", "attack: std", "attack: measured", "attack: ε spent"],
                "rows": rows}


class AdvancedCompositionFigure(_Updatable):
    """Theorem 3.20 against Theorem 3.16: the total ε of k queries at ε each, on log axes.

    Basic composition spends kε; advanced composition spends √(2k ln(1/δ′))·ε + kε(e^ε − 1)
    with the slack δ′ (an (ε′, δ′) guarantee). The dashed line is the better of the two (both hold).
    The axes are fixed over k in [1, K_MAX], ε in ``epsilon_range`` and δ′ in
    ``delta_prime_range``: moving ε shifts both curves up or down, moving δ′ only the
    advanced one, and the green line marks :func:`~dpteach.advanced_composition_crossover`.
    """

    K_MAX = 100_000

    def __init__(self, epsilon_range: tuple[float, float] = (0.001, 1.0),
                 delta_prime_range: tuple[float, float] = (1e-9, 1e-2)) -> None:
        eps_low, eps_high = (_validate.epsilon(e, "epsilon_range") for e in epsilon_range)
        dp_low = min(delta_prime_range)
        self.ks = np.unique(np.round(np.logspace(0, np.log10(self.K_MAX), 240)).astype(int))
        self.fig, self.ax = new_figure(height=4.6)
        with styled():
            ax = self.ax
            # not by colour alone: basic dotted, advanced solid, the smaller of the two dashed (WCAG 1.4.1)
            (self.basic,) = ax.loglog(self.ks, self.ks, color=PALETTE["vermillion"], ls=":", lw=2.6,
                                      label="basic: kε (Thm 3.16)")
            (self.advanced,) = ax.loglog(self.ks, self.ks, color=PALETTE["blue"],
                                         label=r"advanced: √(2k ln(1/δ′))·ε + kε($e^{\varepsilon}$ − 1) (Thm 3.20)")
            (self.best,) = ax.loglog(self.ks, self.ks, color=PALETTE["black"], ls="--", lw=1.4,
                                     label="the smaller of the two")
            (self.dots,) = ax.loglog([1, 1], [1, 1], "o", color=PALETTE["black"], ms=7)
            self.marker = ax.axvline(1, color=PALETTE["orange"], ls=":", lw=2)
            self.cross = ax.axvline(1, color=PALETTE["green"], ls="-.", lw=1.5, label="advanced wins from here")
            ax.set_xlim(1, self.K_MAX)
            low = basic_composition(1, eps_low)[0]
            high = advanced_composition(self.K_MAX, eps_high, dp_low)[0]
            ax.set_ylim(10 ** np.floor(np.log10(low)), 10 ** np.ceil(np.log10(high) + 0.3))
            ax.set_xlabel("k, number of queries")
            ax.set_ylabel("total ε spent")
            ax.set_title(" \n ")      # 2nd line: where advanced starts to win (a note inside would meet the k marker)
            # below the axes: the k marker and the crossover line cross the whole height, the curves the width
            self.fig.legend(loc="outside lower center", ncols=2, fontsize="small")
            self.note = ax.title        # the note is the title's second line
            _plain_log_axes(ax)
        self.dynamic = [self.basic, self.advanced, self.best, self.dots, self.marker, self.cross, ax.title]

    def update(self, k: int, epsilon: float, delta_prime: float) -> dict:
        n = _validate.integer("k", k, low=1, high=self.K_MAX)
        basic_k = basic_composition(n, epsilon)[0]
        advanced_k = advanced_composition(n, epsilon, delta_prime)[0]
        crossover = advanced_composition_crossover(epsilon, delta_prime)
        basic = self.ks * float(epsilon)                                              # Theorem 3.16
        advanced = advanced_total(self.ks, *advanced_coefficients(float(epsilon), float(delta_prime)))
        self.basic.set_ydata(basic)
        self.advanced.set_ydata(advanced)
        self.best.set_ydata(np.minimum(basic, advanced))
        self.dots.set_data([n, n], [basic_k, advanced_k])
        self.marker.set_xdata([n, n])
        self.cross.set_xdata([crossover if crossover and crossover <= self.K_MAX else self.K_MAX * 10] * 2)
        self.ax.title.set_text(f"{n:,} quer{'y' if n == 1 else 'ies'} at ε = {epsilon:.3g}: basic {_number(basic_k)}, "
                               f"advanced {_number(advanced_k)}\n(δ′ = {delta_prime:.0e}) "
                               + (f"advanced wins from k = {crossover:,}" if crossover
                                  else "advanced never wins at this ε (ε ≥ ln 2)"))
        self._now = (n, float(epsilon), float(delta_prime), basic_k, advanced_k, crossover)
        return {"k": n, "epsilon": float(epsilon), "delta_prime": float(delta_prime), "basic": basic_k,
                "advanced": advanced_k, "best": min(basic_k, advanced_k), "crossover": crossover}


    def alt_text(self) -> str:
        if not hasattr(self, "_now"):
            return super().alt_text()
        n, eps, dp, basic_k, advanced_k, crossover = self._now
        wins = (f"advanced wins from k = {crossover:,}" if crossover
                else "advanced never wins at this ε (ε ≥ ln 2)")
        return (f"Line chart on log axes of the total ε spent by k queries at ε each against k from 1 to "
                f"{self.K_MAX:,}: basic composition kε (Theorem 3.16, dotted), advanced composition (Theorem 3.20, "
                f"with slack δ′) and the smaller of the two (dashed). At {n:,} quer{'y' if n == 1 else 'ies'} at "
                f"ε = {eps:.3g} and δ′ = {dp:.0e}: basic {_number(basic_k)}, advanced {_number(advanced_k)}; {wins}.")

    def data_table(self) -> dict | None:
        if not hasattr(self, "_now"):
            return None
        n, eps, dp, *_ = self._now
        ks = np.unique([1, 10, 100, 1_000, 10_000, self.K_MAX, n])
        rows = []
        for k in ks:
            basic, advanced = basic_composition(int(k), eps)[0], advanced_composition(int(k), eps, dp)[0]
            rows.append([f"{k:,}" + (" (now)" if k == n else ""), _number(basic), _number(advanced),
                         "advanced" if advanced < basic else "basic"])
        return {"caption": f"Total ε of k queries at ε = {eps:.3g}, δ′ = {dp:.0e}",
                "columns": ["k", "basic kε", "advanced", "smaller"], "rows": rows}


def _project_rows(noisy: np.ndarray, total: float) -> np.ndarray:
    """:func:`~dpteach.project_to_total` (nonnegative) of every row at once, with the same arithmetic:
    sorted descending, running sums, the last rank whose cell stays positive, τ, max(y − τ, 0)."""
    if total <= 0:
        return np.array([project_to_total(row, total) for row in noisy])
    u = np.sort(noisy, axis=1)[:, ::-1]
    cumulative = np.cumsum(u, axis=1) - total
    ranks = np.arange(1, noisy.shape[1] + 1)
    positive = u - cumulative / ranks > 0
    rho = noisy.shape[1] - 1 - np.argmax(positive[:, ::-1], axis=1)      # the last True of each row
    tau = cumulative[np.arange(noisy.shape[0]), rho] / (rho + 1)
    return np.maximum(noisy - tau[:, None], 0.0)


class PostProcessingFigure(_Updatable):
    """Post-processing (Proposition 2.1) that improves accuracy: a sparse histogram, four ways.

    Mean |error| per cell against ε, over ``runs`` releases (unit noise drawn once and
    rescaled): the release itself (E|Y| = 1/ε), clamped to ≥ 0, clamped and rounded, and
    projected onto {cells ≥ 0, summing to the public total}. None of them looks at the data
    again, so all cost the same ε. The curves are computed once; the axes are fixed.
    """

    VERSIONS = ("released", "clamped ≥ 0", "clamped and rounded", "projected onto the public total")

    def __init__(self, true_counts, runs: int = 10, n_epsilons: int = 13,
                 rng: np.random.Generator | None = None) -> None:
        self.truth = _validate.array("true_counts", true_counts, ndim=(1,), nonnegative=True)
        self.total = float(self.truth.sum())
        gen = _rng(rng)
        self.unit = gen.laplace(0.0, 1.0, size=(_validate.integer("runs", runs, low=1), self.truth.size))
        self.grid = np.logspace(-2, 1, _validate.integer("n_epsilons", n_epsilons, low=2))
        self._errors_at: dict[float, np.ndarray] = {}
        self.curves = np.array([self._errors(eps) for eps in self.grid]).T     # version × ε
        colours = (PALETTE["black"], PALETTE["orange"], PALETTE["sky"], PALETTE["green"])
        self.fig, self.ax = new_figure(height=4.6)
        with styled():
            ax = self.ax
            # not by colour alone: each version its own line style and marker (WCAG 1.4.1)
            marks = (("-", "o"), ("--", "s"), (":", "^"), ("-.", "v"))
            self.lines = [ax.loglog(self.grid, curve, color=c, ls=ls, marker=m, ms=5, label=name)[0]
                          for curve, c, name, (ls, m) in zip(self.curves, colours, self.VERSIONS, marks)]
            (self.dots,) = ax.loglog(self.grid[:4], self.grid[:4], "D", color=PALETTE["vermillion"], ms=8,
                                     label="at this ε")
            self.marker = ax.axvline(1, color=PALETTE["vermillion"], ls=":", lw=2)
            ax.set_xlim(self.grid[0] / 1.2, self.grid[-1] * 1.2)
            ax.set_ylim(0.5 * self.curves.min(), 2 * self.curves.max())
            ax.set_xlabel("ε")
            ax.set_ylabel("mean |error| per cell")
            ax.set_title(" ")
            # below the axes: the ε marker crosses the whole height
            self.fig.legend(loc="outside lower center", ncols=3, fontsize="small")
            _plain_log_axes(ax)
        self.dynamic = [self.dots, self.marker, ax.title]

    def _errors(self, epsilon: float) -> np.ndarray:
        """Mean |error| per cell of the four versions at ε, computed once per ε (a slider revisits values)."""
        key = float(epsilon)
        if key not in self._errors_at:
            noisy = self.truth + self.unit * laplace_scale(1.0, key)
            versions = (noisy, clamp_nonnegative(noisy), round_counts(clamp_nonnegative(noisy)),
                        _project_rows(noisy, self.total))
            self._errors_at[key] = np.array([np.abs(v - self.truth).mean() for v in versions])
        return self._errors_at[key]

    def update(self, epsilon: float) -> dict:
        errors = self._errors(epsilon)
        self.dots.set_data([epsilon] * 4, errors)
        self.marker.set_xdata([epsilon, epsilon])
        gain = errors[0] / errors[3]
        self.ax.title.set_text(f"ε = {epsilon:.3g}: the public total cuts the mean error {gain:.3g}×, "
                               "for free")
        self._now = (float(epsilon), errors, float(gain))
        return {"epsilon": float(epsilon), **{name: float(e) for name, e in zip(self.VERSIONS, errors)},
                "gain": float(gain)}


    def alt_text(self) -> str:
        if not hasattr(self, "_now"):
            return super().alt_text()
        eps, errors, gain = self._now
        each = ", ".join(f"{name} {e:.3g}" for name, e in zip(self.VERSIONS, errors))
        return (f"Line chart on log axes of the mean |error| per cell against ε from {self.grid[0]:g} to "
                f"{self.grid[-1]:g}, for a sparse histogram of {self.truth.size:,} cells released four ways, all "
                f"at the same ε (post-processing). At ε = {eps:.3g}: {each}; the public total cuts the mean error "
                f"{gain:.3g}×, for free.")

    def data_table(self) -> dict | None:
        rows = [[f"{e:.3g}", *(f"{v:.3g}" for v in col)] for e, col in zip(self.grid, self.curves.T)]
        if hasattr(self, "_now"):
            eps, errors, _ = self._now
            rows.append([f"{eps:.3g} (now)", *(f"{v:.3g}" for v in errors)])
        return {"caption": "Mean |error| per cell of a sparse histogram, four ways",
                "columns": ["ε", *self.VERSIONS], "rows": rows}


class BudgetFigure(_Updatable):
    """Where a budget went: one horizontal bar, a segment per charge, the rest left over."""

    def __init__(self, budget: PrivacyBudget) -> None:
        if not isinstance(budget, PrivacyBudget):
            raise TypeError(f"budget must be a dp.PrivacyBudget, got {type(budget).__name__}")
        charges = budget.charges
        self.fig, ax = new_figure(height=1.2 + 0.32 * max(1, len(charges)))
        colours = [PALETTE[c] for c in ("blue", "orange", "green", "sky", "purple", "vermillion", "yellow")]
        with styled():
            left = 0.0
            # not by colour alone: each segment its own hatch, and a black edge (WCAG 1.4.1, 1.4.11)
            hatches = ("", "..", "xx", "\\\\", "oo", "++", "--", "**")
            for i, c in enumerate(charges):
                ax.barh(0, c.epsilon, left=left, color=colours[i % len(colours)], edgecolor=PALETTE["black"],
                        hatch=hatches[i % len(hatches)], lw=0.8,
                        label=f"{i + 1}. {c.label or 'charge'} (ε = {c.epsilon:.3g})")
                left += c.epsilon
            ax.barh(0, budget.remaining_epsilon, left=left, color="none", edgecolor=PALETTE["black"], hatch="//",
                    label=f"remaining (ε = {budget.remaining_epsilon:.3g})")
            ax.set_xlim(0, budget.total_epsilon * 1.001)
            ax.set_yticks([])
            ax.grid(False, axis="y")
            ax.set_xlabel("ε")
            ax.set_title(f"{len(charges)} charges spent ε = {budget.spent_epsilon:.3g} "
                         f"of {budget.total_epsilon:.3g}")
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
        self.spent = [c.epsilon for c in charges]
        self.labels = [c.label or "charge" for c in charges]
        self.total, self.remaining = budget.total_epsilon, budget.remaining_epsilon

    def alt_text(self) -> str:
        charges = "; ".join(f"{i + 1}. {label}, ε = {e:.3g}" for i, (label, e) in enumerate(zip(self.labels, self.spent)))
        return (f"Horizontal bar of a privacy budget of ε = {self.total:.3g}, one segment per charge: "
                f"{len(self.spent)} charge{'' if len(self.spent) == 1 else 's'} spent ε = {sum(self.spent):.3g}"
                + (f" ({charges})" if charges else "") + f", and ε = {self.remaining:.3g} remains.")

    def data_table(self) -> dict | None:
        rows = [[f"{i + 1}. {label}", f"{e:.3g}", f"{e / self.total:.0%}"]
                for i, (label, e) in enumerate(zip(self.labels, self.spent))][:24]
        rows.append(["remaining", f"{self.remaining:.3g}", f"{self.remaining / self.total:.0%}"])
        return {"caption": f"Where a budget of ε = {self.total:.3g} went", "columns": ["charge", "ε", "share of the budget"],
                "rows": rows}
