"""Whether a submitted notebook was made for the student who handed it in, and for the chapter it was handed in as.

Whose a file is comes from its name alone (:func:`dpteach.course.names.identify`); what the notebook says
about itself is only compared with it here, and flagged where it differs:

* **Which chapter.** A notebook is graded as its registration says (``{"dpteach": {"chapter": ...}}``); when the
  place says another (``--chapter``, the assignment graded; else a chapter's name in the file's name), it is
  flagged, and its grade replaces none stored.
* **Whose numbers it holds.** A roster's notebook records whose it is and a mark of it
  (:func:`dpteach.exercises.variants.tag`, an HMAC under the course's key), and registers its numbers in its
  first code cell. A notebook whose mark or numbers are not its submitter's is flagged in the gradebook (another
  student's notebook, one of an earlier course, lines deleted) and still graded at its submitter's own numbers:
  a flag says why a grade may be low, and lets the instructor look.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..exercises.variants import email_key
from .model import Assignment, Place

__all__ = ["flags"]


def _chapter(registered: str, handed_in_as: str, how: str) -> list[str]:
    """The flag of a notebook registered for one chapter and handed in as another's (none when they agree)."""
    if not registered or not handed_in_as or registered == handed_in_as:
        return []
    return [f"its registration says chapter {registered}, but it was handed in as {handed_in_as} ({how}): graded as "
            f"{registered}, and it replaces no grade stored before"]


def _numbers(handed, student: str, manifest: Mapping, homework: Assignment) -> list[str]:
    found = []
    students = manifest.get("students")
    notebook, registered, written = handed.notebook, handed.numbers, handed.email
    if manifest.get("public"):      # one shared notebook: its numbers come from the email written in it
        email = students[student].get("email", "") if students is not None else student
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
    wanted = homework.numbers
    if wanted and registered is None:
        found.append("its homework lines (first code cell) are missing or changed: its checks did not judge at this "
                     "student's numbers")
    elif wanted and registered != wanted:
        if students is not None:
            others = [sid for sid, numbers in homework.classmates.items() if numbers == registered]
            whose = f"those of {others[0]}" if others else "those of no student on this roster"
        else:
            whose = "not this course's"
        found.append(f"its homework numbers are not this student's: {whose}")
    return found


def flags(handed, place: Place, manifest: Mapping, homework: Assignment, assignment: str | None = None,
          known: bool = False) -> tuple[list[str], str]:
    """Why this notebook (``handed``, :class:`dpteach.course.reading.Handed`) may not be the one made for its
    submitter (``place.id``) to answer ``homework``'s chapter (empty when it is). ``assignment`` is the chapter the
    instructor grades (``--chapter``), else the file's name says one (``place.chapter``); ``known``: the student
    comes from the caller (Gradescope's metadata), not from a name, and the chapter is not compared. Also the
    chapter it was handed in as, where that is flagged ("" otherwise)."""
    registered = handed.registered if handed.registered in manifest["chapters"] else ""
    handed_in_as = (assignment, "the assignment graded") if assignment else (place.chapter, "its file's name")
    mismatch = [] if known else _chapter(registered, *handed_in_as)
    return _numbers(handed, place.id, manifest, homework) + mismatch, handed_in_as[0] if mismatch else ""
