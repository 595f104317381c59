"""Grading a class: every submission executed in its own limited kernel, every verdict computed here.

::

    python -m dpteach.course grade --course build/course/course.json SUBMISSION... \\
        [--out build/graded] [--jobs N] [--timeout 120] [--memory 2048] [--function-timeout 20]

``SUBMISSION`` is a notebook or a folder (searched recursively for ``*.ipynb``). The student's id is
the notebook's file name without ``.ipynb`` (``ada.ipynb`` → ``ada``), except when the file keeps the
chapter's own name (``ada/05_accuracy_census_names.ipynb``, submissions collected one folder per
student): then it is the name of the folder holding it. A notebook's chapter is read from its
metadata (``{"dpteach": {"chapter": ...}}``, written by the course builder); failing that, from its
file name (a chapter's name in it), and failing that, the course's only chapter.

What happens to one submission, in a scratch folder removed afterwards:

a. the notebook is read (a truncated or invalid file scores 0: "not a readable notebook: ...");
b. it is executed top to bottom in a fresh kernel (errors allowed, as a student's Run All), started
   through :mod:`dpteach.course.sandbox` with a memory limit (``--memory`` MB) and a whole-run time
   limit (``--timeout`` s), in the scratch folder, with an environment cleaned of what test harnesses
   inject, and, when the grader runs as root, under a uid of its own. A kernel that hangs is killed
   at the limit, one that runs out of memory or dies scores 0 with that reason. Every cell runs, but
   dpteach's figure and slider layers (``dp.widgets``, ``dp.plots``) are stand-ins that draw nothing
   and matplotlib draws off screen: no exercise's answer comes from a figure, and drawing them is
   most of a chapter's run time (``--figures`` draws them anyway);
c. one extra cell then prints the answers as JSON: numbers as floats, strings as strings, anything
   else only as its type's name. A function answer is never taken from the kernel: its source is
   read from the submitted notebook, the last code cell that defines ``def <answer>(`` (its lines
   calling a checker left out). **Rule for students:** the function may use ``np``, ``math``, ``dp``
   and whatever its own cell defines (helpers, constants, imports); nothing from other cells;
d. every verdict is computed in this process, which imported dpteach before any student code ran:
   a value or a choice by the exercise's registered checker with the course manifest's parameters
   (never the ones the student's cell passes), 1 point; a function by its checker run on a
   :class:`~dpteach.course.sandbox.SandboxedFunction` (1 point), and 1 more point when it also passes
   the strict check: its cell's source names none of the dpteach functions the exercise asks to write
   (not under an alias, not imported, not as a string), checked on the source, unexecuted.

Whatever the student's notebook does to its own kernel (replacing ``dp.exercises.check_*`` or
``Feedback``, editing ``sys.modules``, writing files into its folder) changes nothing here; such
attempts are named in the submission's reason. Submissions are graded in parallel (``--jobs``
worker processes, each running one kernel at a time). Results, in ``--out``:

* ``gradebook.csv``: one row per student: ``id, file, chapter``, then ``<chapter>:<exercise>`` points
  for every exercise of the course, then ``total, possible, status`` (``ok`` or ``error``) and ``reason``;
* ``feedback/<id>.json``: per notebook, each question's points and the checker's message, to hand back.
"""

from __future__ import annotations

import argparse
import ast
import atexit
import csv
import inspect
import json
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .sandbox import PACKAGE_PARENT, SandboxedFunction, clean_environment, fresh_uid

MARKER = "DPTEACH-GRADER-ANSWERS "
KINDS = ("value", "choice", "function")
MAX_NOTEBOOK_BYTES = 64 * 1024 * 1024


class GradingError(Exception):
    """A submission that cannot be graded: it scores 0, and the message is its reason."""


@dataclass(frozen=True)
class Options:
    """Limits for one submission: the whole notebook run (s), the kernel's memory (MB), a function's cases (s)."""

    timeout: float = 120.0
    memory_mb: int = 2048
    function_timeout: float = 20.0
    figures: bool = False


# -- the course manifest ----------------------------------------------------------------------

