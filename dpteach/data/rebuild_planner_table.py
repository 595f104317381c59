"""Rebuild planner_totals.csv: the totals of k releases on the budget planner's grid.

Chapter 06's budget planner (dpteach.widgets.budget_planner) moves the data's size n, the number of
releases k and the accuracy α together, and draws the totals of every k at once. One exact total takes
two privacy loss distributions (dpteach.exact_laplace_epsilon: a plain one, then one tilted at its answer; tens
to hundreds of milliseconds), thirteen of them too long for a slider; the optimal composition theorem and Gaussian DP's ε(δ) (a bisection) take
half a millisecond each. So all three are computed here, once, for every n in PLANNER_PEOPLE
(δ = 1/(100 n)), α in PLANNER_ACCURACY (ε = ln(20)/α per Laplace release, σ = α/1.96 per Gaussian one)
and k in PLANNER_RELEASES, by the functions dpteach.plan_budget calls off the grid, and written with repr
so that they read back bit for bit::

    python dpteach/data/rebuild_planner_table.py      # about a minute

Nothing random is involved: the file is a deterministic function of the accountant's code.
tests/test_planner.py recomputes a sample of it (all of it in the slow tier), and
tests/peers/test_planner_exact_column.py holds its exact column to an independent accountant (slow tier).
"""

from __future__ import annotations

from pathlib import Path

from dpteach.planner import table_rows

OUTPUT = Path(__file__).with_name("planner_totals.csv")


def main() -> None:
    lines = table_rows()
    OUTPUT.write_text("\n".join(lines) + "\n", encoding="ascii")
    print(f"wrote {OUTPUT} ({len(lines) - 5} rows)")


if __name__ == "__main__":
    main()
