"""Every figure of chapters 00–07 speaks: a text alternative written from its data, a data table, and for the
key figures a curve to walk with the arrow keys (``_Updatable.alt_text``, ``data_table``, ``explore_points``).

Each ``dp.widgets`` factory of these chapters is driven through :meth:`Interactive.set`, as a student's
slider would: the text alternative names a number the title or a note shows, carries no mathtext, and
changes whenever a control changes the numbers the figure shows. The static figures the chapters show
(the tail, the change by size, the budget) are built as the chapters build them. The figures' own text,
for the book and JupyterLab, is their ``text/html`` output: the PNG with that ``alt``, and a native
``<details>`` table. Exact checks compute the expected numbers from the formulas, not from the figures.
"""

from __future__ import annotations

import base64
import html
import re
import statistics
import time
from pathlib import Path

import numpy as np
import pytest
from helpers import ROOT, control_values, widget_factories
from test_figure_colours import FIGURES_B, STATIC

from dpteach import widgets

FACTORIES = {key: f for key, f in widget_factories().items() if key.split(".")[2] not in FIGURES_B}
#: the key figures a blind student walks with the arrow keys
EXPLORED = ("laplace_density", "privacy_loss", "accuracy_bound", "attack_success")
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?%?")
MATHTEXT = re.compile(r"\$|\\|\^\{|_\{|\\varepsilon|\\Delta")


def shown_text(figure) -> str:
    """What the figure writes now beyond its axes: titles and notes (not tick labels, not legends)."""
    texts = []
    for ax in figure.fig.axes:
        if not ax.get_visible():
            continue
        texts += [ax.title, ax._left_title, ax._right_title]
        texts += [t for t in ax.texts]
    texts += list(figure.fig.texts)
    return "\n".join(t.get_text() for t in texts if t.get_visible() and t.get_text().strip())


