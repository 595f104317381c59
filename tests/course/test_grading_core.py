"""The grading core's shape (issue 53): one module reads file names, a record type passes through, and a
submission's path from the command line to its gradebook row goes down the modules without coming back.

Read from the code's own syntax trees: a function's calls, in the order they are written, are mapped to the
modules that define them (through the module's ``from .x import name`` lines); each module may be entered once,
and the function's own module is never re-entered after it has called out. Calls without arguments (the
package's fingerprint, taken before and after a submission) carry none of the submission and are left out, as
are the model's constructors (the record the submission becomes)."""

from __future__ import annotations

import ast
import typing
from pathlib import Path

import pytest

from dpteach.course import batch, gradebook, grading, model, names, submission

COURSE = Path(grading.__file__).parent


def _tree(module: str) -> ast.Module:
    return ast.parse((COURSE / f"{module}.py").read_text(encoding="utf-8"))


def _sources(tree: ast.Module, module: str) -> dict[str, str]:
    """Each name the module may call, and the course module that defines it (the module itself for its own)."""
    where = {node.name: module for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            where.update({alias.asname or alias.name: node.module for alias in node.names})
    return where


def _route(module: str, function: str) -> list[str]:
    """The course modules ``module.function`` calls into, in the order its calls are written, runs merged."""
    tree = _tree(module)
    where = _sources(tree, module)
    body = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == function)
    calls = sorted((node for node in ast.walk(body) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and (node.args or node.keywords) and where.get(node.func.id) not in (None, "model")),
                   key=lambda n: (n.lineno, n.col_offset))
    route: list[str] = []
    for call in calls:
        if not route or route[-1] != where[call.func.id]:
            route.append(where[call.func.id])
    return route


@pytest.mark.parametrize("module, function, expected", [
    ("submission", "grade_submission", ["reading", "manifest", "identity", "running", "judging"]),
    ("batch", "_task", ["batch", "submission"]),      # batch: the record of a file not graded
    ("gradebook", "write_results", ["store", "manifest", "exports", "pages"]),
])
def test_a_submission_goes_down_the_modules_once_each(module, function, expected):
    route = _route(module, function)
    assert route == expected, route
    assert len(set(route)) == len(route), f"{module}.{function} enters a module again: {route}"
    assert module not in route[1:], f"{module}.{function} comes back to its own module: {route}"


def test_one_module_reads_the_names_of_submitted_files():
    rules = {"LMS_PATTERNS", "chapter_named", "find_submissions", "identify", "identify_all", "roster_index",
             "root_of", "strays", "_owner", "_lms", "_chapter_stems"}
    for path in sorted(COURSE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)} | {
            target.id for node in tree.body if isinstance(node, ast.Assign) for target in node.targets
            if isinstance(target, ast.Name)}
        if path.stem != "names":
            assert not defined & rules, f"{path.name} defines a file-name rule: {sorted(defined & rules)}"
        made = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name) and node.func.id == "Place"]
        # a Place is made where a name is read, and where Gradescope's metadata names the student instead
        assert not made or path.stem in ("names", "gradescope"), f"{path.name} makes a Place at lines {made}"


def test_a_record_type_passes_through():
    assert typing.get_type_hints(submission.grade_submission)["return"] is model.Record
    assert typing.get_type_hints(submission.grade_submission)["place"] is model.Place
    assert typing.get_type_hints(batch.grade_all)["return"] == list[model.Record]
    assert typing.get_type_hints(batch.grade_all)["places"] == typing.Sequence[model.Place] or \
        "Place" in str(typing.get_type_hints(batch.grade_all)["places"])
    assert "Record" in str(typing.get_type_hints(gradebook.write_results)["records"])
    assert typing.get_type_hints(names.identify)["return"] is model.Place


def test_the_rule_that_rounds_points_lives_once():
    """``whole`` (a whole number of points is written as an int) is defined in the model only."""
    for path in sorted(COURSE.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        if path.stem != "model":
            assert "is_integer()" not in text, f"{path.name} rounds points itself"
