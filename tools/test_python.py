"""The suite on other Pythons, each in a fresh clone of the last commit with its own venv from the locks (make
test-python; CI runs it after make check). Standard library only: the system Python runs it.

    python3 tools/test_python.py [--pythons "3.10 3.13"] [--clones DIR] [--pyenv-root DIR] [-- PYTEST ARGS...]

Each interpreter comes from pyenv (``PYENV_ROOT/versions/X.Y.*``, the newest patch release) or the PATH
(``pythonX.Y``). A clone's venv is built by the Makefile's own bootstrap (``make -C CLONE PYTHON=... .venv/...``),
so it installs exactly what ``make test`` installs; pytest then runs there with the arguments after ``--``. The
first failure stops the run (exit status 1).
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def find_python(version: str, pyenv_root: Path) -> str | None:
    """The newest pyenv ``version.*`` interpreter, else ``pythonX.Y`` on the PATH; None if neither runs venv."""
    def patch(path: str) -> tuple[int, ...]:
        found = re.search(rf"/{re.escape(version)}\.(\d+)", path)
        return (int(found.group(1)),) if found else (-1,)

    candidates = sorted(glob.glob(str(pyenv_root / "versions" / f"{version}.*" / "bin" / f"python{version}")), key=patch)
    python = candidates[-1] if candidates else shutil.which(f"python{version}")
    if python and subprocess.run([python, "-c", "import venv, ensurepip"], capture_output=True).returncode == 0:
        return python
    return None


def run(version: str, clones: Path, pyenv_root: Path, targets: list[str], pytest: list[str]) -> bool:
    """One Python: a fresh clone, its venv from the locks, the suite. True if it passed."""
    python = find_python(version, pyenv_root)
    if python is None:
        print(f"test-python: no usable python{version} (pyenv or PATH, with venv)", flush=True)
        return False
    clone = clones / version
    shutil.rmtree(clone, ignore_errors=True)
    clone.parent.mkdir(parents=True, exist_ok=True)
    if subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)]).returncode:
        return False
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    said = subprocess.run([python, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"== Python {version}: {said} in a fresh clone of {commit.strip()}, {clone}", flush=True)
    started = time.monotonic()
    if subprocess.run(["make", "--no-print-directory", "-C", str(clone), f"PYTHON={python}", *targets]).returncode:
        return False
    venv = clone / ".venv" / "bin" / "python"
    if not venv.exists():
        print(f"test-python: make {' '.join(targets)} made no {venv}", flush=True)
        return False
    env = {**os.environ, "MPLCONFIGDIR": str(clone / ".venv" / "matplotlib")}
    if subprocess.run([str(venv), "-m", "pytest", *pytest], cwd=clone, env=env).returncode:
        return False
    print(f"== Python {version}: passed in {time.monotonic() - started:.0f} s", flush=True)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools/test_python.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--pythons", default="3.10 3.13", help="the versions, oldest and newest (default '3.10 3.13')")
    parser.add_argument("--clones", type=Path, default=Path(os.environ.get("TMPDIR") or tempfile.gettempdir()) /
                        "dpteach-python", help="where the clones go, one folder per version")
    parser.add_argument("--pyenv-root", type=Path, default=Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv"),
                        help="pyenv's root (default $PYENV_ROOT or ~/.pyenv)")
    parser.add_argument("--make", default=".venv/.test-installed",
                        help="the Makefile targets that install a clone's venv (space-separated)")
    parser.add_argument("pytest", nargs="*", help="pytest's arguments (after --)")
    args = parser.parse_args(argv)
    versions = args.pythons.split()
    if not versions or not all(re.fullmatch(r"3\.\d+", v) for v in versions):
        parser.error(f"--pythons must be versions like '3.10 3.13' (got {args.pythons!r})")
    for version in versions:
        if not run(version, args.clones, args.pyenv_root, args.make.split(), args.pytest):
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
