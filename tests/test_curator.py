"""The curator: answers with the Laplace mechanism, charges the budget, refuses when it is spent,
and never hands out the rows.

Statistical tests use fixed seeds; each states its false-positive rate (the chance that a
correct curator fails it for a seed drawn at random).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import dpteach as dp
from dpteach.composition import BudgetExceeded

AGES = np.array([5, 17, 18, 34, 64, 65, 80, 99])
TABLE = {"age": AGES, "district": np.array(["north", "south", "north", "east", "east", "north", "west", "south"]),
         "income": np.array([0.0, 0.0, 12.5, 80.0, 310.0, 45.0, 20.0, 15.0]),
         "smoker": np.array([False, False, True, False, True, False, False, True])}


def curator(budget=1e12, seed=0) -> dp.Curator:
    return dp.Curator(TABLE, budget=budget, rng=np.random.default_rng(seed))


# -- answers are the Laplace mechanism on the right true answer ------------------------------

def _releases(ask, runs=4000):
    return np.array([ask() for _ in range(runs)])


def test_count_is_the_true_count_plus_lap_1_over_epsilon():
    """Mean within 4 standard errors of the true count, mean |error| within 4 SE of 1/ε (each ≈ 6e-5 false alarms)."""
    c = curator()
    answers = _releases(lambda: c.count(epsilon=0.5, where={"age": (65, None)}))
    true, b = 3, 2.0
    assert abs(answers.mean() - true) < 4 * math.sqrt(2 * b**2 / answers.size)
    assert abs(np.abs(answers - true).mean() - b) < 4 * b / math.sqrt(answers.size)


def test_clipped_sum_clips_and_calibrates_to_the_clip_bound():
    """Δf = max(|L|, |U|): here 100, so the noise is Lap(100/ε); the 310 is clipped to 100."""
    c = curator()
    answers = _releases(lambda: c.clipped_sum("income", 0, 100, epsilon=1.0))
    true = np.clip(TABLE["income"], 0, 100).sum()
    assert c.log[-1].sensitivity == 100
    assert abs(answers.mean() - true) < 4 * math.sqrt(2 * 100**2 / answers.size)
    assert abs(np.abs(answers - true).mean() - 100) < 4 * 100 / math.sqrt(answers.size)
    c.clipped_sum("age", -50, 20, epsilon=1.0)
    assert c.log[-1].sensitivity == 50


def test_where_clauses_select_the_right_people():
    """With a huge ε the noise is negligible (scale 1e-9), so the answers show the true values."""
    c = curator()
    eps = 1e9
    assert round(c.count(eps)) == 8
    assert round(c.count(eps, where={"district": "north"})) == 3
    assert round(c.count(eps, where={"district": ["north", "west"]})) == 4
    assert round(c.count(eps, where={"age": (18, 64)})) == 3
    assert round(c.count(eps, where={"age": (None, 17)})) == 2
    assert round(c.count(eps, where={"smoker": True, "age": (60, None)})) == 2
    assert c.clipped_sum("income", 0, 1000, eps, where={"district": "east"}) == pytest.approx(390, abs=1e-6)
    cells = c.histogram("district", eps, categories=["north", "south", "east", "west", "centre"])
    assert np.round(cells).tolist() == [3, 2, 2, 1, 0]
    bins = c.histogram("age", eps, bins=[0, 18, 65, 100], where={"smoker": False})
    assert np.round(bins).tolist() == [2, 1, 2]


def test_histogram_is_charged_once_as_a_parallel_charge():
    """Example 3.2 is parallel composition: five cells at ε cost ε, not 5ε."""
    c = curator(budget=1.0)
    c.histogram("district", 0.4, categories=["north", "south", "east", "west", "centre"])
    charge = c.budget.charges[-1]
    assert charge.epsilon == 0.4 and len(charge.parts) == 5
    assert c.budget.spent_epsilon == pytest.approx(0.4)


# -- the budget -------------------------------------------------------------------------------

def test_the_curator_refuses_after_exhaustion_and_logs_it():
    c = curator(budget=1.0)
    for _ in range(4):
        c.count(0.25)
    assert c.budget.exhausted
    for ask in (lambda: c.count(0.01), lambda: c.clipped_sum("income", 0, 10, 0.5),
                lambda: c.histogram("district", 0.1, categories=["north"])):
        with pytest.raises(BudgetExceeded, match="nothing was charged"):
            ask()
    assert [a.answered for a in c.log] == [True] * 4 + [False] * 3
    assert all(a.answer is None and "refused" in a.refused for a in c.log[4:])
    assert c.budget.spent_epsilon == pytest.approx(1.0) and len(c.budget.charges) == 4


def test_a_refused_query_does_not_read_the_data_or_draw_noise():
    """The refusal happens before the mechanism runs: the curator's generator has not moved."""
    c = curator(budget=0.5, seed=3)
    c.count(0.5)
    state = c._rng.bit_generator.state
    with pytest.raises(BudgetExceeded):
        c.count(0.1)
    assert c._rng.bit_generator.state == state


