"""The workbook's speed, measured: `make bench` prints the tables and writes benchmarks/RESULTS.md.

Figures, not assertions: the tests never time anything. Targets (on a 2-core machine): every
slider control p95 ≤ 20 ms from value change to new PNG bytes and ≥ 5× faster than rebuilding
its figure, also on a first drag (every value new, in a fresh kernel: first_visit.py); p95 ≤ 40 ms
in presentation mode; in JupyterLab (headless Chromium) keypress → new image p95 ≤ 50 ms and
the settle lag after a fast drag ≤ 100 ms; the whole workbook
executes headless in ≤ 30 s; `import dpteach` ≤ 0.2 s and loads neither matplotlib nor
ipywidgets; Laplace and Gaussian mechanisms within 1.25× of raw numpy sampling, Generalized
Gaussian within 2× of raw gamma sampling, discrete Laplace for 10,000 cells in < 1 s.

    python benchmarks/run.py [--quick] [--skip-tests]
    python benchmarks/run.py grading     # only: grading 200 submissions on 2 workers (printed)
    python benchmarks/run.py first-visits  # only: every control's first drag, fresh kernels (printed)
    python benchmarks/run.py --also-python /path/to/venv-mpl3.10/bin/python   # the first-drag table under
                                         # this interpreter too (another matplotlib): a column group per version

The machine may be shared: each section records the load average when it started (`uptime`'s
1, 5 and 15 minute figures), and the first-visit table the load for each control.
"""

from __future__ import annotations

import argparse
import copy
import datetime
import inspect
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from browser import bench_browser  # noqa: E402
from first_visit import bench_first_visits, bench_versions  # noqa: E402
from gradescope import bench_gradescope  # noqa: E402
from grading_and_audit import bench_grading, bench_promises  # noqa: E402
from hub_capacity import bench_hub  # noqa: E402
from measure import _load, _ms, _verdict  # noqa: E402

import dpteach as dp  # noqa: E402

RESULTS = ROOT / "benchmarks" / "RESULTS.md"


def machine() -> list[str]:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else ""
    mem = ""
    if Path("/proc/meminfo").exists():
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f"{kb / 1024 / 1024:.0f} GiB"
    import matplotlib
    return [f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
            f"- load average at the start (1, 5, 15 min, as `uptime`): {_load()}",
            f"- machine: {platform.machine()}, {os.cpu_count()} cores ({cpu}), {mem} memory",
            f"- Python {platform.python_version()}, numpy {np.__version__}, matplotlib {matplotlib.__version__}"]


# -- import ------------------------------------------------------------------------------

def bench_import(reps: int = 7) -> tuple[list[str], dict]:
    code = ("import sys, time; t = time.perf_counter(); import dpteach; d = time.perf_counter() - t; "
            "print(d, 'matplotlib' in sys.modules, 'ipywidgets' in sys.modules, 'scipy' in sys.modules)")
    subprocess.run([sys.executable, "-c", "import dpteach"], check=True)     # caches the bytecode once
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
            for _ in range(reps)]
    t = statistics.median(float(r[0]) for r in runs)
    heavy = [name for name, flag in zip(("matplotlib", "ipywidgets", "scipy"), runs[0][1:]) if flag == "True"]
    ok = t <= 0.2 and not heavy[:2]
    lines = ["| import dpteach (median of 7 fresh interpreters, bytecode cached) | loads | target | verdict |", "|---|---|---|---|",
             f"| {_ms(t)} ms | {', '.join(heavy) or 'numpy only'} | ≤ 200 ms, no matplotlib/ipywidgets | {_verdict(ok)} |"]
    return lines, {"import_s": t, "heavy": heavy, "ok": ok}


# -- sliders -----------------------------------------------------------------------------

def widget_factories() -> list:
    """Every public function of dpteach.widgets that builds an Interactive with no arguments."""
    out = []
    for name in sorted(dir(dp.widgets)):
        obj = getattr(dp.widgets, name)
        if name.startswith("_") or not inspect.isfunction(obj):
            continue
        ann = inspect.signature(obj).return_annotation
        if ann in ("Interactive", dp.widgets.Interactive):
            out.append(obj)
    return out


