"""The package's imports, read from its source (ast): no module imports itself back through others,
the tools' wings (publish, course) stay out of ``import dpteach``, and a family of modules is a package, not a prefix.

Every import counts, at the top of a module and inside a function: an import inside a function
hides a circle from the interpreter until the function runs, it does not remove it. So does the
``__init__`` of every package on the way to a module, which runs first.
"""

import ast
import subprocess
import sys
from pathlib import Path

from helpers import ROOT

PACKAGE = ROOT / "dpteach"


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name, for its __init__.py).
    Folders without __init__.py (templates, data) are not modules."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if not all((package.parent.joinpath(*parts[:i]) / "__init__.py").is_file() for i in range(1, len(parts))):
            continue
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that module ``name`` imports, anywhere in it.

    ``from .x import y`` imports x, and also y when y is a module; ``from . import y`` imports y when
    it is a module, else the package itself (a name its __init__ defines). Importing ``p.q.x`` also
    runs the ``__init__`` of p and of p.q, unless the importer lives inside them (then they are
    already running)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    inside = {".".join(package.split(".")[:i]) for i in range(1, package.count(".") + 2)}
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            targets = [origin] if node.module else []
            for alias in node.names:
                child = f"{origin}.{alias.name}"
                targets.append(child if child in known else origin)
        else:
            continue
        for target in targets:
            # `import a.b.c` runs a, a.b and a.b.c; the deepest module of the package stands for them
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
            while "." in target:
                target = target.rpartition(".")[0]
                if target in known and target not in inside:
                    out.add(target)
    return out


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    known = modules(package)
    return {name: imports(name, path, known) for name, path in known.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One path around each strongly connected group of modules (Tarjan), e.g. ['a', 'b', 'a']."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_path_around(graph, set(group)) for group in groups]


def _path_around(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A shortest way from the group's first module back to itself, inside the group (for the message)."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt_frontier = []
        for node in frontier:
            for nxt in sorted(graph[node] & group):
                if nxt == start:
                    return [*paths[node], start]
                if nxt not in paths:
                    paths[nxt] = [*paths[node], nxt]
                    nxt_frontier.append(nxt)
        frontier = nxt_frontier
    return sorted(group)


def test_the_package_has_no_import_circle():
    found = circles(import_graph())
    assert not found, "import circles: " + "; ".join(" → ".join(c) for c in found)


def test_the_graph_sees_every_kind_of_import(tmp_path):
    """The finder itself, on a made-up package: absolute, relative, from-package and function-level imports."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from . import a\n")
    (pkg / "a.py").write_text("import numpy\nfrom .sub import b\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("def later():\n    from ..a import thing\n")
    (pkg / "sub" / "c.py").write_text("import pkg.sub.b\nfrom pkg import VERSION\n")
    (pkg / "templates").mkdir()
    (pkg / "templates" / "conf.py").write_text("import pkg.a\n")
    graph = import_graph(pkg)
    assert graph == {"pkg": {"pkg.a"}, "pkg.a": {"pkg.sub", "pkg.sub.b"}, "pkg.sub": set(),
                     "pkg.sub.b": {"pkg.a"}, "pkg.sub.c": {"pkg.sub.b", "pkg"}}
    assert circles(graph) == [["pkg.a", "pkg.sub.b", "pkg.a"]]
    assert circles({"x": {"y"}, "y": set()}) == []


WINGS = ("dpteach.publish", "dpteach.course", "dpteach.hub")


def _in(module: str, wing: str) -> bool:
    return module == wing or module.startswith(wing + ".")


def test_the_tools_wings_are_imported_by_no_maths_module():
    """The wings use the package (the table of contents, the exercises); nothing outside them uses a wing but the
    command (dpteach.cli), which only the ``__main__`` modules use.
    The course wing builds on the publishing wing (the editions, the book), never the other way; inside the
    publishing wing the book never uses the slides (the old export ↔ slides circle)."""
    graph = import_graph()
    assert {"dpteach.publish.book_site", "dpteach.publish.slides", "dpteach.publish.execute",
            "dpteach.course.assign", "dpteach.course.grading", "dpteach.course.sandbox"} <= set(graph)
    command = ("dpteach.cli", "dpteach.__main__")     # the dpteach command: the one layer above the wings
    outside = {m: sorted(t for t in targets if any(_in(t, w) for w in WINGS))
               for m, targets in graph.items() if not any(_in(m, w) for w in WINGS + command)}
    assert not {m: t for m, t in outside.items() if t}
    users = {m for m, targets in graph.items() if any(_in(t, "dpteach.cli") for t in targets)}
    assert {m for m in users if not _in(m, "dpteach.cli")} <= {"dpteach.__main__"} | {f"{w}.__main__" for w in WINGS}
    back = {m: sorted(t for t in targets if _in(t, "dpteach.course") or _in(t, "dpteach.hub"))
            for m, targets in graph.items() if _in(m, "dpteach.publish")}
    assert not {m: t for m, t in back.items() if t}
    apart = {m: sorted(t for t in targets if _in(t, "dpteach.course" if _in(m, "dpteach.hub") else "dpteach.hub"))
             for m, targets in graph.items() if _in(m, "dpteach.hub") or _in(m, "dpteach.course")}
    assert not {m: t for m, t in apart.items() if t}      # the hub and the course wings know nothing of each other
    assert "dpteach.publish.slides" not in graph["dpteach.publish.book_site"]


def test_no_folder_of_the_package_is_named_like_an_output_folder():
    """`build/` is what tools skip (linters' indexers, coverage, structure drawings): no wing may be named so."""
    assert not [p for p in PACKAGE.rglob("*") if p.is_dir() and p.name in ("build", "dist", "out")]


def test_import_dpteach_leaves_the_wings_out():
    """`import dpteach` is the maths, figures and widgets: no tool of a wing (matplotlib: test_packaging)."""
    code = ("import sys, dpteach; print(sorted(m for m in sys.modules if m.startswith(('dpteach.publish', "
            "'dpteach.course', 'dpteach.hub'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert loaded.stdout.strip() == "[]"


def test_a_circle_through_a_packages_init_is_found(tmp_path):
    """acc imports fam.dist, which runs fam/__init__, which imports fam.mech, which imports acc: the
    interpreter fails on it (acc is half-initialised), and the graph sees the circle."""
    pkg = tmp_path / "pkg"
    (pkg / "fam").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "acc.py").write_text("from .fam.dist import X\nZ = 1\n")
    (pkg / "fam" / "__init__.py").write_text("from .dist import X\nfrom .mech import Y\n")
    (pkg / "fam" / "dist.py").write_text("X = 1\n")
    (pkg / "fam" / "mech.py").write_text("from ..acc import Z\nY = Z\n")
    graph = import_graph(pkg)
    assert graph["pkg.acc"] == {"pkg.fam", "pkg.fam.dist"}
    assert graph["pkg.fam.mech"] == {"pkg.acc"}                  # pkg.fam is running already: no edge
    assert circles(graph) == [["pkg.acc", "pkg.fam", "pkg.fam.mech", "pkg.acc"]]
    run = subprocess.run([sys.executable, "-c", "import pkg.acc"], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode != 0 and "partially initialized module 'pkg.acc'" in run.stderr


def test_a_family_of_modules_is_a_package_not_a_file_name_prefix():
    """DESIGN.md: a topic too big for one file becomes a package of the same name. No two public
    modules at the top of dpteach share a first word (as gg_distribution, gg_sigma, … once did);
    the Generalized Gaussian family is dpteach/generalized_gaussian/, and every public name of it
    that dpteach offers is defined inside it."""
    import dpteach as dp

    top = sorted(p.stem for p in PACKAGE.glob("*.py") if not p.stem.startswith("_"))
    first_words: dict[str, list[str]] = {}
    for stem in top:
        first_words.setdefault(stem.split("_")[0], []).append(stem)
    assert not {w: s for w, s in first_words.items() if len(s) > 1}, first_words
    assert not list(PACKAGE.glob("gg_*.py")) and not (PACKAGE / "generalized_gaussian.py").exists()
    assert (PACKAGE / "generalized_gaussian" / "__init__.py").is_file()
    family = dp.generalized_gaussian.__all__
    assert len(family) >= 30 and set(family) <= set(dp.prelude.__all__)
    assert {getattr(dp, n).__module__.rpartition(".")[0] for n in family} == {"dpteach.generalized_gaussian"}


def test_tests_share_helpers_through_a_module_not_conftest():
    """pytest imports conftest.py itself: the tests' shared names live in tests/helpers.py, and no test
    file takes a name from conftest (test_packaging imports conftest whole, to test its hook)."""
    offenders = [f"{path.name}:{node.lineno}"
                 for path in sorted((ROOT / "tests").glob("*.py"))
                 for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                 if isinstance(node, ast.ImportFrom) and node.module == "conftest"]
    assert not offenders, offenders


def test_no_face_of_the_package_uses_import_star():
    """Every face names what it re-exports, so a reader sees the public API in one place (issue 40)."""
    import re
    starred = [str(p.relative_to(ROOT)) for p in PACKAGE.rglob("*.py")
               if re.search(r"^\s*from\s+\S+\s+import\s+\*", p.read_text(encoding="utf-8"), re.M)]
    assert starred == []
