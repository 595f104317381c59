"""A tiny curator: a query system with a budget manager (Dwork & Roth's trusted curator, §2.1).

The curator holds a private table and answers an analyst's questions about it, each with
the Laplace mechanism, charging every answer to a :class:`~dpteach.budget.PrivacyBudget`.
When the next answer would overspend, it refuses. Its API never hands out the rows: queries
are *described* (which column, which condition), not programmed, because a function handed
to the curator could copy the data out. (Python cannot lock an attribute away; the table
sits in ``_columns`` and the API simply offers no way to it.)
"""

from __future__ import annotations

import html
import numbers
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from . import _validate
from .budget import BudgetExceeded, PrivacyBudget
from .census import census_first_names
from .laplace import laplace_mechanism, laplace_scale

#: The districts of :func:`synthetic_town`, and how many of its people live in each.
DISTRICTS = ("north", "south", "east", "west", "centre")
_DISTRICT_SHARES = (0.30, 0.25, 0.20, 0.15, 0.10)


def synthetic_town(n: int = 2_000, rng: np.random.Generator | None = None) -> dict[str, np.ndarray]:
    """A synthetic town of n people, one row each, for the curator to hold.

    Columns:

    - ``first_name``: drawn from the 1990 census first-name frequencies
      (:func:`~dpteach.census_first_names`, men and women together);
    - ``age``: whole years, 0–99;
    - ``district``: one of :data:`DISTRICTS`, the first the most populous;
    - ``income``: thousands of dollars a year, 0 under 18, a long right tail above.

    Everything is drawn from ``rng``, so a seeded generator gives the same town every time.

    Examples
    --------
    >>> town = synthetic_town(500, rng=np.random.default_rng(0))
    >>> sorted(town), len(town["age"])
    (['age', 'district', 'first_name', 'income'], 500)
    """
    size = _validate.integer("n", n, low=1, why="a town has at least one person")
    gen = _validate.rng(rng)
    names = census_first_names()
    listed = names.counts[names.listed].astype(float)
    first_name = names.names[gen.choice(listed.size, size=size, p=listed / listed.sum())]
    age = np.clip(np.round(gen.normal(40.0, 22.0, size=size)), 0, 99).astype(np.int64)
    district = np.array(DISTRICTS)[gen.choice(len(DISTRICTS), size=size, p=_DISTRICT_SHARES)]
    income = np.where(age >= 18, np.round(gen.lognormal(3.7, 0.7, size=size), 1), 0.0)
    return {"first_name": first_name, "age": age, "district": district, "income": income}


def first_name_counts(first_names) -> np.ndarray:
    """The histogram of a column of first names over the census's 10,000 potential names.

    Cell i counts the people called ``census_first_names().names[i]``; the cells are in the
    census's order (most common nationally first). A name outside the list is refused.

    Examples
    --------
    >>> counts = first_name_counts(["MARY", "JAMES", "MARY"])
    >>> counts[:2].tolist(), int(counts.sum())
    ([1, 0], 3)
    """
    names = census_first_names()
    column = np.asarray(first_names)
    if column.ndim != 1 or column.dtype.kind not in "US":
        raise TypeError(f"first_names must be a 1-d array of names (text), got {first_names!r}")
    index = {str(name): i for i, name in enumerate(names.names)}
    try:
        cells = [index[str(name)] for name in column]
    except KeyError as missing:
        raise ValueError(f"first_names must be names from census_first_names(), got {missing.args[0]!r}") from None
    return np.bincount(np.array(cells, dtype=np.int64), minlength=names.k)


@dataclass(frozen=True)
class Answer:
    """One line of a curator's session log: what was asked, what it cost, what came back."""

    label: str
    epsilon: float
    sensitivity: float
    answer: float | np.ndarray | None    # None when refused
    refused: str = ""                      # why, when refused

    @property
    def answered(self) -> bool:
        return not self.refused


_KINDS = {"b": "true/false", "i": "integer", "u": "integer", "f": "number", "U": "text", "S": "text", "O": "text"}


