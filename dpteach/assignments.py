"""Autograded homework from the workbook's exercises, with otter-grader.

``python -m dpteach.assignments build [CHAPTER ...]`` turns each chapter with exercises
(``notebooks/NN_*.ipynb``) into an otter-grader master notebook, then runs ``otter assign`` on it:
``build/assignments/NN_name/student/`` is the notebook to hand out, ``.../autograder/`` the zip
that grades it. ``python -m dpteach.assignments grade AUTOGRADER.zip SUBMISSION.ipynb ...``
grades submissions locally (``otter run``: no Docker, no network) and prints a score per question
with the checker's own feedback.

The chapter is the single source: the assignment is the whole chapter (its explanations and code,
outputs cleared), and each exercise (a prompt, a student cell with ``# your answer here``, a hidden
solution cell tagged ``solution``) becomes one question. The student sees the chapter's stub, word
for word; the solution's lines all sit inside an otter ``BEGIN SOLUTION NO PROMPT`` block, so none
reaches the student. The tests call the same checker as the chapter (``dp.exercises.check_*``), so
"correct" is defined once, and a failed test's message is the checker's diagnosis (e.g. "you used
log10; Theorem 3.8 uses the natural logarithm"), which never reveals the value.

Points: 1 for a numeric or multiple-choice answer, 2 for a function the student writes. A function
gets a public test (the checker, as in the notebook) and a hidden one (the checker run by
:func:`dpteach.exercises._base.strict_check`, which also refuses a function that reaches the
dpteach function it should write under another name). Students need neither otter nor the tests:
the chapter's checker call in the stub gives the same feedback while they work.

otter-grader is the ``grade`` extra (``pip install -e '.[grade]'``); it is driven as a command in a
subprocess, never imported here (``import otter`` warns, and this module is imported by the test
suite's doctest collection).
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
OUT = ROOT / "build" / "assignments"
MARKER = "# your answer here"
EXERCISES = re.compile(r"^## Exercises\s*$", re.MULTILINE)
PROMPT_START = re.compile(r"^\*\*Exercise\b", re.MULTILINE)
POINTS = {"value": 1, "function": 2}
# Generous bounds for one `otter assign` (runs the chapter and its tests) and one graded submission
# (runs the chapter top to bottom): a few seconds each on a laptop.
ASSIGN_TIMEOUT = 300
GRADE_TIMEOUT = 180


@dataclass(frozen=True)
class Exercise:
    """One exercise of a chapter, as the chapter writes it."""

    number: int
    prompt: str          # the markdown from "**Exercise N.**" on
    stub: str            # the student cell without its checker call
    solution: str        # the solution cell without its checker call
    call: str            # the checker call, e.g. "dp.exercises.check_accuracy_bound(answer_accuracy_bound)"
    checker: str         # e.g. "check_accuracy_bound"
    answer: str          # the answer's own name, e.g. "answer_accuracy_bound"
    kind: str            # "value" (a number or a letter) or "function" (the student writes a def)

    @property
    def name(self) -> str:
        return f"exercise_{self.number}"

    @property
    def points(self) -> int:
        return POINTS[self.kind]


def _source(cell) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def _checker_call(source: str, where: str) -> tuple[str, str, str, tuple[int, int]]:
    """The cell's last statement, a call of ``dp.exercises.check_*`` on the answer: (call, checker, answer, lines)."""
    tree = ast.parse(source)
    last = tree.body[-1] if tree.body else None
    call = last.value if isinstance(last, ast.Expr) else None
    func = call.func if isinstance(call, ast.Call) else None
    if not (isinstance(func, ast.Attribute) and func.attr.startswith("check_") and ast.unparse(func.value) == "dp.exercises"
            and call.args and isinstance(call.args[0], ast.Name)):
        raise ValueError(f"{where}: the cell should end with dp.exercises.check_*(<answer name>), got {source!r}")
    return ast.get_source_segment(source, last), func.attr, call.args[0].id, (last.lineno, last.end_lineno)


def _without_lines(source: str, lines: tuple[int, int]) -> str:
    kept = [line for number, line in enumerate(source.splitlines(), 1) if not lines[0] <= number <= lines[1]]
    return "\n".join(kept).strip("\n")


