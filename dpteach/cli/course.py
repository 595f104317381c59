"""The verbs of the course wing (:mod:`dpteach.course`): a course's homework, grading it, the gradebook again,
Gradescope's autograder, and the exercises' prompts written into the chapters."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from ._verbs import Verb, in_range, in_root, launch_options, network_options, project

COURSE_FILE = "build/course/instructor/course.json"


def _course_arguments(parser):
    parser.add_argument("--roster", metavar="CSV", default=None,
                        help="a CSV of the students (id, name, email; an LMS's export): each gets numbers of their own")
    parser.add_argument("--seed", metavar="KEY", default=None,
                        help="the course's key, any text (default: 128 random bits, recorded); the same key rebuilds "
                             "the same homework. Keep it as secret as the answers")
    parser.add_argument("--public", action="store_true",
                        help="one notebook for everyone, each student's numbers drawn from the course email they write "
                             "in it (for Gradescope, which cannot hand out a file per student); not secret")
    parser.add_argument("--chapters", metavar="NN", nargs="*", default=None,
                        help="chapter numbers, e.g. 03 05 (default: all)")
    parser.add_argument("--out", metavar="DIR", default=None, help="output folder (default build/course)")
    parser.add_argument("--book", action="store_true", help="also build the students' HTML book of the course")
    parser.add_argument("--core-only", action="store_true",
                        help="hand out each chapter's core path alone, its 'Going further' parts left out")
    network_options(parser, "the book's MathJax, require.js and widget renderer")
    launch_options(parser, "the COURSE's repository, its notebooks")


def _course(args, parser):
    from dpteach.course.assign import build_course
    from dpteach.course.roster import read_roster

    where = project(args, parser)
    try:
        roster = read_roster(Path(args.roster)) if args.roster else None
        out = build_course(where, in_root(where, args.out), seed=args.seed, chapters=args.chapters, book=args.book,
                           offline=args.offline, repo=args.repo, hub=args.hub, branch=args.branch, roster=roster,
                           public=args.public, core_only=args.core_only)
    except ValueError as error:
        parser.error(str(error))
    manifest = json.loads((out / "instructor" / "course.json").read_text(encoding="utf-8"))
    count = sum(len(c["exercises"]) for c in manifest["chapters"].values())
    who = ("each student's numbers drawn from their email (public variants)" if args.public else
           f"{len(roster)} students, each with numbers of their own" if roster else "one set of numbers for the class")
    print(f"course: {len(manifest['chapters'])} chapters of homework, {count} exercises; {who}")
    print(f"  hand out: {out / 'students'}" + (" (by-student/<id>/: each student's own notebooks)" if roster else ""))
    print(f"  keep:     {out / 'instructor'} (yours only: course.json, which the grader reads, and the answers)")
    print(f"  Gradescope: {out / 'instructor' / 'gradescope'}/<chapter>.zip, an autograder per assignment")
    return 0


def _course_file(parser):
    parser.add_argument("--course", metavar="FILE", default=COURSE_FILE,
                        help=f"the course file (default {COURSE_FILE})")


def _overrides(parser):
    parser.add_argument("--overrides", metavar="CSV", default=None,
                        help="a CSV of your changes (id,chapter,exercise,points,reason), applied to the gradebook "
                             "(default: overrides.csv beside the course file, if there is one)")


def _grade_arguments(parser):
    parser.add_argument("submissions", nargs="+", metavar="SUBMISSION",
                        help="notebooks, or folders searched for *.ipynb")
    _course_file(parser)
    parser.add_argument("--out", metavar="DIR", default="build/graded",
                        help="where gradebook.csv and feedback/ go (default "
                                                              "build/graded)")
    parser.add_argument("--jobs", metavar="N", type=int, default=os.cpu_count() or 1,
                        help="notebooks graded at once (default: cores)")
    parser.add_argument("--timeout", metavar="SECONDS", type=float, default=120.0,
                        help="seconds for a whole notebook's run (default 120)")
    parser.add_argument("--cell-timeout", metavar="SECONDS", type=float, default=60.0,
                        help="seconds for one cell (default 60): a cell that runs longer is stopped, and costs the "
                             "exercises after it")
    parser.add_argument("--memory", metavar="MB", type=int, default=2048,
                        help="MB of memory for a notebook's sandbox (default 2048)")
    parser.add_argument("--function-timeout", metavar="SECONDS", type=float, default=20.0,
                        help="seconds for a function's hidden cases (default 20)")
    parser.add_argument("--unsafe", action="store_true",
                        help="run the notebooks WITHOUT a sandbox, as plain processes of yours: only for files you "
                             "trust (the gradebook and the summary record it)")
    parser.add_argument("--unwatched", action="store_true",
                        help="with --unsafe: do not compare dpteach's files before and after each notebook (only for "
                             "a working copy whose files are being edited meanwhile)")
    parser.add_argument("--pattern", metavar="REGEX", default="",
                        help="a regex with a named group `id` that names the student in each file's (or folder's) name, "
                             "as nbgrader's zip_collect; by default Canvas's and Moodle's bulk-download names are read")
    parser.add_argument("--chapter", metavar="NN", default=None,
                        help="the assignment these notebooks answer (a chapter of the course, as 05 or its name): a "
                             "notebook registered for another chapter is flagged, and its grade replaces none stored")
    parser.add_argument("--figures", action="store_true",
                        help="draw the chapters' figures and sliders too (slower; by default they are stand-ins)")
    _overrides(parser)


def _grade(args, parser):
    for name, value, low in (("--jobs", args.jobs, 1), ("--timeout", args.timeout, 1), ("--memory", args.memory, 256),
                             ("--function-timeout", args.function_timeout, 1), ("--cell-timeout", args.cell_timeout, 1)):
        in_range(parser, name, value, low)
    if args.pattern:
        import re
        try:
            groups = re.compile(args.pattern).groupindex
        except re.error as error:
            parser.error(f"--pattern must be a regular expression (got {args.pattern!r}: {error})")
        if "id" not in groups:
            parser.error(f"--pattern must have a named group (?P<id>...) for the student (got {args.pattern!r})")
    from dpteach.course import grading, sandbox
    from dpteach.course.gradebook import write_results
    from dpteach.course.running import Options
    from dpteach.course.terminal import printable, summary

    try:
        manifest = grading.load_manifest(args.course)
        paths = grading.find_submissions(args.submissions)
        overrides = grading.load_overrides(args.overrides, args.course, manifest)
    except ValueError as error:
        parser.error(str(error))
    assignment = None
    if args.chapter is not None:
        assignment = next((c for c in manifest["chapters"] if args.chapter in (c, c[:2]) or args.chapter.zfill(2) == c[:2]),
                          None)
        if assignment is None:
            parser.error(f"--chapter must be one of the course's chapters ({', '.join(manifest['chapters'])}), "
                         f"got {args.chapter!r}")
    if not paths:
        parser.error("no notebooks found in " + ", ".join(args.submissions))
    options = Options(timeout=args.timeout, memory_mb=args.memory, function_timeout=args.function_timeout,
                      figures=args.figures, cell_timeout=args.cell_timeout,
                      isolation="none" if args.unsafe else "bubblewrap", pattern=args.pattern)
    started = time.monotonic()
    try:
        places = grading.identify_all(paths, manifest, options.pattern, roots=args.submissions)
        records = grading.grade_all(places, manifest, options, jobs=args.jobs, watch_package=not args.unwatched,
                                    assignment=assignment,
                                    progress=lambda r: print(printable(f"  {r.id or r.file}: {r.total}/{r.possible} {r.status}"),
                                                            flush=True))
    except sandbox.SandboxUnavailable as error:
        print(f"not graded: {error}", file=sys.stderr)
        return 3
    took = time.monotonic() - started
    gradebook = write_results(records + grading.stray_records(args.submissions), manifest, args.out, overrides)
    print(summary(records, took))
    print(f"wrote {gradebook} and {Path(args.out) / 'feedback'}/")
    return 0


def _gradebook_arguments(parser):
    _course_file(parser)
    parser.add_argument("--out", metavar="DIR", default="build/graded",
                        help="the folder a grading run wrote (gradebook.csv, feedback/; default build/graded)")
    _overrides(parser)


def _gradebook(args, parser):
    from dpteach.course import grading
    from dpteach.course.gradebook import write_results

    try:
        manifest = grading.load_manifest(args.course)
        overrides = grading.load_overrides(args.overrides, args.course, manifest)
    except ValueError as error:
        parser.error(str(error))
    if not (Path(args.out) / "feedback").is_dir():
        parser.error(f"--out {args.out} holds no graded records (feedback/): grade first")
    print(f"wrote {write_results([], manifest, args.out, overrides)} ({len(overrides)} overrides)")
    return 0


def _gradescope_arguments(parser):
    parser.add_argument("--tree", metavar="DIR", default="/autograder", help="Gradescope's tree (default /autograder)")
    parser.add_argument("--isolation", choices=("auto", "bubblewrap", "user"), default="auto",
                        help="auto: bubblewrap where it starts, else a fresh uid (root only); the others force one")


def _gradescope(args, parser):
    from dpteach.course.gradescope import run

    run(Path(args.tree), args.isolation)
    return 0


def _sync_prompts(args, parser):
    from dpteach.course.assign import sync_prompts

    changed = sync_prompts(project(args, parser))
    for line in changed:
        print(f"prompt written: {line}")
    print(f"{len(changed)} prompts changed" + (": now run `dpteach sync` (jupytext) and re-execute" if changed else ""))
    return 0


VERBS = (
    Verb("course", "a course's homework: the students' notebooks and what the grader reads",
         "Writes build/course/: students/ (hand out: the chapters with no solution, every homework exercise asked "
         "at numbers of the course's own) and instructor/ (keep: course.json, the answers, a Gradescope "
         "autograder per chapter). With --roster each student gets numbers of their own.",
         ("dpteach course --chapters 03 05 --book", "dpteach course --roster roster.csv --seed 'spring term'"),
         _course_arguments, _course),
    Verb("grade", "grade collected notebooks, each in a sandbox of its own",
         "Each notebook runs in a bubblewrap sandbox (no network, limits on time and memory); every verdict is "
         "computed outside the students' code. Writes the gradebook, the Canvas and Moodle imports, a feedback "
         "page per student and the class report into --out.",
         (f"dpteach grade --course {COURSE_FILE} --chapter 05 collected/",),
         _grade_arguments, _grade, project=False),
    Verb("gradebook", "write the gradebook again from the graded records (after overrides)",
         "Grades nothing: reads --out's records and writes the gradebooks, exports, pages and report again, with "
         "your overrides applied.",
         ("dpteach gradebook --overrides build/course/instructor/overrides.csv",),
         _gradebook_arguments, _gradebook, project=False),
    Verb("gradescope", "grade one Gradescope submission (what run_autograder runs)",
         "Reads --tree/submission/ and writes --tree/results/results.json, as Gradescope lays the tree out.",
         ("dpteach gradescope --tree TREE",), _gradescope_arguments, _gradescope, project=False),
    Verb("sync-prompts", "write each registered exercise's prompt into its chapter",
         "The exercise registry (dpteach/exercises/) is the one source of an exercise's words; this writes them "
         "into the chapters' notebooks (Markdown only, outputs kept). Then run `dpteach sync`.",
         ("dpteach sync-prompts",), lambda parser: None, _sync_prompts),
)
