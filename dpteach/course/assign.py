"""The course edition: what an instructor who grades hands out, and what they keep.

    python -m dpteach.course assign [--seed N] [--chapters 03 05 ...] [--book] [--offline]
                                   [--repo URL] [--hub URL] [--branch main] [--out build/course]

writes ``build/course/`` (or ``--out``)::

    students/notebooks/NN_name.ipynb   HAND OUT: every chapter, without a single solution
    students/book/                     HAND OUT (with --book): the HTML book of those notebooks
    instructor/course.json             KEEP: the seed and every homework exercise's parameters (the grader reads it)
    instructor/answers.md              KEEP: every homework answer, exercise by exercise

``instructor/`` is readable by its owner only (folder 0700, files 0600), and nothing a student gets
holds the seed, a key or an answer: the students' notebooks record only their chapter and edition
(with the seed, ``assign --seed N`` would rebuild the answers).

The students' notebooks are the chapters with their solutions taken out (no folded block, no
code, no output), and every numeric exercise re-posed with parameter values of the course's own,
drawn from the registry's alternatives (:data:`dpteach.exercises.EXERCISES`) by a generator seeded
with the course's seed: the prompt says the new numbers and the checker call in the answer cell
passes them, so the feedback a student gets while working is the grader's. A chapter's worked
solution therefore never gives a homework number. Code the chapters show that would answer a
function exercise (``dp.show_source`` of a function the student is asked to write, in any chapter)
is left out of this edition. The seed is recorded in ``instructor/course.json``: building again with it gives
the same homework; a new seed (the default draws one) gives another.

Grade the collected notebooks with ``python -m dpteach.course grade --course build/course/instructor/course.json
SUBMISSIONS...`` (:mod:`dpteach.course.grading`).
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import re
import secrets
import shutil
import sys
from pathlib import Path

from ..publish import editions
from ..publish.paths import Project

POINTS = {"value": 1, "choice": 1, "function": 2}
#: A cell tagged so belongs to the self-study edition only (e.g. "the solution is folded just under it").
SELF_STUDY = "self-study-only"
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


def draw_params(spec, rng) -> dict:
    """One value of each homework parameter, drawn from the spec's alternatives."""
    return {name: values[int(rng.integers(len(values)))] for name, values in spec.homework.items()}


def _literal(value) -> str:
    return repr(float(value)) if isinstance(value, float) else repr(value)


def _call_with(call: str, params: dict) -> str:
    """The checker call with the course's parameters as keyword arguments (replacing any the chapter passed)."""
    node = ast.parse(call).body[0].value
    kept = [k for k in node.keywords if k.arg not in params]
    args = [ast.unparse(a) for a in node.args] + [ast.unparse(k) for k in kept]
    args += [f"{name}={_literal(value)}" for name, value in params.items()]
    return f"{ast.unparse(node.func)}({', '.join(args)})"


def _note(text: str, cell_id: str) -> dict:
    return {"cell_type": "markdown", "id": cell_id, "metadata": {"slideshow": {"slide_type": "skip"}}, "source": text}


def _homework_note(exercises: list[dict]) -> str:
    """What a homework notebook says first: what is graded, for how many points, at what precision, how to hand in."""
    total = sum(e["points"] for e in exercises)
    kinds = {"value": "a number", "choice": "a letter", "function": "a function you write"}
    lines = [f"**Homework: {len(exercises)} graded exercise{'s' * (len(exercises) > 1)}, {total} points.**", "",
             "| exercise | you give | points |", "|---|---|---|"]
    for e in exercises:
        worth = "1 for its hidden cases, 1 more if written by hand" if e["kind"] == "function" else str(e["points"])
        lines.append(f"| {e['number']} | {kinds[e['kind']]} | {worth} |")
    lines += ["", "Each exercise states the precision it is graded at (\"Give 3 significant figures.\"). The check "
              "under each answer uses this course's numbers, which its call passes: keep the call as it is (without "
              "them it checks the chapter's worked numbers, and its ✅ is not your grade). Your grade comes from "
              "the grader, which runs the saved notebook top to bottom: save it (File ▸ Save) and hand in the "
              "`.ipynb` file as your course says."]
    return "\n".join(lines)


