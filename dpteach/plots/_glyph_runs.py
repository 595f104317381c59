"""A line of plain text as matplotlib 3.11's Agg renderer draws it, laid out and rasterised once.

matplotlib 3.11 shapes a line with libraqm (HarfBuzz): ``RendererAgg.get_text_width_height_descent``
calls ``FT2Font.set_text`` to measure it, and ``draw_text`` lays it out again (``FT2Font._layout``)
and then, glyph by glyph, moves the glyph to its exact sub-pixel place (``FT2Font._set_transform``,
1/64 px), rasterises it (``FT2Font._render_glyph``) and blends it into the canvas
(``draw_text_image``). A slider's title carries the slider's value, so on a first drag nearly every
line is new, and two layouts and a rasterisation per glyph are most of a frame.

:class:`GlyphRuns` (one per font file, size, dpi and hinting) keeps what does not depend on the line:

* each character's glyph index, hinted advance and box (``FT2Font.load_char``);
* the pen's step between each *pair* of neighbours in a run of one script, read from ``FT2Font.set_text``
  of a line holding the pair (its kerning, as HarfBuzz applies it); libraqm splits a line into runs of
  one script (a digit or a sign takes the script before it: :func:`script_runs`) and HarfBuzz shapes
  each alone, so no kerning crosses a change of script (Greek ε, then Latin); a pair HarfBuzz shapes
  into one glyph (a ligature: "fi", "ffl") becomes one token, its glyph named once by ``FT2Font._layout``;
* each glyph's bitmap per sub-pixel phase of its place (x and y modulo one pixel, in 1/64 px),
  rendered by the same two calls matplotlib makes: moving a glyph by whole pixels moves its bitmap
  by whole pixels, so the bitmap kept for one place serves every place with the same phase.

A line is then laid out by adding advances and pair steps (the pens ``set_text`` gives, and its
width, height and descent: the advance, and the union of the glyphs' boxes), and drawn by blending
each glyph's kept bitmap where ``draw_text`` would blend the same bitmap. Lines matplotlib lays out
otherwise, or that this cannot follow (a character the primary font lacks, so a fallback font; a
letter of a script other than Latin and Greek, or a mark; mathtext; TeX; font features or a language
set on the text) are drawn by matplotlib. Tests compare the layouts with
``set_text``'s for thousands of strings, and the frames with matplotlib's full draws, pixel for pixel.
"""

from __future__ import annotations

import math
import unicodedata

import numpy as np
from matplotlib.backends.backend_agg import get_hinting_flag
from matplotlib.font_manager import findfont, get_font

try:
    from matplotlib.ft2font import RenderMode
except ImportError:                                  # pragma: no cover - matplotlib < 3.11: never used there
    RenderMode = None

__all__ = ["PRIVATE_NAMES", "GlyphRuns", "RunsOnce", "glyph_runs", "warm"]

#: the private matplotlib 3.11 names this module calls (tests/test_render_glyph_runs.py checks each exists
#: and that the frames they draw equal matplotlib's own)
PRIVATE_NAMES = ("FT2Font._set_transform", "FT2Font._render_glyph", "FT2Font._layout",
                 "RendererAgg._renderer.draw_text_image")

