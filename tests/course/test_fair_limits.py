"""A classmate graded at the same time never costs a notebook a point: each sandbox's memory is bounded
as a whole, its ``/dev/shm`` has a size, and a run that ran out of time beside others runs again alone.

Without cgroups delegated to the grader, a sandbox's memory is its process count (RLIMIT_NPROC, for its
fresh uid) times each process's address space (RLIMIT_AS): :meth:`dpteach.course.sandbox.Limits.per_process`
keeps the product within ``memory_mb``.
"""

import os
import sys
import threading
import time
from pathlib import Path

import nbformat
import pytest
from helpers import needs_sandbox
from submissions import MANIFEST, OPTIONS, RIGHT, submission

from dpteach.course import grading, running, sandbox
from dpteach.course.reading import parse_notebook

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the grading sandbox is Linux's bubblewrap")

MEASURE = ["import os, resource, subprocess, sys\n"
           "x = os.statvfs('/dev/shm')\nshm_mb = x.f_blocks * x.f_frsize / 2**20\n"
           "as_mb = resource.getrlimit(resource.RLIMIT_AS)[0] / 2**20\n"
           "nproc = resource.getrlimit(resource.RLIMIT_NPROC)[0]\n",
           # four children that each hold 1.5 GB, as the attack did (6.3 GB against a stated 2,048 MB)
           "children = []\nfor _ in range(4):\n    try:\n"
           "        children.append(subprocess.Popen([sys.executable, '-c', 'b = bytearray(1536 * 2**20); "
           "import time; time.sleep(2)'], stderr=subprocess.DEVNULL))\n"
           "    except OSError:\n        break\n"
           "held = sum(child.wait() == 0 for child in children)\nstarted = len(children)\n",
           # 3 GB written into /dev/shm, 32 MB at a time
           "written = 0\ntry:\n    for i in range(96):\n        with open(f'/dev/shm/hog{i}', 'wb') as f:\n"
           "            f.write(b'x' * 2**25)\n        written += 32\nexcept OSError:\n    pass\n"]
def _cells(notebook) -> list[tuple[int, str]]:
    return [(cell.number, cell.source) for cell in parse_notebook(notebook).cells]


NAMES = ["shm_mb", "as_mb", "nproc", "held", "started", "written"]


@pytest.mark.parametrize("memory_mb", [1024, 2048])
def test_a_sandboxs_memory_as_a_whole_stays_within_the_stated_limit(memory_mb):
    needs_sandbox()
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in MEASURE])
    run = running.execute(_cells(notebook), NAMES, grading.Options(timeout=60, cell_timeout=30, memory_mb=memory_mb))
    got = run.answers
    assert got["nproc"] * got["as_mb"] <= memory_mb, got
    assert got["started"] <= got["nproc"] - 1 and 1536 * got["held"] < memory_mb, got
    assert got["shm_mb"] <= sandbox.Limits().shm_mb and got["written"] <= sandbox.Limits().shm_mb, got


def test_a_run_that_times_out_runs_again_alone_before_it_fails(monkeypatch):
    calls = []

    def fake(job, limits, isolation="bubblewrap", watch=None, alone=False):
        calls.append(alone)
        return sandbox.Result(end="timeout", items=["ready"], alone=alone)
    monkeypatch.setattr(sandbox, "run", fake)
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")])
    with pytest.raises(running.GradingError, match="stopped there, also when run again alone"):
        running.execute(_cells(notebook), [], OPTIONS)
    assert calls == [False, True]
    from dpteach.course.functions import SandboxedFunction
    calls.clear()
    outcomes = SandboxedFunction("def f():\n    return 1\n", "f").run_cases([], None, ())
    assert calls == [False, True] and outcomes == [("timeout", "")]


def test_a_turn_alone_waits_for_the_runs_under_way_and_holds_back_new_ones():
    events = []
    shared_in = threading.Event()

    def beside(name, hold):
        with sandbox.turn(False):
            events.append(f"{name} in")
            shared_in.set()
            time.sleep(hold)
            events.append(f"{name} out")

    first = threading.Thread(target=beside, args=("first", 0.6))
    first.start()
    shared_in.wait()

    def alone():
        with sandbox.turn(True):
            events.append("alone in")
            time.sleep(0.3)
            events.append("alone out")
    lone = threading.Thread(target=alone)
    lone.start()
    time.sleep(0.2)
    later = threading.Thread(target=beside, args=("later", 0.0))
    later.start()
    for thread in (first, lone, later):
        thread.join(10)
    assert events == ["first in", "first out", "alone in", "alone out", "later in", "later out"], events


STARVER = """\
import subprocess, sys, time
for _ in range(40):
    try:
        subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
    except OSError:
        break
end = time.time() + 60
while time.time() < end:
    pass
"""
BUSY = "total = 0\nfor i in range(3_000_000):\n    total += i * i\n"
HOG = """\
import subprocess, sys
for _ in range(8):
    try:
        subprocess.Popen([sys.executable, "-c", "b = bytearray(1536 * 2**20); import time; time.sleep(20)"],
                         start_new_session=True)
    except OSError:
        break
b = bytearray(900 * 2**20)
"""


@pytest.mark.slow
def test_a_right_notebook_keeps_its_points_beside_a_starving_one_and_a_memory_hog(tmp_path):
    """Graded with two workers as the README says: the right notebook (with a cell of a second or two of
    CPU) beside a notebook that starts 40 busy processes and spins to its time limit, and beside one
    that asks for 8 × 1.5 GB: full marks, status ok, each time."""
    needs_sandbox()
    options = grading.Options(timeout=20, memory_mb=1024, function_timeout=5, cell_timeout=8)
    for name, cells in (("starving", [STARVER]), ("hog", [HOG])):
        paths = [submission(tmp_path, name, RIGHT, extra=cells), submission(tmp_path, f"right_{name}", RIGHT, extra=[BUSY])]
        records = {r.id: r.to_json() for r in grading.grade_all(grading.identify_all(paths, MANIFEST), MANIFEST, options, jobs=2)}
        right = records[f"right_{name}"]
        assert (right["status"], right["total"], right["reason"]) == ("ok", 4, ""), right


SHM_HOG = ("import os, time\nwritten = 0\nfor i in range(32):\n"
           "    with open(f'/dev/shm/dpteach-fair-hog-{os.getpid()}-{i}', 'wb') as f:\n"
           "        f.write(b'x' * 2**25)\n    written += 32\n    time.sleep(0.05)\n")


def _readable_by_strangers(path: Path) -> bool:
    return all(os.stat(folder).st_mode & 0o001 for folder in [path, *path.parents])


@pytest.mark.skipif(os.geteuid() != 0 or not _readable_by_strangers(Path(sys.base_prefix).resolve()),
                    reason="the 'user' isolation becomes a fresh uid, which only root can, and that uid must reach "
                           "this Python's installation (test_gradescope runs it in Gradescope's layout)")
def test_in_user_isolation_dev_shm_is_watched_and_emptied():
    """Without bubblewrap (Gradescope's container) /dev/shm is the host's: a notebook writing 1 GB into it
    (32 MB at a time) is stopped past the 64 MB limit, and its files are removed when its run ends."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(SHM_HOG)])
    run = running.execute(_cells(notebook), ["written"], grading.Options(timeout=30, cell_timeout=20, memory_mb=1024,
                                                                 isolation="user"))
    assert "more into /dev/shm than its limit" in run.stopped, run
    assert not list(Path("/dev/shm").glob("dpteach-fair-hog-*"))
