"""What a notebook makes the grader parse is bounded, and a symbolic link is never followed.

Each bomb is graded in a child process of its own, under an address-space limit (so that, were a cap
to go, the child would fail at that limit instead of costing this shared machine gigabytes), and the
child reports its own peak resident memory: it must stay far below what the bomb cost before the caps
(an 8 MB cell drove the grader to 3.8 GB, a forged 12 MB outcome to 2.0 GB, 10⁶ cells to 1.5 GB), and
the record must name the cap.
"""

import json
import resource
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from helpers import needs_sandbox
from submissions import CHAPTER, MANIFEST, OPTIONS, RIGHT, submission

from dpteach.course import reading, sandbox

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the grading sandbox is Linux's bubblewrap")

#: The address space each grading child may use, and the peak resident memory it must stay under.
CHILD_AS_MB, PEAK_MB = 2048, 600

GRADE = """\
import json, sys
sys.path[:0] = {paths!r}
from submissions import MANIFEST
from dpteach.course import grading
options = grading.Options(timeout=15, memory_mb=1024, function_timeout=30, cell_timeout=4)
record = grading.grade_submission(grading.identify(sys.argv[1], MANIFEST), MANIFEST, options).to_json()
# the peak of this process's own memory: /proc's VmHWM (getrusage's ru_maxrss keeps, across exec, the peak of the
# process that forked it: a pytest worker that has grown to 1.4 GB)
peak = int(next(line for line in open("/proc/self/status") if line.startswith("VmHWM")).split()[1]) / 1024
print(json.dumps({{"record": record, "peak_mb": peak}}))
"""


def _graded_in_a_bounded_child(path: Path) -> dict:
    def bound():
        limit = CHILD_AS_MB * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    code = GRADE.format(paths=[str(Path(__file__).parent), str(sandbox.PACKAGE.parent)])
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=300,
                          preexec_fn=bound)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _notebook(folder: Path, name: str, cells: list) -> Path:
    path = folder / f"{name}.ipynb"
    notebook = nbformat.v4.new_notebook(cells=cells, metadata={"dpteach": {"chapter": CHAPTER}})
    path.write_text(json.dumps(notebook))
    return path


def test_an_ast_bomb_cell_is_refused_before_it_is_parsed(tmp_path):
    bomb = _notebook(tmp_path, "bomb", [nbformat.v4.new_code_cell("x = " + "1+" * 4_000_000 + "1")])
    got = _graded_in_a_bounded_child(bomb)
    record = got["record"]
    assert (record["status"], record["total"]) == ("error", 0), record
    assert f"more than the limit of {reading.MAX_CELL_CHARS:,}" in record["reason"], record["reason"]
    assert got["peak_mb"] < PEAK_MB, got["peak_mb"]


@pytest.mark.parametrize("count, says", [(100_000, "more than 2,000 cells"), (1_000_000, "larger than")])
def test_a_million_cells_are_refused_before_they_are_parsed(tmp_path, count, says):
    cell = '{"cell_type": "raw", "metadata": {}, "source": ""}'
    path = tmp_path / "cells.ipynb"
    path.write_text('{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [' + ",".join([cell] * count) + "]}")
    got = _graded_in_a_bounded_child(path)
    assert got["record"]["status"] == "error" and says in got["record"]["reason"], got["record"]
    assert got["peak_mb"] < PEAK_MB, got["peak_mb"]


def test_a_forged_outcome_of_millions_of_values_is_never_parsed(tmp_path):
    """A function returning 400,000 empty lists: four times the values a report line may hold (at 12 MB, such a
    line cost the grader 2 GB)."""
    needs_sandbox()
    forged = ("def my_accuracy_bound(k, beta, sensitivity, epsilon):\n"
              "    return [[]] * 400_000\n")
    path = submission(tmp_path, "forged", RIGHT, extra=[forged])
    got = _graded_in_a_bounded_child(path)
    function, = [q for q in got["record"]["questions"] if q["answer"] == "my_accuracy_bound"]
    assert function["points"] == 0 and "cannot read" in function["message"], function
    assert got["peak_mb"] < PEAK_MB, got["peak_mb"]
    assert got["record"]["total"] == 2, got["record"]      # the other answers still count


@pytest.mark.parametrize("target", ["answers", "/etc/shadow", "/etc/passwd"])
def test_a_symbolic_link_is_never_followed(tmp_path, target):
    header = "# Answers (instructor only) 5b1e0d77-secret-header"
    if target == "answers":
        target = tmp_path / "answers.md"
        target.write_text(header + "\n")
    elif not Path(target).exists():
        pytest.skip(f"{target} is not on this machine")
    folder = tmp_path / "submissions"
    folder.mkdir()
    link = folder / "mallory.ipynb"
    link.symlink_to(target)
    first = Path(target).read_bytes()[:40].decode(errors="replace") if Path(target).stat().st_mode & 0o4 or \
        target == tmp_path / "answers.md" else header
    from dpteach.course import grading
    record = grading.grade_submission(grading.identify(link, MANIFEST), MANIFEST, OPTIONS).to_json()
    assert record["status"] == "error" and "symbolic link" in record["reason"], record
    for piece in (first[:12], first[12:24], "secret", "root:"):
        if piece.strip():
            assert piece not in record["reason"], record["reason"]


def test_an_unreadable_file_never_quotes_itself(tmp_path):
    path = tmp_path / "quoted.ipynb"
    path.write_text("SECRET-PREFIX-0123456789 not json at all")
    with pytest.raises(reading.GradingError) as caught:
        reading.read_notebook(path)
    assert "SECRET" not in str(caught.value) and "not JSON" in str(caught.value)
