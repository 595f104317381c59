"""Whose a submission is, and whether the notebook was made for them.

**Who handed it in** comes from where the file is, never from what it says about itself (a notebook's
metadata can be copied with the notebook): the name of the entry it was found in at the top of the folder
the instructor named, as the LMS or the instructor wrote it (an LMS's bulk-download prefix, a folder per
student, a file per student, or ``--pattern``), never a name a student chose inside their own entry
(:func:`dpteach.course.manifest.place`). With a roster, that id is looked up in
it: as a roster id, as an email, and (a Moodle download names students by their full name and a
participant number of the assignment's own, not their id) as a name that only one student has. A file
that matches no rule or no student is listed, never graded into someone's row.

**Which chapter** is the notebook's registration (``{"dpteach": {"chapter": ...}}``); when the place says
another (``--chapter``, the assignment graded; else a chapter's name in the file's name), the notebook is
graded as its registration says and flagged (:func:`chapter_flag`), and its grade replaces none stored.

**Whose numbers it holds.** A roster's notebook records whose it is and a mark of it
(:func:`dpteach.exercises.variants.tag`, an HMAC under the course's key), and registers its numbers in
its first code cell. A notebook whose mark or numbers are not its submitter's is flagged in the
gradebook (another student's notebook, one of an earlier course, lines deleted) and still graded at its
submitter's own numbers: a flag says why a grade may be low, and lets the instructor look.
"""

from __future__ import annotations

from pathlib import Path

from .edition import plain, read_homework_email, read_homework_line
from .manifest import place
from .roster import name_key, name_keys


def roster_index(manifest: dict) -> dict[str, dict[str, str]]:
    """Lookups from what a file name may hold to a roster id: ``id``, ``email``, ``name`` (unique names only)."""
    students = manifest.get("students") or {}
    names: dict[str, set[str]] = {}
    for sid, record in students.items():
        for key in name_keys(record.get("name", "")):
            names.setdefault(key, set()).add(sid)
    return {"id": {sid: sid for sid in students},
            "email": {r["email"].lower(): sid for sid, r in students.items() if r.get("email")},
            "name": {key: next(iter(ids)) for key, ids in names.items() if len(ids) == 1}}


def identify(path: Path, manifest: dict, pattern: str = "", index: dict | None = None,
             root: str | Path | None = None) -> tuple[str, bool]:
    """(the student's id, whether it is on the roster): without a roster, the file's id and True; ("", False)
    when no rule of :func:`dpteach.course.manifest.place` names the notebook's owner."""
    found = place(path, manifest, pattern, root)
    raw = found.id
    if not raw:
        return raw, False
    if manifest.get("students") is None:
        return raw, True
    index = index or roster_index(manifest)
    if raw in index["id"]:
        return raw, True
    if raw.lower() in index["email"]:
        return index["email"][raw.lower()], True
    for key in ([name_key(found.name)] if found.name else []) + [name_key(raw)]:
        if key and key in index["name"]:
            return index["name"][key], True
    return raw, False


def chapter_flag(registered: str, handed_in_as: str, how: str) -> str:
    """The flag of a notebook registered for one chapter and handed in as another's ("" when they agree)."""
    if not registered or not handed_in_as or registered == handed_in_as:
        return ""
    return (f"its registration says chapter {registered}, but it was handed in as {handed_in_as} ({how}): graded as "
            f"{registered}, and it replaces no grade stored before")


def expected_numbers(manifest: dict, student: str | None, chapter: str) -> dict[str, dict]:
    """The numbers a notebook made for ``student`` registers (checker → parameters), as plain data."""
    from .manifest import params_for
    numbers = {}
    for exercise in manifest["chapters"][chapter].get("exercises", []):
        params = params_for(manifest, student, chapter, exercise)
        if params:
            numbers[exercise["checker"]] = plain(params)
    return numbers


def flags(notebook: dict, student: str, manifest: dict, chapter: str) -> list[str]:
    """Why this notebook may not be the one made for ``student`` (empty when it is)."""
    found = []
    students = manifest.get("students")
    if manifest.get("public"):      # one shared notebook: its numbers come from the email written in it
        from ..exercises.variants import email_key
        email = students[student].get("email", "") if students is not None else student
        written = read_homework_email(notebook)
        if not written or not written.strip():
            found.append("its homework email (first code cell) is missing: its checks did not judge at this "
                         "student's numbers")
        elif email_key(written) != email_key(email):
            found.append(f"its numbers were drawn for another email ({written.strip()})")
        return found
    meta = notebook.get("metadata", {}).get("dpteach", {})
    meta = meta if isinstance(meta, dict) else {}
    if students is not None and student in students:
        mark = meta.get("variant")
        owners = [sid for sid, record in students.items() if record.get("tag") == mark] if mark else []
        if owners and owners[0] != student:
            found.append(f"this notebook was made for another student ({owners[0]})")
        elif mark and not owners:
            found.append("this notebook was made for another course (or an earlier year's): its mark is none of "
                         "this roster's")
        elif not mark:
            found.append("this notebook has no mark of whose it is (not the notebook handed out to this student?)")
    registered = read_homework_line(notebook)
    wanted = expected_numbers(manifest, student, chapter)
    if wanted and registered is None:
        found.append("its homework lines (first code cell) are missing or changed: its checks did not judge at this "
                     "student's numbers")
    elif wanted and registered != wanted:
        if students is not None:
            others = [sid for sid in students if sid != student and expected_numbers(manifest, sid, chapter) == registered]
            whose = f"those of {others[0]}" if others else "those of no student on this roster"
        else:
            whose = "not this course's"
        found.append(f"its homework numbers are not this student's: {whose}")
    return found
