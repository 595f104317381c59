"""Chapter 12: the weekly release with OpenDP, its numbers held to the workbook's planner like with like, the law
of OpenDP's noise, and the chapter's exercises (check_weekly_scale, check_weekly_rho).

OpenDP cannot be seeded: the distribution tests are random, each with its false-positive rate stated (the chance
that a correct sampler fails it), and each is paired with a broken twin (half the noise) it must refute.
"""

from __future__ import annotations

import json
import math

import numpy as np
import opendp.prelude as odp
import pytest
from helpers import ROOT
from scipy import stats

import dpteach as dp
from dpteach.exercises import EXERCISES, MISTAKES

odp.enable_features("contrib")

#: the chapter's plan (40 weekly counts of 10,000 users, each ±50 at 95%) and others around it
PLANS = [(10_000, 40, 50), (10_000, 52, 20), (1_000_000, 100, 10), (1_000, 5, 5)]
USERS = odp.vector_domain(odp.atom_domain(T=int)), odp.symmetric_distance()
NOTEBOOK = ROOT / "notebooks" / "12_to_a_real_release.ipynb"


def _weekly(scale: float, gaussian: bool = False):
    noise = odp.m.then_gaussian(scale=scale) if gaussian else odp.m.then_laplace(scale=scale)
    return odp.t.make_count(*USERS) >> noise


@pytest.mark.parametrize("people, weeks, accuracy", PLANS)
def test_opendp_basic_composition_is_the_planners_k_epsilon(people, weeks, accuracy):
    """OpenDP's composition of k weekly Laplace counts spends the planner's kε: to 1e-12 relative, and never less
    (OpenDP rounds its maps upwards)."""
    plan = dp.plan_budget(people, weeks, accuracy)
    weekly = _weekly(1 / plan.per_release)
    total = odp.c.make_composition([weekly] * weeks).map(1)
    assert math.isclose(total, plan.basic, rel_tol=1e-12)
    assert total >= plan.basic * (1 - 1e-15)
    assert math.isclose(weekly.map(1), plan.per_release, rel_tol=1e-12) and weekly.map(1) >= plan.per_release


@pytest.mark.parametrize("people, weeks, accuracy", PLANS)
def test_opendp_zcdp_totals_are_dpteachs_conversion_and_looser_than_the_exact_ones(people, weeks, accuracy):
    """Gaussian noise of the planner's σ: OpenDP's total ρ is k/(2σ²) and its ε at δ is dpteach's zcdp_to_dp at
    that ρ (1e-9 relative), at least the planner's exact (GDP) total. Laplace noise through zCDP (ε²/2 a week):
    between the planner's exact total and its basic one."""
    plan = dp.plan_budget(people, weeks, accuracy)
    gauss = odp.c.make_composition([_weekly(plan.gaussian_std, gaussian=True)] * weeks)
    rho = gauss.map(1)
    assert math.isclose(rho, weeks / (2 * plan.gaussian_std ** 2), rel_tol=1e-12)
    theirs = odp.c.make_zCDP_to_approxDP(gauss).map(1).epsilon(plan.delta)
    assert math.isclose(theirs, dp.zcdp_to_dp(rho, plan.delta), rel_tol=1e-9)
    assert theirs >= plan.gaussian

    laplace = odp.c.make_composition([odp.c.make_pureDP_to_zCDP(_weekly(1 / plan.per_release))] * weeks)
    rho_laplace = laplace.map(1)
    assert math.isclose(rho_laplace, weeks * plan.per_release ** 2 / 2, rel_tol=1e-12)
    looser = odp.c.make_zCDP_to_approxDP(laplace).map(1).epsilon(plan.delta)
    assert math.isclose(looser, dp.zcdp_to_dp(rho_laplace, plan.delta), rel_tol=1e-9)
    assert plan.exact <= looser


def test_the_chapters_plan_orders_its_totals_as_the_chapter_says():
    """The chapter's 40 weeks: exact < OpenDP through zCDP < basic, for Laplace noise."""
    plan = dp.plan_budget(10_000, 40, 50)
    laplace = odp.c.make_composition([odp.c.make_pureDP_to_zCDP(_weekly(1 / plan.per_release))] * 40)
    looser = odp.c.make_zCDP_to_approxDP(laplace).map(1).epsilon(plan.delta)
    assert plan.exact < looser < plan.basic


