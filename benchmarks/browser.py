"""What a student feels in the browser: JupyterLab in headless Chromium, a slider moved two ways.

* **keypress → new image**: focus a slider's handle, press ArrowRight, and time (in the page,
  with performance.now()) from the keydown to the figure's <img src> changing, or to its alt
  (the text alternative a screen reader reads, set by dpteach's access widget) if that comes
  later; repeated, so
  the p50 and p95 are over many presses. Each press waits for its image before the next. Each
  chapter is opened, run and timed PAGE_LOADS times and the presses pooled: the p95 of one load's
  34 presses is its third worst, and one garbage collection in the page moves it.
* **where a press's time goes** (in the page, performance.now()): keydown → the slider's change
  leaves on the kernel's WebSocket (the front end) → the message carrying the new PNG arrives
  (the kernel: the round trip, the maths, the frame, the encoding) → the <img> gets its new src
  (ipywidgets unpacks the message) → the image is decoded → the next animation frame (painted).
  The WebSocket is wrapped by a script that runs before the lab's own code.
* **through the server, no browser**: a Python WebSocket client in the browser's place sends the
  slider's new value (the comm message the front end sends) and times the arrival of the new
  image, with the lab as `make lab` runs it (TCP_NODELAY on the kernel WebSocket,
  dpteach.publish.websocket) and with jupyter_server's own connection class (Nagle's algorithm
  on): what the server's relay costs, without the browser's own work on the same two cores.
* **whose CPU a press takes**: from just before each key to just after its image, the CPU time of
  the kernel, the server and each of Chromium's processes (Linux /proc): on two cores, the browser's
  own work for a press (the slider's new position, the kernel's busy/idle status, the image) competes
  with the kernel drawing it.
* **drag settle lag**: drag the handle across the whole track quickly with the mouse (as a
  student sweeps ε) and time from the mouse release to the last image change, after which
  the figure shows the slider's final value. Also reported: how many frames arrived during
  the drag.

Used by benchmarks/run.py (`make bench`); also runs alone: `python benchmarks/browser.py`.
Needs Debian's Chromium (never a downloaded browser).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import statistics
import struct
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))    # the lab server the browser tests use (tests/labserver.py, not in the wheel)
from labserver import open_notebook, run_all, running_lab  # noqa: E402

#: chapter and which slider (0 = the first in the chapter) to time
TARGETS = [("00_start_here", 0), ("03_laplace_mechanism", 0)]
#: how many times each chapter is opened, run and timed: the p95 is over the presses of all of them
PAGE_LOADS = 3

#: Runs before the lab's code: every WebSocket frame sent and received, with its time and size.
WIRE = """(() => {
    window.__wire = [];
    const size = (d) => d.byteLength ?? d.size ?? d.length ?? 0;
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
        window.__wire.push(['sent', performance.now(), size(data)]);
        return send.call(this, data);
    };
    const Native = window.WebSocket;
    function Wrapped(...args) {
        const ws = new Native(...args);
        ws.addEventListener('message', (e) => window.__wire.push(['received', performance.now(), size(e.data)]));
        return ws;
    }
    Wrapped.prototype = Native.prototype;
    for (const k of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) Wrapped[k] = Native[k];
    window.WebSocket = Wrapped;
})();"""

WATCH = """([slider]) => {
    const box = slider.closest('.widget-vbox').parentElement.closest('.widget-vbox');
    const img = box.querySelector('.widget-image');
    window.__keys = []; window.__frames = []; window.__decoded = []; window.__painted = []; window.__waiting = [];
    window.__texts = [];
    document.addEventListener('keydown', () => window.__keys.push(performance.now()), true);
    new MutationObserver((records) => {
        const now = performance.now();
        // the figure's text alternative (set by dpteach's access widget, a message after the image's)
        if (records.some((r) => r.attributeName === 'alt')) window.__texts.push(now);
        if (!records.some((r) => r.attributeName === 'src')) return;
        const n = window.__frames.push(now) - 1;
        window.__waiting.splice(0).forEach((wake) => wake());
        img.decode().then(() => {
            window.__decoded[n] = performance.now();
            requestAnimationFrame(() => { window.__painted[n] = performance.now(); });
        }).catch(() => {});
    }).observe(img, {attributes: true, attributeFilter: ['src', 'alt']});
    return !!img;
}"""

#: Resolves once the figure has more than ``n`` frames (true), or after ``ms`` without (false). Woken by the
#: MutationObserver above, not by polling: Playwright's wait_for_function polls on every animation frame, which
#: keeps the page rendering 60 frames a second on the same two cores the kernel needs.
NEXT_FRAME = """([n, ms]) => new Promise((resolve) => {
    if (window.__frames.length > n) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    window.__waiting.push(() => { clearTimeout(timer); resolve(true); });
})"""

#: the message that carries a new PNG: larger than any other the kernel sends while a slider moves
IMAGE_BYTES = 5_000


def _split(page, key: float, frame: float) -> dict:
    """One press's phases, in ms: keydown → sent → image message received → src set → decoded → painted."""
    wire = page.evaluate("window.__wire")
    sent = next((t for kind, t, _ in wire if kind == "sent" and t >= key), float("nan"))
    received = next((t for kind, t, n in wire if kind == "received" and t >= sent and n >= IMAGE_BYTES), float("nan"))
    page.wait_for_function("window.__painted.length === window.__frames.length && "
                           "window.__painted[window.__painted.length - 1] !== undefined", polling=10, timeout=5_000)
    decoded = page.evaluate("window.__decoded[window.__decoded.length - 1]")
    painted = page.evaluate("window.__painted[window.__painted.length - 1]")
    return {"front end: key → sent": sent - key, "kernel: sent → image received": received - sent,
            "front end: received → src": frame - received, "decode": decoded - frame, "paint": painted - decoded,
            "key → painted": painted - key}


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def _kind(cmdline: str) -> str | None:
    """Which part of the stack a process is, by its command line."""
    if "ipykernel" in cmdline:
        return "kernel"
    if "jupyter-lab" in cmdline or "jupyter lab" in cmdline:
        return "server"
    if "chrom" in cmdline and "playwright" not in cmdline.split()[0]:
        kind = cmdline.split("--type=")[1].split()[0] if "--type=" in cmdline else "browser"
        return f"Chromium {kind}"
    return None


