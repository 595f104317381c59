"""Blitting: a figure's static parts are drawn once; a frame redraws only what changes.

A slider frame used to be a full ``canvas.draw()``: axes, ticks, labels, grid, legend and
every string rendered again, then PNG-encoded (50–130 ms). Most of that never changes
while the slider moves. A :class:`Renderer` splits the figure in three:

* the **background**: every static artist that matplotlib draws *below* the dynamic ones
  (axes faces, grid, ticks, labels, reference bands), rendered once and kept with
  ``canvas.copy_from_bbox``;
* the **dynamic** artists the figure declares (the lines, bars and texts that ``update``
  changes), drawn on every frame in matplotlib's own order (zorder, then insertion);
* the **overlays**: the static artists matplotlib draws *above* dynamic ones (legends,
  spines, reference lines), rendered once into transparent images, one per run of static
  artists between dynamic ones, and pasted in their place in the drawing order, instead
  of redrawing a legend every frame.

The cache is keyed on what the static pixels depend on: the dpi and size, the style mode,
every axes' limits and scales, and whatever else the figure says (``key``). If an update
moves the axes, the next frame rebuilds the cache: correct, only slower. The PNG is written
by a small encoder (:mod:`._png`: no row filter, deflate level 1, ISA-L's deflate where installed).

Dynamic *texts* cost most of a frame (FreeType lays out and rasterises every string again).
A text drawn a second time with the same string, position, font, colour and clip (a bar's
name label while ε moves) is pasted from a **sprite**: its pixels rendered once on a
transparent canvas and cached, like the overlays. A string seen for the first time is drawn
directly (most titles carry the slider's value and are new on a first drag), and drawn once:
matplotlib's Agg renderer lays a string out with FreeType twice, once to measure it and again
to rasterise it (about 20 µs a glyph each time, 3 ms for a two-line title); within the
frame's ``Text.draw`` each line is rasterised when it is measured (:class:`_LayoutOnce`), and
a new line is composed from glyph bitmaps kept per sub-pixel phase (:class:`GlyphLines`,
about 5 µs a glyph, FreeType's own pixels) wherever they are all kept.

matplotlib 3.11 draws text otherwise (HarfBuzz shapes each line; every glyph is rasterised and
blended on its own at its sub-pixel place), so on 3.11 a line is laid out once from kept advances
and pair steps and drawn from glyph bitmaps kept per phase (:class:`~._glyph_runs.RunsOnce`), and
there are no sprites (a sprite would differ by a level where two glyphs' edges share a pixel). On
any other version every text is drawn by matplotlib (the same pixels, slower).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence

import matplotlib
import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg, get_hinting_flag
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.font_manager import fontManager as _fontManager
from matplotlib.text import Text

from ._glyph_runs import RunsOnce
from ._glyph_runs import warm as _warm_runs
from ._glyphs import GlyphLines
from ._png import encode_png

__all__ = ["Renderer"]


def _draw_order(parent) -> list[Artist]:
    """The children of an Axes in the order Axes.draw paints them (zorder, stable on insertion)."""
    children = [a for a in parent.get_children() if a is not parent.patch]
    return sorted(children, key=lambda a: a.get_zorder())


class Renderer:
    """Blitted PNG frames of ``fig``, redrawing only the ``dynamic`` artists.

    Parameters
    ----------
    fig : Figure
    dynamic : sequence of Artist
        Everything ``update`` changes. An artist that changes but is not listed keeps its
        old pixels: tests compare blitted frames with full draws to catch that.
    key : callable, optional
        Returns a hashable of whatever else the static pixels depend on. Each static state
        seen (up to :attr:`MAX_STATES`) keeps its background, so a control that switches
        between a few static states (a grid size) redraws each of them once.
    """

    #: static states kept (backgrounds of width × height × 4 bytes each, plus overlays)
    MAX_STATES = 24

    def __init__(self, fig: Figure, dynamic: Sequence[Artist], key: Callable[[], Hashable] | None = None) -> None:
        self.fig = fig
        self.dynamic = list(dynamic)
        self.key = key
        self.canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
        self._cache_key = None
        self._background = None
        #: every static state seen, most recent last: (background, plan) by cache key
        self._caches: dict = {}
        #: what a frame does, in order: draw these artists, then paste this overlay (either may be empty)
        self._plan: list[tuple[list[Artist], tuple[int, int, np.ndarray] | None]] = []
        self.rebuilds = 0
        #: text sprites by what their pixels depend on (see :func:`_text_key`), and the text states seen once
        self._sprites: dict = {}
        self._seen: set = set()
        self._scratch: RendererAgg | None = None
        #: plain lines of text, rasterised (see :class:`_LayoutOnce`)
        self._lines: dict = {}
        self._epoch = 0
        self._epochs: dict = {}

    # -- cache -----------------------------------------------------------------------------
    def _current_key(self, dpi: float, mode: str) -> tuple:
        # positions rounded: two solves of the same layout can differ by 1e-16; the layout's own positions (an
        # equal-aspect axes' active box follows from them and the limits, and computing it costs ~1 ms per axes)
        limits = tuple((ax.get_xlim(), ax.get_ylim(), ax.get_xscale(), ax.get_yscale(),
                        tuple(round(v, 6) for v in ax.get_position(original=True).bounds)) for ax in self.fig.axes)
        return (dpi, mode, tuple(self.fig.get_size_inches()), limits, self.key() if self.key else None)

    def _build(self, solve_layout: Callable[[], None]) -> None:
        """Solve the layout (if it needs it), cache the background, render each run of static artists
        drawn above dynamic ones."""
        solve_layout()
        dynamic = set(map(id, self.dynamic))
        runs: list[tuple[bool, list[Artist]]] = []        # (dynamic?, artists), in drawing order
        for ax in sorted(self.fig.axes, key=lambda a: a.get_zorder()):
            order = _draw_order(ax)
            first = next((i for i, a in enumerate(order) if id(a) in dynamic), None)
            if first is None:
                continue
            for a in order[first:]:
                is_dynamic = id(a) in dynamic
                if not is_dynamic and not a.get_visible():
                    continue
                if runs and runs[-1][0] == is_dynamic:
                    runs[-1][1].append(a)
                else:
                    runs.append((is_dynamic, [a]))
        figure_level = [a for a in self.fig.get_children() if id(a) in dynamic]
        if figure_level:
            runs.append((True, figure_level))
        above = [a for is_dynamic, artists in runs if not is_dynamic for a in artists]
        hidden = [a for a in self.dynamic + above if a.get_visible()]
        for a in hidden:
            a.set_visible(False)
        try:
            self.canvas.draw()
            self._background = self.canvas.copy_from_bbox(self.fig.bbox)
            renderer = self.canvas.get_renderer()
            self._plan = []
            for is_dynamic, artists in runs:
                if is_dynamic:
                    self._plan.append((artists, None))
                    continue
                renderer.clear()
                for a in artists:
                    a.set_visible(True)
                    a.draw(renderer)
                    a.set_visible(False)
                overlay = _crop(np.asarray(self.canvas.buffer_rgba()).copy())
                if overlay is not None:
                    self._plan.append(([], overlay))
        finally:
            for a in hidden:
                a.set_visible(True)
        _warm_glyphs([a for a in self.dynamic if isinstance(a, Text)], self.canvas.get_renderer())
        self.rebuilds += 1

    # -- frames ----------------------------------------------------------------------------
    def frame(self, dpi: float, mode: str, solve_layout: Callable[[], None]) -> np.ndarray:
        """The figure's pixels now, as an (height, width, 4) view of the canvas buffer."""
        if self.fig.get_dpi() != dpi:
            self.fig.set_dpi(dpi)
        key = self._current_key(dpi, mode)
        if key != self._cache_key:
            if key in self._caches:                       # a static state seen before: no redraw
                self._background, self._plan = self._caches.pop(key)
                self._cache_key = key
            else:
                self._build(solve_layout)
                self._cache_key = self._current_key(dpi, mode)   # the layout may have moved the axes
            self._caches[self._cache_key] = (self._background, self._plan)
            while len(self._caches) > self.MAX_STATES:
                self._caches.pop(next(iter(self._caches)))
        # text sprites are placed for one static state: number the states
        self._epoch = self._epochs.setdefault(self._cache_key, len(self._epochs))
        self.canvas.restore_region(self._background)
        renderer = self.canvas.get_renderer()
        for artists, overlay in self._plan:
            for a in artists:
                if not a.get_visible():
                    continue
                if isinstance(a, Text):
                    self._draw_text(a, renderer)
                else:
                    a.draw(renderer)
            if overlay is not None:
                x, y, image = overlay
                gc = renderer.new_gc()
                renderer.draw_image(gc, x, y, image)
                gc.restore()
        return np.asarray(self.canvas.buffer_rgba())

    def png(self, dpi: float, mode: str, solve_layout: Callable[[], None]) -> bytes:
        return encode_png(self.frame(dpi, mode, solve_layout))

    # -- text sprites ------------------------------------------------------------------------
    #: sprites kept, and text states remembered as seen once
    MAX_SPRITES = 512

    def _draw_text(self, text: Text, renderer) -> None:
        """Draw ``text``: from its sprite if this exact text was drawn before, else directly. No sprites on
        matplotlib 3.11: it blends each glyph on its own, and a sprite (the glyphs blended on a transparent
        canvas, then pasted) differs from that by one level where two glyphs' edges share a pixel."""
        key = None if _RUNS_ONCE else _text_key(text, self._epoch)
        if key is None:                             # no sprite; its plain lines are still laid out once
            self._draw_lines_once(text, renderer)
            return
        sprite = self._sprites.get(key)
        if sprite is None:
            if key not in self._seen:               # the first time: draw it (laid out once), remember it
                if len(self._seen) >= 4 * self.MAX_SPRITES:
                    self._seen.clear()
                self._seen.add(key)
                self._draw_lines_once(text, renderer)
                return
            sprite = self._sprites[key] = self._render_sprite(text, renderer)
            while len(self._sprites) > self.MAX_SPRITES:
                self._sprites.pop(next(iter(self._sprites)))
        if sprite is not False:
            x, y, image = sprite
            gc = renderer.new_gc()
            renderer.draw_image(gc, x, y, image)
            gc.restore()

    def _draw_lines_once(self, text: Text, renderer) -> None:
        """``text.draw(renderer)``, each plain line laid out once and kept (:class:`_LayoutOnce` on matplotlib
        3.10, :class:`~._glyph_runs.RunsOnce` on 3.11)."""
        if _LAYOUT_ONCE:
            with _LayoutOnce(renderer, self._lines, text):
                text.draw(renderer)
        elif _RUNS_ONCE:
            with RunsOnce(renderer, self._lines):
                text.draw(renderer)
        else:
            text.draw(renderer)

    def warm_text(self, text: Text, strings) -> None:
        """Render ``text``'s sprite for each of ``strings`` now (after a frame, for its static state), so that
        a control that sets one of them later pastes it: the figure knows a label's few possible strings.
        Nothing on matplotlib 3.11 (no sprites: see :meth:`_draw_text`)."""
        if _RUNS_ONCE:
            return
        original = text.get_text()
        renderer = self.canvas.get_renderer()
        try:
            for string in strings:
                text.set_text(string)
                key = _text_key(text, self._epoch)
                if key is not None and key not in self._sprites:
                    self._sprites[key] = self._render_sprite(text, renderer)
        finally:
            text.set_text(original)

    def _render_sprite(self, text: Text, renderer) -> tuple[int, int, np.ndarray] | bool:
        """``text`` alone on a transparent canvas the figure's size, cropped to its pixels (False: none)."""
        scratch = self._scratch
        # the canvas's own size, fractions included: a text's rows are placed from the canvas's height
        if scratch is None or (scratch.width, scratch.height, scratch.dpi) != (renderer.width, renderer.height,
                                                                              renderer.dpi):
            scratch = self._scratch = RendererAgg(renderer.width, renderer.height, renderer.dpi)
        scratch.clear()
        try:
            self._draw_lines_once(text, scratch)    # its lines were laid out when it was first drawn
            box = text.get_window_extent(scratch)
        finally:
            text._renderer = renderer              # Text.draw remembers its renderer: give it the canvas's back
        rgba = np.asarray(scratch.buffer_rgba())
        height, width = rgba.shape[:2]
        pad = 3
        top = max(0, int(np.floor(height - box.y1)) - pad)
        bottom = min(height, int(np.ceil(height - box.y0)) + pad)
        left = max(0, int(np.floor(box.x0)) - pad)
        right = min(width, int(np.ceil(box.x1)) + pad)
        # the whole canvas if the extent missed some pixels (they must all be in the sprite)
        alpha = rgba[:, :, 3]
        if top >= bottom or left >= right or \
                alpha[top:bottom, left:right].sum(dtype=np.int64) != alpha.sum(dtype=np.int64):
            top, bottom, left, right = 0, height, 0, width
        cropped = _crop(rgba[top:bottom, left:right].copy())
        if cropped is None:
            return False
        x, y, image = cropped
        return x + left, y + (height - bottom), image


