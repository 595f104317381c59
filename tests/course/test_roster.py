"""Rosters as LMSs export them, and matching a submission's file to its student."""

from __future__ import annotations

from pathlib import Path

import pytest

from dpteach.course.names import identify, roster_index
from dpteach.course.roster import name_keys, read_roster

CANVAS = """Student,ID,SIS User ID,SIS Login ID,Section,Homework 1 (123)
    Points Possible,,,,,10
"Doe, Jane",123456,S1,jdoe,Section A,7
"Lovelace, Ada",123457,S2,alove,Section B,9
"""
MOODLE = """First name;Last name;ID number;Email address;Username
Jane;Doe;S1;jane@uni.edu;jdoe
Ada;Lovelace;S2;ada@uni.edu;alove
"""


def _write(tmp_path, text, name="roster.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_canvas_gradebook_export_is_a_roster(tmp_path):
    students = read_roster(_write(tmp_path, CANVAS))
    assert [(s.id, s.name, s.sis_id, s.login, s.section) for s in students] == [
        ("123456", "Doe, Jane", "S1", "jdoe", "Section A"), ("123457", "Lovelace, Ada", "S2", "alove", "Section B")]


def test_a_moodle_user_export_with_semicolons_and_split_names_is_a_roster(tmp_path):
    students = read_roster(_write(tmp_path, "\ufeff" + MOODLE))
    assert [(s.id, s.name, s.email, s.sis_id) for s in students] == [
        ("jdoe", "Jane Doe", "jane@uni.edu", "S1"), ("alove", "Ada Lovelace", "ada@uni.edu", "S2")]


@pytest.mark.parametrize("text, words", [
    ("name,email\nAda,a@u\n", "has no id column"),
    ("id,name\n1,Ada\n1,Bob\n", "id '1' is already on row 2"),
    ("id,name\n1,Ada\n,Bob\n", "row 3: the id is empty"),
    ("id,email\n1,a@u\n2,A@U\n", "email 'a@u' is given to two students"),
    ("id,name\n", "lists no student"), ("", "is empty")])
def test_a_bad_roster_is_refused_naming_the_row(tmp_path, text, words):
    with pytest.raises(ValueError, match="roster") as raised:
        read_roster(_write(tmp_path, text))
    assert words in str(raised.value)


def test_names_match_the_ways_downloads_write_them():
    assert name_keys("Doe, Jane") == name_keys("Jane Doe") == {"janedoe", "doejane"}
    assert "zoekruger" in name_keys("Zoë Krüger")


def _manifest(tmp_path):
    students = read_roster(_write(tmp_path, CANVAS.replace("Section,", "Section,Email,").replace(
        "Section A,", "Section A,jane@uni.edu,").replace("Section B,", "Section B,ada@uni.edu,")))
    return {"chapters": {"05_accuracy_census_names": {"notebook": "05_accuracy_census_names.ipynb", "exercises": []}},
            "students": {s.id: s.as_dict() for s in students}}


@pytest.mark.parametrize("path, expected", [
    ("123456.ipynb", ("123456", True)),                                                      # a file per student
    ("123457/05_accuracy_census_names.ipynb", ("123457", True)),                             # a folder per student
    ("doejane_LATE_123456_999_hw05.ipynb", ("123456", True)),                                # Canvas
    ("Ada Lovelace_4242_assignsubmission_file_/hw.ipynb", ("123457", True)),                 # Moodle: by the name
    ("jane@uni.edu.ipynb", ("123456", True)),                                               # a file named by email
    ("mallory.ipynb", ("mallory", False)),
])
def test_a_submission_is_matched_to_the_roster_by_its_file_name_never_by_its_contents(tmp_path, path, expected):
    manifest = _manifest(tmp_path)
    place = identify(Path(tmp_path / path), manifest)
    assert (place.id, place.on_roster) == expected


def test_two_students_with_one_name_are_matched_by_nothing_but_their_ids(tmp_path):
    manifest = _manifest(tmp_path)
    manifest["students"]["999"] = dict(manifest["students"]["123457"], id="999", email="other@uni.edu")
    assert "adalovelace" not in roster_index(manifest)["name"]
    place = identify(tmp_path / "Ada Lovelace_4242_assignsubmission_file_" / "hw.ipynb", manifest)
    assert (place.id, place.on_roster) == ("4242", False)


def test_without_a_roster_the_file_names_the_student():
    manifest = {"chapters": {"05_accuracy_census_names": {"exercises": []}}}
    place = identify(Path("x/ada.ipynb"), manifest)
    assert (place.id, place.on_roster) == ("ada", True)