def load_manifest(path: str | Path) -> dict:
    """The course manifest, checked: every exercise has a known kind, points, and a checker dpteach has."""
    try:
        manifest = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"course manifest {path} cannot be read: {error}") from None
    chapters = manifest.get("chapters") if isinstance(manifest, dict) else None
    if not isinstance(chapters, dict) or not chapters:
        raise ValueError(f"course manifest {path}: 'chapters' must be a non-empty object")
    for chapter, entry in chapters.items():
        for exercise in entry.get("exercises", []):
            where = f"course manifest {path}, {chapter}/{exercise.get('name')}"
            if exercise.get("kind") not in KINDS:
                raise ValueError(f"{where}: kind must be one of {KINDS} (got {exercise.get('kind')!r})")
            if not str(exercise.get("answer", "")).isidentifier():
                raise ValueError(f"{where}: answer must be a Python name (got {exercise.get('answer')!r})")
            if not isinstance(exercise.get("params", {}), dict):
                raise ValueError(f"{where}: params must be an object (got {exercise.get('params')!r})")
            checker(exercise["checker"])
    return manifest


def checker(name: str):
    """The registered checker called ``name`` (``dpteach.exercises.EXERCISES``, else the module's attribute)."""
    import dpteach.exercises as exercises
    spec = getattr(exercises, "EXERCISES", {}).get(name)
    function = getattr(spec, "checker", None) or getattr(exercises, name, None)
    if not (isinstance(name, str) and name.startswith("check_") and callable(function)):
        raise ValueError(f"checker must name a dpteach.exercises checker (got {name!r})")
    return function


def forbidden_names(name: str, sandboxed: SandboxedFunction | None = None) -> tuple[str, ...]:
    """The dpteach functions a function exercise may not reach: from its spec, from what its checker
    passed to the sandbox, or from the ``forbidden=`` its checker's source passes to check_function."""
    import dpteach.exercises as exercises
    spec = getattr(exercises, "EXERCISES", {}).get(name)
    if getattr(spec, "forbidden", None):
        return tuple(spec.forbidden)
    if sandboxed is not None and sandboxed.forbidden_seen:
        return tuple(sandboxed.forbidden_seen)
    try:
        tree = ast.parse(inspect.getsource(checker(name)))
    except (OSError, TypeError, SyntaxError):
        return ()
    for node in ast.walk(tree):
        for keyword in getattr(node, "keywords", []) if isinstance(node, ast.Call) else []:
            if keyword.arg == "forbidden":
                try:
                    return tuple(ast.literal_eval(keyword.value))
                except ValueError:
                    return ()
    return ()


# -- finding and naming submissions --------------------------------------------------------------

def find_submissions(paths: Sequence[str | Path]) -> list[Path]:
    """Every notebook named: files as given, folders searched recursively (checkpoints skipped)."""
    found: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found += sorted(p for p in path.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
        elif path.exists():
            found.append(path)
        else:
            raise ValueError(f"submission {path} does not exist")
    return found


def _chapter_stems(manifest: dict) -> dict[str, str]:
    stems = {}
    for chapter, entry in manifest["chapters"].items():
        stems[chapter] = chapter
        stems[Path(entry.get("notebook", chapter)).stem] = chapter
    return stems


def student_id(path: Path, manifest: dict) -> str:
    """The file's stem, or its folder's name when the file keeps a chapter's name (one folder per student)."""
    return path.parent.name if path.stem in _chapter_stems(manifest) and path.parent.name else path.stem


def chapter_of(notebook: dict, path: Path, manifest: dict) -> str:
    """The chapter from the metadata, else from the file name, else the course's only chapter."""
    meta = notebook.get("metadata", {}).get("dpteach", {})
    chapter = meta.get("chapter") if isinstance(meta, dict) else None
    if chapter in manifest["chapters"]:
        return chapter
    for stem, name in sorted(_chapter_stems(manifest).items(), key=lambda item: -len(item[0])):
        if stem in path.name:
            return name
    if len(manifest["chapters"]) == 1:
        return next(iter(manifest["chapters"]))
    raise GradingError(f"cannot tell which chapter this is (metadata dpteach.chapter is {chapter!r}, "
                       f"and the file name matches no chapter of the course)")


# -- reading the notebook ----------------------------------------------------------------------

def read_notebook(path: Path) -> dict:
    """The notebook as nbformat v4, or GradingError("not a readable notebook: ...")."""
    import nbformat
    try:
        if path.stat().st_size > MAX_NOTEBOOK_BYTES:
            raise ValueError(f"larger than {MAX_NOTEBOOK_BYTES // 2**20} MB")
        notebook = nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)
        if not isinstance(notebook.get("cells"), list):
            raise ValueError("it has no cells")
        for cell in notebook.cells:
            if cell.get("cell_type") not in ("code", "markdown", "raw") or not isinstance(cell.get("source"), str):
                raise ValueError("a cell has no type or no source")
    except Exception as error:   # any failure to read is the student's file's, never the grader's crash
        raise GradingError(f"not a readable notebook: {type(error).__name__}: {str(error)[:200]}") from None
    return notebook


