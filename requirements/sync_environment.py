"""Write environment.yml and binder/environment.yml from requirements/lab.lock.txt.

The lock (written by `make lock` from pyproject.toml's ranges, for Python 3.10 and later) is
the one source of truth for versions. conda gives Binder and `conda env create` only Python
and pip; every other package comes from the same lock, pinned exactly, through pip: so a
Binder build next year gets the versions that `make test` passed with. The pins are the
lock's entries whose markers hold on the environment's Python (PYTHON below).

    python requirements/sync_environment.py          # write both files
    python requirements/sync_environment.py --check  # exit 1 if either is out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements" / "lab.lock.txt"
TARGETS = [ROOT / "environment.yml", ROOT / "binder" / "environment.yml"]
#: the Python that conda installs for students and Binder (its newest 3.11.x release)
PYTHON = "3.11"
#: the release the lock's markers are evaluated at: the one the test suite runs on (a marker
#: such as `python_full_version >= '3.11.5'` then picks what conda's newest 3.11 will need)
PYTHON_FULL = "3.11.7"


def pins(lock: Path = LOCK, python: str = PYTHON_FULL) -> list[str]:
    """The lock's `name==version` lines that apply on ``python`` (markers evaluated), sorted by name."""
    env = {"python_version": ".".join(python.split(".")[:2]), "python_full_version": python, "sys_platform": "linux",
           "platform_system": "Linux", "os_name": "posix", "implementation_name": "cpython",
           "platform_python_implementation": "CPython", "platform_machine": "x86_64"}
    out = []
    for raw in lock.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line or line.startswith("-"):
            continue
        req = Requirement(line)
        if req.marker is None or Marker(str(req.marker)).evaluate(env):
            (spec,) = req.specifier
            out.append(f"{req.name}=={spec.version}")
    return sorted(out, key=str.lower)


def render(python: str = PYTHON) -> str:
    lines = [
        "# The workbook's environment for students (conda env create -f environment.yml) and Binder.",
        "# Written by `make lock` from requirements/lab.lock.txt (do not edit by hand): conda provides",
        "# Python and pip, and pip installs exactly the versions the test suite passed with.",
        "# binder/environment.yml is the same file (a test checks both against the lock).",
        "name: dpteach",
        "channels:",
        "  - conda-forge",
        "dependencies:",
        f"  - python={python}",
        "  - pip",
        "  - pip:",
    ]
    lines += [f"      - {pin}" for pin in pins()]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    stale = [t for t in TARGETS if not t.exists() or t.read_text() != text]
    if "--check" in argv:
        for t in stale:
            print(f"{t.relative_to(ROOT)} is out of date with requirements/lab.lock.txt: run `make lock`")
        return 1 if stale else 0
    for t in stale:
        t.write_text(text)
        print(f"wrote {t.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