def test_a_float_sums_sensitivity_exceeds_its_clipping_bound_as_the_chapter_prints():
    """Casacuberta et al. 2022: OpenDP's map of a sum of values clipped to [0, 10] exceeds 10, more for more
    records, far more for term-by-term summation than pairwise."""
    previous = {"Sequential": 10.0, "Pairwise": 10.0}
    for n in (10_000, 1_000_000, 100_000_000):
        sens = {order: odp.t.make_bounded_float_checked_sum(n, (0.0, 10.0), S=f"{order}<f64>").map(1)
                for order in previous}
        assert all(sens[o] > previous[o] for o in previous)
        assert sens["Sequential"] > sens["Pairwise"]
        previous = sens
    assert previous["Sequential"] > 2 * 10.0


def _discrete_laplace_chi2(samples: np.ndarray, scale: float) -> float:
    """The p-value of a χ² test of integer samples against the discrete Laplace law with this scale
    (Pr[Z = z] = (1 − α)/(1 + α)·α^|z|, α = e^(−1/scale)), in bins of width ⌈scale/2⌉ out to ±5·scale and two tails."""
    a = math.exp(-1 / scale)
    width = math.ceil(scale / 2)
    edges = np.arange(-5 * scale // width * width, 5 * scale // width * width + width + 1, width).astype(int)

    def cdf(z):                              # Pr[Z ≤ z] for integer z
        return np.where(z < 0, a ** (-z) / (1 + a), 1 - a ** (z + 1) / (1 + a))

    upper = np.concatenate([edges[1:] - 1, [np.inf]])
    lower = np.concatenate([[-np.inf], edges[1:]])
    probs = np.array([(cdf(hi) if np.isfinite(hi) else 1.0) - (cdf(lo - 1) if np.isfinite(lo) else 0.0)
                      for lo, hi in zip(lower, upper)])
    observed = np.array([np.count_nonzero((samples >= lo) & (samples <= hi)) for lo, hi in zip(lower, upper)])
    return stats.chisquare(observed, probs * len(samples)).pvalue


#: a correct sampler fails the χ² test with probability 10⁻⁶ (the test's false-positive rate)
ALPHA = 1e-6


def test_opendps_weekly_noise_follows_the_discrete_laplace_law():
    """20,000 of OpenDP's noisy counts at the chapter's scale, against the discrete Laplace law: fails a correct
    sampler with probability ALPHA = 10⁻⁶. Its broken twin (half the scale) must be refuted at the same level: the
    power is 1 to many decimals at this sample size (the χ² statistic's mean grows with n times the divergence)."""
    plan = dp.plan_budget(10_000, 40, 50)
    scale = 1 / plan.per_release
    n = 20_000
    noise = odp.m.make_laplace(odp.vector_domain(odp.atom_domain(T=int)), odp.l1_distance(T=int), scale=scale)
    samples = np.asarray(noise([0] * n))
    assert _discrete_laplace_chi2(samples, scale) > ALPHA
    half = odp.m.make_laplace(odp.vector_domain(odp.atom_domain(T=int)), odp.l1_distance(T=int), scale=scale / 2)
    assert _discrete_laplace_chi2(np.asarray(half([0] * n)), scale) < ALPHA


def test_the_chapters_release_counts_the_active_users():
    """A week's measurement built as the chapter builds it, run on a week's ids as the chapter runs it: its output is
    near the number of ids, not the number of users (|noise| > 30 scales has probability e^(−30))."""
    plan = dp.plan_budget(10_000, 40, 50)
    weekly = _weekly(1 / plan.per_release)
    ids = list(range(0, 10_000, 3))
    assert abs(weekly(ids) - len(ids)) <= 30 / plan.per_release


# -- the exercise ------------------------------------------------------------------------------------------------

SPEC = EXERCISES["check_weekly_scale"]


def _by_hand(weeks, cap, total):
    return cap * weeks / total


@pytest.mark.parametrize("params", [{}, *SPEC.variants()], ids=str)
def test_the_checker_expects_the_scale_that_opendp_maps_back_to_the_total(params):
    """At the chapter's numbers and every homework combination: the expected scale is c·k/total, and OpenDP's
    composition of k weeks at that scale, read at d_in = c, spends the total."""
    values = {**SPEC.defaults, **params}
    expected = SPEC.expected(**params)
    assert math.isclose(expected, _by_hand(**values), rel_tol=1e-12)
    year = odp.c.make_composition([_weekly(expected)] * values["weeks"])
    assert math.isclose(year.map(values["cap"]), values["total"], rel_tol=1e-12)


def test_the_checker_accepts_the_answer_and_refuses_others():
    check = dp.exercises.check_weekly_scale
    right = _by_hand(52, 3, 2.0)
    assert check(right).correct is True
    assert check(float(f"{right:.3g}")).correct is True
    assert check(right * 1.05).correct is False
    assert check(...).correct is None


def test_the_checker_names_each_known_mistake():
    check = dp.exercises.check_weekly_scale
    weeks, cap, total = 52, 3, 2.0
    wrong = {"the budget not shared": cap / total, "Δf = 1 where one person moves more": weeks / total,
             "Δf/ε upside down": total / (weeks * cap), "a scale for ε, or ε for a scale": total / weeks,
             "Δf divided for multiplied": weeks / (total * cap)}
    assert {m.name for m in SPEC.mistakes()} == set(wrong)
    for name, value in wrong.items():
        assert name in MISTAKES
        verdict = check(value)
        assert verdict.correct is False and "is not it:" in verdict.message, (name, verdict)
    assert "Δf = c" in check(weeks / total).message


RHO = EXERCISES["check_weekly_rho"]


@pytest.mark.parametrize("params", [{}, *RHO.variants()], ids=str)
def test_the_rho_checker_expects_what_opendps_accountant_reports(params):
    """At the chapter's numbers and every homework combination: ρ = k·(c/b)²/2 by hand, and OpenDP's composition of
    k weeks of Laplace noise, each converted to zCDP, read at d_in = c."""
    values = {**RHO.defaults, **params}
    expected = RHO.expected(**params)
    weeks, cap, scale = values["weeks"], values["cap"], values["scale"]
    assert math.isclose(expected, weeks * (cap / scale) ** 2 / 2, rel_tol=1e-12)
    year = odp.c.make_composition([odp.c.make_pureDP_to_zCDP(_weekly(scale))] * weeks)
    assert math.isclose(year.map(cap), expected, rel_tol=1e-12)


def test_the_rho_checker_accepts_the_answer_and_names_each_known_mistake():
    check = dp.exercises.check_weekly_rho
    weeks, cap, scale = 52, 2, 20.0
    right = weeks * (cap / scale) ** 2 / 2
    assert check(right).correct is True and check(float(f"{right:.3g}")).correct is True
    assert check(right * 1.05).correct is False and check(...).correct is None
    wrong = {"one release for all of them": (cap / scale) ** 2 / 2,
             "Δf = 1 where one person moves more": weeks / scale ** 2 / 2,
             "Δf/ε upside down": weeks * (scale / cap) ** 2 / 2,
             "a looser accounting than asked": (weeks * cap / scale) ** 2 / 2,
             "ε² for ε²/2": weeks * (cap / scale) ** 2, "ρ converted to ε": dp.zcdp_to_dp(right, 1e-6),
             "a percentage for a fraction": 100 * right}
    assert {m.name for m in RHO.mistakes()} == set(wrong)
    for name, value in wrong.items():
        assert name in MISTAKES
        verdict = check(value)
        assert verdict.correct is False and "is not it:" in verdict.message, (name, verdict)


@pytest.mark.parametrize("spec", [SPEC, RHO], ids=lambda s: s.name)
def test_no_cell_of_the_chapter_prints_an_exercises_answer(spec):
    """The answer at the chapter's numbers is in no output and no prose outside the exercise's own cells."""
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    answer = f"{spec.expected():.3g}"
    for index, cell in enumerate(nb["cells"]):
        text = "".join(cell["source"])
        if "check_weekly" in text or "**Exercise" in text or "answer_" in text:
            continue
        outputs = "".join("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", ""))
                          for o in cell.get("outputs", []))
        assert not any(word.strip(".,;:()") == answer for word in (text + " " + outputs).split()), index


