"""A student's first drag, timed: every control of every widget, each value visited for the first time.

The warm benchmark (run.py, "Sliders") walks a slider back and forth, so after the first pass
every frame comes from a cache. A student who opens a chapter meets every value for the first
time. Here each (widget, control) gets a **fresh IPython kernel**, as a chapter does: it imports
``dpteach.widgets``, builds the widget (the first draw, as the chapter's cell does), then sets
``control.value = v`` for 25 values up the control's range and 25 values on the way back, and
times each from the assignment to the moment the Interactive's Image widget receives its new PNG
and its access widget the figure's new text alternative (observers on ``image.value`` and
``access.alt``, the later of the two; a frame whose text is unchanged ends with its image). The
way back visits the values *between* those of the way up, so no value is ever drawn twice. A
control with fewer than 51 positions (a toggle, a choice, a short integer range) visits each of
its positions once.

The budget planner's typed k (``budget_planner``'s ``releases``: an integer slider over 1 to 10,000 whose readout
takes a typed number) is walked like any control; all its values but the two ends are off the planner's grid. A
change in a kernel draws them at once with the exact total marked "computing…" and computes it once the controls
rest (dpteach.widgets.planner.PlannerInteractive; issue 52): its row times that first frame, and the walk, which
never rests, never computes one.

    python benchmarks/first_visit.py [--no-kernel] [NAME]  # every control (of widgets named *NAME*): table
    python benchmarks/first_visit.py noisy_max epsilon     # one control, in this interpreter (JSON)
    python benchmarks/first_visit.py --profile noisy_max epsilon   # cProfile of its first visits
    python benchmarks/first_visit.py --split noisy_max epsilon     # CPU ms: update, frame, encoding (JSON)
    python benchmarks/first_visit.py --python PY1 --python PY2 [NAME]  # every control under each interpreter
                                                                     # (one after the other): one table

Each control is walked in :data:`KERNELS` fresh kernels, as that many students would, and its p95
is taken over all their first visits (150): on a virtual machine whose host takes a core away now
and then, one burst would otherwise set the p95 of a 50-visit walk. The table also gives each
kernel's own p95, the worst of them included.

Used by run.py (`make bench`). The machine is shared: each row records the 1-minute load average
when it ran.
"""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
#: values on the way up, and on the way back (between those of the way up)
PASS = 25
#: fresh kernels per control, their first visits pooled
KERNELS = 3


def widget_factories() -> list:
    """Every public function of dpteach.widgets that builds an Interactive with no arguments."""
    import dpteach.widgets as w

    out = []
    for name in sorted(dir(w)):
        obj = getattr(w, name)
        if name.startswith("_") or not inspect.isfunction(obj):
            continue
        if inspect.signature(obj).return_annotation in ("Interactive", w.Interactive):
            out.append(obj)
    return out


def positions(control, n: int = 2 * PASS + 1) -> list:
    """Up to ``n`` distinct values spanning the control's whole range, in increasing order."""
    if isinstance(control.value, bool):
        return [False, True]
    if hasattr(control, "options") and not hasattr(control, "min"):
        return [o[1] if isinstance(o, tuple) else o for o in control.options]
    if hasattr(control, "base"):                      # a log slider: evenly spaced exponents
        grid = control.base ** np.linspace(control.min, control.max, n)
        return [float(v) for v in grid]
    if isinstance(control.value, int):
        grid = np.unique(np.round(np.linspace(control.min, control.max, min(n, control.max - control.min + 1))))
        return [int(v) for v in grid]
    return [float(v) for v in np.linspace(control.min, control.max, n)]


def walk(control) -> tuple[list, list]:
    """The way up (every other position, increasing) and the way back (the positions between, decreasing),
    without the value the control starts at (drawn already, and setting it would fire nothing)."""
    grid = positions(control)
    up, back = grid[0::2], grid[1::2][::-1]
    return [v for v in up if v != control.value], [v for v in back if v != control.value]


