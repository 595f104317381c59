"""Reading a submitted notebook without running it: its cells, the function it defines, what that code reaches.

Everything here parses the file the student handed in (never their process): a function answer is
the last top-level ``def`` of its name, found by parsing each cell; its cell is then read for what a
grade depends on: whether it reaches the interpreter's insides (:func:`out_of_bounds`: such a cell
is not run at all) and whether it writes the function by hand (:func:`library_route`: numpy and
math only, no dpteach, no other library's sampler, no copy of dpteach's own code).
"""

from __future__ import annotations

import ast
import json
import re
import textwrap
from collections.abc import Sequence
from pathlib import Path

from .model import GradingError

#: Caps checked before a submitted notebook is parsed any further than JSON (its bytes, before even that):
#: what a file makes the grader parse is bounded, so one notebook cannot cost the machine or the class
#: (one 8 MB cell is an abstract syntax tree of gigabytes; a million empty cells, a gigabyte of objects).
#: A chapter's notebook as handed out has about 100 cells of at most a few thousand characters each.
MAX_NOTEBOOK_BYTES = 32 * 1024 * 1024
MAX_CELLS = 2_000
MAX_CELL_CHARS = 100_000
#: JSON objects and arrays a notebook may hold (counted as its bytes ``{`` and ``[``, before parsing).
MAX_CONTAINERS = 500_000


class Refused(ValueError):
    """A notebook the grader refuses to read further; the message names why (never the file's text)."""


def _read_bytes(path: Path) -> bytes:
    """The file's bytes, never through a symbolic link (its target's first bytes would reach the feedback)."""
    import os
    import stat
    if path.is_symlink():
        raise Refused("it is a symbolic link, which the grader does not follow")
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(descriptor, "rb") as handle:
        status = os.fstat(handle.fileno())
        if not stat.S_ISREG(status.st_mode):
            raise Refused("it is not a regular file")
        if status.st_size > MAX_NOTEBOOK_BYTES:
            raise Refused(f"larger than {MAX_NOTEBOOK_BYTES // 2**20} MB (the limit)")
        data = handle.read(MAX_NOTEBOOK_BYTES + 1)
    if len(data) > MAX_NOTEBOOK_BYTES:
        raise Refused(f"larger than {MAX_NOTEBOOK_BYTES // 2**20} MB (the limit)")
    return data


def _capped(data: bytes) -> dict:
    """The JSON of a notebook, refused (:class:`Refused` naming the cap) past :data:`MAX_CELLS` cells,
    :data:`MAX_CONTAINERS` objects and arrays, or a cell past :data:`MAX_CELL_CHARS` characters; the cells
    and containers are counted in the bytes before any parsing."""
    if data.count(b'"cell_type"') > MAX_CELLS:
        raise Refused(f"more than {MAX_CELLS:,} cells (the limit)")
    if data.count(b"{") + data.count(b"[") > MAX_CONTAINERS:
        raise Refused(f"more than {MAX_CONTAINERS:,} JSON objects and arrays (the limit)")
    try:
        raw = json.loads(data)
    except ValueError:
        raise Refused("it is not JSON") from None     # never its text: the feedback shows this message
    cells = raw.get("cells") if isinstance(raw, dict) else None
    if not isinstance(cells, list):
        raise Refused("it has no cells")
    if len(cells) > MAX_CELLS:
        raise Refused(f"more than {MAX_CELLS:,} cells (the limit)")
    for number, cell in enumerate(cells, 1):
        source = cell.get("source") if isinstance(cell, dict) else None
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            source = "".join(source)
        if isinstance(source, str) and len(source) > MAX_CELL_CHARS:
            raise Refused(f"cell {number} has {len(source):,} characters, more than the limit of {MAX_CELL_CHARS:,}")
    return raw


def read_notebook(path: Path) -> dict:
    """The notebook as nbformat v4, or GradingError("not a readable notebook: ...") naming why: not a
    regular file (a symbolic link is never followed), over a cap (:data:`MAX_NOTEBOOK_BYTES`,
    :data:`MAX_CELLS`, :data:`MAX_CELL_CHARS`), not JSON, not a notebook. The message never quotes the file."""
    import nbformat
    try:
        data = _read_bytes(Path(path))
        _capped(data)
        notebook = nbformat.reads(data.decode("utf-8"), as_version=4)
        if not isinstance(notebook.get("cells"), list):
            raise Refused("it has no cells")
        for cell in notebook.cells:
            if cell.get("cell_type") not in ("code", "markdown", "raw") or not isinstance(cell.get("source"), str):
                raise Refused("a cell has no type or no source")
    except Exception as error:   # any failure to read is the student's file's, never the grader's crash
        why = str(error) if isinstance(error, Refused) else f"{type(error).__name__}: it is not a notebook nbformat reads"
        raise GradingError(f"not a readable notebook: {why[:200]}") from None
    return notebook


def _parsable(source: str) -> str:
    """The cell with IPython's magics and shell lines commented out, so that ast can read it."""
    return "\n".join("# " + line if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())


