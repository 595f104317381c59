"""A class dragging sliders at once, through a real hub: what ``make bench-hub`` measures and the tests check.

For each of N students: their server started through the hub's REST API (:class:`~.local.LocalHub`), a
kernel created through the hub's proxy, a chapter's slider cell executed in it (chapter 02's Laplace
density by default), and its ε slider dragged over the proxy's WebSocket, as JupyterLab sends a drag:
``comm_msg`` updates of the slider's model, each timed until the figure's new image comes back (the image
model's ``comm_msg`` with its PNG). Two ways to send:

* ``browser`` (the default): as ipywidgets' front end does, at most one update in flight per slider; a
  value dragged meanwhile waits, and only the newest is sent when the kernel is idle again (a student sees
  the last position, not every one in between);
* ``fixed``: one update every tick whatever happens (a client that does not wait), so that the kernel's
  own handling of a backlog shows.

Each update sent is timed to the first new image after it; a value superseded before any image came is
counted as skipped, not timed. CPU seconds and memory are read from ``/proc`` for each student's server and
kernel (found by ``JUPYTERHUB_USER`` in their environment).
"""

from __future__ import annotations

import asyncio
import json
import os
import struct
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path

#: JupyterLab 4's kernel WebSocket protocol.
V1 = "v1.kernel.websocket.jupyter.org"
#: What each student's kernel runs: a chapter's slider cell (chapter 02, the Laplace density).
CELL = "import dpteach as dp\nw = dp.widgets.laplace_density()\nw"
#: The values the ε slider is dragged through, back and forth (0.1 to 10 on its log scale, round numbers).
DRAG = [round(10 ** (-1 + 2 * i / 40), 2) for i in range(41)]


def _ticks() -> float:
    return os.sysconf("SC_CLK_TCK")


def process_usage(pid: int) -> tuple[float, float]:
    """(CPU seconds, resident MB) of ``pid`` from /proc; (0, 0) when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        rss_pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0.0, 0.0
    return (int(fields[11]) + int(fields[12])) / _ticks(), rss_pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def processes_of(user: str) -> dict[str, list[int]]:
    """``{"server": [...], "kernel": [...]}``: the pids whose environment names ``JUPYTERHUB_USER=user``."""
    mark = f"JUPYTERHUB_USER={user}".encode()
    found: dict[str, list[int]] = {"server": [], "kernel": []}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if mark not in Path(f"/proc/{entry}/environ").read_bytes().split(b"\0"):
                continue
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        found["kernel" if b"ipykernel" in command else "server"].append(int(entry))
    return found


@dataclass
class Drag:
    """One student's drag: the latencies of the updates that got an image (s), and how many were sent/skipped."""

    user: str
    latencies: list[float] = field(default_factory=list)
    sent: int = 0
    skipped: int = 0
    images: int = 0