def measure_one(factory_name: str, control_name: str) -> dict:
    """In this interpreter: build the widget, then visit each value once; milliseconds per visit."""
    t = time.perf_counter()
    import dpteach.widgets as w

    imported = time.perf_counter() - t
    t = time.perf_counter()
    widget = getattr(w, factory_name)()
    built = time.perf_counter() - t
    control = widget.controls[control_name]
    stamp: list[tuple[float, float]] = []
    def observed(_change):
        stamp.append((time.perf_counter(), time.process_time()))
    widget.image.observe(observed, names="value")
    widget.access.observe(observed, names="alt")     # the text a screen reader gets comes after the frame
    seen = {repr(control.value)}
    out: dict = {"widget": factory_name, "control": control_name, "import_s": imported, "build_s": built,
                 "up": [], "back": [], "cpu": [], "revisits": 0, "no_new_image": 0}
    up, back = walk(control)
    for key, values in (("up", up), ("back", back)):
        for value in values:
            stamp.clear()
            c = time.process_time()
            t = time.perf_counter()
            control.value = value
            end = time.perf_counter(), time.process_time()
            if not stamp:                        # the same PNG bytes (or a refusal): nothing sent
                out["no_new_image"] += 1
            shown = repr(control.value)          # after the slider's own rounding
            if shown in seen:                    # rounded onto a value drawn before: not a first visit
                out["revisits"] += 1
                continue
            seen.add(shown)
            done = stamp[-1] if stamp else end
            out[key].append((done[0] - t) * 1000)
            out["cpu"].append((done[1] - c) * 1000)
    out["load"] = os.getloadavg()[0]
    import matplotlib
    out["matplotlib"], out["python"] = matplotlib.__version__, sys.executable
    return out


def summary(row: dict) -> dict:
    every = row["up"] + row["back"]

    def stats(ms):
        return {"p50": float(np.percentile(ms, 50)), "p95": float(np.percentile(ms, 95)), "max": float(max(ms))} \
            if ms else {"p50": float("nan"), "p95": float("nan"), "max": float("nan")}

    return {**{k: row[k] for k in ("widget", "control", "load", "build_s", "revisits", "no_new_image")},
            **{k: row[k] for k in ("matplotlib", "python") if k in row},
            "visits": len(every), "all": stats(every), "up": stats(row["up"]), "back": stats(row["back"]),
            "cpu": stats(row["cpu"]), "each_p95": row.get("each_p95", [stats(every)["p95"]])}


def pooled(runs: list[dict]) -> dict:
    """The walks of one control in several fresh kernels as one row: every first visit, each kernel's p95."""
    row = dict(runs[0])
    for key in ("up", "back", "cpu"):
        row[key] = [v for r in runs for v in r[key]]
    for key in ("revisits", "no_new_image"):
        row[key] = sum(r[key] for r in runs)
    row["load"] = float(np.mean([r["load"] for r in runs]))
    row["build_s"] = float(np.median([r["build_s"] for r in runs]))
    row["each_p95"] = [float(np.percentile(r["up"] + r["back"], 95)) for r in runs if r["up"] + r["back"]]
    return row


def _one_in_fresh_kernel(factory: str, control: str) -> dict:
    """:func:`measure_one` in a new IPython kernel (jupyter_client), as a chapter's cell runs it: the widgets'
    comms are real, so each new image is also serialised and sent to the (absent) front end."""
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3", cwd=str(ROOT), stderr=subprocess.DEVNULL)
    out: list[str] = []

    def keep(msg):
        if msg["header"]["msg_type"] == "stream" and msg["content"]["name"] == "stdout":
            out.append(msg["content"]["text"])
        elif msg["header"]["msg_type"] == "error":
            out.append("ERROR " + "\n".join(msg["content"]["traceback"]))

    code = (f"import sys, json; sys.path.insert(0, {str(Path(__file__).parent)!r}); "
            f"from first_visit import measure_one; print(json.dumps(measure_one({factory!r}, {control!r})))")
    try:
        reply = kc.execute_interactive(code, timeout=600, output_hook=keep)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)
    text = "".join(out)
    if reply["content"]["status"] != "ok" or not text.strip():
        raise RuntimeError(f"{factory}.{control}: {text[-2000:]}")
    return json.loads(text.strip().splitlines()[-1])


