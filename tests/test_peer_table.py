"""The peer table (docs/peers.md, "Checked against the field's own libraries") is the peer suite's (tests/peers/), read without running it.

Every row names a comparison that exists (a test decorated with ``compares`` in tests/peers/), with the same
quantity, grid and tolerance, and the peer at the version requirements/test.lock.txt pins; every comparison
has its row; every number a tolerance states (1e-9, 2e-3, …) is a number in that test's code, or a constant
of its module. Not the results: those move with versions. And the suite runs where that page says: every
test in tests/peers/ is in the slow tier (make test-slow, so CI, once) and `make test-python` leaves it out.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from helpers import ROOT

PEERS_DIR = ROOT / "tests" / "peers"
FILES = sorted(PEERS_DIR.glob("test_peer_*.py"))
_NUMBER = re.compile(r"\d+(?:\.\d+)?e-\d+")


def _table() -> list[dict]:
    text = (ROOT / "docs" / "peers.md").read_text(encoding="utf-8")
    assert text.startswith("# Checked against the field's own libraries\n"), text[:80]
    lines = [line for line in text.splitlines() if line.startswith("| ")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    assert header == ["quantity", "peer and version", "grid", "tolerance", "test"], header
    rows = []
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        assert len(cells) == 5, line
        rows.append(dict(zip(header, cells)))
    return rows


def _numbers(node: ast.AST) -> set[float]:
    return {float(n.value) for n in ast.walk(node) if isinstance(n, ast.Constant)
            and isinstance(n.value, (int, float)) and not isinstance(n.value, bool)}


def _comparisons() -> dict[str, dict]:
    """``file::test`` → the ``compares`` texts and the numbers in the test's code and its module's constants."""
    out = {}
    for path in FILES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = set()
        for node in tree.body:
            if isinstance(node, ast.Assign):
                constants |= _numbers(node.value)
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            for deco in node.decorator_list:
                if isinstance(deco, ast.Call) and getattr(deco.func, "id", None) == "compares":
                    texts = {k.arg: ast.literal_eval(k.value) for k in deco.keywords}
                    out[f"{path.name}::{node.name}"] = {**texts, "numbers": _numbers(node) | constants}
    return out


def _locked(peer: str) -> set[str]:
    lock = (ROOT / "requirements" / "test.lock.txt").read_text(encoding="utf-8")
    return set(re.findall(rf"(?m)^{re.escape(peer)}==(\S+)", lock))


ROWS, COMPARISONS = _table(), _comparisons()


def test_the_suite_has_comparisons_with_at_least_two_peers():
    assert len(COMPARISONS) >= 15
    assert {c["peer"] for c in COMPARISONS.values()} >= {"dp-accounting", "opendp"}


def test_every_row_has_its_comparison_and_every_comparison_its_row():
    named = [row["test"].strip("`") for row in ROWS]
    assert len(named) == len(set(named)), "a comparison listed twice"
    assert set(named) == set(COMPARISONS), (set(named) ^ set(COMPARISONS))


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["test"].strip("`"))
def test_a_row_says_what_its_comparison_does(row):
    comparison = COMPARISONS[row["test"].strip("`")]
    for column, key in (("quantity", "quantity"), ("grid", "grid"), ("tolerance", "tolerance")):
        assert row[column] == comparison[key], (column, row[column], comparison[key])
    peer, _, version = row["peer and version"].partition(" ")
    assert peer == comparison["peer"] and {version} == _locked(peer), (row["peer and version"], _locked(peer))


@pytest.mark.parametrize("name", sorted(COMPARISONS))
def test_every_number_of_a_tolerance_is_in_its_test(name):
    comparison = COMPARISONS[name]
    stated = {float(x) for x in _NUMBER.findall(comparison["tolerance"])}
    assert stated <= comparison["numbers"], (name, stated - comparison["numbers"])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_test_in_the_peer_suite_is_slow(path: Path):
    """A module-level ``pytestmark = pytest.mark.slow``: `make test` never runs a peer."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    marks = [node for node in tree.body if isinstance(node, ast.Assign)
             and any(getattr(t, "id", None) == "pytestmark" for t in node.targets)]
    assert marks and ast.unparse(marks[0].value) == "pytest.mark.slow", path.name


def test_make_test_python_leaves_the_peers_out():
    """CI runs `make check` (the slow tier included: the peers, once) and then `make test-python` on the oldest
    and newest Python, which must not run them again."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\ntest-python:", 1)[1].split("\n\n", 1)[0]
    assert "--ignore=tests/peers" in recipe