def _descendants_cpu() -> dict[str, float]:
    """CPU seconds so far (user + system) of this process's descendants, by :func:`_kind`: the lab server and its
    kernels, Chromium's processes (Linux /proc; empty elsewhere)."""
    parent, kind = {}, {}
    try:
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            parent[pid] = (fields[1], (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"))
            kind[pid] = _kind(cmdline)
    except OSError:
        return {}
    me, out = str(os.getpid()), {}
    for pid, (ppid, cpu) in parent.items():
        up = ppid
        while up in parent and up != me:
            up = parent[up][0]
        if up == me and kind[pid]:
            out[kind[pid]] = out.get(kind[pid], 0.0) + cpu
    return out


def measure(page, index: int, presses: int = 40) -> dict:
    slider = page.locator(".widget-slider").nth(index)
    slider.scroll_into_view_if_needed()
    assert page.evaluate(WATCH, [slider.element_handle()]), "no figure image next to the slider"
    handle = slider.locator(".noUi-handle")
    knob = handle.element_handle()
    latencies, splits, unchanged, refocused, cpu = [], [], 0, 0, {}
    for i in range(presses):
        key = "ArrowRight" if (i // 10) % 2 == 0 else "ArrowLeft"   # walk back and forth
        before = page.evaluate("window.__frames.length")
        page.evaluate("window.__wire.length = 0")
        # the key goes to the focused handle, as a student's does; Playwright's locator.press would first
        # resolve the locator's selector chain and focus the element again, work in the page a keypress does
        # not cause
        refocused += knob.evaluate("(h) => document.activeElement !== h && (h.focus(), true)")
        cpu_before = _descendants_cpu()
        page.keyboard.press(key)
        if not page.evaluate(NEXT_FRAME, [before, 3_000]):   # the kernel rounded the value back to where it was
            unchanged += 1                                 # (a log slider's 3 figures), or the track's end
            if unchanged > presses // 4:
                raise RuntimeError(f"{unchanged} of {presses} presses left the figure unchanged")
            continue
        for name, seconds in _descendants_cpu().items():
            cpu[name] = cpu.get(name, 0.0) + seconds - cpu_before.get(name, 0.0)
        pressed, shown = page.evaluate("[window.__keys[window.__keys.length - 1], "
                                       "window.__frames[window.__frames.length - 1]]")
        splits.append(_split(page, pressed, shown))
        time.sleep(0.05)
        # the press ends when the figure shows both its new image and its new text (when its text changed)
        text = page.evaluate("(k) => window.__texts.filter((t) => t >= k).pop() ?? null", pressed)
        latencies.append(max(shown, text if text is not None else shown) - pressed)
    # a fast drag from one end of the track to the other, ~250 ms, then release
    track = slider.locator(".noUi-base").bounding_box()
    box = handle.bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] / 2, y)
    page.mouse.down()
    page.mouse.move(track["x"] + 1, y, steps=5)
    start_frames = page.evaluate("window.__frames.length")
    steps = 25
    for s in range(steps + 1):
        page.mouse.move(track["x"] + track["width"] * s / steps, y)
        time.sleep(0.01)
    released = page.evaluate("performance.now()")
    page.mouse.up()
    last, quiet_since = page.evaluate("window.__frames.length"), time.monotonic()
    while time.monotonic() - quiet_since < 2.0:             # settled: no new frame for 2 s
        time.sleep(0.05)
        now = page.evaluate("window.__frames.length")
        if now != last:
            last, quiet_since = now, time.monotonic()
    frames = page.evaluate("window.__frames")
    settle = max(0.0, frames[-1] - released) if frames else float("nan")
    return {"latencies": latencies, "splits": splits, "unchanged_presses": unchanged, "refocused": refocused,
            "cpu_seconds": cpu, "drag_frames": len(frames) - start_frames, "settle_ms": settle}


def pool(loads: list[dict]) -> dict:
    """One chapter's presses over its page loads, pooled: the p50 and p95 are over every press of every load
    (a p95 over 34 presses is their third worst, and one load's garbage collection or host noise moves it),
    with each load's own p95 beside them. A fast drag is done once per load: its fewest frames and longest
    settle are kept."""
    latencies = [ms for load in loads for ms in load["latencies"]]
    splits = [split for load in loads for split in load["splits"]]
    cpu: dict[str, float] = {}
    for load in loads:
        for name, seconds in load["cpu_seconds"].items():
            cpu[name] = cpu.get(name, 0.0) + seconds
    return {"page_loads": len(loads), "presses": len(latencies), "p50_ms": statistics.median(latencies),
            "p95_ms": _percentile(latencies, 95), "p95_ms_each_load": [_percentile(load["latencies"], 95) for load in loads],
            "painted_p95_ms": _percentile([s["key → painted"] for s in splits], 95),
            "phases_median_ms": {name: statistics.median(s[name] for s in splits) for name in splits[0]},
            "drag_frames": min(load["drag_frames"] for load in loads), "settle_ms": max(load["settle_ms"] for load in loads),
            "unchanged_presses": [load["unchanged_presses"] for load in loads],
            "refocused": sum(load["refocused"] for load in loads),
            "latencies_ms": [[round(ms, 1) for ms in load["latencies"]] for load in loads],
            "cpu_ms_per_press": {name: 1000 * s / len(latencies) for name, s in sorted(cpu.items(), key=lambda kv: -kv[1])}}


#: jupyter_server's own kernel WebSocket connection (Nagle's algorithm on), for the comparison
PLAIN_CONNECTION = "jupyter_server.services.kernels.connection.channels.ZMQChannelsWebsocketConnection"


def _message(msg_type: str, content: dict) -> str:
    header = {"msg_id": uuid.uuid4().hex, "username": "bench", "session": uuid.uuid4().hex, "msg_type": msg_type,
              "version": "5.3", "date": ""}
    return json.dumps({"header": header, "parent_header": {}, "metadata": {}, "content": content, "channel": "shell",
                       "buffers": []})


def _parse(frame) -> tuple[dict, int]:
    """A kernel message from the server's WebSocket (JSON text, or binary with buffers): (message, buffers)."""
    if isinstance(frame, bytes):
        n = struct.unpack("!I", frame[:4])[0]
        offsets = struct.unpack(f"!{n}I", frame[4:4 + 4 * n])
        return json.loads(frame[offsets[0]:offsets[1]]), n - 1
    return json.loads(frame), 0


async def _round_trips(base: str, token: str, values) -> list[float]:
    from tornado.websocket import websocket_connect

    request = urllib.request.Request(f"{base}/api/kernels?token={token}", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as reply:
        kernel = json.load(reply)["id"]
    ws = await websocket_connect(f"{base.replace('http', 'ws', 1)}/api/kernels/{kernel}/channels?token={token}")
    await ws.write_message(_message("execute_request", {
        "code": "import dpteach.widgets as w; W = w.laplace_density(); "
                "print(W.controls['epsilon'].model_id, W.image.model_id)",
        "silent": False, "store_history": False, "user_expressions": {}, "allow_stdin": False}))
    text = ""
    while True:
        message, _ = _parse(await ws.read_message())
        if message["msg_type"] == "stream":
            text += message["content"]["text"]
        elif message["msg_type"] == "error":
            raise RuntimeError("\n".join(message["content"]["traceback"]))
        elif message["msg_type"] == "status" and message["content"]["execution_state"] == "idle" and text:
            break
    slider, image = text.split()
    out = []
    for value in values:
        await ws.write_message(_message("comm_msg", {"comm_id": slider, "data": {
            "method": "update", "state": {"value": float(value)}, "buffer_paths": []}}))
        sent = time.perf_counter()
        while True:
            message, buffers = _parse(await ws.read_message())
            if message["msg_type"] == "comm_msg" and message["content"]["comm_id"] == image and buffers:
                out.append((time.perf_counter() - sent) * 1000)
                break
        await asyncio.sleep(0.05)
        while True:                                       # the rest of this change's messages
            try:
                await asyncio.wait_for(ws.read_message(), 0.02)
            except asyncio.TimeoutError:
                break
    ws.close()
    return out


def server_round_trip(nodelay: bool = True, presses: int = 40) -> dict:
    """laplace_density's ε set through the lab's kernel WebSocket, each value new: value sent → image received."""
    import numpy as np

    extra = () if nodelay else (f"--ServerApp.kernel_websocket_connection_class={PLAIN_CONNECTION}",)
    with running_lab(root=ROOT, extra=extra) as (base, token):
        ms = asyncio.run(_round_trips(base, token, np.linspace(0.2, 4.9, presses)))
    return {"nodelay": nodelay, "presses": len(ms), "p50_ms": statistics.median(ms), "p95_ms": _percentile(ms, 95)}


def bench_server() -> tuple[list[str], list[dict]]:
    data = [server_round_trip(nodelay) for nodelay in (True, False)]
    lines = ["Through the server, no browser (laplace_density's ε, 40 new values, a Python WebSocket client in the "
             "browser's place; value sent → new image received):", "",
             "| kernel WebSocket | p50 ms | p95 ms |", "|---|---|---|"]
    for d in data:
        name = "TCP_NODELAY (dpteach.publish.websocket, as `make lab` runs it)" if d["nodelay"] else \
            "jupyter_server's default (Nagle's algorithm on)"
        lines.append(f"| {name} | {d['p50_ms']:.1f} | {d['p95_ms']:.1f} |")
    return lines, data


def bench_browser() -> tuple[list[str], list[dict]]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        return ["Skipped: the browser benchmark needs Chromium (`apt-get install -y chromium`)."], []
    from playwright.sync_api import sync_playwright

    rows, data, split = [], [], []
    # the lab serves a scratch copy of notebooks/: JupyterLab autosaves an open notebook (and jupytext its
    # paired text), which must never reach the repository's chapters
    with tempfile.TemporaryDirectory(prefix="dpteach-bench-") as scratch:
        shutil.copytree(ROOT / "notebooks", Path(scratch) / "notebooks")
        with running_lab(root=Path(scratch)) as lab, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, headless=True, args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run"])
            try:
                for chapter, index in TARGETS:
                    loads, errors = [], []
                    for _ in range(PAGE_LOADS):
                        page, page_errors = open_notebook(browser, lab, f"notebooks/{chapter}.ipynb", init_script=WIRE)
                        run_all(page, chapter)
                        loads.append(measure(page, index))
                        page.close()
                        errors += page_errors
                    result = pool(loads)
                    ok = result["p95_ms"] <= 50 and result["settle_ms"] <= 100
                    data.append({"chapter": chapter, "slider": index, **result, "ok": ok, "errors": errors})
                    rows.append(f"| {chapter} | {index} | {result['presses']} | {result['p50_ms']:.0f} | "
                                f"{result['p95_ms']:.0f} | " + " / ".join(f"{ms:.0f}" for ms in result["p95_ms_each_load"])
                                + f" | {result['painted_p95_ms']:.0f} | {result['drag_frames']} | "
                                f"{result['settle_ms']:.0f} | {'met' if ok else '**missed**'} |")
                    split.append(f"| {chapter} | " + " | ".join(f"{v:.1f}" for v in result["phases_median_ms"].values())
                                 + " |")
            finally:
                browser.close()
    head = [f"Each chapter is opened and run {PAGE_LOADS} times, 40 key presses each; the p50 and p95 are over the "
            "presses of every load (those that changed the figure), each load's own p95 beside them.", "",
            "| chapter | slider | presses | keypress → image p50 ms | p95 ms | p95 of each load | keypress → painted p95 ms "
            "| frames during a fast drag | settle after release ms | verdict (image p95 ≤ 50 ms, settle ≤ 100 ms) |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    names = list(data[0]["phases_median_ms"]) if data else []
    tail = ["", "Where a press's time goes (medians over the presses, ms; 'image' above is the src change, "
            "'painted' the next animation frame after the image is decoded):", "",
            "| chapter | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|", *split]
    used = {k: sum(d["cpu_ms_per_press"].get(k, 0.0) for d in data) for d in data for k in d["cpu_ms_per_press"]}
    kinds = sorted((k for k, ms in used.items() if ms >= 0.05), key=lambda k: -used[k])
    if kinds:   # Linux only (/proc)
        tail += ["", "Whose CPU a press takes: CPU ms per press by process, summed from just before the key to just "
                 "after its image (the kernel and the browser share this machine's cores; the browser benchmark's "
                 "own driver is left out):", "", "| chapter | " + " | ".join(kinds) + " | total |",
                 "|---" * (len(kinds) + 2) + "|"]
        tail += [f"| {d['chapter']} | " + " | ".join(f"{d['cpu_ms_per_press'].get(k, 0.0):.1f}" for k in kinds)
                 + f" | {sum(d['cpu_ms_per_press'].values()):.1f} |" for d in data]
    server_lines, server_data = bench_server()
    return head + rows + (tail if data else []) + ["", *server_lines], data + server_data


if __name__ == "__main__":
    lines, _ = bench_browser()
    print("\n".join(lines))