# -- the budget OpenDP enforces, and the memo ----------------------------------------------------------------------

SOURCE = ROOT / "sources" / "12_to_a_real_release.md"
N_USERS = 300      # a small log: the compositor's logic does not depend on the number of users


def _log(weeks: int, seed: int = 5) -> tuple[list[int], np.ndarray]:
    """The chapter's log, smaller: one record w·N_USERS + u per user u active in week w, and the true counts."""
    active = np.random.default_rng(seed).random((weeks, N_USERS)) < 0.3
    return [w * N_USERS + u for w in range(weeks) for u in np.flatnonzero(active[w]).tolist()], active.sum(axis=1)


def _week_count(w: int, scale: float):
    keep = odp.t.make_find(*USERS, categories=list(range(w * N_USERS, (w + 1) * N_USERS))) >> odp.t.then_drop_null()
    return keep >> odp.t.then_count() >> odp.m.then_laplace(scale=scale)


def test_the_compositor_takes_the_40_weeks_and_refuses_the_41st():
    """The chapter's ledger: a zCDP compositor with the weekly measurement's own map as each of its 40 parts takes
    40 week queries on the log (each near its week's true count: |noise| > 30 scales has probability e^(−30)) and
    refuses a 41st with OpenDP's "out of queries"; its total, converted at δ, is the non-interactive zCDP total and
    dpteach's zcdp_to_dp of 40·ε²/2."""
    plan = dp.plan_budget(10_000, 40, 50)
    scale = 1 / plan.per_release
    weekly_zcdp = odp.c.make_pureDP_to_zCDP(_weekly(scale))
    ledger = odp.c.make_adaptive_composition(*USERS, odp.zero_concentrated_divergence(), d_in=1,
                                             d_mids=[weekly_zcdp.map(1)] * 40)
    log, true_counts = _log(40)
    queryable = ledger(log)
    for w in range(40):
        query = odp.c.make_pureDP_to_zCDP(_week_count(w, scale))
        assert query.map(1) == weekly_zcdp.map(1)
        assert abs(queryable(query) - true_counts[w]) <= 30 * scale
    with pytest.raises(odp.OpenDPException, match="out of queries"):
        queryable(odp.c.make_pureDP_to_zCDP(_week_count(0, scale)))
    total = odp.c.make_zCDP_to_approxDP(ledger).map(1).epsilon(plan.delta)
    year = odp.c.make_composition([weekly_zcdp] * 40)
    assert math.isclose(total, odp.c.make_zCDP_to_approxDP(year).map(1).epsilon(plan.delta), rel_tol=1e-12)
    assert math.isclose(total, dp.zcdp_to_dp(40 * plan.per_release ** 2 / 2, plan.delta), rel_tol=1e-9)


