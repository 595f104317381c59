"""Chapter 11's figures, element by element: the trade-off figure's (ε, δ) region, its exact group region and the
kε outer bound beside it, the tracing attack's curves (with and without noise, one person only), and the
composition figure's optimal-composition curve. The slider sweep (tests/test_slider_sweep.py) and the blitting
tests (tests/test_render.py) find both widgets by introspection, the δ slider included."""

import numpy as np
import pytest

import dpteach as dp


@pytest.fixture(scope="module")
def figure():
    return dp.plots.TradeoffFigure(rng=np.random.default_rng(0))


def _region_edge(fig):
    verts = fig.region.get_paths()[0].vertices
    return verts[: fig.fpr.size, 1]


@pytest.mark.parametrize("epsilon, k, delta", [(1.0, 1, 0.0), (1.0, 1, 0.1), (0.5, 2, 0.0), (2.0, 3, 0.05),
                                               (0.25, 4, 0.2)])
def test_the_shaded_region_is_the_exact_group_region(figure, epsilon, k, delta):
    out = figure.update(epsilon, k, delta)
    assert np.allclose(_region_edge(figure), dp.group_tradeoff_limit(figure.fpr, epsilon, k, delta))
    assert out["limit_success"] == pytest.approx(dp.group_best_success(epsilon, k, delta))
    assert np.allclose(figure.curve.get_ydata(), dp.laplace_tradeoff(figure.fpr, epsilon, shift=k))


def test_delta_moves_the_region_and_not_the_laplace_curve(figure):
    figure.update(1.0, 1, 0.0)
    pure, curve = _region_edge(figure).copy(), np.array(figure.curve.get_ydata())
    figure.update(1.0, 1, 0.1)
    assert np.all(_region_edge(figure) <= pure + 1e-12) and np.any(_region_edge(figure) < pure - 0.05)
    assert np.array_equal(figure.curve.get_ydata(), curve)


def test_the_k_epsilon_bound_is_drawn_only_for_a_group_and_lies_outside_the_exact_region(figure):
    figure.update(1.0, 1, 0.0)
    assert np.all(figure.outer.get_ydata() < 0)                           # off the axes
    out = figure.update(0.5, 3, 0.05)
    eps_k, delta_k = dp.group_privacy(0.5, 3, 0.05)
    assert (out["outer_epsilon"], out["outer_delta"]) == pytest.approx((eps_k, delta_k))
    assert np.allclose(figure.outer.get_ydata(), dp.dp_tradeoff_limit(figure.fpr, eps_k, delta_k))
    assert np.all(figure.outer.get_ydata() <= _region_edge(figure) + 1e-12)
    assert np.any(figure.outer.get_ydata() < _region_edge(figure) - 0.02)  # not attained


def test_the_tracing_attack_is_drawn_for_one_person_with_and_without_noise(figure):
    figure.update(1.0, 1, 0.0)
    alpha, beta = figure.attack.rates(None, _thresholds(figure, None))
    assert np.allclose(figure.traced.get_xdata(), alpha) and np.allclose(figure.traced.get_ydata(), beta)
    alpha, beta = figure.attack.rates(1.0, _thresholds(figure, 1.0))
    assert np.allclose(figure.traced_noisy.get_xdata(), alpha) and np.allclose(figure.traced_noisy.get_ydata(), beta)
    figure.update(2.0, 1, 0.0)
    assert not np.allclose(figure.traced_noisy.get_ydata(), beta)          # the noise follows ε
    figure.update(1.0, 2, 0.0)
    assert len(figure.traced.get_xdata()) == 0 and len(figure.traced_noisy.get_xdata()) == 0


def _thresholds(fig, epsilon):
    out, inn = fig.attack.scores(epsilon)
    return np.r_[-np.inf, np.quantile(np.r_[out, inn], np.linspace(0, 1, 120)), np.inf]


def test_exact_counts_put_the_attack_inside_the_region_at_every_epsilon(figure):
    """The curve on exact counts enters the forbidden region of every ε on the slider (measured, but by far: at
    the largest ε = 3 the best point is beyond it by more than 0.2 in β)."""
    for epsilon in figure.epsilons:
        figure.update(epsilon, 1, 0.0)
        alpha, beta = np.asarray(figure.traced.get_xdata()), np.asarray(figure.traced.get_ydata())
        assert np.max(dp.dp_tradeoff_limit(alpha, epsilon) - beta) > 0.2