def _values(control, n: int) -> list:
    """n values that walk the control's range back and forth, as a student drags it."""
    if isinstance(control.value, bool):
        return [i % 2 == 0 for i in range(n)]
    if hasattr(control, "options") and not hasattr(control, "min"):
        opts = [o[1] if isinstance(o, tuple) else o for o in control.options]
        return [opts[i % len(opts)] for i in range(n)]
    if hasattr(control, "base"):
        grid = control.base ** np.linspace(control.min, control.max, n // 2)
    else:
        grid = np.linspace(control.min, control.max, n // 2)
        if isinstance(control.value, int):
            grid = np.round(grid).astype(int)
    walk = [type(control.value)(v) for v in list(grid) + list(grid[::-1])]
    # setting a control to the value it already has fires nothing: keep only real changes
    seq, previous = [], control.value
    while len(seq) < n and any(v != previous for v in walk):
        for v in walk:
            if v != previous:
                seq.append(v)
                previous = v
    return seq[:n]


def _slider_latencies(factory, name: str, changes: int) -> list[float]:
    widget = factory()
    control = widget.controls[name]
    latencies = []
    for value in _values(control, changes):
        t = time.perf_counter()
        control.value = value          # fires the callback: update the artists, blit the frame, encode the PNG
        latencies.append(time.perf_counter() - t)
    return latencies


def bench_sliders(changes: int = 50, rebuilds: int = 10, presentation: bool = False) -> tuple[list[str], list[dict]]:
    """Every control of every widget: value change → new PNG bytes, and a rebuild of the whole widget."""
    limit, speedup = (0.040, None) if presentation else (0.020, 5)
    rows, data = [], []
    dp.plots.presentation(presentation)
    try:
        for factory in widget_factories():
            for name in factory().controls:
                latencies = _slider_latencies(factory, name, changes)
                p50, p95 = np.percentile(latencies, [50, 95])
                rebuild = []
                for _ in range(rebuilds):
                    t = time.perf_counter()
                    factory()                      # baseline: a new figure built and rendered from scratch
                    rebuild.append(time.perf_counter() - t)
                base = float(np.median(rebuild))
                ratio = base / p50
                ok = p95 <= limit and (speedup is None or ratio >= speedup)
                data.append({"widget": factory.__name__, "control": name, "p50": p50, "p95": p95, "rebuild": base,
                             "ratio": ratio, "ok": ok, "presentation": presentation})
                rows.append(f"| {factory.__name__} | {name} | {_ms(p50)} | {_ms(p95)} | {_ms(base)} | {ratio:.1f}× | "
                            f"{_verdict(ok)} |")
    finally:
        dp.plots.presentation(False)
    target = f"p95 ≤ {limit * 1000:.0f} ms" + (f", ≥ {speedup}× a rebuild" if speedup else "")
    head = [f"| widget | control | p50 ms | p95 ms | rebuild ms | speed-up | verdict ({target}) |",
            "|---|---|---|---|---|---|---|"]
    return head + rows, data


def explain_sliders(data: list[dict]) -> list[str]:
    """Where a frame's time goes, measured on the slowest control, for the reader of a missed target."""
    from dpteach.plots._png import encode_png

    worst = max(data, key=lambda d: d["p95"])
    met = sum(d["ok"] for d in data)
    lines = [f"{met} of {len(data)} controls meet the target; the slowest p95 is {_ms(worst['p95'])} ms "
             f"({worst['widget']}, {worst['control']})."]
    factory = getattr(dp.widgets, worst["widget"])
    dp.plots.presentation(worst["presentation"])
    try:
        widget = factory()
        figure, control = widget.figure, widget.controls[worst["control"]]
        update, frame, encode = [], [], []
        for value in _values(control, 30):
            args = dict(widget.values(), **{worst["control"]: value})
            t0 = time.perf_counter()
            widget._update(**args)          # what a control change calls, before the frame
            t1 = time.perf_counter()
            if figure.dynamic:
                pixels = figure.frame()
            else:                               # a figure drawn whole: the full draw is its frame
                figure.fig.canvas.draw()
                pixels = np.asarray(figure.fig.canvas.buffer_rgba())
            t2 = time.perf_counter()
            encode_png(pixels)
            t3 = time.perf_counter()
            update.append(t1 - t0), frame.append(t2 - t1), encode.append(t3 - t2)
    finally:
        dp.plots.presentation(False)
    how = ("blit (restore the background, draw the dynamic artists, paste overlays)" if figure.dynamic
           else "full draw (this figure declares no dynamic artists)")
    lines.append(f"Its frame, medians of 30: update (maths and artists) {_ms(np.median(update))} ms, {how} "
                 f"{_ms(np.median(frame))} ms, PNG encoding {_ms(np.median(encode))} ms.")
    return lines


# -- notebooks ---------------------------------------------------------------------------

def bench_notebooks() -> tuple[list[str], dict]:
    import nbformat
    from nbclient import NotebookClient

    # The fixed cost of a chapter: a fresh kernel started, one empty cell run, the kernel shut down.
    empty = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("pass")])
    starts = []
    for _ in range(3):
        t = time.perf_counter()
        NotebookClient(copy.deepcopy(empty), timeout=60, kernel_name="python3").execute()
        starts.append(time.perf_counter() - t)
    start = statistics.median(starts)
    code = "import time; t = time.perf_counter(); import dpteach.widgets; print(time.perf_counter() - t)"
    layers = statistics.median(float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                                    check=True).stdout) for _ in range(3))
    # Each chapter three times, interleaved, and its median: one pass on a shared 2-core machine
    # can be 20% off the next.
    paths = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    times = {path: [] for path in paths}
    for _ in range(3):
        for path in paths:
            nb = nbformat.read(path, as_version=4)
            t = time.perf_counter()
            NotebookClient(nb, timeout=600, kernel_name="python3",
                           resources={"metadata": {"path": str(path.parent)}}).execute()
            times[path].append(time.perf_counter() - t)
    rows, total = [], 0.0
    for path in paths:
        took = statistics.median(times[path])
        total += took
        rows.append(f"| {path.stem} | {took:.1f} |")
    ok = total <= 30
    rows.append(f"| **whole workbook** | **{total:.1f}** (target ≤ 30 s: {_verdict(ok)}) |")
    chapters = len(rows) - 1
    fixed = start + layers
    notes = [f"| (a fresh kernel with one empty cell) | {start:.1f} |",
             f"| (`import dpteach.widgets`: matplotlib and ipywidgets, in a fresh interpreter) | {layers:.1f} |"]
    if not ok:
        notes += ["", f"Every chapter pays {fixed:.1f} s before its first line of teaching runs: a fresh kernel and "
                  f"the figure and widget layers. {chapters} chapters × {fixed:.1f} s = {chapters * fixed:.1f} s of "
                  f"the {total:.1f} s; the chapters' own work takes {total - chapters * fixed:.1f} s. Executing each "
                  "chapter in its own fresh kernel is what makes the stored outputs trustworthy, so that cost stays."]
    return (["| notebook (fresh kernel, nbclient; median of 3) | seconds |", "|---|---|", *rows, *notes],
            {"total_s": total, "kernel_start_s": start, "import_layers_s": layers, "ok": ok})