def test_a_malformed_query_costs_nothing():
    c = curator(budget=1.0)
    bad = [
        (lambda: c.count(0.5, where={"height": 3}), ValueError, "column must be one of"),
        (lambda: c.count(0.5, where=lambda row: True), TypeError, "runs no analyst code"),
        (lambda: c.count(0.5, where={"age": (1, 2, 3)}), ValueError, "pair"),
        (lambda: c.count(0.5, where={"district": ("a", "b")}), TypeError, "holds text"),
        (lambda: c.count(0.5, where={"age": (NAN, 3)}), ValueError, "low bound on 'age'"),
        (lambda: c.count(0.5, where={"age": {"x": 1}}), TypeError, "condition on 'age'"),
        (lambda: c.count(0), ValueError, "epsilon"),
        (lambda: c.count(-0.1), ValueError, "epsilon"),
        (lambda: c.count(INF), ValueError, "epsilon"),
        (lambda: c.count("0.1"), TypeError, "epsilon"),
        (lambda: c.clipped_sum("district", 0, 1, 0.5), TypeError, "holds text, not numbers"),
        (lambda: c.clipped_sum("income", 10, 10, 0.5), ValueError, "low must be < high"),
        (lambda: c.clipped_sum("income", 0, INF, 0.5), ValueError, "high"),
        (lambda: c.clipped_sum("income", 0, 1e300, 1e-300), ValueError, "overflows"),
        (lambda: c.histogram("district", 0.5), ValueError, "exactly one of"),
        (lambda: c.histogram("district", 0.5, categories="north"), TypeError, "categories"),
        (lambda: c.histogram("district", 0.5, categories=[]), TypeError, "categories"),
        (lambda: c.histogram("age", 0.5, bins=[3, 1]), ValueError, "strictly increasing"),
        (lambda: c.histogram("district", 0.5, bins=[0, 1]), TypeError, "not numbers"),
        (lambda: c.count(0.5, label=7), TypeError, "label"),
    ]
    for ask, error, match in bad:
        with pytest.raises(error, match=match):
            ask()
    assert c.budget.charges == () and c.log == ()


@pytest.mark.parametrize("data, error, match", [
    ({}, TypeError, "non-empty mapping"),
    ([1, 2, 3], TypeError, "mapping"),
    ({"age": [1, 2], "income": [3.0]}, ValueError, "same length"),
    ({"age": [[1, 2]]}, ValueError, "1-d"),
    ({"income": [1.0, float("nan")]}, ValueError, "NaN"),
    ({3: [1, 2]}, TypeError, "column names"),
    ({"when": np.array(["2020-01-01"], dtype="datetime64[D]")}, TypeError, "numbers, true/false or text"),
])
def test_a_bad_table_is_refused(data, error, match):
    with pytest.raises(error, match=match):
        dp.Curator(data, budget=1.0)


