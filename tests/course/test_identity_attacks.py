"""Attacks on whose a grade is and which chapter it counts for, run through ``dpteach grade``.

A six-student course (chapters 04 and 05, a roster with a name a spreadsheet would run) is graded three times
into one ``--out``, as a term goes:

1. chapter 04 (``--chapter 04``, a folder per student): Ada hands in her own notebook, wrong, on time;
2. chapter 05, a folder per student: Mary hands in her own notebook, right. Ada, Emmy and Sophie each put their
   own blank notebook in their folder under a name that claims Mary (``1002.ipynb``, a Canvas-like name, a
   Moodle-like name); Grace nests hers one folder deeper; a PDF and a file whose name holds terminal escape
   codes lie beside them;
3. chapter 05 again, a Canvas download: Ada's chapter-04 notebook, now right, handed in on time as 05 work;
   Mary's own notebook blank, late; Emmy's own, right, on time.

Every test fails if its attack works again: a grade never moves to another student or chapter, a stored
on-time grade survives a later run, every replacement (and every refusal) is listed, a file that matches no
rule is listed and graded into no row, no escape code reaches the terminal, no cell starts a formula. Each
expected point is the checker's own verdict at the student's numbers, never typed in.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
import sys

import nbformat
import pytest
from helpers import ROOT, needs_sandbox
from submissions import roster_answers

from dpteach import cli
from dpteach.course import assign, grading
from dpteach.course.roster import read_roster
from dpteach.exercises import EXERCISES
from dpteach.publish.paths import Project

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the grading sandbox is Linux's bubblewrap")

CH04, CH05 = "04_counting_and_histograms", "05_accuracy_census_names"
FORMULA_NAME = "Dave;=1+1;Dunn"
ESCAPE_NAME = "evil\x1b]0;owned\x07\x1b[2J.ipynb"
ROSTER = f"""id,name,email
1001,Ada Lovelace,ada@uni.edu
1002,Mary Somerville,mary@uni.edu
1003,Emmy Noether,emmy@uni.edu
1004,Sophie Germain,sophie@uni.edu
1005,Grace Hopper,grace@uni.edu
1006,{FORMULA_NAME},dave@uni.edu
"""
LIMITS = ["--jobs", "2", "--timeout", "30", "--cell-timeout", "10", "--function-timeout", "5", "--memory", "1024"]


def _values(manifest, sid, chapter, how):
    """The answers of ``sid``'s notebook: right at their numbers, or each exercise's first named mistake (in chapter 05
    also its function; another chapter's function is left out)."""
    answers = roster_answers(manifest, sid, how, chapter)
    if chapter == CH05:
        return answers
    functions = {e["answer"] for e in manifest["chapters"][chapter]["exercises"] if e["kind"] == "function"}
    return {name: source for name, source in answers.items() if name not in functions}


def _points(manifest, sid, chapter, how):
    """What ``sid``'s own notebook answered as ``how`` earns, from the checkers at their numbers (a blank one 0)."""
    if how == "blank":
        return 0
    total = 0
    for exercise in manifest["chapters"][chapter]["exercises"]:
        if exercise["kind"] == "function":
            total += exercise["points"] if how == "right" and chapter == CH05 else 0
            continue
        spec = EXERCISES[exercise["checker"]]
        params = manifest["students"][sid]["params"][chapter][exercise["name"]]
        value = spec.expected(**params) if how == "right" else spec.mistakes(**params)[0].value
        total += exercise["points"] * bool(spec.checker(value, **params).correct)
    return total


def _hand_in(course, manifest, sid, chapter, how, target):
    nb = nbformat.read(course / "students" / "by-student" / sid / f"{chapter}.ipynb", as_version=4)
    answers = {} if how == "blank" else _values(manifest, sid, chapter, how)
    for cell in nb.cells:
        for name, code in answers.items():
            if cell.cell_type == "code" and "# your answer here" in cell.source and f"{name} = ..." in cell.source:
                cell.source = code.rstrip("\n") + "\n" + cell.source.rstrip().splitlines()[-1]
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, target)
    return target


def _grade(course_file, folder, out, chapter):
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = cli.main(["grade", "--course", str(course_file), str(folder), "--out", str(out), "--chapter",
                             chapter, *LIMITS])
    assert code == 0
    return printed.getvalue()


