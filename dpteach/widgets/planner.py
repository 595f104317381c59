"""Controls for chapter 06's "Choosing ε and δ": the budget planner.

k is typed (any number of releases from 1 to 10,000: the k slider's readout is a box that takes a typed number,
ipywidgets ≥ 8) or picked on the slider of round values under it, which only moves the k slider. A k off the
round values computes its exact totals once (tens of milliseconds), then comes from a cache.
"""

from __future__ import annotations

from .. import plots
from ..planner import PLANNER_ACCURACY, PLANNER_PEOPLE, PLANNER_RELEASES
from ..plots.planner import PLANNER_CAPS
from ._base import Interactive, _choice_slider, _int_slider, _toggle

__all__ = ["budget_planner"]

_MAX_RELEASES = PLANNER_RELEASES[-1]


def budget_planner(people: int = 1_000_000, releases: int = 100, accuracy: float = 10, cap: float = 1,
                   all_at_once: bool = False, k_steps: int = 100) -> Interactive:
    """Controls n, k (typed, or a round value from its slider), α, the contribution cap Δf and "each count" or
    "all at once": k counts about the same n people, each within ±α at 95% (or all together): ε per release and
    in total, by basic, advanced, optimal and exact composition, and for Gaussian noise of the same accuracy
    (GDP), with the best guess of one person's presence against these releases beside the worst case.
    ``k_steps`` is where the slider of round values starts (one of :data:`~dpteach.planner.PLANNER_RELEASES`);
    moving it sets k."""
    box = _int_slider("releases", releases, 1, _MAX_RELEASES, "k (type or drag)")
    steps = _choice_slider("k_steps", PLANNER_RELEASES, k_steps, "k (round values)")

    def fill(change) -> None:        # registered before the Interactive's own observer: one redraw
        box.value = change["new"]

    steps.observe(fill, names="value")
    controls = {"people": _choice_slider("people", PLANNER_PEOPLE, people, "n (people)"),
                "releases": box, "k_steps": steps,
                "accuracy": _choice_slider("accuracy", PLANNER_ACCURACY, accuracy, "α (±error, 95%)"),
                "cap": _choice_slider("cap", PLANNER_CAPS, cap, "Δf (cap per person)"),
                "all_at_once": _toggle("all_at_once", all_at_once, "95% for all k counts at once")}
    figure = plots.BudgetPlannerFigure()

    def update(people, releases, accuracy, cap, all_at_once, k_steps) -> dict:
        return figure.update(people, releases, accuracy, cap, all_at_once)

    return Interactive(figure, controls,
                       "a budget planner: the accuracy wanted, the data's size, the cap and the releases, to ε",
                       update=update)
