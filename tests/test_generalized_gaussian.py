"""The Generalized Gaussian: density, sampler, moments, calibration, errors, the shipped table,
and the sparse vector refinement.

Sources of truth: scipy.stats.gennorm (the same family: density ∝ exp(−|x/σ|^p)); check values
at (ε, δ) = (1, 10⁻⁶) for Ganesh & Zhao's (2020) choice p = ln ln k; the Laplace results of
chapter 05 (p = 1, Dwork & Roth 2014, Theorem 3.8) and the analytic Gaussian (p = 2, Balle &
Wang 2018); simulation with fixed seeds.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dpteach as dp
from dpteach.generalized_gaussian import table as gg

P_VALUES = [1.0, 1.5, 2.0, 2.22, 3.0, 8.0]


# -- density, CDF, moments -----------------------------------------------------------------------

@pytest.mark.parametrize("p", P_VALUES)
def test_pdf_cdf_and_tail_match_scipy_gennorm(p):
    sigma = 1.7
    x = np.linspace(-6 * sigma, 6 * sigma, 241)
    rv = stats.gennorm(p, scale=sigma)
    assert np.allclose(dp.generalized_gaussian_pdf(x, p, sigma), rv.pdf(x), rtol=1e-12, atol=0)
    assert np.allclose(dp.generalized_gaussian_cdf(x, p, sigma), rv.cdf(x), rtol=1e-11, atol=1e-15)
    deep = -sigma * np.array([3.0, 5.0, 8.0]) ** (2 / p)       # far in the lower tail: relative accuracy
    assert np.allclose(dp.generalized_gaussian_cdf(deep, p, sigma), rv.cdf(deep), rtol=1e-10, atol=0)
    t = np.linspace(0, 6 * sigma, 25)
    assert np.allclose(dp.generalized_gaussian_tail(t, p, sigma), 2 * rv.sf(t), rtol=1e-10, atol=1e-300)


@pytest.mark.parametrize("p", P_VALUES)
def test_moments_match_scipy(p):
    sigma = 2.5
    rv = stats.gennorm(p, scale=sigma)
    assert dp.generalized_gaussian_variance(p, sigma) == pytest.approx(rv.var(), rel=1e-10)
    assert dp.generalized_gaussian_moment(1, p, sigma) == pytest.approx(rv.expect(abs), rel=1e-7)


def test_p_1_is_laplace_and_p_2_is_gaussian():
    x = np.linspace(-5, 5, 101)
    assert np.allclose(dp.generalized_gaussian_pdf(x, 1, 2.0), dp.laplace_pdf(x, 2.0), rtol=1e-13)
    assert np.allclose(dp.generalized_gaussian_pdf(x, 2, math.sqrt(2) * 1.5), stats.norm(scale=1.5).pdf(x),
                       rtol=1e-13)
    assert dp.generalized_gaussian_variance(1, 3.0) == pytest.approx(18.0)
    assert dp.generalized_gaussian_variance(2, 3.0) == pytest.approx(4.5)
    # Fact 3.7 at p = 1: Pr[|Y| ≥ t·b] = e^(−t)
    assert dp.generalized_gaussian_tail(6.0, 1, 2.0) == pytest.approx(math.exp(-3), rel=1e-14)


# -- the sampler ------------------------------------------------------------------------------------

@pytest.mark.parametrize("i, p", list(enumerate(P_VALUES)))
def test_sampler_passes_a_ks_test_against_gennorm(i, p):
    """100,000 draws per p, a two-sided KS test at α = 0.001. With six values of p the chance that
    a correct sampler fails any of them is at most 0.6% (Bonferroni); the seeds are fixed, so the
    outcome is deterministic. A sign error, a wrong power or a wrong scale fails by far."""
    x = dp.generalized_gaussian_sample(p, 3.0, 100_000, np.random.default_rng(2014 + i))
    assert stats.kstest(x, stats.gennorm(p, scale=3.0).cdf).pvalue > 1e-3


def test_the_ks_test_can_fail():
    """The same test rejects a sampler with the wrong power (G^p instead of G^(1/p))."""
    gen = np.random.default_rng(5)
    wrong = 3.0 * gen.standard_gamma(1 / 3, 100_000) ** 3 * gen.choice([-1, 1], 100_000)
    assert stats.kstest(wrong, stats.gennorm(3.0, scale=3.0).cdf).pvalue < 1e-3


def test_sampler_shapes_signs_and_reproducibility():
    a = dp.generalized_gaussian_sample(2.5, 1.0, (3, 4), np.random.default_rng(1))
    b = dp.generalized_gaussian_sample(2.5, 1.0, (3, 4), np.random.default_rng(1))
    assert a.shape == (3, 4) and np.array_equal(a, b)
    assert dp.generalized_gaussian_sample(2.5, 1.0, 0, np.random.default_rng(1)).shape == (0,)
    x = dp.generalized_gaussian_sample(1.5, 1.0, 200_000, np.random.default_rng(2))
    # a fair sign: the count of negatives is Binomial(n, ½); 5 standard deviations (rate 6e-7)
    assert abs((x < 0).sum() - 100_000) < 5 * math.sqrt(50_000)


def test_mechanism_adds_the_noise():
    true = np.array([10.0, 20.0, 30.0])
    out = dp.generalized_gaussian_mechanism(true, p=3.0, sigma=2.0, rng=np.random.default_rng(4))
    noise = dp.generalized_gaussian_sample(3.0, 2.0, 3, np.random.default_rng(4))
    assert np.allclose(out - true, noise)
    assert isinstance(dp.generalized_gaussian_mechanism(1.0, 2.0, 1.0, rng=np.random.default_rng(0)), float)


# -- calibration ------------------------------------------------------------------------------------

@pytest.mark.parametrize("k, p", [(1, 1.5), (10, 3.0), (100, 2.0), (1_000, 1.0), (10_000, 4.0)])
def test_calibrated_sigma_is_the_smallest_that_works(k, p):
    """At the σ returned the accountant (at the calibration's default resolution, 100) says (1, 10⁻⁶) holds,
    and 0.1% less noise breaks it."""
    sigma = dp.generalized_gaussian_sigma(k, p, 1.0, 1e-6)
    at = dp.privacy_loss_distribution(dp.GeneralizedGaussianNoise(p, sigma), k, resolution=100).delta(1.0)
    below = dp.privacy_loss_distribution(dp.GeneralizedGaussianNoise(p, sigma * 0.999), k, resolution=100).delta(1.0)
    assert at <= 1e-6 < below


def test_calibration_at_p_2_is_the_analytic_gaussian():
    for k in (1, 50, 5_000):
        sigma = dp.generalized_gaussian_sigma(k, 2.0, 0.5, 1e-7)
        std = math.sqrt(dp.generalized_gaussian_variance(2.0, sigma))
        assert std == pytest.approx(dp.gaussian_sigma(math.sqrt(k), 0.5, 1e-7), rel=2e-4)


def test_calibration_at_p_1_k_1_is_nearly_pure_laplace():
    """One count, Laplace: δ(ε) = 0 from b = 1/ε, and 1 − e^{(ε − 1/b)/2} ≈ δ just below it."""
    b = dp.generalized_gaussian_sigma(1, 1.0, 1.0, 1e-6)
    assert b == pytest.approx(1 / (1 + 2e-6), rel=1e-6)


def test_calibration_reproduces_check_values_at_p_ln_ln_k():
    """(ε, δ) = (1, 10⁻⁶), p = ln ln k (Ganesh & Zhao 2020): GG σ ≈ 51.5 (k = 100) and ≈ 185.9 (k = 1,000);
    Gaussian std ≈ 42.2, 133.6, 422.5; E‖noise‖∞ ≈ 468 (GG) and ≈ 461 (Gaussian) at k = 1,000, and
    ≈ 1700 for the Gaussian at k = 10,000. Within 1%."""
    for k, gg_sigma, g_std in ((100, 51.5, 42.2), (1_000, 185.9, 133.6)):
        p = math.log(math.log(k))
        assert dp.generalized_gaussian_sigma(k, p, 1.0, 1e-6) == pytest.approx(gg_sigma, rel=0.01)
        assert dp.gaussian_sigma(math.sqrt(k), 1.0, 1e-6) == pytest.approx(g_std, rel=0.01)
    s = dp.generalized_gaussian_sigma(1_000, math.log(math.log(1_000)), 1.0, 1e-6)
    assert dp.expected_linf_noise(1_000, math.log(math.log(1_000)), s) == pytest.approx(468, rel=0.01)
    assert dp.expected_linf_noise(1_000, 2.0, math.sqrt(2) * 133.6) == pytest.approx(461, rel=0.01)
    g_std = dp.gaussian_sigma(100.0, 1.0, 1e-6)
    assert g_std == pytest.approx(422.5, rel=0.01)
    assert dp.expected_linf_noise(10_000, 2.0, math.sqrt(2) * g_std) == pytest.approx(1700, rel=0.01)


def test_sigma_670_at_k_10000_belongs_to_p_2_5_not_to_p_ln_ln_k():
    """σ ≈ 670.4 at k = 10,000, (1, 10⁻⁶) is the calibrated σ for p = 2.5. For p = ln ln k (2.220)
    it is not the smallest σ: there δ(1) is far below 10⁻⁶ (the accountant is checked against
    dp-accounting in test_accountant.py), and the calibrated σ is smaller. The chapter prints
    the accountant's numbers."""
    k, p = 10_000, math.log(math.log(10_000))
    sigma = dp.generalized_gaussian_sigma(k, p, 1.0, 1e-6)
    assert sigma < 0.97 * 670.4
    assert dp.privacy_loss_distribution(dp.GeneralizedGaussianNoise(p, 670.4), k).delta(1.0) < 3e-7
    assert dp.generalized_gaussian_sigma(k, 2.5, 1.0, 1e-6) == pytest.approx(670.4, rel=0.002)


# -- errors ----------------------------------------------------------------------------------------

def test_expected_linf_at_p_1_is_the_harmonic_number():
    for k in (1, 10, 10_000):
        assert dp.expected_linf_noise(k, 1.0, 2.0) == pytest.approx(dp.expected_linf_error(k, 2.0, 1.0), rel=1e-8)


@pytest.mark.parametrize("p", [1.5, 2.0, 4.0])
def test_expected_errors_match_simulation(p):
    """2,000 simulated releases of k = 1,000: the means are within 4 standard errors of the formulas
    (false-positive rate about 6e-5 per comparison; fixed seed)."""
    sim = dp.simulate_noise_errors(1_000, p, 3.0, runs=2_000, rng=np.random.default_rng(int(10 * p)))
    for values, expected in ((sim.linf, dp.expected_linf_noise(1_000, p, 3.0)),
                             (sim.l1, dp.expected_l1_noise(1_000, p, 3.0))):
        assert abs(values.mean() - expected) < 4 * values.std() / math.sqrt(values.size)


def test_linf_tail_bound_is_theorem_3_8_at_p_1_and_holds():
    assert dp.linf_tail_bound(10_000, 0.05, 1.0, 1.0) == pytest.approx(dp.laplace_accuracy_bound(10_000, 0.05, 1, 1))
    sim = dp.simulate_noise_errors(500, 3.0, 1.0, runs=2_000, rng=np.random.default_rng(9))
    # the union bound promises ≤ 5% beyond it; 2,000 runs: beyond 8% would be 6 standard errors
    assert (sim.linf >= dp.linf_tail_bound(500, 0.05, 3.0, 1.0)).mean() < 0.08
    with pytest.raises(ValueError, match="k/beta must be"):
        dp.linf_tail_bound(1, 0.5, 2.0, 1.0)


def test_counting_query_errors_compare_the_three_mechanisms():
    errors = dp.counting_query_errors(1_000, 1.0, 1e-6, 4.0)
    assert set(errors) == {"laplace", "gaussian", "generalized"}
    assert errors["laplace"].sigma == pytest.approx(1_000.0)
    assert errors["gaussian"].std == pytest.approx(dp.gaussian_sigma(math.sqrt(1_000), 1.0, 1e-6), rel=1e-12)
    assert errors["generalized"].expected_linf < errors["gaussian"].expected_linf < errors["laplace"].expected_linf
    assert errors["generalized"].expected_l1 > errors["gaussian"].expected_l1


def test_bound_shapes():
    assert dp.linf_lower_bound_shape(100, 1.0, math.exp(-4)) == pytest.approx(20.0)
    shapes = dp.ganesh_zhao_shapes(np.array([2.0, 10.0, 100.0]), 1.0, 1e-6)
    assert np.isnan(shapes["log log k"][0]) and np.isnan(shapes["log log log k"][1])
    assert np.all(shapes["log log log k"][2] < shapes["log log k"][2])


# -- the shipped calibration table --------------------------------------------------------------------

@pytest.mark.slow   # calibrates σ afresh for every row of the table: the slow tier
def test_table_matches_direct_calibration():
    """40 random (k, p, ε, δ) in the table's range: within 2% everywhere (the worst cases are Laplace
    at small k, whose privacy curve has kinks) and 0.3% on average."""
    table = dp.calibration_table()
    gen = np.random.default_rng(17)
    errors = []
    for _ in range(40):
        k = int(gen.choice(gg.TABLE_K[:7]))
        p = float(gen.choice(gg.TABLE_P))
        eps = float(np.exp(gen.uniform(math.log(0.1), math.log(10))))
        delta = float(10 ** gen.uniform(-10, -2))
        direct = dp.generalized_gaussian_sigma(k, p, eps, delta, resolution=50)
        errors.append(abs(table.sigma(k, p, eps, delta) / direct - 1))
    assert max(errors) < 0.02 and np.mean(errors) < 0.003


def test_table_block_is_what_the_accountant_computes_now():
    """One block rebuilt from scratch equals the stored one (to the file's 7 digits): the table was
    made by this code, and a change to the accountant that moves it is caught here."""
    sigmas, eps = gg.calibration_table_rows(20, 2.5)
    stored_sigmas, stored_eps = dp.calibration_table().blocks[(2.5, 20)]
    assert np.allclose(sigmas, stored_sigmas, rtol=1e-8)
    assert np.allclose(eps, stored_eps, rtol=1e-5)


def test_the_table_s_finite_differences_are_numpy_s_bit_for_bit():
    """The curves' slopes skip np.gradient's argument handling, not its arithmetic: the same bits on uneven
    and even spacings, short and long, and the table's own curves."""
    gen = np.random.default_rng(5)
    cases = [(gen.normal(size=n), np.cumsum(gen.uniform(0.1, 2.0, size=n))) for n in (2, 3, 7, 40)]
    cases += [(gen.normal(size=9), np.arange(9) * 0.25), (np.exp(np.linspace(0, 3, 12)), np.linspace(-1, 2, 12))]
    cases += [dp.calibration_table()._curve(p, 100, 1e-6)[1::-1] for p in gg.TABLE_P]
    for ys, xs in cases:
        assert np.array_equal(gg._gradient(ys, xs), np.gradient(ys, xs, edge_order=1))


def test_table_refuses_what_it_does_not_hold():
    table = dp.calibration_table()
    with pytest.raises(ValueError, match="on the table's grid"):
        table.sigma(11, 2.0, 1.0, 1e-6)
    with pytest.raises(ValueError, match="epsilon must be"):
        table.sigma(10, 2.0, 20.0, 1e-6)
    with pytest.raises(ValueError, match="delta must be"):
        table.sigma(10, 2.0, 1.0, 0.5)


# -- sparse vector ----------------------------------------------------------------------------------

def test_sparse_vector_refinement_spends_the_budget_and_reanswers_only_flagged():
    d = np.random.default_rng(1).integers(0, 100, 2_000).astype(float)
    r = dp.sparse_vector_refinement(d, 3.0, 1.0, 1e-6, c=4, split=(0.7, 0.2, 0.1), rng=np.random.default_rng(2))
    assert sum(r.epsilons) == pytest.approx(1.0) and r.delta == 1e-6
    assert len(r.flagged) <= 4
    changed = np.flatnonzero(r.final_release != r.first_release)
    assert set(changed) <= set(r.flagged)
    assert r.sigma == pytest.approx(dp.generalized_gaussian_sigma(2_000, 3.0, 0.7, 5e-7))
    assert r.reanswer_std == pytest.approx(dp.gaussian_sigma(2.0, 0.1, 5e-7))
    assert r.error_before == pytest.approx(np.abs(r.first_release - d).max())
    with pytest.raises(ValueError, match="split must be"):
        dp.sparse_vector_refinement(d, 3.0, 1.0, 1e-6, split=(0.5, 0.2, 0.2))


# -- bad input ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("call, error, match", [
    (lambda: dp.generalized_gaussian_sigma(10, 0.5, 1.0, 1e-6), ValueError, "p must be .*log-concave"),
    (lambda: dp.generalized_gaussian_sigma(0, 2.0, 1.0, 1e-6), ValueError, r"k must be an integer in \[1, "),
    (lambda: dp.generalized_gaussian_sigma(10, 2.0, 1.0, 0.0), ValueError, "delta must be"),
    (lambda: dp.generalized_gaussian_sigma(10, 2.0, 1.0, 1.0), ValueError, "delta must be"),
    (lambda: dp.generalized_gaussian_sigma(10, 2.0, 0.0, 1e-6), ValueError, "epsilon must be"),
    (lambda: dp.generalized_gaussian_sigma(10.5, 2.0, 1.0, 1e-6), TypeError, "k must be an integer"),
    (lambda: dp.generalized_gaussian_mechanism([1.0], 2.0, 0.0), ValueError, "sigma must be .*σ ≤ 0"),
    (lambda: dp.generalized_gaussian_mechanism([1.0], 2.0, -1.0), ValueError, "sigma must be"),
    (lambda: dp.generalized_gaussian_mechanism([1.0], 0.9, 1.0), ValueError, "p must be"),
    (lambda: dp.generalized_gaussian_sample(2.0, 1.0, 5, rng=1), TypeError, "rng must be"),
    (lambda: dp.generalized_gaussian_pdf([0.0], "2", 1.0), TypeError, "p must be a real number"),
    (lambda: dp.expected_linf_noise(0, 2.0, 1.0), ValueError, "k must be"),
    (lambda: dp.generalized_gaussian_variance(2.0, float("nan")), ValueError, "sigma must be"),
])
def test_bad_input_is_refused_clearly(call, error, match):
    with pytest.raises(error, match=match):
        call()


