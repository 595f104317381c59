"""What grading writes for people, in headless Chromium: a student's feedback page and the class report.

Each opened from file:// with the network cut, on a laptop (1300 px) and a phone (390 px): nothing requested
from outside, no console error, nothing wider than the screen (no sideways scrolling on a phone), no serious
or critical accessibility problem (axe-core), and the words a reader came for. Screenshots go to
artifacts/screenshots/.
"""

from __future__ import annotations

import shutil

import nbformat
import pytest
from helpers import ARTIFACTS, ROOT, axe_source, needs_chromium

from dpteach.course import assign, grading
from dpteach.course.roster import Student
from dpteach.exercises import EXERCISES
from dpteach.publish.paths import Project

pytestmark = needs_chromium
CHAPTER = "05_accuracy_census_names"
VIEWPORTS = {"laptop": {"width": 1300, "height": 900}, "phone": {"width": 390, "height": 844}}
LONG = "def my_accuracy_bound(k, beta, sensitivity, epsilon):\n    return " + " + ".join(["0.0"] * 60) + "\n"


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    top = tmp_path_factory.mktemp("course-pages")
    roster = [Student("ada", "Ada Lovelace", "ada@uni.edu"), Student("bob", "Bob Babbage", "bob@uni.edu"),
              Student("cy", "Cy Young", "cy@uni.edu")]
    course = assign.build_course(Project(ROOT), top / "course", seed="pages", chapters=["05"], roster=roster, wheel=False)
    manifest = grading.load_manifest(course / "instructor" / "course.json")
    subs = top / "submissions"
    subs.mkdir()
    for sid in ("ada", "bob"):
        nb = nbformat.read(course / "students" / "by-student" / sid / f"{CHAPTER}.ipynb", as_version=4)
        for cell in nb.cells:
            for exercise in manifest["chapters"][CHAPTER]["exercises"]:
                if cell.cell_type == "code" and f"{exercise['answer']} = ..." in cell.source:
                    call = cell.source.rstrip().splitlines()[-1]
                    if exercise["kind"] == "function":
                        answer = LONG       # wrong, and a long line of code in its message
                    else:
                        params = manifest["students"][sid]["params"][CHAPTER][exercise["name"]]
                        spec = EXERCISES[exercise["checker"]]
                        value = spec.expected(**params) if sid == "ada" else spec.mistakes(**params)[0].value
                        answer = f"{exercise['answer']} = {value!r}"
                    cell.source = answer + "\n" + call
        nbformat.write(nb, subs / f"{sid}.ipynb")
    shutil.copy(subs / "ada.ipynb", subs / "copied_by_nobody.ipynb")
    records = grading.grade_all(grading.identify_all(sorted(subs.glob("*.ipynb")), manifest), manifest,
                                grading.Options(timeout=30, function_timeout=5, cell_timeout=10), jobs=2)
    grading.write_results(records, manifest, top / "graded")
    return top / "graded"


def _look(browser, path, viewport, name):
    context = browser.new_context(viewport=VIEWPORTS[viewport], offline=True,
                                  **({"is_mobile": True, "has_touch": True} if viewport == "phone" else {}))
    page = context.new_page()
    log = {"outside": [], "errors": []}
    page.on("request", lambda r: None if r.url.startswith(("file://", "data:")) else log["outside"].append(r.url))
    page.on("pageerror", lambda e: log["errors"].append(str(e)))
    page.on("console", lambda m: log["errors"].append(m.text) if m.type == "error" else None)
    page.goto(path.as_uri(), wait_until="load")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"course-{name}-{viewport}.png"), full_page=True)
    wide = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    page.add_script_tag(content=axe_source())
    problems = page.evaluate("async () => (await axe.run(document, {preload: false})).violations"
                             ".filter(v => ['serious', 'critical'].includes(v.impact)).map(v => v.id)")
    text = page.inner_text("body")
    # what a screen reader reads: the tables' column headers stay in Chromium's accessibility tree at every width
    tree = context.new_cdp_session(page).send("Accessibility.getFullAXTree")["nodes"]
    log["headers"] = [n.get("name", {}).get("value", "") for n in tree
                      if n.get("role", {}).get("value") == "columnheader" and not n.get("ignored")]
    context.close()
    return text, wide, problems, log


@pytest.mark.parametrize("viewport", sorted(VIEWPORTS))
def test_a_students_feedback_page_reads_on_a_laptop_and_a_phone(browser, graded, viewport):
    text, wide, problems, log = _look(browser, graded / "feedback" / "bob.html", viewport, "feedback")
    assert "Feedback for Bob Babbage (bob)" in text and "0 / 5 points" in text
    assert "Exercise 1" in text and "is not it" in text            # a named mistake, never the answer
    assert log.pop("headers") == ["exercise", "points", "what the checker says"]   # at 390 px too
    assert wide <= 0, f"{wide} px wider than the screen"
    assert not problems and not log["outside"] and not log["errors"], (problems, log)


@pytest.mark.parametrize("viewport", sorted(VIEWPORTS))
def test_the_class_report_reads_on_a_laptop_and_a_phone(browser, graded, viewport):
    text, wide, problems, log = _look(browser, graded / "report.html", viewport, "report")
    assert "1 of 2 right (50%)" in text and "1 student handed in nothing" in text
    assert "Files that match no student on the roster: 1" in text and "copied_by_nobody" in text
    assert "students" in log.pop("headers")
    assert wide <= 0, f"{wide} px wider than the screen"
    assert not problems and not log["outside"] and not log["errors"], (problems, log)
