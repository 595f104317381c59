"""The ``dpteach`` command (dpteach.cli): every verb's help, its argument errors, and the function each verb calls.

The verbs' work is mocked here (each wing's own tests run it for real): what is checked is that the command line
reaches the right function with the right values, that a bad value stops with exit status 2 and a message naming
the option, and that the reference page is the parser's own.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from helpers import ROOT

from dpteach import cli
from dpteach.cli import publish as publish_verbs

NAMES = [verb.name for verb in cli.VERBS]
COURSE = "build/course/instructor/course.json"


def _run(argv, capsys):
    """``dpteach ARGV`` in this process: (exit status, stdout, stderr)."""
    try:
        code = cli.main(argv)
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project of two tiny chapters, the current directory."""
    (tmp_path / "notebooks").mkdir()
    for stem in ("00_start", "03_tiny"):
        nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(f"# {stem}")]),
                       tmp_path / "notebooks" / f"{stem}.ipynb")
    monkeypatch.chdir(tmp_path)
    return tmp_path.resolve()


@pytest.fixture
def commands(monkeypatch):
    """The commands the verbs would start (a lab, jupytext, the benchmarks), recorded instead."""
    started = []

    def record(command, **kwargs):
        started.append((command, kwargs))
        return 0

    for module in ("publish", "hub"):
        monkeypatch.setattr(f"dpteach.cli.{module}.run_command", record)
    return started


@pytest.mark.parametrize("name", NAMES)
def test_every_verb_has_help_with_a_description_and_an_example(name, capsys):
    code, out, _ = _run([name, "--help"], capsys)
    verb = next(v for v in cli.VERBS if v.name == name)
    assert code == 0
    assert out.startswith(f"usage: dpteach {name}")
    assert verb.description.split()[0] in out and "example:" in out
    examples = out.split("example:", 1)[1].split()
    assert examples[:2] == ["dpteach", name], "an example of the verb itself"


def test_the_top_level_help_lists_every_verb(capsys):
    code, out, _ = _run(["--help"], capsys)
    assert code == 0
    for verb in cli.VERBS:
        assert f"  {verb.name}" in out and verb.summary.split()[0] in out
    assert _run([], capsys)[0] == 2


@pytest.mark.parametrize("argv, words", [
    (["grade", "--jobs", "many", "a/"], "argument --jobs: invalid int value: 'many'"),
    (["grade", "--jobs", "0", "a/"], "--jobs must be ≥ 1 (got 0)"),
    (["grade", "--memory", "100", "a/"], "--memory must be ≥ 256 (got 100)"),
    (["grade", "--pattern", "(", "a/"], "--pattern must be a regular expression"),
    (["grade", "--pattern", "hw05", "a/"], "--pattern must have a named group (?P<id>...)"),
    (["grade"], "the following arguments are required: SUBMISSION"),
    (["hub", "--users", "0"], "--users must be in [1, 500] (got 0)"),
    (["hub", "--port", "80"], "--port must be in [1024, 65000] (got 80)"),
    (["hub-load", "--seconds", "0"], "--seconds must be ≥ 1 (got 0.0)"),
    (["present"], "the following arguments are required: --chapter"),
    (["present", "--chapter", "99"], "--chapter must be a chapter number, 00 to 03 (got '99')"),
    (["execute", "--timeout", "soon"], "argument --timeout: invalid int value: 'soon'"),
    (["gradescope", "--isolation", "none"], "argument --isolation: invalid choice: 'none'"),
    (["html", "--online", "--offline"], "argument --offline: not allowed with argument --online"),
    (["links"], "the following arguments are required: REPO"),
    (["links", "not a repository"], "repo"),
    (["assign"], "argument VERB: invalid choice: 'assign'"),
])
def test_a_bad_argument_exits_2_naming_the_option(argv, words, project, capsys):
    code, out, err = _run(argv, capsys)
    assert code == 2 and words in err and not out
    assert err.startswith("usage: dpteach")


