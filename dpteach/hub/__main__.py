"""``python -m dpteach.hub demo|bench ...``: the hub's verbs of the ``dpteach`` command (:mod:`dpteach.cli`), kept
for scripts written before it: ``demo`` is ``dpteach hub``, ``bench`` is ``dpteach hub-load``."""

from __future__ import annotations

import sys

#: This wing's old verbs and the ``dpteach`` verb each one is.
VERBS = {"demo": "hub", "bench": "hub-load"}


def main(argv: list[str] | None = None) -> int:
    from dpteach.cli import main as dpteach

    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in VERBS:
        print(f"usage: python -m dpteach.hub {{{','.join(VERBS)}}} ... (now: dpteach hub|hub-load; dpteach --help)",
              file=sys.stderr)
        return 2
    return dpteach([VERBS[argv[0]], *argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
