"""The course edition: homework that a chapter's worked solution does not answer, and no solution in
anything students get (notebooks, book, downloads).

Built once per module (every chapter, the students' book too, seed 11). The search looks through
every text file students get for each solution's code and for each homework answer, written as a
student or a page would write it (2 to 6 significant figures, as Python prints it), wherever that
string is specific enough to mean the answer (3 significant figures or more).
"""

import json
import re

import nbformat
import pytest
from helpers import ROOT

from dpteach.course import assign, edition
from dpteach.course.reading import homework_line
from dpteach.exercises import EXERCISES
from dpteach.publish import editions
from dpteach.publish.paths import Project

SEED = "key-of-course-eleven"


# The course is built twice: its notebooks alone (the fast suite), and with the students' book, whose pages
# every test here reads too (the slow tier: a whole Sphinx build).
@pytest.fixture(scope="module", params=[pytest.param(False, id="notebooks"),
                                        pytest.param(True, id="with-book", marks=pytest.mark.slow)])
def built(request, tmp_path_factory):
    out = tmp_path_factory.mktemp("course")
    assign.build_course(Project(ROOT), out, seed=SEED, book=request.param)
    return out


@pytest.fixture(scope="module")
def manifest(built):
    return json.loads((built / "instructor" / "course.json").read_text(encoding="utf-8"))


_BASE64 = re.compile(r"[A-Za-z0-9+/=]{120,}")
#: a widget's model id (a uuid4 in hex) in a page's saved widget state: random, and no one reads it (one held
#: "…2e111fef", a 3-figure answer between two letters)
_MODEL_ID = re.compile(r"(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])")


def _notebook_text(path) -> str:
    """What a notebook says: its cells' sources and their text outputs (no images, no widget state)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    parts = []
    for cell in nb["cells"]:
        parts.append("".join(cell.get("source", "")))
        for output in cell.get("outputs", []):
            parts.append("".join(output.get("text", "")))
            for kind in ("text/plain", "text/html", "text/markdown", "text/latex"):
                parts.append("".join(output.get("data", {}).get(kind, "")))
    return "\n".join(parts)


@pytest.fixture(scope="module")
def student_texts(built):
    """Every notebook, page and download students get, as text (images and the pages' own scripts left out)."""
    texts = {}
    for path in (built / "students").rglob("*"):
        if not path.is_file() or "_static" in path.parts:
            continue
        if path.suffix == ".ipynb":
            texts[path] = _notebook_text(path)
        elif path.suffix in {".html", ".md", ".txt"}:
            texts[path] = _MODEL_ID.sub(" ", _BASE64.sub(" ", path.read_text(encoding="utf-8", errors="replace")))
    return texts


def _json(value):
    return json.loads(json.dumps(value))


def _chapters():
    return {p.stem: nbformat.read(p, as_version=4) for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))}


def test_every_chapter_with_exercises_has_homework_and_every_exercise_is_in_it(manifest):
    for stem, nb in _chapters().items():
        found = editions.exercises(nb, stem)
        if not edition.has_exercises(nb):
            assert stem not in manifest["chapters"]
            continue
        listed = manifest["chapters"][stem]["exercises"]
        assert [e["answer"] for e in listed] == [e.answer for e in found]
        for item in listed:
            spec = EXERCISES[item["checker"]]
            assert item["points"] == {"value": 1, "choice": 1, "function": 2}[spec.kind]
            assert item["parts"] == edition.PARTS[spec.kind] and sum(p["points"] for p in item["parts"]) == item["points"]
            assert set(item["params"]) == set(spec.homework)
            for name, value in item["params"].items():      # (JSON writes a tuple as a list)
                assert value in _json(spec.homework[name]) and value != _json(spec.defaults[name]), "new numbers"


def test_a_homework_answer_is_not_the_chapters_worked_answer(manifest):
    for chapter in manifest["chapters"].values():
        for item in chapter["exercises"]:
            spec = EXERCISES[item["checker"]]
            if spec.kind == "value":
                worked, asked = spec.expected(), spec.expected(**item["params"])
                assert not spec.checker(worked, **item["params"]).correct, (item["checker"], worked, asked)
                assert spec.checker(asked, **item["params"]).correct


