"""Reading a submitted notebook without running it, once: :func:`read_submission` gives a :class:`Handed`.

Everything here parses the file the student handed in (never their process), each code cell once: what it
defines at its top level (a function answer is the last top-level ``def`` of its name, found by parsing each
cell, never by searching its text), its source as :mod:`ast` reads it, and what the notebook's code does to the
grading machinery (:func:`tampering`). What a function's cell reaches is :mod:`dpteach.course.reach`'s.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from pathlib import Path

from .model import GradingError, plain

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


def _answer_source(text: str, tree: ast.Module) -> str:
    """A cell's parsable source without its top-level checker calls (what a function answer runs with)."""
    lines = text.splitlines()
    dropped = set()
    for node in tree.body:
        segment = ast.get_source_segment(text, node) or ""
        definition = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom))
        if not definition and ("exercises" in segment or re.search(r"\bcheck_\w+\s*\(", segment)):
            dropped.update(range(node.lineno - 1, node.end_lineno))
    return "\n".join(line for number, line in enumerate(lines) if number not in dropped).strip("\n") + "\n"


@dataclass(frozen=True)
class Cell:
    """A code cell as handed in: its ``number`` (all cells counted from 1, as a student scrolls them), its
    ``source``, the functions its top level defines (``defines``), and, for a cell that is not valid Python,
    the ``error`` and the functions it seems to define (``broken``: a line ``def <name>(``)."""

    number: int
    source: str
    defines: frozenset[str] = frozenset()
    answer: str = ""
    error: str = ""
    broken: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Handed:
    """A submitted notebook, read once: the ``notebook`` (nbformat v4), the chapter it registers (``registered``,
    as written: "" when none), whom its metadata says it was made for (``made_for``), its code ``cells``, what
    its code does to the grading machinery (``tampering``: for the reason, never for a verdict), and what its
    homework line says (``numbers``, ``email``)."""

    notebook: dict
    registered: str = ""
    made_for: str = ""
    cells: tuple[Cell, ...] = ()
    tampering: tuple[str, ...] = ()
    #: what its homework line says (:func:`homework_line`): the numbers it registers, the email it was given
    numbers: dict | None = None
    email: str | None = None

    def function_source(self, answer: str, before: int | None = None) -> str | None:
        """The source of the last code cell (numbered below ``before``, if given) whose top level defines ``def
        <answer>(``, without its checker calls; None if no cell defines it. GradingError if no valid cell
        defines it but a cell that is not valid Python seems to."""
        found, broken = None, None
        for cell in self.cells:
            if before is not None and cell.number >= before:
                break
            if answer in cell.broken:
                broken = cell.error
            elif answer in cell.defines:
                found, broken = cell.answer, None
        if found is None and broken is not None:
            raise GradingError(f"the cell defining {answer} is not valid Python: {broken}")
        return found


def _cell(number: int, source: str) -> Cell:
    text = _parsable(source)
    try:
        tree = ast.parse(text)
    except SyntaxError as error:
        seemed = frozenset(re.findall(r"^\s*def\s+(\w+)\s*\(", source, re.M))
        return Cell(number, source, error=str(error), broken=seemed)
    defines = frozenset(node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return Cell(number, source, defines, _answer_source(text, tree) if defines else "")


def read_submission(path: str | Path) -> Handed:
    """The notebook at ``path`` read and parsed once (:func:`read_notebook`'s refusals apply)."""
    return parse_notebook(read_notebook(Path(path)))


def parse_notebook(notebook: dict) -> Handed:
    """A notebook (nbformat v4) parsed once: its registration, its code cells, what its code tampers with."""
    meta = notebook.get("metadata", {}).get("dpteach", {})
    meta = meta if isinstance(meta, dict) else {}
    registered, made_for = meta.get("chapter"), meta.get("student")
    cells = tuple(_cell(number, cell["source"]) for number, cell in enumerate(notebook["cells"], 1)
                  if cell["cell_type"] == "code")
    numbers, email = homework_line(notebook)
    return Handed(notebook, registered if isinstance(registered, str) else "",
                  made_for if isinstance(made_for, str) else "", cells, tuple(tampering(notebook)), numbers, email)


def _homework_call(notebook: dict) -> ast.Call | None:
    """The ``dp.exercises.homework(...)`` call of the first code cell that has one (None: none, or not Python)."""
    for cell in notebook.get("cells", []):
        source = cell.get("source", "") if cell.get("cell_type") == "code" else ""
        text = "".join(source) if isinstance(source, list) else source
        if "dp.exercises.homework(" not in text:
            continue
        try:
            tree = ast.parse(text)
        except SyntaxError:
            return None
        return next((node for node in ast.walk(tree) if isinstance(node, ast.Call)
                     and ast.unparse(node.func) == "dp.exercises.homework"), None)
    return None


def homework_line(notebook: dict) -> tuple[dict | None, str | None]:
    """What a submitted notebook's homework line says: (the numbers it registers, checker → parameters, as
    :func:`plain` data; the email a shared notebook's line was given, as written). Each None when no code cell
    has such a line (the numbers also when they are not plain literals)."""
    call = _homework_call(notebook)
    email = next((str(keyword.value.value) for keyword in (call.keywords if call is not None else [])
                  if keyword.arg == "email" and isinstance(keyword.value, ast.Constant)), None)
    if call is None or len(call.args) != 2 or call.keywords:
        return None, email
    try:
        return plain(ast.literal_eval(call.args[1])), email
    except (ValueError, TypeError, SyntaxError):
        return None, email


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