def test_a_part_computed_by_the_planner_refuses_week_one():
    """The trap the chapter prints: OpenDP's map of the weekly measurement is strictly above the planner's ε (it
    rounds upwards), so a compositor whose parts are the planner's float refuses the first week; the measurement's own
    map as the part takes it."""
    plan = dp.plan_budget(10_000, 40, 50)
    weekly = _weekly(1 / plan.per_release)
    assert weekly.map(1) > plan.per_release
    log, _ = _log(2)
    tight = odp.c.make_adaptive_composition(*USERS, odp.max_divergence(), d_in=1, d_mids=[plan.per_release] * 2)
    with pytest.raises(odp.OpenDPException, match="insufficient budget"):
        tight(log)(_week_count(0, 1 / plan.per_release))
    right = odp.c.make_adaptive_composition(*USERS, odp.max_divergence(), d_in=1, d_mids=[weekly.map(1)] * 2)
    right(log)(_week_count(0, 1 / plan.per_release))
    assert math.isclose(right.map(1), 2 * plan.per_release, rel_tol=1e-12)


def _discrete_laplace_pmf(z: np.ndarray, epsilon: float) -> np.ndarray:
    q = math.exp(-epsilon)
    return (1 - q) / (1 + q) * q ** np.abs(z)


@pytest.mark.parametrize("epsilon", [0.5, 0.8, 1.2])
def test_k_discrete_laplace_releases_are_as_private_as_k_randomized_responses(epsilon):
    """The chapter's claim: the best guess against k discrete Laplace counts (moved by 1) is ½(1 + TV) with TV
    dpteach's optimal_composition_delta(k, ε, 0). Checked for k = 3 against TV computed over the outputs themselves:
    Σ over a grid of (z₁, z₂, z₃) of |P(z) − P(z − 1)|/2, by brute force, the tails beyond ±36/ε below 1e-15."""
    reach = int(36 / epsilon)
    z = np.arange(-reach, reach + 2)
    p, p_shift = _discrete_laplace_pmf(z, epsilon), _discrete_laplace_pmf(z - 1, epsilon)
    joint = p[:, None, None] * p[None, :, None] * p[None, None, :]
    joint_shift = p_shift[:, None, None] * p_shift[None, :, None] * p_shift[None, None, :]
    tv = 0.5 * np.abs(joint - joint_shift).sum()
    assert math.isclose(dp.optimal_composition_delta(3, epsilon, 0.0), tv, rel_tol=1e-9, abs_tol=1e-12)


