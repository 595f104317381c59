"""A course run end to end, as an instructor runs one: a 200-student roster, a notebook per student, a class's
submissions as they really come in, graded, and everything grading writes checked row by row.

The roster is a Canvas gradebook export (its "Points Possible" row included) with an email column. Chapter
05's homework is built for every student, then handed in as students do: right, wrong, partly right, late
(Canvas's LATE name), by Moodle's folder names (matched by the student's name), misnamed, one from last
year's course, another student's copied notebook, one whose homework lines were deleted, and two notebooks
from one student. Everyone else hands in nothing. Each expected point below is computed from the course
file (the checker at the student's own numbers), never typed in.
"""

from __future__ import annotations

import csv
import json
import shutil

import nbformat
import pytest
from helpers import ROOT, needs_sandbox
from submissions import fill_cells, roster_answers

from dpteach import cli
from dpteach.course import assign, grading
from dpteach.course.reading import homework_line
from dpteach.course.roster import read_roster
from dpteach.exercises import EXERCISES
from dpteach.publish.paths import Project

CHAPTER = "05_accuracy_census_names"
KEY = "course-run-test-key"
OPTIONS = grading.Options(timeout=30, memory_mb=1024, function_timeout=5, cell_timeout=10)
LIBRARY_FUNCTION = ("def my_accuracy_bound(k, beta, sensitivity, epsilon):\n"
                    "    return dp.laplace_accuracy_bound(k, beta, sensitivity, epsilon)\n")


