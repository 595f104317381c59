"""Every figure's colours work without hue and with low vision (WCAG 2.1 1.4.1, 1.4.3 and 1.4.11).

Read from the artists of every figure the workbook draws (each ``dp.widgets`` factory's figure, at its
defaults, and the static figures chapters 01, 02 and 06 show), with the WCAG formulas (relative
luminance, contrast ratio (L1 + 0.05)/(L2 + 0.05)) on each colour as drawn (its alpha composited over
the axes' face):

- the labelled series of one axes (the legend's entries) are pairwise distinguishable without hue: a
  different kind of mark (a line, markers, a filled area), line style, marker or hatch, or a contrast of
  at least 3:1 between them (then they differ in brightness, which every colour vision sees);
- every line, marker and area that carries meaning (labelled, or moved by a slider: ``figure.dynamic``)
  stands at 3:1 or more against the axes' face, an area by its fill or by its edge;
- every text the figure shows stands at 4.5:1 or more against the figure's face.

The rules are :func:`colour_problems`; ``tests/test_figure_text_08_to_11.py`` applies the same rules.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from helpers import control_values, widget_factories
from matplotlib.collections import Collection
from matplotlib.colors import to_rgba
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Text

import dpteach as dp
from dpteach import plots

FACTORIES = widget_factories()

#: the figures chapters 08–11 draw: their colours are figures-b's (``dpteach/plots/{gaussian, noise, …}.py``);
#: the same rules run on them here and in ``tests/test_figure_text_08_to_11.py``
FIGURES_B = ("applications", "dpsgd", "exact_composition", "gaussian", "hypothesis", "local", "noise",
             "reconstruction", "sparse_variants")


# -- WCAG ------------------------------------------------------------------------------------------

def luminance(rgb) -> float:
    """Relative luminance of an sRGB colour (WCAG 2.1): 0.2126 R + 0.7152 G + 0.0722 B, linearised."""
    c = np.asarray(to_rgba(rgb)[:3], dtype=float)
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(linear @ [0.2126, 0.7152, 0.0722])


def contrast(a, b) -> float:
    """WCAG contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def drawn(colour, background, alpha: float | None = None) -> tuple[float, float, float]:
    """A colour as drawn: its alpha (or the artist's, which overrides it) composited over the background."""
    r, g, b, a = to_rgba(colour)
    a = a if alpha is None else alpha * (a if a < 1 else 1.0)
    bg = np.asarray(to_rgba(background)[:3])
    return tuple(a * np.array([r, g, b]) + (1 - a) * bg)


def test_the_wcag_formulas():
    assert contrast("white", "black") == pytest.approx(21.0)
    assert contrast("#777777", "white") == pytest.approx(4.48, abs=0.01)       # WCAG's own example: just under 4.5
    assert contrast("#E69F00", "white") == pytest.approx(2.25, abs=0.01)       # Okabe–Ito orange: too light for a line
    assert drawn("black", "white", alpha=0.5) == pytest.approx((0.5, 0.5, 0.5))


# -- what a figure draws ---------------------------------------------------------------------------

def _visible(artist) -> bool:
    return artist.get_visible() and (artist.axes is None or artist.axes.get_visible())


def _named(artist) -> bool:
    return bool(artist.get_label()) and not artist.get_label().startswith("_")


def _labelled(ax) -> list:
    """The series a legend names: the axes' visible lines, patches and collections with a label, and for a
    labelled bar chart (a container) its first bar, under the container's label."""
    found = [a for a in [*ax.lines, *ax.patches, *ax.collections] if _visible(a) and _named(a)]
    for container in ax.containers:
        bars = [b for b in container if isinstance(b, Patch) and _visible(b)]
        if _named(container) and bars:
            bars[0]._dpteach_series = container.get_label()
            found.append(bars[0])
    return found


def _name(artist) -> str:
    return getattr(artist, "_dpteach_series", None) or (artist.get_label() if _named(artist) else type(artist).__name__)


def _kind_and_marks(artist) -> tuple:
    """What tells a series apart without hue: its kind and its line style, marker and hatch."""
    if isinstance(artist, Line2D):
        style = artist.get_linestyle()
        marker = artist.get_marker()
        style = "none" if style in ("None", "none", " ", "") else style
        marker = "none" if marker in ("None", "none", " ", "", None) else str(marker)
        return ("line" if style != "none" else "markers", style, marker, "")
    hatch = artist.get_hatch() or ""
    filled = artist.get_fill() if isinstance(artist, Patch) else True
    width = artist.get_linewidth() if isinstance(artist, Patch) else np.max(artist.get_linewidth(), initial=0)
    edge = str(artist.get_linestyle()) if width > 0 else "none"
    edge = {"solid": "-", "dashed": "--", "dotted": ":", "dashdot": "-."}.get(edge, edge)
    return ("area" if filled else "outline", edge, "", hatch)


def _colours(artist, face) -> list[tuple]:
    """The colours that draw the artist, as drawn: a line's colour (its markers' if it has no line); an area's
    fill and, if it has one, its edge."""
    alpha = artist.get_alpha()
    if isinstance(artist, Line2D):
        kind = _kind_and_marks(artist)[0]
        if kind == "line":
            return [drawn(artist.get_color(), face, alpha)]
        colours = []
        for c in (artist.get_markerfacecolor(), artist.get_markeredgecolor()):
            if c is not None and not (isinstance(c, str) and c == "none") and to_rgba(c)[3] > 0:
                colours.append(drawn(c, face, alpha))
        if artist.get_markeredgewidth() == 0 and len(colours) == 2:
            colours = colours[:1]
        return colours
    if isinstance(artist, Patch):         # an edge, or a hatch (drawn in the edge's colour), counts
        faces = [artist.get_facecolor()] if artist.get_fill() else []
        edges = [artist.get_edgecolor()] if artist.get_linewidth() > 0 or artist.get_hatch() else []
    elif isinstance(artist, Collection):
        faces = list(artist.get_facecolor())
        edges = (list(artist.get_edgecolor())
                 if np.max(artist.get_linewidth(), initial=0) > 0 or artist.get_hatch() else [])
    else:
        return []
    return [drawn(c, face, alpha) for c in faces + edges if to_rgba(c)[3] > 0]