# -- the exercises' checkers ---------------------------------------------------------------------------

def test_checkers_say_right_wrong_and_not_yet():
    checks = [(dp.exercises.check_gaussian_sigma_for_counts, 10 * dp.gaussian_sigma(1.0, 1.0, 1e-5)),
              (dp.exercises.check_laplace_delta, 1 - math.exp(-0.125)),
              (dp.exercises.check_generalized_gaussian_variance, 4 * math.gamma(0.75) / math.gamma(0.25))]
    for checker, right in checks:
        assert checker(right).correct is True
        assert checker(right * 1.1).correct is False
        assert checker(...).correct is None
        assert checker("a string").correct is False


# -- the numbers of chapter 08's trade-off figure ---------------------------------------------------

def test_shipped_linf_values_are_the_quadrature():
    """gg_linf.csv holds expected_linf_noise(k, p, 1) for every (p, k) of the grid, to the last bit."""
    table = gg.unit_linf_table()
    for p in gg.TABLE_P:
        for k in gg.TABLE_K:
            assert table[(p, k)] == dp.expected_linf_noise(k, p, 1.0)


def test_ganesh_zhao_growth_is_the_ratio_of_their_shapes_to_the_lower_bound():
    """In units of √(k ln(1/δ))/ε the bounds' shapes are √(ln ln k) and √(ln ln ln k), whatever ε, δ."""
    ks = np.array([20.0, 100.0, 1e3, 1e4])
    growth = dp.ganesh_zhao_growth(ks, anchor_k=100.0)
    for eps, delta in ((0.3, 1e-8), (2.0, 1e-3)):
        shapes, base = dp.ganesh_zhao_shapes(ks, eps, delta), dp.linf_lower_bound_shape(ks, eps, delta)
        at = dp.ganesh_zhao_shapes(100.0, eps, delta)
        base_at = dp.linf_lower_bound_shape(100.0, eps, delta)
        for name in ("log log k", "log log log k"):
            assert growth[name] == pytest.approx(shapes[name] / base / (at[name] / base_at), rel=1e-12)
    assert np.isnan(dp.ganesh_zhao_growth([10.0])["log log log k"][0])     # ln ln ln 10 < 0
    with pytest.raises(ValueError, match="anchor_k"):
        dp.ganesh_zhao_growth(ks, anchor_k=10.0)


