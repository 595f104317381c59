"""Figure for chapter 03: what ε allows an attacker (the differencing attack on one count)."""

from __future__ import annotations

import numpy as np
from matplotlib.colors import to_rgb

from .. import _validate
from ..attack import (
    attack_draws,
    attack_successes,
    dp_success_limit,
    laplace_attack_success,
    posterior_bounds,
    simulate_laplace_attack,
)
from ._base import PALETTE, _plain_log_axes, _Updatable, curve_points, new_figure, sample_rows, styled

__all__ = ["AttackSuccessFigure"]


def _percent(p: float) -> str:
    """A probability as a percentage with enough digits not to round 99.995% up to 100%."""
    digits = 1
    while digits < 6 and 0 < p < 1 and round(100 * p, digits) in (0.0, 100.0):
        digits += 1
    return f"{100 * p:.{digits}f}%"


class AttackSuccessFigure(_Updatable):
    """The attacker's chance of telling "Alice in" from "Alice out", against ε, on fixed axes.

    Left: ε on a log axis over ``[eps_min, eps_max]`` (the slider's range). The limit
    e^ε/(1 + e^ε) that ε-differential privacy puts on every test against every mechanism
    (Wasserman & Zhou 2010; Kairouz, Oh & Viswanath 2015), the exact success 1 − ½e^(−ε/2) of
    the best (midpoint) test against the Laplace mechanism on a count (Dwork & Roth 2014,
    Definition 3.3), and the success measured on ``trials`` simulated attacks per point (one seed:
    the same coins and unit noise at every ε). The slider moves only the markers.

    Right: at the slider's ε, the range of posterior beliefs one release can produce, for every
    prior (odds × e^(±ε)); the dots mark the priors 10% and 50%, and the title's second line
    gives their largest posteriors.

    The axes are fixed over the slider's whole range (ε on a log axis, probabilities 0.45–1
    and 0–1): a frame moves the markers, the band and the texts only. The simulated attacks are
    drawn once; a frame only counts the right guesses at its ε.
    """

    PRIORS = (0.1, 0.5)

    def __init__(self, eps_min: float = 0.01, eps_max: float = 10.0, trials: int = 20_000, points: int = 13,
                 seed: int = 2014) -> None:
        self.eps_min = _validate.positive("eps_min", eps_min)
        self.eps_max = _validate.real("eps_max", eps_max, low=self.eps_min)
        self.trials = _validate.integer("trials", trials, low=10)
        self.seed = seed
        self.grid = np.logspace(np.log10(self.eps_min), np.log10(self.eps_max), 200)
        measured_grid = np.logspace(np.log10(self.eps_min), np.log10(self.eps_max),
                                    _validate.integer("points", points, low=2))
        self.simulated = simulate_laplace_attack(measured_grid, self.trials, rng=np.random.default_rng(seed))
        # the same coins and unit noise as simulate_laplace_attack(·, trials, rng=default_rng(seed))
        self._draws = attack_draws(self.trials, np.random.default_rng(seed))
        self.q = np.linspace(0.001, 0.999, 300)
        self.fig, (self.left, self.right) = new_figure(1, 2, height=4.6, width_ratios=(3, 2))
        with styled():
            left, right = self.left, self.right
            left.axhline(0.5, color="grey", lw=1.2, ls=":", label="coin toss")
            left.semilogx(self.grid, dp_success_limit(self.grid), color=PALETTE["vermillion"], ls="--",
                          label=r"limit for any ε-DP mechanism: $e^{\varepsilon}/(1+e^{\varepsilon})$")
            left.semilogx(self.grid, laplace_attack_success(self.grid), color=PALETTE["blue"],
                          label=r"best test vs Laplace, exact: 1 − ½$e^{-\varepsilon/2}$")
            left.semilogx(self.simulated.epsilon, self.simulated.rate, "D", color=PALETTE["sky"], ms=6,
                          label=f"best test vs Laplace, simulated ({self.trials:,} per point)")
            self.marker = left.axvline(1.0, color=PALETTE["orange"], ls="--", lw=2)
            (self.now,) = left.plot([1.0, 1.0, 1.0], [0.5, 0.5, 0.5], "o", color=PALETTE["black"], ms=7, zorder=5)
            left.set_xlim(self.eps_min, self.eps_max)
            left.set_ylim(0.45, 1.02)
            left.set_xlabel("ε")
            left.set_ylabel("Pr[attacker guesses right]")
            left.set_title(" ")
            # below the panels: inside the axes the dashed ε marker, which moves over the whole width, would
            # run through the legend's text at some ε
            self.fig.legend(handles=left.get_lines()[:4], loc="outside lower center", ncol=2, fontsize="x-small")
            _plain_log_axes(left)
            right.plot([0, 1], [0, 1], color="grey", lw=1.2, ls=":")
            self.band = right.fill_between(self.q, self.q, self.q, facecolor=(*to_rgb(PALETTE["vermillion"]), 0.25),
                                           edgecolor=PALETTE["vermillion"], lw=1.5)       # an edge at 3:1
            (self.dots,) = right.plot([0.1, 0.5], [0.1, 0.5], "o", color=PALETTE["black"], ms=7)
            right.set_xlim(0, 1)
            right.set_ylim(0, 1.03)
            right.set_xlabel("prior Pr[Alice in]")
            right.set_ylabel("posterior Pr[Alice in]")
            # two lines: the odds factor, then the dots' priors and posteriors (a note box inside the axes would
            # cover the band at large ε, where it fills the panel)
            right.set_title(" \n ", fontsize="small")
        self.dynamic = [self.marker, self.now, self.band, self.dots, left.title, right.title]

    def update(self, epsilon: float) -> dict:
        eps = _validate.real("epsilon", epsilon, low=0.0)
        limit = float(dp_success_limit(eps))
        exact = float(laplace_attack_success(eps))
        measured = attack_successes(eps, 1.0, *self._draws) / self.trials
        self.marker.set_xdata([eps, eps])
        self.now.set_data([eps, eps, eps], [limit, exact, measured])
        low, high = posterior_bounds(self.q, eps)
        verts = np.concatenate([np.column_stack([self.q, high]), np.column_stack([self.q[::-1], low[::-1]])])
        self.band.set_verts([verts])
        prior = np.array(self.PRIORS)
        upper = posterior_bounds(prior, eps)[1]
        self.dots.set_data(prior, upper)
        self.left.title.set_text(f"ε = {eps:.3g}: Laplace {_percent(exact)}, any ε-DP ≤ {_percent(limit)}")
        factor = float(np.exp(eps))
        odds = f"odds move × {factor:,.0f} at most" if factor >= 100 else f"odds move × {factor:.3g} at most"
        self.right.title.set_text(odds + "\n" + ", ".join(f"{p:.0%} → {_percent(u)}" for p, u in zip(prior, upper)))
        self._now = (eps, limit, exact, measured, upper, factor)
        return {"epsilon": eps, "limit": limit, "exact": exact, "measured": measured,
                "posterior_high": dict(zip(self.PRIORS, upper.tolist())),
                "posterior_low": dict(zip(self.PRIORS, posterior_bounds(prior, eps)[0].tolist()))}

    def alt_text(self) -> str:
        if not hasattr(self, "_now"):
            return super().alt_text()
        eps, limit, exact, measured, upper, factor = self._now
        odds = f"{factor:,.0f}" if factor >= 100 else f"{factor:.3g}"
        posts = " and ".join(f"{p:.0%} to at most {_percent(u)}" for p, u in zip(self.PRIORS, upper))
        return (f"Left: the chance that an attacker guesses right whether Alice is in the data, against ε from "
                f"{self.eps_min:g} to {self.eps_max:g} on a log axis, for the best test against the Laplace mechanism "
                f"(exact and simulated) and the limit for any ε-DP mechanism. At ε = {eps:.3g} the attacker's best "
                f"guess is right {_percent(exact)} of the time against Laplace ({_percent(measured)} in "
                f"{self.trials:,} simulated attacks); no ε-DP mechanism allows more than {_percent(limit)}. "
                f"Right: the posterior belief one release allows for every prior: the odds move × {odds} at most, "
                f"so a prior of {posts}.")

    def data_table(self) -> dict | None:
        eps = self.simulated.epsilon
        rows = [[f"{e:.3g}", _percent(float(laplace_attack_success(e))), _percent(float(r)),
                 _percent(float(dp_success_limit(e)))] for e, r in zip(eps, self.simulated.rate)]
        if hasattr(self, "_now"):
            now, limit, exact, measured, _, _ = self._now
            rows.append([f"{now:.3g} (now)", _percent(exact), _percent(measured), _percent(limit)])
        return {"caption": "Pr[attacker guesses right] against ε",
                "columns": ["ε", "best test vs Laplace, exact", f"simulated ({self.trials:,} per point)",
                            "limit for any ε-DP mechanism"], "rows": rows}

    def explore_points(self) -> list[dict]:
        keep = sample_rows(self.grid.size, 81)
        grid = self.grid[keep]
        return [{"name": "best test vs Laplace, exact", "x": "ε", "y": "Pr[attacker guesses right]",
                 "points": curve_points(grid, laplace_attack_success(grid))},
                {"name": "limit for any ε-DP mechanism", "x": "ε", "y": "Pr[attacker guesses right]",
                 "points": curve_points(grid, dp_success_limit(grid))}]