def code_cells(notebook: dict) -> list[tuple[int, str]]:
    """(number, source) of every code cell; numbers count all cells from 1, as a student scrolls them."""
    return [(number, cell["source"]) for number, cell in enumerate(notebook["cells"], 1) if cell["cell_type"] == "code"]


def function_source(notebook: dict, answer: str, before: int | None = None) -> str | None:
    """The source of the last code cell (numbered below ``before``, if given) whose top level defines
    ``def <answer>(``, read by parsing each cell (never by searching its text), without its checker
    calls; None if no cell defines it.

    GradingError if no valid cell defines it but a cell that is not valid Python seems to.
    """
    found, broken = None, None
    for number, source in code_cells(notebook):
        if before is not None and number >= before:
            break
        try:
            tree = ast.parse(_parsable(source))
        except SyntaxError as error:
            if re.search(rf"^\s*def\s+{re.escape(answer)}\s*\(", source, re.M):
                broken = error
            continue
        if any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == answer for node in tree.body):
            found, broken = source, None
    if found is None:
        if broken is not None:
            raise GradingError(f"the cell defining {answer} is not valid Python: {broken}")
        return None
    text = _parsable(found)
    tree = ast.parse(text)
    lines = text.splitlines()
    dropped = set()
    for node in tree.body:
        segment = ast.get_source_segment(text, node) or ""
        definition = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom))
        if not definition and ("exercises" in segment or re.search(r"\bcheck_\w+\s*\(", segment)):
            dropped.update(range(node.lineno - 1, node.end_lineno))
    return "\n".join(line for number, line in enumerate(lines) if number not in dropped).strip("\n") + "\n"


#: What a function's cell may not touch at all: the interpreter's insides. A mechanism needs none of it,
#: and with it a function could look at its caller or rewrite the checker's runner in its own process.
INTROSPECTION = {"sys", "inspect", "traceback", "gc", "ctypes", "os", "importlib", "builtins", "types", "threading",
                 "subprocess", "signal", "__import__", "eval", "exec", "compile", "globals", "locals", "vars",
                 "getattr", "setattr", "delattr", "open", "breakpoint", "__builtins__",
                 "pickle", "_pickle", "marshal", "copyreg", "shelve", "dill", "cloudpickle", "joblib"}
#: Attributes a function's cell may not use: frames, the module table, and loading pickled data
#: (``np.load(..., allow_pickle=True)`` unpickles, and a pickle can name any callable: ``eval``, ``os.system``).
#: ``exercises`` and ``course``: the checkers and the runner that calls the function (patching the generator
#: it hands over would make a function look like another in grading only).
FORBIDDEN_ATTRIBUTES = ("_getframe", "modules", "load", "loads", "fromfile", "exercises", "course")
#: The only modules a hand-written function's cell may import.
HAND_MODULES = {"numpy", "math"}


