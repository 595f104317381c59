"""``python -m dpteach.publish [--root ROOT] VERB ...``: the publishing verbs of the ``dpteach`` command
(:mod:`dpteach.cli`: execute, sync, html, slides, mark, instructor, present, docs), kept for scripts written before it.
Homework and grading are the course's verbs (``dpteach course``, ``dpteach grade``)."""

from __future__ import annotations

import sys

#: The verbs this wing takes (the others are refused, as before).
VERBS = ("execute", "sync", "html", "slides", "mark", "instructor", "present", "docs")


def main(argv: list[str] | None = None) -> int:
    from dpteach.cli import main as dpteach

    argv = list(sys.argv[1:] if argv is None else argv)
    words = [w for i, w in enumerate(argv) if not w.startswith("-") and (i == 0 or argv[i - 1] != "--root")]
    verb = words[0] if words else None
    if verb not in VERBS:
        print(f"usage: python -m dpteach.publish [--root ROOT] {{{','.join(VERBS)}}} ... (invalid choice: {verb!r}; "
              "now: dpteach VERB, dpteach --help)", file=sys.stderr)
        return 2
    return dpteach(argv)


if __name__ == "__main__":
    sys.exit(main())
