"""Example 3.3's data: how many people have each of 10,000 potential first names.

Dwork & Roth (p. 34) release the counts of 10,000 potential first names among the people
of the 2010 census. The Census Bureau never published 2010 first-name counts, so the counts
here are real 1990 frequencies scaled to the 2010 population: the Bureau's 1990 first-name
frequencies, in percent of each sex, times the 2010 census population of that sex, rounded
(see ``data/PROVENANCE.md``). They are not what the 2010 census recorded. Read with the
standard library and numpy only.
"""

from __future__ import annotations

import csv
import functools
import html
import io
from dataclasses import dataclass
from importlib import resources

import numpy as np

from . import _validate

#: 2010 census resident population: men, women, and everyone.
MEN_2010 = 151_781_326
WOMEN_2010 = 156_964_212
POPULATION_2010 = MEN_2010 + WOMEN_2010

#: The book's universe: 10,000 potential first names.
POTENTIAL_NAMES = 10_000

#: How a potential name that no one in the data has is labelled (numbered from 0001).
UNUSED_NAME = "(unused name {:04d})"


@dataclass(frozen=True)
class CensusFirstNames:
    """The true answer of Example 3.3: one count per potential first name.

    Arrays are aligned and read-only, sorted by ``counts`` descending (ties by name); the
    first ``n_listed`` entries are real names, the rest are placeholder names with count 0.

    Attributes
    ----------
    names : numpy.ndarray of str
        Upper-case names as the Census Bureau wrote them, then ``(unused name 0001)``, ….
    counts : numpy.ndarray of int64
        People with the name, men and women together: the histogram x of Example 3.3.
    male, female : numpy.ndarray of int64
        The same by sex: round(percent/100 × 2010 population of that sex).
    male_percent, female_percent : numpy.ndarray of float64
        The Bureau's 1990 frequencies, in percent of each sex (0 where a name is not listed).
    listed : numpy.ndarray of bool
        True for the names on the Bureau's lists, False for the placeholder cells.
    """

    names: np.ndarray
    counts: np.ndarray
    male: np.ndarray
    female: np.ndarray
    male_percent: np.ndarray
    female_percent: np.ndarray
    listed: np.ndarray

    def __len__(self) -> int:
        return len(self.names)

    @property
    def k(self) -> int:
        """The number of cells (potential names): the k of Theorem 3.8."""
        return len(self.names)

    @property
    def n_listed(self) -> int:
        """How many cells hold a real name from the Census lists."""
        return int(self.listed.sum())

    @property
    def total(self) -> int:
        """‖x‖₁: the number of people the listed names cover."""
        return int(self.counts.sum())

    def __repr__(self) -> str:
        return (f"<CensusFirstNames: {self.k:,} potential names, {self.n_listed:,} listed; "
                f"{int(self.male.sum()):,} men + {int(self.female.sum()):,} women = {self.total:,} people>")


