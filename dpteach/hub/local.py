"""A demo JupyterHub on this machine: ``hub/jupyterhub_config.py`` in demo mode, started and stopped from Python.

``make hub`` runs one for an instructor to try (``python -m dpteach.hub demo``); the tests and ``make
bench-hub`` use :class:`LocalHub` as a context manager. Every process the hub starts (the proxy, the idle
culler, each student's server and its kernels) carries ``DPTEACH_HUB_STATE=<its state folder>`` in its
environment, so that :meth:`LocalHub.leftovers` can find any of them after the hub stops.

Needs the hub's packages in the venv (``requirements/hub.lock.txt``) and configurable-http-proxy from the
npm registry in ``build/hub/node_modules`` (``make hub`` installs both).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from ..publish.paths import Project


class _PortTaken(Exception):
    """The hub or its proxy could not bind a port found free a moment before (another process took it)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalHub:
    """A demo hub with ``users`` student accounts (``student01`` …), on ``port`` of 127.0.0.1.

    ``api(method, path, body)`` calls its REST API with a service token whose role may start and stop
    servers and reach them (``admin:users``, ``admin:servers``, ``access:servers``).
    """

    def __init__(self, users: int = 2, port: int | None = None, state: Path | None = None,
                 project: Project | None = None):
        if isinstance(users, bool) or not isinstance(users, int) or not 1 <= users <= 500:
            raise ValueError(f"users must be a whole number in [1, 500] (got {users!r})")
        self.project = project or Project()
        self.users = users
        self.port = port or free_port()
        self._own_port = port is None
        self._own_state = state is None      # a folder of its own, removed when the hub stops without an error
        self.state = Path(state or self.project.build / "hub" / f"state-{self.port}").resolve()
        self.token = secrets.token_hex(16)
        self.process: subprocess.Popen | None = None
        self._log = None
        self.url = f"http://127.0.0.1:{self.port}"

    @property
    def proxy(self) -> Path:
        return self.project.build / "hub" / "node_modules" / ".bin" / "configurable-http-proxy"

    def start(self, timeout: float = 90.0, quiet: bool = True, attempts: int = 3) -> LocalHub:
        """Start the hub and wait until its API answers. Its own API and the proxy's take free ports of their own;
        a port another process took between being found free and being bound (EADDRINUSE in the log) is tried
        again with new ports, ``attempts`` times in all (the public port too, unless it was given)."""
        if not self.proxy.exists():
            raise RuntimeError(f"configurable-http-proxy is not installed ({self.proxy}): run `make hub` once "
                               "(it comes from the npm registry)")
        for attempt in range(1, attempts + 1):
            try:
                return self._start(timeout, quiet)
            except _PortTaken:
                self.stop()
                if attempt == attempts:
                    tries = f"{attempts} attempt{'s' if attempts > 1 else ''}"
                    raise RuntimeError(f"the hub found no free ports in {tries}: see "
                                       f"{self.state / 'jupyterhub.log'}") from None
                if self._own_port:
                    self.port = free_port()
                    self.url = f"http://127.0.0.1:{self.port}"
        raise AssertionError("unreachable")

    def _start(self, timeout: float, quiet: bool) -> LocalHub:
        self.state.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, DPTEACH_HUB="demo", DPTEACH_HUB_USERS=str(self.users), DPTEACH_HUB_PORT=str(self.port),
                   DPTEACH_HUB_API_PORT=str(free_port()), DPTEACH_HUB_PROXY_API_PORT=str(free_port()),
                   DPTEACH_HUB_STATE=str(self.state), DPTEACH_HUB_TOKEN=self.token)
        if self._log is not None:
            self._log.close()
        log = self._log = open(self.state / "jupyterhub.log", "ab") if quiet else None     # (closed in stop)
        self._log_start = log.tell() if log is not None else 0     # this attempt's part of the log
        self.process = subprocess.Popen([str(Path(sys.executable).parent / "jupyterhub"), "-f",
                                         str(self.project.root / "hub" / "jupyterhub_config.py")],
                                        cwd=self.state, env=env, start_new_session=True, stdout=log,
                                        stderr=subprocess.STDOUT if quiet else None)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            said = (self.state / "jupyterhub.log").read_bytes()[self._log_start:] if quiet else b""
            if b"EADDRINUSE" in said or b"Address already in use" in said:    # the proxy's words, Python's
                raise _PortTaken()         # (the hub may wait on: another process answers at the port it was given)
            if self.process.poll() is not None:
                raise RuntimeError(f"the hub stopped at start (exit {self.process.returncode}): see "
                                   f"{self.state / 'jupyterhub.log'}")
            try:
                self.api("GET", "/hub/api/")
                return self
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"the hub did not answer within {timeout:g} s: see {self.state / 'jupyterhub.log'}")

    def api(self, method: str, path: str, body: dict | None = None) -> dict:
        request = urllib.request.Request(self.url + path, method=method,
                                         data=json.dumps(body).encode() if body is not None else None,
                                         headers={"Authorization": f"token {self.token}",
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read().decode()
        return json.loads(text) if text else {}

    def start_server(self, user: str, timeout: float = 120.0) -> str:
        """Start ``user``'s server through the REST API and wait until it answers; its URL prefix."""
        try:
            self.api("POST", f"/hub/api/users/{user}/server")
        except urllib.error.HTTPError as error:
            if error.code != 400:              # 400: already running
                raise
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            model = self.api("GET", f"/hub/api/users/{user}")
            server = model.get("servers", {}).get("", {})
            if server.get("ready"):
                return server["url"]
            time.sleep(0.5)
        raise RuntimeError(f"{user}'s server did not start within {timeout:g} s")

    def stop(self, timeout: float = 30.0) -> None:
        """Stop the hub (it stops every server it started), then kill whatever of it is left."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        for pid in self.leftovers():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if self._log is not None:
            self._log.close()
            self._log = None
        shutil.rmtree(f"/tmp/dpteach-hub-{self.port}", ignore_errors=True)     # the kernels' sockets (the config's)

    def leftovers(self) -> list[int]:
        """Processes of this hub still running (found by the state folder in their environment)."""
        mark = f"DPTEACH_HUB_STATE={self.state}".encode()
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit() and int(entry) != os.getpid():
                try:
                    environ = Path(f"/proc/{entry}/environ").read_bytes()
                except OSError:
                    continue
                if mark in environ.split(b"\0"):
                    found.append(int(entry))
        return found

    def __enter__(self) -> LocalHub:
        return self.start()

    def __exit__(self, kind, *exc) -> None:
        self.stop()
        if self._own_state and kind is None:     # kept after an error: its jupyterhub.log says what happened
            shutil.rmtree(self.state, ignore_errors=True)


def demo(users: int = 5, port: int = 8000) -> int:
    """``make hub``: a demo hub until Ctrl+C, saying where it is and how to log in."""
    hub = LocalHub(users, port, state=Project().build / "hub" / "demo")
    hub.start(quiet=False)
    print(f"\nA demo JupyterHub is running at {hub.url}/ (Ctrl+C stops it and every server it started).\n"
          f"Log in as student01 … student{users:02d} or instructor, password "
          f"{os.environ.get('DPTEACH_HUB_PASSWORD', 'dpteach')}: each lands in chapter 00 of their own copy.\n"
          "A demo only: every account runs as your own Unix user (SimpleLocalProcessSpawner). For a class, see the "
          "instructor's guide, docs/instructor/hubs.md.", flush=True)
    def stop_on(signum, frame):          # a terminal closed, `kill`, a timeout: stop as Ctrl+C does
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, stop_on)
    signal.signal(signal.SIGHUP, stop_on)
    try:
        hub.process.wait()
    except KeyboardInterrupt:
        pass
    finally:
        hub.stop()
    return 0