def course_edition(nb, stem: str, seed: int, withheld: dict[str, str]) -> tuple[dict, list[dict]]:
    """One chapter for a course: (the students' notebook, its homework exercises for the manifest).

    ``withheld`` maps a dpteach function a homework asks students to write to where it is asked
    ("chapter 03, Exercise 4"); a cell showing its source is replaced by a short note.
    """
    import numpy as np

    from dpteach.exercises import EXERCISES

    nb = copy.deepcopy(nb)
    cells = nb["cells"]
    found = editions.exercises(nb, stem)
    homework = has_exercises(nb)
    manifest = []
    drop = set()
    for exercise in found:
        spec = EXERCISES.get(exercise.checker)
        if spec is None:
            raise ValueError(f"{stem}, {exercise.name}: {exercise.checker} is not a registered exercise")
        if exercise.prompt != spec.render().strip():
            raise ValueError(f"{stem}, {exercise.name}: the chapter's prompt differs from the registry's "
                             f"({spec.name}); make them one text")
        rng = np.random.default_rng([seed, int(stem[:2]), exercise.number])
        params = draw_params(spec, rng) if homework else {}
        prompt_cell = cells[exercise.prompt_cell]
        text = editions.source(prompt_cell)
        label = editions._PROMPT.search(text)
        prompt_cell["source"] = text[:label.end()] + spec.render(**params)   # the prompt runs to the cell's end
        student = cells[exercise.student_cell]
        student["source"] = editions.source(student).replace(exercise.call, _call_with(exercise.call, params)) \
            if params else editions.source(student)
        drop.add(exercise.solution_cell)
        if homework:
            manifest.append({"name": exercise.name, "number": exercise.number, "answer": exercise.answer,
                             "checker": exercise.checker, "kind": spec.kind, "points": POINTS[spec.kind],
                             "params": params})
    kept = []
    for index, cell in enumerate(cells):
        if index in drop or SELF_STUDY in editions.tags(cell):
            continue
        if cell["cell_type"] == "code":
            shown = [name for name in _SHOW_SOURCE.findall(editions.source(cell)) if name in withheld]
            if shown:
                kept.append(_note(f"*The code of `dp.{shown[0]}` is left out of this edition: you write it yourself "
                                  f"in {withheld[shown[0]]}.*", f"course-{stem[:2]}-{index}"))
                continue
        kept.append(cell)
    if manifest:
        kept.insert(1 if kept and kept[0]["cell_type"] == "markdown" else 0,
                    _note(_homework_note(manifest), f"course-{stem[:2]}-homework"))
    nb["cells"] = kept
    nb.setdefault("metadata", {})["dpteach"] = {"chapter": stem, "edition": "course"}   # never the seed
    return nb, manifest


def _withheld(project: Project, chosen: list[Path]) -> dict[str, str]:
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


def _answer_text(spec, params: dict) -> str:
    if spec.kind == "value":
        value = spec.expected(**params)
        digits = (spec.figures or 6) + 2
        return f"{value:.{digits}g}" + (f" (graded to {spec.figures} significant figures)" if spec.figures else " (exact)")
    if spec.kind == "choice":
        right = [letter for letter in "abcdefgh" if spec.checker(letter).correct]
        return ", ".join(f"({letter})" for letter in right)
    return "a function: graded on hidden cases (1 point) and for not calling the dpteach function it rebuilds (1 point)"


def _course_twins(notebooks: Path, downloads: Path) -> None:
    """The book's .md downloads, made from the course's notebooks (the chapters' own twins hold the solutions)."""
    import jupytext

    for twin in downloads.glob("*.md"):
        twin.unlink()
    for path in sorted(notebooks.glob("*.ipynb")):
        if (downloads / path.name).exists():
            jupytext.write(jupytext.read(path), downloads / f"{path.stem}.md", fmt="md:myst")


def _private(path: Path, text: str) -> None:
    """Write ``text`` to a new file that only its owner can read or write (0600), from its first byte."""
    import os
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.chmod(path, 0o600)


