"""Controls for chapter 06's "Choosing ε and δ": the budget planner.

k is typed (any number of releases from 1 to 10,000: the k slider's readout is a box that takes a typed number,
ipywidgets ≥ 8) or picked on the slider of round values under it, which only moves the k slider. Every value the
other controls take, with k on the round values, is in the shipped table (:func:`dpteach.planner.exact_known`),
so a frame costs a few milliseconds. A typed k off the round values needs its exact total and exact best guess
computed (tens to hundreds of milliseconds): while a control moves in a live kernel the frame comes at once with
the cheap totals and "computing…" in place of the exact ones, which are computed and drawn once the controls
have rested for :data:`~dpteach.widgets._a11y.DETAILS_SECONDS` (then kept: the next visit is at once).
"""

from __future__ import annotations

from .. import plots
from ..planner import PLANNER_ACCURACY, PLANNER_CAPS, PLANNER_PEOPLE, PLANNER_RELEASES
from ._a11y import DETAILS_SECONDS
from ._base import Interactive, _choice_slider, _int_slider, _kernel_loop, _toggle

__all__ = ["budget_planner"]

_MAX_RELEASES = PLANNER_RELEASES[-1]


class PlannerInteractive(Interactive):
    """The planner's :class:`~dpteach.widgets.Interactive`: a frame whose exact numbers are not at hand waits for
    them only when nobody is moving the controls.

    A change of a control in a kernel (the browser's, or an assignment to a control's ``value`` in a running
    kernel) draws with ``defer=True`` (:meth:`dpteach.plots.BudgetPlannerFigure.update`) and, if the frame says
    "computing…", schedules on the kernel's event loop a draw without it :data:`DETAILS_SECONDS` later; a newer
    change cancels it and schedules its own. :meth:`set`, :meth:`reset`, :meth:`redraw` and any change outside
    a kernel (a script, a test) compute everything at once, so what they return is complete.
    """

    def __init__(self, figure: plots.BudgetPlannerFigure, controls: dict, caption: str) -> None:
        self._live = False          # inside _on_change: a control moved
        self._defer = False         # the draw under way may leave the exact numbers pending
        self._settle = None         # (loop, handle) of the scheduled complete draw
        super().__init__(figure, controls, caption, update=self._draw)

    def _draw(self, people, releases, accuracy, cap, all_at_once, k_steps) -> dict:
        return self.figure.update(people, releases, accuracy, cap, all_at_once, defer=self._defer)

    def _on_change(self, change) -> None:
        self._live = True
        try:
            super()._on_change(change)
        finally:
            self._live = False

    def _redraw(self, rest) -> dict:
        loop = rest if rest is not None else (_kernel_loop() if self._live else None)
        if self._settle is not None:
            self._settle[0].remove_timeout(self._settle[1])
            self._settle = None
        self._defer = loop is not None
        try:
            result = super()._redraw(rest)
        finally:
            self._defer = False
        if loop is not None and self._drawn is not None and result.get("pending"):
            self._settle = (loop, loop.call_later(DETAILS_SECONDS, self._complete))
        return result

    def _complete(self) -> None:
        """The controls have rested: draw again with the exact numbers (computed now, then kept)."""
        self._settle = None
        if self.result.get("pending"):
            self._redraw(rest=None)


def budget_planner(people: int = 1_000_000, releases: int = 100, accuracy: float = 10, cap: float = 1,
                   all_at_once: bool = False, k_steps: int = 100) -> Interactive:
    """Controls n, k (typed, or a round value from its slider), α, the contribution cap Δf and "each count" or
    "all at once": k counts about the same n people, each within ±α at 95% (or all together): ε per release and
    in total, by basic, advanced, optimal and exact composition, and for Gaussian noise of the same accuracy
    (GDP), with the best guess of one person's presence against these releases beside the worst case.
    ``k_steps`` is where the slider of round values starts (one of :data:`~dpteach.planner.PLANNER_RELEASES`);
    moving it sets k. A typed k off the round values shows its exact total once the controls rest
    (:class:`PlannerInteractive`)."""
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
    return PlannerInteractive(plots.BudgetPlannerFigure(), controls,
                              "a budget planner: the accuracy wanted, the data's size, the cap and the releases, "
                              "to ε")
