"""``python -m dpteach VERB ...``: the ``dpteach`` command (:mod:`dpteach.cli`), for where no console script is on
the PATH (a subprocess of the same interpreter, Gradescope's run_autograder)."""

import sys

from dpteach.cli import main

if __name__ == "__main__":
    sys.exit(main())