def test_error_tradeoff_is_the_formulas_and_the_table():
    """Each number of error_tradeoff recomputed from its definition: Laplace (k/ε)·H_k, the analytic
    Gaussian with Δ₂ = √k, the table's σ times E‖X‖∞ at σ = 1, E|X| = σΓ(2/p)/Γ(1/p)."""
    p, k, eps, delta = 3.0, 1_000, 0.7, 1e-7
    r = dp.error_tradeoff(p, k, eps, delta)
    table = dp.calibration_table()
    i = gg.TABLE_K.index(k)
    std = dp.gaussian_sigma(math.sqrt(k), eps, delta)
    assert r.laplace[i] == pytest.approx(dp.expected_linf_error(k, k, eps), rel=1e-12)
    assert r.gaussian[i] == pytest.approx(dp.expected_linf_noise(k, 2.0, math.sqrt(2) * std), rel=1e-9)
    assert r.generalized[i] == pytest.approx(
        dp.expected_linf_noise(k, p, table.sigma(k, p, eps, delta)), rel=1e-9)
    assert r.lower_bound_shape[i] == pytest.approx(math.sqrt(k * math.log(1 / delta)) / eps)
    j = gg.TABLE_P.index(2.0)
    assert r.linf_ratio[j] == pytest.approx(1.0, abs=5e-3) and r.l1_ratio[j] == pytest.approx(1.0, abs=5e-3)
    q = gg.TABLE_P.index(p)
    assert r.l1_ratio[q] == pytest.approx(
        r.sigmas[q] * dp.generalized_gaussian_moment(1, p, 1.0) / (std * math.sqrt(2 / math.pi)), rel=1e-12)
    anchor = r.gaussian[gg.TABLE_K.index(100)] / r.lower_bound_shape[gg.TABLE_K.index(100)]
    assert np.interp(100.0, r.growth_k, r.growth["log log k"]) == pytest.approx(anchor, rel=1e-3)
    assert r.best_p == gg.TABLE_P[int(np.argmin(r.linf_ratio))]
    with pytest.raises(ValueError, match="p must be one of"):
        dp.error_tradeoff(2.1, k, eps, delta)


