"""Grading a class and chapter 11's live audit, measured (sections of benchmarks/run.py, which writes RESULTS.md).

``bench_grading``: ``dpteach grade`` on 200 submissions of chapter 05, each notebook and function
answer in its own bubblewrap sandbox. ``bench_promises``: chapter 11's audit cell, timed.
"""

from __future__ import annotations

import copy
import inspect
import json
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np
from measure import _ms, _verdict

import dpteach as dp

ROOT = Path(__file__).resolve().parents[1]

# -- grading a class ---------------------------------------------------------------------

def _grading_submissions(folder: Path, n: int) -> tuple[list[Path], dict]:
    """``n`` filled-in copies of chapter 05 (solutions removed) and the course manifest they are graded on:
    right, blank and typical-mistake submissions in turn, one truncated file and one that hangs."""
    import nbformat

    import dpteach.exercises as ex
    chapter = "05_accuracy_census_names"
    source = nbformat.read(ROOT / "notebooks" / f"{chapter}.ipynb", as_version=4)
    cells = [c for c in source.cells if "solution" not in c.metadata.get("tags", [])]
    beta = "beta" if "beta" in inspect.signature(ex.check_accuracy_bound).parameters else "delta"
    params = {"k": 2000, beta: 0.05, "epsilon": 0.25}
    manifest = {"seed": 0, "chapters": {chapter: {"notebook": f"{chapter}.ipynb", "exercises": [
        {"name": "exercise_1", "answer": "answer_accuracy_bound", "checker": "check_accuracy_bound", "kind": "value",
         "points": 1, "params": params},
        {"name": "exercise_2", "answer": "answer_beta_for_bound", "checker": "check_delta_for_bound", "kind": "value",
         "points": 1, "params": {}},
        {"name": "exercise_3", "answer": "answer_dominance_threshold", "checker": "check_dominance_threshold",
         "kind": "value", "points": 1, "params": {}},
        {"name": "exercise_4", "answer": "my_accuracy_bound", "checker": "check_accuracy_bound_function",
         "kind": "function", "points": 2, "params": {}}]}}}
    function = "def my_accuracy_bound(k, beta, sensitivity, epsilon):\n    return np.log(k / beta) * sensitivity{}\n"
    kinds = {
        "right": {"answer_accuracy_bound": "answer_accuracy_bound = dp.laplace_accuracy_bound(2000, 0.05, 1, 0.25)",
                  "answer_beta_for_bound": "answer_beta_for_bound = 10_000 * dp.laplace_tail(10.0)",
                  "answer_dominance_threshold": "answer_dominance_threshold = 2 * (3 / 0.5) ** 2",
                  "my_accuracy_bound": function.format(" / epsilon")},
        "blank": {},
        "mistakes": {"answer_accuracy_bound": "answer_accuracy_bound = np.log10(2000 / 0.05) / 0.25",
                     "answer_beta_for_bound": "answer_beta_for_bound = dp.laplace_tail(10.0)",
                     "answer_dominance_threshold": "answer_dominance_threshold = (3 / 0.5) ** 2",
                     "my_accuracy_bound": function.format("")},
    }
    paths = []
    for index in range(n):
        kind = "hang" if index == 1 else list(kinds)[index % 3]
        notebook = copy.deepcopy(source)
        notebook.cells = copy.deepcopy(cells)
        notebook.metadata["dpteach"] = {"chapter": chapter}
        for cell in notebook.cells:
            if cell.cell_type != "code":
                continue
            cell.outputs, cell.execution_count = [], None
            for answer, text in kinds.get(kind, kinds["right"]).items():
                if "# your answer here" in cell.source and f"{answer} = ..." in cell.source:
                    cell.source = text + "\n" + cell.source.splitlines()[-1]
        if kind == "hang":
            notebook.cells.append(nbformat.v4.new_code_cell("while True:\n    pass"))
        path = folder / f"student_{index:03d}.ipynb"
        nbformat.write(notebook, path)
        paths.append(path)
    text = paths[0].read_text()
    paths[0].write_text(text[: len(text) // 3])      # the truncated one
    return paths, manifest


def bench_grading(n: int = 200, jobs: int = 2) -> tuple[list[str], dict]:
    """``dpteach grade`` on ``n`` submissions of chapter 05, ``jobs`` at a time, default limits,
    each notebook and each function answer in its own bubblewrap sandbox (as ``make grade`` runs)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "submissions"
        folder.mkdir()
        paths, manifest = _grading_submissions(folder, n)
        (Path(tmp) / "course.json").write_text(json.dumps(manifest))
        out = Path(tmp) / "graded"
        t = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "dpteach", "grade", "--course", str(Path(tmp) / "course.json"),
                               str(folder), "--out", str(out), "--jobs", str(jobs)],
                              capture_output=True, text=True)
        took = time.perf_counter() - t
        rows = (out / "gradebook.csv").read_text().splitlines() if (out / "gradebook.csv").exists() else []
        records = [r for f in sorted((out / "feedback").glob("*.json")) for r in json.loads(f.read_text())] \
            if (out / "feedback").exists() else []
    if done.returncode != 0:
        raise RuntimeError(f"grading failed: {done.stderr[-2000:]}")
    seconds = sorted(r["seconds"] for r in records if r["status"] == "ok")
    errors = sorted(f"{r['id']}: {textwrap.shorten(r['reason'], 90, placeholder=' …')}" for r in records
                    if r["status"] != "ok")
    totals = {}
    for r in records:
        totals[r["total"]] = totals.get(r["total"], 0) + 1
    ok = took <= 5 * 60 and len(rows) == n + 1
    isolation = sorted({r.get("isolation", "?") for r in records if r["status"] == "ok"})
    median = statistics.median(seconds) if seconds else float("nan")
    lines = ["| measure | value |", "|---|---|",
             f"| submissions (chapter 05, right / blank / typical mistakes, 1 truncated, 1 hanging) | {n} |",
             f"| workers (`--jobs`) | {jobs} |",
             f"| isolation of each notebook and function answer | {', '.join(isolation)} |",
             f"| **wall time, whole batch** | **{took:.0f} s = {took / 60:.1f} min** (target ≤ 5 min: {_verdict(ok)}) |",
             f"| wall time per submission (batch ÷ {n}) | {took / n:.2f} s |",
             f"| one submission, in its worker (median / p95 of the graded) | {median:.2f} s / "
             f"{seconds[int(0.95 * (len(seconds) - 1))] if seconds else float('nan'):.2f} s |",
             f"| gradebook rows | {len(rows) - 1} |",
             f"| scores (points: count) | {', '.join(f'{k}: {v}' for k, v in sorted(totals.items()))} |",
             f"| not gradable (0 points, with reason) | {'; '.join(errors) or 'none'} |"]
    return lines, {"n": n, "jobs": jobs, "wall_s": took, "per_submission_s": took / n, "median_one_s": median,
                   "errors": errors, "scores": totals, "isolation": isolation, "ok": ok}


# -- chapter 11's live audit -----------------------------------------------------------------

def bench_promises(reps: int = 3) -> tuple[list[str], dict]:
    """Chapter 11's audit cell: every AboveThreshold variant audited under the chapter's seed, timed (a live
    cell must answer in ≤ 10 s), with the verdicts it prints. Its slider figures are in the slider tables."""
    variants = dp.sparse_variants.VARIANTS
    times, bounds = [], {}
    for _ in range(reps):
        t = time.perf_counter()
        gen = np.random.default_rng(11)
        results = {v: dp.audit_variant(v, epsilon=1.0, rng=gen) for v in variants}
        times.append(time.perf_counter() - t)
        bounds = {v: r.epsilon_lower_bound for v, r in results.items()}
    worst = max(times)
    rows = [f"| {v} | {bounds[v]:.2f} | {'refuted' if bounds[v] > 1.0 else 'not refuted'} |" for v in variants]
    head = [f"The audit cell, {reps} runs: median {_ms(float(np.median(times)))} ms, slowest {_ms(worst)} ms "
            f"({_verdict(worst <= 10.0)} ≤ 10 s). Same verdicts every run (seeded).", "",
            "| variant | ε proved violated (claim ε = 1) | verdict |", "|---|---|---|"]
    return head + rows, {"seconds": times, "bounds": bounds}
