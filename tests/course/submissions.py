"""Chapter 05's homework as a student hands it in, for the grading tests: the course, right and wrong answers.

:func:`submission` makes a notebook from chapter 05's executed notebook: its first code cell (the
imports) and its exercises section, solutions removed, the student cells filled in as a student would,
plus whatever cells a test adds.
"""

import copy
import inspect

import nbformat

import dpteach as dp
import dpteach.exercises as ex
from dpteach.course import grading

CHAPTER = "05_accuracy_census_names"
BETA = "beta" if "beta" in inspect.signature(ex.check_accuracy_bound).parameters else "delta"
PARAMS_1 = {"k": 2000, BETA: 0.05, "epsilon": 0.25}
OPTIONS = grading.Options(timeout=15, memory_mb=1024, function_timeout=3, cell_timeout=4)
MANIFEST = {"seed": 20261201, "chapters": {CHAPTER: {"notebook": f"{CHAPTER}.ipynb", "exercises": [
    {"name": "exercise_1", "answer": "answer_accuracy_bound", "checker": "check_accuracy_bound", "kind": "value",
     "points": 1, "params": PARAMS_1},
    {"name": "exercise_2", "answer": "answer_beta_for_bound", "checker": "check_delta_for_bound", "kind": "value",
     "points": 1, "params": {}},
    {"name": "exercise_4", "answer": "my_accuracy_bound", "checker": "check_accuracy_bound_function", "kind": "function",
     "points": 2, "params": {}}]}}}

RIGHT_1 = dp.laplace_accuracy_bound(2000, 0.05, 1, 0.25)
RIGHT_2 = 10_000 * dp.laplace_tail(10.0)
RIGHT_FUNCTION = "def my_accuracy_bound(k, beta, sensitivity, epsilon):\n    return np.log(k / beta) * sensitivity / epsilon\n"
WRONG_FUNCTION = "def my_accuracy_bound(k, beta, sensitivity, epsilon):\n    return math.log(k / beta) * sensitivity\n"
RIGHT = {"answer_accuracy_bound": f"answer_accuracy_bound = {RIGHT_1!r}",
         "answer_beta_for_bound": f"answer_beta_for_bound = {RIGHT_2!r}", "my_accuracy_bound": RIGHT_FUNCTION}
ALL_WRONG = {"answer_accuracy_bound": "answer_accuracy_bound = 1.0", "answer_beta_for_bound": "answer_beta_for_bound = 0.5",
             "my_accuracy_bound": WRONG_FUNCTION}


def submission(folder, name, answers=None, extra=(), metadata=True, calls=True):
    """Chapter 05's imports and exercises, solutions removed, student cells replaced by ``answers``
    (followed by the cell's checker call, unless ``calls`` is False: a student who deleted it)."""
    notebook = nbformat.read(f"notebooks/{CHAPTER}.ipynb", as_version=4)
    cells = notebook.cells
    start = next(i for i, cell in enumerate(cells) if cell.cell_type == "markdown" and cell.source.startswith("## Exercises"))
    first_code = next(cell for cell in cells if cell.cell_type == "code")
    kept = [copy.deepcopy(first_code)] + [copy.deepcopy(c) for c in cells[start:] if "solution" not in c.metadata.get("tags", [])]
    for cell in kept:
        if cell.cell_type != "code":
            continue
        cell.outputs, cell.execution_count = [], None
        for answer, source in (answers or {}).items():
            if "# your answer here" in cell.source and f"{answer} = ..." in cell.source:
                call = cell.source.splitlines()[-1]
                cell.source = source.rstrip("\n") + ("\n" + call if calls else "\n")
    kept += [nbformat.v4.new_code_cell(source) for source in extra]
    notebook.cells = kept
    notebook.metadata.pop("widgets", None)
    if metadata:
        notebook.metadata["dpteach"] = {"chapter": CHAPTER}
    path = folder / f"{name}.ipynb"
    nbformat.write(notebook, path)
    return path


# -- a roster's course: each student's own notebook, filled in ---------------------------------------------------

ROSTER_WRONG_FUNCTION = ("def my_accuracy_bound(k, beta, sensitivity, epsilon):\n"
                         "    return math.log10(k / beta) * sensitivity / epsilon\n")


def roster_answers(manifest, sid, how="right", chapter=CHAPTER):
    """Source for each answer cell of ``sid``'s notebook: right at their own numbers, or (``how="wrong"``) each
    exercise's first named mistake at them and a wrong function (log10 for ln)."""
    from dpteach.exercises import EXERCISES
    sources = {}
    for exercise in manifest["chapters"][chapter]["exercises"]:
        if exercise["kind"] == "function":
            sources[exercise["answer"]] = RIGHT_FUNCTION if how == "right" else ROSTER_WRONG_FUNCTION
            continue
        spec = EXERCISES[exercise["checker"]]
        params = manifest["students"][sid]["params"][chapter][exercise["name"]]
        value = spec.expected(**params) if how == "right" else spec.mistakes(**params)[0].value
        sources[exercise["answer"]] = f"{exercise['answer']} = {value!r}"
    return sources


def fill_cells(notebook, answers):
    """Put each answer's source in its answer cell, keeping the cell's checker call (its last line)."""
    for cell in notebook.cells:
        for name, code in answers.items():
            if cell.cell_type == "code" and "# your answer here" in cell.source and f"{name} = ..." in cell.source:
                cell.source = code.rstrip("\n") + "\n" + cell.source.rstrip().splitlines()[-1]
    return notebook
