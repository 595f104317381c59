"""Slider for chapter 06's "Choosing ε and δ": the budget planner."""

from __future__ import annotations

from .. import plots
from ..planner import PLANNER_ACCURACY, PLANNER_PEOPLE, PLANNER_RELEASES
from ._base import Interactive, _choice_slider

__all__ = ["budget_planner"]


def budget_planner(people: int = 1_000_000, releases: int = 100, accuracy: float = 10) -> Interactive:
    """Sliders n, k and α: k counts about the same n people, each within ±α at 95%: ε per release and in total,
    by basic, advanced, optimal and exact composition, and for Gaussian noise of the same accuracy (GDP)."""
    controls = {"people": _choice_slider("people", PLANNER_PEOPLE, people, "n (people)"),
                "releases": _choice_slider("releases", PLANNER_RELEASES, releases, "k (releases)"),
                "accuracy": _choice_slider("accuracy", PLANNER_ACCURACY, accuracy, "α (±error, 95%)")}
    return Interactive(plots.BudgetPlannerFigure(), controls,
                       "a budget planner: the accuracy wanted, the data's size and the releases, to ε")
