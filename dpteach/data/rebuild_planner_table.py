"""Rebuild planner_totals.csv: the totals of k releases on the budget planner's grid.

Chapter 06's budget planner (dpteach.widgets.budget_planner) moves the data's size n, the number of
releases k, the accuracy α, the contribution cap Δf and "each count" or "all at once" together, and draws
the totals of every k at once. One exact total takes two privacy loss distributions
(dpteach.exact_laplace_epsilon: a plain one, then one tilted at its answer; tens to hundreds of
milliseconds, seconds at the largest totals) and the exact best guess one more (dpteach.planner.
laplace_best_guess), thirteen of them too long for a slider; the optimal composition theorem and Gaussian
DP's ε(δ) (a bisection) take a fraction of a millisecond each. So all four are computed here, once, for every
n in PLANNER_PEOPLE (δ = 1/(100 n)), every α/Δf the sliders reach (α in PLANNER_ACCURACY, Δf in
PLANNER_CAPS: a cap Δf with accuracy α costs what Δf = 1 with accuracy α/Δf does), each count at 95% or all
k together at 95% (each at 1 − 0.05/k, the union bound), and k in PLANNER_RELEASES, by the functions
dpteach.plan_budget calls off the grid, and written with repr so that they read back bit for bit::

    python dpteach/data/rebuild_planner_table.py      # ten to twenty minutes on one core

Nothing random is involved: the file is a deterministic function of the accountant's code.
tests/test_planner.py recomputes a sample of it (all of it in the slow tier), tests/test_planner_plans.py
holds a sample of its exact best guesses to a direct convolution of the releases' losses, and
tests/peers/test_planner_exact_column.py holds its exact column to an independent accountant (slow tier).
"""

from __future__ import annotations

from pathlib import Path

from dpteach.planner import TABLE_COMMENT, table_rows

OUTPUT = Path(__file__).with_name("planner_totals.csv")


def main() -> None:
    lines = table_rows()
    OUTPUT.write_text("\n".join(lines) + "\n", encoding="ascii")
    print(f"wrote {OUTPUT} ({len(lines) - len(TABLE_COMMENT) - 1} rows)")


if __name__ == "__main__":
    main()