def _one_in_fresh_interpreter(factory: str, control: str) -> dict:
    done = subprocess.run([sys.executable, __file__, factory, control], capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise RuntimeError(f"{factory}.{control}: {done.stderr[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def cpu_steal() -> tuple[int, int]:
    """(stolen, total) CPU ticks since boot, from /proc/stat (Linux; (0, 0) elsewhere): on a virtual machine,
    the time the host gave this machine's cores to someone else. A wall-clock p95 measured while it climbs
    includes waiting for the host."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    except (OSError, ValueError, IndexError):
        return 0, 0
    return (fields[7] if len(fields) > 7 else 0), sum(fields[:8])


def bench_first_visits(limit_ms: float = 20.0, kernel: bool = True, only: str | None = None,
                       kernels: int = KERNELS) -> tuple[list[str], list[dict]]:
    """Every control of every widget, each in ``kernels`` fresh kernels (``kernel=False``: plain interpreters,
    no comms), their first visits pooled: the table's lines and the rows' data. ``only``: widgets whose name
    contains it."""
    rows, data = [], []
    load_before, steal_before = os.getloadavg(), cpu_steal()
    for factory in widget_factories():
        if only and only not in factory.__name__:
            continue
        for name in factory().controls:
            s = summary(pooled([_one_in_fresh_kernel(factory.__name__, name) if kernel else
                                _one_in_fresh_interpreter(factory.__name__, name) for _ in range(kernels)]))
            s["ok"] = s["all"]["p95"] <= limit_ms
            print(f"{s['widget']}.{name}: p95 {s['all']['p95']:.1f} ms", file=sys.stderr, flush=True)
            data.append(s)
            rows.append(f"| {s['widget']} | {name} | {s['visits']} | {s['all']['p50']:.1f} | **{s['all']['p95']:.1f}** | "
                        f"{s['all']['max']:.1f} | {' / '.join(f'{v:.1f}' for v in s['each_p95'])} | "
                        f"{s['up']['p95']:.1f} | {s['back']['p95']:.1f} | {s['cpu']['p95']:.1f} | {s['load']:.2f} | "
                        f"{'met' if s['ok'] else '**missed**'} |")
    load_after, steal_after = os.getloadavg(), cpu_steal()
    ticks = steal_after[1] - steal_before[1]
    steal = 100 * (steal_after[0] - steal_before[0]) / ticks if ticks else float("nan")
    met = sum(d["ok"] for d in data)
    worst = max(data, key=lambda d: d["all"]["p95"])
    where = "a fresh IPython kernel (jupyter_client; the widgets' comms send each image)" if kernel else \
        "a fresh Python interpreter (no kernel: the widgets' comms are dummies)"
    head = [f"Each control in {kernels} × {where}: import, build the widget (its first draw), then {PASS} values "
            f"up its range and {PASS} back (the values between), each drawn for the first time; timed from "
            "`control.value = v` to the Image widget's new PNG. The percentiles are over the first visits of all "
            f"{kernels} kernels; *each kernel's p95* gives them one by one. Load average (1, 5, 15 min) on this shared "
            f"2-core machine: {', '.join(f'{x:.2f}' for x in load_before)} before, "
            f"{', '.join(f'{x:.2f}' for x in load_after)} after; the 1-minute load as each control ran is in the "
            "table. On a loaded machine the wall-clock times include waiting for a core; *CPU p95* is the "
            "process's own CPU time per visit (all its threads), which the load barely changes. This is a virtual "
            f"machine: the host took {steal:.1f}% of its CPU time during the section (steal, /proc/stat).", "",
            f"| widget | control | first visits | p50 ms | p95 ms | max ms | each kernel's p95 | way up p95 | "
            f"way back p95 | CPU p95 ms | load | verdict (p95 ≤ {limit_ms:.0f} ms) |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    tail = ["", f"{met} of {len(data)} controls meet the target; the slowest p95 is {worst['all']['p95']:.1f} ms "
            f"({worst['widget']}, {worst['control']})."]
    return head + rows + tail + explain(data), data


def bench_versions(pythons: list[str], limit_ms: float = 20.0, kernel: bool = True,
                   only: str | None = None) -> list[str]:
    """:func:`bench_first_visits` under each interpreter of ``pythons`` (one after the other: each walks every
    control in its own fresh kernels, which run that interpreter), as one table with a column group per
    matplotlib version, the one-minute load of each row, and where the slowest first visits spend their CPU."""
    runs = []
    for python in pythons:
        command = [python, __file__, "--json", *([] if kernel else ["--no-kernel"]), *([only] if only else [])]
        done = subprocess.run(command, stdout=subprocess.PIPE, text=True, cwd=ROOT)   # progress on stderr
        if done.returncode != 0:
            raise RuntimeError(f"{python}: exit {done.returncode}")
        run = json.loads(done.stdout.splitlines()[-1])
        versions = {d.get("matplotlib") for d in run["data"]}
        if len(versions) != 1:                    # a kernel that ran another interpreter than the one asked for
            raise RuntimeError(f"{python}: the kernels ran matplotlib {sorted(map(str, versions))}")
        run["version"] = versions.pop()
        runs.append(run)
    names = [f"matplotlib {r['version']}" for r in runs]
    where = "a fresh IPython kernel (jupyter_client; the widgets' comms send each image)" if kernel else \
        "a fresh Python interpreter (no kernel: the widgets' comms are dummies)"
    head = [f"Each control in {KERNELS} × {where}, under each of {len(runs)} interpreters one after the other ("
            + "; then ".join(f"{n}, Python {r['python_version']}: load average (1, 5, 15 min) "
                             f"{', '.join(f'{x:.2f}' for x in r['load_before'])} before, "
                             f"{', '.join(f'{x:.2f}' for x in r['load_after'])} after, host steal {r['steal']:.1f}%"
                             for n, r in zip(names, runs))
            + f"): import, build the widget (its first draw), then {PASS} values up its range and {PASS} back (the "
            "values between), each drawn for the first time; timed from `control.value = v` to the Image widget's "
            "new PNG and the access widget's new text alternative (the later). The percentiles are over the first "
            f"visits of all {KERNELS} kernels; *CPU p95* is the process's own CPU time per visit, which the load "
            "barely changes; *load* is the 1-minute load average as the row ran, on this shared 2-core machine.", "",
            "| widget | control | first visits | " + " | ".join(
                f"{n}: p50 ms | **p95 ms** | max ms | CPU p95 ms | load" for n in names)
            + f" | verdict (p95 ≤ {limit_ms:.0f} ms) |",
            "|---|---|---|" + "---|---|---|---|---|" * len(runs) + "---|"]
    rows, met = [], 0
    by_run = [{(d["widget"], d["control"]): d for d in r["data"]} for r in runs]
    for key in [(d["widget"], d["control"]) for d in runs[0]["data"]]:
        cells, missed = [], []
        for name, data in zip(names, by_run):
            d = data.get(key)
            if d is None:
                cells.append("– | – | – | – | –")
                missed.append(f"not measured on {name}")
                continue
            cells.append(f"{d['all']['p50']:.1f} | **{d['all']['p95']:.1f}** | {d['all']['max']:.1f} | "
                         f"{d['cpu']['p95']:.1f} | {d['load']:.2f}")
            if not d["all"]["p95"] <= limit_ms:
                missed.append(f"missed on {name} by {d['all']['p95'] - limit_ms:.1f} ms")
        met += not missed
        rows.append(f"| {key[0]} | {key[1]} | {by_run[0][key]['visits']} | " + " | ".join(cells) + " | "
                    + ("met" if not missed else "**" + "; ".join(missed) + "**") + " |")
    tail = ["", f"{met} of {len(rows)} controls meet the target on every version. " + " ".join(
        f"On {n}: {sum(d['all']['p95'] <= limit_ms for d in r['data'])} of {len(r['data'])}, the slowest p95 "
        f"{max(r['data'], key=lambda d: d['all']['p95'])['all']['p95']:.1f} ms "
        f"({max(r['data'], key=lambda d: d['all']['p95'])['widget']}, "
        f"{max(r['data'], key=lambda d: d['all']['p95'])['control']})." for n, r in zip(names, runs))]
    for name, run in zip(names, runs):
        explained = run["lines"][run["lines"].index(next(x for x in run["lines"] if x.startswith("Where the CPU"))):]
        tail += ["", f"On {name}: " + explained[0][0].lower() + explained[0][1:], *explained[1:]]
    return head + rows + tail


def split_one(factory_name: str, control_name: str) -> dict:
    """In this interpreter: the first visits again, each cut in three (CPU ms, medians and p95): the figure's
    update (maths and artists), the blitted frame (or the full draw), the PNG encoding."""
    import dpteach.widgets as w
    from dpteach.plots._png import encode_png

    widget = getattr(w, factory_name)()
    control = widget.controls[control_name]
    up, back = walk(control)
    parts: dict[str, list[float]] = {"update": [], "frame": [], "encode": []}
    for value in up + back:
        args = dict(widget.values(), **{control_name: value})
        t0 = time.process_time()
        widget._update(**args)
        t1 = time.process_time()
        if widget.figure.dynamic:
            pixels = widget.figure.frame()
        else:
            widget.figure.fig.canvas.draw()
            pixels = np.asarray(widget.figure.fig.canvas.buffer_rgba())
        t2 = time.process_time()
        encode_png(pixels)
        t3 = time.process_time()
        for name, took in zip(parts, (t1 - t0, t2 - t1, t3 - t2)):
            parts[name].append(took * 1000)
    return {name: {"p50": float(np.median(v)), "p95": float(np.percentile(v, 95))} for name, v in parts.items()}


def explain(data: list[dict], n: int = 3) -> list[str]:
    """Where the slowest controls' first visits spend their CPU time, each measured in a fresh interpreter."""
    lines = ["", "Where the CPU time of the slowest first visits goes (a fresh interpreter each, the same values; "
             "CPU ms, p50 / p95):", "", "| widget | control | update (maths, artists) | frame (blit) | PNG encoding |",
             "|---|---|---|---|---|"]
    for row in sorted(data, key=lambda d: -d["all"]["p95"])[:n]:
        done = subprocess.run([sys.executable, __file__, "--split", row["widget"], row["control"]], capture_output=True,
                              text=True, cwd=ROOT)
        if done.returncode != 0:
            continue
        s = json.loads(done.stdout.splitlines()[-1])
        lines.append(f"| {row['widget']} | {row['control']} | " + " | ".join(
            f"{s[k]['p50']:.1f} / {s[k]['p95']:.1f}" for k in ("update", "frame", "encode")) + " |")
    return lines


def _profile(factory: str, control: str) -> None:
    import cProfile
    import pstats

    import dpteach.widgets as w

    widget = getattr(w, factory)()
    ctl = widget.controls[control]
    up, back = walk(ctl)
    profiler = cProfile.Profile()
    profiler.enable()
    for value in up + back:
        ctl.value = value
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--profile"]:
        _profile(*args[1:3])
    elif args[:1] == ["--split"]:
        print(json.dumps(split_one(*args[1:3])))
    elif len(args) == 2 and not any(a.startswith("-") for a in args):
        print(json.dumps(measure_one(*args)))
    elif "--python" in args:
        pythons = [args[i + 1] for i, a in enumerate(args) if a == "--python"]
        rest = [a for i, a in enumerate(args) if a != "--python" and (i == 0 or args[i - 1] != "--python")]
        print("\n".join(bench_versions(pythons, kernel="--no-kernel" not in rest,
                                        only=next((a for a in rest if not a.startswith("-")), None))))
    elif "--json" in args:                       # for bench_versions: this interpreter's rows, as JSON
        import platform
        before, steal_before = os.getloadavg(), cpu_steal()
        lines, data = bench_first_visits(kernel="--no-kernel" not in args,
                                         only=next((a for a in args if not a.startswith("-")), None))
        steal_after = cpu_steal()
        ticks = steal_after[1] - steal_before[1]
        print(json.dumps({"lines": lines, "data": data, "load_before": before, "load_after": os.getloadavg(),
                          "steal": 100 * (steal_after[0] - steal_before[0]) / ticks if ticks else float("nan"),
                          "python_version": platform.python_version()}))
    else:
        lines, _ = bench_first_visits(kernel="--no-kernel" not in args,
                                      only=next((a for a in args if not a.startswith("-")), None))
        print("\n".join(lines))