def _face(ax) -> tuple:
    return drawn(ax.get_facecolor(), "white")


def colour_problems(figure) -> list[str]:
    """Every breach of the three rules above in ``figure`` (a ``dpteach.plots`` figure), as sentences."""
    problems = []
    fig = figure.fig
    dynamic = {id(a) for a in figure.dynamic}
    for i, ax in enumerate(fig.axes):
        if not ax.get_visible():
            continue
        face = _face(ax)
        labelled = _labelled(ax)
        for a, b in itertools.combinations(labelled, 2):
            if _kind_and_marks(a) != _kind_and_marks(b):
                continue
            ca, cb = _colours(a, face), _colours(b, face)
            if ca and cb and max(contrast(x, y) for x in ca for y in cb) >= 3:
                continue
            problems.append(f"axes {i}: {_name(a)!r} and {_name(b)!r} differ by hue alone "
                            f"(same marks, contrast {max((contrast(x, y) for x in ca for y in cb), default=1):.2f})")
        meaningful = {id(a): a for a in labelled}
        meaningful.update({id(a): a for a in [*ax.lines, *ax.patches, *ax.collections]
                           if id(a) in dynamic and _visible(a)})
        for artist in meaningful.values():
            colours = _colours(artist, face)
            best = max((contrast(c, face) for c in colours), default=0.0)
            if best < 3:
                problems.append(f"axes {i}: {_name(artist)!r} at {best:.2f}:1 against the axes (3:1 needed)")
    for text in fig.findobj(Text):
        if not text.get_visible() or not text.get_text().strip() or (text.axes and not text.axes.get_visible()):
            continue
        background = _face(text.axes) if text.axes is not None else drawn(fig.get_facecolor(), "white")
        ratio = contrast(drawn(text.get_color(), background, text.get_alpha()), background)
        if ratio < 4.5:
            problems.append(f"text {text.get_text()[:40]!r} at {ratio:.2f}:1 (4.5:1 needed)")
    return problems


# -- every figure ----------------------------------------------------------------------------------

def _owner(key: str) -> str:
    return "figures-b" if key.split(".")[2] in FIGURES_B else "figures-a"


def test_the_rules_catch_what_they_are_for():
    """Two solid lines told apart by hue alone, an Okabe–Ito orange line (2.25:1), a light band with no edge
    and a light grey note all fail; a dashed second line, a darker line and an edged band pass."""
    from dpteach.plots._base import _Updatable, new_figure

    class Probe(_Updatable):
        def __init__(self, second_style, orange, band_edge, note_colour):
            self.fig, ax = new_figure()
            ax.plot([0, 1], [0, 1], color=plots.PALETTE["blue"], label="a")
            ax.plot([0, 1], [1, 0], color=plots.PALETTE["vermillion"], ls=second_style, label="b")
            ax.plot([0, 1], [0.5, 0.5], color=orange, ls=":", label="c")
            ax.axvspan(0.2, 0.4, facecolor=(1.0, 0.5, 0.0, 0.15), edgecolor=band_edge, lw=1, label="band")
            ax.text(0.5, 0.9, "note", color=note_colour)
            self.dynamic = []

    bad = colour_problems(Probe("-", "#E69F00", "none", "#AAAAAA"))
    assert any("differ by hue alone" in p for p in bad)
    assert any("'c' at 2.25:1" in p for p in bad)
    assert any("'band'" in p for p in bad)
    assert any("'note'" in p for p in bad)
    assert colour_problems(Probe("--", plots.PALETTE["orange"], plots.PALETTE["vermillion"], "black")) == []


@pytest.mark.parametrize("factory", list(FACTORIES.values()), ids=list(FACTORIES))
def test_every_live_figure(factory):
    """At the defaults, then with every control at the far end of its range (notes and bands that only
    show there: a share's band at k > 1, a note that a value left the axes)."""
    w = factory()
    assert colour_problems(w.figure) == []
    w.set(**{name: control_values(c, 2, every_option=True)[-1] for name, c in w.controls.items()})
    assert colour_problems(w.figure) == []


def _static_figures() -> dict:
    """The static figures of chapters 01, 02 and 06, built as the chapters build them."""
    rng = np.random.default_rng(7)
    ages = np.array([23, 35, 47, 61, 70, 84])
    count = dp.neighbour_differences(lambda x: x @ (ages >= 60), ages, max_size=4, min_size=1)
    mean = dp.neighbour_differences(lambda x: (x @ ages) / max(x.sum(), 1), ages, max_size=4, min_size=1)
    budget = dp.PrivacyBudget(1.0)
    budget.spend(0.3, label="count")
    budget.spend(0.2, label="histogram")
    budget.spend(0.1, label="mean")
    return {
        "TailFigure": lambda: plots.TailFigure(rng.laplace(size=2_000), scale=1.0),
        "ChangeBySizeFigure": lambda: plots.ChangeBySizeFigure({"mean age": mean, "count of 60+": count}),
        "BudgetFigure": lambda: plots.BudgetFigure(budget),
    }


STATIC = _static_figures()


@pytest.mark.parametrize("build", list(STATIC.values()), ids=list(STATIC))
def test_every_static_figure(build):
    assert colour_problems(build()) == []