def test_the_students_notebooks_ask_the_courses_numbers_and_hold_no_solution(built, manifest):
    for path in sorted((built / "students" / "notebooks").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        assert nb.metadata["dpteach"] == {"chapter": path.stem, "edition": "course"}
        text = json.dumps(nb.cells, ensure_ascii=False)
        # no folded solution; the only <details> are still figures' data tables ("Data", issue 50)
        assert "Show the solution" not in text and set(re.findall(r"<details><summary>([^<]*)", text)) <= {"Data"}
        assert text.count("<details") == text.count("<details><summary>Data</summary>")
        assert not any("solution" in c.metadata.get("tags", []) or "instructor" in c.metadata.get("tags", [])
                       for c in nb.cells)
        for item in manifest["chapters"].get(path.stem, {"exercises": []})["exercises"]:
            spec = EXERCISES[item["checker"]]
            asked = [c.source for c in nb.cells if c.source.lstrip().startswith(f"**Exercise {item['number']}")
                     or f"\n**Exercise {item['number']}" in c.source]
            assert len(asked) == 1 and asked[0].endswith(spec.render(**item["params"]))
            calls = [c.source for c in nb.cells if c.cell_type == "code" and "# your answer here" in c.source
                     and f"dp.exercises.{item['checker']}(" in c.source]
            assert len(calls) == 1 and f"dp.exercises.{item['checker']}({item['answer']})" in calls[0], calls
        # the numbers are registered once, in the first code cell, so that each check judges at them
        registered, _ = homework_line(nb)
        wanted = {item["checker"]: item["params"] for item in manifest["chapters"].get(path.stem, {"exercises": []})
                  ["exercises"] if item["params"]}
        assert registered == (wanted or None), path.stem
        if wanted:
            first = next(c for c in nb.cells if c.cell_type == "code")
            assert "dp.exercises.homework(" in first.source and edition.KEEP in first.source


def test_nothing_a_student_gets_holds_the_seed_and_the_instructors_folder_is_the_owners_only(built):
    """With the seed, `assign --seed N` rebuilds every answer: it must not be in anything handed out."""
    import stat
    key = json.loads((built / "instructor" / "course.json").read_text(encoding="utf-8"))["key"]
    vendored = built / "students" / "book" / "_static"      # the offline book's libraries (a "key" is in their code)
    for path in (built / "students").rglob("*"):
        if path.is_file() and path.suffix in (".ipynb", ".md", ".json", ".html", ".txt", ".js"):
            text = path.read_text(encoding="utf-8", errors="replace")
            assert SEED not in text and key not in text, path
            assert vendored in path.parents or '"key"' not in text, path
    instructor = built / "instructor"
    assert stat.S_IMODE(instructor.stat().st_mode) == 0o700
    for name in ("course.json", "answers.md"):
        assert stat.S_IMODE((instructor / name).stat().st_mode) == 0o600, name
    assert not (built / "course.json").exists()


def test_the_same_seed_gives_the_same_homework_and_another_seed_other_homework(built, manifest, tmp_path):
    again = assign.build_course(Project(ROOT), tmp_path / "again", seed=SEED, wheel=False)
    assert json.loads((again / "instructor" / "course.json").read_text()) == manifest
    other = assign.build_course(Project(ROOT), tmp_path / "other", seed=SEED + "x", chapters=["05"], wheel=False)
    chapter = json.loads((other / "instructor" / "course.json").read_text())["chapters"]["05_accuracy_census_names"]
    assert chapter != manifest["chapters"]["05_accuracy_census_names"]


def _code_lines(code: str) -> set[str]:
    lines = {line.split("#")[0].strip() for line in code.splitlines()}
    return {line for line in lines if len(line) >= 12}


def _written(value: float, figures: int) -> set[str]:
    """How an answer with ``figures`` or more significant figures might be written in a page or a notebook."""
    forms = {repr(value)} | {f"{value:.{n}g}" for n in range(figures, 7)} | {f"{value:,.{n}g}" for n in range(figures, 7)}
    # the digits that carry the value (leading and trailing zeros do not: 4,000 is one figure, 0.0362 three)
    return {form for form in forms if len(re.sub(r"\D", "", form.split("e")[0]).strip("0")) >= figures}


def _found(form: str, text: str) -> bool:
    """``form`` stands in ``text`` as a number of its own (not a piece of 1,276.65 or 0.3625)."""
    return re.search(rf"(?<![\d.,]){re.escape(form)}(?![\d]|[.,]\d)", text) is not None


def test_nothing_students_get_holds_a_solution_or_a_homework_answer(built, manifest, student_texts, request):
    """Each solution's own code lines, and each homework answer: 3 significant figures in its chapter's
    notebook, page and downloads, 4 anywhere else."""
    book = request.node.callspec.params["built"]
    assert any(p.suffix == ".html" for p in student_texts) == book, "the students' book was built (only) when asked"
    assert any(p.parent.name == "downloads" and p.suffix == ".md" for p in student_texts) == book
    leaks = []
    chapters = _chapters()
    # what the chapters show anyway (their own code, outside the solutions) is no leak
    shown = {line for nb in chapters.values() for c in nb.cells if c.cell_type == "code" for line in _code_lines(c.source)}
    for stem, nb in chapters.items():
        for exercise in editions.exercises(nb, stem):
            stub = "\n".join(line.lstrip().removeprefix("#").strip() for line in exercise.stub.splitlines())
            given = shown | _code_lines(stub) | _code_lines(exercise.call)
            for line in _code_lines(exercise.solution) - given:
                leaks += [f"{stem} {exercise.name} solution line {line!r} in {p.name}"
                          for p, text in student_texts.items() if line in text]
    for stem, chapter in manifest["chapters"].items():
        for item in chapter["exercises"]:
            spec = EXERCISES[item["checker"]]
            if spec.kind != "value":
                continue
            # four significant figures anywhere; three in the exercise's own chapter (elsewhere a 3-figure
            # number turns up by chance: 3.75 as a standard deviation in chapter 04, 1.25 in ln(1.25/δ))
            value = spec.expected(**item["params"])
            for p, text in student_texts.items():
                own = p.stem.startswith(stem)
                leaks += [f"{stem} {item['name']}'s answer {form} in {p.name}"
                          for form in _written(value, 3 if own else 4) if _found(form, text)]
    assert not leaks, "\n".join(leaks[:20])


def test_code_that_answers_a_homework_function_is_left_out(built):
    withheld = edition.withheld_functions(Project(ROOT), sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")))
    assert {"laplace_mechanism", "laplace_cdf", "laplace_accuracy_bound", "counting_queries_sensitivity",
            "l1_sensitivity"} <= set(withheld)
    for path in (built / "students" / "notebooks").glob("*.ipynb"):
        text = path.read_text(encoding="utf-8")
        for name in withheld:
            assert f"dp.show_source(dp.{name})" not in text, (path.name, name)
    chapter_03 = (built / "students" / "notebooks" / "03_laplace_mechanism.ipynb").read_text(encoding="utf-8")
    assert "The code of `dp.laplace_mechanism` is left out of this edition" in chapter_03


@pytest.mark.slow
def test_a_course_of_some_chapters_hands_out_those_chapters_and_nothing_else(tmp_path):
    out = assign.build_course(Project(ROOT), tmp_path / "course", seed=SEED, chapters=["05"], book=True,
                              repo="someone/dpteach")
    students = out / "students"
    wanted = {"00_start_here", "05_accuracy_census_names"}
    assert {p.stem for p in (students / "notebooks").glob("*.ipynb")} == wanted
    assert {p.stem for p in (students / "book").glob("[0-9][0-9]_*.html")} == wanted
    assert {p.name for p in students.iterdir()} == {"notebooks", "book", "requirements.txt", "wheels", "README.md"}   # no Sphinx sources, no execution cache
    assert not list(students.rglob("jupyter_execute")) and not list(students.rglob(".buildinfo"))
    assert not list(students.rglob(".*-sources")) and not (students / ".book-sources").exists()
    # a graded course's book invites no answers in public: no "Report an error", no page of common mistakes
    for page in (students / "book").glob("*.html"):
        assert "/issues/new" not in page.read_text() and "common_mistakes" not in page.read_text(), page.name


def test_a_homework_notebook_opens_with_what_is_graded_and_how_to_hand_it_in(built, manifest):
    for entry in manifest["chapters"].values():
        nb = nbformat.read(built / "students" / "notebooks" / entry["notebook"], as_version=4)
        note = nb.cells[1].source
        total = sum(e["points"] for e in entry["exercises"])
        assert note.startswith(f"**Homework: {len(entry['exercises'])} graded exercise") and f"{total} points" in note
        for exercise in entry["exercises"]:
            assert f"| {exercise['number']} |" in note
        assert "keep its last lines" in note and ".ipynb" in note and "significant figures" in note


def test_the_hand_out_installs_the_workbook_with_its_tested_versions_and_dpteach_itself(built):
    """requirements.txt: every pin of the lab lock and the wheel beside it, which holds the whole package
    (its data and templates too), so `pip install -r requirements.txt` gives a course repository the workbook."""
    import zipfile
    students = built / "students"
    lines = [line for line in (students / "requirements.txt").read_text().splitlines() if line and not line.startswith("#")]
    pins = [line for line in (ROOT / "requirements" / "lab.lock.txt").read_text().splitlines()
            if line and not line.lstrip().startswith("#")]
    assert lines[:-1] == pins and lines[-1].startswith("./wheels/dpteach-") and lines[-1].endswith("-py3-none-any.whl")
    wheel = students / lines[-1]
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    package = {str(p.relative_to(ROOT)) for p in (ROOT / "dpteach").rglob("*")
               if p.is_file() and "__pycache__" not in p.parts and p.suffix in (".py", ".csv", ".md", ".html", ".css",
                                                                                ".js", ".json")}
    assert package <= names, sorted(package - names)[:5]
    assert "pip install -r requirements.txt" in (students / "README.md").read_text()


@pytest.mark.slow
def test_with_a_roster_the_book_asks_the_chapters_numbers_and_each_student_has_their_own_notebooks(tmp_path):
    from dpteach.course.roster import Student
    roster = [Student("ada", "Ada Lovelace", "ada@uni.edu"), Student("bob", "Bob Babbage", "bob@uni.edu")]
    out = assign.build_course(Project(ROOT), tmp_path / "course", seed=SEED, chapters=["05"], book=True, roster=roster,
                              wheel=False)
    students = out / "students"
    assert {p.name for p in students.iterdir()} == {"by-student", "book"}
    assert {p.name for p in (students / "by-student").iterdir()} == {"ada", "bob"}
    page = (students / "book" / "05_accuracy_census_names.html").read_text(encoding="utf-8")
    assert "Your homework’s numbers are in the notebook made for you" in page or \
        "Your homework's numbers are in the notebook made for you" in page
    import html as html_module
    text = html_module.unescape(re.sub(r"<[^>]+>", "", page)).replace("’", "'").replace("“", "\"").replace("”", "\"")
    manifest = json.loads((out / "instructor" / "course.json").read_text())
    for item in manifest["chapters"]["05_accuracy_census_names"]["exercises"]:
        spec = EXERCISES[item["checker"]]
        if spec.kind != "value":
            continue
        assert " ".join(spec.render().split()) in " ".join(text.split()), item["name"]      # the chapter's numbers
        for sid in ("ada", "bob"):
            theirs = manifest["students"][sid]["params"]["05_accuracy_census_names"][item["name"]]
            if theirs:
                assert " ".join(spec.render(**theirs).split()) not in " ".join(text.split())
    assert "dp.exercises.homework(" not in page


def test_the_hand_out_pins_opendp_only_when_a_chapter_it_holds_imports_it():
    """OpenDP (276 MB installed) is in the lab lock for chapter 12; a course of other chapters does not install it,
    nor what the lock holds only for it; every other pin stays."""
    lock = (ROOT / "requirements" / "lab.lock.txt").read_text()
    chapters = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    texts = {path.name[:2]: path.read_text(encoding="utf-8") for path in chapters}
    with_12 = assign.handout_pins(lock, [texts["05"], texts["12"]])
    without = assign.handout_pins(lock, [texts["05"], texts["06"]])
    names = {line.split("==")[0] for line in without}
    assert any(line.startswith("opendp==") for line in with_12) and "opendp" not in names
    gone = {line.split("==")[0] for line in set(with_12) - set(without)}
    assert gone == {"opendp", "deprecated", "wrapt"}     # opendp, and what the lab lock holds only for it
    assert {line.split("==")[0] for line in with_12} >= {"numpy", "matplotlib", "ipywidgets", "jupyterlab"}
