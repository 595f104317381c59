"""Chapter 12's checker: planning a release that a vetted library (OpenDP) carries out.

A library such as OpenDP takes the noise's **scale**, not an ε: its privacy map then says what ε the
measurement spends for a given contribution bound. The exercise runs the plan backwards, as a release
does: from a total budget, the number of releases and the contribution bound to the scale each release is
given; and it reads OpenDP's zCDP account of the same weeks, an ε-DP release being (ε²/2)-zCDP (Bun & Steinke 2016,
Proposition 1.4) and ρ's adding up (their Lemma 1.7). Basic composition (Dwork & Roth 2014, Theorem 3.16) shares the total evenly, ε = total/k per
release, and the Laplace mechanism on a count that one person moves by at most c needs b = c/ε
(Definition 3.3 with Δf = c), so b = c·k/total.
"""

from __future__ import annotations

import math

from ..exact_composition import zcdp_to_dp
from ._base import Feedback, Mistake, compare, exercise
from ._feedback import percentages

__all__ = ["check_weekly_scale", "check_weekly_rho"]

#: The homework's weeks, contribution bounds and totals: 4 × 4 × 5 = 80 combinations, none of them the
#: chapter's (52 weeks, c = 3, a total of 2) and, at three significant figures, more than 40 answers.
_WEEKS = (26, 30, 40, 48)
_CAPS = (1, 2, 4, 5)
_TOTALS = (1.0, 1.5, 2.5, 3.0, 4.0)


@exercise(prompt="A weekly count is released for {weeks} weeks with OpenDP's Laplace mechanism; each user adds at "
                 "most {cap} records to a week's count (the contribution bound), and the whole release must spend a "
                 "total of ε = {total:g} by basic composition, shared evenly over the weeks. What scale must each "
                 "week's `then_laplace` be given? Give 3 significant figures.",
          homework={"weeks": _WEEKS, "cap": _CAPS, "total": _TOTALS}, figures=3, title="the scale OpenDP is given")
def check_weekly_scale(answer, weeks: int = 52, cap: int = 3, total: float = 2.0) -> Feedback:
    """Ch. 12, exercise 1: the Laplace scale for each of k weekly counts, contribution bound c, total ε by basic
    composition: b = c·k/total (Theorem 3.16 shares the total, ε = total/k; Definition 3.3 with Δf = c)."""
    per_week = total / weeks
    expected = cap / per_week
    mistakes = [
        Mistake(cap / total, "that spends the whole total every week. Basic composition adds the weeks' ε's: "
                             "each week gets total/k.", name="the budget not shared"),
        Mistake(1 / per_week, "that is the scale for a contribution bound of 1. A user who adds up to c records "
                              "moves the count by c: Δf = c.", name="Δf = 1 where one person moves more"),
        Mistake(per_week / cap, "that is ε/Δf, the rate in the exponent. The scale is Δf/ε.",
                name="Δf/ε upside down"),
        Mistake(per_week, "that is each week's ε. OpenDP's make_laplace takes the scale b = Δf/ε.",
                name="a scale for ε, or ε for a scale"),
        Mistake(1 / (per_week * cap), "that divides by the contribution bound. A user who adds up to c records moves "
                                      "the count by c, so the noise must grow with c: b = Δf/ε.",
                name="Δf divided for multiplied"),
    ]
    return compare(answer, expected,
                   f"each week spends ε = {total:g}/{weeks} = {per_week:.4g}; a count that one user moves by up to "
                   f"{cap} needs b = Δf/ε = {cap}/{per_week:.4g} = {expected:.4g}, and OpenDP's privacy map of that "
                   f"measurement at d_in = {cap} gives the week's ε back.",
                   "Share the total over the weeks (basic composition adds ε's), then calibrate Laplace noise to the "
                   "contribution bound: b = Δf/ε.", figures=3, mistakes=mistakes)


