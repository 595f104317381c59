"""Figure for chapter 11: the auditor's lower bound on ε for AboveThreshold and its broken variants."""

from __future__ import annotations

import numpy as np

from ..audit import AuditResult
from ._base import PALETTE, _Updatable, new_figure, styled

__all__ = ["VariantAuditFigure"]


class VariantAuditFigure(_Updatable):
    """One bar per audited variant: the ε the samples prove violated, beside the claimed ε (a still figure).

    ``results`` maps a variant's name to its :class:`~dpteach.AuditResult`. A bar past the
    claimed ε (the dashed line) refutes the claim at the audit's false-alarm rate; a bar short
    of it proves nothing either way.
    """

    def __init__(self, results: dict[str, AuditResult]) -> None:
        if not results or not all(isinstance(r, AuditResult) for r in results.values()):
            raise TypeError("results must map each variant's name to a dp.AuditResult")
        names = list(results)
        bounds = np.array([results[n].epsilon_lower_bound for n in names])
        claimed = results[names[0]].epsilon
        self.fig, ax = new_figure(height=1.4 + 0.6 * len(names))
        with styled():
            colours = [PALETTE["vermillion"] if results[n].refuted else PALETTE["green"] for n in names]
            # refuted bars hatched as well as vermillion: the verdict is not told by hue alone
            hatches = ["//" if results[n].refuted else "" for n in names]
            ax.barh(np.arange(len(names)), bounds, color=colours, hatch=hatches, edgecolor=PALETTE["black"], lw=0.8)
            ax.axvline(claimed, color=PALETTE["black"], ls="--", lw=2, label=f"claimed ε = {claimed:g}")
            for i, (n, b) in enumerate(zip(names, bounds)):
                ax.text(b, i, f" {b:.2f}" + ("  refuted" if results[n].refuted else "  not refuted"),
                        va="center", fontsize="small")
            ax.set_yticks(np.arange(len(names)), names)
            ax.invert_yaxis()
            ax.set_xlim(0, 1.35 * max(bounds.max(), claimed))
            ax.set_xlabel("ε proved violated (a lower bound on the true ε)")
            p_fa = max(r.false_alarm for r in results.values())
            ax.set_title(f"The auditor's verdicts (each false-alarm rate p_FA ≤ {p_fa:g})")
            ax.legend(loc="lower right", fontsize="small")
        self.bounds = dict(zip(names, bounds.tolist()))
        self.claimed, self.refuted = claimed, {n: bool(results[n].refuted) for n in names}

    def alt_text(self) -> str:
        """One bar per variant, and each one's proved ε and verdict against the claim."""
        def listed(refuted: bool) -> str:
            return ", ".join(f"{n} ({b:.2f})" for n, b in self.bounds.items() if self.refuted[n] == refuted) or "none"
        return (f"Bar chart, one bar per variant: the ε the auditor proved violated, against the claimed ε = "
                f"{self.claimed:g} (dashed line). Refuted: {listed(True)}. Not refuted: {listed(False)}.")

    def data_table(self) -> dict | None:
        """One row per variant: the ε proved and the verdict."""
        return {"caption": f"The auditor's verdicts against the claimed ε = {self.claimed:g}",
                "columns": ["variant", "proved ε ≥", "verdict"],
                "rows": [[n, f"{b:.2f}", "refuted" if self.refuted[n] else "not refuted"]
                         for n, b in list(self.bounds.items())[:25]]}
