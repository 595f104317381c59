"""Chapter 12's exercise checkers (check_weekly_scale, check_weekly_rho), the answers a learner gave: each named, at
the chapter's numbers and at homework numbers, with no number the checker would take for the answer. (OpenDP's side
of these exercises is tests/test_chapter12.py's.)"""

from __future__ import annotations

import math

import pytest

import dpteach as dp
from dpteach.course.leaks import gives_away
from dpteach.exercises import EXERCISES, MISTAKES

SCALE, RHO = EXERCISES["check_weekly_scale"], EXERCISES["check_weekly_rho"]


def _no_answer_in(verdict, spec, **params) -> None:
    assert not gives_away(verdict.message, spec.expected(**params), spec.figures), verdict.message


@pytest.mark.parametrize("params", [{}, {"weeks": 26, "cap": 2, "total": 1.5}, {"weeks": 48, "cap": 5, "total": 4.0}],
                         ids=str)
def test_the_scale_divided_by_the_contribution_bound_is_named(params):
    values = {**SCALE.defaults, **params}
    wrong = values["weeks"] / (values["total"] * values["cap"])          # 1/(εc) for c/ε
    verdict = dp.exercises.check_weekly_scale(float(f"{wrong:.3g}"), **params)
    assert verdict.correct is False and "divides by the contribution bound" in verdict.message
    _no_answer_in(verdict, SCALE, **params)


def test_a_contribution_bound_of_one_makes_dividing_no_mistake():
    """With c = 1, dividing by c is multiplying by it: the right answer, not a mistake."""
    assert dp.exercises.check_weekly_scale(SCALE.expected(cap=1), cap=1).correct is True


RHO_PARAMS = [{}, {"weeks": 26, "cap": 1, "scale": 10.0}, {"weeks": 48, "cap": 4, "scale": 40.0},
              {"weeks": 30, "cap": 3, "scale": 15.0}]


@pytest.mark.parametrize("params", RHO_PARAMS, ids=str)
def test_rho_converted_to_epsilon_is_named(params):
    """ρ converted on to an ε at a δ (the chapter's δ = 10⁻⁶ and other decades), by the conversion OpenDP uses and by
    Bun & Steinke's: the next step of a release, not the ρ asked."""
    rho = RHO.expected(**params)
    for delta in (1e-5, 1e-6, 1e-8):
        for epsilon in (dp.zcdp_to_dp(rho, delta), rho + 2 * math.sqrt(rho * math.log(1 / delta))):
            verdict = dp.exercises.check_weekly_rho(float(f"{epsilon:.3g}"), **params)
            assert verdict.correct is False and "converts ρ to an ε" in verdict.message, (delta, verdict)
            _no_answer_in(verdict, RHO, **params)


@pytest.mark.parametrize("params", RHO_PARAMS, ids=str)
def test_rho_without_the_half_is_named(params):
    rho = RHO.expected(**params)
    verdict = dp.exercises.check_weekly_rho(float(f"{2 * rho:.3g}"), **params)
    assert verdict.correct is False and "(ε²/2)-zCDP, half of that" in verdict.message
    _no_answer_in(verdict, RHO, **params)


@pytest.mark.parametrize("params", RHO_PARAMS, ids=str)
def test_rho_as_a_percentage_is_named(params):
    rho = RHO.expected(**params)
    verdict = dp.exercises.check_weekly_rho(float(f"{100 * rho:.3g}"), **params)
    assert verdict.correct is False and "a percentage? give it as a number" in verdict.message
    _no_answer_in(verdict, RHO, **params)


def test_the_new_names_are_registered():
    for name in ("Δf divided for multiplied", "ε² for ε²/2", "ρ converted to ε", "a percentage for a fraction"):
        assert name in MISTAKES
