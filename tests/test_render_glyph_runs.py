"""Lines laid out and drawn by dpteach.plots._glyph_runs are matplotlib 3.11's own, pixel for pixel; and the
fast text path is on for the installed matplotlib, with every private name it calls still there.

matplotlib 3.10's path (``_LayoutOnce``, ``GlyphLines``) and 3.11's (``RunsOnce``, ``GlyphRuns``) each call a
few private names of their own version. ``test_the_fast_path_is_on_and_its_private_names_exist`` fails on any
other version (the path is off there: port it) and on a 3.10.x or 3.11.x release that drops one of them; the
pixel comparisons here and in tests/test_render.py fail on one that changes what they do.
"""

from __future__ import annotations

import itertools
import random

import matplotlib
import numpy as np
import pytest
from matplotlib.backends.backend_agg import RendererAgg, get_hinting_flag
from matplotlib.font_manager import FontProperties, findfont, fontManager, get_font
from matplotlib.text import Text

from dpteach.plots import _render

ALPHABET = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;%()[]=+−-×≤≥εδΔσμπ'\"/|_^*!?"
            "jfgyWAVTLY\u2009·⁰¹²³⁴⁵⁶⁷⁸⁹⁻" "ffffiill")     # f, i, l again: ligatures (fi, fl, ff, ffi, ffl)
SIZES = [(10, 80), (8.33, 80), (12, 100), (14.4, 72), (7, 80), (20, 160)]
on_311 = pytest.mark.skipif(not _render._RUNS_ONCE, reason=f"matplotlib {matplotlib.__version__}: GlyphRuns is 3.11's")


def _private(path: str, objects: dict) -> object:
    head, *rest = path.split(".")
    obj = objects[head]
    for name in rest:
        obj = getattr(obj, name)
    return obj


def test_the_fast_path_is_on_and_its_private_names_exist():
    """One of the two text paths is on for the installed matplotlib, and each private name it calls exists."""
    from matplotlib.backends.backend_agg import RendererAgg as Agg
    from matplotlib.ft2font import FT2Font

    from dpteach.plots._glyph_runs import PRIVATE_NAMES

    assert _render._LAYOUT_ONCE or _render._RUNS_ONCE, (
        f"matplotlib {matplotlib.__version__}: the fast text path is off (every new line laid out twice by "
        "FreeType); port dpteach.plots._render/_glyph_runs to it")
    objects = {"RendererAgg": Agg(10, 10, 72), "FT2Font": FT2Font, "fontManager": fontManager,
               "Text": Text(0, 0, "x")}
    names = PRIVATE_NAMES if _render._RUNS_ONCE else (
        "RendererAgg._prepare_font", "fontManager._find_fonts_by_props", "RendererAgg._renderer.draw_text_image",
        "Text._antialiased")
    for name in names:
        assert callable(_private(name, objects)) or name == "Text._antialiased", name


@on_311
@pytest.mark.parametrize("family", ["DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono"])
@pytest.mark.parametrize("weight", ["normal", "bold"])
@pytest.mark.parametrize("size, dpi", SIZES)
def test_laid_out_lines_are_set_texts_lines(family, weight, size, dpi):
    """A line's glyph places, width, height and descent, from kept advances and pair steps, are those of
    FT2Font.set_text (HarfBuzz's shaping), for 300 random lines; each learns its new pairs from one set_text."""
    from dpteach.plots._glyph_runs import GlyphRuns

    prop = FontProperties(family=family, weight=weight, size=size)
    runs, font = GlyphRuns(size, dpi, get_hinting_flag()), get_font(findfont(prop))
    rng = random.Random(f"{family}{weight}{size}{dpi}")
    composed = 0
    for _ in range(300):
        s = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 30)))
        line = runs.layout(font, s)
        font.set_size(size, dpi)
        pens = np.asarray(font.set_text(s, 0.0, flags=get_hinting_flag())).reshape(-1, 2)
        w, h = font.get_width_height()
        if line is None:                           # a fallback glyph: matplotlib's
            assert any(font.get_char_index(ord(c)) == 0 for c in s), s
            continue
        composed += 1
        glyphs, width, height, descent = line
        tokens = runs._tokens(s)                   # characters, and ligatures: one glyph each
        assert len(tokens) == len(pens), s
        inked = [int(x) for x, (token, _) in zip(pens[:, 0], tokens) if runs._chars[token][2] != (0, 0, 0, 0)]
        assert [pen for _, pen in glyphs] == inked, s
        assert (width, height, descent) == (w / 64.0, h / 64.0, font.get_descent() / 64.0), s
    assert composed > 200


