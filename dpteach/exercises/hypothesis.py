"""Checkers for chapter 11: privacy as hypothesis testing, membership against attribute, group privacy, Gaussian DP."""

from __future__ import annotations

import math

from ..gdp import gaussian_gdp_mu, gdp_compose, gdp_tradeoff
from ..hypothesis import best_success, dp_tradeoff_limit, group_best_success, laplace_tradeoff
from ._base import Feedback, Mistake, compare, exercise, tolerance
from ._feedback import percentages

__all__ = ["check_attribute_success", "check_gdp_composed_beta", "check_laplace_best_beta"]


def _percentages(expected: float, mistakes: list[Mistake], figures: int = 3) -> list[Mistake]:
    """The right answer and each probability mistake typed as a percentage (73.1 for 0.731), named as such
    (:func:`~dpteach.exercises._feedback.percentages`)."""
    return percentages(expected, mistakes, figures, "the question asks for a probability, a number between 0 and 1.")


#: ε = 0.5, …, 3, FPR = 0.05, …, 0.9 (the chapter's ε = 1 and FPR = 0.3 left out): 63 combinations, every branch of
#: the curve (FPR ≤ e^(−ε)/2, between, FPR ≥ ½), none with the worked answer to 2 figures.
_BETA_EPSILONS = (0.5, 0.75, 1.25, 1.5, 2.0, 2.5, 3.0)
_BETA_FPRS = (0.05, 0.1, 0.15, 0.2, 0.25, 0.4, 0.6, 0.75, 0.9)


@exercise(prompt="A count is released with the Laplace mechanism, noise Lap(1/ε) with ε = {epsilon:g}. An attacker "
                 "tests \"the data is x\" against the neighbour \"the data is y\", whose count is one higher, and "
                 "accepts a false positive rate FPR = {fpr:g} (saying y when it is x). What is the smallest false "
                 "negative rate FNR any test can reach against this mechanism? Give 3 significant figures.",
          homework={"epsilon": _BETA_EPSILONS, "fpr": _BETA_FPRS}, figures=3)
def check_laplace_best_beta(answer, epsilon: float = 1.0, fpr: float = 0.3) -> Feedback:
    """Ch. 11, exercise 2: the Laplace mechanism's exact trade-off curve at one FPR."""
    expected = laplace_tradeoff(fpr, epsilon)
    mistakes = [
        Mistake(dp_tradeoff_limit(fpr, epsilon),
                "that is the limit for EVERY ε-DP mechanism (the region FPR + e^ε·FNR ≥ 1, e^ε·FPR + FNR ≥ 1). The Laplace "
                "mechanism's own curve lies strictly above it between its two straight ends: find the best "
                "threshold test for this FPR.", name="the mechanism's own curve for every mechanism's"),
        Mistake(1 - math.exp(epsilon) * fpr,
                "that is the straight end FNR = 1 − e^ε·FPR, which holds only for FPR ≤ e^(−ε)/2, where the threshold is "
                "above the larger count. At this FPR the threshold lies elsewhere.",
                name="the wrong piece of the trade-off curve"),
        Mistake(1 - fpr, "that is a coin toss (FNR = 1 − FPR): what a test can do against ε = 0. The release does "
                           "tell the attacker something.", name="a coin toss"),
        Mistake(math.exp(epsilon) / (4 * fpr), "the middle of the curve is e^(−ε)/(4·FPR): the exponent's sign is "
                                                 "flipped.", name="the wrong piece of the trade-off curve"),
    ]
    if fpr <= math.exp(-epsilon) / 2:
        branch = "FPR ≤ e^(−ε)/2, so the threshold lies above the larger count and FNR = 1 − e^ε·FPR"
    elif fpr <= 0.5:
        branch = "e^(−ε)/2 ≤ FPR ≤ ½, so the threshold lies between the two counts and FNR = e^(−ε)/(4·FPR)"
    else:
        branch = "FPR ≥ ½, so the threshold lies below the smaller count and FNR = e^(−ε)(1 − FPR)"
    return compare(answer, expected,
                   f"the best test says y when the output is at least t with Pr[Lap(1/ε) ≥ t] = FPR; here "
                   f"{branch} = {expected:.3g} (the ε-DP limit is {dp_tradeoff_limit(fpr, epsilon):.3g}).",
                   "Find the threshold t with Pr[Lap(1/ε) ≥ t] = FPR, then FNR = Pr[1 + Lap(1/ε) < t].",
                   figures=3, mistakes=_percentages(expected, mistakes))


