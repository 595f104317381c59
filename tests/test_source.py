"""``show_source`` (dpteach/source.py): a function's real code, shown in a chapter beside the maths."""

import pytest

import dpteach as dp


def test_show_source_is_the_real_code_without_the_docstring():
    src = dp.show_source(dp.laplace_mechanism)
    assert "def laplace_mechanism" in repr(src) and "gen.laplace" in repr(src)
    assert "Examples" not in repr(src)
    assert "Examples" in repr(dp.show_source(dp.laplace_mechanism, docstring=True))
    with pytest.raises(TypeError):
        dp.show_source(42)