@on_311
@pytest.mark.parametrize("angle", [0, 30, 90])
@pytest.mark.parametrize("antialiased", [True, False])
def test_drawn_lines_are_matplotlibs_pixels(angle, antialiased):
    """Lines drawn from kept glyph bitmaps, at random sub-pixel places, equal RendererAgg.draw_text's, pixel for
    pixel; and drawn again whole pixels away, from the bitmaps kept for those phases."""
    from dpteach.plots._glyph_runs import RunsOnce

    rng = random.Random(f"{angle}{antialiased}")
    lines: dict = {}
    prop = FontProperties(family="DejaVu Sans", size=11)
    strings = ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 24))) for _ in range(20)]
    x = y = 0.0
    for s, shift in itertools.product(strings, (0, 1)):
        # the second time, whole pixels away: the same phases, every glyph from its kept bitmap
        x, y = (x + rng.randint(-9, 9), y + rng.randint(-9, 9)) if shift else (rng.uniform(20, 200), rng.uniform(60, 200))
        ours, theirs = RendererAgg(320, 240, 100), RendererAgg(320, 240, 100)
        for renderer in (ours, theirs):
            renderer.clear()
        gc_ours, gc_theirs = ours.new_gc(), theirs.new_gc()
        for gc in (gc_ours, gc_theirs):
            gc.set_foreground((0.2, 0.3, 0.6, 1.0), isRGBA=True)
            gc.set_antialiased(antialiased)
        with RunsOnce(ours, lines):
            ours.draw_text(gc_ours, x, y, s, prop, angle)
        theirs.draw_text(gc_theirs, x, y, s, prop, angle)
        assert np.array_equal(np.asarray(ours.buffer_rgba()), np.asarray(theirs.buffer_rgba())), (s, x, y)


@on_311
def test_what_glyph_runs_cannot_lay_out_is_left_to_matplotlib_and_ligatures_are_one_glyph():
    from dpteach.plots._glyph_runs import GlyphRuns

    prop = FontProperties(family="DejaVu Sans", size=10)
    runs, font = GlyphRuns(10, 80, get_hinting_flag()), get_font(findfont(prop))
    assert runs.layout(font, "") is None
    assert runs.layout(font, "abc\u4e2d") is None       # not in DejaVu Sans: matplotlib takes it from a fallback
    line = runs.layout(font, "first office")              # "fi", "ffi": HarfBuzz shapes each into one glyph
    assert line is not None and len(line[0]) == len("first office") - 1 - 1 - 2 and "fi" in runs._ligatures["f"]


@on_311
def test_a_figures_first_frame_learns_the_pairs_of_its_numbers():
    """After the first frame, its title with new numbers is laid out without asking FreeType (no pair to learn)."""
    import dpteach.widgets as w
    from dpteach.plots._glyph_runs import glyph_runs

    widget = w.attack_success()
    title = widget.figure.left.title
    renderer = widget.figure.fig.canvas.get_renderer()
    runs, font = glyph_runs(title.get_fontproperties(), renderer.dpi)
    steps = len(runs._steps)
    new = title.get_text().translate(str.maketrans("0123456789", "3846109275"))     # its words, new numbers
    assert new != title.get_text()
    assert runs.layout(font, new) is not None and len(runs._steps) == steps


@on_311
def test_a_font_left_at_another_size_is_sized_again():
    """The font is shared (get_font caches it), and matplotlib leaves it as its last user set it: a text drawn
    as a path (path effects: TextToPath sets its own size) leaves it at 100 pt. Glyphs loaded next for a line
    must be loaded at the line's size: a line laid out after one has set_text's metrics."""
    from matplotlib.textpath import TextToPath

    from dpteach.plots._glyph_runs import glyph_runs

    prop = FontProperties(family="DejaVu Sans", size=13)
    runs, font = glyph_runs(prop, 90)
    TextToPath().get_text_path(prop, "Wave")                           # sets the shared font's size to its own
    runs.learn(font, "Jq{y} 7")                                        # characters never loaded before
    line = runs.layout(font, "Jq{y} 7")
    font.set_size(13, 90)
    font.set_text("Jq{y} 7", 0.0, flags=get_hinting_flag())
    w, h = font.get_width_height()
    assert line[1:] == (w / 64.0, h / 64.0, font.get_descent() / 64.0)


@on_311
def test_every_figure_drawn_has_its_titles_glyphs_at_every_x_phase_of_its_row():
    """A figure's first draw renders its dynamic texts' characters and the number characters at each of the 64 x
    phases of each text's own row (GlyphRuns.fill), so that a first drag, whose new numbers move the glyphs after
    them by any 1/64 px, rasterises none. It holds for the figures drawn later in a session too, whose font and
    size earlier figures share (their rows fill none of theirs, and the oldest bitmaps make room)."""
    import dpteach.widgets as w
    from dpteach.plots._glyph_runs import _NUMBER_CHARS, glyph_runs

    for factory in (w.attack_success, w.accuracy_bound, w.laplace_density, w.tradeoff_region, w.privacy_loss):
        widget = factory()
        renderer = widget.figure.fig.canvas.get_renderer()
        titles = [ax.title for ax in widget.figure.fig.axes]
        title = next(t for t in widget.figure.dynamic if any(t is u for u in titles) and t.get_text().strip())
        runs, font = glyph_runs(title.get_fontproperties(), renderer.dpi)
        assert len(runs._bitmaps) <= runs.MAX_BITMAPS
        rows = {(y, aa, angle) for (_, _, y, aa, angle) in runs._bitmaps}
        indices = {runs._char(font, c)[0] for c in set(title.get_text().replace("\n", "") + _NUMBER_CHARS)
                   if runs._char(font, c) is not None}
        assert any(all((i, x, y, aa, angle) in runs._bitmaps for i in indices for x in range(64))
                   for (y, aa, angle) in rows), f"{factory.__name__}: its title's glyphs are not kept at every x phase"
