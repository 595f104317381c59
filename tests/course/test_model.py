"""The grading core's record (dpteach.course.model): one shape for every record the grader writes, JSON in and
out, its total by one rule."""


import pytest
from submissions import MANIFEST

from dpteach.course import batch, grading
from dpteach.course.model import STATUSES, Record, whole

KEYS = {"id", "file", "chapter", "status", "reason", "questions", "possible", "seconds", "isolation", "cells",
        "flags", "late", "handed_in_as", "total"}


def test_whole_writes_a_whole_number_as_an_int_and_keeps_halves():
    assert whole([1, 2.0]) == 3 and isinstance(whole([1, 2.0]), int)
    assert whole([0.5, 1]) == 1.5
    assert whole(4.0) == 4 and isinstance(whole(4.0), int)
    assert whole([]) == 0


def test_a_record_goes_to_json_and_back_unchanged():
    question = {"exercise": "Ex 1", "points": 1.5, "possible": 2, "parts": [{"name": "value", "points": 2, "earned": 1.5}]}
    record = Record(id="s1", file="a.ipynb", chapter="03", questions=[question], possible=2, flags=["late"])
    data = record.to_json()
    assert set(data) == KEYS
    assert data["total"] == 1.5 and data["questions"] == [question] and data["flags"] == ["late"]
    assert Record.from_json(data) == record
    data["questions"][0]["points"] = 0        # the stored copy is not the record's
    assert record.total == 1.5


@pytest.mark.parametrize("status", [s for s in STATUSES if s != "ok"])
def test_only_a_graded_record_has_points(status):
    record = Record(id="s1", status=status, questions=[{"points": 2}])
    assert record.total == 0 and record.to_json()["total"] == 0
    assert Record(id="s1", questions=[{"points": 2}]).total == 2


def test_a_record_refuses_what_is_not_a_record():
    with pytest.raises(ValueError, match="status must be one of"):
        Record(id="s1", status="graded")
    with pytest.raises(ValueError, match=r"only a record's keys .*\['grade'\]"):
        Record.from_json({"id": "s1", "grade": 3})
    with pytest.raises(ValueError, match="id"):
        Record.from_json({"file": "x"})
    record = Record(id="s1")
    with pytest.raises(AttributeError):
        record.status = "error"        # frozen: a change is a new record
    assert record.with_changes(status="error").status == "error" and record.status == "ok"


def test_every_record_the_grader_writes_has_the_same_keys(tmp_path):
    """A lost worker's record, a stray entry's and a missing notebook's have the keys of a graded one."""
    stray = tmp_path / "s9_notes.txt"
    stray.write_text("not a notebook")
    chapter = next(iter(MANIFEST["chapters"]))
    written = [batch._lost(grading.identify(tmp_path / "s1_03.ipynb", MANIFEST), "the grader gave up on this file").to_json(),
               *[r.to_json() for r in grading.stray_records([tmp_path])],
               Record(id="s1", chapter=chapter, status="missing", reason=f"no notebook for {chapter}").to_json()]
    assert len(written) == 3
    for record in written:
        assert set(record) == KEYS, record
        assert Record.from_json(record).to_json() == record
