"""The course edition: what an instructor who grades hands out, and what they keep.

    dpteach course [--roster roster.csv] [--seed KEY] [--chapters 03 05 ...] [--book]
                                   [--online] [--repo URL] [--hub URL] [--branch main] [--out build/course]

writes ``build/course/`` (or ``--out``)::

    students/notebooks/NN_name.ipynb       HAND OUT (no roster): the chapters, without a single solution
    students/by-student/<id>/NN_name.ipynb HAND OUT (with a roster): each student's own notebooks
    students/book/                         HAND OUT (with --book): the HTML book of the chapters
    students/requirements.txt, wheels/     HAND OUT: what a course repository installs (dpteach is not on PyPI)
    instructor/course.json                 KEEP: the key, the roster and every homework's numbers (the grader reads it)
    instructor/answers.md (or answers.csv) KEEP: every homework answer (per student, with a roster)

``instructor/`` is readable by its owner only (folder 0700, files 0600), and nothing a student gets
holds the key or an answer: a student's notebook records its chapter and, with a roster, whose it is
and a mark of it (an HMAC under the key, :func:`dpteach.exercises.variants.tag`) that only the grader
can check.

**Numbers.** Every homework exercise is asked at numbers drawn from the exercise's registered
alternatives (:data:`dpteach.exercises.EXERCISES`) by :func:`dpteach.exercises.variants.variant`, an
HMAC of the student, the chapter and the exercise under the course's key: with a roster (the CSV an LMS
exports, :mod:`dpteach.course.roster`) each student gets their own; without one, the class shares one
variant. The key is drawn afresh (128 bits) unless ``--seed`` gives one (any text; the same key and
roster rebuild the same homework). The worked numbers of the chapter are never a homework's.
See :mod:`dpteach.course.edition` for what a notebook becomes.

Grade the collected notebooks with ``dpteach grade --course build/course/instructor/course.json
SUBMISSIONS...`` (:mod:`dpteach.course.grading`).
"""

from __future__ import annotations

import csv
import io
import json
import re
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

from ..exercises.variants import email_key, tag, variant
from ..publish import editions
from ..publish.paths import Project
from . import edition, gradescope, leaks
from .model import plain
from .roster import Student


def _folder_name(student: str) -> str:
    """A student's id as a folder's name (letters, digits, ``.``, ``-``, ``_`` kept)."""
    return re.sub(r"[^\w.-]", "_", student).strip(".") or "_"


def _answer_text(spec, params: dict) -> str:
    if spec.kind == "value":
        value = spec.expected(**params)
        digits = (spec.figures or 6) + 2
        return f"{value:.{digits}g}" + (f" (graded to {spec.figures} significant figures)" if spec.figures else " (exact)")
    if spec.kind == "choice":
        right = [letter for letter in "abcdefgh" if spec.checker(letter, **params).correct]
        return ", ".join(f"({letter})" for letter in right)
    return "a function: graded on hidden cases, then for being written by hand with numpy and math only"


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


#: Packages of the lab lock that only some chapters import (OpenDP, 276 MB installed: chapter 12): a hand-out
#: carries one only when a chapter it holds imports it, with the packages that are in the lock only for it.
CHAPTER_ONLY = ("opendp",)


def handout_pins(lock_text: str, sources: list[str]) -> list[str]:
    """The pins of ``lock_text`` (a uv lock) a hand-out of chapters whose texts are ``sources`` needs: every pin but
    a :data:`CHAPTER_ONLY` package no source imports, and the packages the lock holds only because of those."""
    blocks: list[tuple[str, str, set[str]]] = []     # (pin line, package name, what it is there for)
    for line in lock_text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if not line.startswith((" ", "#")):
            blocks.append((line, re.split(r"[=<>;\[ ]", line, maxsplit=1)[0].lower(), set()))
        elif blocks and stripped.startswith("#"):
            reason = stripped.lstrip("#").strip()
            reason = reason[len("via"):].strip() if reason.startswith("via") else reason
            if reason and not reason.startswith(("-c ", "-r ")):      # a constraint file is no reason to install
                blocks[-1][2].add(reason.split(" ")[0].lower())
    dropped = {name for name in CHAPTER_ONLY
               if not any(re.search(rf"^\s*\"?(import|from)\s+{name}\b", text, re.M) for text in sources)}
    grew = True
    while grew:                       # what is there only for a dropped package goes with it
        grew = False
        for _, name, via in blocks:
            if name not in dropped and via and via <= dropped:
                dropped.add(name)
                grew = True
    return [line for line, name, _ in blocks if name not in dropped]


