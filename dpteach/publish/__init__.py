"""The publishing wing: what turns the chapters into editions for readers and presenters.

Nothing here is imported by ``import dpteach``: these are tools an author or an instructor runs,
from the project's root (the folder holding ``notebooks/``), through one entry point::

    python -m dpteach.publish COMMAND ...

They read and write relative to the folder they are run in (or ``--root``), never beside the
installed package, so a second clone builds into its own ``build/`` (:mod:`.paths`).

* :mod:`.execute`: the one notebook executor (nbclient, widget state stored): ``execute``.
* :mod:`.book_site`: the reader's book (Sphinx): ``html``; :mod:`.prose`: its prose (maths in plain text set as
  maths, chapter links named by title); :mod:`.assets`: what it and the slides need offline.
* :mod:`.docs_site`: the project's documentation (the pages of ``docs/``), built like the book: ``docs``.
* :mod:`.slides`: the slide marks in the chapters (``mark``), the slide edition and the reveal.js slides
  (``slides``): a package, one module per seam (marking, sizing, pagination, edition, deck).
* :mod:`.editions`: a chapter for its audience (the instructor's: ``instructor``).
* :mod:`.present`: a chapter to present live (``present``, ``make present``) and the presenting server's extension.
* :mod:`.links`: the Binder and JupyterHub links.
* :mod:`.websocket`: the server's kernel WebSocket with Nagle's algorithm off (a slider's image leaves at once);
  the lab's venvs and Binder load it from ``binder/jupyter_server_config.json``.

Homework and its grading, for instructors, are the course wing's (:mod:`dpteach.course`).
"""
