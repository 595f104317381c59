"""A real JupyterHub with two accounts (slow tier): each student's server started through the hub, chapter 02's
slider cell run in each one's own kernel, the slider moved over the hub's proxy WebSocket, each student getting
their own new images; then the hub stopped, and nothing of it left running.

Needs the hub's packages (requirements/hub.lock.txt) and configurable-http-proxy (npm): `make test-slow`
installs both, as `make hub` does.
"""

from __future__ import annotations

import asyncio

import pytest

from dpteach.hub import load
from dpteach.hub.local import LocalHub

pytestmark = pytest.mark.slow


def test_two_students_drag_their_own_sliders_through_the_hub_and_nothing_is_left():
    hub = LocalHub(2)
    with hub:
        for user in ("student01", "student02"):
            assert hub.start_server(user) == f"/user/{user}/"

        async def class_of_two():
            students = [load.Student(hub, user) for user in ("student01", "student02")]
            for student in students:
                await student.open()
                await student.run(load.CELL)
            drags = await asyncio.gather(*(s.drag(2.0, rate=10) for s in students))
            ids = [s.kernel for s in students]
            kernels = {user: load.processes_of(user)["kernel"] for user in ("student01", "student02")}
            for student in students:
                await student.close()
            return ids, kernels, drags

        ids, kernels, drags = asyncio.run(class_of_two())
        assert ids[0] != ids[1]
        assert all(len(pids) == 1 for pids in kernels.values()) and kernels["student01"] != kernels["student02"]
        assert all(load.processes_of(user)["kernel"] == [] for user in kernels)      # shut down when closed
        for drag in drags:
            assert drag.sent >= 15 and drag.images >= 15, drag       # a new image for (nearly) every value sent
            assert max(drag.latencies) < 5.0
        running = hub.leftovers()
        assert len(running) >= 5                 # the proxy, the culler, two servers, two kernels (at least)
    assert hub.process.returncode is not None
    assert hub.leftovers() == [], "processes of the hub are still running after it stopped"


def test_a_port_taken_between_choosing_and_binding_is_chosen_again(monkeypatch):
    """CI once lost the hub's test to another process holding the port the proxy's API was given. Here the proxy's
    API port is held on purpose: the proxy cannot bind it, the hub stops, and LocalHub starts it again on new
    ports (the log says EADDRINUSE once), and the API answers."""
    import socket

    from dpteach.hub import local
    held = socket.socket()
    held.bind(("127.0.0.1", 0))
    held.listen()
    ports = iter([local.free_port(), local.free_port(), held.getsockname()[1]])   # the hub, its API, the proxy's API
    real = local.free_port
    monkeypatch.setattr(local, "free_port", lambda: next(ports, None) or real())
    try:
        hub = LocalHub(1)
        with hub:
            assert hub.api("GET", "/hub/api/")["version"]
            said = (hub.state / "jupyterhub.log").read_text(errors="replace")
            assert said.count("EADDRINUSE") >= 1 and str(held.getsockname()[1]) in said
        assert not hub.leftovers()
    finally:
        held.close()
