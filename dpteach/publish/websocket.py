"""The lab's kernel WebSocket with Nagle's algorithm off: a slider's new image leaves at once.

A slider move makes the kernel send two messages through the Jupyter server to the browser: the
slider's value, echoed (small), then, a frame's rendering later, the new image. The server
writes both to the browser's WebSocket, a TCP connection on which jupyter_server leaves Nagle's
algorithm on (tornado's default, ``WebSocketHandler.set_nodelay``): the image's last, partial
segment then waits until the browser acknowledges the echo, and the browser delays that
acknowledgement (delayed ACK, up to 40 ms on Linux). Measured through a real server here, the
slider's round trip (value sent → image received, benchmarks/run.py) was about 50 ms at the
median with Nagle on, and about 20 ms with it off.

The lab and the presenting venv load this class through a config file the Makefile installs
(``binder/jupyter_server_config.json``, as ``etc/jupyter/jupyter_server_config.json``),
and Binder through ``binder/postBuild``. A JupyterHub that serves the workbook keeps its own
server settings.
"""

from __future__ import annotations

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

__all__ = ["NoDelayWebsocketConnection"]


class NoDelayWebsocketConnection(ZMQChannelsWebsocketConnection):
    """jupyter_server's kernel WebSocket connection, with TCP_NODELAY set on the browser's socket."""

    def connect(self):
        self.websocket_handler.set_nodelay(True)
        return super().connect()
