"""The JupyterHub link works with the real nbgitpuller: the workbook arrives where the link opens it.

`make nbgitpuller-url` (and the book's "Open on a JupyterHub" button, through the same
dpteach/publish/links.py) writes a link to a hub's /hub/user-redirect/git-pull. The hub sends the
student to their own Jupyter server, where nbgitpuller's /git-pull page reads the query string and
its /git-pull/api clones `repo` with git into `targetpath` and then opens `urlpath`.

These tests start a Jupyter server with nbgitpuller from the test lock (as a hub's user image runs
it), over an empty home folder, and send it the query string of the link `make` prints, with only
`repo` pointed at a local bare clone of this repository (no network). A link that names the
repository as owner/name (what the Makefile printed before) fails there, as it fails on a hub.
"""

import json
import os
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from helpers import ROOT, make
from labserver import free_port, stop

from dpteach.publish import links

# the slow tier (make test-slow, make check): runs a Jupyter server with the real nbgitpuller
pytestmark = pytest.mark.slow

HUB = "https://hub.example.edu"
TOKEN = "dpteach-hub-link-token"


def _make_link(*args: str) -> str:
    out = make("nbgitpuller-url", f"HUB={HUB}", *args)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout.strip()


@pytest.fixture(scope="module")
def origin(tmp_path_factory) -> Path:
    """A bare clone of this repository whose branch `main` is the commit under test."""
    bare = tmp_path_factory.mktemp("remote") / "origin.git"
    subprocess.run(["git", "clone", "--bare", "--quiet", str(ROOT), str(bare)], check=True)
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], check=True, capture_output=True, text=True)
    subprocess.run(["git", "-C", str(bare), "update-ref", "refs/heads/main", head.stdout.strip()], check=True)
    return bare


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A single-user Jupyter server with nbgitpuller enabled, over an empty home. Yields (base URL, home)."""
    home = tmp_path_factory.mktemp("home")
    port = free_port()
    # the server is not the chapters' code: start it with the interpreter's default warning filters
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONWARNINGS", "IPYTHONDIR")}
    env.update(JUPYTER_PLATFORM_DIRS="1", JUPYTER_CONFIG_DIR=str(home.parent / "jupyter-config"),
               JUPYTER_RUNTIME_DIR=str(home.parent / "jupyter-runtime"))
    log = open(home.parent / "server.log", "wb")
    proc = subprocess.Popen(
        [str(Path(sys.executable).with_name("jupyter-server")), "--no-browser", "--allow-root", f"--ServerApp.port={port}",
         "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={home}"],
        stdout=log, stderr=subprocess.STDOUT, env=env, cwd=home)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180   # a loaded 2-core machine took over 60 s
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={TOKEN}", timeout=2).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("the Jupyter server did not start:\n" + (home.parent / "server.log").read_text()) from None
                time.sleep(0.3)
        yield base, home
    finally:
        stop(proc)
        log.close()


def _get(url: str, timeout: float = 120) -> str:
    request = urllib.request.Request(url, headers={"Authorization": f"token {TOKEN}"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        assert response.status == 200
        return response.read().decode()


def _pull(base: str, query: dict[str, str]) -> list[dict]:
    """nbgitpuller's API, as its status page calls it: the events of one pull, up to 'finished' or 'error'."""
    stream = _get(f"{base}/git-pull/api?{urllib.parse.urlencode(query)}")
    events = [json.loads(line[len("data: "):]) for line in stream.splitlines() if line.startswith("data: ")]
    assert events and events[-1].get("phase") in ("finished", "error"), stream[-2000:]
    return events


def _query(link: str, **replace: str) -> dict[str, str]:
    parts = urllib.parse.urlsplit(link)
    assert parts.path == "/hub/user-redirect/git-pull"
    query = dict(urllib.parse.parse_qsl(parts.query, strict_parsing=True))
    return {**query, **replace}


def test_make_and_the_book_write_the_same_link_with_a_full_clone_url():
    link = _make_link("REPO=someuser/dpteach")
    assert link == links.nbgitpuller_url(HUB, "someuser/dpteach", "main")
    query = _query(link)
    assert query["repo"] == "https://github.com/someuser/dpteach"
    assert query["urlpath"] == f"lab/tree/{query['targetpath']}/notebooks/00_start_here.ipynb"
    gitlab = _query(_make_link("REPO=https://gitlab.example.edu/dp/course.git", "BRANCH=fall"))
    assert gitlab["repo"] == "https://gitlab.example.edu/dp/course.git" and gitlab["branch"] == "fall"
    assert gitlab["targetpath"] == "course"


def test_the_hub_link_clones_the_workbook_and_opens_chapter_00(server, origin):
    base, home = server
    link = _make_link("REPO=someuser/dpteach")
    query = _query(link, repo=origin.as_uri())
    # the page the student lands on sends them to urlpath once the pull has finished
    page = _get(f"{base}/git-pull?{urllib.parse.urlencode(query)}")
    assert f'data-path="{urllib.parse.quote(query["urlpath"], safe="/")}"' in page
    events = _pull(base, query)
    assert events[-1]["phase"] == "finished", events[-1]
    chapter = home / query["urlpath"].removeprefix("lab/tree/")
    assert chapter.is_file(), sorted(p.name for p in home.iterdir())
    committed = subprocess.run(["git", "-C", str(ROOT), "show", "HEAD:notebooks/00_start_here.ipynb"],
                               check=True, capture_output=True).stdout
    assert chapter.read_bytes() == committed
    # the server that opens urlpath sees a notebook there
    contents = json.loads(_get(f"{base}/api/contents/{urllib.parse.quote(query['urlpath'].removeprefix('lab/tree/'))}"))
    assert contents["type"] == "notebook" and contents["content"]["cells"]
    # clicking the link again updates the clone in place and keeps a student's own new file
    (chapter.parent / "my_notes.md").write_text("mine\n")
    assert _pull(base, query)[-1]["phase"] == "finished"
    assert (chapter.parent / "my_notes.md").read_text() == "mine\n" and chapter.is_file()


def test_a_link_naming_the_repository_as_owner_name_is_refused_by_nbgitpuller(server, origin):
    """The Makefile's former link (repo=owner/name): git cannot clone it, the student sees an error."""
    base, home = server
    query = _query(_make_link("REPO=someuser/dpteach"), repo="someuser/dpteach", targetpath="owner-name-link")
    events = _pull(base, query)
    assert events[-1]["phase"] == "error"
    assert not (home / "owner-name-link").exists()
