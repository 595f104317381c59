"""A line of plain text rasterised from kept glyph bitmaps, pixel for pixel what FreeType draws.

matplotlib's Agg renderer draws a line of text with ``FT2Font.set_text`` (FreeType loads,
hints and places every glyph: about 15 µs a glyph) and ``draw_glyphs_to_bitmap`` (rasterises
each and ORs it into the line's bitmap). A slider's title carries the slider's value, so on a
first drag nearly every line is new, and most of a frame is spent there, though the line is
made of the same few dozen glyphs every time.

The bitmap of a glyph depends only on the glyph and on where the pen puts it; moving it by
whole pixels moves its bitmap by whole pixels. ``set_text`` places glyph *i* at a pen position
(26.6 fixed point, 1/64 px) that is the sum of the advances before it and the kerning between
neighbours, and with matplotlib's hinting both are multiples of 1/8 px (the glyphs are hinted
at 8× the horizontal resolution and scaled back), so a glyph meets only 8 sub-pixel *phases*.
:class:`GlyphLines` keeps each glyph's bitmap per phase, rendered by FreeType itself (the glyph
alone after a run of blank spaces that puts it at that phase), and composes a new line the way
``FT2Font.set_text`` and ``draw_glyphs_to_bitmap`` do: the same pen arithmetic, the same
bounding box, the same truncations, the same OR of bytes. A line it cannot compose exactly (a
character the primary font lacks, a phase not kept, a glyph whose bitmap it could not isolate)
is left to FreeType, and tests compare composed lines with FreeType's for thousands of strings.
"""

from __future__ import annotations

import numpy as np

__all__ = ["GlyphLines"]

#: characters with an advance and no ink, to put the probed glyph at a chosen phase
_BLANKS = " \u200a\u2009\u2006\u2005\u2004\u2002\u2007\u2003"


