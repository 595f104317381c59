"""The named mistakes: every wrong answer a checker recognises has a name, a one-line why, and the section that teaches
the right step; and the claims that DP teaching material most often gets wrong, each with the section that gets it right.

A checker lists its known mistakes as ``Mistake(value, message, name=...)``; ``name`` is a key of :data:`MISTAKES`.
The registry is written here, once, so that a page of common mistakes can be made from it without running a
checker (:func:`common_mistakes`), and so that a new named mistake appears on that page without editing it. The
section is named as the chapter writes its heading (``chapter`` is the notebook's stem): it teaches the right
*step*, never states a homework's answer, so the page links to it rather than quoting a formula.
tests/test_common_mistakes.py checks that every checker's every mistake is named, every name is registered and
used, and every section exists.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CLAIMS", "MISTAKES", "NamedMistake", "WrongClaim", "common_mistakes", "wrong_claims"]


@dataclass(frozen=True)
class NamedMistake:
    """A mistake a checker recognises: its name, why it is wrong (one line), and where the right step is taught."""

    name: str
    why: str
    chapter: str        # the notebook's stem, e.g. "02_laplace_distribution"
    section: str        # the heading's text in that chapter


@dataclass(frozen=True)
class WrongClaim:
    """A claim DP teaching material often gets wrong, why it is wrong, and the section that gets it right."""

    claim: str
    why: str
    chapter: str
    section: str


_SCALE = ("02_laplace_distribution", "b = Δf/ε: the knobs that set the noise")
_SPREAD = ("02_laplace_distribution", "Mean, variance and E|Y|")
_TAIL = ("02_laplace_distribution", "Fact 3.7: the tail")
_THM_3_8 = ("05_accuracy_census_names", "Theorem 3.8: the largest error")
_DEF_3_1 = ("01_sensitivity", "Definition 3.1: ℓ1-sensitivity")
_K_QUERIES = ("01_sensitivity", "k counting queries: Δf = k")
_SEQUENTIAL = ("06_composition_and_budget", "Sequential composition: the same people, twice")
_PARALLEL = ("06_composition_and_budget", "Parallel composition: disjoint groups")
_ADVANCED = ("06_composition_and_budget", "Advanced composition: k answers for about √(2k ln(1/δ′))·ε")
_LOSS = ("03_laplace_mechanism", "The privacy loss")
_GAUSSIAN = ("08_gaussian_and_generalized_gaussian", "(ε, δ)-differential privacy and the Gaussian mechanism")
_ACCOUNTANT = ("08_gaussian_and_generalized_gaussian", "The privacy loss distribution, and an accountant")
_AUDITOR = ("09_noise_on_a_computer", "An empirical privacy auditor")
_NOISY_MAX = ("07_private_selection", "Which first name is most common?")
_EXPONENTIAL = ("07_private_selection", "The exponential mechanism: choices that are not numbers")
_RR = ("10_laplace_at_work", "Local differential privacy: randomized response")
_TESTING = ("11_what_epsilon_promises", "Privacy as hypothesis testing")
_GDP = ("11_what_epsilon_promises", "Gaussian differential privacy")
_ONE_COUNT = ("04_counting_and_histograms", "Example 3.1: one count")
_CHOOSING = ("06_composition_and_budget", "Choosing ε and δ")
_OPENDP_ZCDP = ("12_to_a_real_release", "Forty weeks: OpenDP's accountant beside the planner")

_NAMED = [
    # -- logarithms, tails and the union bound
    ("log10 for ln", "The theorems' logarithms are natural: ln, not log10 or log2.", *_TAIL),
    ("the two sides miscounted", "Laplace noise is two-sided: Fact 3.7's e^(−t) already counts both tails (one tail is "
     "half of it), and the variance covers both sides too.", *_TAIL),
    ("the threshold not in units of b", "Fact 3.7 measures a threshold in units of the scale: write it as t·b, so t is "
     "the threshold divided by b.", *_TAIL),
    ("the CDF's branches mixed up", "Lap(b)'s CDF is ½e^(x/b) below 0 and 1 − ½e^(−x/b) above: it passes ½ at 0 and "
     "grows from 0 to 1.", "02_laplace_distribution", "The CDF"),
    ("a density for a probability", "A density at a point is not the probability of reaching it: the tail is an "
     "integral of the density.", "02_laplace_distribution", "The CDF"),
    ("the complementary event", "1 − β, a test's power 1 − β, or Pr[|Y| < t·b] is the chance of the other event: "
     "read which one the question asks for.", *_THM_3_8),
    ("one noise for the largest of k", "ln(1/β) bounds one noise (Fact 3.7); the largest of k noises needs the union "
     "bound, which puts k inside the logarithm.", *_THM_3_8),
    ("the union bound turned around", "The union bound shares β out over the k noises (β/k each) inside the "
     "logarithm: it neither multiplies β by k nor sits outside the logarithm.", *_THM_3_8),
    ("all the counts at once for each one", "Theorem 3.8's union bound holds k counts together; one count at a time "
     "needs only Fact 3.7's ln(1/β).", *_THM_3_8),
    # -- the noise scale and its spread
    ("÷ε forgotten", "The Laplace scale is b = Δf/ε: dividing by ε is what makes a smaller ε add more noise.", *_SCALE),
    ("×ε for ÷ε", "The scale is Δf divided by ε, not multiplied by it: a smaller ε must mean more noise.", *_SCALE),
    ("Δf/ε upside down", "The scale is Δf/ε; its reciprocal ε/Δf is the rate in the exponent (e^(−ε|x|/Δf)).",
     *_SCALE),
    ("Δf left out", "The scale is Δf/ε, not 1/ε: the noise grows with what one person can change.", *_SCALE),
    ("a scale for ε, or ε for a scale", "b = Δf/ε: the scale is a distance in the answer's units, ε a bound on a "
     "log-ratio of probabilities; solve one for the other.", *_SCALE),
    ("b² for 2b²", "Lap(b) has variance 2b², not b² (and standard deviation √2·b).", *_SPREAD),
    ("the wrong measure of spread", "Laplace noise has mean absolute error b, standard deviation √2·b and variance "
     "2b²; a Generalized Gaussian's σ is a scale, not a standard deviation: give the measure asked for.", *_SPREAD),
    ("standard deviations added", "Independent noises add their variances, not their standard deviations or scales.",
     "04_counting_and_histograms", "Example 3.2: histogram queries"),
    ("a percentage for a fraction", "A probability or a relative error is a number between 0 and 1, and a budget "
     "(ε, ρ) is a plain number: 73% is 0.73.",
     "00_start_here", "How to use this workbook"),
    # -- sensitivity
    ("replace-one for add/remove", "Neighbours differ by adding or removing one record; replacing a record is two such "
     "steps, so it can at most double what one step allows (often less).", *_DEF_3_1),
    ("signed changes for absolute ones", "Definition 3.1's ℓ1 norm adds each answer's ABSOLUTE change: a record can "
     "make an answer fall, and changes in opposite directions do not cancel.", *_DEF_3_1),
    ("an example for the worst case", "Δf is a maximum over every pair of neighbours, not the change one example "
     "makes.", *_DEF_3_1),
    ("ℓ2 for ℓ1", "The Laplace mechanism is calibrated to the ℓ1-sensitivity: add the absolute changes of every answer.",
     "01_sensitivity", "ℓ1 or ℓ2?"),
    ("ℓ1 for ℓ2", "The Gaussian mechanism is calibrated to the ℓ2-sensitivity: the Euclidean length of the change.",
     "08_gaussian_and_generalized_gaussian", "k counting queries: ℓ1 against ℓ2 sensitivity"),
    ("one change for all of them", "One person moves every answer that counts them: Δf adds all the changes, not the "
     "largest or one of them (ℓ∞).", *_K_QUERIES),
    ("Δf = 1 where one person moves more", "Δf = 1 is one count's; a person counted by several queries, or with up to "
     "c records, moves the answers by that many.", *_K_QUERIES),
    ("k counts' Δf for a histogram", "A histogram's cells are disjoint: one person is in one cell, so Δf = 1 however "
     "many cells there are.", "04_counting_and_histograms", "Example 3.2: histogram queries"),
    ("Δf counted over the queries, not one person", "Δf counts the queries ONE record is in (a column of the query "
     "matrix), not the queries, their overlaps or their values (a row).", "04_counting_and_histograms",
     "Why disjointness is the whole trick"),
    ("a clipped sum taken for a count", "One record moves a sum clipped to [0, R] by up to R, not by 1 and never by "
     "more than R.", "01_sensitivity", "A sum needs clipping"),
    ("the k releases counted twice", "k answers are accounted once: split ε over them, or release them together with "
     "Δf = k, not both.", *_SEQUENTIAL),
    # -- counts and errors
    ("relative to n, not to the count", "A count's relative error is its error divided by the count itself; the "
     "database's size plays no part.", *_ONE_COUNT),
    ("the absolute error for the relative one", "The relative error divides the error by the count (and not the count "
     "by the error).", *_ONE_COUNT),
    ("a derived count's noises miscounted", "A count computed from released cells carries the noise of every cell "
     "it adds (and only theirs): count the cells the range covers.", "04_counting_and_histograms",
     "Example 3.2: histogram queries"),
    # -- composition and budgets
    ("sequential for parallel", "Answers about disjoint groups compose in parallel: they cost the largest ε, not the "
     "sum.", *_PARALLEL),
    ("the smallest part of a parallel release", "Parallel composition costs the LARGEST ε of the disjoint parts: the "
     "people of the costliest part lose that much.", *_PARALLEL),
    ("parallel for sequential", "Answers about the same people add their ε (Theorem 3.16), whatever else is disjoint.",
     *_SEQUENTIAL),
    ("a release left out of the total", "Every release about the same people is charged to the same budget.",
     *_SEQUENTIAL),
    ("averaging left out", "The average of k independent answers has 1/k of one answer's variance (the sum has k "
     "times it): divide the sum by k, its variance by k².", *_SEQUENTIAL),
    ("the budget not shared", "k releases paid from one budget share it: by basic composition each gets ε/k.",
     *_SEQUENTIAL),
    ("one release for all of them", "The attacker sees every release: the guarantee that counts is the composed one.",
     *_SEQUENTIAL),
    ("basic composition where a δ′ buys more", "With a δ′ allowed, Theorem 3.20 or an exact accounting can allow "
     "more than kε ≤ ε′.", *_ADVANCED),
    ("advanced composition where only basic holds", "A pure ε budget has only basic composition: the shares add up "
     "to ε exactly, never like √k.", *_ADVANCED),
    ("one accounting, not the better of two", "Theorems 3.16 and 3.20 both hold (the second at δ′): an accountant "
     "takes the smaller total, kε for a few releases and Theorem 3.20 for many.", *_ADVANCED),
    ("a looser accounting than asked", "Theorem 3.20 and the optimal composition theorem hold for any ε-DP mechanism; "
     "releases known to be Laplace have a tighter, exact total.", *_ADVANCED),
    ("each release for all at once", "95% for each of k counts leaves about k/20 of them outside ±α; all k together "
     "need each at 1 − 0.05/k (the union bound, Theorem 3.8).", *_CHOOSING),
    ("a different mechanism than asked", "Gaussian and Laplace noise of the same accuracy have different totals: "
     "plan the mechanism the release uses.", *_CHOOSING),
    ("Theorem 3.20's second term left out", "Theorem 3.20's ε′ has two terms: √(2k ln(1/δ′))·ε and kε(e^ε − 1), "
     "which grows linearly in k.", *_ADVANCED),
    ("ln(1/δ′) doubled", "Theorem 3.20 has √(2k ln(1/δ′)): one logarithm of 1/δ′, under the root once.", *_ADVANCED),
    ("a whole number rounded up", "The number of releases that fit is the largest whole number within the budget: "
     "round down.", *_ADVANCED),
    # -- the privacy loss and what ε bounds
    ("a ratio for its logarithm", "ε and the privacy loss are logarithms: e^ε is the ratio of probabilities, ε its "
     "natural logarithm.", *_LOSS),
    ("a logarithm for the ratio", "The question asks for the factor (a ratio of probabilities), not its logarithm.",
     *_LOSS),
    ("a ratio bound for a probability", "ε-DP bounds the ratio of two probabilities by e^ε; it is not itself the "
     "probability of an event.", "03_laplace_mechanism", "The setting: ε-differential privacy"),
    ("the promised ε for the actual loss", "Theorem 3.6 holds only when the noise is calibrated to the true Δf; with "
     "Δf understated the loss exceeds ε.", "03_laplace_mechanism", "When Δf is understated"),
    ("the mechanism's own curve for every mechanism's", "A particular mechanism (Laplace on a count) can do better for "
     "the defender than the limit for every ε-DP mechanism; read which the question asks about.", *_TESTING),
    ("a coin toss", "FNR = 1 − FPR is what a test achieves when the release says nothing (ε = 0, μ = 0); these releases "
     "say something.", *_TESTING),
    ("the wrong piece of the trade-off curve", "Laplace's trade-off curve has three pieces, each valid on its own range "
     "of FPR: use the one that holds at this FPR.", *_TESTING),
    ("a replacement taken as one step at 2ε", "Replacing a known member's record is two add/remove steps, and both "
     "steps' constraints hold at once: the best guess is not the 2ε limit's.", "11_what_epsilon_promises",
     "Membership, attribute and group"),
    ("membership for an attribute", "Changing a known member's record is a replacement, two add/remove steps: the "
     "membership limit (one step) is too small for it.", "11_what_epsilon_promises",
     "Membership, attribute and group"),
    # -- Gaussian noise, δ and GDP
    ("Theorem 3.22's σ for the analytic σ", "Theorem 3.22's c = √(2 ln(1.25/δ)) is a sufficient bound (for ε < 1); "
     "the analytic σ of Balle & Wang is exact and smaller.", *_GAUSSIAN),
    ("the Laplace scale for the Gaussian σ", "The Gaussian mechanism's σ comes from (ε, δ) and the ℓ2-sensitivity, not "
     "from Δ₁f/ε.", *_GAUSSIAN),
    ("σ without δ", "The Gaussian σ for (ε, δ) grows as δ shrinks: Δ₂f/ε alone leaves δ out.", *_GAUSSIAN),
    ("Pr[L > ε] for δ", "δ(ε) = E[(1 − e^(ε − L))₊] is smaller than the probability that the loss exceeds ε: δ is "
     "not the probability that something goes wrong.", *_ACCOUNTANT),
    ("Laplace's δ(ε) miscomputed", "For Lap(b) and answers 0 and Δf the worst event is the outputs whose loss exceeds "
     "ε: every z below (Δf − εb)/2, not the midpoint (only at ε = 0); δ is its probability under one neighbour minus "
     "e^ε times under the other, 0 from ε = Δf/b on.", *_ACCOUNTANT),
    ("the wrong Generalized Gaussian moment", "E|X|^r = σ^r·Γ((r + 1)/p)/Γ(1/p): the variance is r = 2, at this p "
     "(p = 2 and p = 1 are other distributions).", "08_gaussian_and_generalized_gaussian",
     "The Generalized Gaussian family"),
    ("μ's added, not in quadrature", "k μ-GDP releases are μ√k-GDP: the μ's add like the sides of a right angle, "
     "√(Σμ²).", *_GDP),
    ("σ for μ", "μ = Δ/σ measures how far apart the two worlds are in units of the noise: more noise, smaller μ.",
     *_GDP),
    ("the wrong normal quantile", "The best test says y on the upper tail: its threshold is the (1 − FPR)-quantile.",
     *_GDP),
    # -- discrete noise and audits
    ("the continuous Laplace for the discrete", "The discrete Laplace's variance 2q/(1 − q)² is a little less than the "
     "continuous one's 2(Δf/ε)².", "09_noise_on_a_computer", "The fix for counts: the discrete Laplace mechanism"),
    ("a square left out", "The discrete Laplace's variance has (1 − q)² below: the square matters.",
     "09_noise_on_a_computer", "The fix for counts: the discrete Laplace mechanism"),
    ("δ left out of (ε, δ)", "(ε, δ)-DP allows Pr[M(x) ∈ S] ≤ e^ε·Pr[M(y) ∈ S] + δ: subtract δ before taking the "
     "ratio.", *_AUDITOR),
    ("δ in the wrong place", "δ sits beside the probabilities, outside the factor e^ε, and never in the exponent.",
     *_AUDITOR),
    ("the audit's ratio upside down", "The audit proves ε > ln((L_x − δ)/U_y): x's lower bound over y's upper bound.",
     *_AUDITOR),
    # -- selection
    ("the other count's chance", "Read which outcome the question asks for: the smaller count winning, not the larger.",
     *_NOISY_MAX),
    ("one noise for the difference of two", "Both counts get independent noise: the upset needs the DIFFERENCE of two "
     "noises to exceed the gap, and that difference is not Laplace.", *_NOISY_MAX),
    ("the event counted twice", "The smaller count wins only when its noise beats the other's by more than the gap: "
     "one direction.", *_NOISY_MAX),
    ("the exponential mechanism's 2Δu left out", "Definition 3.4 weights r by exp(ε·u(x, r)/(2Δu)): divide by 2Δu.",
     *_EXPONENTIAL),
    ("weights not normalised", "A probability is a weight divided by the sum of all the weights, and the weights are "
     "exponentials of the scores, not the scores.", *_EXPONENTIAL),
    ("another choice's probability", "Read which choice the question asks about.", *_EXPONENTIAL),
    ("the uniform choice", "Only as ε → 0 is every choice equally likely; at this ε the scores matter.", *_EXPONENTIAL),
    ("Theorem 3.24 miscopied", "AboveThreshold's α = 8(ln k + ln(2/β))/ε: natural logarithms of k and 2/β, added, "
     "times 8, over the whole ε.", "07_private_selection", "How accurate, and for how long a stream"),
    # -- randomized response
    ("randomized response not undone", "The share of yes reports is q·p + (1 − q)(1 − p): subtract the flipped share "
     "and divide by 2q − 1.", *_RR),
    ("q and 1 − q swapped", "A report is truthful with probability q = e^ε/(1 + e^ε), the larger one.", *_RR),
    ("the share of no for yes", "Read which answer the question asks the share of.", *_RR),
    # -- reconstruction and the sparse vector variants
    ("the attack's threshold for the budget's noise", "Noise below √n lets the attack succeed; what a budget requires "
     "comes from splitting ε over the answers.", "11_what_epsilon_promises", "Reconstruction: why a budget must exist"),
    ("the budget shared over the wrong things", "Every answer spends its share of ε: split the budget over the m "
     "answers, not over the n secrets.", "11_what_epsilon_promises", "Reconstruction: why a budget must exist"),
    ("the claim for the measurement", "An audit tests the claimed e^ε: compute the event's probability on each side "
     "instead of assuming the claim.", "11_what_epsilon_promises", "Broken sparse vector variants, caught live"),
    ("one query's factor for all of them", "Without common threshold noise the comparisons are independent: their "
     "factors multiply.", "11_what_epsilon_promises", "Broken sparse vector variants, caught live"),
    ("the query noise misread", "AboveThreshold's query noise is Lap(4/ε): one comparison moves the odds by e^(ε/4).",
     "11_what_epsilon_promises", "Broken sparse vector variants, caught live"),
    # -- a step of a release taken the wrong way, and a simulation for a formula (a learner's answers)
    ("Δf divided for multiplied", "The Laplace scale is b = Δf/ε: a larger Δf needs more noise, so Δf multiplies 1/ε, "
     "never divides it.", *_SCALE),
    ("a normal quantile for Laplace's tail", "Laplace noise is not normal: its error bound at a probability comes from "
     "Fact 3.7's e^(−t), not from the normal distribution's quantiles.", *_TAIL),
    ("a simulated value for the exact one", "A simulation estimates a variance or a probability only to within its "
     "sampling error; a question that asks for the exact value asks for the formula's.", *_SPREAD),
    ("a δ other than the plan's", "δ is chosen far below 1/n (publishing each record with probability δ is (0, δ)-DP), "
     "and a total at another δ is another total: use the plan's δ.", *_CHOOSING),
    ("ε² for ε²/2", "An ε-DP release is (ε²/2)-zCDP (Bun & Steinke 2016): square ε and halve it.", *_OPENDP_ZCDP),
    ("ρ converted to ε", "A zCDP accountant's total is ρ; converting it to an (ε, δ) guarantee is a further step, at a "
     "δ the question may not ask for.", *_OPENDP_ZCDP),
    # -- right-minded answers to another question, and a doubling replacement cannot reach (issue 51)
    ("an exact probability for Theorem 3.8's bound", "1 − (1 − e^(−t))^k and Šidák's quantile are exact when the k "
     "noises are independent; Theorem 3.8's union bound is a bound that holds however they depend on each other.",
     *_THM_3_8),
    ("a tighter accounting than asked", "The optimal composition theorem and the exact total of Laplace answers are "
     "tighter than Theorems 3.16 and 3.20, and right for their releases; an exercise that names its theorems asks for "
     "theirs.", *_ADVANCED),
    ("a change counted twice", "Δf is the largest ‖f(x) − f(y)‖₁ over neighbours that differ by one record, counted "
     "once; a replacement can at most double it, and for many queries (a count beside a clipped sum, overlapping "
     "counts) it does not.", *_DEF_3_1),
    ("the size limit on the wrong database", "An enumeration up to n records lists the pairs whose LARGER database "
     "has at most n records: the smaller has at most n − 1.", *_DEF_3_1),
]

#: Every named mistake, by name.
MISTAKES: dict[str, NamedMistake] = {}
for _entry in _NAMED:
    _mistake = NamedMistake(*_entry)
    if _mistake.name in MISTAKES:
        raise ValueError(f"two named mistakes are called {_mistake.name!r}")
    MISTAKES[_mistake.name] = _mistake

#: The claims DP teaching material most often gets wrong, each with the section that gets it right.
CLAIMS = (
    WrongClaim("The Laplace mechanism adds Lap(ε/Δf) noise.",
               "The scale is Δf/ε (Definition 3.3): noise must GROW as ε shrinks and as Δf grows; Lap(ε/Δf) does the "
               "opposite.", "03_laplace_mechanism", "Definition 3.3: the Laplace mechanism"),
    WrongClaim("σ = √(2 ln(1.25/δ))·Δ₂f/ε makes the Gaussian mechanism (ε, δ)-DP at any ε.",
               "Theorem 3.22 proves it only for ε < 1; at ε ≥ 1 use the analytic calibration (Balle & Wang 2018), "
               "which is exact at every ε.", *_GAUSSIAN),
    WrongClaim("δ read as the probability that something goes wrong (that the guarantee fails).",
               "δ is the additive slack of Definition 2.4; the probability that the privacy loss exceeds ε can be far "
               "larger than δ.", *_ACCOUNTANT),
    WrongClaim("ε read as a probability (or a percentage of risk): ε is a probability.",
               "ε bounds the logarithm of a ratio of probabilities: one release moves an attacker's odds by at most "
               "e^ε, and ε can be any positive number.", "03_laplace_mechanism", "How to read ε"),
    WrongClaim("Clipping bounds can be taken from the data (its minimum and maximum).",
               "A bound computed from the data depends on every record, so the sensitivity it gives is no bound: "
               "choose the clipping range before looking at the data, or spend budget to estimate it.",
               "01_sensitivity", "A sum needs clipping"),
)


def common_mistakes() -> list[dict[str, str]]:
    """Every named mistake as a page lists it: name, why, chapter (a notebook's stem) and section (its heading).

    Read from the registry alone (no checker runs), in the registry's order, which groups them by topic."""
    return [{"name": m.name, "why": m.why, "chapter": m.chapter, "section": m.section} for m in MISTAKES.values()]


def wrong_claims() -> list[dict[str, str]]:
    """The claims teaching material most often gets wrong: claim, why, chapter and section that gets it right."""
    return [{"claim": c.claim, "why": c.why, "chapter": c.chapter, "section": c.section} for c in CLAIMS]