def installable(project: Project, out: Path, chapters: list[Path] | None = None) -> Path:
    """``out/requirements.txt`` and ``out/wheels/``: the workbook's pinned packages and a wheel of dpteach,
    so that a course's repository installs with ``pip install -r requirements.txt`` (Binder reads that
    file at a repository's root; a hub's image or a student's laptop runs the same line). Of the packages only
    some chapters import (:data:`CHAPTER_ONLY`), only those the hand-out's ``chapters`` (notebooks; all by
    default) import are pinned."""
    wheels = out / "wheels"
    shutil.rmtree(wheels, ignore_errors=True)
    wheels.mkdir(parents=True)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                           "--disable-pip-version-check", "-w", str(wheels), str(project.root)],
                          capture_output=True, text=True, cwd=project.root)
    built = sorted(wheels.glob("dpteach-*.whl"))
    if done.returncode or not built:
        raise RuntimeError(f"the dpteach wheel could not be built: {done.stderr.strip()[-400:]}")
    for leftover in (project.root / "build" / "lib", project.root / "build" / "bdist.linux-x86_64"):
        shutil.rmtree(leftover, ignore_errors=True)
    chapters = [c.path for c in project.chapters()] if chapters is None else chapters
    pins = handout_pins((project.root / "requirements" / "lab.lock.txt").read_text(),
                        [Path(path).read_text(encoding="utf-8") for path in chapters])
    (out / "requirements.txt").write_text(
        "# The workbook's packages at the versions its tests passed with, and dpteach itself (not on PyPI):\n"
        "#   pip install -r requirements.txt   (from this folder; Binder and a hub's image run the same)\n"
        + "\n".join(pins) + f"\n./wheels/{built[-1].name}\n", encoding="utf-8")
    (out / "README.md").write_text(_HANDOUT, encoding="utf-8")
    return out / "requirements.txt"


_HANDOUT = """# The workbook's homework

The chapters of *dpteach*, an interactive workbook on the Laplace mechanism of differential privacy,
as this course hands them out: no solutions, and each homework exercise asked at numbers of your own.

- `by-student/<your id>/` (or `notebooks/`): your notebooks. Open one in JupyterLab, run it top to bottom,
  answer each exercise in its cell: the check under it says whether you are right, at your numbers.
- `book/`: the same chapters as web pages (open `book/index.html`).

To run them on your own computer (Python 3.10 or newer), from this folder:

    python -m venv .venv && . .venv/bin/activate
    pip install -r requirements.txt
    jupyter lab

Hand in the saved `.ipynb` file as your course says.
"""


def _heading(nb) -> str:
    """A chapter's short title: its first Markdown heading up to a colon (without a leading "Chapter NN ·")."""
    for cell in nb["cells"]:
        found = re.search(r"(?m)^# (.+?)\s*$", editions.source(cell)) if cell["cell_type"] == "markdown" else None
        if found:
            return re.sub(r"^(Chapter\s+)?\d+\s*[·:.—-]\s*", "", found.group(1)).split(": ")[0].strip()
    return ""


def _expected(cache: dict, spec, params: dict) -> str:
    key = (spec.name, json.dumps(params, sort_keys=True))
    if key not in cache:
        cache[key] = _answer_text(spec, params)
    return cache[key]