def _parsable(source: str) -> str:
    """The cell with IPython's magics and shell lines commented out, so that ast can read it."""
    return "\n".join("# " + line if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())


def function_source(notebook: dict, answer: str) -> str | None:
    """The source of the last code cell defining ``def <answer>(``, without its checker calls; None if none does.

    GradingError if that cell is not valid Python.
    """
    found = None
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code" or not re.search(rf"^\s*def\s+{re.escape(answer)}\s*\(", cell["source"], re.M):
            continue
        found = cell["source"]
    if found is None:
        return None
    text = _parsable(found)
    try:
        tree = ast.parse(text)
    except SyntaxError as error:
        raise GradingError(f"the cell defining {answer} is not valid Python: {error}") from None
    if not any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == answer for node in tree.body):
        return None
    lines = text.splitlines()
    dropped = set()
    for node in tree.body:
        segment = ast.get_source_segment(text, node) or ""
        definition = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom))
        if not definition and ("exercises" in segment or re.search(r"\bcheck_\w+\s*\(", segment)):
            dropped.update(range(node.lineno - 1, node.end_lineno))
    return "\n".join(line for number, line in enumerate(lines) if number not in dropped).strip("\n") + "\n"


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


# -- executing the submission ---------------------------------------------------------------------

EXTRACT = """\
def _dpteach_grader_answers(names):
    import json, numbers
    namespace = get_ipython().user_ns
    answers = {}
    for name in names:
        if name not in namespace:
            answers[name] = {"missing": True}
            continue
        value = namespace[name]
        if value is None or value is Ellipsis:
            answers[name] = {"blank": True}
        elif isinstance(value, bool):
            answers[name] = {"bool": value}
        elif isinstance(value, numbers.Real):
            answers[name] = {"number": float(value)}
        elif isinstance(value, str):
            answers[name] = {"text": value[:1000]}
        else:
            answers[name] = {"type": type(value).__name__[:60]}
    print(%r + json.dumps(answers))
_dpteach_grader_answers(%r)
"""


class _Opaque:
    """An answer that was neither a number nor a string, known only by its type's name."""

    def __init__(self, type_name: str):
        self.type_name = type_name

    def __repr__(self) -> str:
        return f"a {self.type_name}"


def _answer_value(entry: Any) -> Any:
    if not isinstance(entry, dict) or len(entry) != 1:
        raise GradingError("the notebook's answers could not be read")
    (kind, value), = entry.items()
    if kind in ("missing", "blank"):
        return None
    if kind == "bool" and isinstance(value, bool):
        return value
    if kind == "number" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if kind == "text" and isinstance(value, str):
        return value
    if kind == "type" and isinstance(value, str):
        return _Opaque(value)
    raise GradingError("the notebook's answers could not be read")