#: Exercise 2's homework: 4 × 3 × 5 = 60 combinations, none of them the chapter's (52 weeks, c = 2, scale 20).
_RHO_WEEKS = (26, 30, 40, 48)
_RHO_CAPS = (1, 3, 4)
_RHO_SCALES = (10.0, 15.0, 25.0, 30.0, 40.0)


@exercise(prompt="OpenDP accounts a weekly Laplace count in zero-concentrated DP: an ε-DP week is (ε²/2)-zCDP, and "
                 "the weeks' ρ's add up. A count to which each user adds at most {cap} records gets Laplace noise of "
                 "scale {scale:g} every week for {weeks} weeks. What total ρ does OpenDP's accountant report? Give 3 "
                 "significant figures.",
          homework={"weeks": _RHO_WEEKS, "cap": _RHO_CAPS, "scale": _RHO_SCALES}, figures=3,
          title="OpenDP's zCDP total")
def check_weekly_rho(answer, weeks: int = 52, cap: int = 2, scale: float = 20.0) -> Feedback:
    """Ch. 12, exercise 2: ρ of k weekly Laplace counts in zCDP, each ε = c/b and (ε²/2)-zCDP: ρ = k·(c/b)²/2
    (Bun & Steinke 2016, Proposition 1.4 and Lemma 1.7)."""
    per_week = cap / scale
    expected = weeks * per_week ** 2 / 2
    mistakes = [
        Mistake(per_week ** 2 / 2, "that is one week's ρ. The accountant adds the weeks' ρ's.",
                name="one release for all of them"),
        Mistake(weeks / scale ** 2 / 2, "that is the ρ for a contribution bound of 1. A user who adds up to c "
                                        "records moves the count by c, and each week's ε is c/b.",
                name="Δf = 1 where one person moves more"),
        Mistake(weeks * (scale / cap) ** 2 / 2, "that squares b/Δf. Each week's ε is Δf/b.",
                name="Δf/ε upside down"),
        Mistake((weeks * per_week) ** 2 / 2, "that composes the weeks in pure DP first (kε) and converts the total: "
                                             "a valid ρ, but a looser one. Convert each week, then add the ρ's.",
                name="a looser accounting than asked"),
        Mistake(weeks * per_week ** 2, "that adds the weeks' ε²: an ε-DP week is (ε²/2)-zCDP, half of that.",
                name="ε² for ε²/2"),
    ]
    # the total ρ converted on to an (ε, δ) guarantee, at the δ's a release uses (the chapter's is 10⁻⁶): by Canonne,
    # Kamath & Steinke's conversion, which OpenDP's make_zCDP_to_approxDP uses, and by Bun & Steinke's ρ + 2√(ρ ln(1/δ))
    converted = ("that converts ρ to an ε at a δ, the next step of a release (make_zCDP_to_approxDP): the question asks "
                 "for the total ρ itself, which the zCDP accountant reports.")
    for delta in _CONVERSION_DELTAS:
        mistakes += [Mistake(zcdp_to_dp(expected, delta), converted, name="ρ converted to ε"),
                     Mistake(expected + 2 * math.sqrt(expected * math.log(1 / delta)), converted,
                             name="ρ converted to ε")]
    return compare(answer, expected,
                   f"each week is ε = c/b = {cap}/{scale:g} = {per_week:.4g}, so (ε²/2)-zCDP with ρ = "
                   f"{per_week ** 2 / 2:.4g}; {weeks} weeks add up to ρ = {expected:.4g}.",
                   "Find each week's ε from the scale and the contribution bound, convert it to ρ = ε²/2, and add the "
                   "weeks' ρ's.", figures=3,
                   mistakes=percentages(expected, mistakes, 3, "ρ is a plain number, not a share of anything."))


#: The δ's at which exercise 2's ρ converted to an ε is named: the decades a release uses, 10⁻⁴ to 10⁻¹⁰.
_CONVERSION_DELTAS = tuple(10.0 ** -j for j in range(4, 11))