def build_course(project: Project, out: Path | None = None, seed: int | None = None,
                 chapters: list[str] | None = None, book: bool = False, offline: bool = False,
                 repo: str = "", hub: str = "", branch: str = "main") -> Path:
    """Write the course edition (see the module's docstring); returns the folder."""
    import nbformat

    from dpteach.exercises import EXERCISES

    out = Path(out) if out is not None else project.build / "course"
    seed = secrets.randbelow(10**9) if seed is None else int(seed)
    paths = [c.path for c in project.chapters()]
    if chapters:
        wanted = {c.zfill(2)[:2] for c in chapters}
        paths = [p for p in paths if p.name[:2] in wanted or p.name[:2] == "00"]
    students = out / "students" / "notebooks"
    shutil.rmtree(out, ignore_errors=True)
    students.mkdir(parents=True)
    instructor = out / "instructor"
    instructor.mkdir(mode=0o700)
    instructor.chmod(0o700)      # whatever the umask
    withheld = _withheld(project, paths)
    manifest = {"seed": seed, "chapters": {}}
    answers = [f"# Homework answers (course seed {seed})", "",
               "Keep this file to yourself. Each answer is for the parameters this course's notebooks ask with.", ""]
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        edition, exercises = course_edition(nb, path.stem, seed, withheld)
        nbformat.write(nbformat.from_dict(edition), students / path.name)
        if exercises:
            manifest["chapters"][path.stem] = {"notebook": path.name, "exercises": exercises}
            answers += [f"## {path.stem}", ""]
            for item in exercises:
                spec = EXERCISES[item["checker"]]
                params = ", ".join(f"{k} = {v:g}" if isinstance(v, float) else f"{k} = {v}" for k, v in item["params"].items())
                answers.append(f"- Exercise {item['number']} ({item['points']} point{'s' * (item['points'] > 1)})"
                               f"{' at ' + params if params else ''}: {_answer_text(spec, item['params'])}")
            answers.append("")
    _private(instructor / "course.json", json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
    _private(instructor / "answers.md", "\n".join(answers))
    if book:
        from ..publish.book_site import build_html

        site = out / "students" / "book"
        build_html(project, site, offline=offline, executed=students, repo=repo, hub=hub, branch=branch,
                   chapters=[path.stem for path in paths], work=out / ".book-sources")   # nothing but the book in students/
        for leftover in (out / "students" / "jupyter_execute", site / "jupyter_execute", site / ".buildinfo"):
            if leftover.is_dir():
                shutil.rmtree(leftover)
            elif leftover.exists():
                leftover.unlink()
        _course_twins(students, site / "downloads")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dpteach.course assign", description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=None, help="the project's root (default: the current directory)")
    parser.add_argument("--seed", type=int, default=None, help="the course's seed (default: a new one, recorded)")
    parser.add_argument("--chapters", nargs="*", default=None, help="chapter numbers, e.g. 03 05 (default: all)")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default build/course)")
    parser.add_argument("--book", action="store_true", help="also build the students' HTML book of the course")
    parser.add_argument("--offline", action="store_true", help="the book needs no network (see make html OFFLINE=1)")
    parser.add_argument("--repo", default="", help="the COURSE's repository (its notebooks): launch links in the book")
    parser.add_argument("--hub", default="", help="a JupyterHub URL: 'Open on a JupyterHub' links (needs --repo)")
    parser.add_argument("--branch", default="main", help="the branch nbgitpuller pulls (default main)")
    args = parser.parse_args(argv)
    try:
        project = Project(args.root)
    except ValueError as error:
        parser.error(str(error))
    out = build_course(project, project.root / args.out if args.out else None, seed=args.seed,
                       chapters=args.chapters, book=args.book, offline=args.offline, repo=args.repo, hub=args.hub,
                       branch=args.branch)
    manifest = json.loads((out / "instructor" / "course.json").read_text(encoding="utf-8"))
    count = sum(len(c["exercises"]) for c in manifest["chapters"].values())
    print(f"course seed {manifest['seed']}: {len(manifest['chapters'])} chapters of homework, {count} exercises")
    print(f"  hand out: {out / 'students'}")
    print(f"  keep:     {out / 'instructor'} (yours only: course.json, which the grader reads, and answers.md)")
    return 0


if __name__ == "__main__":
    sys.exit(main())


def sync_prompts(project: Project) -> list[str]:
    """Write each registered exercise's prompt (at its defaults) into its chapter; return what changed.

    The registry (:data:`dpteach.exercises.EXERCISES`) is the one source of an exercise's words,
    because the course edition re-poses them with other numbers; the chapter shows them at the
    worked numbers. Markdown only: outputs are kept. Run ``jupytext --sync`` afterwards.
    """
    import nbformat

    from dpteach.exercises import EXERCISES

    changed = []
    for chapter in project.chapters():
        nb = nbformat.read(chapter.path, as_version=4)
        edited = False
        for exercise in editions.exercises(nb, chapter.path.stem):
            spec = EXERCISES[exercise.checker]
            cell = nb.cells[exercise.prompt_cell]
            label = editions._PROMPT.search(cell.source)
            title = f" ({spec.title})" if spec.title else ""
            wanted = cell.source[:label.start()] + f"**Exercise {exercise.number}{title}.** " + spec.render()
            if cell.source != wanted:
                cell.source = wanted
                edited = True
                changed.append(f"{chapter.path.stem} {exercise.name}")
        if edited:
            nbformat.write(nb, chapter.path)
    return changed
