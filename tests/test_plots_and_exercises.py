"""The figure layer's style and the exercise checkers."""

import math

import numpy as np
import pytest
from conftest import assert_checker_contract

import dpteach as dp
from dpteach import exercises, plots


def test_style_is_projector_readable_and_presentation_enlarges_it():
    base = plots.style()["font.size"]
    assert base >= 12
    plots.presentation()
    try:
        assert plots.style()["font.size"] > base
        fig, _ = plots.new_figure()
        assert fig.get_size_inches()[0] >= 12
    finally:
        plots.presentation(False)
    assert plots.style()["font.size"] == base


def test_png_bytes_renders_a_png():
    fig = plots.LaplaceDensityFigure()
    fig.update(1.0)
    assert plots.png_bytes(fig.fig).startswith(b"\x89PNG")


def test_tail_figure_matches_fact_3_7():
    rng = np.random.default_rng(7)
    f = plots.TailFigure(rng.laplace(0, 2.0, 100_000), scale=2.0)
    t1 = np.argmin(np.abs(f.t - 1.0))
    assert f.empirical[t1] == pytest.approx(math.exp(-f.t[t1]), abs=0.01)


CASES = [
    (exercises.check_scale_for_count, 2.0, 1.0),
    (exercises.check_count_and_sum_sensitivity, 101, 100),
    (exercises.check_l2_sensitivity_of_counts, 3, 9),
    (exercises.check_tail_probability, math.exp(-3), 0.05),
    (exercises.check_epsilon_for_std, math.sqrt(2) / 10, 0.1),
    (exercises.check_scale_for_overlapping_counts, 6, 2),
    (exercises.check_understated_loss, 2, 1),
]


@pytest.mark.parametrize("check,right,wrong", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_checker_accepts_the_right_answer_and_refuses_a_wrong_one(check, right, wrong):
    assert_checker_contract(check, right, wrong)


def test_feedback_renders_as_html_with_its_verdict():
    html = exercises.check_scale_for_count(2)._repr_html_()
    assert "Correct" in html and "<div" in html


def test_show_source_is_the_real_code_without_the_docstring():
    src = dp.show_source(dp.laplace_mechanism)
    assert "def laplace_mechanism" in repr(src) and "gen.laplace" in repr(src)
    assert "Examples" not in repr(src)
    assert "Examples" in repr(dp.show_source(dp.laplace_mechanism, docstring=True))
    with pytest.raises(TypeError):
        dp.show_source(42)


def test_chapter_map_lists_the_chapters_with_titles(root):
    cm = dp.chapter_map(root / "notebooks")
    numbers = [c.number for c in cm.items]
    assert numbers[:4] == ["00", "01", "02", "03"]
    assert all(c.title and c.summary for c in cm.items)
    assert "<a href='01_sensitivity.ipynb'>" in cm._repr_html_()
    with pytest.raises(ValueError, match="folder"):
        dp.chapter_map(root / "no-such-folder")