class Curator:
    """A trusted curator with a privacy budget: answers counts, clipped sums and histograms with noise.

    Each answer is the Laplace mechanism M_L(x, f, ε) = f(x) + Lap(Δf/ε) (Definition 3.3),
    with Δf computed from the query's description:

    ============================  ======================  ========================
    query                         Δf                      charged
    ============================  ======================  ========================
    :meth:`count`                 1                       ε (sequential)
    :meth:`clipped_sum` [L, U]    max(|L|, |U|)           ε (sequential)
    :meth:`histogram`             1 (disjoint cells)      ε (parallel over cells)
    ============================  ======================  ========================

    The budget is charged *before* the data is touched; a query the budget refuses raises
    :class:`~dpteach.budget.BudgetExceeded` and the data is not read. A query that is
    malformed (an unknown column, a bad ε) is refused before any charge.

    Parameters
    ----------
    data : mapping of column name to 1-d array_like
        The private table: every column has one entry per person. Copied, read-only.
    budget : PrivacyBudget or float
        The total privacy budget (a float ε makes a pure-ε budget).
    rng : numpy.random.Generator, optional
        The curator's source of noise.

    Examples
    --------
    >>> curator = Curator({"age": [34, 71, 68, 15]}, budget=1.0, rng=np.random.default_rng(0))
    >>> round(curator.count(epsilon=0.5, where={"age": (65, None)}), 3)
    2.64
    >>> curator.count(epsilon=0.6)
    Traceback (most recent call last):
      ...
    dpteach.budget.BudgetExceeded: refused 'count of everyone': it asks ε = 0.6 but only ε = 0.5 of 1 remains (0.5 spent in 1 charge); nothing was charged
    """

    def __init__(self, data: Mapping, budget: PrivacyBudget | float, rng: np.random.Generator | None = None) -> None:
        if not isinstance(data, Mapping) or not data:
            raise TypeError(f"data must be a non-empty mapping of column name to a 1-d array, got {type(data).__name__}")
        columns: dict[str, np.ndarray] = {}
        for name, values in data.items():
            if not isinstance(name, str):
                raise TypeError(f"column names must be strings, got {name!r}")
            column = np.array(values)              # a copy: the analyst's array stays theirs
            if column.ndim != 1:
                raise ValueError(f"column {name!r} must be 1-d (one entry per person), got shape {column.shape}")
            if column.dtype.kind not in _KINDS:
                raise TypeError(f"column {name!r} must hold numbers, true/false or text, got dtype {column.dtype}")
            if column.dtype.kind == "f" and not np.isfinite(column).all():
                raise ValueError(f"column {name!r} must not contain NaN or infinity")
            column.flags.writeable = False
            columns[name] = column
        lengths = {len(c) for c in columns.values()}
        if len(lengths) != 1:
            raise ValueError("every column must have one entry per person (the same length); "
                             "the columns' lengths differ")
        self._columns = columns
        if isinstance(budget, PrivacyBudget):
            self._budget = budget
        else:
            self._budget = PrivacyBudget(budget)
        self._rng = _validate.rng(rng)
        self._log: list[Answer] = []

    # -- what the analyst may see -------------------------------------------------------------
    @property
    def schema(self) -> dict[str, str]:
        """The public description of the table: each column's name and kind (never its values)."""
        return {name: _KINDS[c.dtype.kind] for name, c in self._columns.items()}

    @property
    def budget(self) -> PrivacyBudget:
        """The budget every answer is charged to (its ledger is public)."""
        return self._budget

    @property
    def log(self) -> tuple[Answer, ...]:
        """Every query of the session, answered or refused, in order."""
        return tuple(self._log)

    # -- queries --------------------------------------------------------------------------
    def count(self, epsilon: float, where: Mapping | None = None, label: str | None = None) -> float:
        """How many people satisfy ``where`` (everyone if None), plus Lap(1/ε) (Example 3.1).

        ``where`` maps column names to conditions: a value (equality), a pair
        ``(low, high)`` (low ≤ value ≤ high; None for no bound) or a list or set of values
        (membership). Conditions on several columns must all hold.
        """
        mask = self._where(where)
        return self._answer(label or f"count of {_describe(where)}", 1.0, epsilon,
                            lambda: float(mask().sum()))

    def clipped_sum(self, column: str, low: float, high: float, epsilon: float, where: Mapping | None = None,
                    label: str | None = None) -> float:
        """The sum of ``column`` over the people in ``where``, each value clipped to [low, high], plus noise.

        .. math:: f(x) = \\sum_{\\text{people}} \\min(\\max(v, L), U), \\qquad Δf = \\max(|L|, |U|)

        One person adds or removes one clipped value, at most max(|L|, |U|) in size, so the
        noise is Lap(max(|L|, |U|)/ε). Values outside [L, U] are moved to its edge: the
        price of a bounded sensitivity is bias for the people beyond the clip.
        """
        values = self._numeric(column)
        lo = _validate.real("low", low)
        hi = _validate.real("high", high)
        if not lo < hi:
            raise ValueError(f"low must be < high, got low = {low!r}, high = {high!r}")
        sensitivity = max(abs(lo), abs(hi))
        mask = self._where(where)
        return self._answer(label or f"sum of {column} clipped to [{lo:g}, {hi:g}] over {_describe(where)}",
                            sensitivity, epsilon, lambda: float(np.clip(values[mask()], lo, hi).sum()))

    def histogram(self, column: str, epsilon: float, *, categories=None, bins=None, where: Mapping | None = None,
                  label: str | None = None) -> np.ndarray:
        """Counts of ``column`` in public cells, each plus Lap(1/ε) (Example 3.2; parallel composition).

        The cells must be given, never read off the data (which values occur is itself
        private): ``categories`` (a list of values, one cell each) or ``bins`` (increasing
        edges; cell i holds edges[i] ≤ v < edges[i+1], the last cell also its right edge).
        The cells are disjoint, so one person changes one cell by 1: Δf = 1, and the budget
        is charged ε once, as a parallel charge over the cells.
        """
        values = self._column(column)
        if (categories is None) == (bins is None):
            raise ValueError("give exactly one of categories= (a list of values) or bins= (increasing edges)")
        if categories is not None:
            if isinstance(categories, (str, bytes)) or not hasattr(categories, "__len__") or len(categories) == 0:
                raise TypeError(f"categories must be a non-empty list of values, got {categories!r}")
            cells = list(categories)

            def true_counts() -> np.ndarray:
                present, how_many = np.unique(values[mask()], return_counts=True)
                found = dict(zip(present.tolist(), how_many.tolist()))
                return np.array([found.get(c, 0) for c in cells], dtype=float)
            n_cells, what = len(cells), f"{len(cells)} categories"
        else:
            self._numeric(column)
            edges = _validate.array("bins", bins, ndim=(1,))
            if edges.size < 2 or (np.diff(edges) <= 0).any():
                raise ValueError(f"bins must be at least two strictly increasing edges, got {_validate._short(edges)}")

            def true_counts() -> np.ndarray:
                return np.histogram(values[mask()], edges)[0].astype(float)
            n_cells, what = edges.size - 1, f"{edges.size - 1} bins"
        mask = self._where(where)
        eps = _validate.epsilon(epsilon)
        text = label or f"histogram of {column} ({what}) over {_describe(where)}"
        return self._answer(text, 1.0, eps, true_counts, parallel=n_cells)

    # -- machinery ---------------------------------------------------------------------------
    def _answer(self, label: str, sensitivity: float, epsilon, compute, parallel: int = 0):
        eps = _validate.positive("epsilon", epsilon, why="epsilon = 0 would mean infinite noise")
        laplace_scale(sensitivity, eps)     # refuse an overflowing scale before charging
        if not isinstance(label, str):
            raise TypeError(f"label must be a string, got {label!r}")
        try:
            if parallel:
                self._budget.spend_parallel([eps] * parallel, label=label)
            else:
                self._budget.spend(eps, label=label)
        except BudgetExceeded as refusal:
            self._log.append(Answer(label, eps, sensitivity, None, refused=str(refusal)))
            raise
        noisy = laplace_mechanism(compute(), sensitivity, eps, self._rng)   # the data is read only here
        self._log.append(Answer(label, eps, sensitivity, noisy))
        return noisy

    def _column(self, name) -> np.ndarray:
        if not isinstance(name, str) or name not in self._columns:
            raise ValueError(f"column must be one of {sorted(self._columns)}, got {name!r}")
        return self._columns[name]

    def _numeric(self, name) -> np.ndarray:
        column = self._column(name)
        if column.dtype.kind not in "iuf":
            raise TypeError(f"column {name!r} holds {_KINDS[column.dtype.kind]}, not numbers")
        return column

    def _where(self, where):
        """Check a where-clause against the schema now; return a function that evaluates it later."""
        if where is None:
            return lambda: np.ones(len(next(iter(self._columns.values()))), dtype=bool)
        if callable(where) or not isinstance(where, Mapping):
            raise TypeError("where must be a dict of column → condition (a value, a (low, high) pair or a list "
                            "of values); the curator runs no analyst code, which could copy the data out")
        checks = []
        for name, condition in where.items():
            column = self._column(name)
            if isinstance(condition, tuple):
                if len(condition) != 2:
                    raise ValueError(f"a range condition on {name!r} is a pair (low, high), got {condition!r}")
                self._numeric(name)
                low, high = condition
                for bound, value in (("low", low), ("high", high)):
                    if value is not None:
                        _validate.real(f"{bound} bound on {name!r}", value)
                checks.append((column, "range", condition))
            elif isinstance(condition, (list, set, frozenset)):
                checks.append((column, "in", list(condition)))
            elif isinstance(condition, (str, numbers.Number, np.generic)):
                checks.append((column, "eq", condition))
            else:
                raise TypeError(f"the condition on {name!r} must be a value, a (low, high) pair or a list of values, "
                                f"got {condition!r}")

        def evaluate() -> np.ndarray:
            mask = np.ones(len(next(iter(self._columns.values()))), dtype=bool)
            for column, kind, condition in checks:
                if kind == "range":
                    low, high = condition
                    if low is not None:
                        mask &= column >= low
                    if high is not None:
                        mask &= column <= high
                elif kind == "in":
                    mask &= np.isin(column, condition)
                else:
                    mask &= column == condition
            return mask
        return evaluate

    # -- display ------------------------------------------------------------------------------
    def __repr__(self) -> str:
        schema = ", ".join(f"{name} ({kind})" for name, kind in self.schema.items())
        answered = sum(a.answered for a in self._log)
        return (f"<Curator: a private table with columns {schema}; {answered} answered, "
                f"{len(self._log) - answered} refused; {self._budget._header()}>")

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{i}</td><td>{html.escape(a.label)}</td><td>{a.epsilon:.4g}</td>"
            f"<td>{html.escape(_shown(a))}</td></tr>" for i, a in enumerate(self._log, 1))
        return (f"<table><caption>{html.escape(repr(self))}</caption><thead><tr><th>#</th><th>query</th>"
                f"<th>ε</th><th>answer</th></tr></thead><tbody>{rows}</tbody></table>")


def _shown(a: Answer) -> str:
    if not a.answered:
        return "refused: " + a.refused.split(": ", 1)[-1]
    if isinstance(a.answer, np.ndarray):
        return np.array2string(a.answer, precision=1, threshold=8, edgeitems=3, floatmode="fixed")
    return f"{a.answer:,.2f}"


def _describe(where) -> str:
    if not where:
        return "everyone"
    parts = []
    for name, condition in where.items():
        if isinstance(condition, tuple):
            low, high = condition
            parts.append(f"{name} ≥ {low:g}" if high is None else f"{name} ≤ {high:g}" if low is None
                         else f"{name} in [{low:g}, {high:g}]")
        elif isinstance(condition, (list, set, frozenset)):
            parts.append(f"{name} in {sorted(map(str, condition))}")
        else:
            parts.append(f"{name} = {condition}")
    return "people with " + " and ".join(parts)