def out_of_bounds(source: str) -> str | None:
    """Why the cell reaches the interpreter's insides (a name of :data:`INTROSPECTION`, any dunder
    attribute, a frame's attributes, an attribute of :data:`FORBIDDEN_ATTRIBUTES`, ``allow_pickle``), or None.
    In the sandbox, :func:`dpteach.course.inside.guard` refuses the same routes when taken another way.
    Such a cell is not run: its function gets no point."""
    tree = ast.parse(_parsable(source))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in INTROSPECTION:
            return f"it uses `{node.id}`"
        if isinstance(node, ast.Attribute) and (node.attr.startswith("__") or node.attr.startswith(("f_", "tb_", "gi_"))
                                                or node.attr in FORBIDDEN_ATTRIBUTES):
            return f"it uses `.{node.attr}`"
        if isinstance(node, ast.keyword) and node.arg == "allow_pickle":
            return "it passes `allow_pickle`"
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                module = (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
                root = module.split(".")[0]
                parts = set(module.split(".")) | {alias.name}
                if root in INTROSPECTION or alias.name in INTROSPECTION or parts & {"exercises", "course"}:
                    return f"it imports `{module if isinstance(node, ast.Import) else module + '.' + alias.name}`"
    return None


def allowed_helpers(prompt: str) -> tuple[str, ...]:
    """The dpteach functions an exercise's prompt allows by name ("You may use `dp.all_databases`")."""
    found = re.search(r"[Yy]ou may use ((?:`dp\.\w+`(?:,\s*|\s+and\s+|\s+or\s+)?)+)", prompt)
    return tuple(re.findall(r"`dp\.(\w+)`", found.group(1))) if found else ()


def library_route(source: str, forbidden: Sequence[str], originals: dict[str, str] | None = None,
                  allowed: Sequence[str] = ()) -> str | None:
    """Why the cell does not write the function by hand, or None: it reaches a forbidden dpteach name
    (:func:`reaches_forbidden`), uses dpteach otherwise than as ``dp.<name>`` of a helper the exercise
    allows (``allowed``, from its prompt: :func:`allowed_helpers`), imports anything but numpy and math
    (scipy's Laplace, say), or holds a copy of a forbidden function's own source (``originals``: name →
    source), whatever its names."""
    reached = reaches_forbidden(source, forbidden)
    if reached:
        return f"your cell reaches dp.{reached}"
    tree = ast.parse(_parsable(source))
    helpers = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute)
               and isinstance(node.value, ast.Name) and node.value.id == "dp" and node.attr in allowed}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in ("dp", "dpteach") and id(node) not in helpers:
            return f"your cell uses `{node.id}`" + (f" beyond {', '.join(f'dp.{a}' for a in allowed)}" if allowed else "")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "dpteach" in node.value:
            return "your cell names dpteach in a string"
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                module = (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
                if module.split(".")[0] not in HAND_MODULES:
                    return f"your cell imports `{module}`"
    mine = {_shape(node) for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for name, text in (originals or {}).items():
        try:
            theirs = [_shape(n) for n in ast.parse(textwrap.dedent(text)).body if isinstance(n, ast.FunctionDef)]
        except SyntaxError:
            continue
        if mine & set(theirs):
            return f"your cell holds a copy of dp.{name}'s own code"
    return None


def _shape(function: ast.FunctionDef) -> str:
    """A function's body as a tree, its docstring and its own names left out (a copy renamed is the same)."""
    body = function.body[1:] if function.body and isinstance(function.body[0], ast.Expr) and \
        isinstance(function.body[0].value, ast.Constant) and isinstance(function.body[0].value.value, str) else function.body
    names = {a.arg: f"_{i}" for i, a in enumerate(function.args.posonlyargs + function.args.args + function.args.kwonlyargs)}
    module = ast.Module(body=[ast.parse(ast.unparse(statement)).body[0] for statement in body], type_ignores=[])
    for node in ast.walk(module):
        if isinstance(node, ast.Name):
            node.id = names.get(node.id, node.id)
    return ast.dump(module, annotate_fields=False)


def reaches_forbidden(source: str, forbidden: Sequence[str]) -> str | None:
    """The forbidden dpteach name that a function's cell reaches, read from its source (never run), or None.

    Compiled, then every code object is read: an attribute, an import or an import alias of a forbidden
    name, a global of that name that the cell does not define itself, a string equal to it
    (``getattr(dp, "laplace_mechanism")``), or ``from dpteach... import *``.
    """
    import dis
    import types
    if not forbidden:
        return None
    code = compile(_parsable(source), "<answer cell>", "exec")
    tree = ast.parse(_parsable(source))
    own = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and not _mentions(node.value, forbidden):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            own.update(t.id for t in targets if isinstance(t, ast.Name))
    codes = [code]
    if _imports_dpteach(tree):      # `from dpteach… import *` (an opcode before 3.12, an intrinsic call after)
        return forbidden[0]
    while codes:
        current = codes.pop()
        # before Python 3.11 a def stores its function's name as a string constant beside its code:
        # the name of a function the student defines is not a string reaching a forbidden function
        defined = {const.co_name for const in current.co_consts if isinstance(const, types.CodeType)}
        for const in current.co_consts:
            if isinstance(const, types.CodeType):
                codes.append(const)
            elif isinstance(const, str) and const in forbidden and const not in defined:
                return const
        for instruction in dis.get_instructions(current):
            name = instruction.argval
            if not isinstance(name, str):
                continue
            base = name.rsplit(".", 1)[-1]
            if instruction.opname in ("LOAD_ATTR", "LOAD_METHOD", "IMPORT_FROM", "IMPORT_NAME", "STORE_ATTR") \
                    and base in forbidden:
                return base
            if instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME") and name in forbidden and name not in own:
                return name
    return None


def _mentions(node: ast.AST, forbidden: Sequence[str]) -> bool:
    return any((isinstance(n, ast.Name) and n.id in forbidden) or (isinstance(n, ast.Attribute) and n.attr in forbidden)
               for n in ast.walk(node))


def _imports_dpteach(tree: ast.AST) -> bool:
    return any(isinstance(n, ast.ImportFrom) and (n.module or "").startswith("dpteach") and
               any(alias.name == "*" for alias in n.names) for n in ast.walk(tree))


def tampering(notebook: dict) -> list[str]:
    """What the notebook's code does to the grading machinery (for the reason; verdicts never depend on it)."""
    seen: list[str] = []
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        try:
            tree = ast.parse(_parsable(cell["source"]))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr") \
                    and node.args:
                targets = [node.args[0]]
            for target in targets:
                text = ast.unparse(target)
                if re.search(r"\bexercises\b|\bFeedback\b|\bcheck_\w+|sys\.modules|\bdp\b|\bdpteach\b", text):
                    seen.append(f"changes {text}")
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    re.search(r"sitecustomize|usercustomize|dpteach[/\\]|\.pth\b", node.value):
                seen.append(f"writes or names {node.value[:40]!r}")
    return sorted(set(seen))[:5]
