"""A course's roster: who the students are, read from the CSV an LMS exports.

A roster is a CSV file with a header row. The columns are found by their names, whichever LMS wrote
them (case, spaces and underscores do not matter):

===========  =====================================================================================
id           ``id``, ``student id``, ``user id``, ``userid``, ``username`` (Canvas's gradebook export
             calls its user id ``ID``, which is also the number in its bulk-download file names)
name         ``name``, ``student``, ``full name``, or ``first name`` and ``last name``
email        ``email``, ``email address``, ``e-mail`` (Gradescope and Moodle match students by it)
sis_id       ``sis user id``, ``id number``, ``idnumber`` (optional)
login        ``sis login id``, ``login``, ``login id`` (optional)
section      ``section`` (optional)
===========  =====================================================================================

Only the id is required. Canvas's "Points Possible" row and blank rows are skipped; two rows with the
same id, or a row without one, are refused (:class:`ValueError` naming the row). The file is read by the
csv module (a quote inside a quoted field is written ``""``; a field may hold line breaks), with the
separator its header uses (``,``, ``;`` or a tab); a row that does not parse is refused, naming its line.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import asdict, dataclass
from pathlib import Path

#: Each field's accepted column names, normalised (see :func:`_norm`), first match wins.
COLUMNS = {
    "id": ("id", "student id", "studentid", "user id", "userid", "username"),
    "name": ("name", "student", "full name", "fullname", "student name"),
    "email": ("email", "email address", "e mail", "e mail address", "mail"),
    "sis_id": ("sis user id", "id number", "idnumber", "sis id", "student number"),
    "login": ("sis login id", "login", "login id"),
    "section": ("section", "sections", "group"),
}
_FIRST = ("first name", "firstname", "given name")
_LAST = ("last name", "lastname", "surname", "family name")


@dataclass(frozen=True)
class Student:
    """One student on the roster (empty strings for what the roster does not say)."""

    id: str
    name: str = ""
    email: str = ""
    sis_id: str = ""
    login: str = ""
    section: str = ""

    def as_dict(self) -> dict:
        return asdict(self)


def _norm(header: str) -> str:
    return re.sub(r"[\s_\-]+", " ", header.strip().lower().lstrip("\ufeff")).strip()


def name_key(name: str) -> str:
    """A name as file names write it: letters and digits only, lower case, no accents ("Doe, Jane" → "doejane";
    Canvas's download writes "doejane", Moodle's "Jane Doe": compare :func:`name_keys`)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", plain.lower())


def name_keys(name: str) -> set[str]:
    """The keys a student's name may appear under in a download: first-last and last-first."""
    parts = [p for p in re.split(r"[\s,]+", name.strip()) if p]
    if not parts:
        return set()
    if "," in name:      # "Doe, Jane"
        last, first = name.split(",", 1)
        parts = first.split() + last.split()
    return {name_key(" ".join(parts)), name_key(" ".join(parts[-1:] + parts[:-1]))}


def read_roster(path: str | Path) -> list[Student]:
    """The roster at ``path`` (see the module's docstring), in its order."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"roster {path} cannot be read as a UTF-8 CSV file: {error}") from None
    try:      # only the separator is guessed, from the header; quoting is the csv module's own ("" inside quotes)
        delimiter = csv.Sniffer().sniff(text.splitlines()[0] if text else ",", delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows = []
    try:
        for row in reader:
            rows.append(row)
    except csv.Error as error:
        raise ValueError(f"roster {path}, line {reader.line_num}: not a CSV row ({error}); quote a field holding "
                         f'the separator, and write a quote inside quotes as ""') from None
    if not rows:
        raise ValueError(f"roster {path} is empty: it needs a header row and a row per student")
    header = [_norm(h) for h in rows[0]]
    where = {}
    for field, names in COLUMNS.items():
        for name in names:
            if name in header:
                where[field] = header.index(name)
                break
    if "id" not in where:
        raise ValueError(f"roster {path} has no id column: its header is {rows[0]!r}, and one column must be named "
                         f"one of {', '.join(repr(n) for n in COLUMNS['id'])}")
    first = next((header.index(n) for n in _FIRST if n in header), None)
    last = next((header.index(n) for n in _LAST if n in header), None)
    students: list[Student] = []
    seen: dict[str, int] = {}
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        cells = {field: (row[index].strip() if index < len(row) else "") for field, index in where.items()}
        if "points possible" in " ".join(row).lower():      # Canvas's second row
            continue
        if not cells["id"]:
            raise ValueError(f"roster {path}, row {number}: the id is empty (every student needs one)")
        if cells["id"] in seen:
            raise ValueError(f"roster {path}, row {number}: id {cells['id']!r} is already on row {seen[cells['id']]}")
        seen[cells["id"]] = number
        if not cells.get("name") and (first is not None or last is not None):
            parts = [row[i].strip() for i in (first, last) if i is not None and i < len(row)]
            cells["name"] = " ".join(p for p in parts if p)
        students.append(Student(**{field: cells.get(field, "") for field in COLUMNS}))
    if not students:
        raise ValueError(f"roster {path} lists no student (only its header)")
    emails = [s.email.lower() for s in students if s.email]
    if len(set(emails)) != len(emails):
        twice = sorted({e for e in emails if emails.count(e) > 1})
        raise ValueError(f"roster {path}: email {twice[0]!r} is given to two students")
    return students