# -- the test suite ----------------------------------------------------------------------

def bench_tests() -> tuple[list[str], dict]:
    """`make test` itself, as the README and docs/author.md say to run it (its tests, its markers, both workers), timed on the
    wall clock; the junit report sorts each test's own time by the part of the workbook it checks."""
    with tempfile.TemporaryDirectory() as tmp:
        xml = Path(tmp) / "junit.xml"
        env = dict(os.environ, PYTEST_ADDOPTS=f"--junitxml={xml}")
        t = time.perf_counter()
        done = subprocess.run(["make", "test"], cwd=ROOT, capture_output=True, text=True, env=env)
        wall = time.perf_counter() - t
        if not xml.exists():
            return [f"`make test` wrote no report (exit {done.returncode}): {done.stderr[-500:]}"], {"wall_s": wall}
        parts = {"unit and statistical": 0.0, "notebooks (nbval)": 0.0, "browser": 0.0, "book and slides": 0.0,
                 "editions, course and grading (otter)": 0.0}
        counts = dict.fromkeys(parts, 0)
        failed = []
        for case in ET.parse(xml).getroot().iter("testcase"):
            if any(child.tag in ("failure", "error") for child in case):
                failed.append(f"{case.get('classname')}::{case.get('name')}")
            where = (case.get("classname") or "") + "::" + (case.get("file") or "")
            kind = ("notebooks (nbval)" if ".ipynb" in where or "notebooks." in where else
                    "browser" if "test_browser" in where else
                    "book and slides" if "test_book" in where or "test_slides" in where else
                    "editions, course and grading (otter)" if any(
                        f"test_{name}" in where for name in ("editions", "course", "grading")) else
                    "unit and statistical")
            parts[kind] += float(case.get("time", 0))
            counts[kind] += 1
    ok = not failed and done.returncode == 0 and wall <= 180
    rows = [f"| {k} (summed over both workers) | {counts[k]} | {v:.1f} | | |" for k, v in parts.items() if counts[k]]
    rows.append(f"| **make test, wall clock** ({len(failed)} failed) | {sum(counts.values())} | **{wall:.1f}** | "
                f"≤ 180 s | {_verdict(ok)} |")
    notes = ["", "Failed: " + ", ".join(f"`{name}`" for name in failed) + "."] if failed else []
    return ["| part of the suite | tests | seconds | target | verdict |", "|---|---|---|---|---|", *rows, *notes], \
        {"wall_s": wall, "failed": failed, "exit": done.returncode, **parts}