def check_alt(figure) -> str:
    alt = figure.alt_text()
    assert isinstance(alt, str) and alt.strip(), "empty text alternative"
    assert not MATHTEXT.search(alt), f"mathtext in the text alternative: {alt!r}"
    assert not alt.startswith("Figure: "), f"the default (titles and axes only): {alt!r}"
    numbers = set(NUMBER.findall(shown_text(figure)))
    if numbers:
        assert any(re.search(rf"(?<![\d.]){re.escape(n)}(?![\d])", alt) for n in numbers), \
            f"names none of the numbers the figure shows ({sorted(numbers)}): {alt!r}"
    sentences = [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", alt) if s.strip()]
    assert len(sentences) <= 3, f"{len(sentences)} sentences: {alt!r}"
    return alt


def check_table(table) -> None:
    assert isinstance(table, dict) and set(table) == {"caption", "columns", "rows"}, table
    assert isinstance(table["caption"], str) and table["caption"].strip()
    columns, rows = table["columns"], table["rows"]
    assert columns and all(isinstance(c, str) and c for c in columns)
    assert 1 <= len(rows) <= 25, f"{len(rows)} rows"
    for row in rows:
        assert len(row) == len(columns), row
        assert all(isinstance(c, str) for c in row), row
        assert not any(MATHTEXT.search(c) for c in row), row


def check_points(series: list) -> None:
    assert isinstance(series, list)
    for s in series:
        assert set(s) == {"name", "x", "y", "points"} and all(isinstance(s[k], str) and s[k] for k in ("name", "x", "y"))
        assert 2 <= len(s["points"]) <= 81, len(s["points"])
        assert all(len(p) == 2 and all(type(v) is float and np.isfinite(v) for v in p) for p in s["points"])
        xs = [p[0] for p in s["points"]]
        assert xs == sorted(xs), "the points are walked left to right"


def other_value(control):
    values = control_values(control, 3, every_option=False)
    return next(v for v in reversed(values) if v != control.value)


@pytest.mark.parametrize("factory", list(FACTORIES.values()), ids=list(FACTORIES))
def test_a_live_figure_speaks_and_follows_its_sliders(factory):
    w = factory()
    figure = w.figure
    before_alt, before_shown = check_alt(figure), shown_text(figure)
    check_table(figure.data_table())
    check_points(figure.explore_points())
    for name, control in w.controls.items():
        w.set(**{name: other_value(control)})
        alt, shown = check_alt(figure), shown_text(figure)
        check_table(figure.data_table())
        if shown != before_shown:
            assert alt != before_alt, f"{name} = {control.value!r} changed the figure's numbers, not its text alternative"
        w.reset()
    assert figure.alt_text() == before_alt


@pytest.mark.parametrize("build", list(STATIC.values()), ids=list(STATIC))
def test_a_static_figure_speaks(build):
    figure = build()
    check_alt(figure)
    check_table(figure.data_table())


@pytest.mark.parametrize("name", EXPLORED)
def test_the_key_figures_can_be_walked(name):
    """Each key figure offers at least one curve of 2–81 points, and the points follow the slider."""
    w = getattr(widgets, name)()
    series = w.figure.explore_points()
    assert series, f"{name} offers no curve to walk"
    check_points(series)
    if name == "accuracy_bound":            # drawn in noise scales b: ε moves the numbers, k the curve
        w.set(k=100)
    else:
        w.set(epsilon=3.0)
    moved = w.figure.explore_points()
    check_points(moved)
    if name != "attack_success":            # the attack's curves are the same at every ε (only the marker moves)
        assert moved != series


def test_the_attack_figure_names_its_result():
    """At ε = 1: the best test against Laplace 1 − ½e^(−ε/2) = 69.7%, any ε-DP at most e^ε/(1 + e^ε) = 73.1%."""
    w = widgets.attack_success()
    for eps in (1.0, 0.1):
        w.set(epsilon=eps)
        alt = w.figure.alt_text()
        assert f"best guess is right {100 * (1 - 0.5 * np.exp(-eps / 2)):.1f}% of the time against Laplace" in alt
        assert f"no ε-DP mechanism allows more than {100 * np.exp(eps) / (1 + np.exp(eps)):.1f}%" in alt
        assert f"ε = {eps:g}" in alt and f"× {np.exp(eps):.3g} at most" in alt


def test_the_laplace_density_names_its_scale_and_spread():
    w = widgets.laplace_density()
    w.set(epsilon=0.5, sensitivity=2.0)
    b = 2.0 / 0.5
    alt = w.figure.alt_text()
    assert f"b = Δf/ε = {b:.3g}" in alt and f"±{np.log(20) * b:.3g}" in alt and f"{np.sqrt(2) * b:.3g}" in alt
    density = w.figure.explore_points()[0]["points"]
    peak = max(y for _, y in density)
    assert peak == pytest.approx(1 / (2 * b), rel=1e-9)              # Lap(b)'s density at 0, a point of the walk


def test_the_privacy_loss_says_when_it_leaves_the_band():
    w = widgets.privacy_loss()
    w.set(epsilon=0.5)
    assert "never leaves [−ε, ε]" in w.figure.alt_text()
    w.set(understate=True)
    alt = w.figure.alt_text()
    assert "outside [−ε, ε]" in alt and "±1 = ±2ε" in alt                 # noise Δf/(2ε): the loss reaches 2ε = 1
    table = w.figure.data_table()
    assert max(abs(float(row[4])) for row in table["rows"]) == pytest.approx(2.0)


def test_the_accuracy_bound_names_the_bound_and_the_releases_beyond_it():
    w = widgets.accuracy_bound()
    w.set(k=100, beta=0.01, epsilon=0.5)
    bound = np.log(100 / 0.01) / 0.5
    result = w.result
    alt = w.figure.alt_text()
    assert f"{bound:.3g}" in alt and f"{result['beyond']} of 500" in alt
    assert sum(int(row[2]) for row in w.figure.data_table()["rows"]) == 500 - int((w.figure.max_unit[:, 6] > 18).sum())


def test_text_alternatives_are_cheap():
    """alt_text runs on every slider frame: it formats numbers kept by update, it does not recompute them."""
    slowest = {}
    for key, factory in FACTORIES.items():
        figure = factory().figure
        times = []
        for _ in range(30):
            start = time.perf_counter()
            figure.alt_text()
            times.append(time.perf_counter() - start)
        slowest[key] = statistics.median(times) * 1000
    assert max(slowest.values()) < 2.0, slowest        # milliseconds; ~0.1 ms measured, far from a recomputation


# -- the notebook output ---------------------------------------------------------------------------

SANITIZE = ROOT / "tests" / "nbval_sanitize.cfg"


def sanitized(text: str) -> str:
    """``text`` as nbval compares it with the project's sanitize file (its regex/replace pairs in order)."""
    pairs = re.findall(r"^regex: (.*)$\n^replace: (.*)$", SANITIZE.read_text(), flags=re.MULTILINE)
    assert pairs
    for regex, replace in pairs:
        text = re.sub(regex, replace, text)
    return text


def test_a_static_figure_keeps_its_text_in_jupyterlab():
    """The text/html output: the PNG with the alt text (JupyterLab drops a PNG's alt metadata), then a
    native <details> Data table; the image/png output keeps its alt metadata for the book."""
    from IPython.core.formatters import DisplayFormatter

    figure = STATIC["BudgetFigure"]()
    data, metadata = DisplayFormatter().format(figure)
    alt = figure.alt_text()
    assert metadata["image/png"]["alt"] == alt
    page = data["text/html"]
    match = re.match(r'<img alt="([^"]*)" [^>]*src="data:image/png;base64,([A-Za-z0-9+/=]+)">', page)
    assert match and html.unescape(match.group(1)) == alt
    assert base64.b64decode(match.group(2)).startswith(b"\x89PNG") and match.group(2) == data["image/png"]
    details = page[match.end():]
    assert details.startswith("<details><summary>Data</summary><table><caption>") and details.endswith("</details>")
    table = figure.data_table()
    assert details.count("<tr>") == 1 + len(table["rows"])
    assert all(f'<th scope="col">{html.escape(c)}</th>' in details for c in table["columns"])
    assert "<script" not in page


def test_nbval_compares_the_text_not_the_pixels():
    """The same figure drawn at another size has other pixels: sanitized, its text/html is the same, and a
    figure with other data still differs."""
    from IPython.core.formatters import DisplayFormatter

    one = STATIC["TailFigure"]()
    first = DisplayFormatter().format(one)[0]["text/html"]
    one.fig.set_size_inches(5, 3)
    second = DisplayFormatter().format(one)[0]["text/html"]
    assert first != second and sanitized(first) == sanitized(second)
    assert "base64," in sanitized(first) and not re.search(r"base64,[A-Za-z0-9+/]{40}", sanitized(first))
    three = STATIC["ChangeBySizeFigure"]()
    assert sanitized(DisplayFormatter().format(three)[0]["text/html"]) != sanitized(first)


def test_pytest_runs_nbval_with_the_sanitize_file():
    text = (ROOT / "pyproject.toml").read_text()
    assert f'"--nbval-sanitize-with={SANITIZE.relative_to(ROOT).as_posix()}"' in text
    assert Path(SANITIZE).exists()