def _read_only(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


@functools.lru_cache(maxsize=1)
def census_first_names() -> CensusFirstNames:
    """The names and true counts of Example 3.3 (Dwork & Roth, p. 34): 1990 frequencies, 2010 population.

    The 1990 Census first-name lists (public domain) give each name's frequency in percent
    of each sex; the count of a name is

    .. math:: x_{\\text{name}} = \\mathrm{round}\\left(\\frac{p_{\\text{men}}}{100} \\cdot 151{,}781{,}326\\right)
              + \\mathrm{round}\\left(\\frac{p_{\\text{women}}}{100} \\cdot 156{,}964{,}212\\right)

    using the 2010 population of each sex (308,745,538 in all): real 1990 frequencies scaled
    to the 2010 population, not counts the 2010 census recorded. The lists cover only names
    above a frequency cutoff, about 90% of each sex, so the counts add up to 277,855,949
    people, fewer than the population. The 5,163 listed names are padded to the book's
    10,000 *potential* names with placeholder cells ``(unused name 0001)`` … of true count
    0: names no one in the data has, which the Laplace mechanism still adds noise to.

    The histogram has sensitivity Δf = 1 (each person has one first name), so Theorem 3.8
    with k = 10,000, ε = 1 and δ = 0.05 bounds every released count's error by
    ln(200,000) ≈ 12.2.

    Returns
    -------
    CensusFirstNames
        Read-only arrays, sorted by count, descending; loaded once and cached.

    Examples
    --------
    >>> data = census_first_names()
    >>> data.k, data.n_listed, str(data.names[0]), int(data.counts[0])
    (10000, 5163, 'JAMES', 5051800)
    """
    text = resources.files(__package__).joinpath("data", "census_first_names.csv").read_text(encoding="ascii")
    rows = list(csv.reader(io.StringIO(text)))
    header, body = rows[0], rows[1:]
    if header != ["name", "male_percent", "female_percent", "male", "female", "total"]:
        raise ValueError(f"census_first_names.csv has an unexpected header {header}")
    n_unused = POTENTIAL_NAMES - len(body)
    names = np.array([r[0] for r in body] + [UNUSED_NAME.format(i + 1) for i in range(n_unused)])
    columns = list(zip(*body))
    pad_int, pad_float = np.zeros(n_unused, dtype=np.int64), np.zeros(n_unused)
    male_percent = np.concatenate([np.array(columns[1], dtype=np.float64), pad_float])
    female_percent = np.concatenate([np.array(columns[2], dtype=np.float64), pad_float])
    male = np.concatenate([np.array(columns[3], dtype=np.int64), pad_int])
    female = np.concatenate([np.array(columns[4], dtype=np.int64), pad_int])
    counts = np.concatenate([np.array(columns[5], dtype=np.int64), pad_int])
    listed = np.arange(POTENTIAL_NAMES) < len(body)
    return CensusFirstNames(*(_read_only(a) for a in (names, counts, male, female, male_percent,
                                                      female_percent, listed)))


class Table:
    """A small table that shows as HTML in a notebook and as aligned text elsewhere."""

    def __init__(self, header: list[str], rows: list[list[str]], caption: str = "") -> None:
        self.header, self.rows, self.caption = header, rows, caption

    def __repr__(self) -> str:
        widths = [max(len(str(c)) for c in col) for col in zip(self.header, *self.rows)]
        lines = [self.caption] if self.caption else []
        for row in [self.header, *self.rows]:
            lines.append("  ".join(str(c).rjust(w) for c, w in zip(row, widths)))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self.header)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>"
                       for row in self.rows)
        caption = f"<caption>{html.escape(self.caption)}</caption>" if self.caption else ""
        return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _percent(fraction: float) -> str:
    """A percentage to two significant figures, written out (0.000036%, never 3.6e-05%)."""
    return np.format_float_positional(100 * fraction, precision=2, fractional=False, trim="-") + "%"


def name_table(data: CensusFirstNames, rows=10, **released) -> Table:
    """A table of names with their true counts and one or more released versions (Example 3.3).

    .. math:: \\text{error} = y_i - x_i, \\qquad \\text{relative error} = |y_i - x_i| / x_i

    Parameters
    ----------
    data : CensusFirstNames
        From :func:`census_first_names`.
    rows : int or array_like of int
        An int n shows the n most common names; an array picks cells by index (0-based).
    **released : array_like
        Released counts, one array of length k per keyword (e.g. ``noisy=…,
        published=…``); each becomes a column and so does its error (released − true).
        The first one also gets a relative-error column, |error| / true count (— for a
        name with true count 0, where a relative error means nothing).

    Examples
    --------
    >>> data = census_first_names()
    >>> t = name_table(data, 2, noisy=data.counts + 0.5)
    >>> print(t)
    rank   name  true count        noisy  noisy error  relative error
       1  JAMES   5,051,800  5,051,800.5        +0.50      0.0000099%
       2   JOHN   4,983,603  4,983,603.5        +0.50        0.00001%
    """
    if not isinstance(data, CensusFirstNames):
        raise TypeError(f"data must be the CensusFirstNames from dp.census_first_names(), got {type(data).__name__}")
    if isinstance(rows, (int, np.integer)) and not isinstance(rows, (bool, np.bool_)):
        n = _validate.integer("rows", rows, low=1, high=data.k)
        index = np.arange(n)
    else:
        index = _validate.array("rows", rows, ndim=(1,))
        if (index != np.round(index)).any() or (index < 0).any() or (index >= data.k).any():
            raise ValueError(f"rows must be cell indices in [0, {data.k - 1}], got {_validate._short(index)}")
        index = index.astype(np.int64)
    columns = {}
    for label, values in released.items():
        v = _validate.array(label, values, ndim=(1,))
        if v.shape != (data.k,):
            raise ValueError(f"{label} must have one value per name, length {data.k}, got shape {v.shape}")
        columns[label] = v
    header = ["rank", "name", "true count"]
    for i, label in enumerate(columns):
        header += [label, f"{label} error"] + (["relative error"] if i == 0 else [])
    body = []
    for i in index:
        true = int(data.counts[i])
        row = [f"{i + 1}", str(data.names[i]), f"{true:,}"]
        for j, v in enumerate(columns.values()):
            error = v[i] - true
            row += [f"{v[i]:,.0f}" if v[i] == round(v[i]) else f"{v[i]:,.1f}", f"{error:+.2f}"]
            if j == 0:
                row.append(_percent(abs(error) / true) if true > 0 else "—")
        body.append(row)
    return Table(header, body)