def _roster(path):
    lines = ["Student,ID,SIS User ID,SIS Login ID,Section,Email", "    Points Possible,,,,,"]
    for i in range(200):
        lines.append(f"\"Student{i:03d}, Test\",{5000 + i},S{i:03d},login{i:03d},Section {1 + i % 3},s{i:03d}@uni.edu")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _fill(source_nb, target, answers, drop_homework_line=False):
    nb = nbformat.read(source_nb, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code" and drop_homework_line and "dp.exercises.homework(" in cell.source:
            cell.source = cell.source[:cell.source.index("dp.exercises.homework(")].rstrip()
    fill_cells(nb, answers)
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, target)
    return target


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    needs_sandbox()
    top = tmp_path_factory.mktemp("course-run")
    roster = read_roster(_roster(top / "roster.csv"))
    course = assign.build_course(Project(ROOT), top / "course", seed=KEY, chapters=["05"], roster=roster, wheel=False)
    manifest = grading.load_manifest(course / "instructor" / "course.json")
    last_year = assign.build_course(Project(ROOT), top / "last-year", seed="last year's key", chapters=["05"],
                                    roster=roster, wheel=False)
    last_manifest = json.loads((last_year / "instructor" / "course.json").read_text())
    own = {sid: course / "students" / "by-student" / sid / f"{CHAPTER}.ipynb" for sid in manifest["students"]}
    subs = top / "submissions"
    names = {sid: manifest["students"][sid]["name"] for sid in manifest["students"]}
    kinds = {
        "5000": ("right", _fill(own["5000"], subs / "5000.ipynb", roster_answers(manifest, "5000"))),
        "5001": ("wrong", _fill(own["5001"], subs / "5001.ipynb", roster_answers(manifest, "5001", "wrong"))),
        "5002": ("partial", _fill(own["5002"], subs / "5002.ipynb", {
            **roster_answers(manifest, "5002"), **{k: v for k, v in roster_answers(manifest, "5002", "wrong").items()
                                             if k == "answer_beta_for_bound"},
            "my_accuracy_bound": LIBRARY_FUNCTION})),
        "5003": ("late", _fill(own["5003"], subs / f"student003test_LATE_5003_88123_{CHAPTER}.ipynb",
                               roster_answers(manifest, "5003"))),
        "5004": ("moodle", _fill(own["5004"], subs / f"{names['5004'].split(', ')[1]} {names['5004'].split(', ')[0]}"
                                 "_771234_assignsubmission_file_" / f"{CHAPTER}.ipynb", roster_answers(manifest, "5004"))),
        "5006": ("last year", _fill(last_year / "students" / "by-student" / "5006" / f"{CHAPTER}.ipynb",
                                    subs / "5006.ipynb", {**roster_answers(last_manifest, "5006")})),
        "5007": ("copied", _fill(own["5000"], subs / "5007.ipynb", roster_answers(manifest, "5000"))),
        "5008": ("no homework lines", _fill(own["5008"], subs / "5008.ipynb", roster_answers(manifest, "5008"),
                                            drop_homework_line=True)),
        "5009": ("twice", _fill(own["5009"], subs / "5009" / f"{CHAPTER}.ipynb", roster_answers(manifest, "5009"))),
    }
    _fill(own["5009"], subs / "5009.ipynb", roster_answers(manifest, "5009", "wrong"))
    misnamed = _fill(own["5005"], subs / "homework5_final.ipynb", roster_answers(manifest, "5005"))
    records = [r.to_json() for r in grading.grade_all(grading.identify_all(grading.find_submissions([subs]), manifest,
                                                                          roots=[subs]), manifest, OPTIONS, jobs=2)]
    (course / "instructor" / "overrides.csv").write_text(
        "id,chapter,exercise,points,reason\n5001,05,2,1,regraded: the question was ambiguous\n", encoding="utf-8")
    overrides = grading.load_overrides(None, course / "instructor" / "course.json", manifest)
    gradebook = grading.write_results(records, manifest, top / "graded", overrides)
    return {"manifest": manifest, "records": records, "gradebook": gradebook, "kinds": kinds, "misnamed": misnamed,
            "top": top, "last": last_manifest}


def _rows(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def _expected_points(manifest, sid, answers_of, params_of=None):
    """The points ``sid`` should get for notebooks answered as ``answers_of`` (a student) was, judged at ``sid``'s
    numbers: each value through its checker, the function's parts as written in the test's sources."""
    total = 0
    mine_all = manifest["students"][sid]["params"][CHAPTER]
    for exercise in manifest["chapters"][CHAPTER]["exercises"]:
        if exercise["kind"] == "function":
            continue
        spec = EXERCISES[exercise["checker"]]
        theirs = (params_of or manifest)["students"][answers_of]["params"][CHAPTER][exercise["name"]]
        total += int(bool(spec.checker(spec.expected(**theirs), **mine_all[exercise["name"]]).correct))
    return total


def test_the_gradebook_has_a_row_per_roster_student_with_the_points_each_earned(run):
    manifest, kinds = run["manifest"], run["kinds"]
    rows = _rows(run["gradebook"])
    header, body = rows[0], rows[1:]
    questions = [f"{CHAPTER}:exercise_{n}" for n in (1, 2, 3, 4)]
    assert header == ["id", "name", "email", "file", "chapter", *questions, "total", "possible", "late", "flag",
                      "status", "isolation", "reason"]
    assert [row[0] for row in body] == sorted(manifest["students"])          # every roster student, once
    by_id = {row[0]: dict(zip(header, row)) for row in body}
    for sid, row in by_id.items():
        assert row["name"] == manifest["students"][sid]["name"] and row["email"] == manifest["students"][sid]["email"]
        assert row["possible"] == "5"
        assert int(row["total"]) == sum(int(row[q]) for q in questions)
        if sid not in kinds:      # handed in nothing (5005's file is misnamed: it is listed, not graded into a row)
            assert (row["total"], row["status"], row["reason"]) == ("0", "missing", f"no notebook for {CHAPTER}")
    assert [by_id["5000"][q] for q in questions] == ["1", "1", "1", "2"] and by_id["5000"]["status"] == "ok"
    # wrong: every value a named mistake, the function wrong; the override gives exercise 2 its point back
    assert [by_id["5001"][q] for q in questions] == ["0", "1", "0", "0"]
    # partial: exercise 2 wrong, the function right but calling dpteach: its first part only
    assert [by_id["5002"][q] for q in questions] == ["1", "0", "1", "1"] and by_id["5002"]["total"] == "3"
    assert by_id["5003"]["total"] == "5" and by_id["5003"]["late"] == "late" and "late (Canvas" in by_id["5003"]["reason"]
    assert by_id["5004"]["total"] == "5" and by_id["5004"]["file"].endswith("assignsubmission_file_/" + CHAPTER + ".ipynb")
    assert by_id["5008"]["total"] == "5" and "homework lines" in by_id["5008"]["flag"]
    assert by_id["5009"]["status"] == "error" and "second notebook" in by_id["5009"]["reason"]
    for sid in manifest["students"]:
        if sid not in ("5006", "5007", "5008"):
            assert by_id[sid]["flag"] == "", sid


def test_notebooks_made_for_someone_else_are_flagged_and_graded_at_their_submitters_numbers(run):
    manifest, records = run["manifest"], run["records"]
    by_id = {r["id"]: r for r in records if r["status"] != "unmatched"}
    copied = by_id["5007"]
    assert "this notebook was made for another student (5000)" in copied["flags"]
    assert "its homework numbers are not this student's: those of 5000" in copied["flags"]
    assert copied["total"] == _expected_points(manifest, "5007", "5000") + 2      # (the function is right anywhere)
    old = by_id["5006"]
    assert any("another course (or an earlier year's)" in flag for flag in old["flags"])
    assert any("those of no student on this roster" in flag for flag in old["flags"])
    assert old["total"] == _expected_points(manifest, "5006", "5006", run["last"]) + 2


def test_files_that_match_no_student_are_listed_and_never_graded_into_a_row(run):
    unmatched = [r for r in run["records"] if r["status"] == "unmatched"]
    assert [r["id"] for r in unmatched] == ["homework5_final"]
    assert "made for '5005'" in unmatched[0]["reason"] and not unmatched[0]["questions"]
    rows = _rows(run["top"] / "graded" / "unmatched.csv")
    assert rows[0] == ["file", "id from its name", "chapter", "reason"] and rows[1][:3] == [
        "homework5_final.ipynb", "homework5_final", CHAPTER]
    assert "homework5_final" not in run["gradebook"].read_text()


def test_the_canvas_export_is_canvas_gradebook_import_format(run):
    manifest = run["manifest"]
    rows = _rows(run["top"] / "graded" / f"canvas-{CHAPTER}.csv")
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                       "Homework 05: Accuracy and the census first names"]
    assert rows[1] == ["Points Possible", "", "", "", "", "5"]
    gradebook = _rows(run["gradebook"])
    totals = {row[0]: row[gradebook[0].index("total")] for row in gradebook[1:]}
    assert len(rows) == 2 + 200
    for row, (sid, person) in zip(rows[2:], manifest["students"].items()):
        assert row == [person["name"], sid, person["sis_id"], person["login"], person["section"], totals[sid]]


def test_the_moodle_export_has_every_roster_student_by_email_with_numeric_grades_within_the_maximum(run):
    manifest = run["manifest"]
    rows = _rows(run["top"] / "graded" / f"moodle-{CHAPTER}.csv")
    assert rows[0] == ["Email address", "ID number", "Full name", "Homework 05: Accuracy and the census first names"]
    assert [row[0] for row in rows[1:]] == [p["email"] for p in manifest["students"].values()]
    assert all(0 <= float(row[3]) <= 5 for row in rows[1:])
    assert {row[0]: row[3] for row in rows[1:]}["s000@uni.edu"] == "5"


def test_every_roster_student_gets_a_page_and_the_override_is_shown(run):
    feedback = run["top"] / "graded" / "feedback"
    pages = {p.stem for p in feedback.glob("*.html")}
    assert pages == set(run["manifest"]["students"])
    right = (feedback / "5000.html").read_text()
    assert "5 / 5 points" in right and "Student000, Test" in right
    wrong = (feedback / "5001.html").read_text()
    assert "Changed by your instructor: regraded: the question was ambiguous" in wrong
    partial = (feedback / "5002.html").read_text()
    assert "1 / 1 for passing its hidden cases; 0 / 1 for writing it by hand" in partial
    copied = (feedback / "5007.html").read_text()
    assert "made for another student (5000)" in copied
    nothing = (feedback / "5100.html").read_text()
    assert f"no notebook for {CHAPTER}" in nothing and "0 / 5 points" in nothing
    stored = json.loads((feedback / "5001.json").read_text())
    assert stored[0]["questions"][1]["points"] == 0       # the override is applied to what is shown, never stored


def test_the_class_report_says_what_was_right_what_was_flagged_and_what_matched_no_one(run):
    page = (run["top"] / "graded" / "report.html").read_text()
    graded = [r for r in run["records"] if r["status"] != "unmatched" and r["questions"]]
    right = sum(q["points"] == q["possible"] for r in graded for q in r["questions"] if q["exercise"] == "exercise_1")
    assert f"Exercise 1 <span class=\"count\">{right} of {len(graded)} right" in page
    handed_in = {r["id"] for r in run["records"] if r["status"] != "unmatched"}
    assert f"{200 - len(handed_in)} students handed in nothing" in page and len(handed_in) == 9
    assert "Flagged: 3" in page and "Files that match no student on the roster: 1" in page
    assert "<script" not in page


def test_regrading_the_gradebook_from_the_records_applies_a_changed_override(run, tmp_path):
    graded = tmp_path / "graded"
    shutil.copytree(run["top"] / "graded", graded)
    course = run["top"] / "course" / "instructor" / "course.json"
    overrides = tmp_path / "overrides.csv"
    overrides.write_text("id,chapter,exercise,points,reason\n5002,05_accuracy_census_names,exercise_4,2,"
                         "asked in class: dpteach was allowed\n", encoding="utf-8")
    assert cli.main(["gradebook", "--course", str(course), "--out", str(graded), "--overrides", str(overrides)]) == 0
    by_id = {row[0]: row for row in _rows(graded / "gradebook.csv")[1:]}
    header = _rows(graded / "gradebook.csv")[0]
    assert by_id["5002"][header.index("total")] == "4" and by_id["5001"][header.index("total")] == "0"


@pytest.mark.parametrize("row, words", [
    ("5000,05,9,1,x", "exercise must be one of"), ("5000,07,1,1,x", "chapter must be one of"),
    ("nobody,05,1,1,x", "id must be a student on the roster"), ("5000,05,1,2,x", "points must be in [0, 1]"),
    ("5000,05,1,one,x", "points must be a number")])
def test_a_bad_override_is_refused_naming_its_row(run, tmp_path, row, words):
    overrides = tmp_path / "overrides.csv"
    overrides.write_text("id,chapter,exercise,points,reason\n" + row + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="row 2") as raised:
        grading.load_overrides(str(overrides), "unused", run["manifest"])
    assert words in str(raised.value)


def test_each_student_was_handed_their_own_numbers_and_no_key(run):
    manifest = run["manifest"]
    course = run["top"] / "course"
    seen = set()
    for sid, person in manifest["students"].items():
        nb = nbformat.read(course / "students" / "by-student" / sid / f"{CHAPTER}.ipynb", as_version=4)
        assert nb.metadata["dpteach"] == {"chapter": CHAPTER, "edition": "course", "student": sid,
                                          "variant": person["tag"]}
        registered, _ = homework_line(nb)
        assert registered == {e["checker"]: person["params"][CHAPTER][e["name"]]
                              for e in manifest["chapters"][CHAPTER]["exercises"] if e["kind"] != "function"}
        seen.add(json.dumps(registered, sort_keys=True))
        assert KEY not in json.dumps(nb)
    assert len(seen) >= 190          # 200 students, almost all with a set of numbers no one else has
    assert not (course / "students" / "notebooks").exists()      # with a roster, only each student's own


def test_no_student_is_asked_at_numbers_whose_answer_the_chapter_shows(run):
    """The course works out, per exercise, the combinations whose answer chapter 05 shows elsewhere (its text and
    printed outputs), and draws no student's numbers among them."""
    import nbformat as nbf

    from dpteach.course.leaks import avoided
    from dpteach.publish.editions import exercises
    manifest = run["manifest"]
    chapter = nbf.read(ROOT / "notebooks" / f"{CHAPTER}.ipynb", as_version=4)
    for exercise in exercises(chapter, CHAPTER):
        spec = EXERCISES[exercise.checker]
        entry = next(e for e in manifest["chapters"][CHAPTER]["exercises"] if e["checker"] == exercise.checker)
        expected = list(avoided(chapter, exercise, spec))
        assert entry.get("avoid", []) == expected
        banned = [spec.variants()[i] for i in expected]
        for person in manifest["students"].values():
            assert person["params"][CHAPTER][entry["name"]] not in banned