def find_exercises(notebook, chapter: str = "chapter") -> list[tuple[int, int, int, Exercise]]:
    """Every exercise of a chapter notebook: (prompt cell, student cell, solution cell, Exercise).

    An exercise is a markdown cell whose text has a line starting "**Exercise", a code cell with
    ``# your answer here`` that ends by calling its checker on the answer, and a code cell tagged
    ``solution`` that ends with the same call.
    """
    cells = notebook["cells"]
    found = []
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "code" or MARKER not in _source(cell):
            continue
        where = f"{chapter}, cell {index}"
        prompt_cell = cells[index - 1] if index else None
        if prompt_cell is None or prompt_cell["cell_type"] != "markdown" or not PROMPT_START.search(_source(prompt_cell)):
            raise ValueError(f"{where}: a student cell should follow a markdown prompt starting '**Exercise'")
        solution_cell = cells[index + 1] if index + 1 < len(cells) else None
        if solution_cell is None or "solution" not in solution_cell.get("metadata", {}).get("tags", []):
            raise ValueError(f"{where}: a student cell should be followed by a cell tagged 'solution'")
        student, solution = _source(cell), _source(solution_cell)
        call, checker, answer, call_lines = _checker_call(student, where)
        solution_call, _, _, solution_lines = _checker_call(solution, f"{chapter}, cell {index + 1}")
        if ast.dump(ast.parse(solution_call)) != ast.dump(ast.parse(call)):
            raise ValueError(f"{where}: the solution calls {solution_call!r}, the student cell {call!r}")
        prompt_text = _source(prompt_cell)
        start = PROMPT_START.search(prompt_text).start()
        kind = "function" if re.search(rf"^\s*def {re.escape(answer)}\(", solution, re.MULTILINE) else "value"
        found.append((index - 1, index, index + 1, Exercise(
            number=len(found) + 1, prompt=prompt_text[start:], stub=_without_lines(student, call_lines),
            solution=_without_lines(solution, solution_lines), call=call, checker=checker, answer=answer, kind=kind)))
    answers = [exercise.answer for *_, exercise in found]
    if len(set(answers)) != len(answers):
        raise ValueError(f"{chapter}: every exercise needs its own answer name (otter runs the tests after the whole "
                         f"notebook, so a shared name is overwritten), got {answers}")
    exercise_cells = {i for found_cells in found for i in found_cells[1:3]}
    for index, cell in enumerate(cells):
        if cell["cell_type"] == "code" and index not in exercise_cells:
            for answer in answers:
                if re.search(rf"^\s*(def\s+{answer}\b|{answer}\s*=)", _source(cell), re.MULTILINE):
                    raise ValueError(f"{chapter}, cell {index}: {answer} is an exercise's answer; the chapter must not "
                                     "assign it elsewhere")
    return found


def _raw(text: str):
    return {"cell_type": "raw", "metadata": {}, "source": text}


def _code(text: str):
    return {"cell_type": "code", "metadata": {}, "source": text, "outputs": [], "execution_count": None}


def _markdown(text: str):
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def _test(exercise: Exercise, hidden: bool) -> str:
    """An otter exception-based test: the chapter's checker on the answer, failing with its message."""
    names = sorted({node.id for node in ast.walk(ast.parse(exercise.call)) if isinstance(node, ast.Name)} - {"dp"})
    call = ast.parse(exercise.call).body[0].value
    if hidden:
        args = ", ".join([f"dp.exercises.{exercise.checker}"] + [ast.unparse(arg) for arg in call.args]
                         + [ast.unparse(keyword) for keyword in call.keywords])
        check = f"strict_check({args})"
        imports = "    import dpteach as dp\n    from dpteach.exercises._base import strict_check\n"
    else:
        check, imports = exercise.call, "    import dpteach as dp\n"
    return ("# HIDDEN\n" if hidden else "") + (
        f"def test_{exercise.name}{'_hidden' if hidden else ''}({', '.join(names)}):\n{imports}"
        f"    feedback = {check}\n"
        f"    assert feedback.correct, repr(feedback)\n")