#: ε = 0.2, 0.25, …, 2.5 without the chapter's 0.8 and its neighbours (whose answers are the worked one to 2
#: figures): 44 values, 44 answers that differ at 3 figures.
_ATTRIBUTE_EPSILONS = tuple(round(0.05 * i, 2) for i in range(4, 51) if i not in (15, 16, 17))


@exercise(prompt="A mechanism is ε-DP with ε = {epsilon:g} for neighbours that add or remove one person. An "
                 "attacker knows Alice is in the data and that her record says a or b, each with prior probability "
                 "½. What is the highest probability of guessing her value right that the guarantee alone allows "
                 "(for a generic ε-DP mechanism)? Give 3 significant figures.",
          homework={"epsilon": _ATTRIBUTE_EPSILONS}, figures=3)
def check_attribute_success(answer, epsilon: float = 0.8) -> Feedback:
    """Ch. 11, exercise 3: an attribute is a replacement, two add/remove steps through the database without Alice.

    Chaining the two ε-DP constraints (each on a set and on its complement) through that database
    bounds the best 50/50 guess by 1 − ½e^{−ε}, and a mechanism attains it
    (:func:`~dpteach.group_best_success` with k = 2; checked against a linear program over all
    mechanisms on the three databases in the tests). Group privacy's e^{2ε} bounds the odds of one
    output, but e^{2ε}/(1 + e^{2ε}) is not attained.
    """
    expected = group_best_success(epsilon, 2)
    mistakes = [
        Mistake(best_success(2 * epsilon),
                "that treats the pair as ONE step at 2ε (group privacy) and takes that bound's best guess. 2ε "
                "bounds how far the odds of one output can move, but both steps' constraints must hold at once, "
                "through the database without Alice, and together they allow less: chain them, each on the set "
                "of outputs where the guess is b and on its complement.",
                name="a replacement taken as one step at 2ε"),
        Mistake(best_success(epsilon), "that is the limit for membership (is Alice in?), one step. Changing Alice's "
                                       "record from a to b removes one person and adds another: two neighbour "
                                       "steps.", name="membership for an attribute"),
        Mistake(math.exp(2 * epsilon), "that is the factor by which the odds can move, not a probability.",
                name="a ratio bound for a probability"),
        Mistake(math.exp(epsilon), "that is e^ε, an odds factor (and at one step): the question asks for a "
                                   "probability, for a record that changes, not a person who leaves.",
                name="a ratio bound for a probability"),
        Mistake(1 - 0.5 * math.exp(-epsilon / 2), "that is the best test against the Laplace mechanism on a count, "
                                                  "a particular mechanism whose count moves by 1; the question asks "
                                                  "what the guarantee alone allows, for any ε-DP mechanism.",
                name="the mechanism's own curve for every mechanism's"),
        Mistake(best_success(epsilon / 2), "a replacement is two add/remove steps: the allowance grows with the "
                                           "steps, it does not shrink.", name="membership for an attribute"),
    ]
    return compare(answer, expected,
                   f"with q = Pr[guess b] on the database without Alice, one step each way gives Pr[right | a] ≤ "
                   f"1 − e^(−ε)·q and Pr[right | b] ≤ 1 − e^(−ε)·(1 − q), so the success is at most 1 − ½e^(−ε) = "
                   f"{expected:.3g} whatever q, and q = ½ attains it. Group privacy's e^(2ε)/(1 + e^(2ε)) = "
                   f"{best_success(2 * epsilon):.3g} bounds the odds, not the best guess.",
                   "Call q the chance that the guess is b on the database without Alice. One add/remove step "
                   "links it to each world with Alice: bound Pr[right | a] and Pr[right | b] through q, each by the "
                   "ε-DP constraint on a set and on its complement, and average.",
                   figures=3, mistakes=_percentages(expected, mistakes))


