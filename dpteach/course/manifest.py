"""The course manifest and the submissions: what is graded, whose it is, which chapter it answers.

The manifest (``instructor/course.json``, written by :mod:`dpteach.course.assign`) lists each
chapter's exercises with their kind, points, checker and the course's parameters; it is checked
before anything runs. A student's id and a notebook's chapter follow the rule stated in
:mod:`dpteach.course.grading`.
"""

from __future__ import annotations

import ast
import inspect
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .functions import SandboxedFunction
from .model import KINDS, GradingError, whole

# -- the course manifest ----------------------------------------------------------------------

def load_manifest(path: str | Path) -> dict:
    """The course manifest, checked: every exercise has a known kind, parts with points, and a checker
    dpteach has; with a roster, every student has numbers for every exercise."""
    try:
        manifest = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"course manifest {path} cannot be read: {error}") from None
    chapters = manifest.get("chapters") if isinstance(manifest, dict) else None
    if not isinstance(chapters, dict) or not chapters:
        raise ValueError(f"course manifest {path}: 'chapters' must be a non-empty object")
    students = manifest.get("students")
    if students is not None and (not isinstance(students, dict) or not students):
        raise ValueError(f"course manifest {path}: 'students' must be a non-empty object when given (the roster)")
    for chapter, entry in chapters.items():
        for exercise in entry.get("exercises", []):
            where = f"course manifest {path}, {chapter}/{exercise.get('name')}"
            if exercise.get("kind") not in KINDS:
                raise ValueError(f"{where}: kind must be one of {KINDS} (got {exercise.get('kind')!r})")
            if not str(exercise.get("answer", "")).isidentifier():
                raise ValueError(f"{where}: answer must be a Python name (got {exercise.get('answer')!r})")
            if not isinstance(exercise.get("params", {}), dict):
                raise ValueError(f"{where}: params must be an object (got {exercise.get('params')!r})")
            try:
                parts(exercise)
            except (TypeError, ValueError, KeyError) as error:
                raise ValueError(f"{where}: {error}") from None
            checker(exercise["checker"])
            for student, record in (students or {}).items():
                given = record.get("params", {}).get(chapter, {}).get(exercise["name"]) if isinstance(record, dict) else None
                if not isinstance(given, dict):
                    raise ValueError(f"{where}: student {student!r} has no numbers for it (params.{chapter}."
                                     f"{exercise['name']} must be an object)")
    return manifest


#: An exercise's parts when the course file lists none: 1 point for a number or a letter; for a function,
#: 1 for passing its hidden cases and the rest for writing it by hand once they pass.
def parts(exercise: dict) -> list[dict]:
    """An exercise's parts, each ``{"part": what, "points": n}`` (n ≥ 0), as the course file says, else by kind.

    A number or a letter has one part; a function has one or two: passing its hidden cases, and (given
    only with the first) writing it by hand with numpy and math only.
    """
    listed = exercise.get("parts")
    if listed is None:
        total = exercise.get("points", 2 if exercise["kind"] == "function" else 1)
        if exercise["kind"] != "function":
            return [{"part": "the answer", "points": total}]
        return [{"part": "passing its hidden cases", "points": min(1, total)},
                {"part": "writing it by hand (numpy and math only) once they pass", "points": max(0, total - 1)}]
    allowed = 2 if exercise["kind"] == "function" else 1
    if not isinstance(listed, list) or not 1 <= len(listed) <= allowed:
        raise ValueError(f"parts must be a list of 1{' or 2' * (allowed == 2)} parts for a {exercise['kind']} "
                         f"exercise (got {listed!r})")
    for part in listed:
        value = part.get("points") if isinstance(part, dict) else None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0 or value != value:
            raise ValueError(f"each part's points must be a number ≥ 0 (got {part!r})")
    if "points" in exercise and exercise["points"] != sum(p["points"] for p in listed):
        raise ValueError(f"points must be the sum of the parts' points ({sum(p['points'] for p in listed)}), "
                         f"got {exercise['points']!r}: change the parts")
    return [dict(part) for part in listed]


