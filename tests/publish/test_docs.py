"""The documentation's pages (docs/, MyST), read without building them (fast tier).

Every page is in the index's tables of contents, and every entry there is a page; every `make X` the pages and
the README name is a target of the Makefile, and every variable given to it one the Makefile reads; every
command of the package they name (`python -m dpteach.… VERB`, `dpteach VERB`) answers `--help` and takes the
options given to it (and the grader every option the grading page names); every option of `benchmarks/run.py`
they give is one it defines; the README's links to the docs reach a page and a heading of it. The site itself
is built and opened in Chromium by test_docs_site.py (slow tier).
"""

from __future__ import annotations

import functools
import re
import subprocess
import sys

import pytest
from helpers import ROOT

from dpteach.publish.docs_site import GENERATED, build_docs, pages, reachable, toctree
from dpteach.publish.paths import Project

DOCS = ROOT / "docs"
TEXTS = {path: path.read_text(encoding="utf-8") for path in [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]}
#: `make X` in a code span, or a line of a code block that starts with make
_MAKE = re.compile(r"`make ([a-z][\w-]*)|^\s{4,}make ([a-z][\w-]*)", re.M)
#: the variables given to make in a code span or a code block's line (CHAPTER=03), comments left out
_MAKE_VARIABLES = re.compile(r"`make [a-z][\w-]*([^`]*)`|^\s{4,}make [a-z][\w-]*([^#\n]*)", re.M)
#: a command of the package with what is given to it up to the code span's or the line's end: `python -m
#: dpteach.course grade …`, or the dpteach command (`dpteach grade …`, a code block's line, .venv/bin/dpteach …)
_COMMAND = re.compile(r"(?:python -m (dpteach(?:\.\w+)*)|(?:^\s{4,}|[`/])dpteach) ([a-z][\w-]*)([^`\n]*)", re.M)
_BENCH = re.compile(r"benchmarks/run\.py((?: [-\w]+)+)")


@functools.cache
def _usage(module: str, verb: str) -> subprocess.CompletedProcess:
    """``python -m MODULE VERB --help``, run once per test session."""
    return subprocess.run([sys.executable, "-m", module, verb, "--help"], cwd=ROOT, capture_output=True, text=True)


def _commands(text: str) -> dict[tuple[str, str], set[str]]:
    """Each command of the package ``text`` names, as (module, verb), with the options given to it."""
    found: dict[tuple[str, str], set[str]] = {}
    for match in _COMMAND.finditer(text):
        options = re.findall(r"(?<![\w-])(--[a-z][\w-]*)", match.group(3).split(" #")[0])     # no comment
        found.setdefault((match.group(1) or "dpteach", match.group(2)), set()).update(options)
    return found


COMMANDS: dict[tuple[str, str], set[str]] = {}
for _text in TEXTS.values():
    for _key, _options in _commands(_text).items():
        COMMANDS.setdefault(_key, set()).update(_options)


def _targets() -> set[str]:
    return set(re.findall(r"^([a-z][\w-]*)\s*:(?!=)", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M))


def _named(pattern: re.Pattern) -> dict[tuple, list[str]]:
    found: dict[tuple, list[str]] = {}
    for path, text in TEXTS.items():
        for match in pattern.finditer(text):
            key = tuple(g for g in match.groups() if g)
            found.setdefault(key, []).append(path.relative_to(ROOT).as_posix())
    return found


def _slug(heading: str) -> str:
    """A heading's anchor as MyST (myst_heading_anchors) and GitHub write it."""
    return re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", heading.strip().lower()))


def test_every_page_is_in_the_index_tables_of_contents_and_every_entry_is_a_page():
    reached = reachable(DOCS)
    assert reached[0] == "index" and len(reached) >= 12, reached
    existing = set(pages(DOCS))
    assert existing <= set(reached), f"pages no table of contents lists: {sorted(existing - set(reached))}"
    assert set(reached) <= existing | set(GENERATED), f"entries that are no page: {sorted(set(reached) - existing)}"
    for name in ("student", "book", "instructor/index", "instructor/grading", "instructor/gradescope", "author",
                 "peers", "accessibility", "reference/command-line"):
        assert name in reached, name


def test_toctree_reads_the_entries_of_a_block():
    text = "# T\n\n```{toctree}\n:hidden:\n:maxdepth: 2\n\nstudent\ninstructor/index\n```\n\n```python\nx\n```\n"
    assert toctree(text) == ["student", "instructor/index"]


def test_every_make_target_named_is_one_of_the_makefile():
    named, targets = _named(_MAKE), _targets()
    assert len(named) >= 15 and {("lab",), ("check",), ("test",), ("docs",)} <= set(named), sorted(named)
    missing = {key[0]: where for key, where in named.items() if key[0] not in targets}
    assert not missing, f"`make X` named where the Makefile has no X: {missing}"


