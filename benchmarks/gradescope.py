"""What one Gradescope submission costs: the autograder of every homework chapter, run on a right notebook.

For each chapter with homework, a course of one student is built, its autograder zip unpacked into a tree laid
out as Gradescope lays it, and ``python -m dpteach gradescope --tree TREE`` (what ``run_autograder``
runs) timed on the chapter filled in right (the numbers at the student's own parameters, the functions from
the chapter's own solutions). Where the machine lets root make cgroups (v1 ``cpu``, ``cpuacct``, ``memory``),
each run gets Gradescope's default container: half a CPU (CFS quota 50 ms per 100 ms) and 768 MB, and the
cgroup counts the CPU time and the peak memory of everything the run started (the sandboxes included).
Elsewhere it runs unthrottled and says so.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]


def _right_notebook(course: Path, manifest: dict, stem: str, sid: str):
    from dpteach.exercises import EXERCISES
    from dpteach.publish import editions
    chapter = nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4)
    solutions = {e.answer: e.solution for e in editions.exercises(chapter, stem)}
    nb = nbformat.read(course / "students" / "by-student" / sid / f"{stem}.ipynb", as_version=4)
    answers = {}
    for exercise in manifest["chapters"][stem]["exercises"]:
        spec = EXERCISES[exercise["checker"]]
        params = manifest["students"][sid]["params"][stem][exercise["name"]]
        if spec.kind == "value":
            answers[exercise["answer"]] = f"{exercise['answer']} = {spec.expected(**params)!r}"
        elif spec.kind == "choice":
            letter = next(x for x in "abcdefgh" if spec.checker(x, **params).correct)
            answers[exercise["answer"]] = f"{exercise['answer']} = {letter!r}"
        else:
            answers[exercise["answer"]] = solutions[exercise["answer"]]
    for cell in nb.cells:
        for name, code in answers.items():
            if cell.cell_type == "code" and "# your answer here" in cell.source and (
                    f"{name} = ..." in cell.source or f"def {name}(" in cell.source):
                cell.source = code.rstrip("\n") + "\n" + cell.source.rstrip().splitlines()[-1]
    return nb


CGROUPS = Path("/sys/fs/cgroup")


class Container:
    """A cgroup like Gradescope's default container (half a CPU, 768 MB), or nothing where none can be made."""

    def __init__(self, name: str):
        self.folders = {kind: CGROUPS / kind / name for kind in ("cpu", "cpuacct", "memory")}
        try:
            for folder in self.folders.values():
                folder.mkdir()
            (self.folders["cpu"] / "cpu.cfs_period_us").write_text("100000")
            (self.folders["cpu"] / "cpu.cfs_quota_us").write_text("50000")
            (self.folders["memory"] / "memory.limit_in_bytes").write_text(str(768 * 2**20))
            self.ok = True
        except OSError:
            self.close()
            self.ok = False

    def enter(self) -> None:
        """In the child, before it runs: join every cgroup."""
        for folder in self.folders.values():
            (folder / "tasks").write_text(str(os.getpid()))

    def cpu_seconds(self) -> float:
        return int((self.folders["cpuacct"] / "cpuacct.usage").read_text()) / 1e9

    def peak_mb(self) -> float:
        return int((self.folders["memory"] / "memory.max_usage_in_bytes").read_text()) / 2**20

    def close(self) -> None:
        for folder in self.folders.values():
            try:
                folder.rmdir()
            except OSError:
                pass


def bench_gradescope() -> tuple[list[str], dict]:
    from dpteach.course import assign
    from dpteach.course.roster import Student
    from dpteach.publish.paths import Project
    rows, data = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        course = assign.build_course(Project(ROOT), tmp / "course", seed="bench", roster=[Student("ada", "Ada", "ada@uni.edu")],
                                     wheel=False)
        manifest = json.loads((course / "instructor" / "course.json").read_text())
        for stem in manifest["chapters"]:
            tree = tmp / stem
            for folder in ("source", "submission", "results"):
                (tree / folder).mkdir(parents=True)
            with zipfile.ZipFile(course / "instructor" / "gradescope" / f"{stem}.zip") as archive:
                archive.extractall(tree / "source")
            limits = json.loads((tree / "source" / "course.json").read_text())["gradescope"]
            nbformat.write(_right_notebook(course, manifest, stem, "ada"), tree / "submission" / f"{stem}.ipynb")
            (tree / "submission_metadata.json").write_text(json.dumps({"users": [{"email": "ada@uni.edu", "id": 1}]}))
            container = Container(f"dpteach-gradescope-{os.getpid()}-{stem[:2]}")
            try:
                started = time.perf_counter()
                done = subprocess.run([sys.executable, "-m", "dpteach", "gradescope", "--tree", str(tree)],
                                      capture_output=True, text=True, preexec_fn=container.enter if container.ok else None)
                wall = time.perf_counter() - started
                cpu, peak = (container.cpu_seconds(), container.peak_mb()) if container.ok else (float("nan"),) * 2
            finally:
                container.close()
            result = json.loads((tree / "results" / "results.json").read_text())
            possible = sum(t["max_score"] for t in result["tests"])
            isolation = "bubblewrap" if "isolation: bubblewrap" in done.stdout else "user" if "isolation: user" in done.stdout \
                else "?"
            data[stem] = {"wall_s": wall, "cpu_s": cpu, "peak_mb": peak, "score": result["score"], "possible": possible,
                          "isolation": isolation, "half_cpu": container.ok}
            rows.append(f"| {stem} | {result['score']:g} / {possible:g} | {wall:.1f} | {cpu:.1f} | {peak:.0f} | {isolation} |")
    slowest = max(data.values(), key=lambda d: d["wall_s"])
    where = ("in a cgroup like Gradescope's default container: half a CPU, 768 MB" if all(d["half_cpu"] for d in data.values())
             else "WITHOUT Gradescope's half-CPU limit (no cgroup could be made here): expect longer there")
    lines = [f"Each chapter's autograder on a right notebook (`dpteach gradescope`, what "
             f"`run_autograder` runs), {where}. Limits in the zip: a notebook {limits['timeout']} s, a cell "
             f"{limits['cell_timeout']} s, {limits['memory_mb']} MB for its sandbox.", "",
             "| chapter | score | wall (s) | CPU, all processes (s) | peak memory, all processes (MB) | isolation |",
             "|---|---|---|---|---|---|", *rows, "",
             f"Slowest: {slowest['wall_s']:.0f} s; the most memory: "
             f"{max(d['peak_mb'] for d in data.values()):.0f} MB."]
    return lines, data


if __name__ == "__main__":
    lines, _ = bench_gradescope()
    print("\n".join(lines))
