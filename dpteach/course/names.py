"""Every rule that reads a submission's file name: which files are submissions, whose each is, which chapter
its name says. A name is parsed once, into a :class:`dpteach.course.model.Place` that grading passes down.

**Who handed it in** comes from where the file is, never from what it says about itself (a notebook's metadata
can be copied with the notebook): the name of the entry it was found in at the top of the folder the instructor
named, as the LMS or the instructor wrote it (an LMS's bulk-download prefix, :data:`LMS_PATTERNS`; a folder per
student; a file per student; or ``--pattern``, a regex with a named group ``id``, as nbgrader's
``zip_collect``), never a name a student chose inside their own entry. With a roster, that id is looked up in
it: as a roster id, as an email, and (a Moodle download names students by their full name and a participant
number of the assignment's own, not their id) as a name that only one student has. A file that matches no rule
or no student is listed, never graded into someone's row.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from .model import Place
from .roster import name_key, name_keys

__all__ = ["LMS_PATTERNS", "chapter_named", "find_submissions", "identify", "identify_all", "roster_index", "root_of",
           "strays"]


# -- which files are submissions ---------------------------------------------------------------------

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


# -- which chapter a name says -----------------------------------------------------------------------

def _chapter_stems(manifest: Mapping) -> dict[str, str]:
    stems = {}
    for chapter, entry in manifest["chapters"].items():
        stems[chapter] = chapter
        stems[Path(entry.get("notebook", chapter)).stem] = chapter
    return stems


def chapter_named(name: str, manifest: Mapping) -> str:
    """The chapter whose name (or its notebook's) ``name`` holds, the longest such; "" when none does."""
    for stem, chapter in sorted(_chapter_stems(manifest).items(), key=lambda item: -len(item[0])):
        if stem in name:
            return chapter
    return ""


# -- whose a file is ------------------------------------------------------------------------------------

#: How LMSs name the files of a bulk download, each with the student's LMS id as the group ``id``.
#: Canvas: ``doejane_123456_7891011_hw05.ipynb`` (``doejane_LATE_123456_…`` when late; ``-1`` after a
#: resubmission's name); Moodle: ``Jane Doe_12345_assignsubmission_file_hw05.ipynb``, or a folder of
#: that name (with nothing after ``file_``) holding the student's file. What follows the LMS's prefix
#: (the group ``file``) is the name the student gave the file, and is never read for whose it is.
LMS_PATTERNS = {
    "Canvas": re.compile(r"^(?P<name>[a-z0-9]+)_(?P<late>LATE_)?(?P<id>\d+)_(?P<submission>\d+)_(?P<file>.+)$"),
    "Moodle": re.compile(r"^(?P<name>.+?)_(?P<id>\d+)_assignsubmission_file_(?P<file>.*)$"),
}


def _lms(name: str, pattern: str | None) -> tuple[str, dict] | None:
    for source, regex in ([("--pattern", re.compile(pattern))] if pattern else list(LMS_PATTERNS.items())):
        found = regex.match(name)
        if found and found.groupdict().get("id"):
            return source, found.groupdict()
    return None


def roster_index(manifest: Mapping) -> dict[str, dict[str, str]]:
    """Lookups from what a file name may hold to a roster id: ``id``, ``email``, ``name`` (unique names only)."""
    students = manifest.get("students") or {}
    names: dict[str, set[str]] = {}
    for sid, record in students.items():
        for key in name_keys(record.get("name", "")):
            names.setdefault(key, set()).add(sid)
    return {"id": {sid: sid for sid in students},
            "email": {r["email"].lower(): sid for sid, r in students.items() if r.get("email")},
            "name": {key: next(iter(ids)) for key, ids in names.items() if len(ids) == 1}}


def _owner(path: Path, manifest: Mapping, pattern: str | None, root: str | Path | None) -> tuple[str, str, str, str]:
    """(the id a name gives, the rule that gave it or why none did, the LMS's name for the student, lateness)."""
    if root is not None and Path(os.path.abspath(root)) in Path(os.path.abspath(path)).parents:
        parts = Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).parts
    elif path.parent.name and (path.stem in _chapter_stems(manifest) or _lms(path.parent.name, pattern)):
        parts = (path.parent.name, path.name)
    else:
        parts = (path.name,)
    if len(parts) > 2:
        return "", (f"it is {len(parts) - 1} folders deep in {root}: a student's notebook lies in the folder named, "
                    "or in a folder of the student's directly inside it"), "", ""
    entry = parts[0]
    matched = _lms(entry, pattern)
    if matched is not None:
        groups = matched[1]
        late = f"late ({matched[0]} marked it so)" if groups.get("late") else ""
        return groups["id"], f"{matched[0]}'s name", groups.get("name") or "", late
    if len(parts) == 2:
        return entry, "its folder's name", "", ""
    stem = Path(entry).stem
    if stem in _chapter_stems(manifest):
        return "", ("a chapter's notebook that names no student (name it after its student, or put it in a folder "
                    "named after them)"), "", ""
    return stem, "its file's name", "", ""


def identify(path: str | Path, manifest: Mapping, pattern: str | None = None, root: str | Path | None = None,
             index: dict | None = None) -> Place:
    """Where the notebook at ``path`` was found, read once for everything its name says (:class:`Place`).

    ``root`` is the folder the instructor named (a class's download); the entry at its top is one student's:

    * a file there is named by ``pattern`` (a regex with a named group ``id``), else by an LMS's prefix
      (:data:`LMS_PATTERNS`), else by its own name without ``.ipynb`` (``5012.ipynb``; a file keeping a
      chapter's name there is no one's);
    * a folder there is named the same way (Moodle's participant folder, or a folder per student named after
      them), and owns the notebooks directly inside it, whatever they are called: a name a student chose
      inside their own entry (``5012/5013.ipynb``, a Canvas-like name in one's folder) never names anyone;
    * a notebook deeper than that matches no rule.

    Without ``root`` (a file the instructor named itself) its folder is read as its entry when the file keeps
    a chapter's name or the folder is an LMS's, else the file is an entry of its own. With a roster
    (``manifest["students"]``) the id is the roster's (``on_roster`` False when no student matches: the id is
    then the name's own); the chapter is the one the file's name holds, else the course's only chapter.
    """
    path = Path(path)
    raw, rule, name, late = _owner(path, manifest, pattern, root)
    chapters = manifest["chapters"]
    chapter = chapter_named(path.name, manifest) or (next(iter(chapters)) if len(chapters) == 1 else "")
    found = Place(str(path), raw, rule, on_roster=bool(raw), name=name, late=late, chapter=chapter)
    if not raw or manifest.get("students") is None:
        return found
    index = index or roster_index(manifest)
    sid = (index["id"].get(raw) or index["email"].get(raw.lower())
           or next((index["name"][key] for key in ([name_key(name)] if name else []) + [name_key(raw)]
                    if key and key in index["name"]), None))
    return found.with_changes(id=sid or raw, on_roster=sid is not None)


def identify_all(paths: Sequence[str | Path], manifest: Mapping, pattern: str | None = None,
                 roots: Sequence[str | Path] | None = None) -> list[Place]:
    """:func:`identify` for each of ``paths``, each in the deepest of ``roots`` (the folders the instructor named,
    :func:`find_submissions`' arguments) that holds it; a path in none of them is a file the instructor named."""
    index = roster_index(manifest)
    return [identify(path, manifest, pattern, root_of(path, roots), index) for path in paths]