def points(exercise: dict) -> float:
    """An exercise's points: the sum of its parts' (see :func:`parts`)."""
    return whole(part["points"] for part in parts(exercise))


def params_for(manifest: dict, student: str | None, chapter: str, exercise: dict) -> dict:
    """The numbers ``student`` was asked ``exercise`` at: theirs with a roster; with public variants and no
    roster, drawn from ``student`` (their email) and the course's salt; else the class's."""
    students = manifest.get("students")
    if students is not None:
        return dict(students[student]["params"][chapter][exercise["name"]])
    if manifest.get("public"):
        from ..exercises.variants import email_key, variant
        return variant(manifest["public"]["salt"], email_key(student or ""), chapter, exercise["checker"],
                       exercise.get("avoid", ()))
    return dict(exercise.get("params", {}))


def possible(manifest: dict, chapter: str) -> int:
    """The points a chapter's homework is out of."""
    return sum(points(e) for e in manifest["chapters"][chapter].get("exercises", []))


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


def strays(roots: Sequence[str | Path]) -> list[Path]:
    """What a folder of submissions holds that no rule can grade: each top-level entry holding no notebook
    (a ``.pdf``, a ``.py``, an empty folder; hidden ones, as ``.DS_Store``, left out), listed so that the
    instructor sees it."""
    found = []
    for root in map(Path, roots):
        if root.is_dir():
            found += sorted(entry for entry in root.iterdir() if not entry.name.startswith(".") and not (
                entry.suffix == ".ipynb" and entry.is_file()) and not (entry.is_dir() and any(entry.rglob("*.ipynb"))))
    return found


def root_of(path: str | Path, roots: Sequence[str | Path] | None) -> Path | None:
    """The folder among ``roots`` (the folders the instructor named) that ``path`` was found in, the deepest one;
    None for a file named itself, or found in none of them."""
    path = Path(os.path.abspath(path))
    inside = [Path(os.path.abspath(root)) for root in roots or () if Path(root).is_dir()]
    inside = [root for root in inside if root in path.parents]
    return max(inside, key=lambda root: len(root.parts)) if inside else None


def _chapter_stems(manifest: dict) -> dict[str, str]:
    stems = {}
    for chapter, entry in manifest["chapters"].items():
        stems[chapter] = chapter
        stems[Path(entry.get("notebook", chapter)).stem] = chapter
    return stems


def chapter_named(name: str, manifest: dict) -> str:
    """The chapter whose name (or its notebook's) ``name`` holds, the longest such; "" when none does."""
    for stem, chapter in sorted(_chapter_stems(manifest).items(), key=lambda item: -len(item[0])):
        if stem in name:
            return chapter
    return ""


#: How LMSs name the files of a bulk download, each with the student's LMS id as the group ``id``.
#: Canvas: ``doejane_123456_7891011_hw05.ipynb`` (``doejane_LATE_123456_…`` when late; ``-1`` after a
#: resubmission's name); Moodle: ``Jane Doe_12345_assignsubmission_file_hw05.ipynb``, or a folder of
#: that name (with nothing after ``file_``) holding the student's file. What follows the LMS's prefix
#: (the group ``file``) is the name the student gave the file, and is never read for whose it is.
LMS_PATTERNS = {
    "Canvas": re.compile(r"^(?P<name>[a-z0-9]+)_(?P<late>LATE_)?(?P<id>\d+)_(?P<submission>\d+)_(?P<file>.+)$"),
    "Moodle": re.compile(r"^(?P<name>.+?)_(?P<id>\d+)_assignsubmission_file_(?P<file>.*)$"),
}


@dataclass(frozen=True)
class Place:
    """Where a submission was found, read for whose it is: the owner's ``id`` ("" when no rule names one),
    the ``rule`` that named it (or why none did), the LMS's ``name`` for the student, what the LMS's name
    says about lateness (``late``, "" when nothing), and the chapter its name holds (``chapter``)."""

    id: str
    rule: str
    name: str = ""
    late: str = ""
    chapter: str = ""


