"""A kernel that receives slider changes faster than it draws draws only the newest (a class on a hub, or any
client that does not wait for each image); changes that come one by one are drawn at once, each, and so is
every value code sets. A change from the browser is what the comm handler applies: ``set_state``."""

from __future__ import annotations

import dpteach as dp
from dpteach.widgets import _base


class FakeLoop:
    """A kernel's event loop that runs what is scheduled only when told."""

    def __init__(self):
        self.later = []

    def call_later(self, delay, callback):
        self.later.append((delay, callback))

    def run(self):
        due, self.later = self.later, []
        for _, callback in due:
            callback()


def test_changes_in_a_burst_are_drawn_once_at_the_newest_values(monkeypatch):
    loop = FakeLoop()
    monkeypatch.setattr(_base, "_kernel_loop", lambda: loop)
    w = dp.widgets.laplace_density()
    first = bytes(w.image.value)
    w._finished -= 1.0                           # the figure was drawn a second ago
    w.controls["epsilon"].value = 2.0            # so this change is drawn at once
    drawn = bytes(w.image.value)
    assert drawn != first and loop.later == [] and w._drawn["epsilon"] == 2.0
    for value in (3.0, 4.0, 5.0):                # right after that draw: a burst from the browser (a backlog)
        w.controls["epsilon"].set_state({"value": value})
    assert bytes(w.image.value) == drawn         # nothing drawn yet: the kernel reads what is queued first
    assert len(loop.later) == 1 and loop.later[0][0] == _base.COALESCE_SECONDS and w.skipped == 2
    loop.run()
    assert w._drawn["epsilon"] == 5.0 and w.values()["epsilon"] == 5.0
    assert bytes(w.image.value) != drawn


def test_without_a_kernel_every_change_is_drawn_at_once():
    w = dp.widgets.laplace_density()
    for value in (2.0, 3.0, 4.0):
        w.controls["epsilon"].value = value
        assert w._drawn["epsilon"] == value
    assert w.skipped == 0 and _base._kernel_loop() is None


def test_a_change_long_after_the_last_draw_is_drawn_at_once(monkeypatch):
    loop = FakeLoop()
    monkeypatch.setattr(_base, "_kernel_loop", lambda: loop)
    w = dp.widgets.laplace_density()
    w._finished -= 1.0                           # the last image went out a second ago (a browser waits for it)
    w.controls["epsilon"].value = 2.0
    assert loop.later == [] and w._drawn["epsilon"] == 2.0


def test_values_set_by_code_are_drawn_at_once_even_in_a_burst(monkeypatch):
    """A cell that sets a slider several times (or a benchmark) sees each value drawn before the next line runs."""
    loop = FakeLoop()
    monkeypatch.setattr(_base, "_kernel_loop", lambda: loop)
    w = dp.widgets.laplace_density()
    for value in (2.0, 3.0, 4.0, 5.0):
        w.controls["epsilon"].value = value
        assert w._drawn["epsilon"] == value
    assert loop.later == [] and w.skipped == 0