class GlyphLines:
    """Antialiased glyph bitmaps of one FT2Font at one size, dpi and hinting, and the lines made of them.

    ``layout(s)`` returns what ``font.set_text(s, 0, flags)`` followed by
    ``font.draw_glyphs_to_bitmap(antialiased=True)`` leaves, as ``(image, descent, (xoffset, 0), width, height)``
    in the units ``get_image``, ``get_descent``, ``get_bitmap_offset`` and ``get_width_height`` give,
    or None where it would not be exact. ``font`` must be prepared (its size set) on every call.
    Antialiased only: FreeType's monochrome rasteriser rounds a glyph's box to the nearest pixel
    instead of outwards, and matplotlib draws monochrome text only when asked to.
    """

    #: (glyph, phase) bitmaps kept; a line needing one more is drawn by FreeType
    MAX_BITMAPS = 4096

    def __init__(self, flags, hinting_factor: int) -> None:
        self.flags = flags
        #: FT2Font loads glyphs at this many times the horizontal resolution, then scales them back
        self.hinting_factor = int(hinting_factor)
        self._index_char: dict = {}
        #: character -> (glyph index, advance, cbox (xmin, ymin, xmax, ymax)) or None (not in the primary font)
        self._chars: dict = {}
        self._kerning: dict = {}
        #: (glyph index, phase) -> (bitmap, left, top): the ink, and where its first column and row lie for a
        #: pen at that phase (whole pixels right of the pen, above the baseline); None: cannot be isolated
        self._bitmaps: dict = {}
        self._prefixes: dict | None = None        # phase -> blank string whose pen ends at that phase

    # -- the font's metrics, as set_text uses them --------------------------------------------
    def _char(self, font, c: str):
        info = self._chars.get(c, False)
        if info is False:
            index = font.get_char_index(ord(c))
            if index == 0:
                info = None                       # set_text would look in the fallback fonts
            else:
                glyph = font.load_char(ord(c), flags=self.flags)
                # FT_Load_Glyph scales the hinted advance by the font's transform (65536 / hinting factor, as
                # FT2Font::set_size sets it) with FT_MulFix, which rounds half up
                advance = (glyph.horiAdvance * (65536 // self.hinting_factor) + 0x8000) >> 16
                info = (index, advance, tuple(glyph.bbox))
                self._index_char.setdefault(index, c)
            self._chars[c] = info
        return info

    def _kern(self, font, left: int, right: int) -> int:
        key = (left, right)
        k = self._kerning.get(key)
        if k is None:
            k = self._kerning[key] = int(font.get_kerning(left, right, _KERNING_DEFAULT))
        return k

    def _pens(self, font, s: str):
        """Each character's (glyph index, pen x, cbox) as set_text places it, and the pen at the end; or None."""
        pen, previous, out = 0, 0, []
        for c in s:
            info = self._char(font, c)
            if info is None:
                return None
            index, advance, box = info
            if previous and index:
                pen += self._kern(font, previous, index)
            out.append((index, pen, box))
            pen += advance
            previous = index
        return out, pen

    # -- composing a line ----------------------------------------------------------------------
    def layout(self, font, s: str):
        """The line as FreeType would rasterise it, composed from kept bitmaps; None if one is missing."""
        if not s:
            return None
        chars, kerning, bitmaps = self._chars, self._kerning, self._bitmaps
        pen = previous = 0
        x_min = y_min = 32000
        x_max = y_max = -32000
        glyphs = []
        for c in s:                                   # FT2Font::set_text's loop
            info = chars.get(c, False)
            if info is False:
                info = self._char(font, c)
            if info is None:
                return None
            index, advance, (bx0, by0, bx1, by1) = info
            if previous and index:
                k = kerning.get((previous, index))
                pen += self._kern(font, previous, index) if k is None else k
            if bx0 == by0 == bx1 == by1 == 0:          # no outline points: FT_Outline_Get_CBox gives zeros
                bx1 = bx0 = -pen
            else:
                kept = bitmaps.get((index, pen % 64))
                if kept is None:
                    return None
                glyphs.append((kept, pen // 64))
            if bx0 + pen < x_min:
                x_min = bx0 + pen
            if bx1 + pen > x_max:
                x_max = bx1 + pen
            if by0 < y_min:
                y_min = by0
            if by1 > y_max:
                y_max = by1
            pen += advance
            previous = index
        if x_min > x_max:
            x_min = y_min = x_max = y_max = 0
        width, height = (x_max - x_min) // 64 + 2, (y_max - y_min) // 64 + 2
        image = np.zeros((height, width), dtype=np.uint8)
        shift, base = x_min * (1.0 / 64.0), y_max * (1.0 / 64.0) + 1
        for (bitmap, left, top), whole in glyphs:      # FT2Font::draw_glyphs_to_bitmap
            x = int(left + whole - shift)              # (FT_Int)(bitmap->left - bbox.xMin / 64.): C truncation
            y = int(base - top)
            rows, cols = bitmap.shape
            if x >= 0 and y >= 0 and x + cols <= width and y + rows <= height:
                image[y:y + rows, x:x + cols] |= bitmap
                continue
            r0, c0, r1, c1 = max(y, 0), max(x, 0), min(y + rows, height), min(x + cols, width)
            if r0 < r1 and c0 < c1:                    # draw_bitmap clips to the image
                image[r0:r1, c0:c1] |= bitmap[r0 - y:r1 - y, c0 - x:c1 - x]
        # FT2Font::get_width_height: the pen's advance, and the box's height
        return image, -y_min / 64.0, (x_min, 0), pen / 64.0, (y_max - y_min) / 64.0

    # -- keeping bitmaps -----------------------------------------------------------------------
    def missing(self, font, s: str) -> list:
        """The (glyph, phase) pairs a line of ``s`` needs and are not kept (None: it cannot be composed)."""
        pens = self._pens(font, s)
        if pens is None:
            return []
        placed = pens[0]
        return sorted({(index, pen % 64) for index, pen, box in placed
                       if box != (0, 0, 0, 0) and (index, pen % 64) not in self._bitmaps})

    def learn(self, font, s: str) -> None:
        """Keep the bitmaps a line of ``s`` needs (FreeType renders each glyph alone, at its phase)."""
        for index, phase in self.missing(font, s):
            self._probe(font, index, phase)

    def warm(self, font, characters: str, phases=range(0, 64, 8)) -> None:
        """Keep the bitmaps of ``characters`` at each of ``phases`` (all 8 that matplotlib's hinting yields)."""
        for c in dict.fromkeys(characters):
            info = self._char(font, c)
            if info is None or info[2] == (0, 0, 0, 0):
                continue
            for phase in phases:
                if (info[0], phase) not in self._bitmaps:
                    self._probe(font, info[0], phase)

    def _prefix(self, font, phase: int) -> str | None:
        if self._prefixes is None:                 # breadth first over sums of blank advances, modulo 64
            blanks = []
            for c in _BLANKS:
                info = self._char(font, c)
                if info is not None and info[2] == (0, 0, 0, 0) and info[1] % 64:
                    blanks.append((c, info[1]))
            self._prefixes = {0: ""}
            frontier = [(0, "")]
            while frontier:
                nxt = []
                for residue, text in frontier:
                    for c, advance in blanks:
                        r = (residue + advance) % 64
                        if r not in self._prefixes and len(text) < 8:
                            self._prefixes[r] = text + c
                            nxt.append((r, text + c))
                frontier = nxt
        return self._prefixes.get(phase)

    def _probe(self, font, index: int, phase: int) -> None:
        if len(self._bitmaps) >= self.MAX_BITMAPS:
            self._bitmaps.pop(next(iter(self._bitmaps)))
        prefix = self._prefix(font, phase)
        char = self._index_char.get(index)
        if prefix is None or char is None:
            self._bitmaps[(index, phase)] = None
            return
        xys = font.set_text(prefix + char, 0.0, flags=self.flags)
        pen = int(np.asarray(xys).reshape(-1, 2)[-1, 0])
        font.draw_glyphs_to_bitmap(antialiased=True)
        image = np.asarray(font.get_image())
        x_min = font.get_bitmap_offset()[0]
        width, height = font.get_width_height()
        y_max = height - font.get_descent()
        bx0, by0, bx1, by1 = self._chars[char][2]
        # where FreeType put the glyph's bitmap: its box is the outline's box rounded out to whole pixels
        left, right = (bx0 + pen) // 64, -((-(bx1 + pen)) // 64)
        top, bottom = -((-by1) // 64), by0 // 64
        x = int(left - x_min * (1.0 / 64.0))
        y = int(y_max * (1.0 / 64.0) - top + 1)
        region = image[y:y + top - bottom, x:x + right - left] if x >= 0 and y >= 0 else image[:0, :0]
        whole = image.sum(dtype=np.int64)
        ok = (y + top - bottom <= image.shape[0] and x + right - left <= image.shape[1]
              and region.sum(dtype=np.int64) == whole)
        self._bitmaps[(index, pen % 64)] = (region.copy(), left - pen // 64, top) if ok else None
        if (index, phase) not in self._bitmaps:     # the blanks kerned: that phase stays unknown
            self._bitmaps[(index, phase)] = None


try:
    from matplotlib.ft2font import Kerning as _Kerning
    _KERNING_DEFAULT = _Kerning.DEFAULT
except ImportError:                                  # pragma: no cover - matplotlib < 3.10
    _KERNING_DEFAULT = 0