def test_every_variable_given_to_make_is_one_the_makefile_reads():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    given = {name for text in TEXTS.values() for match in _MAKE_VARIABLES.finditer(text)
             for name in re.findall(r"\b([A-Z][A-Z_]*)=", match.group(1) or match.group(2) or "")}
    assert {"CHAPTER", "CHAPTERS", "ROSTER", "SUBMISSIONS", "REPO", "HUB", "ONLINE", "INSTRUCTOR"} <= given, given
    unread = {name for name in given if f"$({name})" not in makefile and f"{name})" not in makefile}
    assert not unread, f"variables given to make that the Makefile never reads: {unread}"


def test_the_check_of_make_targets_catches_a_target_that_does_not_exist():
    found = _MAKE.findall("run `make lab`, then `make no-such-target`:\n\n    make grade SUBMISSIONS=x/\n")
    assert [a or b for a, b in found] == ["lab", "no-such-target", "grade"]
    assert "no-such-target" not in _targets()


@pytest.mark.parametrize("command", sorted(COMMANDS), ids=" ".join)
def test_every_command_named_answers_help_and_takes_the_options_given(command):
    module, verb = command
    done = _usage(module, verb)
    assert done.returncode == 0 and "usage" in done.stdout.lower(), (command, done.stderr[-500:])
    missing = {o for o in COMMANDS[command] if not re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", done.stdout)}
    assert not missing, f"options given to {module} {verb} that it does not take: {missing}"


def test_commands_are_read_with_their_options_in_either_form():
    text = ("Run `python -m dpteach.course grade --course c.json --chapter 05 x/` or\n\n"
            "    dpteach grade --course c.json --jobs 2 x/   # a comment --not-read\n\nthen `.venv/bin/dpteach docs --online`.")
    assert _commands(text) == {("dpteach.course", "grade"): {"--course", "--chapter"},
                               ("dpteach", "grade"): {"--course", "--jobs"},
                               ("dpteach", "docs"): {"--online"}}
    grade = COMMANDS.get(("dpteach.course", "grade"), set()) | COMMANDS.get(("dpteach", "grade"), set())
    assert grade >= {"--course", "--chapter"}, COMMANDS


def test_every_option_the_grading_page_names_is_one_grade_takes():
    """The grading page names the grader's options on their own (`--jobs N`, `--cell-timeout`): each is one of
    `python -m dpteach.course grade`'s."""
    named = set(re.findall(r"`(--[a-z][\w-]*)", (DOCS / "instructor" / "grading.md").read_text(encoding="utf-8")))
    assert named >= {"--jobs", "--timeout", "--cell-timeout", "--memory", "--unsafe", "--pattern", "--figures"}, named
    usage = _usage("dpteach.course", "grade").stdout
    assert not {o for o in named if not re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", usage)}, (named, usage)


def test_every_benchmark_option_named_is_one_run_py_defines():
    source = (ROOT / "benchmarks" / "run.py").read_text(encoding="utf-8")
    named = _named(_BENCH)
    assert named, "the docs name benchmarks/run.py"
    for (args,), where in named.items():
        for word in args.split():
            assert f'"{word}"' in source, (word, where)


def test_the_readme_links_to_pages_and_headings_that_exist():
    links = re.findall(r"\]\((docs/[^)#\s]+)(?:#([^)\s]+))?\)", TEXTS[ROOT / "README.md"])
    assert {"docs/index.md", "docs/student.md", "docs/instructor/index.md", "docs/author.md", "docs/peers.md",
            "docs/accessibility.md", "docs/reference/command-line.md"} <= {path for path, _ in links}
    for path, anchor in links:
        target = ROOT / path
        if path.removeprefix("docs/").removesuffix(".md") in GENERATED and not target.exists():
            continue            # written by its own tool (the command line's reference)
        assert target.is_file(), path
        if anchor:
            headings = re.findall(r"^#{1,3} (.+)$", target.read_text(encoding="utf-8"), re.M)
            assert anchor in {_slug(h) for h in headings}, (path, anchor)


def test_the_readme_is_one_screen():
    assert len(TEXTS[ROOT / "README.md"].splitlines()) <= 110


def test_a_project_without_docs_is_refused_with_what_it_lacks(tmp_path):
    (tmp_path / "notebooks").mkdir()
    with pytest.raises(ValueError, match=r"project must hold docs/index\.md.*whose docs/ has none"):
        build_docs(Project(tmp_path), tmp_path / "out")
    assert not (tmp_path / "out").exists()
