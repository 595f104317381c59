"""Rebuild gg_calibration.csv (the privacy accountant's ε(σ, δ) for the Generalized Gaussian
mechanism) and gg_linf.csv (its expected ℓ∞ error at σ = 1).

Chapter 08's sliders move p, k, ε and δ together; calibrating σ with the accountant takes a
tenth of a second or more, too slow for a slider. So the accountant is run here, once, on
a grid, and the widget interpolates (dpteach.generalized_gaussian.table.CalibrationTable). For
every p in TABLE_P and k in TABLE_K, 28 values of σ, and for each the ε at which the
mechanism on k counting queries (every answer shifted by 1) is (ε, δ)-DP, for every δ in
TABLE_DELTA, from ``dpteach.privacy_loss_distribution(...).epsilon(δ)``::

    python dpteach/data/rebuild_gg_calibration.py             # about two minutes
    python dpteach/data/rebuild_gg_calibration.py --linf-only # gg_linf.csv only, a second

gg_linf.csv holds E‖X‖∞ of k i.i.d. coordinates at σ = 1 (dpteach.expected_linf_noise,
a quadrature of 2.7 ms) for every (p, k) of the grid, written with repr so it reads back
bit for bit; E‖X‖∞ scales with σ.

Nothing random is involved: the file is a deterministic function of the accountant's code.
tests/test_generalized_gaussian.py recomputes some blocks and checks the table against
direct calibration, and recomputes every value of gg_linf.csv.
"""

from __future__ import annotations

import sys
from pathlib import Path

from dpteach.generalized_gaussian.errors import expected_linf_noise
from dpteach.generalized_gaussian.table import TABLE_DELTA, TABLE_K, TABLE_P, calibration_table_rows

OUTPUT = Path(__file__).with_name("gg_calibration.csv")
LINF_OUTPUT = Path(__file__).with_name("gg_linf.csv")


def linf_lines() -> list[str]:
    """gg_linf.csv: E‖X‖∞ at σ = 1 for every (p, k) of the table's grid."""
    lines = ["# E max_i |X_i| for k i.i.d. Generalized Gaussian coordinates of shape p and scale 1, by",
             "# quadrature (dpteach.expected_linf_noise). Made by rebuild_gg_calibration.py; do not edit by hand.",
             "p,k,linf_per_sigma"]
    lines += [f"{p:g},{k},{expected_linf_noise(k, p, 1.0)!r}" for p in TABLE_P for k in TABLE_K]
    return lines


def main() -> None:
    LINF_OUTPUT.write_text("\n".join(linf_lines()) + "\n", encoding="ascii")
    print(f"wrote {LINF_OUTPUT}")
    if "--linf-only" in sys.argv[1:]:
        return
    lines = ["# The Generalized Gaussian mechanism on k counting queries: epsilon(sigma, delta) from the",
             "# privacy accountant. Made by rebuild_gg_calibration.py; do not edit by hand.",
             ",".join(["p", "k", "sigma"] + [f"delta={d:.10g}" for d in TABLE_DELTA])]
    for p in TABLE_P:
        for k in TABLE_K:
            sigmas, eps = calibration_table_rows(k, p)
            for s, row in zip(sigmas, eps):
                lines.append(",".join([f"{p:g}", str(k), f"{s:.9g}"] + [f"{e:.7g}" for e in row]))
        print(f"p = {p:g} done", flush=True)
    OUTPUT.write_text("\n".join(lines) + "\n", encoding="ascii")
    print(f"wrote {OUTPUT} ({len(lines) - 3} rows)")


if __name__ == "__main__":
    main()
