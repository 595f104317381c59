"""``python -m dpteach.course VERB ...``: the course's verbs of the ``dpteach`` command (:mod:`dpteach.cli`), kept
for scripts written before it. ``assign`` is ``dpteach course``; ``grade``, ``gradebook`` and ``gradescope`` are
the verbs of the same names (``dpteach grade --help``)."""

from __future__ import annotations

import sys

#: This wing's old verbs and the ``dpteach`` verb each one is.
VERBS = {"assign": "course", "grade": "grade", "gradebook": "gradebook", "gradescope": "gradescope"}


def main(argv: list[str] | None = None) -> int:
    from dpteach.cli import main as dpteach

    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in VERBS:
        print(f"usage: python -m dpteach.course {{{','.join(VERBS)}}} ... (now: dpteach "
              f"{'|'.join(VERBS.values())}; dpteach --help)", file=sys.stderr)
        return 2
    rest = argv[1:]
    if argv[0] == "gradescope":     # its tree was --root here; --root is the project's in the dpteach command
        rest = ["--tree" if word == "--root" else word for word in rest]
    return dpteach([VERBS[argv[0]], *rest])


if __name__ == "__main__":
    sys.exit(main())
