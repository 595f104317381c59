"""Figure for chapter 06's "Choosing ε and δ": the budget planner."""

from __future__ import annotations

import math

import numpy as np

from .. import _validate
from .._text import power_text
from ..planner import PLANNER_ACCURACY, PLANNER_CAPS, PLANNER_PEOPLE, PLANNER_RELEASES, exact_known, plan_budget
from ._base import PALETTE, _number, _plain_log_axes, _Updatable, new_figure, styled

__all__ = ["PENDING", "PLANNER_CAPS", "BudgetPlannerFigure"]

#: What the title, the text alternative and the data table show for a number still being computed.
PENDING = "computing…"

#: The accountings the planner draws: the BudgetPlan field, its label, its colour and marker.
ACCOUNTINGS = (
    ("basic", "basic: kε (Thm 3.16, pure)", "black", "o-"),
    ("advanced", "advanced (Thm 3.20)", "orange", "s-"),
    ("optimal", "optimal, any ε-DP (KOV 2015)", "purple", "v--"),
    ("exact", "exact, these Laplace releases", "blue", "D-"),
    ("gaussian", "Gaussian noise, same accuracy (GDP)", "green", "^--"),
)


def _short(value: float) -> str:
    """A total for the title: three figures below 10,000, two and a power of ten above (3·10⁴); NaN (not computed
    yet) as :data:`PENDING`."""
    if math.isnan(value):
        return PENDING
    if math.isinf(value):           # Theorem 3.20 at ε > 709 per release: past the largest float
        return "> 10³⁰⁸"
    return _number(value) if value < 10_000 else power_text(value)


def _share(value: float) -> str:
    """A probability for the title (57.4%); NaN (not computed yet) as :data:`PENDING`."""
    return PENDING if math.isnan(value) else f"{value:.1%}"


def _within(plan, short: bool = False) -> str:
    """"each count ±50 at 95%" or "all 40 counts ±50 at once at 95%", with the cap when it is not 1."""
    if short:
        each = "all at once" if plan.simultaneous else "each count"
        cap = f", Δf = {plan.sensitivity:g}" if plan.sensitivity != 1 else ""
        return f"±{plan.accuracy:g} at {plan.confidence:.0%} {each}{cap}"
    cap = f" (cap Δf = {plan.sensitivity:g})" if plan.sensitivity != 1 else ""
    if plan.simultaneous:
        return f"all {plan.releases:,} counts ±{plan.accuracy:g} at once at {plan.confidence:.0%}{cap}"
    return f"each count ±{plan.accuracy:g} at {plan.confidence:.0%}{cap}"


def _guesses(plan, short: bool = False) -> str:
    """The best 50/50 guess of one person's presence: any mechanism at the exact total, these releases."""
    if short:
        return (f"best guess: ≤ {_share(plan.worst_guess)} any ε-DP, {_share(plan.exact_guess)} Laplace, "
                f"{_share(plan.gaussian_guess)} Gaussian")
    return (f"best guess of one person's presence: any ε-DP ≤ {_share(plan.worst_guess)}, these Laplace releases "
            f"{_share(plan.exact_guess)}, Gaussian {_share(plan.gaussian_guess)}")