#: the draw_text that _LayoutOnce repeats is matplotlib 3.10's (its text antialiasing comes from the gc)
_LAYOUT_ONCE = matplotlib.__version__.startswith("3.10.")
#: matplotlib 3.11 draws a line glyph by glyph, each at its sub-pixel place: RunsOnce repeats that
_RUNS_ONCE = matplotlib.__version__.startswith("3.11.")

#: kept glyph bitmaps, one GlyphLines per font, size, dpi and hinting (shared by every figure)
_GLYPH_LINES: dict = {}
#: what a slider's texts are mostly made of beside their words: numbers, powers of ten (10⁻⁹), and the
#: "lp" matplotlib measures a line's height with
_DIGITS = "0123456789.,−-+%×=:() ⁰¹²³⁴⁵⁶⁷⁸⁹⁻·lp"


def _glyph_lines(prop, dpi: float) -> GlyphLines:
    """The GlyphLines of the font RendererAgg._prepare_font makes of ``prop`` at ``dpi`` (antialiased text)."""
    key = (tuple(_fontManager._find_fonts_by_props(prop)), prop.get_size_in_points(), dpi, get_hinting_flag(),
           matplotlib.rcParams["text.hinting_factor"], matplotlib.rcParams["text.kerning_factor"])
    glyphs = _GLYPH_LINES.get(key)
    if glyphs is None:
        if len(_GLYPH_LINES) >= 64:
            _GLYPH_LINES.pop(next(iter(_GLYPH_LINES)))
        glyphs = _GLYPH_LINES[key] = GlyphLines(get_hinting_flag(), matplotlib.rcParams["text.hinting_factor"])
    return glyphs