def test_a_budget_object_is_shared_and_a_number_makes_one():
    budget = dp.PrivacyBudget(2.0)
    c = dp.Curator(TABLE, budget=budget, rng=np.random.default_rng(0))
    c.count(0.5)
    assert budget.spent_epsilon == 0.5 and c.budget is budget
    assert curator(budget=3).budget.total_epsilon == 3
    with pytest.raises(ValueError, match="epsilon"):
        curator(budget=0)


# -- the rows stay inside ---------------------------------------------------------------------

def test_the_api_never_hands_out_the_rows():
    """No public attribute, property or display of the curator holds the table or its size."""
    c = curator(budget=1.0)
    c.count(0.5, where={"age": (65, None)})
    with pytest.raises(BudgetExceeded):
        c.count(0.6)
    public = {name: getattr(c, name) for name in dir(c) if not name.startswith("_")}
    assert set(public) == {"budget", "count", "clipped_sum", "histogram", "log", "schema"}
    assert c.schema == {"age": "integer", "district": "text", "income": "number", "smoker": "true/false"}
    shown = repr(c) + c._repr_html_() + repr(c.budget) + repr(c.log)
    for value in ("310", "north", "west", "smoker=", "income="):
        assert value not in shown


def test_the_table_is_a_private_copy():
    ages = AGES.copy()
    c = dp.Curator({"age": ages}, budget=1e9, rng=np.random.default_rng(0))
    ages[:] = 0                                   # the analyst's array changes; the curator's does not
    assert round(c.count(1e9, where={"age": (60, None)})) == 4
    with pytest.raises(ValueError, match="read-only"):
        c._columns["age"][0] = 1


# -- the example town -------------------------------------------------------------------------

def test_synthetic_town_is_seeded_and_plausible():
    a = dp.synthetic_town(3000, rng=np.random.default_rng(5))
    b = dp.synthetic_town(3000, rng=np.random.default_rng(5))
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert set(a) == {"first_name", "age", "district", "income"}
    assert ((a["age"] >= 0) & (a["age"] <= 99)).all()
    assert (a["income"][a["age"] < 18] == 0).all() and (a["income"] >= 0).all()
    assert set(a["district"]) <= {"north", "south", "east", "west", "centre"}
    names = dp.census_first_names()
    assert set(a["first_name"]) <= set(names.names[: names.n_listed])
    with pytest.raises(ValueError, match="n must be"):
        dp.synthetic_town(0)
    with pytest.raises(TypeError, match="rng"):
        dp.synthetic_town(10, rng=3)


NAN, INF = float("nan"), float("inf")


def test_first_name_counts_is_the_town_histogram_over_the_census_names():
    town = dp.synthetic_town(1000, rng=np.random.default_rng(9))
    counts = dp.first_name_counts(town["first_name"])
    names = dp.census_first_names()
    assert counts.shape == (names.k,) and counts.sum() == 1000
    for i in np.flatnonzero(counts)[:20]:
        assert counts[i] == (town["first_name"] == names.names[i]).sum()
    with pytest.raises(ValueError, match="census_first_names"):
        dp.first_name_counts(["MARY", "XYZZY"])
    with pytest.raises(TypeError, match="first_names"):
        dp.first_name_counts([1, 2])


def test_histogram_over_many_categories_counts_each_once():
    """The curator's categorical histogram agrees with first_name_counts over the 10,000 census names."""
    town = dp.synthetic_town(500, rng=np.random.default_rng(3))
    names = dp.census_first_names()
    c = dp.Curator(town, budget=1e12, rng=np.random.default_rng(0))
    cells = c.histogram("first_name", 1e9, categories=list(names.names))
    assert np.array_equal(np.round(cells), dp.first_name_counts(town["first_name"]))