def test_a_folder_without_notebooks_is_refused_naming_root(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(["execute"], capsys)
    assert code == 2 and "root must be a folder holding notebooks/" in err and "--root" in err


def _calls(monkeypatch, target, result=None):
    """Replace ``target`` (a dotted name) by a recorder returning ``result``; the list of its calls."""
    calls = []
    monkeypatch.setattr(target, lambda *args, **kwargs: calls.append((args, kwargs)) or result)
    return calls


def test_lab_starts_jupyterlab_on_chapter_00(project, commands, capsys):
    assert _run(["lab", "--port", "8890"], capsys)[0] == 0
    (command, kwargs), = commands
    assert command[:3] == [sys.executable, "-m", "jupyterlab"] and command[-1] == "notebooks/00_start_here.ipynb"
    assert "--ServerApp.port=8890" in command and kwargs["cwd"] == project


def test_execute_runs_each_chapter_into_build_executed_or_in_place(project, monkeypatch, capsys):
    calls = _calls(monkeypatch, "dpteach.publish.execute.execute_notebook")
    assert _run(["execute"], capsys)[0] == 0
    assert [(a[0].name, a[1], k) for a, k in calls] == [
        (f"{s}.ipynb", project / "build" / "executed" / f"{s}.ipynb", {"timeout": 600}) for s in ("00_start", "03_tiny")]
    calls.clear()
    assert _run(["--root", str(project), "execute", "--inplace", "--timeout", "300", "notebooks/03_tiny.ipynb"], capsys)[0] == 0
    path = project / "notebooks" / "03_tiny.ipynb"
    assert calls == [((path, path), {"timeout": 300})]


def test_sync_runs_jupytext_on_every_chapter(project, commands, capsys):
    assert _run(["sync"], capsys)[0] == 0
    (command, kwargs), = commands
    assert command[:4] == [sys.executable, "-m", "jupytext", "--sync"] and kwargs["cwd"] == project
    assert command[4:] == [str(project / "notebooks" / f"{s}.ipynb") for s in ("00_start", "03_tiny")]


def test_html_builds_the_book_with_its_options(project, monkeypatch, capsys):
    calls = _calls(monkeypatch, "dpteach.publish.book_site.build_html", [])
    argv = ["html", "--online", "--instructor", "--repo", "o/n", "--hub", "https://h", "--branch", "dev", "--out", "x"]
    assert _run(argv, capsys)[0] == 0
    (args, kwargs), = calls
    assert args[0].root == project and args[1] == project / "x"
    assert kwargs == {"offline": False, "instructor": True, "executed": None, "repo": "o/n", "hub": "https://h",
                      "branch": "dev"}


def test_slides_mark_and_instructor_reach_the_slides_package(project, monkeypatch, capsys):
    slides = _calls(monkeypatch, "dpteach.publish.slides.build_slides", [])
    assert _run(["slides", "--executed", "done"], capsys)[0] == 0
    assert slides[0][1] == {"offline": True, "executed": project / "done"}
    marks = _calls(monkeypatch, "dpteach.publish.slides.mark_chapter", 0)
    assert _run(["mark", "--force"], capsys)[0] == 0
    assert [(a[1].name, k) for a, k in marks] == [("00_start.ipynb", {"force": True}), ("03_tiny.ipynb", {"force": True})]
    editions = _calls(monkeypatch, "dpteach.publish.book_site.instructor_edition", nbformat.v4.new_notebook())
    assert _run(["instructor", "notebooks/03_tiny.ipynb", "--out", "ed"], capsys)[0] == 0
    assert editions[0][0][1] == "03_tiny" and (project / "ed" / "03_tiny.ipynb").is_file()


def test_docs_builds_the_docs_site_with_its_options(project, monkeypatch, capsys):
    calls = _calls(monkeypatch, "dpteach.publish.docs_site.build_docs", [project / "build" / "docs" / "index.html"])
    code, out, _ = _run(["docs", "--online", "--out", "site"], capsys)
    assert code == 0 and "index.html" in out
    (args, kwargs), = calls
    assert args[0].root == project and args[1] == project / "site" and kwargs == {"offline": False}
    assert _run(["docs"], capsys)[0] == 0
    assert calls[1][0][1] is None and calls[1][1] == {"offline": True}


def test_present_starts_the_presenting_lab_on_a_copy(project, monkeypatch, commands, capsys):
    """What make present runs: the chapter's copy in build/present (written by dpteach.publish.present.prepare),
    then the lab of this venv there, projector-sized, serving the speaker view, with the server extension."""
    prepared = _calls(monkeypatch, "dpteach.publish.present.prepare", [])
    code, out, _ = _run(["present", "--chapter", "3", "--port", "8891"], capsys)
    assert code == 0
    (args, _), = prepared
    assert args[1] == project / "notebooks" / "03_tiny.ipynb" and args[2] == project / "build" / "present"
    (command, kwargs), = commands
    assert command[:3] == [sys.executable, "-m", "jupyterlab"] and command[-1] == "03_tiny.ipynb"
    assert kwargs["cwd"] == project / "build" / "present" and kwargs["env"]["DPTEACH_PRESENTATION"] == "1"
    assert f"--ServerApp.extra_static_paths=['{project / 'build' / 'present' / '.static'}']" in command
    assert "--ServerApp.jpserver_extensions={'dpteach.publish.present': True}" in command
    assert "http://localhost:8891/static/dpteach-presenter.html?notebook=03_tiny.ipynb" in out
    commands.clear()
    assert _run(["present", "--chapter", "03", "--prepare-only"], capsys)[0] == 0 and not commands


def test_course_builds_the_homework_with_its_options(project, monkeypatch, capsys):
    out = project / "build" / "course"
    (out / "instructor").mkdir(parents=True)
    (out / "instructor" / "course.json").write_text(json.dumps({"chapters": {"03_tiny": {"exercises": [{}]}}}))
    (project / "roster.csv").write_text("id,name,email\n1,Ada,ada@uni.edu\n")
    calls = _calls(monkeypatch, "dpteach.course.assign.build_course", out)
    argv = ["course", "--book", "--seed", "key", "--chapters", "03", "05", "--roster", "roster.csv", "--online",
            "--repo", "o/n", "--hub", "https://h", "--branch", "dev"]
    code, printed, _ = _run(argv, capsys)
    assert code == 0 and "1 chapters of homework, 1 exercises; 1 students" in printed
    (args, kwargs), = calls
    assert args == (args[0], None) and [s.id for s in kwargs.pop("roster")] == ["1"]
    assert kwargs == {"seed": "key", "chapters": ["03", "05"], "book": True, "offline": False, "repo": "o/n",
                      "hub": "https://h", "branch": "dev", "public": False, "core_only": False}


def _course_file(monkeypatch):
    monkeypatch.setattr("dpteach.course.grading.load_manifest", lambda path: {"chapters": {"05_accuracy": {}}})
    monkeypatch.setattr("dpteach.course.grading.load_overrides", lambda path, course, manifest: {"o": path})


def test_grade_grades_the_submissions_with_its_limits(tmp_path, monkeypatch, capsys):
    _course_file(monkeypatch)
    monkeypatch.setattr("dpteach.course.grading.find_submissions", lambda roots: [Path(r) for r in roots])
    graded = _calls(monkeypatch, "dpteach.course.grading.grade_all", [])
    written = _calls(monkeypatch, "dpteach.course.gradebook.write_results", tmp_path / "gradebook.csv")
    argv = ["grade", "a/", "b.ipynb", "--jobs", "3", "--timeout", "30", "--cell-timeout", "5", "--memory", "512",
            "--function-timeout", "4", "--chapter", "5", "--figures", "--out", str(tmp_path), "--overrides", "o.csv"]
    assert _run(argv, capsys)[0] == 0
    (args, kwargs), = graded
    assert [place.path for place in args[0]] == ["a", "b.ipynb"] and args[1] == {"chapters": {"05_accuracy": {}}}
    options = args[2]
    assert (options.timeout, options.cell_timeout, options.memory_mb, options.function_timeout, options.figures,
            options.isolation) == (30, 5, 512, 4, True, "bubblewrap")
    assert kwargs["jobs"] == 3 and kwargs["assignment"] == "05_accuracy" and kwargs["watch_package"] is True
    assert written[0][0][2] == str(tmp_path) and written[0][0][3] == {"o": "o.csv"}
    graded.clear()
    assert _run(["grade", "a/", "--unsafe", "--unwatched"], capsys)[0] == 0
    assert graded[0][0][2].isolation == "none" and graded[0][1]["watch_package"] is False
    assert graded[0][1]["jobs"] >= 1


def test_gradebook_writes_the_records_again_with_the_overrides(tmp_path, monkeypatch, capsys):
    _course_file(monkeypatch)
    written = _calls(monkeypatch, "dpteach.course.gradebook.write_results", tmp_path / "gradebook.csv")
    code, _, err = _run(["gradebook", "--out", str(tmp_path)], capsys)
    assert code == 2 and "--out" in err and "grade first" in err and not written
    (tmp_path / "feedback").mkdir()
    assert _run(["gradebook", "--out", str(tmp_path), "--overrides", "mine.csv", "--course", "c.json"], capsys)[0] == 0
    assert written == [(([], {"chapters": {"05_accuracy": {}}}, str(tmp_path), {"o": "mine.csv"}), {})]


def test_gradescope_grades_the_tree(monkeypatch, capsys):
    calls = _calls(monkeypatch, "dpteach.course.gradescope.run", {})
    assert _run(["gradescope", "--tree", "T", "--isolation", "user"], capsys)[0] == 0
    assert calls == [((Path("T"), "user"), {})]
    assert _run(["gradescope"], capsys)[0] == 0 and calls[1] == ((Path("/autograder"), "auto"), {})


def test_sync_prompts_writes_the_registry_into_the_chapters(project, monkeypatch, capsys):
    calls = _calls(monkeypatch, "dpteach.course.assign.sync_prompts", ["03_tiny exercise_1"])
    code, out, _ = _run(["sync-prompts"], capsys)
    assert code == 0 and calls[0][0][0].root == project and "03_tiny exercise_1" in out and "dpteach sync" in out


def test_hub_and_hub_load(monkeypatch, capsys):
    demo = _calls(monkeypatch, "dpteach.hub.local.demo", 0)
    assert _run(["hub", "--users", "7", "--port", "8001"], capsys)[0] == 0 and demo == [((7, 8001), {})]

    class Hub:
        def __init__(self, users):
            self.users = users

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr("dpteach.hub.local.LocalHub", Hub)
    monkeypatch.setattr("dpteach.hub.load.measure", lambda hub, n, seconds, mode: {"hub": hub.users, "n": n, "mode": mode})
    code, out, _ = _run(["hub-load", "--students", "1", "4", "--seconds", "2", "--mode", "fixed"], capsys)
    assert code == 0 and [json.loads(line) for line in out.splitlines()] == [
        {"hub": 4, "n": 1, "mode": "fixed"}, {"hub": 4, "n": 4, "mode": "fixed"}]


def test_links_print_the_binder_and_the_hub_link(capsys):
    from dpteach.publish.links import binder_url, nbgitpuller_url

    assert _run(["links", "o/n"], capsys)[1].strip() == binder_url("o/n", publish_verbs.START, "HEAD")
    out = _run(["links", "o/n", "--hub", "https://hub.example.edu", "--branch", "dev"], capsys)[1]
    assert out.strip() == nbgitpuller_url("https://hub.example.edu", "o/n", "dev", publish_verbs.START)


def test_bench_runs_the_clones_benchmarks_with_their_options(commands, capsys):
    assert _run(["--root", str(ROOT), "bench", "--", "--hub-only", "--students", "1 5"], capsys)[0] == 0
    (command, kwargs), = commands
    assert command == [sys.executable, str(ROOT.resolve() / "benchmarks" / "run.py"), "--hub-only", "--students", "1 5"]
    assert kwargs["cwd"] == ROOT.resolve()


def test_every_verb_has_a_dispatch_test_here():
    tested = {name.split("test_", 1)[1] for name in globals() if name.startswith("test_")}
    words = {w for name in tested for w in name.split("_")}
    missing = [v for v in NAMES if v.replace("-", "_") not in "_".join(tested) and v not in words]
    assert not missing, missing


@pytest.mark.parametrize("module, argv, expected", [
    ("dpteach.course.__main__", ["assign", "--book"], ["course", "--book"]),
    ("dpteach.course.__main__", ["grade", "a/"], ["grade", "a/"]),
    ("dpteach.course.__main__", ["gradescope", "--tree", "T"], ["gradescope", "--tree", "T"]),
    ("dpteach.course.__main__", ["gradescope", "--root", "T"], ["gradescope", "--tree", "T"]),
    ("dpteach.hub.__main__", ["demo", "--users", "3"], ["hub", "--users", "3"]),
    ("dpteach.hub.__main__", ["bench"], ["hub-load"]),
    ("dpteach.publish.__main__", ["--root", "r", "execute"], ["--root", "r", "execute"]),
])
def test_the_wings_old_entry_points_are_the_same_command(module, argv, expected, monkeypatch):
    import importlib

    calls = []
    monkeypatch.setattr("dpteach.cli.main", lambda args: calls.append(args) or 0)
    assert importlib.import_module(module).main(argv) == 0 and calls == [expected]
    assert importlib.import_module(module).main(["nothing"]) == 2 and len(calls) == 1


def test_the_parser_imports_no_tool():
    """`dpteach --help` is quick: the whole parser, every verb's help included, imports none of the wings."""
    code = ("import sys; from dpteach import cli; p = cli.build_parser(); p.format_help(); "
            "[a.choices[n].format_help() for a in p._actions if hasattr(a, 'choices') and a.choices for n in a.choices]; "
            "print(sorted(m for m in sys.modules if m.startswith(('dpteach.publish', 'dpteach.course', 'dpteach.hub', "
            "'nbformat', 'matplotlib', 'jupyter'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_python_m_dpteach_is_the_same_command():
    done = subprocess.run([sys.executable, "-m", "dpteach", "links", "o/n"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("https://mybinder.org/v2/gh/o/n/HEAD")


def test_the_reference_page_is_the_parsers_own():
    """docs/reference/command-line.md is written by dpteach.cli.markdown_reference(): write it again after changing
    a verb (the command is in the page's first lines)."""
    page = (ROOT / "docs" / "reference" / "command-line.md").read_text(encoding="utf-8")
    assert page == cli.markdown_reference()
    for verb in cli.VERBS:
        assert f"## dpteach {verb.name}\n" in page