#: k, σ and FPR of the homework (the chapter's k = 40, σ = 8, FPR = 0.05 left out): 90 combinations, 89 answers that
#: differ at 3 figures, none the worked answer to 2 figures.
_GDP_KS = (10, 20, 30, 50, 60, 100)
_GDP_SIGMAS = (4.0, 5.0, 10.0, 12.0, 20.0)
_GDP_FPRS = (0.01, 0.1, 0.2)


@exercise(prompt="A count is released k = {k} times, each time with its own Gaussian noise N(0, σ²), σ = {sigma:g}; "
                 "one person changes the count by at most 1. An attacker sees all {k} releases, tests \"the data is "
                 "x\" against the neighbour \"the data is y\" and accepts a false positive rate FPR = {fpr:g}. By "
                 "Gaussian differential privacy, what is the smallest false negative rate FNR that any test can "
                 "reach? Give 3 significant figures.",
          homework={"k": _GDP_KS, "sigma": _GDP_SIGMAS, "fpr": _GDP_FPRS}, figures=3)
def check_gdp_composed_beta(answer, k: int = 40, sigma: float = 8.0, fpr: float = 0.05) -> Feedback:
    """Ch. 11, exercise 6: k Gaussian releases compose to μ√k-GDP (μ = Δ/σ), and the smallest FNR is G_{μ√k}(FPR).

    Dong, Roth & Su (2019): N(0, σ²) on a sensitivity-1 count is exactly (1/σ)-GDP, GDP composes
    as √(Σμᵢ²), and the trade-off curve of μ-GDP is G_μ(FPR) = Φ(Φ⁻¹(1 − FPR) − μ).
    """
    mu = gdp_compose([gaussian_gdp_mu(sigma)] * k)
    expected = gdp_tradeoff(fpr, mu)
    candidates = [
        Mistake(gdp_tradeoff(fpr, k / sigma),
                "that adds the k releases' μ's. Each release moves the attacker's evidence by an independent "
                "Gaussian amount; independent shifts combine like the sides of a right-angled triangle, not end "
                "to end.", name="μ's added, not in quadrature"),
        Mistake(gdp_tradeoff(fpr, 1 / sigma),
                "that is the curve of ONE release. The attacker sees all of them, and each tells a little more.",
                name="one release for all of them"),
        Mistake(gdp_tradeoff(fpr, sigma * math.sqrt(k)),
                "μ measures how far apart the two worlds are in units of the noise: the sensitivity divided by σ, "
                "not σ itself. More noise must mean a smaller μ.", name="σ for μ"),
        Mistake(gdp_tradeoff(fpr, math.sqrt(k) / sigma ** 2),
                "σ² is the variance; μ uses the standard deviation σ.", name="the wrong measure of spread"),
        Mistake(gdp_tradeoff(fpr, k / sigma ** 2),
                "that uses the sum of the squared μ's as μ: take its square root.",
                name="μ's added, not in quadrature"),
        Mistake(gdp_tradeoff(1 - fpr, mu),
                "the threshold is the (1 − FPR)-quantile of the standard normal (the test says y on its upper "
                "tail), not the FPR-quantile.", name="the wrong normal quantile"),
        Mistake(1 - expected, "that is the test's power 1 − FNR (the chance it says y when it is y); the question "
                              "asks for FNR, the chance it misses.", name="the complementary event"),
        Mistake(1 - fpr, "that is a coin toss (FNR = 1 − FPR): the releases do tell the attacker something.",
                name="a coin toss"),
    ]
    mistakes = [m for m in candidates if abs(m.value - expected) > tolerance(expected, 2)]
    return compare(answer, expected,
                   f"one release is μ-GDP with μ = Δ/σ = 1/{sigma:g}, and {k} of them are μ√k = {mu:.3g}-GDP; the "
                   f"best test says y when the releases' mean is above its (1 − FPR)-quantile under x, and FNR = "
                   f"Φ(Φ⁻¹(1 − FPR) − μ√k) = {expected:.3g}.",
                   "Find μ for one release, compose the k releases in Gaussian DP, then read the trade-off curve G_μ "
                   "at FPR.",
                   figures=3, mistakes=_percentages(expected, mistakes))