# -- mechanisms --------------------------------------------------------------------------

def _best(fn, reps: int = 5) -> float:
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def bench_mechanisms(n: int = 1_000_000) -> tuple[list[str], list[dict]]:
    rng = np.random.default_rng(0)
    zeros = np.zeros(n)
    cases = [("laplace_mechanism", lambda: dp.laplace_mechanism(zeros, 1.0, 1.0, rng=rng),
              "Generator.laplace", lambda: rng.laplace(0.0, 1.0, n), 1.25)]
    if hasattr(dp, "gaussian_mechanism"):
        cases.append(("gaussian_mechanism", lambda: dp.gaussian_mechanism(zeros, 1.0, 1.0, 1e-5, rng=rng),
                      "Generator.normal", lambda: rng.normal(0.0, 1.0, n), 1.25))
    if hasattr(dp, "generalized_gaussian_mechanism"):
        cases.append(("generalized_gaussian_mechanism (p = 1.5)",
                      lambda: dp.generalized_gaussian_mechanism(zeros, 1.5, 1.0, rng=rng),
                      "Generator.gamma", lambda: rng.gamma(1 / 1.5, 1.0, n), 2.0))
    rows, data = [], []
    for name, fn, raw_name, raw, limit in cases:
        ours, base = _best(fn), _best(raw)
        ratio = ours / base
        data.append({"mechanism": name, "ours_s": ours, "raw_s": base, "ratio": ratio, "ok": ratio <= limit})
        rows.append(f"| {name} | {_ms(ours)} | {raw_name} {_ms(base)} | {ratio:.2f}× | ≤ {limit}× | "
                    f"{_verdict(ratio <= limit)} |")
    if hasattr(dp, "discrete_laplace_mechanism"):
        counts = np.arange(10_000)
        took = _best(lambda: dp.discrete_laplace_mechanism(counts, 1, 1.0, rng=rng), reps=3)
        data.append({"mechanism": "discrete_laplace_mechanism", "ours_s": took, "ok": took < 1})
        rows.append(f"| discrete_laplace_mechanism, exact, 10,000 cells | {_ms(took)} | — | — | < 1 s | "
                    f"{_verdict(took < 1)} |")
    head = [f"| mechanism ({n:,} values) | ms | raw numpy ms | ratio | target | verdict |",
            "|---|---|---|---|---|---|"]
    return head + rows, data


# -- HTML export -------------------------------------------------------------------------