def test_table_lookups_kept_between_calls_give_the_same_sigma():
    """The table keeps each (p, k, δ) curve; a second look-up returns the first one's value."""
    table = dp.calibration_table()
    first = [table.sigma(200, 1.5, e, 3e-7) for e in (0.15, 1.0, 7.0)]
    table._curves.clear()
    assert [table.sigma(200, 1.5, e, 3e-7) for e in (0.15, 1.0, 7.0)] == first


def test_the_generalized_gaussian_modules_import_without_a_cycle():
    """Each module of the family (dpteach/generalized_gaussian/) has one concern and imports only
    modules of the family below it (no cycle, no import inside a function), so any of them can be
    imported first."""
    import ast
    import pathlib

    folder = pathlib.Path(dp.generalized_gaussian.__file__).parent
    names = sorted(path.stem for path in folder.glob("*.py") if path.stem != "__init__")
    assert {"distribution", "accountant", "mechanism", "table", "errors", "sparse"} <= set(names)
    graph = {}
    for name in names:
        text = (folder / f"{name}.py").read_text(encoding="utf-8")
        tree = ast.parse(text)
        top = {node.module for node in tree.body if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module}
        graph[name] = {m for m in top if m in names}
        nested = [node for fn in ast.walk(tree) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
                  for node in ast.walk(fn) if isinstance(node, (ast.Import, ast.ImportFrom))]
        assert not nested, f"{name}.py imports inside a function"
        assert len(text.splitlines()) <= 400, name
    done: list[str] = []
    while graph:
        ready = [n for n, deps in graph.items() if deps <= set(done)]
        assert ready, f"an import cycle among {sorted(graph)}"
        for n in ready:
            done.append(n)
            del graph[n]