def test_the_memos_exact_numbers_for_the_discrete_noise_are_the_binomials():
    """The chapter's 40 weeks: the loss of a count's discrete Laplace noise is ±ε, so the number of weeks with loss
    +ε is Binomial(40, e^ε/(1 + e^ε)) with the user and Binomial(40, 1/(1 + e^ε)) without: TV and δ(ε′) computed
    from scipy's binomial pmfs equal dpteach's optimal composition (the memo's 57.5% and 1.59), which is above the
    continuous exact total (the chapter's "a hair less private"), and the guess differs from chapter 06's by less
    than a tenth of a percentage point."""
    plan = dp.plan_budget(10_000, 40, 50)
    eps = _weekly(1 / plan.per_release).map(1)
    n = np.arange(41)
    with_user = stats.binom.pmf(n, 40, 1 / (1 + math.exp(-eps)))
    without = stats.binom.pmf(n, 40, 1 / (1 + math.exp(eps)))
    tv = np.clip(with_user - without, 0, None).sum()
    assert math.isclose(dp.optimal_composition_delta(40, eps, 0.0), tv, rel_tol=1e-9)
    total = dp.optimal_composition(40, eps, plan.delta)[0]
    delta_at = np.clip(with_user - math.exp(total) * without, 0, None).sum()
    assert math.isclose(delta_at, plan.delta, rel_tol=1e-6)
    assert plan.exact < total < odp.c.make_zCDP_to_approxDP(
        odp.c.make_composition([odp.c.make_pureDP_to_zCDP(_weekly(1 / plan.per_release))] * 40)).map(1).epsilon(plan.delta)
    assert 0 < (1 + tv) / 2 - plan.exact_guess < 0.001


def test_the_memos_totals_and_bounds_are_opendps_maps_and_the_formulas():
    """The memo's claims: the total OpenDP proves at δ (through zCDP) and at δ = 0 (basic, the planner's kε), the
    attacker bounds 1 − (1 − δ)/(1 + e^ε) and e^ε/(1 + e^ε) at them, and the recommendation's order: Gaussian's proven
    total below Laplace's at the same δ, below the pure one. The prose's numbers are these, rounded as printed."""
    plan = dp.plan_budget(10_000, 40, 50)
    weekly = _weekly(1 / plan.per_release)
    laplace = odp.c.make_zCDP_to_approxDP(
        odp.c.make_composition([odp.c.make_pureDP_to_zCDP(weekly)] * 40)).map(1).epsilon(plan.delta)
    pure = odp.c.make_composition([weekly] * 40).map(1)
    gauss = odp.c.make_zCDP_to_approxDP(
        odp.c.make_composition([_weekly(plan.gaussian_std, gaussian=True)] * 40)).map(1).epsilon(plan.delta)
    assert math.isclose(pure, plan.basic, rel_tol=1e-12)
    assert gauss < laplace < pure
    bound = 1 - (1 - plan.delta) / (1 + math.exp(laplace))
    assert math.isclose(dp.group_best_success(laplace, 1, plan.delta), bound, rel_tol=1e-9)
    assert math.isclose(dp.best_success(pure), math.exp(pure) / (1 + math.exp(pure)), rel_tol=1e-12)
    prose = SOURCE.read_text(encoding="utf-8")
    assert f"claims what a vetted library proves for the noise it drew, {laplace:.2f} at δ = 10⁻⁶ (or {pure:.2f} with δ = 0)" in prose
    assert f"Gaussian noise at {gauss:.2f} under the same δ" in prose and f"Laplace noise claimed at {laplace:.2f}" in prose
    assert f"the {plan.exact_guess:.1%} was computed for continuous Laplace" in prose
    assert f"chapter 06's {dp.group_best_success(plan.exact, 1, plan.delta):.1%} was for the exact total" in prose
    assert f"Chapter 06's total, {plan.exact:.2f}, is the exact total of continuous Laplace" in prose


