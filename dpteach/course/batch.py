"""A class graded in parallel: every submission in a worker process of its own, its record returned.

Each worker grades one :class:`dpteach.course.model.Place` (whose a file is, read from its name once by
:func:`dpteach.course.names.identify_all`) with :func:`dpteach.course.submission.grade_submission`. Without a
sandbox (``--unsafe``) the package's :func:`fingerprint` is compared before and after each notebook.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from . import sandbox
from .model import Place, Record
from .running import DEFAULT, Options
from .submission import grade_submission

__all__ = ["fingerprint", "grade_all"]


def fingerprint(root: str | Path | None = None) -> str:
    """A digest of the dpteach package's files (names, sizes, contents of the .py files).

    In a sandbox the package is mounted read-only; without one (``--unsafe``) a notebook could rewrite
    dpteach's own files, which every later run imports. Then the digest is compared before and after
    each submission: a change makes that submission (and every later one) an error, to be graded again
    after reinstalling.
    """
    import hashlib
    root = Path(root) if root is not None else sandbox.PACKAGE
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        digest.update(f"{path.relative_to(root)}:{path.stat().st_size}\n".encode())
        if path.suffix in (".py", ".pth"):
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _warm() -> None:
    """A worker imports what grading needs, once, before any student code runs anywhere."""
    import nbformat  # noqa: F401

    import dpteach.exercises  # noqa: F401


def _task(place: Place, manifest: dict, options: Options, baseline: str | None = None,
          assignment: str | None = None) -> Record:
    """One submission in a worker, with the package's fingerprint checked before and after."""
    if baseline is not None and fingerprint() != baseline:
        return _lost(place, "not graded: dpteach's files changed during this batch (a notebook rewrote them); "
                            "reinstall dpteach and grade again")
    record = grade_submission(place, manifest, options, assignment=assignment)
    if baseline is not None and fingerprint() != baseline:
        record = record.with_changes(status="error", reason="tampering: this notebook changed dpteach's own files; "
                                                            "reinstall dpteach and grade again")
    return record


def grade_all(places: Sequence[Place], manifest: dict, options: Options = DEFAULT, jobs: int | None = None,
              progress=None, watch_package: bool = True, assignment: str | None = None) -> list[Record]:
    """Grade every notebook of ``places`` with ``jobs`` worker processes; one record each, in ``places``' order.

    ``places`` say whose each notebook is, read from its name once (:func:`dpteach.course.names.identify_all`)
    and passed down. ``assignment`` is the chapter graded (``--chapter``): a notebook registered for another is
    flagged. Without a sandbox,
    ``watch_package`` compares dpteach's :func:`fingerprint` before and after each submission (off only where
    dpteach's files are edited on purpose meanwhile, as in a working copy under development).
    """
    from concurrent.futures import ProcessPoolExecutor, wait
    if options.isolation == "bubblewrap":
        sandbox.require()       # before any worker: a missing sandbox stops the run, it is never skipped
    jobs = jobs or os.cpu_count() or 1
    if jobs < 1:
        raise ValueError(f"jobs must be ≥ 1 (got {jobs})")
    if assignment is not None and assignment not in manifest["chapters"]:
        raise ValueError(f"assignment must be one of the course's chapters ({', '.join(manifest['chapters'])}), "
                         f"got {assignment!r}")
    records: dict[int, Record] = {}
    with ProcessPoolExecutor(max_workers=min(jobs, max(1, len(places))), mp_context=_context(),
                             initializer=_warm) as pool:
        baseline = fingerprint() if watch_package and options.isolation == "none" else None
        futures = {pool.submit(_task, place, manifest, options, baseline, assignment): number
                   for number, place in enumerate(places)}
        # Every submission's own limits end it; this is the grader's last guard (a worker lost or stuck).
        guard = options.timeout + 4 * options.function_timeout + 300
        pending = set(futures)
        while pending:
            done, pending = wait(pending, timeout=guard, return_when="FIRST_COMPLETED")
            if not done:
                break
            for future in done:
                number = futures[future]
                try:
                    records[number] = future.result()
                except Exception as error:   # a worker process lost: that submission's row says so
                    records[number] = _lost(places[number], f"the grader's worker failed: {error}")
                if progress:
                    progress(records[number])
        for future in pending:
            future.cancel()
            records[futures[future]] = _lost(places[futures[future]], "the grader gave up on this file")
    return [records[number] for number in range(len(places))]


def _context():
    """Workers forked from the grader (which imported dpteach, untouched by students) where fork exists."""
    import multiprocessing
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _lost(place: Place, reason: str) -> Record:
    """The record of a file the grader could not grade: an error in its student's row, or unmatched."""
    return Record(id=place.id, file=place.path, status="error" if place.on_roster else "unmatched", reason=reason)
