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
import re
from collections.abc import Sequence
from pathlib import Path

from .functions import SandboxedFunction
from .reading import GradingError

KINDS = ("value", "choice", "function")


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


def points(exercise: dict) -> int:
    """An exercise's points: as the manifest says, else 2 for a function and 1 for a value or a choice."""
    return int(exercise.get("points", 2 if exercise["kind"] == "function" else 1))


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


def _chapter_stems(manifest: dict) -> dict[str, str]:
    stems = {}
    for chapter, entry in manifest["chapters"].items():
        stems[chapter] = chapter
        stems[Path(entry.get("notebook", chapter)).stem] = chapter
    return stems


#: How LMSs name the files of a bulk download, each with the student's LMS id as the group ``id``.
#: Canvas: ``doejane_123456_7891011_hw05.ipynb`` (``doejane_LATE_123456_…`` when late; ``-1`` after a
#: resubmission's name); Moodle: ``Jane Doe_12345_assignsubmission_file_hw05.ipynb``, or a folder of
#: that name (with nothing after ``file_``) holding the student's file.
LMS_PATTERNS = {
    "Canvas": re.compile(r"^(?P<name>[a-z0-9]+)_(?P<late>LATE_)?(?P<id>\d+)_(?P<submission>\d+)_(?P<file>.+)$"),
    "Moodle": re.compile(r"^(?P<name>.+?)_(?P<id>\d+)_assignsubmission_file_(?P<file>.*)$"),
}


def lms_match(path: Path, pattern: str | None = None) -> tuple[str, dict] | None:
    """(where it came from, the groups) for a file named by ``pattern`` (a regex with a named group ``id``,
    matched against the file's name, then its folder's) or by an LMS's bulk download; None otherwise."""
    patterns = [("--pattern", re.compile(pattern))] if pattern else list(LMS_PATTERNS.items())
    for name in (path.name, path.parent.name):
        for source, regex in patterns:
            found = regex.match(name)
            if found and found.groupdict().get("id"):
                return source, found.groupdict()
    return None


def student_id(path: Path, manifest: dict, pattern: str | None = None) -> str:
    """The id that ``pattern`` or an LMS's file name gives (see :func:`lms_match`); else the file's stem, or its
    folder's name when the file keeps a chapter's name (one folder per student)."""
    matched = lms_match(path, pattern)
    if matched is not None:
        return matched[1]["id"]
    return path.parent.name if path.stem in _chapter_stems(manifest) and path.parent.name else path.stem


def lateness(path: Path, pattern: str | None = None) -> str:
    """What the file's name says about lateness ("" when nothing): Canvas marks a late file ``LATE``."""
    matched = lms_match(path, pattern)
    return f"late ({matched[0]} marked it so)" if matched and matched[1].get("late") else ""


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