def _lms(name: str, pattern: str | None) -> tuple[str, dict] | None:
    for source, regex in ([("--pattern", re.compile(pattern))] if pattern else list(LMS_PATTERNS.items())):
        found = regex.match(name)
        if found and found.groupdict().get("id"):
            return source, found.groupdict()
    return None


def place(path: str | Path, manifest: dict, pattern: str | None = None, root: str | Path | None = None) -> Place:
    """Whose the notebook at ``path`` is, from the names the LMS or the instructor controls only.

    ``root`` is the folder the instructor named (a class's download); the entry at its top is one student's:

    * a file there is named by ``pattern`` (a regex with a named group ``id``), else by an LMS's prefix
      (:data:`LMS_PATTERNS`), else by its own name without ``.ipynb`` (``5012.ipynb``; a file keeping a
      chapter's name there is no one's);
    * a folder there is named the same way (Moodle's participant folder, or a folder per student named after
      them), and owns the notebooks directly inside it, whatever they are called: a name a student chose
      inside their own entry (``5012/5013.ipynb``, a Canvas-like name in one's folder) never names anyone;
    * a notebook deeper than that matches no rule.

    Without ``root`` (a file the instructor named itself) its folder is read as its entry when the file keeps
    a chapter's name or the folder is an LMS's, else the file is an entry of its own.
    """
    path = Path(path)
    if root is not None and Path(os.path.abspath(root)) in Path(os.path.abspath(path)).parents:
        parts = Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).parts
    elif path.parent.name and (path.stem in _chapter_stems(manifest) or _lms(path.parent.name, pattern)):
        parts = (path.parent.name, path.name)
    else:
        parts = (path.name,)
    chapter = chapter_named(path.name, manifest)
    if len(parts) > 2:
        return Place("", f"it is {len(parts) - 1} folders deep in {root}: a student's notebook lies in the folder "
                         "named, or in a folder of the student's directly inside it", chapter=chapter)
    entry = parts[0]
    matched = _lms(entry, pattern)
    if matched is not None:
        groups = matched[1]
        late = f"late ({matched[0]} marked it so)" if groups.get("late") else ""
        return Place(groups["id"], f"{matched[0]}'s name", groups.get("name") or "", late, chapter)
    if len(parts) == 2:
        return Place(entry, "its folder's name", chapter=chapter)
    stem = Path(entry).stem
    if stem in _chapter_stems(manifest):
        return Place("", "a chapter's notebook that names no student (name it after its student, or put it in "
                         "a folder named after them)", chapter=chapter)
    return Place(stem, "its file's name", chapter=chapter)


def student_id(path: Path, manifest: dict, pattern: str | None = None, root: str | Path | None = None) -> str:
    """The id :func:`place` reads ("" when no rule names the notebook's owner)."""
    return place(path, manifest, pattern, root).id


def lateness(path: Path, pattern: str | None = None, root: str | Path | None = None) -> str:
    """What the LMS's name says about lateness ("" when nothing): Canvas marks a late file ``LATE``."""
    return place(path, {"chapters": {}}, pattern, root).late


def chapter_of(notebook: dict, path: Path, manifest: dict) -> str:
    """The chapter from the metadata, else from the file name, else the course's only chapter."""
    meta = notebook.get("metadata", {}).get("dpteach", {})
    chapter = meta.get("chapter") if isinstance(meta, dict) else None
    if chapter in manifest["chapters"]:
        return chapter
    named = chapter_named(path.name, manifest)
    if named:
        return named
    if len(manifest["chapters"]) == 1:
        return next(iter(manifest["chapters"]))
    raise GradingError(f"cannot tell which chapter this is (metadata dpteach.chapter is {chapter!r}, "
                       f"and the file name matches no chapter of the course)")
