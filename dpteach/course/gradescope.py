"""The course on Gradescope: an autograder zip per assignment, running the same grading core as ``make grade``.

Gradescope's contract (its autograder documentation, "specs" and "submission metadata"): the instructor
uploads a zip holding ``setup.sh`` and ``run_autograder``; it is unpacked into ``/autograder/source``,
``setup.sh`` runs once as root when the image is built, and for each submission ``run_autograder`` runs
as root from ``/autograder``, the student's files in ``/autograder/submission/``, who submitted in
``/autograder/submission_metadata.json`` (``users[]`` with ``email``; several for a group), and must
write ``/autograder/results/results.json``.

:func:`write_zip` (called by ``make course`` for every assignment) writes
``instructor/gradescope/<chapter>.zip``: ``setup.sh`` (apt-installs python3-venv and bubblewrap, builds
``/opt/dpteach`` from the grading lock and the dpteach wheel, makes ``/autograder/source`` readable by
root only), ``run_autograder``, ``course.json`` (the assignment's part of the course file: its exercises,
points, limits and each student's numbers, never the course's key), ``requirements.txt`` and the wheel.

:func:`run` (``dpteach gradescope``, what ``run_autograder`` starts) grades the one
submission with :func:`dpteach.course.grading.grade_submission`, at the numbers of the student the
metadata names (matched to the roster by email: Gradescope's ``users[].id`` is its own, not the LMS's;
with public variants, drawn from the email), and writes one test per exercise part. Student code runs
in bubblewrap where it starts; where it cannot (Docker's seccomp profile), as a fresh unprivileged uid
(:mod:`dpteach.course.sandbox`'s ``"user"`` isolation) with ``/autograder/source`` unreadable and
``/autograder/results`` unwritable to it, and every process of that uid killed before ``results.json``
is written; the instructor-only output (``stdout_visibility: hidden``) says which isolation was used.
Student code never runs as root: without root and without bubblewrap nothing is run, and the results
say why. Whatever the submission is or does, a valid ``results.json`` is written.
"""

from __future__ import annotations

import json
import os
import sys
import time
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model import Record

#: Limits inside Gradescope's (768 MB, 10 min and half a CPU by default): a notebook's sandbox and time are
#: capped below them, so that the container's OOM killer or timeout never strikes before the grader does.
LIMITS = {"memory_mb": 512, "timeout": 60, "cell_timeout": 30, "function_timeout": 30}
#: Largest text put in one test's output, and in the top-level output (Gradescope shows them; the file is ≤ 1 MB).
OUTPUT_CHARS = 4000
VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")

