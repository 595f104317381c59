"""No module reaches into another's private parts (read from the source, ast).

The rule: a module may use a ``_``-name (``_span``, ``_cells``) only from itself or from a private helper
module, one whose own name starts with ``_``, that sits in the module's package or in a parent package
(``dpteach._validate`` for every module; ``dpteach.widgets._base`` for the widgets). Anything else is a
seam: ``widgets/accuracy.py`` taking ``_span`` from ``widgets/counting.py``, ``course/submission.py``
importing ``dpteach.exercises._cells``, a plot module importing ``widgets._base``. A helper two modules
share is public in a shared ``_`` module (or moved to its one user). Dunder names (``__version__``) are
not private.
"""

from __future__ import annotations

import ast
from pathlib import Path

from helpers import ROOT

PACKAGE = ROOT / "dpteach"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name, for its __init__.py)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if all((package.parent.joinpath(*parts[:i]) / "__init__.py").is_file() for i in range(1, len(parts))):
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def reachable(module: str, target: str) -> bool:
    """May ``module`` use the private parts of module ``target``? Its own, and a ``_`` module's in its
    package or a parent's. A public module under a private one (a._x.y) counts as the private one."""
    if target == module:
        return True
    parts = target.split(".")
    first = next((i for i, part in enumerate(parts) if _private(part)), None)
    if first is None:
        return False
    home = ".".join(parts[:first])                      # the package the private module sits in
    return module == home or module.startswith(home + ".")


def module_allowed(module: str, target: str) -> bool:
    """May ``module`` import module ``target`` at all? Public modules, and private ones by the rule above."""
    parts = target.split(".")
    if not any(_private(p) for p in parts):
        return True
    first = next(i for i, p in enumerate(parts) if _private(p))
    return reachable(module, ".".join(parts[:first + 1]))


def seams(package: Path = PACKAGE) -> list[str]:
    """Every private name or module used across the rule, as 'module:line: what'."""
    known = modules(package)
    out = []
    for name, path in known.items():
        is_package = path.name == "__init__.py"
        here = name if is_package else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        bound: dict[str, str] = {}                       # local name -> module of the package it stands for
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == package.name:
                        if not module_allowed(name, alias.name):
                            out.append(f"{name}:{node.lineno}: import {alias.name}")
                        bound[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else package.name
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")
                    origin = ".".join(base[:len(base) - (node.level - 1)] + ([node.module] if node.module else []))
                else:
                    origin = node.module or ""
                if origin.split(".")[0] != package.name:
                    continue
                if not module_allowed(name, origin):
                    out.append(f"{name}:{node.lineno}: from {origin} import …")
                    continue
                for alias in node.names:
                    child = f"{origin}.{alias.name}"
                    if child in known:
                        if not module_allowed(name, child):
                            out.append(f"{name}:{node.lineno}: from {origin} import {alias.name}")
                        bound[alias.asname or alias.name] = child
                    elif _private(alias.name) and not reachable(name, origin):
                        out.append(f"{name}:{node.lineno}: from {origin} import {alias.name}")
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr):
                chain, value = [node.attr], node.value
                while isinstance(value, ast.Attribute):
                    chain.append(value.attr)
                    value = value.value
                if not isinstance(value, ast.Name) or value.id not in bound:
                    continue
                *inner, attr = [bound[value.id], *reversed(chain)]
                owner = ".".join(inner)
                while owner not in known and "." in owner:
                    owner = owner.rpartition(".")[0]
                target = f"{owner}.{attr}"
                ok = module_allowed(name, target) if target in known else reachable(name, owner)
                if not ok:
                    out.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
    return sorted(set(out))


def test_no_module_uses_another_modules_private_names():
    found = seams()
    assert not found, "\n".join(found)


def test_the_rule_finds_each_kind_of_seam(tmp_path):
    """The seams a reach can take, in a toy package: each is found, and each allowed use is not."""
    pkg = tmp_path / "dpteach"
    for folder in ("", "widgets", "course", "exercises"):
        (pkg / folder).mkdir(exist_ok=True)
        (pkg / folder / "__init__.py").write_text("")
    (pkg / "_validate.py").write_text("def _real(): ...\n")
    (pkg / "widgets" / "_base.py").write_text("def _slider(): ...\n")
    (pkg / "widgets" / "counting.py").write_text("def _span(): ...\n")
    (pkg / "exercises" / "_cells.py").write_text("def cells(): ...\n")
    (pkg / "widgets" / "accuracy.py").write_text(
        "from .. import _validate\nfrom .._validate import _real\nfrom ._base import _slider\n"   # allowed
        "from .counting import _span\n"                                                          # seam 4
        "from . import counting\ncounting._span()\n"                                             # seam 6
        "_validate._real()\n")                                                                   # allowed
    (pkg / "course" / "submission.py").write_text(
        "import dpteach.exercises._cells\nfrom dpteach.exercises import _cells\n"               # seams 1, 2
        "from ..widgets._base import _slider\nimport dpteach\ndpteach.widgets._base\n")         # seams 3, 5
    found = seams(pkg)
    assert [f.split(":")[:2] for f in found] == [
        ["dpteach.course.submission", "1"], ["dpteach.course.submission", "2"], ["dpteach.course.submission", "3"],
        ["dpteach.course.submission", "5"], ["dpteach.widgets.accuracy", "4"], ["dpteach.widgets.accuracy", "6"]], found
