"""The editions of a chapter, all made from the one stored in ``notebooks/``.

* **Self-study** (what ``notebooks/NN_name.ipynb`` is: ``make lab``, Binder, the book). Each
  exercise is a prompt, a cell the student fills in (``answer_x = ...   # your answer here`` and
  its checker), and a solution folded in a Markdown ``<details>`` block: nothing of it shows until
  the student clicks "Show the solution", it has no output, and Run All never runs it. No speaker
  note is in it.
* **Instructor** (``make present``, ``make slides``, ``make html INSTRUCTOR=1``): the same chapter
  with every solution open and the speaker notes of ``instructor/NN_name.md`` put back, each at
  the end of the slide whose heading it names, as RISE and reveal.js notes cells.
* **Course** (``dpteach course``, :mod:`dpteach.course.assign`): no solution at all,
  and the numeric exercises re-posed with the course's own parameters.

The functions here transform notebooks in memory (``nbformat`` nodes or plain dicts); they never
execute anything.
"""

from __future__ import annotations

import ast
import copy
import re
from dataclasses import dataclass
from pathlib import Path

SOLUTION = "solution"
INSTRUCTOR = "instructor"
MARKER = "# your answer here"
FOLDED = "<details><summary>Show the solution</summary>"
OPEN = "<details open><summary>Solution</summary>"
_FENCE = re.compile(r"```python\n(.*?)\n```", re.S)
_HEADING = re.compile(r"(?m)^(#{1,3}) (.+?)\s*$")
#: An exercise's prompt in a chapter's Markdown, "**Exercise n (label).**": its number and label (the course reads it too)
PROMPT = re.compile(r"^\*\*Exercise (\d+)(?: \(([^)]*)\))?\.\*\*\s*", re.M)
_NOTE_HEADING = re.compile(r"(?m)^## (.+?)\s*$")


def source(cell) -> str:
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else text


def tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def is_solution(cell) -> bool:
    return cell.get("cell_type") == "markdown" and SOLUTION in tags(cell)


def solution_code(cell) -> str:
    """The Python code inside a folded solution cell."""
    found = _FENCE.search(source(cell))
    if not is_solution(cell) or found is None:
        raise ValueError(f"cell must be a Markdown cell tagged {SOLUTION!r} holding a ```python fence, got "
                         f"{source(cell)[:60]!r}")
    return found.group(1)


def fold(code: str) -> str:
    """A solution as the self-study edition shows it: folded, to be opened with a click."""
    return f"{FOLDED}\n\n```python\n{code.rstrip()}\n```\n\n</details>"


@dataclass(frozen=True)
class Exercise:
    """One exercise of a chapter: where its cells are and what it asks."""

    number: int
    title: str | None    # the words in the bold label's brackets, e.g. "variance 2b²"
    prompt_cell: int     # the Markdown cell holding "**Exercise N.**"
    student_cell: int    # the code cell with "# your answer here"
    solution_cell: int   # the folded solution
    prompt: str          # the text after the bold label
    stub: str            # the student cell without its checker call
    solution: str        # the solution's code without its checker call
    call: str            # the checker call, e.g. "dp.exercises.check_accuracy_bound(answer_accuracy_bound)"
    checker: str         # e.g. "check_accuracy_bound"
    answer: str          # the answer's own name
    kind: str            # "function" when the student writes a def, else "value"

    @property
    def name(self) -> str:
        return f"exercise_{self.number}"


def _checker_call(code: str, where: str) -> tuple[str, str, str, tuple[int, int]]:
    """The code's last statement, ``dp.exercises.check_*(<answer>, ...)``: (call, checker, answer, lines)."""
    tree = ast.parse(code)
    last = tree.body[-1] if tree.body else None
    call = last.value if isinstance(last, ast.Expr) else None
    func = call.func if isinstance(call, ast.Call) else None
    if not (isinstance(func, ast.Attribute) and func.attr.startswith("check_") and ast.unparse(func.value) == "dp.exercises"
            and call.args and isinstance(call.args[0], ast.Name)):
        raise ValueError(f"{where}: the cell must end with dp.exercises.check_*(<answer name>), got {code[-80:]!r}")
    return ast.get_source_segment(code, last), func.attr, call.args[0].id, (last.lineno, last.end_lineno)


def _without(code: str, lines: tuple[int, int]) -> str:
    return "\n".join(line for number, line in enumerate(code.splitlines(), 1)
                     if not lines[0] <= number <= lines[1]).strip("\n")