#: libraqm's paired characters (raqm.c, paired_chars: each opening one, then its closing one); a closing one
#: takes the script of its opening one
_PAIRED = "()<>[]{}«»‘’“”‹›〈〉《》「」『』【】〔〕〖〗〘〙〚〛"
_PAIR = {c: (i // 2, i % 2 == 0) for i, c in enumerate(_PAIRED)}
#: paired in newer libraqm releases only (raqm.c's longer table): where the release matplotlib bundles may
#: differ, a line with one is left to matplotlib
_PAIRED_IN_SOME = set("༺༻༼༽᚛᚜⁅⁆⁽⁾₍₎⟦⟧⟨⟩⟪⟫⟬⟭⟮⟯⦃⦄⦅⦆⦇⦈⦉⦊⦋⦌⦍⦎⦏⦐⦑⦒⦓⦔⦕⦖⦗⦘⧼⧽⸂⸃⸄⸅⸉⸊⸌⸍⸜⸝⸠⸡⸢⸣⸤⸥⸦⸧⸨⸩（）［］｛｝｟｠｢｣")


def _script(c: str) -> str | None:
    """The Unicode script of ``c`` as HarfBuzz gives it, for the characters whose script this can tell: Latin and
    Greek letters, and "Common" for digits, punctuation, symbols and spaces; None for any other (a mark, a letter
    of another script), which leaves its line to matplotlib."""
    if c < "\x80":
        return "Latn" if c.isalpha() else "Zyyy"
    if c in _PAIRED_IN_SOME:
        return None
    category = unicodedata.category(c)
    if category[0] not in "LM":
        return "Zyyy"
    if category[0] == "L":
        name = unicodedata.name(c, "")
        if name.startswith("LATIN "):
            return "Latn"
        if name.startswith("GREEK "):
            return "Grek"
    return None


def script_runs(s: str) -> list | None:
    """Each character's script as libraqm resolves it before shaping (raqm.c, _raqm_resolve_scripts): a Common
    character takes the script before it (a closing bracket, its opening one's), leading ones the first
    strong script. HarfBuzz shapes each run of one script alone, so no kerning crosses a change of script.
    None if a character's script is not one :func:`_script` tells."""
    scripts = [_script(c) for c in s]
    if None in scripts:
        return None
    last_index = last_set = -1
    last = None
    stack: list = []
    for i, c in enumerate(s):
        if scripts[i] == "Zyyy" and last_index != -1:
            pair = _PAIR.get(c)
            if pair is not None and pair[1]:
                scripts[i] = last
                stack.append((last, pair[0]))
            elif pair is not None:
                while stack and stack[-1][1] != pair[0]:
                    stack.pop()
                if stack:
                    scripts[i] = last = stack[-1][0]
                else:
                    scripts[i] = last
            else:
                scripts[i] = last
            last_set = i
        else:
            for j in range(last_set + 1, i):
                scripts[j] = scripts[i]
            last, last_index, last_set = scripts[i], i, i
    for i in range(len(s) - 2, -1, -1):
        if scripts[i] == "Zyyy":
            scripts[i] = scripts[i + 1]
    return scripts


class GlyphRuns:
    """The glyph metrics, pair steps and per-phase bitmaps of one font face at one size, dpi and hinting.

    ``font`` is an ``FT2Font`` of that face (its primary face is the only one used), given on every
    call, and shared with matplotlib (``get_font`` caches it), which leaves it as its last user set it
    (a text path, at 100 pt): its size is set here before each use (which also clears any transform).
    """

    #: bitmaps kept (a glyph meets up to 64 × 64 phases; a slider's text, a few hundred; :meth:`fill`, its
    #: characters at every x phase of its row)
    MAX_BITMAPS = 8192

    def __init__(self, size: float, dpi: float, flags) -> None:
        self.size, self.dpi, self.flags = size, dpi, flags
        #: character or ligature -> (glyph index, advance, box (xmin, ymin, xmax, ymax)), all 26.6; None: not in the
        #: face, or not a ligature
        self._chars: dict = {}
        #: (left token, right token, their run's script) -> the pen's step from left to right beyond left's advance
        #: (HarfBuzz's kerning); None: shaped together
        self._steps: dict = {}
        #: (glyph index, x phase, y phase, antialiased) -> (bitmap, left, top) for a pen at whole pixel 0, 0
        self._bitmaps: dict = {}
        #: first character -> the ligatures HarfBuzz makes starting with it ("fi", "ffi"), longest first
        self._ligatures: dict = {}
        #: the scripts in whose runs the pairs of numbers were learnt (:func:`warm`)
        self.warmed: set = set()
        #: (y phase, antialiased, angle) of the lines drawn since :func:`warm` last emptied it: where :meth:`fill`
        #: renders a text's glyphs at every x phase
        self.rows: set = set()

    def _char(self, font, c: str):
        info = self._chars.get(c, False)
        if info is False:
            index = font.get_char_index(ord(c))
            if index == 0:
                info = None                          # matplotlib takes it from a fallback font
            else:
                font.set_size(self.size, self.dpi)    # matplotlib's last user may have left another size
                glyph = font.load_char(ord(c), flags=self.flags)
                info = (index, glyph.horiAdvance, tuple(glyph.bbox))
            self._chars[c] = info
        return info

    def _tokens(self, s: str) -> list:
        """``s`` cut into what HarfBuzz makes one glyph of: the ligatures learnt (longest first), else characters."""
        ligatures, out, i = self._ligatures, [], 0
        while i < len(s):
            token = next((lig for lig in ligatures.get(s[i], ()) if s.startswith(lig, i)), s[i])
            out.append((token, i))
            i += len(token)
        return out

    def _info(self, font, token: str):
        return self._chars.get(token) if len(token) > 1 else self._char(font, token)

    def _step(self, font, left: str, right: str, script: str):
        """The pen's step between tokens ``left`` and ``right`` in a run of ``script``, from ``set_text`` of the
        pair after a letter of that script (None: HarfBuzz shapes them into one glyph)."""
        pair = (left, right, script)
        step = self._steps.get(pair, False)
        if step is False:
            prefix = {"Latn": "x", "Grek": "α"}.get(script, "")
            s = prefix + left + right
            font.set_size(self.size, self.dpi)
            pens = np.asarray(font.set_text(s, 0.0, flags=self.flags)).reshape(-1, 2)
            scripts = script_runs(s)
            step = None
            if len(pens) == len(prefix) + 2 and not pens[:, 1].any() and scripts[-1] == scripts[-2] == script:
                step = int(pens[-1, 0] - pens[-2, 0]) - self._info(font, left)[1]
            self._steps[pair] = step
        return step

    def _ligature(self, font, token: str, script: str) -> bool:
        """Whether HarfBuzz shapes ``token`` into one glyph (a ligature: "fi"); if so, keep it as a token (its glyph
        from ``FT2Font._layout``, which names the glyph a cluster became; its metrics from ``load_glyph``)."""
        if token in self._chars:
            return self._chars[token] is not None
        prefix = {"Latn": "x", "Grek": "α"}.get(script, "")
        font.set_size(self.size, self.dpi)
        items = font._layout(prefix + token, flags=self.flags)
        info = None
        if len(items) == len(prefix) + 1 and items[-1].char == token and not items[-1].y:
            glyph = font.load_glyph(items[-1].glyph_index, flags=self.flags)
            info = (items[-1].glyph_index, glyph.horiAdvance, tuple(glyph.bbox))
            self._ligatures[token[0]] = sorted({*self._ligatures.get(token[0], ()), token}, key=len, reverse=True)
        self._chars[token] = info
        return info is not None

    def learn(self, font, s: str) -> None:
        """Keep the pair steps of ``s`` from one ``set_text`` of it (one call teaches a whole line's pairs; a pair
        shaped into one glyph not yet known, or a character the face lacks, teaches nothing here)."""
        scripts = script_runs(s)
        if scripts is None:
            return
        tokens = self._tokens(s)
        infos = [self._info(font, t) for t, _ in tokens]
        if None in infos:                                 # a fallback glyph: the line is matplotlib's
            return
        font.set_size(self.size, self.dpi)
        pens = np.asarray(font.set_text(s, 0.0, flags=self.flags)).reshape(-1, 2)
        if len(pens) != len(tokens) or pens[:, 1].any():
            return
        x = pens[:, 0].astype(np.int64).tolist()
        for k in range(1, len(tokens)):
            (left, _), (right, j) = tokens[k - 1], tokens[k]
            if scripts[j - 1] == scripts[j]:
                self._steps.setdefault((left, right, scripts[j]), x[k] - x[k - 1] - infos[k - 1][1])

    def layout(self, font, s: str):
        """``(glyphs, width, height, descent)`` of a line as ``font.set_text(s)`` lays it out (pixels), with
        ``glyphs`` the (glyph index, pen x in 1/64 px) of each inked glyph; None where matplotlib must."""
        if not s:
            return None
        scripts = script_runs(s)
        if scripts is None:
            return None
        for _ in range(4):                                # again after learning a ligature ("f" + "f" + "i")
            line = self._layout(font, s, scripts)
            if line is not _AGAIN:
                return line
        return None

    def _layout(self, font, s: str, scripts: list):
        font.set_size(self.size, self.dpi)
        chars, steps = self._chars, self._steps
        pen, previous, glyphs, learned = 0, None, [], False
        y_min, y_max = 32000, -32000                  # FT2Font's bbox: the union of every glyph's (a blank's is 0)
        for token, i in self._tokens(s):
            info = chars.get(token, False)
            if info is False:
                info = self._char(font, token)
            if info is None:
                return None
            # libraqm's runs: a token's script is its first character's, and a ligature's characters share one
            if len(token) > 1 and len(set(scripts[i:i + len(token)])) > 1:
                return None
            if previous is not None and scripts[i - 1] == scripts[i]:     # across scripts: no kerning
                pair = (previous, token, scripts[i])
                step = steps.get(pair, False)
                if step is False and not learned:       # a new pair: one set_text of the line teaches all of them
                    self.learn(font, s)
                    learned = True
                    step = steps.get(pair, False)
                if step is False:                       # not learnt from the line (shaped with a neighbour?)
                    step = self._step(font, *pair)
                if step is None:                        # shaped together: a ligature to learn, or matplotlib's
                    return _AGAIN if self._ligature(font, previous + token, scripts[i]) else None
                pen += step
            index, advance, (_x0, y0, _x1, y1) = info
            if y0 < y_min:
                y_min = y0
            if y1 > y_max:
                y_max = y1
            if (_x0, y0, _x1, y1) != (0, 0, 0, 0):
                glyphs.append((index, pen))
            pen += advance
            previous = token
        if y_min > y_max:
            y_min = y_max = 0
        return glyphs, pen / 64.0, (y_max - y_min) / 64.0, -y_min / 64.0

    def draw(self, renderer, font, gc, x: float, y: float, angle: float, glyphs) -> None:
        """Blend a laid-out line into ``renderer`` (a RendererAgg) where ``draw_text(gc, x, y, ..., angle)``
        blends it: each glyph moved to its place (1/64 px, matplotlib's own arithmetic) and rasterised as
        matplotlib rasterises it, or its bitmap for that place's sub-pixel phase pasted."""
        antialiased = bool(gc.get_antialiased())
        cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        transform = _transforms.get(angle)
        if transform is None:
            transform = _transforms[angle] = (0x10000 * np.array([[cos, -sin], [sin, cos]])
                                              @ [[1, 1 * 0], [0, 1]]).round().astype(int)
        agg, height, canvas_height = renderer._renderer, renderer.height, int(renderer.height)
        bitmaps, sized, dy = self._bitmaps, False, 0.0
        if angle == 0:
            self.rows.add((round(0x40 * (height - y)) & 63, antialiased, angle))
        for index, pen in glyphs:
            dx = pen / 64.0
            px, py = round(0x40 * (x + dx * cos - dy * sin)), round(0x40 * (height - y + dx * sin + dy * cos))
            key = (index, px & 63, py & 63, antialiased, angle)
            kept = bitmaps.get(key)
            if kept is None:
                if not sized:
                    font.set_size(self.size, self.dpi)
                    sized = True
                kept = self._keep(font, transform, key, px, py)
            buffer, left, top = kept
            if buffer.size:
                agg.draw_text_image(buffer, left + (px >> 6), canvas_height - (top + (py >> 6)) + buffer.shape[0], 0, gc)


    def _keep(self, font, transform, key, px: int, py: int):
        """Rasterise glyph ``key[0]`` with its pen at ``(px, py)`` (26.6) as matplotlib does, and keep its bitmap
        under ``key`` (the oldest kept makes room) as ``(bitmap, left, top)`` for a pen at whole pixel 0, 0."""
        antialiased = key[3]
        font._set_transform(transform, [px, py])
        bitmap = font._render_glyph(key[0], self.flags, RenderMode.NORMAL if antialiased else RenderMode.MONO)
        buffer = np.array(bitmap.buffer, dtype=np.uint8)
        if not antialiased:
            buffer *= 0xff
        if len(self._bitmaps) >= self.MAX_BITMAPS:
            self._bitmaps.pop(next(iter(self._bitmaps)))
        kept = self._bitmaps[key] = (buffer, bitmap.left - (px >> 6), bitmap.top - (py >> 6))
        return kept

    def fill(self, font, text: str, rows) -> None:
        """Render the glyphs of ``text``'s characters at each of the 64 x phases of each of ``rows`` (horizontal
        rows :meth:`draw` recorded in :attr:`rows`: (y phase, antialiased, angle)), as :meth:`draw` would render
        them there: a line whose numbers change moves the glyphs after them by any 1/64 px, and a first drag
        then pastes them instead of rasterising each. The oldest bitmaps make room, as in :meth:`draw`; a text
        that would need more than half of :data:`MAX_BITMAPS` is left to its frames."""
        indices = {info[0] for info in (self._char(font, c) for c in set(text)) if info is not None}
        if not rows or 64 * len(indices) * len(rows) > self.MAX_BITMAPS // 2:
            return
        font.set_size(self.size, self.dpi)
        bitmaps = self._bitmaps
        for y_phase, antialiased, angle in rows:
            transform = _transforms.get(angle)
            if transform is None:
                continue
            for index in indices:
                for x_phase in range(64):
                    key = (index, x_phase, y_phase, antialiased, angle)
                    if key in bitmaps:
                        continue
                    self._keep(font, transform, key, x_phase, y_phase)


#: layout found a new ligature: cut the line again
_AGAIN = object()
#: the 16.16 matrices matplotlib gives FreeType for an unslanted glyph, by angle
_transforms: dict = {}


#: GlyphRuns by font file, size, dpi and hinting (shared by every figure)
_RUNS: dict = {}


def glyph_runs(prop, dpi: float) -> tuple[GlyphRuns, object]:
    """The GlyphRuns of ``prop``'s face (``findfont``: the primary face matplotlib draws it with) at ``dpi``,
    and an FT2Font of that face."""
    path = findfont(prop)
    key = (path, prop.get_size_in_points(), dpi, get_hinting_flag())
    runs = _RUNS.get(key)
    if runs is None:
        if len(_RUNS) >= 64:
            _RUNS.pop(next(iter(_RUNS)))
        runs = _RUNS[key] = GlyphRuns(prop.get_size_in_points(), dpi, get_hinting_flag())
    return runs, get_font(path)


class RunsOnce:
    """Within one ``Text.draw`` on matplotlib 3.11's Agg renderer, lay each plain line out once, from
    :class:`GlyphRuns`, and draw it from kept glyph bitmaps.

    ``Text.draw`` measures its lines (``get_text_width_height_descent``), then draws each (``draw_text``).
    Here both are answered from one layout, kept in ``lines`` (bounded; the caller's, so kept across
    frames): the same width, height and descent as ``FT2Font.set_text``, the same glyphs at the same
    places as ``draw_text``. A line GlyphRuns leaves to matplotlib is measured and drawn by matplotlib.
    """

    #: lines kept
    MAX_LINES = 1024

    def __init__(self, renderer, lines: dict) -> None:
        self.renderer = renderer
        self.lines = lines

    def _line(self, s: str, prop):
        key = (s, hash(prop), prop.get_size_in_points(), self.renderer.dpi, get_hinting_flag())
        line = self.lines.get(key, False)
        if line is False:
            runs, font = glyph_runs(prop, self.renderer.dpi)
            layout = runs.layout(font, s)
            line = None if layout is None else (runs, font, *layout)
            if len(self.lines) >= self.MAX_LINES:
                self.lines.pop(next(iter(self.lines)))
            self.lines[key] = line
        return line

    def __enter__(self) -> RunsOnce:
        r = self.renderer
        measure, draw = r.get_text_width_height_descent, r.draw_text

        def get_text_width_height_descent(s, prop, ismath):
            line = self._line(s, prop) if ismath is False else None
            return measure(s, prop, ismath) if line is None else line[3:]

        def draw_text(gc, x, y, s, prop, angle, ismath=False, mtext=None):
            line = None
            if not ismath and (mtext is None or (mtext.get_fontfeatures() is None
                                                                and mtext.get_language() is None)):
                line = self._line(s, prop)
            if line is None:
                return draw(gc, x, y, s, prop, angle, ismath, mtext)
            runs, font, glyphs = line[:3]
            runs.draw(r, font, gc, x, y, angle, glyphs)

        r.get_text_width_height_descent, r.draw_text = get_text_width_height_descent, draw_text
        return self

    def __exit__(self, *exc) -> None:
        del self.renderer.get_text_width_height_descent, self.renderer.draw_text


def _de_bruijn(alphabet: str) -> str:
    """A string in which every ordered pair of ``alphabet``'s characters stands side by side once (order 2)."""
    k, out, a = len(alphabet), [], [0] * 3

    def visit(t: int, p: int) -> None:
        if t > 2:
            if 2 % p == 0:
                out.extend(a[1:p + 1])
            return
        a[t] = a[t - p]
        visit(t + 1, p)
        for j in range(a[t - p] + 1, k):
            a[t] = j
            visit(t + 1, t)

    visit(1, 1)
    return "".join(alphabet[i] for i in out) + alphabet[out[0]]


#: what a slider's numbers are made of
_NUMBER_CHARS = "0123456789.,−-+%×=:() ⁻"
#: every pair of them, side by side: one set_text teaches all their steps
_NUMBERS = _de_bruijn(_NUMBER_CHARS)


def warm(texts, renderer) -> None:
    """Learn the glyphs and pair steps of each text's lines and of numbers (a slider's texts keep their words
    and change their numbers), so that a first drag lays its lines out without FreeType; then draw each text
    once (the frame that follows paints over it) and render its characters' and the numbers' glyphs at every x
    phase of its row (:meth:`GlyphRuns.fill`), so that a first drag rasterises none."""
    for text in texts:
        if not text.get_text():
            continue
        runs, font = glyph_runs(text.get_fontproperties(), renderer.dpi)
        for line in text.get_text().split("\n"):
            scripts = script_runs(line) if line else None
            if scripts is None:
                continue
            runs.learn(font, line)
            for script in set(scripts) - runs.warmed:      # numbers in a run of each script the text has
                runs.learn(font, {"Latn": "x", "Grek": "α"}.get(script, "") + _NUMBERS)
                runs.warmed.add(script)
    with RunsOnce(renderer, {}):
        for text in texts:
            if text.get_text() and text.get_visible():
                runs, font = glyph_runs(text.get_fontproperties(), renderer.dpi)
                runs.rows = set()           # the rows of this text alone
                text.draw(renderer)
                runs.fill(font, text.get_text().replace("\n", "") + _NUMBER_CHARS, runs.rows)
