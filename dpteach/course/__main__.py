"""The course wing's one entry point, run from the project's root (the folder holding notebooks/).

    python -m dpteach.course assign [--seed N] [--chapters 03 05 ...] [--book] ...   # make course
    python -m dpteach.course grade --course build/course/instructor/course.json SUBMISSIONS...  # make grade
    python -m dpteach.course gradebook --course build/course/instructor/course.json             # after overrides

Each command parses its own options (``python -m dpteach.course assign --help``).
"""

from __future__ import annotations

import importlib
import sys

#: Each command's module in this wing, and what it does.
COMMANDS = {"assign": ("assign", "main", "homework per chapter: the students' notebooks and what the grader reads"),
            "grade": ("grading", "main", "grade collected notebooks against a course's manifest"),
            "gradebook": ("grading", "rewrite", "write the gradebook again from the graded records (after overrides)"),
            "gradescope": ("gradescope", "main", "grade one Gradescope submission (what run_autograder runs)")}


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in COMMANDS:
        lines = [__doc__.split("\n\n")[0], "", "commands:"]
        lines += [f"  {name:<10} {what}" for name, (_, _, what) in COMMANDS.items()]
        print("\n".join(lines), file=sys.stderr if argv[:1] not in (["-h"], ["--help"]) else sys.stdout)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    module, function, _ = COMMANDS[argv[0]]
    return getattr(importlib.import_module(f"{__package__ or 'dpteach.course'}.{module}"), function)(argv[1:]) or 0


if __name__ == "__main__":
    sys.exit(main())