def exercises(nb, chapter: str = "chapter") -> list[Exercise]:
    """Every exercise of a chapter, checked for the shape every edition relies on.

    An exercise is a Markdown cell whose text has a line starting "**Exercise N", then a code cell
    with ``# your answer here`` ending in its checker call, then its folded solution ending in the
    same call. Each answer has a name of its own that no other code cell assigns.
    """
    cells = nb["cells"]
    found = []
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "code" or MARKER not in source(cell):
            continue
        where = f"{chapter}, cell {index}"
        before = cells[index - 1] if index else None
        label = PROMPT.search(source(before)) if before and before["cell_type"] == "markdown" else None
        if label is None:
            raise ValueError(f"{where}: an answer cell must follow a Markdown prompt with a line '**Exercise N.**'")
        after = cells[index + 1] if index + 1 < len(cells) else None
        if after is None or not is_solution(after):
            raise ValueError(f"{where}: an answer cell must be followed by its folded solution (Markdown, tagged "
                             f"{SOLUTION!r})")
        student, solution = source(cell), solution_code(after)
        call, checker, answer, call_lines = _checker_call(student, where)
        solution_call, _, _, solution_lines = _checker_call(solution, f"{chapter}, cell {index + 1}")
        if ast.dump(ast.parse(solution_call)) != ast.dump(ast.parse(call)):
            raise ValueError(f"{where}: the solution calls {solution_call!r}, the answer cell {call!r}")
        kind = "function" if re.search(rf"^\s*def {re.escape(answer)}\(", solution, re.M) else "value"
        found.append(Exercise(
            number=int(label.group(1)), title=label.group(2), prompt_cell=index - 1, student_cell=index,
            solution_cell=index + 1, prompt=source(before)[label.end():].strip(),
            stub=_without(student, call_lines), solution=_without(solution, solution_lines), call=call,
            checker=checker, answer=answer, kind=kind))
    answers = [exercise.answer for exercise in found]
    if len(set(answers)) != len(answers):
        raise ValueError(f"{chapter}: every exercise needs an answer name of its own, got {answers}")
    own = {i for e in found for i in (e.student_cell, e.solution_cell)}
    for index, cell in enumerate(cells):
        if cell["cell_type"] == "code" and index not in own:
            for answer in answers:
                if re.search(rf"^\s*(def\s+{answer}\b|{answer}\s*=)", source(cell), re.M):
                    raise ValueError(f"{chapter}, cell {index}: {answer} is an exercise's answer; no other cell may "
                                     "assign it (Run All would overwrite the student's)")
    return found


# -- speaker notes --------------------------------------------------------------------------------

def notes_path(root, stem: str) -> Path:
    """``root/instructor/<stem>.md``; ``root`` is a folder (default: the current one) or a project with a ``.root``."""
    if root is not None and not isinstance(root, (str, Path)):
        root = root.root
    return Path(root or Path.cwd()) / "instructor" / f"{stem}.md"


def read_notes(path: Path) -> dict[str, list[str]]:
    """The notes of one chapter: {heading of the slide: [note, ...]}, in the file's order.

    The file is Markdown: a title, a paragraph for the reader, then for each note a line
    ``## <the heading's exact text in the chapter>`` followed by the note.
    """
    text = Path(path).read_text(encoding="utf-8")
    parts = _NOTE_HEADING.split(text)
    notes: dict[str, list[str]] = {}
    for heading, body in zip(parts[1::2], parts[2::2]):
        if body.strip():
            notes.setdefault(heading.strip(), []).append(body.strip())
    return notes


def _notes_cell(text: str, cell_id: str) -> dict:
    return {"cell_type": "markdown", "id": cell_id, "metadata": {"slideshow": {"slide_type": "notes"}, "tags": [INSTRUCTOR]},
            "source": text}


def _opens_slide(cell) -> bool:
    kind = cell.get("metadata", {}).get("slideshow", {}).get("slide_type")
    return kind in ("slide", "subslide") or (cell["cell_type"] == "markdown" and bool(_HEADING.search(source(cell))))


def with_notes(nb, notes: dict[str, list[str]], chapter: str = "chapter"):
    """``nb`` with each note put at the end of the slide whose heading it names.

    A note whose heading is not in the chapter is an error (it would be lost without a word)."""
    import nbformat

    nb = copy.deepcopy(nb)
    cells = nb["cells"]
    placed = []
    for heading, texts in notes.items():
        at = next((i for i, c in enumerate(cells) if c["cell_type"] == "markdown"
                   and heading in [h.strip() for _, h in _HEADING.findall(source(c))]), None)
        if at is None:
            raise ValueError(f"{chapter}: a speaker note names the heading {heading!r}, which the chapter does not have")
        end = next((i for i in range(at + 1, len(cells)) if _opens_slide(cells[i])), len(cells))
        placed.append((end, texts))
    for end, texts in sorted(placed, key=lambda item: item[0], reverse=True):
        new = [_notes_cell(text, f"note-{end}-{n}") for n, text in enumerate(texts)]
        if isinstance(nb, nbformat.NotebookNode):
            new = [nbformat.from_dict(cell) for cell in new]
        cells[end:end] = new
    return nb


def instructor_edition(nb, stem: str, root: Path | str | None = None):
    """The instructor's chapter: solutions open, speaker notes in (from ``root/instructor/<stem>.md``)."""
    nb = copy.deepcopy(nb)
    for cell in nb["cells"]:
        if is_solution(cell):
            cell["source"] = source(cell).replace(FOLDED, OPEN, 1)
    path = notes_path(root, stem)
    return with_notes(nb, read_notes(path), stem) if path.exists() else nb