class BudgetPlannerFigure(_Updatable):
    """k counts about the same n people, each within ±α at 95%: their total ε against k, five ways (log–log).

    The accuracy fixes each Laplace release's ε = ln(20)/α (Fact 3.7), the data's size fixes δ = 1/(100 n)
    (:func:`~dpteach.planner_delta`), and the curves give the total over the planner's numbers of releases:
    basic composition kε (Theorem 3.16), advanced composition (Theorem 3.20, δ′ = δ), the optimal composition
    theorem for any ε-DP mechanisms (Kairouz, Oh & Viswanath 2015), the exact total of these Laplace releases
    (their privacy loss distribution), and Gaussian noise with the same 95% accuracy composed exactly in
    Gaussian differential privacy (Dong, Roth & Su 2019); all but the first at δ. The numbers come from
    :func:`~dpteach.plan_budget`, whose exact totals are precomputed on this grid.

    The axes are fixed over every control's whole range (k from 1 to 10,000; totals from 10⁻³ to 10⁵: the
    advanced bound leaves the top at large ε, where it is worse than kε anyway). A frame moves the five curves,
    the k marker, its dots and the title.

    ``releases`` is any k from 1 to 10,000 (typed; off the grid its totals are computed once and kept), ``cap``
    the contribution cap Δf (:data:`PLANNER_CAPS`), ``all_at_once`` whether 95% holds for every count together
    (each then at 1 − 0.05/k: :func:`~dpteach.planner.release_confidence`). The title's last line sets the best
    50/50 guess of one person's presence that any mechanism at the exact total allows beside the exact best guess
    against these releases (:func:`~dpteach.planner.laplace_best_guess`; chapter 11).

    ``defer=True`` draws a plan whose exact numbers are not at hand (:func:`~dpteach.planner.exact_known`: a typed k
    off the grid, not computed before) without computing them: the basic, advanced, optimal and Gaussian totals at
    once, and in place of the exact total, of the two best guesses read from it and of its dot, :data:`PENDING`
    (the text alternative says so); the widget then draws again without ``defer`` once its controls rest. A figure
    never shows a number it has not computed.
    """

    Y_LIMITS = (1e-3, 1e5)

    def __init__(self) -> None:
        self.ks = np.array(PLANNER_RELEASES, dtype=float)
        self.fig, self.ax = new_figure(height=4.8)
        with styled():
            ax = self.ax
            self.curves = {}
            for field, label, colour, style in ACCOUNTINGS:
                dashed = style.endswith("--")
                (self.curves[field],) = ax.loglog(self.ks, self.ks, style, color=PALETTE[colour], label=label,
                                                  ms=6 if field == "optimal" else 4, lw=1.6 if dashed else None)
            self.marker = ax.axvline(1, color=PALETTE["sky"], lw=2, ls=":")
            (self.dots,) = ax.plot([1] * len(ACCOUNTINGS), [1] * len(ACCOUNTINGS), "o", color=PALETTE["vermillion"],
                                   ms=9, zorder=5, mfc="none", mew=2)
            ax.set_xlim(self.ks[0] / 1.3, self.ks[-1] * 1.3)
            ax.set_ylim(*self.Y_LIMITS)
            ax.set_xlabel("k: counts released about the same people")
            ax.set_ylabel("total ε")
            ax.set_title(" \n \n \n ", fontsize="medium")   # four lines: plan, totals, Gaussian, best guesses
            # below the axes: the k marker crosses the whole height, the curves the whole width
            self.fig.legend(loc="outside lower center", ncols=3, fontsize="x-small")
            _plain_log_axes(ax)
        self.dynamic = [*self.curves.values(), self.marker, self.dots, ax.title]

    def update(self, people: int, releases: int, accuracy: float, cap: float = 1.0,
               all_at_once: bool = False, *, defer: bool = False) -> dict:
        n = _validate.integer("people", people, low=min(PLANNER_PEOPLE), high=max(PLANNER_PEOPLE))
        k = _validate.integer("releases", releases, low=1, high=max(PLANNER_RELEASES))
        a = _validate.real("accuracy", accuracy, low=min(PLANNER_ACCURACY), high=max(PLANNER_ACCURACY),
                           low_open=False)
        d = _validate.real("cap", cap, low=min(PLANNER_CAPS), high=max(PLANNER_CAPS), low_open=False,
                           why="Δf, the most one person moves each count")
        for name, flag in (("all_at_once", all_at_once), ("defer", defer)):
            if not isinstance(flag, (bool, np.bool_)):
                raise ValueError(f"{name} must be True or False, got {flag!r}")
        sim = bool(all_at_once)

        def known(j: int) -> bool:
            return not defer or exact_known(n, j, a, sensitivity=d, simultaneous=sim)

        plans = [plan_budget(n, j, a, sensitivity=d, simultaneous=sim, guesses=False, exact=known(j))
                 for j in PLANNER_RELEASES]
        plan = plan_budget(n, k, a, sensitivity=d, simultaneous=sim, exact=known(k))       # with the best guesses
        pending = math.isnan(plan.exact) or any(math.isnan(p.exact) for p in plans)
        for field, line in self.curves.items():
            line.set_ydata([getattr(p, field) for p in plans])
        totals = [getattr(plan, field) for field, *_ in ACCOUNTINGS]
        self.marker.set_xdata([k, k])
        self.dots.set_data([k] * len(totals), totals)
        self.ax.title.set_text(
            f"n = {n:,} (δ = {power_text(plan.delta)}), {_within(plan, short=True)}: ε = {plan.per_release:.3g} each\n"
            f"total ε of {k:,}: basic {_short(plan.basic)}, advanced {_short(plan.advanced)}, "
            f"optimal {_short(plan.optimal)}\n"
            f"exact {_short(plan.exact)}; Gaussian noise, same accuracy (σ = {plan.gaussian_std:.3g}): "
            f"{_short(plan.gaussian)} (GDP)\n{_guesses(plan, short=True)}")
        self._now = (n, k, a, plan, plans)
        return {"people": n, "releases": k, "accuracy": a, "cap": d, "all_at_once": sim, "pending": pending,
                "delta": plan.delta,
                "per_release": plan.per_release, **{field: getattr(plan, field) for field, *_ in ACCOUNTINGS},
                "gaussian_std": plan.gaussian_std, "gaussian_per_release": plan.gaussian_per_release,
                "worst_guess": plan.worst_guess, "exact_guess": plan.exact_guess,
                "gaussian_guess": plan.gaussian_guess}

    def alt_text(self) -> str:
        if not hasattr(self, "_now"):
            return super().alt_text()
        n, k, a, plan, _ = self._now
        return (f"Line chart on log axes of the total ε of k counts about the same people against k from 1 to "
                f"{PLANNER_RELEASES[-1]:,}, five ways of accounting. With n = {n:,} people (δ = "
                f"{power_text(plan.delta)}) and {_within(plan)}, each release spends "
                f"ε = {plan.per_release:.3g}; the total of {k:,}: basic {_short(plan.basic)}, advanced "
                f"{_short(plan.advanced)}, optimal {_short(plan.optimal)}, exact {_short(plan.exact)}; Gaussian "
                f"noise with the same accuracy (σ = {plan.gaussian_std:.3g}): {_short(plan.gaussian)} (GDP). "
                f"{_guesses(plan)}."
                + (" The exact total and the best guesses read from it are still being computed: they follow once "
                   "the controls rest." if math.isnan(plan.exact) else ""))

    def data_table(self) -> dict | None:
        if not hasattr(self, "_now"):
            return None
        n, k, a, plan, plans = self._now
        rows = [[f"{j:,}", *(_short(getattr(p, field)) for field, *_ in ACCOUNTINGS)]
                for j, p in zip(PLANNER_RELEASES, plans)]
        if k not in PLANNER_RELEASES:
            rows.append([f"{k:,} (now)", *(_short(getattr(plan, field)) for field, *_ in ACCOUNTINGS)])
        return {"caption": f"Total ε of k counts, n = {n:,}, {_within(plan)} (ε = {plan.per_release:.3g} each at "
                           f"k = {k:,}; {_guesses(plan)})",
                "columns": ["k", *(label for _, label, *_ in ACCOUNTINGS)], "rows": rows}