SETUP = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (Ubuntu 22.04 by default).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq python3 python3-venv bubblewrap
python3 -m venv /opt/dpteach
/opt/dpteach/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -r /autograder/source/requirements.txt
/opt/dpteach/bin/python -m pip install --quiet --disable-pip-version-check --no-deps /autograder/source/wheels/*.whl
chmod -R a+rX /opt/dpteach            # students' code (an unprivileged uid) runs this Python
chown -R root:root /autograder/source
chmod -R go-rwx /autograder/source    # the course file is root's alone
"""

RUN = """#!/usr/bin/env bash
# Gradescope runs this for each submission, as root, from /autograder: dpteach grades the notebook in
# /autograder/submission and writes /autograder/results/results.json (python -m dpteach gradescope).
# It uses the venv setup.sh built, and the python3 on PATH where there is none (a test, or `otter run`-style
# local use in an environment that has dpteach).
python=/opt/dpteach/bin/python
[ -x "$python" ] || python="$(command -v python3)"
# DPTEACH_ISOLATION=bubblewrap|user forces one isolation (by default: bubblewrap where it starts, else a fresh uid).
exec "$python" -m dpteach gradescope --tree "${AUTOGRADER_ROOT:-/autograder}" ${DPTEACH_ISOLATION:+--isolation "$DPTEACH_ISOLATION"}
"""


# -- the zip ----------------------------------------------------------------------------------------

def assignment_file(manifest: dict, chapter: str, hidden: tuple[str, ...] = ()) -> dict:
    """The part of the course file one assignment's autograder needs: no key, no other chapter."""
    students = manifest.get("students")
    part = {"format": manifest.get("format", 2), "chapters": {chapter: manifest["chapters"][chapter]},
            "gradescope": {**LIMITS, "hidden": list(hidden)}}
    if students is not None:
        part["students"] = {sid: {**{k: v for k, v in record.items() if k != "params"},
                                  "params": {chapter: record["params"][chapter]}} for sid, record in students.items()}
    if manifest.get("public"):
        part["public"] = manifest["public"]
    return part


def write_zip(manifest: dict, chapter: str, out: Path, wheel: Path | None, requirements: Path) -> Path:
    """``out``: the autograder zip of ``chapter`` (see the module docstring)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in (("setup.sh", SETUP), ("run_autograder", RUN)):
            info = zipfile.ZipInfo(name)
            info.external_attr = 0o755 << 16           # executable, as Gradescope requires
            archive.writestr(info, text)
        archive.writestr("course.json", json.dumps(assignment_file(manifest, chapter), indent=1, ensure_ascii=False))
        archive.write(requirements, "requirements.txt")
        if wheel is not None:
            archive.write(wheel, f"wheels/{wheel.name}")
    return out


# -- one submission ------------------------------------------------------------------------------------

def _truncate(text: str, size: int = OUTPUT_CHARS) -> str:
    return text if len(text) <= size else text[: size - 40] + f" … ({len(text) - size + 40} characters left out)"


def _who(metadata: dict, manifest: dict) -> tuple[str | None, list[str], str]:
    """(the student whose numbers grade it, flags, why not) from the submitters' emails."""
    from ..exercises.variants import email_key
    users = metadata.get("users") if isinstance(metadata, dict) else None
    emails = [email_key(u.get("email", "")) for u in users or [] if isinstance(u, dict) and u.get("email")]
    if not emails:
        return None, [], "the submission's metadata names no submitter's email"
    students = manifest.get("students")
    if students is None:
        who = emails[0] if manifest.get("public") else ""
        ids = emails if manifest.get("public") else [""]
    else:
        by_email = {r.get("email", "").lower(): sid for sid, r in students.items() if r.get("email")}
        ids = [by_email.get(e) for e in emails]
        if ids[0] is None:
            return None, [], (f"{emails[0]} is on no row of the course's roster: ask your instructor to add you, "
                              "or to match your Gradescope email to the course's")
        who = ids[0]
    flags = []
    if len(emails) > 1:
        from .manifest import homework
        chapter = next(iter(manifest["chapters"]))
        mine = homework(manifest, chapter, who).numbers
        differ = [e for e, sid in zip(emails[1:], ids[1:]) if sid is None or homework(manifest, chapter, sid).numbers != mine]
        if differ:
            flags.append(f"a group submission, graded at its first member's numbers ({emails[0]}); "
                         f"{', '.join(differ)} had other numbers")
    return who, flags, ""


def _notebook(submission: Path, manifest: dict) -> tuple[Path | None, str]:
    """The submitted notebook of this assignment, or why there is none: the notebook whose metadata names the
    assignment's chapter, else the one whose file name does, else a lone notebook that names no chapter."""
    from .model import GradingError
    from .reading import read_notebook
    chapter = next(iter(manifest["chapters"]))
    found = sorted(p for p in submission.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts) \
        if submission.is_dir() else []
    if not found:
        return None, "no notebook (.ipynb) was submitted: upload the saved notebook of this assignment"
    said = {}
    for path in found:
        try:
            meta = read_notebook(path).get("metadata", {}).get("dpteach", {})
        except GradingError:
            meta = {}
        said[path] = meta.get("chapter") if isinstance(meta, dict) else None
    for choose in (lambda p: said[p] == chapter, lambda p: said[p] is None and chapter[:3] in p.name,
                   lambda p: said[p] is None and len(found) == 1):
        chosen = [p for p in found if choose(p)]
        if chosen:
            return chosen[0], ""
    return None, (f"none of the submitted notebooks ({', '.join(p.name for p in found[:5])}) is this assignment's "
                  f"({chapter}): submit that notebook")


def isolation_here() -> tuple[str, str]:
    """The isolation this container allows: bubblewrap where it starts, else a fresh uid (root only)."""
    from . import sandbox
    try:
        sandbox.require()
        return "bubblewrap", "bubblewrap (no network, nothing of the grader's mounted)"
    except sandbox.SandboxUnavailable as error:
        if os.geteuid() == 0:
            return "user", ("a fresh unprivileged uid, because bubblewrap cannot start here "
                            f"({str(error).split('here')[1].split('.')[0].strip(' ()') or 'not installed'}): "
                            "the source folder unreadable and the results unwritable to it, its processes killed "
                            "afterwards; the network stays reachable in this mode")
        return "", f"neither bubblewrap nor root is available, so students' code cannot be isolated: {error}"


def results(record: Record | None, manifest: dict, why: str = "", flags: list[str] | None = None,
            started: float | None = None) -> dict:
    """Gradescope's results.json for one graded ``record`` (or, with none, for why nothing was graded)."""
    record = record.to_json() if record is not None else None
    chapter = next(iter(manifest["chapters"]))
    config = manifest.get("gradescope", {})
    hidden = set(config.get("hidden", []))
    tests = []
    for exercise in manifest["chapters"][chapter]["exercises"]:
        question = next((q for q in (record or {}).get("questions", []) if q["exercise"] == exercise["name"]), None)
        from .manifest import parts as exercise_parts
        parts = question["parts"] if question else [dict(p, earned=0) for p in exercise_parts(exercise)]
        for part in parts:
            label = f"Exercise {exercise['number']}" + (f": {part['part']}" if len(parts) > 1 else "")
            text = (question or {}).get("message") or why or "not graded"
            if question and question.get("strict") and question.get("correct") is True and part is parts[-1]:
                text += " " + question["strict"]
            tests.append({"name": label, "number": f"{exercise['number']}.{parts.index(part) + 1}",
                          "score": part["earned"], "max_score": part["points"],
                          "status": "passed" if part["earned"] == part["points"] else "failed",
                          "output": _truncate(text), "output_format": "text",
                          "visibility": "hidden" if exercise["name"] in hidden else "visible"})
    notes = ([why] if why else []) + list(flags or []) + list((record or {}).get("flags", []))
    if record and record.get("reason"):
        notes.append(record["reason"])
    notes += [f"Cell {c['cell']} raised: {c['error']}" for c in (record or {}).get("cells", [])]
    out = {"score": sum(t["score"] for t in tests), "tests": tests, "output": _truncate("\n".join(notes)),
           "output_format": "text", "stdout_visibility": "hidden", "visibility": "visible"}
    if started is not None:
        out["execution_time"] = round(time.monotonic() - started, 2)
    return out


def run(root: Path, isolation: str = "auto") -> dict:
    """Grade ``root/submission`` (see the module docstring); write and return ``root/results/results.json``.

    ``isolation``: ``auto`` (bubblewrap where it starts, else a fresh uid), or one forced."""
    from .grading import Options, grade_submission
    from .manifest import load_manifest
    from .model import Place
    started = time.monotonic()
    out = root / "results" / "results.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:        # whatever setup.sh did: the course file root's alone, the results root's to write
        for folder, mode in ((root / "source", 0o700), (out.parent, 0o755)):
            os.chown(folder, 0, 0)
            os.chmod(folder, mode)
    try:
        manifest = load_manifest(root / "source" / "course.json")
    except ValueError as error:
        result = {"score": 0, "tests": [], "output": f"The autograder is broken (tell your instructor): {error}",
                  "stdout_visibility": "hidden"}
        out.write_text(json.dumps(result), encoding="utf-8")
        print(result["output"])
        return result
    try:
        metadata = json.loads((root / "submission_metadata.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        metadata = {}
    who, flags, why = _who(metadata, manifest)
    path, missing = _notebook(root / "submission", manifest) if who is not None else (None, "")
    chosen, said = isolation_here() if isolation == "auto" else (isolation, f"{isolation} (forced)")
    record = None
    if who is not None and path is not None and chosen:
        config = {**LIMITS, **manifest.get("gradescope", {})}
        options = Options(timeout=float(config["timeout"]), memory_mb=int(config["memory_mb"]),
                          cell_timeout=float(config["cell_timeout"]), function_timeout=float(config["function_timeout"]),
                          isolation=chosen)
        place = Place(str(path), who, "the submission's metadata", chapter=next(iter(manifest["chapters"])))
        record = grade_submission(place, manifest, options, known=True)
    reason = why or missing or ("" if chosen else "the autograder could not isolate your code, so it was not run: "
                                                  "tell your instructor")
    result = results(record, manifest, reason, flags, started)
    out.write_text(json.dumps(result, ensure_ascii=False), encoding="utf-8")
    print(f"dpteach autograder ({sys.executable}): student {who or '(the class)'}; isolation: {said}; "
          f"score {result['score']}; {time.monotonic() - started:.1f} s")
    return result
