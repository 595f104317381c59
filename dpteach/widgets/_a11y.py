"""Screen-reader access to an interactive figure: :class:`FigureAccess`, a small anywidget in its box.

ipywidgets leaves a blind student with a figure without a text alternative and sliders without a name
that announce their log exponent or option index. This widget's front end (``a11y.js``, an anywidget ESM
that uses only the DOM) repairs that for the box it sits in (see the ESM's header): it names each
control after its visible label, makes each slider announce exactly the text its readout shows, sets
the figure image's ``alt`` to :attr:`FigureAccess.alt`, announces that text in a polite live region once
the controls rest, offers the figure's data as a table (a "Data" toggle) and, where a figure has
``points``, a keyboard walk along its curve. WCAG 2.1 success criteria 1.1.1 (text alternatives),
4.1.2 (name, role, value) and 4.1.3 (status messages).

Imported by :mod:`dpteach.widgets` only: ``import dpteach`` stays numpy alone.
"""

from __future__ import annotations

import math
from pathlib import Path

import anywidget
import traitlets

#: The ESM, read once (a string: anywidget watches a file it is given as a path, in a thread)
ESM = (Path(__file__).with_name("a11y.js")).read_text(encoding="utf-8")

#: The most rows a data table shows (the figures' ``data_table`` contract), the most points a series walks
MAX_ROWS, MAX_POINTS = 25, 400


class FigureAccess(anywidget.AnyWidget):
    """The text alternative, data table and explorable points of one figure, synced to its front end.

    Traits (synced): ``alt`` (the figure's text alternative now), ``table`` (``{"caption": str,
    "columns": [str], "rows": [[str]]}`` or empty), ``points`` (a list of series ``{"name", "x", "y",
    "points": [[x, y], ...]}``, empty for most figures), and for a precomputed view ``alts`` (one text
    per frame) with ``index`` (the frame shown, linked in the browser to its slider).
    """

    _esm = ESM
    alt = traitlets.Unicode("").tag(sync=True)
    table = traitlets.Dict().tag(sync=True)
    points = traitlets.List().tag(sync=True)
    alts = traitlets.List(traitlets.Unicode()).tag(sync=True)
    index = traitlets.Int(-1).tag(sync=True)

    def show(self, figure, loop=None) -> None:
        """Bring the traits in step with ``figure`` as it is drawn now (each trait is sent only if it changed).

        The text alternative goes with every frame (it is short: a few tenths of a µs to write). The table and the
        walkable points can cost milliseconds to build and kilobytes to send: with ``loop`` (the kernel's event loop)
        they follow once the controls have rested for :data:`DETAILS_SECONDS`, not on every frame of a drag; without
        one (a plain Python process, a test) at once."""
        alt = str(figure.alt_text()) if hasattr(figure, "alt_text") else ""
        if alt != self.alt:
            self.alt = alt
        pending = getattr(self, "_pending", None)
        if loop is None:
            self.show_details(figure)
            return
        if pending is not None:
            loop.remove_timeout(pending)
        self._pending = loop.call_later(DETAILS_SECONDS, lambda: self.show_details(figure))

    def show_details(self, figure) -> None:
        """The figure's data table and walkable points, as it is drawn now (each sent only if it changed)."""
        self._pending = None
        _, table, points = describe(figure, alt=False)
        if table != self.table:
            self.table = table
        if points != self.points:
            self.points = points


#: How long the controls rest before a figure's table and points are sent (the live region speaks after 500 ms)
DETAILS_SECONDS = 0.25


def describe(figure, alt: bool = True) -> tuple[str, dict, list]:
    """A figure's text alternative, data table and explorable points, each checked against its contract.

    ``alt_text()`` is every figure's (skipped, "", with ``alt=False``); ``data_table()`` and ``explore_points()`` are
    read where a figure has them (None and [] otherwise). A malformed table or series is a ValueError naming the
    figure.
    """
    alt = str(figure.alt_text()) if alt and hasattr(figure, "alt_text") else ""
    table = getattr(figure, "data_table", None)
    table = table() if callable(table) else None
    points = getattr(figure, "explore_points", None)
    points = points() if callable(points) else []
    return alt, check_table(table, figure), check_points(points or [], figure)


def check_table(table, figure=None) -> dict:
    """``table`` as the front end reads it: ``{}`` for None, else caption, columns and rows of strings."""
    if table is None:
        return {}
    where = type(figure).__name__
    if not isinstance(table, dict) or set(table) != {"caption", "columns", "rows"}:
        raise ValueError(f"{where}.data_table() must return None or a dict with keys caption, columns, rows; "
                         f"got {table!r}")
    columns = [str(c) for c in table["columns"]]
    rows = [[str(cell) for cell in row] for row in table["rows"]]
    if not columns or any(len(row) != len(columns) for row in rows) or len(rows) > MAX_ROWS:
        raise ValueError(f"{where}.data_table() must have columns and at most {MAX_ROWS} rows of "
                         f"{len(columns)} cells each, got {len(rows)} rows of lengths {sorted({len(r) for r in rows})}")
    return {"caption": str(table["caption"]), "columns": columns, "rows": rows}


def check_points(points, figure=None) -> list:
    """``points`` as the front end reads it: series of ``{"name", "x", "y", "points": [[x, y], ...]}``, numbers."""
    where = type(figure).__name__
    out = []
    for series in points:
        if not isinstance(series, dict) or not {"name", "x", "y", "points"} <= set(series):
            raise ValueError(f"{where}.explore_points() must return dicts with keys name, x, y, points; got {series!r}")
        pairs = [[float(x), float(y)] for x, y in series["points"]]
        pairs = [p for p in pairs if math.isfinite(p[0]) and math.isfinite(p[1])]    # JSON has no NaN
        if len(pairs) > MAX_POINTS:
            raise ValueError(f"{where}.explore_points() must give at most {MAX_POINTS} points a series, "
                             f"got {len(pairs)} in {series['name']!r}")
        out.append({"name": str(series["name"]), "x": str(series["x"]), "y": str(series["y"]), "points": pairs})
    return out
