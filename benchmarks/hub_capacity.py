"""A class on a hub: students dragging a slider at once through a real JupyterHub, and a chapter's kernel's memory.

``make bench-hub STUDENTS="1 5 10 20"`` (``benchmarks/run.py --hub-only``): a demo hub
(:class:`dpteach.hub.local.LocalHub`, configurable-http-proxy in front), N students' servers started through
its REST API, chapter 02's Laplace-density cell run in each kernel, and its ε slider dragged for 10 s at ten
values a second over the proxy's WebSocket (:mod:`dpteach.hub.load`), twice: as JupyterLab sends a drag (one
update in flight per slider, the newest sent when the kernel is idle), and with one update every 100 ms
whatever happens (the kernel then draws only the newest of a backlog: the frames skipped). Then each chapter
executed top to bottom in a kernel started with the hub's environment, its resident memory read after Run
All. The sizing table the hub configurations take their sizes from is computed from these.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
#: The latency a drag must keep for the sizing table: at most this at the 95th percentile (ms).
TARGET_P95_MS = 50.0


def chapter_memory() -> dict[str, float]:
    """Each chapter's kernel, with the hub's environment (its malloc settings), after Run All: resident MB."""
    from jupyter_core.utils import run_sync
    from nbclient import NotebookClient

    from dpteach.hub.load import process_usage
    lean = {"MALLOC_ARENA_MAX": "1", "MALLOC_TRIM_THRESHOLD_": "131072"}
    found = {}
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        client = NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}})
        client.km = client.create_kernel_manager()
        client.km.transport = "ipc"                       # as the hub's kernels run (and no port races)
        sockets = tempfile.mkdtemp(prefix="dpteach-ipc-")
        client.km.ip = os.path.join(sockets, "kernel")   # absolute: the kernel runs in notebooks/, this process not
        client.start_new_kernel(env=dict(os.environ, **lean))
        try:
            client.start_new_kernel_client()
            for index, cell in enumerate(nb.cells):
                if cell.cell_type == "code":
                    client.execute_cell(cell, index)
            found[path.stem] = process_usage(client.km.provisioner.process.pid)[1]
        finally:
            if client.kc is not None:
                client.kc.stop_channels()
            run_sync(client.km.shutdown_kernel)(now=True)
            shutil.rmtree(sockets, ignore_errors=True)
    return found


def bench_hub(students: tuple[int, ...] = (1, 5, 10, 20), seconds: float = 10.0) -> tuple[list[str], dict]:
    from dpteach.hub.load import measure
    from dpteach.hub.local import LocalHub
    cores = os.cpu_count() or 1
    runs = []
    with LocalHub(max(students)) as hub:
        for n in students:
            for mode in ("browser", "fixed"):
                runs.append(measure(hub, n, seconds, mode=mode))
    memory = chapter_memory()
    rows = [f"| {r['students']} | {r['mode']} | {r['p50_ms']:.1f} | **{r['p95_ms']:.1f}** | {r['p99_ms']:.1f} | "
            f"{r['sent']} | {r['images']} | {r['skipped']} | {r['cpu_per_image_ms']:.1f} "
            f"({r['kernel_cpu_per_image_ms']:.1f} + {r['server_cpu_per_image_ms']:.1f}) | {r['kernel_mb']:.0f} | "
            f"{r['server_mb']:.0f} |" for r in runs]
    browser = [r for r in runs if r["mode"] == "browser"]
    fitting = [r["students"] for r in browser if r["p95_ms"] <= TARGET_P95_MS]
    per_core = max(fitting) / cores if fitting else 0.0
    server_mb = max(r["server_mb"] for r in runs)
    per_student_mb = max(memory.values()) + server_mb
    lines = [f"A demo JupyterHub (configurable-http-proxy in front) on this machine ({cores} cores); each student's "
             f"server started through the hub's API, chapter 02's Laplace-density cell run in its kernel, and its ε "
             f"slider dragged for {seconds:g} s at 10 values a second over the proxy's WebSocket (JupyterLab's "
             "protocol), each value timed to its new image. *browser*: as JupyterLab sends a drag (one update in "
             "flight, the newest sent when the kernel is idle); *fixed*: one update every 100 ms whatever happens "
             "(the kernel then draws only the newest of a backlog: *skipped*). CPU per image: the students' servers "
             "and kernels (kernel + server), not the proxy or this client.", "",
             "| students dragging at once | sending | p50 (ms) | p95 (ms) | p99 (ms) | values sent | images | "
             "skipped | CPU per image (ms) | kernel (MB) | server (MB) |",
             "|---|---|---|---|---|---|---|---|---|---|---|", *rows, "",
             "Each chapter's kernel after Run All, with the hub's malloc settings (MB): " + ", ".join(
                 f"{stem[:2]} {mb:.0f}" for stem, mb in memory.items()) + f"; the largest {max(memory.values()):.0f} "
             f"(goal ≤ 150: {'met' if max(memory.values()) <= 150 else 'missed'}).", "",
             "**Sizing** (what hub/jupyterhub_config.py and hub/config.yaml take their sizes from):", "",
             "| measure | value |", "|---|---|",
             f"| students dragging at once per core with p95 ≤ {TARGET_P95_MS:.0f} ms (as JupyterLab sends) | "
             f"{per_core:g} ({max(fitting) if fitting else 0} of those measured on {cores} cores) |",
             f"| memory per student (largest chapter's kernel + its server) | {per_student_mb:.0f} MB |",
             f"| goal: 20 students dragging at once on these {cores} cores, p95 ≤ {TARGET_P95_MS:.0f} ms | "
             f"{'met' if any(r['students'] >= 20 for r in browser if r['p95_ms'] <= TARGET_P95_MS) else 'missed'} |"]
    return lines, {"runs": runs, "chapter_memory_mb": memory, "students_per_core": per_core,
                   "memory_per_student_mb": per_student_mb}