def test_the_chapter_names_the_laplace_constructor_as_its_code_calls_it_and_feeds_the_ledger_its_maps():
    """Exercise 1's prompt names the constructor the chapter's cells call (then_laplace); and the chapter's ledger
    takes the measurement's own map as each part (the planner's float refuses week 1: see above)."""
    prose = SOURCE.read_text(encoding="utf-8")
    assert "odp.m.then_laplace(" in prose and "`then_laplace` be given" in prose
    assert "`then_laplace` be given" in SPEC.prompt.format(**SPEC.defaults)
    assert "d_mids=[weekly_zcdp.map(1)] * weeks" in prose


def test_the_gaussian_alternative_has_the_same_accuracy_in_the_noise_opendp_draws():
    """The recommendation compares like with like: OpenDP's Gaussian noise on an integer count is the discrete
    Gaussian of parameter σ (20,000 draws against its law, by a χ² test in bins of width ⌈σ/2⌉ out to ±5σ and two
    tails: fails a correct sampler with probability ALPHA = 10⁻⁶, and refutes a σ a fifth too small), and at the planner's σ it is within ±50 with
    probability at least 95%, as the discrete Laplace at the planner's scale is (both by direct sums of the pmfs)."""
    plan = dp.plan_budget(10_000, 40, 50)
    sigma = plan.gaussian_std
    reach = int(12 * sigma)
    z = np.arange(-reach, reach + 1)
    pmf = np.exp(-z.astype(float) ** 2 / (2 * sigma ** 2))
    pmf /= pmf.sum()
    assert pmf[np.abs(z) <= 50].sum() >= 0.95
    laplace = _discrete_laplace_pmf(z, plan.per_release)
    assert laplace[np.abs(z) <= 50].sum() >= 0.95
    width = math.ceil(sigma / 2)
    edges = np.arange(-5 * sigma // width * width, 5 * sigma // width * width + width + 1, width).astype(int)
    probs = np.bincount(np.digitize(z, edges), weights=pmf, minlength=edges.size + 1)

    def p_value(scale: float) -> float:
        noise = odp.m.make_gaussian(odp.vector_domain(odp.atom_domain(T=int)), odp.l2_distance(T=int), scale=scale)
        samples = np.asarray(noise([0] * 20_000))
        observed = np.bincount(np.digitize(samples, edges), minlength=edges.size + 1)
        return stats.chisquare(observed, probs * samples.size).pvalue

    assert p_value(sigma) > ALPHA
    assert p_value(0.8 * sigma) < ALPHA          # the broken twin, σ a fifth too small, is refuted


def test_the_notions_the_chapter_uses_are_said_where_it_uses_them():
    """TV (with δ(0)) and zCDP get a sentence each where chapter 12 first uses them, and the prerequisites point to
    the chapters that define them (08 for the privacy loss distribution and δ(0), 09 for zCDP)."""
    prose = SOURCE.read_text(encoding="utf-8")
    assert "TV is the total variation distance" in prose and "which is δ(0)" in prose
    assert "zero-concentrated DP (zCDP, defined in chapter 09: a mechanism is ρ-zCDP when" in prose
    table = prose[prose.index("## Prerequisites"):prose.index("```{code-cell}")]
    assert "δ(0) = TV" in table and "08_gaussian_and_generalized_gaussian.ipynb" in table
    assert "zCDP" in table and "09_noise_on_a_computer.ipynb" in table
