"""The verbs of the ways in (:mod:`dpteach.hub`, :mod:`dpteach.publish.links`): a demo JupyterHub, its load, the
Binder and nbgitpuller links, and the project's benchmarks."""

from __future__ import annotations

import json
import sys

from ._verbs import Verb, in_range, project, run_command

START = "notebooks/00_start_here.ipynb"


def _hub_arguments(parser):
    parser.add_argument("--users", metavar="N", type=int, default=5, help="student accounts, student01 … (default 5)")
    parser.add_argument("--port", metavar="N", type=int, default=8000,
                        help="the hub's port on 127.0.0.1 (default 8000)")


def _hub(args, parser):
    in_range(parser, "--users", args.users, 1, 500)
    in_range(parser, "--port", args.port, 1024, 65000)
    from dpteach.hub.local import demo

    return demo(args.users, args.port)


def _hub_load_arguments(parser):
    parser.add_argument("--students", metavar="N", type=int, nargs="+", default=[1, 5, 10, 20],
                        help="the class sizes, one measurement each (default 1 5 10 20)")
    parser.add_argument("--seconds", metavar="SECONDS", type=float, default=10.0,
                        help="how long each class drags (default 10)")
    parser.add_argument("--mode", choices=("browser", "fixed"), default="browser",
                        help="browser: one update in flight per slider, as JupyterLab sends; fixed: 10 a second "
                             "regardless")


def _hub_load(args, parser):
    for students in args.students:
        in_range(parser, "--students", students, 1, 500)
    in_range(parser, "--seconds", args.seconds, 1)
    from dpteach.hub.load import measure
    from dpteach.hub.local import LocalHub

    with LocalHub(max(args.students)) as hub:
        for students in args.students:
            print(json.dumps(measure(hub, students, args.seconds, mode=args.mode)), flush=True)
    return 0


def _links_arguments(parser):
    parser.add_argument("repo", metavar="REPO",
                        help="the workbook's repository: owner/name (GitHub) or a full clone URL")
    parser.add_argument("--hub", metavar="URL", default="",
                        help="a JupyterHub's address: the nbgitpuller link instead of Binder's")
    parser.add_argument("--branch", metavar="NAME", default="main",
                        help="with --hub: the branch nbgitpuller pulls (default main)")
    parser.add_argument("--ref", metavar="REF", default="HEAD",
                        help="without --hub: Binder's branch, tag or commit (default HEAD)")
    parser.add_argument("--path", metavar="FILE", default=START, help=f"the file the link opens (default {START})")


def _links(args, parser):
    from dpteach.publish.links import binder_url, nbgitpuller_url

    try:
        print(nbgitpuller_url(args.hub, args.repo, args.branch, args.path) if args.hub else
              binder_url(args.repo, args.path, args.ref))
    except ValueError as error:
        parser.error(str(error))
    return 0


def _bench_arguments(parser):
    parser.add_argument("options", nargs="*", metavar="OPTION",
                        help="benchmarks/run.py's own options, after `--` (e.g. -- --sliders-only)")


def _bench(args, parser):
    where = project(args, parser)
    script = where.root / "benchmarks" / "run.py"
    if not script.is_file():
        parser.error(f"--root must be a clone of the workbook holding benchmarks/run.py (got {str(where.root)!r})")
    return run_command([sys.executable, str(script), *args.options], cwd=where.root)


VERBS = (
    Verb("hub", "a local demo JupyterHub with student accounts serving the workbook, until Ctrl+C",
         "Every account (student01 …, password dpteach) is your own Unix user: a demo only; hub/ holds the real "
         "set-ups. Needs the hub's packages (requirements/hub.lock.txt) and configurable-http-proxy.",
         ("dpteach hub --users 5",), _hub_arguments, _hub, project=False),
    Verb("hub-load", "students dragging a slider at once through a local hub (printed, one JSON line a class)",
         "Starts a local hub with as many accounts as the largest class and measures each class size in turn.",
         ("dpteach hub-load --students 1 5 10 --seconds 10",), _hub_load_arguments, _hub_load, project=False),
    Verb("links", "print the link that opens the workbook on Binder, or on a course's JupyterHub (--hub)",
         "Binder's link opens chapter 00 in JupyterLab; with --hub, nbgitpuller clones (then updates) the "
         "workbook into each student's home first. Before any venv exists, run dpteach/publish/links.py with "
         "the system Python (make binder-url, make nbgitpuller-url).",
         ("dpteach links someone/dpteach", "dpteach links someone/dpteach --hub https://hub.example.edu --branch main"),
         _links_arguments, _links, project=False),
    Verb("bench", "measure sliders, notebooks, samplers and start-up; write benchmarks/RESULTS.md",
         "Runs the clone's benchmarks/run.py (a developer tool, not in the package) with its own options.",
         ("dpteach bench", "dpteach bench -- --sliders-only", "dpteach bench -- --hub-only --students '1 5 10 20'"),
         _bench_arguments, _bench),
)