def execute(notebook: dict, names: Sequence[str], folder: Path, options: Options) -> dict[str, Any]:
    """Run the notebook's code cells and the answers cell in a fresh limited kernel; the answers by name."""
    import nbformat

    cells = [nbformat.v4.new_code_cell(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"]
    cells.append(nbformat.v4.new_code_cell(EXTRACT % (MARKER, list(names))))
    run = nbformat.v4.new_notebook(cells=cells)
    work, ipython, specs = folder / "work", folder / "ipython", folder / "kernels" / "dpteach-grader"
    for path in (work, ipython, specs):
        path.mkdir(parents=True)
    uid = fresh_uid()
    argv = [sys.executable, "-m", "dpteach.course.sandbox", "kernel", "--memory-mb", str(options.memory_mb),
            "--cpu-seconds", str(options.timeout + 30)] + (["--uid", str(uid)] if uid is not None else []) + \
           ([] if options.figures else ["--no-figures"]) + \
           ["-f", "{connection_file}", "--HistoryManager.hist_file=:memory:"]
    (specs / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": "dpteach grader", "language": "python"}))
    if uid is not None:
        for path in (folder, work, ipython):
            os.chown(path, uid, uid)
    paths = [PACKAGE_PARENT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    env = clean_environment({"HOME": str(work), "IPYTHONDIR": str(ipython), "MPLCONFIGDIR": str(work / ".mpl"),
                             "PYTHONPATH": os.pathsep.join(paths)} | ({} if options.figures else {"MPLBACKEND": "agg"}))
    for attempt in range(3):
        try:
            _run(run, folder, env, work, options)
            break
        except _NoKernel as error:   # the kernel never started (e.g. a port taken meanwhile): no student code ran
            if attempt == 2:
                raise GradingError(f"the notebook could not be run: the kernel did not start ({error})") from None
    for cell in run.cells[:-1]:
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error" and output.get("ename") == "MemoryError":
                raise GradingError(f"the notebook ran out of memory (the limit is {options.memory_mb} MB)")
    texts = [output.get("text", "") for output in run.cells[-1].get("outputs", []) if output.get("output_type") == "stream"]
    lines = [line for line in "".join(texts).splitlines() if line.startswith(MARKER)]
    if not lines:
        raise GradingError("the notebook's answers could not be read (its last cell printed nothing the grader reads)")
    try:
        answers = json.loads(lines[-1][len(MARKER):])
    except ValueError:
        raise GradingError("the notebook's answers could not be read") from None
    if not isinstance(answers, dict):
        raise GradingError("the notebook's answers could not be read")
    return {name: _answer_value(answers.get(name, {"missing": True})) for name in names}


class _NoKernel(Exception):
    """The kernel died or hung before running the first cell: the machine's fault, never the notebook's."""


def _run(run: dict, folder: Path, env: dict, work: Path, options: Options) -> None:
    """Execute ``run`` in one kernel started from the kernel spec in ``folder``; GradingError for the notebook's faults."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    km = AsyncKernelManager(kernel_name="dpteach-grader",
                            kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(folder / "kernels")]))
    deadline = time.monotonic() + options.timeout
    client = NotebookClient(run, km=km, allow_errors=True, startup_timeout=60, shutdown_kernel="immediate",
                            timeout_func=lambda cell: max(1, int(deadline - time.monotonic()) + 1),
                            resources={"metadata": {"path": str(work)}})
    try:
        # cleanup_kc: nbclient keeps alive a kernel whose manager it was handed, unless told otherwise.
        client.execute(env=env, cwd=str(work), cleanup_kc=True)
    except CellTimeoutError:
        raise GradingError(f"the notebook ran longer than the time limit ({options.timeout:g} s): stopped") from None
    except DeadKernelError:
        raise GradingError(f"the kernel died while running the notebook (out of memory? the limit is "
                           f"{options.memory_mb} MB), or the notebook ended it") from None
    except Exception as error:   # a kernel that would not start or answer
        if run.cells[0].get("execution_count") is None:
            raise _NoKernel(f"{type(error).__name__}: {str(error)[:200]}") from None
        raise GradingError(f"the notebook could not be run: {type(error).__name__}: {str(error)[:200]}") from None
    finally:
        atexit.unregister(client._cleanup_kernel)   # nbclient's own clean-up at exit, done already
        _stop(km)


def _stop(km) -> None:
    """Kill the kernel (and what it started in its process group) if it still runs."""
    import signal

    from jupyter_core.utils import run_sync
    try:
        if km.has_kernel:
            run_sync(km.shutdown_kernel)(now=True)
    except Exception:   # already gone, or half started: make sure below
        pass
    process = getattr(getattr(km, "provisioner", None), "process", None)
    pid = getattr(process, "pid", None)
    if pid:
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


# -- verdicts --------------------------------------------------------------------------------

def _verdict(function, answer, params: dict) -> tuple[bool | None, str]:
    try:
        feedback = function(answer, **params)
    except Exception as error:   # a checker that cannot judge this answer: no point, and say so
        return False, f"the checker could not judge this answer ({type(error).__name__}: {error})"
    correct = getattr(feedback, "correct", None)
    return (correct if isinstance(correct, bool) else None), str(getattr(feedback, "message", feedback))


def grade_exercise(exercise: dict, answers: dict, notebook: dict, options: Options) -> dict:
    """One question's points and messages."""
    function = checker(exercise["checker"])
    params = dict(exercise.get("params", {}))
    possible = int(exercise.get("points", 2 if exercise["kind"] == "function" else 1))
    result = {"exercise": exercise["name"], "answer": exercise["answer"], "kind": exercise["kind"],
              "possible": possible, "points": 0}
    if exercise["kind"] != "function":
        correct, message = _verdict(function, answers.get(exercise["answer"]), params)
        result.update(points=possible if correct else 0, correct=correct, message=message)
        return result
    try:
        source = function_source(notebook, exercise["answer"])
    except GradingError as error:
        result.update(correct=False, message=str(error), strict="")
        return result
    if source is None:
        correct, message = _verdict(function, None, params)
        result.update(correct=correct, message=message, strict="")
        return result
    sandboxed = SandboxedFunction(source, exercise["answer"], time_limit=options.function_timeout,
                                  memory_mb=min(options.memory_mb, 2048),
                                  forbidden=forbidden_names(exercise["checker"]))
    correct, message = _verdict(function, sandboxed, params)
    reached = reaches_forbidden(source, forbidden_names(exercise["checker"], sandboxed))
    strict = (f"your cell reaches dp.{reached}, which is what this exercise asks you to write yourself: "
              "use numpy and the formula.") if reached else "it reaches none of the dpteach functions it should write."
    checker_point, strict_point = (1, possible - 1) if possible > 1 else (possible, 0)
    result.update(points=(checker_point if correct else 0) + (strict_point if correct and not reached else 0),
                  correct=correct, message=message, strict=strict)
    return result


def grade_submission(path: str | Path, manifest: dict, options: Options = Options()) -> dict:
    """Grade one notebook; never raises for anything the submission does."""
    path = Path(path)
    started = time.monotonic()
    record = {"id": student_id(path, manifest), "file": str(path), "chapter": "", "status": "ok", "reason": "",
              "questions": [], "total": 0, "possible": 0}
    folder = Path(tempfile.mkdtemp(prefix="dpteach-grade-"))
    try:
        notebook = read_notebook(path)
        record["chapter"] = chapter = chapter_of(notebook, path, manifest)
        exercises = manifest["chapters"][chapter].get("exercises", [])
        record["possible"] = sum(int(e.get("points", 2 if e["kind"] == "function" else 1)) for e in exercises)
        notes = tampering(notebook)
        answers = execute(notebook, [e["answer"] for e in exercises if e["kind"] != "function"], folder, options)
        record["questions"] = [grade_exercise(exercise, answers, notebook, options) for exercise in exercises]
        record["total"] = sum(q["points"] for q in record["questions"])
        if notes:
            record["reason"] = "tampering with the grader seen (no effect on the verdicts): " + "; ".join(notes)
    except GradingError as error:
        record.update(status="error", reason=str(error), total=0)
    except Exception as error:   # the grader's own failure on this file: still a row, never the batch's end
        record.update(status="error", reason=f"the grader failed on this file: {type(error).__name__}: {error}", total=0)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    record["seconds"] = round(time.monotonic() - started, 2)
    return record


# -- a class -----------------------------------------------------------------------------------

def fingerprint(root: str | Path | None = None) -> str:
    """A digest of the dpteach package's files (names, sizes, contents of the .py files).

    Student code runs as the grader's user unless the grader runs as root (see
    :mod:`dpteach.course.sandbox`), so a notebook could rewrite dpteach's own files, which every later
    sandboxed function imports. The digest is compared before and after each submission: a change
    makes that submission (and every later one) an error, to be graded again after reinstalling.
    """
    import hashlib
    root = Path(root) if root is not None else Path(PACKAGE_PARENT) / "dpteach"
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        digest.update(f"{path.relative_to(root)}:{path.stat().st_size}\n".encode())
        if path.suffix in (".py", ".pth"):
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _warm() -> None:
    """A worker imports what grading needs, once, before any student code runs anywhere."""
    import nbclient  # noqa: F401
    import nbformat  # noqa: F401

    import dpteach.exercises  # noqa: F401


def _task(path: str, manifest: dict, options: Options, baseline: str | None = None) -> dict:
    """One submission in a worker, with the package's fingerprint checked before and after."""
    if baseline is not None and fingerprint() != baseline:
        return _lost(Path(path), manifest, "not graded: dpteach's files changed during this batch (a notebook "
                                           "rewrote them); reinstall dpteach and grade again")
    record = grade_submission(path, manifest, options)
    if baseline is not None and fingerprint() != baseline:
        record.update(status="error", total=0, reason="tampering: this notebook changed dpteach's own files; "
                                                      "reinstall dpteach and grade again")
    return record


def grade_all(paths: Sequence[Path], manifest: dict, options: Options = Options(), jobs: int | None = None,
              progress=None, watch_package: bool = True) -> list[dict]:
    """Grade every notebook in ``paths`` with ``jobs`` worker processes; one record each, in ``paths``' order.

    ``watch_package`` compares dpteach's :func:`fingerprint` before and after each submission (off
    only where dpteach's files are edited on purpose meanwhile, as in a working copy under development).
    """
    from concurrent.futures import ProcessPoolExecutor, wait
    jobs = jobs or os.cpu_count() or 1
    if jobs < 1:
        raise ValueError(f"jobs must be ≥ 1 (got {jobs})")
    records: dict[int, dict] = {}
    with ProcessPoolExecutor(max_workers=min(jobs, max(1, len(paths))), mp_context=_context(),
                             initializer=_warm) as pool:
        baseline = fingerprint() if watch_package else None
        futures = {pool.submit(_task, str(path), manifest, options, baseline): index for index, path in enumerate(paths)}
        # Every submission's own limits end it; this is the grader's last guard (a worker lost or stuck).
        guard = options.timeout + 4 * options.function_timeout + 300
        pending = set(futures)
        while pending:
            done, pending = wait(pending, timeout=guard, return_when="FIRST_COMPLETED")
            if not done:
                break
            for future in done:
                index = futures[future]
                try:
                    records[index] = future.result()
                except Exception as error:   # a worker process lost: that submission's row says so
                    records[index] = _lost(paths[index], manifest, f"the grader's worker failed: {error}")
                if progress:
                    progress(records[index])
        for future in pending:
            future.cancel()
            records[futures[future]] = _lost(paths[futures[future]], manifest, "the grader gave up on this file")
    return [records[index] for index in range(len(paths))]


def _context():
    """Workers forked from the grader (which imported dpteach, untouched by students) where fork exists."""
    import multiprocessing
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _lost(path: Path, manifest: dict, reason: str) -> dict:
    return {"id": student_id(Path(path), manifest), "file": str(path), "chapter": "", "status": "error",
            "reason": reason, "questions": [], "total": 0, "possible": 0, "seconds": 0.0}


def columns(manifest: dict) -> list[str]:
    """The gradebook's question columns, ``<chapter>:<exercise>``, in the manifest's order."""
    return [f"{chapter}:{exercise['name']}" for chapter, entry in manifest["chapters"].items()
            for exercise in entry.get("exercises", [])]


def write_results(records: Sequence[dict], manifest: dict, out: str | Path) -> Path:
    """``gradebook.csv`` (one row per student) and ``feedback/<id>.json``; the gradebook's path."""
    out = Path(out)
    (out / "feedback").mkdir(parents=True, exist_ok=True)
    rows: dict[str, dict] = {}
    for record in records:
        row = rows.setdefault(record["id"], {"id": record["id"], "file": [], "chapter": [], "total": 0, "possible": 0,
                                             "status": "ok", "reason": []})
        if record["chapter"] and record["chapter"] in row["chapter"]:
            row["status"] = "error"
            row["reason"].append(f"a second notebook for {record['chapter']} ({record['file']}) was not counted")
            continue
        row["file"].append(record["file"])
        row["chapter"].append(record["chapter"])
        row["total"] += record["total"]
        row["possible"] += record["possible"]
        if record["status"] != "ok":
            row["status"] = "error"
        if record["reason"]:
            row["reason"].append(record["reason"])
        for question in record["questions"]:
            row[f"{record['chapter']}:{question['exercise']}"] = question["points"]
    question_columns = columns(manifest)
    gradebook = out / "gradebook.csv"
    with open(gradebook, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "file", "chapter", *question_columns, "total", "possible", "status", "reason"])
        for student in sorted(rows):
            row = rows[student]
            writer.writerow([row["id"], ";".join(row["file"]), ";".join(c for c in row["chapter"] if c),
                             *[row.get(column, 0) for column in question_columns],
                             row["total"], row["possible"], row["status"], " | ".join(row["reason"])])
    by_student: dict[str, list[dict]] = {}
    for record in records:
        by_student.setdefault(record["id"], []).append(record)
    for student, items in by_student.items():
        safe = re.sub(r"[^\w.-]", "_", student) or "_"
        (out / "feedback" / f"{safe}.json").write_text(json.dumps(items, indent=1, ensure_ascii=False), encoding="utf-8")
    return gradebook


def summary(records: Sequence[dict], seconds: float) -> str:
    """A short table for the terminal."""
    width = max([len(r["id"]) for r in records] + [7])
    lines = [f"{'student':<{width}}  {'chapter':<28} {'points':>7}  status  reason", "-" * (width + 60)]
    for r in sorted(records, key=lambda r: r["id"]):
        reason = r["reason"] if len(r["reason"]) <= 70 else r["reason"][:67] + "..."
        lines.append(f"{r['id']:<{width}}  {r['chapter'][:28]:<28} {r['total']:>3}/{r['possible']:<3}  {r['status']:<6}  {reason}")
    errors = sum(r["status"] != "ok" for r in records)
    lines.append(f"{len(records)} notebooks graded in {seconds:.1f} s ({seconds / max(1, len(records)):.2f} s each); "
                 f"{errors} could not be graded (0 points, reason above)")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["grade"]:
        argv = argv[1:]
    parser = argparse.ArgumentParser(prog="python -m dpteach.course grade",
                                     description="Grade students' notebooks against a course manifest.")
    parser.add_argument("submissions", nargs="+", help="notebooks, or folders searched for *.ipynb")
    parser.add_argument("--course", required=True, help="the course manifest (build/course/course.json)")
    parser.add_argument("--out", default="build/graded", help="where gradebook.csv and feedback/ go")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="notebooks graded at once (default: cores)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds for a whole notebook's run")
    parser.add_argument("--memory", type=int, default=2048, help="MB of memory for a notebook's kernel")
    parser.add_argument("--function-timeout", type=float, default=20.0, help="seconds for a function's hidden cases")
    parser.add_argument("--unwatched", action="store_true",
                        help="do not compare dpteach's files before and after each notebook (only for a working "
                             "copy whose files are being edited meanwhile)")
    parser.add_argument("--figures", action="store_true",
                        help="draw the chapters' figures and sliders too (slower; by default they are stand-ins)")
    args = parser.parse_args(argv)
    for name, value, low in (("--jobs", args.jobs, 1), ("--timeout", args.timeout, 1), ("--memory", args.memory, 256),
                             ("--function-timeout", args.function_timeout, 1)):
        if not value >= low:
            parser.error(f"{name} must be ≥ {low} (got {value})")
    try:
        manifest = load_manifest(args.course)
        paths = find_submissions(args.submissions)
    except ValueError as error:
        parser.error(str(error))
    if not paths:
        parser.error("no notebooks found in " + ", ".join(args.submissions))
    options = Options(timeout=args.timeout, memory_mb=args.memory, function_timeout=args.function_timeout,
                      figures=args.figures)
    started = time.monotonic()
    records = grade_all(paths, manifest, options, jobs=args.jobs, watch_package=not args.unwatched,
                        progress=lambda r: print(f"  {r['id']}: {r['total']}/{r['possible']} {r['status']}", flush=True))
    took = time.monotonic() - started
    gradebook = write_results(records, manifest, args.out)
    print(summary(records, took))
    print(f"wrote {gradebook} and {Path(args.out) / 'feedback'}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