def bench_export() -> tuple[list[str], dict]:
    from dpteach.publish.book_site import build_html
    from dpteach.publish.paths import Project

    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        pages = build_html(Project(ROOT), Path(tmp) / "html", executed=ROOT / "notebooks")
        took = time.perf_counter() - t
        sizes = [(p.name, p.stat().st_size) for p in pages]
    rows = [f"| {name} | {size / 1024:,.0f} |" for name, size in sizes]
    rows.append(f"| **all pages** (export of the stored notebooks: {took:.1f} s) | "
                f"**{sum(s for _, s in sizes) / 1024:,.0f}** |")
    return ["| page | KiB |", "|---|---|", *rows], {"export_s": took, "pages": dict(sizes)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skip-tests", action="store_true", help="do not time the test suite")
    parser.add_argument("--quick", action="store_true", help="fewer slider changes (smoke run)")
    parser.add_argument("--sliders-only", action="store_true",
                        help="measure import, sliders and the browser only; keep the other sections of RESULTS.md "
                             "and results.json as the last full run wrote them (each says so, with its date)")
    parser.add_argument("--grading-only", action="store_true",
                        help="measure the grading batch only; keep the other sections as the last full run wrote them")
    parser.add_argument("--gradescope-only", action="store_true",
                        help="measure Gradescope's autograder only; keep the other sections as the last run wrote them")
    parser.add_argument("--hub-only", action="store_true",
                        help="measure a class on a hub only (make bench-hub); keep the other sections")
    parser.add_argument("--students", default="1 5 10 20", help="the class sizes the hub is measured with")
    parser.add_argument("--also-python", action="append", default=[], metavar="PYTHON",
                        help="walk the first-drag table under this interpreter too (another matplotlib version), "
                             "one after the other: one table with a column group per version")
    parser.add_argument("only", nargs="?", choices=["grading", "first-visits"],
                        help="run only this benchmark (printed, not written)")
    args = parser.parse_args(argv)
    def first_visits():
        if not args.also_python:
            return bench_first_visits()
        return bench_versions([sys.executable, *args.also_python]), None

    if args.only:
        lines, _ = bench_grading() if args.only == "grading" else first_visits()
        print(f"load average before: {_load()}")
        print("\n".join(lines))
        return 0
    # Time what a student's machine does: Python caches bytecode after the first import. An
    # environment that sets PYTHONDONTWRITEBYTECODE (some CI images do) would time the compiler
    # in every fresh interpreter and kernel instead.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

    sections = [("Machine", machine(), None)]
    only = {"--sliders-only": (args.sliders_only, ("import", "Sliders")), "--grading-only": (args.grading_only, ("Grading",)),
            "--gradescope-only": (args.gradescope_only, ("Gradescope",)), "--hub-only": (args.hub_only, ("A class on a hub",))}
    chosen = [(flag, titles) for flag, (on, titles) in only.items() if on]
    partial = bool(chosen)
    flag, measured = chosen[0] if chosen else ("", None)
    students = tuple(int(n) for n in args.students.split())
    kept_text, kept_data = _previous_sections(flag) if partial else ({}, {})
    for title, fn in [("import dpteach", bench_import),
                      ("Sliders: value change → new PNG bytes", lambda: bench_sliders(10 if args.quick else 50,
                                                                                       3 if args.quick else 10)),
                      ("Sliders, first drag: every value new, in a fresh kernel", first_visits),
                      ("Sliders in presentation mode (projector)",
                       lambda: bench_sliders(10 if args.quick else 50, 3 if args.quick else 10, presentation=True)),
                      ("Sliders in the browser: JupyterLab in headless Chromium", bench_browser),
                      ("Mechanism throughput", bench_mechanisms),
                      ("Notebooks, executed headless", bench_notebooks),
                      ("HTML export", bench_export),
                      ("Grading a class: 200 submissions on 2 workers", bench_grading),
                      ("Gradescope: one submission of each chapter, as its autograder runs it", bench_gradescope),
                      ("A class on a hub: students dragging at once, and a chapter's kernel", lambda: bench_hub(students)),
                      ("Chapter 11's live audit", bench_promises)] + (
                          [] if args.skip_tests else [("make test", bench_tests)]):
        print(f"\n## {title}", flush=True)
        if measured and not title.startswith(measured):
            if title in kept_text:
                sections.append((title, kept_text[title], kept_data.get(title)))
                print("(kept from the last full run)")
            continue
        load = _load()
        lines, data = fn()
        lines = [f"Load average when this section started (1, 5, 15 min): {load}.", "", *lines]
        if title.startswith("Sliders") and data and "presentation" in data[0]:
            lines = lines + ["", *explain_sliders(data)]
        print("\n".join(lines), flush=True)
        sections.append((title, lines, data))
    text = ["# Benchmarks", "", "Written by `make bench` (benchmarks/run.py); every number below is measured, "
            "not typed.", "", "The machine may be shared (other test runs): each section records the load average "
            "when it started, and on a loaded machine wall-clock times include waiting for a core.", ""]
    for title, lines, _ in sections:
        text += [f"## {title}", "", *lines, ""]
    RESULTS.write_text("\n".join(text))
    (ROOT / "benchmarks" / "results.json").write_text(
        json.dumps({t: d for t, _, d in sections if d is not None}, indent=1, default=float))
    print(f"\nwrote {RESULTS.relative_to(ROOT)}")
    return 0


def _previous_sections(flag: str) -> tuple[dict, dict]:
    """The sections of the current RESULTS.md and results.json, by title, each marked as not re-measured."""
    if not RESULTS.exists():
        return {}, {}
    text, title, out = RESULTS.read_text(), None, {}
    date = next((line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("- date:")), "?")
    for line in text.splitlines():
        if line.startswith("## "):
            title = line[3:].strip()
            out[title] = []
        elif title is not None:
            out[title].append(line)
    for lines in out.values():
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
        if not (lines and lines[0].startswith("*Not re-measured")):
            lines[:0] = [f"*Not re-measured by the last run (`run.py {flag}`): as measured on {date}.*", ""]
    data_path = ROOT / "benchmarks" / "results.json"
    data = json.loads(data_path.read_text()) if data_path.exists() else {}
    return out, data


if __name__ == "__main__":
    sys.exit(main())
