"""Presenting a chapter live (``make present``): the folder the lab presents from, and the server's part.

:func:`prepare` writes the folder: the chapter's slide edition (instructor edition, made for a room by
:func:`dpteach.publish.slides.slide_edition`; presenting saves the notebook, so it is a copy), the
slideshow's styles (``rise.css``, and ``<chapter>.css``, which RISE asks for too) and the speaker view
(``.static/dpteach-presenter.html``, served from the lab's own origin so that it can open the slideshow,
follow it and drive it).

The presenting server also loads this module as a Jupyter server extension
(``--ServerApp.jpserver_extensions="{'dpteach.publish.present': True}"``): it puts ``dpteach-show.js``
into RISE's slideshow page, before the page's application starts. That script keeps a key pressed while a
widget has the focus from restarting the show or editing the notebook, and stops the slideshow's hidden
toolbars from filling the console with errors (see the script). Standard library only at import time.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from .paths import TEMPLATES, Project

#: The presenting templates: the slideshow's styles, its script, the speaker view.
PRESENT = TEMPLATES / "present"
SHOW_SCRIPT = "dpteach-show.js"
#: Where the server serves the slideshow's script (under its base URL).
SCRIPT_URL = "dpteach-present/"


def prepare(project: Project, notebook: Path, out: Path) -> list[Path]:
    """The folder to present ``notebook`` from: its slide edition, ``rise.css``, ``<stem>.css`` and the speaker
    view under ``.static/``. ``out`` is emptied first; it may not hold the project's chapters."""
    import nbformat

    from .book_site import instructor_edition
    from .slides import slide_edition

    notebook, out = Path(notebook), Path(out)
    if not notebook.is_file():
        raise ValueError(f"notebook must be a chapter's .ipynb, got {str(notebook)!r} (no such file)")
    if (out / "notebooks").exists() or out.resolve() in (project.root, project.notebooks):
        raise ValueError(f"out must be a folder of its own (it is emptied), got {str(out)!r}")
    if out.exists():
        shutil.rmtree(out)
    (out / ".static").mkdir(parents=True)
    edition = slide_edition(instructor_edition(nbformat.read(notebook, as_version=4), notebook.stem, project))
    written = [out / notebook.name, out / "rise.css", out / f"{notebook.stem}.css",
               out / ".static" / "dpteach-presenter.html"]
    nbformat.write(edition, written[0])
    shutil.copyfile(PRESENT / "rise.css", written[1])
    written[2].write_text(f"/* {notebook.stem}: no styles of its own (rise.css holds the slideshow's). */\n",
                          encoding="utf-8")
    shutil.copyfile(PRESENT / "dpteach-presenter.html", written[3])
    return written


# -- the server extension ----------------------------------------------------------------------------

def _jupyter_server_extension_points():
    return [{"module": "dpteach.publish.present"}]


def _load_jupyter_server_extension(serverapp) -> None:
    """Serve the slideshow's script and put it into every RISE slideshow page the server sends."""
    from jupyter_server.utils import url_path_join
    from tornado.web import StaticFileHandler

    base = serverapp.web_app.settings.get("base_url", "/")
    route = url_path_join(base, SCRIPT_URL, "(" + re.escape(SHOW_SCRIPT) + ")")
    serverapp.web_app.add_handlers(".*$", [(route, StaticFileHandler, {"path": str(PRESENT)})])
    serverapp.web_app.transforms.insert(0, _show_script_transform(url_path_join(base, "rise/"),
                                                                  url_path_join(base, SCRIPT_URL, SHOW_SCRIPT)))


def _show_script_transform(pages: str, script: str):
    """A tornado output transform that adds ``<script src=script>`` at the top of the <head> of pages under
    ``pages`` (RISE's slideshow), before any script of theirs."""
    from tornado.web import OutputTransform

    tag = f'<script src="{script}"></script>'.encode()

    class ShowScript(OutputTransform):
        def __init__(self, request) -> None:
            super().__init__(request)
            self._on = request.path.startswith(pages)

        def transform_first_chunk(self, status_code, headers, chunk, finishing):
            if self._on and finishing and headers.get("Content-Type", "").startswith("text/html") and b"<head>" in chunk:
                chunk = chunk.replace(b"<head>", b"<head>" + tag, 1)
                if "Content-Length" in headers:
                    headers["Content-Length"] = str(len(chunk))
            return status_code, headers, chunk

    return ShowScript
