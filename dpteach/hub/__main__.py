"""The hub wing's entry point (see :mod:`dpteach.hub`)::

    python -m dpteach.hub demo [--users 5] [--port 8000]      # make hub
    python -m dpteach.hub bench [--students 1 5 10 20] ...    # (make bench-hub: benchmarks/hub_capacity.py writes RESULTS.md)
"""

from __future__ import annotations

import argparse
import json
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dpteach.hub", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser("demo", help="a local demo JupyterHub with N student accounts, until Ctrl+C")
    demo.add_argument("--users", type=int, default=5, help="student accounts, student01 … (default 5)")
    demo.add_argument("--port", type=int, default=8000, help="the hub's port on 127.0.0.1 (default 8000)")
    bench = commands.add_parser("bench", help="students dragging a slider at once through a local hub (printed)")
    bench.add_argument("--students", type=int, nargs="+", default=[1, 5, 10, 20])
    bench.add_argument("--seconds", type=float, default=10.0, help="how long each class drags (default 10)")
    bench.add_argument("--mode", choices=("browser", "fixed"), default="browser",
                       help="browser: one update in flight per slider, as JupyterLab sends; fixed: 10 a second regardless")
    args = parser.parse_args(argv)
    if args.command == "demo":
        from .local import demo as run_demo
        for name, value, low, high in (("--users", args.users, 1, 500), ("--port", args.port, 1024, 65000)):
            if not low <= value <= high:
                parser.error(f"{name} must be in [{low}, {high}] (got {value})")
        return run_demo(args.users, args.port)
    from .load import measure
    from .local import LocalHub
    with LocalHub(max(args.students)) as hub:
        for students in args.students:
            print(json.dumps(measure(hub, students, args.seconds, mode=args.mode)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