class Student:
    """One student's kernel, reached through the hub's proxy (REST for the kernel, WebSocket for its channels)."""

    def __init__(self, hub, user: str):
        self.hub, self.user = hub, user
        self.session = uuid.uuid4().hex
        self.models: dict[str, dict] = {}
        self.ws = None
        self.v1 = False
        self.kernel = ""

    async def open(self) -> None:
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect
        request = urllib.request.Request(f"{self.hub.url}/user/{self.user}/api/kernels", method="POST",
                                         data=json.dumps({"name": "python3"}).encode(),
                                         headers={"Authorization": f"token {self.hub.token}"})
        loop = asyncio.get_running_loop()
        def post() -> bytes:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.read()
        reply = await loop.run_in_executor(None, post)
        self.kernel = json.loads(reply)["id"]
        url = (f"ws://127.0.0.1:{self.hub.port}/user/{self.user}/api/kernels/{self.kernel}/channels"
               f"?session_id={self.session}")
        # JupyterLab 4's protocol (the server relays the kernel's frames without decoding their JSON)
        self.ws = await websocket_connect(HTTPRequest(url, headers={"Authorization": f"token {self.hub.token}"},
                                                      connect_timeout=120, request_timeout=120),
                                          max_message_size=64 * 2**20, subprotocols=[V1])
        self.v1 = self.ws.selected_subprotocol == V1

    def send(self, msg_type: str, content: dict, channel: str = "shell") -> str:
        msg_id = uuid.uuid4().hex
        header = {"msg_id": msg_id, "msg_type": msg_type, "username": self.user, "session": self.session,
                  "date": "", "version": "5.3"}
        if self.v1:
            parts = [json.dumps(x).encode() for x in (header, {}, {}, content)]
            name = channel.encode()
            offsets = [8 * (1 + 1 + len(parts) + 1)]
            offsets.append(offsets[-1] + len(name))
            for part in parts:
                offsets.append(offsets[-1] + len(part))
            self.ws.write_message(b"".join([len(offsets).to_bytes(8, "little"),
                                            *(o.to_bytes(8, "little") for o in offsets), name, *parts]), binary=True)
        else:
            self.ws.write_message(json.dumps({"header": header, "parent_header": {}, "metadata": {}, "content": content,
                                              "channel": channel, "buffers": []}))
        return msg_id

    async def receive(self, timeout: float) -> dict:
        frame = await asyncio.wait_for(self.ws.read_message(), timeout)
        if frame is None:
            raise ConnectionError(f"{self.user}'s kernel WebSocket closed")
        if self.v1:
            count = int.from_bytes(frame[:8], "little")
            offsets = [int.from_bytes(frame[8 * (i + 1):8 * (i + 2)], "little") for i in range(count)]
            parts = [frame[a:b] for a, b in zip(offsets[:-1], offsets[1:])] + [frame[offsets[-1]:]]
            header, parent, metadata, content = (json.loads(x) for x in parts[1:5])
            return {"channel": parts[0].decode(), "header": header, "msg_type": header.get("msg_type"),
                    "parent_header": parent, "metadata": metadata, "content": content,
                    "buffers": [b for b in parts[5:] if b]}
        if isinstance(frame, bytes):       # a message with buffers (jupyter_server's binary framing)
            count = struct.unpack("!i", frame[:4])[0]
            offsets = list(struct.unpack("!" + "I" * count, frame[4:4 * (count + 1)])) + [None]
            parts = [frame[a:b] for a, b in zip(offsets[:-1], offsets[1:])]
            message = json.loads(parts[0].decode())
            message["buffers"] = parts[1:]
            return message
        message = json.loads(frame)
        message.setdefault("buffers", [])
        return message

    def _note(self, message: dict) -> None:
        if message.get("msg_type") == "comm_open":
            content = message["content"]
            self.models[content["comm_id"]] = dict(content.get("data", {}).get("state", {}))

    async def run(self, code: str, timeout: float = 120.0) -> None:
        """Execute ``code`` and wait until the kernel is idle again (noting every widget model it opens)."""
        parent = self.send("execute_request", {"code": code, "silent": False, "store_history": False,
                                               "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})
        deadline = time.monotonic() + timeout
        while True:
            message = await self.receive(deadline - time.monotonic())
            self._note(message)
            if message.get("msg_type") == "error":
                raise RuntimeError(f"{self.user}'s cell raised: {message['content'].get('evalue')}")
            if (message.get("msg_type") == "status" and message["content"].get("execution_state") == "idle"
                    and message.get("parent_header", {}).get("msg_id") == parent):
                return

    def model(self, name: str, description: str | None = None) -> str:
        for comm_id, state in self.models.items():
            if state.get("_model_name") == name and (description is None or description in state.get("description", "")):
                return comm_id
        raise LookupError(f"no {name} {description or ''} among {self.user}'s widget models")

    async def drag(self, seconds: float, rate: float = 10.0, mode: str = "browser", slider: str = "ε") -> Drag:
        """Drag the ε slider for ``seconds`` at ``rate`` values a second (see the module docstring)."""
        if mode not in ("browser", "fixed"):
            raise ValueError(f"mode must be 'browser' or 'fixed' (got {mode!r})")
        target = self.model("FloatLogSliderModel", slider)
        image = self.model("ImageModel")
        result = Drag(self.user)
        waiting: list[float] = []          # send times of the updates with no image yet
        pending: dict[str, float] = {}     # (browser) the update in flight, by msg_id
        buffered: list[float] = []         # (browser) the newest value dragged meanwhile
        end = time.monotonic() + seconds
        next_tick, step = time.monotonic(), 0

        def update(value: float) -> str:
            result.sent += 1
            waiting.append(time.monotonic())
            return self.send("comm_msg", {"comm_id": target, "data": {"method": "update", "state": {"value": value},
                                                                       "buffer_paths": []}})

        while time.monotonic() < end or pending or waiting:
            now = time.monotonic()
            if now >= end + 10:
                break
            if now >= next_tick and now < end:
                value = DRAG[step % len(DRAG)] if (step // len(DRAG)) % 2 == 0 else DRAG[-1 - step % len(DRAG)]
                step += 1
                next_tick += 1 / rate
                if mode == "fixed" or not pending:
                    pending[update(value)] = time.monotonic()
                else:
                    buffered[:] = [value]
            try:
                message = await self.receive(max(0.001, min(next_tick, end + 10) - time.monotonic()))
            except asyncio.TimeoutError:
                continue
            kind = message.get("msg_type")
            if kind == "comm_msg" and message["content"].get("comm_id") == image and message["buffers"]:
                arrived = time.monotonic()
                result.images += 1
                if waiting:
                    result.latencies.append(arrived - waiting[-1])
                    result.skipped += len(waiting) - 1
                    waiting.clear()
            elif kind == "status" and message["content"].get("execution_state") == "idle":
                parent = message.get("parent_header", {}).get("msg_id")
                if parent in pending:
                    del pending[parent]
                    if buffered and mode == "browser":
                        pending[update(buffered.pop())] = time.monotonic()
        result.skipped += len(waiting)
        return result

    async def close(self) -> None:
        """Close the WebSocket and shut the kernel down (its memory goes with it)."""
        if self.ws is not None:
            self.ws.close()
        if self.kernel:
            request = urllib.request.Request(f"{self.hub.url}/user/{self.user}/api/kernels/{self.kernel}", method="DELETE",
                                             headers={"Authorization": f"token {self.hub.token}"})

            def delete() -> None:
                with urllib.request.urlopen(request, timeout=60):
                    pass
            await asyncio.get_running_loop().run_in_executor(None, delete)
            self.kernel = ""


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def _cpu(users: list[str]) -> tuple[dict, dict]:
    """CPU seconds of the servers and of the kernels of ``users`` so far, and their usage by user."""
    usage = {user: {kind: [process_usage(pid) for pid in pids] for kind, pids in processes_of(user).items()}
             for user in users}
    return ({kind: sum(cpu for group in usage.values() for cpu, _ in group[kind]) for kind in ("server", "kernel")},
            usage)


async def _class(hub, users: list[str], seconds: float, rate: float, mode: str) -> tuple[list[Drag], dict, dict, float]:
    students = [Student(hub, user) for user in users]
    await asyncio.gather(*(s.open() for s in students))
    await asyncio.gather(*(s.run(CELL) for s in students))
    before, _ = _cpu(users)
    started = time.monotonic()
    drags = await asyncio.gather(*(s.drag(seconds, rate, mode) for s in students))
    wall = time.monotonic() - started
    after, usage = _cpu(users)
    await asyncio.gather(*(s.close() for s in students))
    return list(drags), {kind: after[kind] - before[kind] for kind in after}, usage, wall


def measure(hub, students: int, seconds: float = 10.0, rate: float = 10.0, mode: str = "browser") -> dict:
    """``students`` of the hub's accounts dragging at once; latencies (ms), frames, CPU per image, memory (MB)."""
    users = [f"student{i:02d}" for i in range(1, students + 1)]
    for user in users:
        hub.start_server(user)
    drags, cpu, usage, wall = asyncio.run(_class(hub, users, seconds, rate, mode))
    latencies = [x * 1000 for d in drags for x in d.latencies]
    images = sum(d.images for d in drags)
    kernel_mb = [mb for group in usage.values() for _, mb in group["kernel"]]
    server_mb = [mb for group in usage.values() for _, mb in group["server"]]
    return {"students": students, "mode": mode, "rate": rate, "seconds": seconds, "wall_s": wall,
            "sent": sum(d.sent for d in drags), "images": images, "skipped": sum(d.skipped for d in drags),
            "p50_ms": percentile(latencies, 0.5), "p95_ms": percentile(latencies, 0.95),
            "p99_ms": percentile(latencies, 0.99), "cpu_per_image_ms": 1000 * sum(cpu.values()) / max(1, images),
            "kernel_cpu_per_image_ms": 1000 * cpu["kernel"] / max(1, images),
            "server_cpu_per_image_ms": 1000 * cpu["server"] / max(1, images), "cpu_share": sum(cpu.values()) / wall,
            "kernel_mb": max(kernel_mb) if kernel_mb else float("nan"),
            "server_mb": max(server_mb) if server_mb else float("nan")}
