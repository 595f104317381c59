"""The hub wing: a class on a JupyterHub, for instructors and for the tests that size it.

Nothing here is imported by ``import dpteach``. The hub's configuration lives at the repository's top,
in ``hub/`` (what an administrator copies: ``jupyterhub_config.py`` for one server, ``config.yaml`` for
Zero to JupyterHub); this package runs it locally and drives it::

    python -m dpteach.hub demo [--users 5] [--port 8000]               # make hub: a local demo hub
    python -m dpteach.hub bench [--students 1 5 10 20] [--seconds 10]  # make bench-hub: its capacity

* :mod:`.local`: a demo hub started and stopped from Python (its processes all accounted for);
* :mod:`.load`: students' servers started through the hub's REST API, a chapter's slider cell run in each
  kernel and its slider dragged over the hub's proxy WebSocket, each new image timed.

It builds on the publishing wing's paths (:mod:`dpteach.publish.paths`), never the other way.
"""