def build_course(project: Project, out: Path | None = None, seed: str | int | None = None,
                 chapters: list[str] | None = None, book: bool = False, offline: bool = True,
                 repo: str = "", hub: str = "", branch: str = "main", roster: list[Student] | None = None,
                 wheel: bool = True, public: bool = False, core_only: bool = False) -> Path:
    """Write the course edition (see the module's docstring); returns the folder. ``core_only``: each chapter's
    core path alone, its "Going further" cells left out (:mod:`dpteach.publish.going_further`)."""
    import nbformat

    from dpteach.exercises import EXERCISES

    out = Path(out) if out is not None else project.build / "course"
    key = secrets.token_hex(16) if seed is None else str(seed)
    paths = [c.path for c in project.chapters()]
    if chapters:
        wanted = {c.zfill(2)[:2] for c in chapters}
        paths = [p for p in paths if p.name[:2] in wanted or p.name[:2] == "00"]
    if public and roster is not None and not all(student.email for student in roster):
        missing = next(student.id for student in roster if not student.email)
        raise ValueError(f"public variants are drawn from each student's email, and the roster has none for {missing!r}")
    folders = {}
    for student in roster or []:
        folder = _folder_name(student.id)
        if folder in folders:
            raise ValueError(f"roster ids {folders[folder]!r} and {student.id!r} make the same folder name {folder!r}")
        folders[folder] = student.id
    shutil.rmtree(out, ignore_errors=True)
    students_dir = out / "students"
    students_dir.mkdir(parents=True)
    instructor = out / "instructor"
    instructor.mkdir(mode=0o700)
    instructor.chmod(0o700)      # whatever the umask
    withheld = edition.withheld_functions(project, paths)
    chapters_read = [(path, nbformat.read(path, as_version=4)) for path in paths]
    manifest: dict = {"format": 2, "key": key, "chapters": {}}
    salt = tag(key, "public variants' salt") if public else ""
    if public:
        manifest["public"] = {"salt": salt}
    for path, nb in chapters_read:
        if not edition.has_exercises(nb):
            continue
        entries = []
        for exercise in editions.exercises(nb, path.stem):
            spec = EXERCISES.get(exercise.checker)
            if spec is None:
                raise ValueError(f"{path.stem}, {exercise.name}: {exercise.checker} is not a registered exercise")
            if exercise.prompt != spec.render().strip():
                raise ValueError(f"{path.stem}, {exercise.name}: the chapter's prompt differs from the registry's "
                                 f"({spec.name}); make them one text")
            parts = [dict(part) for part in edition.PARTS[spec.kind]]
            entry = {"name": exercise.name, "number": exercise.number, "answer": exercise.answer,
                     "checker": exercise.checker, "kind": spec.kind, "parts": parts,
                     "points": sum(p["points"] for p in parts)}
            avoid = leaks.avoided(nb, exercise, spec)       # numbers whose answer the chapter shows elsewhere
            if avoid:
                entry["avoid"] = list(avoid)
            if roster is None and not public:
                entry["params"] = plain(variant(key, "", path.stem, exercise.checker, avoid))
            entries.append(entry)
        manifest["chapters"][path.stem] = {"notebook": path.name, "title": f"Homework {path.stem[:2]}: {_heading(nb)}",
                                           "exercises": entries}
    if roster is not None:
        manifest["students"] = {}
        for student in roster:
            drawn_by, who = (salt, email_key(student.email)) if public else (key, student.id)
            numbers = {stem: {e["name"]: plain(variant(drawn_by, who, stem, e["checker"], e.get("avoid", ())))
                              for e in entry["exercises"]} for stem, entry in manifest["chapters"].items()}
            manifest["students"][student.id] = {**student.as_dict(), "tag": tag(key, student.id), "params": numbers}

    def write_edition(folder: Path, who: Student | None, practice: bool = False) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        for path, nb in chapters_read:
            entry = manifest["chapters"].get(path.stem, {"exercises": []})
            if who is None:
                numbers = {e["checker"]: e.get("params", {}) for e in entry["exercises"]}
            else:
                given = manifest["students"][who.id]["params"].get(path.stem, {})
                numbers = {e["checker"]: given.get(e["name"], {}) for e in entry["exercises"]}
            made = edition.course_edition(nb, path.stem, numbers, withheld, entry["exercises"],
                                          student=who.id if who else "", tag=manifest["students"][who.id]["tag"] if who
                                          else "", practice=practice, salt=salt, core_only=core_only)
            nbformat.write(nbformat.from_dict(made), folder / path.name)

    shared = students_dir / "notebooks"
    own = roster is not None and not public         # each student a notebook of their own
    write_edition(shared, None, practice=own)
    for student in roster if own else []:
        write_edition(students_dir / "by-student" / _folder_name(student.id), student)
    _write_answers(instructor, manifest, roster)
    _private(instructor / "course.json", json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
    if wheel:
        installable(project, students_dir, paths)
    built = sorted((students_dir / "wheels").glob("dpteach-*.whl"))
    for stem in manifest["chapters"]:
        gradescope.write_zip(manifest, stem, instructor / "gradescope" / f"{stem}.zip", built[-1] if built else None,
                             project.root / "requirements" / "grading.lock.txt")
    if book:
        from ..publish.book_site import build_html

        site = students_dir / "book"
        build_html(project, site, offline=offline, executed=shared, repo=repo, hub=hub, branch=branch, course=True,
                   chapters=[path.stem for path in paths], work=out / ".book-sources")   # nothing but the book in students/
        for leftover in (students_dir / "jupyter_execute", site / "jupyter_execute", site / ".buildinfo"):
            if leftover.is_dir():
                shutil.rmtree(leftover)
            elif leftover.exists():
                leftover.unlink()
        _course_twins(shared, site / "downloads")
        shutil.rmtree(out / ".book-sources", ignore_errors=True)
    if own:
        shutil.rmtree(shared)     # each student has their own; the book (and its downloads) keep the practice edition
    return out


def _write_answers(instructor: Path, manifest: dict, roster: list[Student] | None) -> None:
    """``answers.md`` (the class's homework) or, with a roster, ``answers.csv`` (a row per student and exercise)."""
    from dpteach.exercises import EXERCISES

    cache: dict = {}
    if roster is None and manifest.get("public"):
        _private(instructor / "answers.md", "# Homework answers\n\nEach student's numbers, and so their answers, are "
                 "drawn from their email and the course's salt (public variants): the grader computes them for each "
                 "submission. With a roster (`--roster`), answers.csv lists every student's.\n")
        return
    if roster is None:
        lines = ["# Homework answers", "", "Keep this file to yourself. Each answer is for the numbers this course's "
                 "notebooks ask with.", ""]
        for stem, entry in manifest["chapters"].items():
            lines += [f"## {stem}", ""]
            for item in entry["exercises"]:
                spec = EXERCISES[item["checker"]]
                params = edition.describe_params(item.get("params", {}))
                lines.append(f"- Exercise {item['number']} ({item['points']} point{'s' * (item['points'] > 1)})"
                             f"{' at ' + params if params else ''}: {_expected(cache, spec, item.get('params', {}))}")
            lines.append("")
        _private(instructor / "answers.md", "\n".join(lines))
        return
    table = io.StringIO()
    writer = csv.writer(table)
    writer.writerow(["id", "name", "chapter", "exercise", "numbers", "answer"])
    for student in roster:
        given = manifest["students"][student.id]["params"]
        for stem, entry in manifest["chapters"].items():
            for item in entry["exercises"]:
                params = given[stem][item["name"]]
                writer.writerow([student.id, student.name, stem, item["number"], edition.describe_params(params),
                                 _expected(cache, EXERCISES[item["checker"]], params)])
    _private(instructor / "answers.csv", table.getvalue())


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
            label = editions.PROMPT.search(cell.source)
            title = f" ({spec.title})" if spec.title else ""
            wanted = cell.source[:label.start()] + f"**Exercise {exercise.number}{title}.** " + spec.render()
            if cell.source != wanted:
                cell.source = wanted
                edited = True
                changed.append(f"{chapter.path.stem} {exercise.name}")
        if edited:
            nbformat.write(nb, chapter.path)
    return changed