def _warm_glyphs(texts: Sequence[Text], renderer: RendererAgg) -> None:
    """Keep, at every sub-pixel phase, the glyphs of each text's string and of numbers: a slider's texts
    keep their words and change their numbers, so a first drag composes its lines from these."""
    if _RUNS_ONCE:
        _warm_runs(texts, renderer)
    if not _LAYOUT_ONCE:
        return
    for text in texts:
        if not text.get_text() or not bool(text._antialiased) or _text_key(text, 0) is None:
            continue
        prop = text.get_fontproperties()
        font = renderer._prepare_font(prop)
        _glyph_lines(prop, renderer.dpi).warm(font, text.get_text() + _DIGITS)


class _LayoutOnce:
    """Within one ``Text.draw`` on an Agg renderer, lay each plain line out once, and never again.

    ``Text.draw`` measures its lines (``get_text_width_height_descent``: FreeType loads and places
    every glyph), then draws each (``draw_text``: the same ``set_text`` again, then the bitmap),
    though a line's bitmap depends only on its string, font, dpi, hinting and antialiasing, not
    on where it goes (``draw_text`` rounds the place to whole pixels). Here a plain line (no
    mathtext, no TeX) is rasterised when it is measured, and the bitmap is kept in ``lines``
    (bounded; the Renderer's, so kept across frames) with the offsets ``draw_text`` computes from
    the same glyphs; drawing it pastes it where ``draw_text`` would: the same pixels, one layout
    for a new line and none for a line drawn before (the unchanged lines of a title). A text with a
    box, path effects or TeX measures its lines here too (the same metrics); its box, and lines
    drawn as paths or by TeX, are drawn by matplotlib's own code.
    """

    #: lines kept
    MAX_LINES = 1024

    def __init__(self, renderer: RendererAgg, lines: dict, text: Text) -> None:
        self.renderer = renderer
        self.lines = lines
        #: what Text.draw sets its gc's antialiasing to (rcParams["text.antialiased"] unless the text says)
        self.antialiased = bool(text._antialiased)

    def _key(self, s: str, prop, antialiased: bool) -> tuple:
        # what RendererAgg._prepare_font and draw_text make of it: the font files, the size, the dpi, the hinting
        return (s, tuple(_fontManager._find_fonts_by_props(prop)), prop.get_size_in_points(), self.renderer.dpi,
                get_hinting_flag(), antialiased)

    def _layout(self, s: str, prop, antialiased: bool) -> tuple:
        """Lay ``s`` out and rasterise it, as matplotlib 3.10's RendererAgg.draw_text does; keep the bitmap.

        An antialiased line is composed from kept glyph bitmaps where it can be (:class:`GlyphLines`:
        the same pixels, about 5× faster than FreeType); else FreeType draws it, and the glyph bitmaps
        it needs are kept for the next line.
        """
        font = self.renderer._prepare_font(prop)
        glyphs = _glyph_lines(prop, self.renderer.dpi) if antialiased else None
        line = glyphs.layout(font, s) if glyphs is not None else None
        if line is None:
            font.set_text(s, 0.0, flags=get_hinting_flag())
            w, h = font.get_width_height()
            font.draw_glyphs_to_bitmap(antialiased=antialiased)
            line = (np.array(font.get_image()), font.get_descent() / 64.0, font.get_bitmap_offset(), w / 64.0,
                    h / 64.0)
            if glyphs is not None:
                glyphs.learn(font, s)
        if len(self.lines) >= self.MAX_LINES:
            self.lines.pop(next(iter(self.lines)))
        self.lines[self._key(s, prop, antialiased)] = line
        return line

    def __enter__(self) -> _LayoutOnce:
        r = self.renderer
        measure, draw = r.get_text_width_height_descent, r.draw_text

        def get_text_width_height_descent(s, prop, ismath):
            if ismath is not False:
                return measure(s, prop, ismath)
            line = self.lines.get(self._key(s, prop, self.antialiased)) or self._layout(s, prop, self.antialiased)
            return line[3], line[4], line[1]

        def draw_text(gc, x, y, s, prop, angle, ismath=False, mtext=None):
            if ismath:
                return draw(gc, x, y, s, prop, angle, ismath, mtext)
            antialiased = bool(gc.get_antialiased())
            image, d, (xo, yo), _w, _h = self.lines.get(self._key(s, prop, antialiased)) or \
                self._layout(s, prop, antialiased)
            x = round(x + xo / 64.0 + d * math.sin(math.radians(angle)))     # math's, as matplotlib's (not numpy's)
            y = round(y + yo / 64.0 + d * math.cos(math.radians(angle)))
            r._renderer.draw_text_image(image, x, y + 1, angle, gc)

        r.get_text_width_height_descent, r.draw_text = get_text_width_height_descent, draw_text
        return self

    def __exit__(self, *exc) -> None:
        del self.renderer.get_text_width_height_descent, self.renderer.draw_text


