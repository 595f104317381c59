"""What a student feels in the browser: JupyterLab in headless Chromium, a slider moved two ways.

* **keypress → new image**: focus a slider's handle, press ArrowRight, and time (in the page,
  with performance.now()) from the keydown to the figure's <img src> changing; repeated, so
  the p50 and p95 are over many presses. Each press waits for its image before the next.
* **drag settle lag**: drag the handle across the whole track quickly with the mouse (as a
  student sweeps ε) and time from the mouse release to the last image change, after which
  the figure shows the slider's final value. Also reported: how many frames arrived during
  the drag.

Used by benchmarks/run.py (`make bench`); also runs alone: `python benchmarks/browser.py`.
Needs Debian's Chromium (never a downloaded browser).
"""

from __future__ import annotations

import shutil
import statistics
import time
from pathlib import Path

from dpteach.build.labserver import open_notebook, run_all, running_lab

ROOT = Path(__file__).resolve().parent.parent

#: chapter and which slider (0 = the first in the chapter) to time
TARGETS = [("00_start_here", 0), ("03_laplace_mechanism", 0)]

WATCH = """([slider]) => {
    const box = slider.closest('.widget-vbox').parentElement.closest('.widget-vbox');
    const img = box.querySelector('.widget-image');
    window.__keys = []; window.__frames = [];
    document.addEventListener('keydown', () => window.__keys.push(performance.now()), true);
    new MutationObserver(() => window.__frames.push(performance.now()))
        .observe(img, {attributes: true, attributeFilter: ['src']});
    return !!img;
}"""


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def measure(page, index: int, presses: int = 40) -> dict:
    slider = page.locator(".widget-slider").nth(index)
    slider.scroll_into_view_if_needed()
    assert page.evaluate(WATCH, [slider.element_handle()]), "no figure image next to the slider"
    handle = slider.locator(".noUi-handle")
    handle.focus()
    latencies = []
    for i in range(presses):
        key = "ArrowRight" if (i // 10) % 2 == 0 else "ArrowLeft"   # walk back and forth
        before = page.evaluate("window.__frames.length")
        handle.press(key)
        page.wait_for_function(f"window.__frames.length > {before}", timeout=20_000)
        latencies.append(page.evaluate("window.__frames[window.__frames.length - 1] - "
                                       "window.__keys[window.__keys.length - 1]"))
        time.sleep(0.05)
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
    return {"presses": presses, "p50_ms": statistics.median(latencies), "p95_ms": _percentile(latencies, 95),
            "drag_frames": len(frames) - start_frames, "settle_ms": settle}


def bench_browser() -> tuple[list[str], list[dict]]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        return ["Skipped: the browser benchmark needs Chromium (`apt-get install -y chromium`)."], []
    from playwright.sync_api import sync_playwright

    rows, data = [], []
    with running_lab(root=ROOT) as lab, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        try:
            for chapter, index in TARGETS:
                page, errors = open_notebook(browser, lab, f"notebooks/{chapter}.ipynb")
                run_all(page, chapter)
                result = measure(page, index)
                ok = result["p95_ms"] <= 100 and result["settle_ms"] <= 100
                data.append({"chapter": chapter, "slider": index, **result, "ok": ok, "errors": errors})
                rows.append(f"| {chapter} | {index} | {result['p50_ms']:.0f} | {result['p95_ms']:.0f} | "
                            f"{result['drag_frames']} | {result['settle_ms']:.0f} | {'met' if ok else '**missed**'} |")
                page.close()
        finally:
            browser.close()
    head = ["| chapter | slider | keypress → image p50 ms | p95 ms | frames during a fast drag | settle after release ms "
            "| verdict (p95 and settle ≤ 100 ms) |", "|---|---|---|---|---|---|---|"]
    return head + rows, data


if __name__ == "__main__":
    lines, _ = bench_browser()
    print("\n".join(lines))
