"""Every privacy slider says which way is private (issue 44).

"Not obvious to a new-comer which side has more accuracy, and which one has more privacy": every ε, δ and
noise-scale slider of every widget shows, under its track, which end is more private and which more accurate.
The sliders are found by the argument they feed (``epsilon``, ``delta``, ``sigma``, ``noise_scale``, …), not by
the label machinery's own rule, and each label is read as a student reads it: its left end, its right end, and
that it sits right under its slider in the widget that is displayed.
"""

from __future__ import annotations

import re

import ipywidgets as widgets
import pytest
from helpers import widget_factories

from dpteach.widgets._base import direction_ends, private_end

FACTORIES = widget_factories()

#: The arguments that are privacy parameters, and which end of their slider is the more private.
PRIVATE_END = {"epsilon": "low", "delta": "low", "sigma": "high", "noise_scale": "high",
               "scale": "high", "std": "high", "accuracy": "high"}
#: Arguments that are slack in the accounting, not a privacy–accuracy dial (issue 51): what each end trades.
TRADES = {"delta_prime": ("← smaller δ′, larger ε′", "larger δ′, smaller ε′ →")}


def ends(label: widgets.HTML) -> tuple[str, str]:
    """The label row's two ends, as text."""
    spans = re.findall(r"<span>(.*?)</span>", label.value)
    assert len(spans) == 2, label.value
    return spans[0].replace("&larr;", "←").replace("&rarr;", "→"), spans[1].replace("&rarr;", "→")


def displayed(widget: widgets.Widget):
    """Every widget of the displayed tree, depth first, in order."""
    yield widget
    for child in getattr(widget, "children", ()):
        yield from displayed(child)


@pytest.mark.parametrize("factory", list(FACTORIES.values()), ids=list(FACTORIES))
def test_every_privacy_slider_says_which_end_is_private(factory):
    w = factory()
    tree = list(displayed(w.widget))
    privacy = {name for name in w.controls if name in PRIVATE_END or name in TRADES}
    assert privacy <= set(w.directions), f"privacy sliders without a direction: {sorted(privacy - set(w.directions))}"
    for name, control in w.controls.items():
        if name in TRADES:
            assert ends(w.directions[name]) == TRADES[name], (name, ends(w.directions[name]))
            assert tree[tree.index(control) + 1] is w.directions[name]
            continue
        if name not in PRIVATE_END:
            assert name not in w.directions, f"{name} ({control.description}) is no privacy parameter"
            continue
        left, right = ends(w.directions[name])
        private, accurate = (left, right) if PRIVATE_END[name] == "low" else (right, left)
        assert "more private" in private and "more accurate" in accurate, (name, left, right)
        assert left.startswith("←") and right.endswith("→"), (left, right)
        # under its own slider: the next widget after the control in the displayed tree
        assert tree[tree.index(control) + 1] is w.directions[name]
        # short enough for the slide layout: the slider's own text stays a symbol and a word
        assert len(control.description) <= 16, control.description


def test_the_rule_reads_the_symbol_a_description_starts_with():
    def slider(description):
        return widgets.FloatSlider(description=description)

    assert private_end(slider("ε (epsilon)")) == "low" and private_end(slider("δ (delta)")) == "low"
    assert private_end(slider("δ′ (delta′)")) is None        # no privacy–accuracy dial: see the next test
    assert private_end(slider("σ (sigma)")) == "high" and private_end(slider("b (noise)")) == "high"
    assert direction_ends(slider("ε (epsilon)")) == ("← more private", "more accurate →")
    assert direction_ends(slider("σ (sigma)")) == ("← more accurate", "more private →")
    for other in ("β (failure)", "Δf (sensitivity)", "k (queries)", "p (shape)", "", "εx"):
        assert private_end(slider(other)) is None and direction_ends(slider(other)) is None


def test_the_delta_prime_slider_says_what_it_trades_and_moving_it_right_lowers_the_total():
    """Issue 51: δ′ changes neither the releases nor their noise, and a larger δ′ gives a *smaller* ε′ (k = 100,
    ε = 0.1: 7.49 at 10⁻⁹, 6.31 at 10⁻⁶, 4.09 at 10⁻²). Its row says that trade, never "more private"."""
    from dpteach import advanced_composition
    from dpteach.widgets import advanced_composition as widget

    w = widget()
    control = w.controls["delta_prime"]
    left, right = ends(w.directions["delta_prime"])
    assert "private" not in left + right and "accurate" not in left + right, (left, right)
    assert left == "← smaller δ′, larger ε′" and right == "larger δ′, smaller ε′ →"
    deltas = sorted({10.0 ** control.min, control.value, 10.0 ** control.max})     # a log slider
    totals = [advanced_composition(100, 0.1, d)[0] for d in deltas]
    assert all(a > b for a, b in zip(totals, totals[1:])), totals      # right is the smaller ε′, as the row says


def test_a_precomputed_view_says_which_way_its_privacy_slider_is_private_and_other_sliders_say_nothing():
    """The book's and the static deck's precomputed views (no kernel) keep their slider: its direction row too."""
    from dpteach.widgets import precomputed, privacy_loss
    view = precomputed(privacy_loss, "epsilon", [0.5, 1, 2])
    tree = list(displayed(view.widget))
    assert ends(view.direction) == ("← more private", "more accurate →")
    assert tree[tree.index(view.slider) + 1] is view.direction
    view = precomputed(privacy_loss, "k", [1, 2, 4])     # k (counts) is no privacy parameter
    assert view.direction is None and not any("dpteach-direction" in getattr(w, "_dom_classes", ()) for w in
                                              displayed(view.widget))