def _solution_cell(exercise: Exercise) -> str:
    if '"""' in exercise.stub or "\\" in exercise.stub:
        raise ValueError(f"exercise {exercise.number}: the stub may not contain triple quotes or backslashes")
    return (f"# BEGIN SOLUTION NO PROMPT\n{exercise.solution}\n# END SOLUTION\n"
            f'""" # BEGIN PROMPT\n{exercise.stub}\n"""  # END PROMPT\n{exercise.call}\n')


def assignment_config(chapter: str) -> str:
    return f"""# ASSIGNMENT CONFIG
name: {chapter}
init_cell: false
check_all_cell: false
export_cell: false
show_question_points: true
run_tests: true
tests:
  files: false
  ok_format: false
generate:
  pdf: false
  zips: false
  show_hidden: true
"""


def master_notebook(path: Path) -> tuple[dict, list[Exercise]]:
    """The otter master notebook of one chapter (outputs cleared), and its exercises."""
    notebook = json.loads(Path(path).read_text(encoding="utf-8"))
    found = find_exercises(notebook, Path(path).stem)
    by_prompt = {prompt: (student, solution, exercise) for prompt, student, solution, exercise in found}
    skip = {i for _, student, solution, _ in found for i in (student, solution)}
    cells = [_raw(assignment_config(Path(path).stem))]
    for index, cell in enumerate(notebook["cells"]):
        if index in skip or "instructor" in cell.get("metadata", {}).get("tags", []):
            continue                     # solutions go into the tests; speaker notes stay with the instructor
        if index not in by_prompt:
            cell = copy.deepcopy(cell)
            if cell["cell_type"] == "code":
                cell["outputs"], cell["execution_count"] = [], None
            cell.get("metadata", {}).pop("execution", None)
            cells.append(cell)
            continue
        exercise = by_prompt[index][2]
        before = _source(cell)[:PROMPT_START.search(_source(cell)).start()].strip()
        if before:
            cells.append(_markdown(before))
        cells += [_raw(f"# BEGIN QUESTION\nname: {exercise.name}\npoints: {exercise.points}\ncheck_cell: false"),
                  _markdown(exercise.prompt),
                  _raw("# BEGIN SOLUTION"), _code(_solution_cell(exercise)), _raw("# END SOLUTION"),
                  _raw("# BEGIN TESTS"), _code(_test(exercise, hidden=False))]
        if exercise.kind == "function":
            cells.append(_code(_test(exercise, hidden=True)))
        cells += [_raw("# END TESTS"), _raw("# END QUESTION")]
    metadata = {key: value for key, value in notebook.get("metadata", {}).items() if key != "jupytext"}
    return {"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}, [e for *_, e in found]


def chapters_with_exercises(directory: Path = NOTEBOOKS) -> list[Path]:
    """The chapters with an "## Exercises" section (chapter 00's one try-it cell is a demonstration, not homework)."""
    chapters = []
    for path in sorted(Path(directory).glob("[0-9][0-9]_*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        if any(cell["cell_type"] == "markdown" and EXERCISES.search(_source(cell)) for cell in cells):
            chapters.append(path)
    return chapters


def otter_environment() -> dict[str, str]:
    """The environment for otter's subprocesses: this one without PYTHONWARNINGS.

    The test suite sets PYTHONWARNINGS=error, and every subprocess (and the kernel that runs a
    submission, which runs otter's own code) would inherit it: ``import otter`` raises a
    DeprecationWarning from traitlets, and the grading would fail before any test runs. The
    workbook's own code is held to warnings-as-errors by the notebook tests, not here.
    """
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONWARNINGS"}
    environment.setdefault("MPLCONFIGDIR", str(Path(sys.prefix) / "matplotlib"))
    return environment


def _otter(*args: str, timeout: float, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "otter", *args], cwd=cwd, env=otter_environment(),
                          capture_output=True, text=True, timeout=timeout, check=False)


def build(chapters: list[Path] | None = None, out: Path = OUT, run_otter: bool = True) -> list[Path]:
    """Write each chapter's master notebook and (run_otter) its student notebook and autograder.

    Returns the output folders (``out/NN_name``), each with ``master/NN_name.ipynb`` (solutions,
    for the instructor), and after ``otter assign`` ``student/`` and ``autograder/``.
    """
    folders = []
    for path in chapters or chapters_with_exercises():
        path = Path(path)
        folder = Path(out) / path.stem
        master_dir = folder / "master"
        master_dir.mkdir(parents=True, exist_ok=True)
        master, _ = master_notebook(path)
        master_path = master_dir / path.name
        master_path.write_text(json.dumps(master, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        if run_otter:
            for old in ("student", "autograder"):   # otter names the zip by the time: no stale zip may stay
                shutil.rmtree(folder / old, ignore_errors=True)
            result = _otter("assign", str(master_path), str(folder), timeout=ASSIGN_TIMEOUT, cwd=master_dir)
            if result.returncode != 0:
                raise RuntimeError(f"otter assign failed on {path.name}:\n{result.stdout}\n{result.stderr}")
        folders.append(folder)
    return folders


def autograder_zip(folder: Path) -> Path:
    """The autograder zip that ``otter assign`` wrote into ``folder/autograder``."""
    zips = sorted((Path(folder) / "autograder").glob("*-autograder_*.zip"))
    if len(zips) != 1:
        raise FileNotFoundError(f"expected one autograder zip in {folder / 'autograder'}, found {len(zips)}")
    return zips[0]


def grade(zip_path: Path, submission: Path, out: Path, timeout: float = GRADE_TIMEOUT) -> dict:
    """Grade one submission locally with ``otter run``; return otter's results (results.json)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    result = _otter("run", "-a", str(zip_path), "-o", str(out), str(submission), timeout=timeout)
    results = out / "results.json"
    if result.returncode != 0 or not results.exists():
        raise RuntimeError(f"otter run failed on {submission}:\n{result.stdout}\n{result.stderr}")
    return json.loads(results.read_text(encoding="utf-8"))


def scores(results: dict) -> dict[str, tuple[float, float, list[str]]]:
    """Per question: (score, possible, the checker's messages for its failed test cases).

    ``results`` is otter's results.json (Gradescope's format): one entry per question with its
    score and a summary in which a failed case ends "AssertionError: ❌ Not quite: <message>".
    """
    table = {}
    for test in results["tests"]:
        if "score" not in test:
            continue   # the summary of the public tests: the questions' own entries follow
        messages = [line.strip().removeprefix("AssertionError: ") for line in test.get("output", "").splitlines()
                    if line.strip().startswith(("AssertionError: ", "❌ Not quite", "✏️ Your turn"))]
        table[test["name"]] = (float(test["score"]), float(test["max_score"]), messages)
    return table


def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dpteach.assignments", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    build_parser = commands.add_parser("build", help="write the assignments and autograders into build/assignments/")
    build_parser.add_argument("chapters", nargs="*", help="chapter notebooks (default: every chapter with exercises)")
    build_parser.add_argument("--out", type=Path, default=OUT)
    grade_parser = commands.add_parser("grade", help="grade submissions locally; a table of scores and feedback")
    grade_parser.add_argument("autograder", type=Path, help="an autograder zip (build/assignments/NN_name/autograder/*.zip)")
    grade_parser.add_argument("submissions", type=Path, nargs="+", help="submitted notebooks")
    grade_parser.add_argument("--out", type=Path, default=OUT / "graded")
    arguments = parser.parse_args(argv)
    if arguments.command == "build":
        start = time.perf_counter()
        for folder in build([Path(c) for c in arguments.chapters] or None, arguments.out):
            print(f"{folder.relative_to(ROOT) if folder.is_relative_to(ROOT) else folder}: student/ and autograder/")
        print(f"built in {time.perf_counter() - start:.0f} s")
        return 0
    for number, submission in enumerate(arguments.submissions, 1):
        results = grade(arguments.autograder, submission, arguments.out / f"{number}_{submission.stem}")
        table = scores(results)
        print(f"{submission}: {sum(s for s, _, _ in table.values()):g} / {sum(p for _, p, _ in table.values()):g}")
        for name, (score, possible, messages) in table.items():
            print(f"  {name}: {score:g} / {possible:g}")
            for message in messages:
                print("    " + message)
    return 0


if __name__ == "__main__":
    sys.exit(_main())
