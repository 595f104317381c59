"""One chapter's course edition: what a student of a course that grades gets, for one student or a class.

The chapter with its solutions taken out (no folded block, no code, no output) and every homework
exercise asked at the student's own numbers (:func:`dpteach.exercises.variants.variant`): the prompt
says them, and lines added to the chapter's first code cell register them
(``dp.exercises.homework(chapter, {...})``), so each checker, called as the chapter calls it, judges
at them and its ✅ is the grade's. The notebook opens with what is graded, for how many points, at what
precision and how to hand it in. Code the chapters show that would answer a function exercise
(``dp.show_source`` of a function a student is asked to write, in any chapter) is left out.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

from ..publish import editions
from ..publish.going_further import is_going_further
from ..publish.paths import Project

#: Each kind of exercise's parts and their points (the course file may change the points).
PARTS = {"value": [{"part": "the answer", "points": 1}],
         "choice": [{"part": "the answer", "points": 1}],
         "function": [{"part": "passing its hidden cases", "points": 1},
                      {"part": "writing it by hand (numpy and math only) once they pass", "points": 1}]}
#: A cell tagged so belongs to the self-study edition only (e.g. "the solution is folded just under it").
SELF_STUDY = "self-study-only"
#: The comment on the line that registers a student's numbers in their notebook.
KEEP = "# your homework's numbers: keep these lines"
_EXERCISES_SECTION = re.compile(r"^## Exercises\s*$", re.M)
_SHOW_SOURCE = re.compile(r"dp\.show_source\(\s*dp\.([A-Za-z_][\w.]*)\s*\)")


class _Probe:
    """A stand-in for a student's function: the checker hands it its cases, and it records which
    dpteach functions the exercise forbids (it answers no case, so the checker's verdict is ignored)."""

    def __init__(self) -> None:
        self.forbidden: tuple[str, ...] = ()

    def __call__(self, *args, **kwargs):
        raise RuntimeError("the probe is never called")

    def run_cases(self, cases, runner, forbidden):
        self.forbidden = tuple(forbidden)
        return []


def forbidden_names(checker) -> tuple[str, ...]:
    """The dpteach functions a function exercise's checker refuses (what the student must write)."""
    probe = _Probe()
    checker(probe)
    return probe.forbidden


def has_exercises(nb) -> bool:
    return any(cell["cell_type"] == "markdown" and _EXERCISES_SECTION.search(editions.source(cell)) for cell in nb["cells"])


def _literal(value) -> str:
    if isinstance(value, float):
        return repr(float(value))
    if isinstance(value, (list, tuple)):
        return "(" + ", ".join(_literal(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return repr(value)


def homework_line(stem: str, numbers: dict[str, dict]) -> str:
    """The line that registers a student's numbers (see :func:`dpteach.exercises.variants.homework`)."""
    entries = [f"    {name!r}: {{{', '.join(f'{k!r}: {_literal(v)}' for k, v in params.items())}}},"
               for name, params in numbers.items() if params]
    return "\n".join([f"dp.exercises.homework({stem!r}, {{   {KEEP}", *entries, "})"])


def describe_params(params: dict) -> str:
    """A homework's numbers as the answers file writes them: ``k = 4, epsilon = 0.8``."""
    from dpteach.exercises.variants import describe
    return describe(params)


def _question_cell(checker: str, cell_id: str) -> dict:
    return {"cell_type": "code", "id": cell_id, "metadata": {"slideshow": {"slide_type": "skip"}}, "execution_count": None,
            "outputs": [], "source": f"dp.exercises.question({checker!r})   # your question, at your numbers"}


def _note(text: str, cell_id: str) -> dict:
    return {"cell_type": "markdown", "id": cell_id, "metadata": {"slideshow": {"slide_type": "skip"}}, "source": text}


def homework_note(exercises: list[dict], figures: dict[str, int | None], practice: bool = False,
                  public: bool = False) -> str:
    """What a homework notebook says first: what is graded, for how many points, at what precision, how to hand in."""
    total = sum(e["points"] for e in exercises)
    kinds = {"value": "a number", "choice": "a letter", "function": "a function you write"}
    lines = [f"**Homework: {len(exercises)} graded exercise{'s' * (len(exercises) > 1)}, {total} points.**", "",
             "| exercise | you give | precision | points |", "|---|---|---|---|"]
    for e in exercises:
        parts = " + ".join(f"{p['points']} for {p['part']}" for p in e["parts"]) if len(e["parts"]) > 1 \
            else str(e["points"])
        precision = {"function": "hidden cases", "choice": "one letter"}.get(e["kind"]) or (
            "a whole number" if figures.get(e["checker"]) is None else f"{figures[e['checker']]} significant figures")
        lines.append(f"| {e['number']} | {kinds[e['kind']]} | {precision} | {parts} |")
    if practice:
        lines += ["", "These pages ask each exercise at the chapter's own numbers. **Your homework's numbers are in "
                  "the notebook made for you**: answer there."]
        return "\n".join(lines)
    own = ("Your numbers are drawn from your course email: write it in the first code cell and run it (your question "
           "then shows under each exercise). The grader uses the email you submit with, so write the same one. "
           if public else "Your numbers are your own: the first code cell registers them (keep its last lines). ")
    lines += ["", own + "Each check under an answer judges at your numbers, as the grader will. A number may come "
              "from any dpteach function (choosing the right one, with the right arguments, is the exercise); a "
              "function you write may use "
              "numpy and math only. A number in quotes (`\"5\"`) is text, and scores 0. Your grade comes from the "
              "grader, which runs the saved notebook top to bottom: run it all, save it (File ▸ Save) and hand in "
              "the `.ipynb` file as your course says."]
    return "\n".join(lines)


#: What a shared notebook's prompt says in place of the numbers it cannot hold (public variants).
ASKED_BELOW = ("*Asked at your own numbers: the cell below shows your question, once the first code cell has your "
               "course email.*")


def public_line(stem: str, salt: str, checkers: list[str], avoid: dict[str, list[int]] | None = None) -> str:
    """A shared notebook's homework line: the student writes their email, and their numbers are drawn from it."""
    names = ", ".join(repr(name) for name in checkers)
    skip = f",\n                      avoid={avoid!r}" if avoid else ""
    return "\n".join(["# Your homework's numbers are drawn from your course email: write it between the quotes, "
                      "then run this cell.", f"dp.exercises.homework({stem!r}, email=\"\", salt={salt!r},",
                      f"                      exercises=[{names}]{skip})"])


def course_edition(nb, stem: str, numbers: dict[str, dict], withheld: dict[str, str], exercises_meta: list[dict],
                   student: str = "", tag: str = "", practice: bool = False, salt: str = "",
                   core_only: bool = False) -> dict:
    """One chapter for a course: the students' notebook.

    ``numbers`` maps each homework exercise's checker to its parameters for this student (or class);
    ``exercises_meta`` is the chapter's entries of the course file (points, parts); ``withheld`` maps a
    dpteach function a homework asks students to write to where it is asked ("chapter 03, Exercise 4"),
    and a cell showing its source is replaced by a short note. ``practice``: the prompts keep the
    chapter's numbers and nothing is registered (a book for a class whose students each have their own).
    ``salt`` (public variants): one notebook for everyone, whose first code cell draws each student's
    numbers from their course email, each exercise's question shown by a cell under its prompt.
    ``core_only``: the chapter's core path alone, every ``going-further`` cell left out
    (:mod:`dpteach.publish.going_further`), for a course that assigns the core.
    """
    from dpteach.exercises import EXERCISES

    nb = copy.deepcopy(nb)
    cells = nb["cells"]
    homework = has_exercises(nb)
    drop, questions = set(), {}
    for exercise in editions.exercises(nb, stem):
        spec = EXERCISES[exercise.checker]
        params = {} if practice or not homework else numbers.get(exercise.checker, {})
        prompt_cell = cells[exercise.prompt_cell]
        text = editions.source(prompt_cell)
        label = editions.PROMPT.search(text)
        if salt and homework and spec.homework:
            prompt_cell["source"] = text[:label.end()] + ASKED_BELOW
            questions[exercise.prompt_cell] = _question_cell(exercise.checker, f"course-{stem[:2]}-q{exercise.number}")
        else:
            prompt_cell["source"] = text[:label.end()] + spec.render(**params)   # the prompt runs to the cell's end
        drop.add(exercise.solution_cell)
    registered = {name: params for name, params in numbers.items() if params}
    first = next(cell for cell in cells if cell["cell_type"] == "code")
    if homework and salt and not practice:
        checkers = [e["checker"] for e in exercises_meta if EXERCISES[e["checker"]].homework]
        avoid = {e["checker"]: e["avoid"] for e in exercises_meta if e.get("avoid")}
        first["source"] = editions.source(first).rstrip("\n") + "\n" + public_line(stem, salt, checkers, avoid)
    elif homework and registered and not practice:
        first["source"] = editions.source(first).rstrip("\n") + "\n" + homework_line(stem, registered)
    kept = []
    for index, cell in enumerate(cells):
        if index in drop or SELF_STUDY in editions.tags(cell) or (core_only and is_going_further(cell)):
            continue
        if index in questions:
            kept += [cell, questions[index]]
            continue
        if cell["cell_type"] == "code":
            shown = [name for name in _SHOW_SOURCE.findall(editions.source(cell)) if name in withheld]
            if shown:
                note = _note(f"*The code of `dp.{shown[0]}` is left out of this edition: you write it yourself "
                             f"in {withheld[shown[0]]}.*", f"course-{stem[:2]}-{index}")
                if is_going_further(cell):          # it stays in its Going-further part
                    note["metadata"]["tags"] = list(editions.tags(cell))
                kept.append(note)
                continue
        kept.append(cell)
    if homework and exercises_meta:
        figures = {e["checker"]: EXERCISES[e["checker"]].figures for e in exercises_meta}
        kept.insert(1 if kept and kept[0]["cell_type"] == "markdown" else 0,
                    _note(homework_note(exercises_meta, figures, practice, public=bool(salt)), f"course-{stem[:2]}-homework"))
    nb["cells"] = kept
    meta = {"chapter": stem, "edition": "course"}      # never the course's key
    if core_only:
        meta["core_only"] = True
    if student:
        meta.update(student=student, variant=tag)
    nb.setdefault("metadata", {})["dpteach"] = meta
    return nb


def withheld_functions(project: Project, chosen: list[Path]) -> dict[str, str]:
    """Every dpteach function a function exercise of the course asks students to write, and where."""
    import nbformat

    from dpteach.exercises import EXERCISES

    withheld = {}
    for path in chosen:
        nb = nbformat.read(path, as_version=4)
        if not has_exercises(nb):
            continue
        for exercise in editions.exercises(nb, path.stem):
            spec = EXERCISES[exercise.checker]
            if spec.kind == "function":
                for name in forbidden_names(spec.checker):
                    withheld.setdefault(name, f"chapter {path.stem[:2]}, Exercise {exercise.number}")
    return withheld