def test_bad_values_name_the_slider(figure):
    with pytest.raises(ValueError, match="delta"):
        figure.update(1.0, 1, 0.3)


def test_composition_figure_draws_the_optimal_theorem():
    fig = dp.plots.ExactCompositionFigure()
    assert np.allclose(fig.optimal, [dp.optimal_composition(k, 0.1, 1e-6)[0] for k in fig.ks])
    assert np.all(fig.exact <= fig.optimal + 1e-9) and np.all(fig.optimal <= np.minimum(fig.advanced, fig.basic))
    out = fig.update(100)
    assert out["optimal"] == pytest.approx(4.7746, abs=1e-4)
    assert "optimal 4.77" in fig.ax.title.get_text()


@pytest.mark.parametrize("epsilon, k", [(0.1, 1), (1.0, 1), (3.0, 1), (0.5, 3)])
def test_the_gaussian_curve_is_g_mu_of_the_same_variance(figure, epsilon, k):
    """Gaussian noise with the variance of Lap(1/ε) (σ = √2/ε) on a count that moves by k: G_μ, μ = kε/√2."""
    out = figure.update(epsilon, k, 0.0)
    mu = k * epsilon / np.sqrt(2)
    assert out["gaussian_mu"] == pytest.approx(mu)
    assert np.allclose(figure.gauss.get_ydata(), dp.gdp_tradeoff(figure.fpr, mu))
    assert out["gaussian_success"] == pytest.approx(dp.gdp_best_success(mu))
    assert out["gaussian_delta"] == pytest.approx(dp.gdp_delta(epsilon, mu))


def test_the_gaussian_enters_the_pure_region_and_fits_once_delta_is_its_delta(figure):
    """At δ = 0 the Gaussian curve dips below the ε-DP limit (it is ε-DP for no ε); at every δ of the slider at
    least its δ(ε), it stays on or above the (ε, δ) region's edge, and below that δ it does not."""
    for epsilon in figure.epsilons:
        need = figure.update(epsilon, 1, 0.0)["gaussian_delta"]
        assert np.any(figure.gauss.get_ydata() < _region_edge(figure) - 1e-6)
        for delta in figure.deltas:
            figure.update(epsilon, 1, delta)
            fits = bool(np.all(figure.gauss.get_ydata() >= _region_edge(figure) - 1e-12))
            assert fits == (delta >= need), (epsilon, delta, need)


@pytest.fixture(scope="module")
def composition():
    return dp.plots.GaussianCompositionFigure()


@pytest.mark.parametrize("k", [1, 10, 100, 1000])
def test_the_gdp_composition_figure_draws_mu_root_k_and_the_totals(composition, k):
    out = composition.update(k)
    sigma = np.sqrt(2) / 0.1
    totals = dp.gaussian_composition(k, sigma, 1e-6)
    assert out["mu_total"] == pytest.approx(np.sqrt(k) / sigma)
    for name in ("basic", "advanced", "optimal", "pairs", "zcdp", "exact"):
        assert out[name] == pytest.approx(getattr(totals, name)), name
    curve = np.asarray(composition.curve.get_ydata())
    assert np.allclose(curve, dp.gdp_tradeoff(composition.fpr, out["mu_total"]))
    verts = composition.region.get_paths()[0].vertices
    assert np.allclose(verts[: composition.fpr.size, 1], curve)
    exact_edge = np.asarray(composition.edge_exact.get_ydata())
    pairs_edge = np.asarray(composition.edge_pairs.get_ydata())
    assert np.allclose(exact_edge, dp.dp_tradeoff_limit(composition.fpr, out["exact"], 1e-6))
    # every (ε, δ) the releases have is a region the curve stays out of: the edges lie on or below it, the GDP
    # one touching it (within the grid's spacing), chapter 06's best one inside that
    assert np.allclose(pairs_edge, dp.dp_tradeoff_limit(composition.fpr, out["pairs"], 1e-6))
    assert np.all(exact_edge <= curve + 1e-12) and np.all(pairs_edge <= exact_edge + 1e-12)
    assert np.min(curve - exact_edge) < 5e-3
    assert list(composition.dots.get_ydata()) == pytest.approx([out["pairs"], out["zcdp"], out["exact"]])


def test_the_gdp_composition_figure_refuses_a_k_off_the_slider(composition):
    with pytest.raises(ValueError, match="k must be one of"):
        composition.update(3)
