"""The sensitivity sliders (Definition 3.1 by enumeration): drive each widget from code and check
the bars it drew against the enumeration, on axes that stay put."""

import numpy as np
import pytest

import dpteach as dp
from dpteach import widgets


def test_clipped_sum_sensitivity_is_the_clip_bound():
    w = widgets.clipped_sum_sensitivity()
    for clip in (1, 4, 10):
        assert w.set(clip=clip)["sensitivity"] == clip


def test_k_counting_queries_against_a_histogram():
    w = widgets.counting_queries_sensitivity()
    for k in (1, 5, 10):
        r = w.set(k=k)
        assert (r["overlapping"], r["histogram"]) == (k, 1)


def test_clipped_sum_bars_are_the_enumerated_changes_on_fixed_axes():
    w = widgets.clipped_sum_sensitivity()
    ax = w.figure.axes[0]
    limits = (ax.get_xlim(), ax.get_ylim())
    values = np.arange(11)
    for clip in (1, 5, 10):
        r = w.set(clip=clip)
        d = dp.neighbour_differences(lambda x, r=clip: x @ np.clip(values, 0, r), values, max_size=3)
        amounts, counts = d.change_counts()
        out = r["sum clipped to [0, R]"]
        assert out["values"].tolist() == amounts.tolist() and out["counts"].tolist() == counts.tolist()
        heights = w.figure.bars[0].get_data().values
        assert heights[::2].tolist() == counts.tolist() and not heights[1::2].any()
        assert counts.max() <= ax.get_ylim()[1] and amounts.max() <= ax.get_xlim()[1]
        assert (ax.get_xlim(), ax.get_ylim()) == limits
        assert f"Δf = {clip}" in ax.get_title()


def test_counting_queries_panels_share_fixed_axes():
    w = widgets.counting_queries_sensitivity()
    limits = [(ax.get_xlim(), ax.get_ylim()) for ax in w.figure.axes]
    assert limits[0] == limits[1]
    for k in (1, 4, 10):
        r = w.set(k=k)
        assert [(ax.get_xlim(), ax.get_ylim()) for ax in w.figure.axes] == limits
        assert r["k overlapping counts"]["values"].max() == k
        assert r["k-cell histogram"]["values"].tolist() == [0.0, 1.0]


def test_neighbour_changes_figure_fits_its_axes_when_not_given_limits():
    """Drawn once (chapter 01's count against a histogram), the axes fit the data."""
    fig = dp.plots.NeighbourChangesFigure(labels=("count",))
    out = fig.update(dp.neighbour_differences(lambda x: x.sum(), [0, 1, 2], max_size=2))
    assert out["count"]["sensitivity"] == 1
    assert fig.axes[0].get_ylim()[1] >= out["count"]["counts"].max()
    with pytest.raises(ValueError, match="expected 1 sets of differences"):
        fig.update()
