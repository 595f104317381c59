"""Lines composed from kept glyph bitmaps (dpteach.plots._glyphs) are FreeType's own lines, byte for byte."""

from __future__ import annotations

import random

import matplotlib
import numpy as np
import pytest
from matplotlib.backends.backend_agg import get_hinting_flag
from matplotlib.font_manager import FontProperties, fontManager, get_font

from dpteach.plots._glyphs import GlyphLines
from dpteach.plots._render import _LAYOUT_ONCE

# GlyphLines composes the lines matplotlib 3.10 draws (hinted at 8x, one bitmap a line); 3.11 draws glyph by
# glyph (tests/test_render_glyph_runs.py)
pytestmark = pytest.mark.skipif(not _LAYOUT_ONCE, reason=f"matplotlib {matplotlib.__version__}: GlyphLines is 3.10's")

ALPHABET = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;%()[]=+−-×→≤≥εδΔσμπ'\"/|_^*!?"
            "jfgyWAVTLY\u2009")


def _font(family: str, size: float, dpi: float):
    font = get_font(fontManager._find_fonts_by_props(FontProperties(family=family)))
    font.clear()
    font.set_size(size, dpi)
    return font


def _freetype(font, s: str) -> tuple:
    """What matplotlib 3.10's RendererAgg.draw_text gets from FreeType for a line."""
    font.set_text(s, 0.0, flags=get_hinting_flag())
    w, h = font.get_width_height()
    font.draw_glyphs_to_bitmap(antialiased=True)
    return np.array(font.get_image()), font.get_descent() / 64.0, font.get_bitmap_offset(), w / 64.0, h / 64.0


def _lines() -> GlyphLines:
    return GlyphLines(get_hinting_flag(), matplotlib.rcParams["text.hinting_factor"])


@pytest.mark.parametrize("family", ["DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono"])
@pytest.mark.parametrize("size, dpi", [(10, 80), (8.33, 80), (12, 100), (14.4, 72), (7, 80), (20, 160)])
def test_composed_lines_are_freetypes_lines(family, size, dpi):
    rng = random.Random(f"{family}{size}{dpi}")
    lines = _lines()
    font = _font(family, size, dpi)
    lines.warm(font, ALPHABET)
    strings = ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 45))) for _ in range(120)]
    strings += [" ", "  leading", "trailing  ", "AVAVAV To Ty", "ε = 0.01: best test 50.2%, limit 50.2%", "j", "."]
    for s in strings:
        font = _font(family, size, dpi)
        composed = lines.layout(font, s)
        assert composed is not None, f"{s!r} was not composed although every glyph was warmed"
        image, *rest = composed
        want_image, *want_rest = _freetype(font, s)
        assert image.shape == want_image.shape and np.array_equal(image, want_image), s
        assert rest == want_rest, s


def test_a_line_freetype_drew_teaches_its_glyphs():
    lines = _lines()
    font = _font("DejaVu Sans", 10, 80)
    s = "odds move × 2.72 at most"
    assert lines.layout(font, s) is None                # nothing kept yet
    assert lines.missing(font, s)
    lines.learn(font, s)
    assert lines.missing(font, s) == []
    composed = lines.layout(_font("DejaVu Sans", 10, 80), s)
    want = _freetype(_font("DejaVu Sans", 10, 80), s)
    assert np.array_equal(composed[0], want[0]) and composed[1:] == want[1:]


def test_what_cannot_be_composed_is_left_to_freetype():
    lines = _lines()
    font = _font("DejaVu Sans", 10, 80)
    lines.warm(font, ALPHABET)
    assert lines.layout(font, "") is None
    assert lines.layout(font, "abc\u4e2d") is None       # not in DejaVu Sans: set_text would use a fallback font


def test_a_figures_first_frame_warms_the_glyphs_of_its_numbers():
    import dpteach.widgets as w
    from dpteach.plots._render import _glyph_lines

    widget = w.attack_success()
    title = widget.figure.left.title
    renderer = widget.figure.fig.canvas.get_renderer()
    font = renderer._prepare_font(title.get_fontproperties())
    new = title.get_text().translate(str.maketrans("0123456789", "3846109275"))     # its words, new numbers
    assert new != title.get_text()
    assert _glyph_lines(title.get_fontproperties(), renderer.dpi).layout(font, new) is not None
