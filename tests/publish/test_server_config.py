"""The lab's server sends a slider's new image at once: TCP_NODELAY on the browser's WebSocket.

jupyter_server leaves Nagle's algorithm on for the kernel WebSocket, so the image that follows a slider's
echoed value waited for the browser's delayed acknowledgement (about 30 ms a frame, measured by
``benchmarks/run.py``'s server round trip). ``dpteach.publish.websocket`` turns it off; the Makefile installs the
config that loads it into the venvs, and Binder's postBuild into Binder's.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT

CONFIG = ROOT / "binder" / "jupyter_server_config.json"


def test_the_config_names_a_connection_that_sets_nodelay_before_connecting(monkeypatch):
    from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
    from jupyter_server.services.kernels.websocket import KernelWebsocketHandler

    from dpteach.publish.websocket import NoDelayWebsocketConnection

    name = json.loads(CONFIG.read_text())["ServerApp"]["kernel_websocket_connection_class"]
    assert name == f"{NoDelayWebsocketConnection.__module__}.{NoDelayWebsocketConnection.__name__}"
    assert issubclass(NoDelayWebsocketConnection, ZMQChannelsWebsocketConnection)

    calls = []
    handler = KernelWebsocketHandler.__new__(KernelWebsocketHandler)
    handler.set_nodelay = lambda value: calls.append(("nodelay", value))
    monkeypatch.setattr(ZMQChannelsWebsocketConnection, "connect", lambda self: calls.append(("connect",)) or "ready")
    connection = NoDelayWebsocketConnection.__new__(NoDelayWebsocketConnection)
    connection.websocket_handler = handler
    assert connection.connect() == "ready"
    assert calls == [("nodelay", True), ("connect",)]


@pytest.mark.slow   # starts the real server's configuration (about 5 s): the slow tier, with the other ways in
def test_the_venv_s_jupyter_server_loads_it():
    """The real server's configuration, as `make lab` and the browser tests start it (the Makefile installs
    the file into the venv's etc/jupyter)."""
    jupyter = Path(sys.executable).with_name("jupyter")
    shown = subprocess.run([str(jupyter), "server", "--show-config"], capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr[-2000:]
    assert "kernel_websocket_connection_class = 'dpteach.publish.websocket.NoDelayWebsocketConnection'" in shown.stdout


def test_make_and_binder_install_it():
    makefile = (ROOT / "Makefile").read_text()
    assert "$(VENV)/etc/jupyter/jupyter_server_config.json" in makefile.split("SETTINGS  :=")[1].splitlines()[0]
    assert "$(PRESENT)/etc/jupyter/jupyter_server_config.json" in makefile
    postbuild = (ROOT / "binder" / "postBuild").read_text()
    assert 'cp binder/jupyter_server_config.json "${NB_PYTHON_PREFIX}/etc/jupyter/jupyter_server_config.json"' \
        in postbuild