def _crop(rgba: np.ndarray) -> tuple[int, int, np.ndarray] | None:
    """The smallest box holding every non-transparent pixel, as (x, y from the bottom, flipped image)."""
    alpha = rgba[:, :, 3]
    rows = np.flatnonzero(alpha.any(axis=1))
    if rows.size == 0:
        return None
    cols = np.flatnonzero(alpha.any(axis=0))
    top, bottom, left, right = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
    height = rgba.shape[0]
    # draw_image places the image's first row at the bottom: flip, and give the bottom edge in pixels up
    return int(left), int(height - bottom), np.ascontiguousarray(rgba[top:bottom, left:right][::-1])


def _text_key(text: Text, epoch: int) -> tuple | None:
    """Everything a text's pixels depend on, or None for a text that is always drawn directly (a box
    around it, path effects, TeX, wrapping, a clip path). ``epoch`` counts the static states: where a
    position in data, axes or figure coordinates lands on the canvas (and the clip box) depends only on
    what the static state's key holds (dpi, size, every axes' limits, scales and position)."""
    if (text._bbox_patch is not None or text.get_path_effects() or text.get_usetex() or text.get_wrap()
            or (text.get_clip_on() and text.get_clip_path() is not None)):
        return None
    string = text.get_text()
    if not string:
        return None
    x, y = text.get_position()
    try:
        x, y = float(x), float(y)
    except (TypeError, ValueError):            # units (dates, categories): always drawn directly
        return None
    return (id(text), epoch, string, x, y, id(text.get_transform()), text.get_rotation(), text.get_rotation_mode(),
            text.get_transform_rotates_text(), text.get_horizontalalignment(), text.get_verticalalignment(),
            text._multialignment, text._linespacing, hash(text.get_fontproperties()),
            to_rgba(text.get_color(), text.get_alpha()), text._antialiased, text.get_clip_on())