def _rows(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def term(tmp_path_factory):
    needs_sandbox()
    top = tmp_path_factory.mktemp("identity")
    (top / "roster.csv").write_text(ROSTER, encoding="utf-8")
    course = assign.build_course(Project(ROOT), top / "course", seed="identity-test-key", chapters=["04", "05"],
                                 roster=read_roster(top / "roster.csv"), wheel=False)
    course_file = course / "instructor" / "course.json"
    manifest = grading.load_manifest(course_file)
    out = top / "graded"
    runs = {}

    first = top / "run1"
    _hand_in(course, manifest, "1001", CH04, "wrong", first / "1001" / f"{CH04}.ipynb")
    runs[1] = _grade(course_file, first, out, "04")
    runs["after 1"] = {row["id"]: row for row in _rows(out / "gradebook.csv")}

    second = top / "run2"
    _hand_in(course, manifest, "1002", CH05, "right", second / "1002" / f"{CH05}.ipynb")
    _hand_in(course, manifest, "1001", CH05, "blank", second / "1001" / "1002.ipynb")
    _hand_in(course, manifest, "1003", CH05, "blank", second / "1003" / f"marysomerville_1002_4242_{CH05}.ipynb")
    _hand_in(course, manifest, "1004", CH05, "blank", second / "1004" / "Mary Somerville_77_assignsubmission_file_hw.ipynb")
    _hand_in(course, manifest, "1005", CH05, "right", second / "1005" / "work" / f"{CH05}.ipynb")
    _hand_in(course, manifest, "1006", CH05, "right", second / "1006" / f"{CH05}.ipynb")
    _hand_in(course, manifest, "1006", CH05, "blank", second / ESCAPE_NAME)
    (second / "1005.pdf").write_bytes(b"%PDF-1.4\n")
    runs[2] = _grade(course_file, second, out, "05")
    runs["after 2"] = {row["id"]: row for row in _rows(out / f"gradebook-{CH05}.csv")}
    runs["unmatched 2"] = _rows(out / "unmatched.csv")
    runs["report 2"] = (out / "report.html").read_text(encoding="utf-8")

    third = top / "run3"
    _hand_in(course, manifest, "1001", CH04, "right", third / f"adalovelace_1001_5555_{CH05}.ipynb")
    _hand_in(course, manifest, "1002", CH05, "blank", third / f"marysomerville_LATE_1002_5556_{CH05}.ipynb")
    _hand_in(course, manifest, "1003", CH05, "right", third / f"emmynoether_1003_5557_{CH05}.ipynb")
    runs[3] = _grade(course_file, third, out, "05")
    return {"manifest": manifest, "out": out, "runs": runs, "rows": {row["id"]: row for row in _rows(out / "gradebook.csv")},
            "ch04": {row["id"]: row for row in _rows(out / f"gradebook-{CH04}.csv")},
            "ch05": {row["id"]: row for row in _rows(out / f"gradebook-{CH05}.csv")}}


def test_a_notebook_named_after_a_classmate_inside_ones_own_folder_stays_ones_own(term):
    """``1001/1002.ipynb``, a Canvas-like and a Moodle-like name claiming Mary, each in its author's folder: Mary's
    row is her own notebook's, graded and ok; each claim is its author's row."""
    manifest, after = term["manifest"], term["runs"]["after 2"]
    mary = after["1002"]
    assert (mary["total"], mary["status"], mary["file"]) == (
        str(_points(manifest, "1002", CH05, "right")), "ok", f"1002/{CH05}.ipynb")
    assert "second notebook" not in mary["reason"] and mary["flag"] == ""
    assert _points(manifest, "1002", CH05, "right") > 0
    for sid, file in (("1001", "1001/1002.ipynb"), ("1003", f"1003/marysomerville_1002_4242_{CH05}.ipynb"),
                      ("1004", "1004/Mary Somerville_77_assignsubmission_file_hw.ipynb")):
        assert after[sid]["file"].endswith(file), after[sid]
        assert after[sid]["chapter"] == CH05 and after[sid]["flag"] == ""   # each her own notebook


def test_a_notebook_deeper_than_a_students_folder_and_a_file_of_no_notebook_are_listed_in_no_row(term):
    unmatched = {row["file"]: row for row in term["runs"]["unmatched 2"]}
    assert f"1005/work/{CH05}.ipynb" in unmatched and "1005.pdf" in unmatched
    assert "no rule names whose it is" in unmatched[f"1005/work/{CH05}.ipynb"]["reason"]
    assert "holds no notebook" in unmatched["1005.pdf"]["reason"]
    grace = term["runs"]["after 2"]["1005"]
    assert (grace["total"], grace["status"]) == ("0", "missing")
    assert "1005.pdf" in term["runs"]["report 2"] and f"1005/work/{CH05}.ipynb" in term["runs"]["report 2"]


def test_neither_another_chapters_notebook_nor_a_late_one_replaces_a_stored_on_time_grade(term):
    """Ada's chapter-04 notebook handed in as 05 work: her stored 04 grade stays, the notebook is flagged as
    another chapter's, and the refusal is listed; Mary's late blank notebook leaves her on-time 05 grade."""
    manifest, ch04, ch05 = term["manifest"], term["ch04"], term["ch05"]
    on_time = _points(manifest, "1001", CH04, "wrong")
    assert _points(manifest, "1001", CH04, "right") > on_time
    assert term["runs"]["after 1"]["1001"]["total"] == str(on_time)
    assert (ch04["1001"]["total"], ch04["1001"]["late"], ch04["1001"]["file"]) == (str(on_time), "", f"{CH04}.ipynb")
    assert (ch05["1002"]["total"], ch05["1002"]["late"]) == (str(_points(manifest, "1002", CH05, "right")), "")
    assert ch05["1001"]["total"] == "0" and ch05["1001"]["file"] == "1001/1002.ipynb"
    log = _rows(term["out"] / "replacements.csv")
    kept = {(row["id"], row["chapter"]): row for row in log if row["what"] == "kept"}
    assert set(kept) == {("1001", CH04), ("1002", CH05)}
    assert f"registered for {CH04} but was handed in as {CH05}" in kept[("1001", CH04)]["why"]
    assert "late" in kept[("1002", CH05)]["why"]


def test_every_replacement_is_listed_in_the_class_report(term):
    """Emmy's on-time right notebook replaces her stored blank one: allowed, and listed with both grades."""
    manifest = term["manifest"]
    right = _points(manifest, "1003", CH05, "right")
    assert term["ch05"]["1003"]["total"] == str(right)
    log = _rows(term["out"] / "replacements.csv")
    replaced = [row for row in log if row["what"] == "replaced"]
    assert [(row["id"], row["chapter"], row["before"], row["after"]) for row in replaced] == [
        ("1003", CH05, f"0/{right}", f"{right}/{right}")]
    report = (term["out"] / "report.html").read_text(encoding="utf-8")
    assert "Stored grades replaced: 1; kept against a newer notebook: 2" in report
    assert report.count("<td>1003, " + CH05) == 1 and "<td>1001, " + CH04 in report


def test_no_terminal_escape_code_from_a_file_name_reaches_the_graders_output(term):
    printed = "".join(term["runs"][n] for n in (1, 2, 3))
    assert "\x1b" not in printed and "\x07" not in printed
    assert "\\x1b]0;owned\\x07\\x1b[2J" in printed


def _formula_pieces(text):
    """Every piece of a CSV file's text, split on any separator a spreadsheet may guess, that starts a formula."""
    pieces = re.split(r"[,;\t\n]", text)
    number = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
    return [p for p in pieces if p.strip().lstrip('"').startswith(("=", "+", "-", "@"))
            and not number.match(p.strip().strip('"'))]


@pytest.mark.parametrize("name", ["gradebook.csv", f"gradebook-{CH05}.csv", f"canvas-{CH05}.csv", f"moodle-{CH05}.csv"])
def test_a_name_with_a_formula_after_a_separator_runs_in_no_spreadsheet(term, name):
    text = (term["out"] / name).read_text(encoding="utf-8")
    assert "Dave;'=1+1;Dunn" in text
    assert _formula_pieces(text) == []


def test_the_roster_reads_a_quote_inside_quotes_and_refuses_what_does_not_parse(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text('id,name,email\n1,"Ada ""Countess"" Lovelace","ada@uni.edu"\n2,"Bob, Jr.","bob""s@uni.edu"\n',
                      encoding="utf-8")
    (ada, bob) = read_roster(roster)
    assert (ada.name, ada.email) == ('Ada "Countess" Lovelace', "ada@uni.edu")
    assert (bob.name, bob.email) == ("Bob, Jr.", 'bob"s@uni.edu')
    for broken, line in (('id,name\n1,Ada\n2,"Bob"x\n', 3), ('id,name\n1,"Ada\n', 2)):
        roster.write_text(broken, encoding="utf-8")
        with pytest.raises(ValueError, match=f"line {line}"):
            read_roster(roster)


@pytest.mark.parametrize("old, new, kept", [
    ({}, {"late": True}, True),                                     # on time stored, late new: kept
    ({"late": True}, {"late": True}, False),                        # late graded again: replaced
    ({"late": True}, {}, False),                                    # on time replaces late
    ({}, {"handed_in_as": CH05}, True),                             # another chapter's notebook: kept
    ({"handed_in_as": CH05}, {"handed_in_as": CH05}, False),        # the same notebook graded again
    ({}, {"flags": ["made for another student (1002)"]}, True),     # flagged never replaces unflagged
    ({"chapter": ""}, {"late": True}, False),                       # an unreadable record gives way to anything
])
def test_what_may_replace_a_stored_grade(old, new, kept):
    from dpteach.course.store import refusal
    base = {"id": "1001", "chapter": CH04, "late": False, "flags": [], "handed_in_as": ""}
    assert bool(refusal(dict(base, **old), dict(base, **new))) is kept


def test_a_chapter_not_in_the_course_is_refused_naming_the_option(tmp_path, capsys):
    from submissions import MANIFEST
    (tmp_path / "course.json").write_text(json.dumps(MANIFEST), encoding="utf-8")
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "ada.ipynb").write_text(nbformat.writes(nbformat.v4.new_notebook()), encoding="utf-8")
    with pytest.raises(SystemExit):
        cli.main(["grade", "--course", str(tmp_path / "course.json"), str(tmp_path / "in"), "--chapter", "07"])
    assert "--chapter must be one of the course's chapters (05_accuracy_census_names), got '07'" in capsys.readouterr().err
