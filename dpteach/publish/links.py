"""The links that open the workbook elsewhere: Binder, and a course's own JupyterHub (nbgitpuller).

Pure standard library, so that ``make binder-url`` and ``make nbgitpuller-url`` can run it with the
system Python before any venv exists, and the book's Sphinx configuration imports the same two
functions for its launch buttons::

    python3 dpteach/publish/links.py binder REPO [--ref HEAD] [--path notebooks/00_start_here.ipynb]
    python3 dpteach/publish/links.py nbgitpuller HUB REPO [--branch main] [--path ...]

``REPO`` is ``owner/name`` (a GitHub repository: its https URL is what gets cloned) or a full clone
URL, taken as given (course repositories also live on GitLab and on self-hosted servers):
``https://…``, ``http://…``, ``ssh://…``, ``git://…``, ``file://…`` or scp-like ``git@host:path``.

nbgitpuller (``/git-pull``) hands its ``repo`` argument to ``git clone``, so the link carries the
full clone URL, never ``owner/name`` (``git ls-remote owner/name`` fails and the student sees
"Remote content unavailable"). It also names the folder it clones into explicitly (``targetpath``),
so that ``urlpath`` points into that folder whatever the clone URL's last segment looks like
(nbgitpuller's own default keeps a trailing ``.git``).
"""

from __future__ import annotations

import argparse
import re
import sys
from urllib.parse import quote, urlencode, urlsplit

#: the chapter every link opens
START = "notebooks/00_start_here.ipynb"
BINDER = "https://mybinder.org"

_OWNER_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9_])?/[A-Za-z0-9._-]+")
_SCP_LIKE = re.compile(r"[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^\s]+")
_SCHEMES = ("https", "http", "ssh", "git", "file")


def clone_url(repo: str) -> str:
    """The URL ``git clone`` is given for ``repo``: GitHub's https URL for ``owner/name``, a full URL as is.

    >>> clone_url("someuser/dpteach")
    'https://github.com/someuser/dpteach'
    >>> clone_url("https://gitlab.com/course/dpteach.git")
    'https://gitlab.com/course/dpteach.git'
    >>> clone_url("dpteach")
    Traceback (most recent call last):
    ...
    ValueError: repo must be owner/name (a GitHub repository) or a full clone URL (https://, http://, ssh://, git://, file:// or git@host:path), got 'dpteach'
    """
    text = str(repo).strip()
    if _OWNER_NAME.fullmatch(text):
        return f"https://github.com/{text.removesuffix('.git')}"
    parts = urlsplit(text)
    if parts.scheme in _SCHEMES and (parts.netloc or parts.scheme == "file") and parts.path.strip("/"):
        return text
    if _SCP_LIKE.fullmatch(text):
        return text
    raise ValueError("repo must be owner/name (a GitHub repository) or a full clone URL "
                     f"(https://, http://, ssh://, git://, file:// or git@host:path), got {repo!r}")


def folder_name(repo: str) -> str:
    """The folder the workbook is cloned into: the repository's name, without ``.git``.

    >>> folder_name("https://gitlab.example.edu/dp/course-2027.git/")
    'course-2027'
    """
    url = clone_url(repo).rstrip("/")
    return re.split(r"[/:]", url)[-1].removesuffix(".git")


def _path(path: str) -> str:
    clean = str(path).strip().lstrip("/")
    if not clean or any(part in ("", ".", "..") for part in clean.split("/")):
        raise ValueError(f"path must be a relative path inside the repository, such as {START!r}, got {path!r}")
    return clean


def binder_url(repo: str, path: str = START, ref: str = "HEAD") -> str:
    """The mybinder.org link that builds ``repo`` at ``ref`` and opens ``path`` in JupyterLab.

    GitHub repositories use Binder's ``gh`` provider, gitlab.com its ``gl`` provider, any other
    clone URL its ``git`` provider.

    >>> binder_url("someuser/dpteach")
    'https://mybinder.org/v2/gh/someuser/dpteach/HEAD?urlpath=lab/tree/notebooks/00_start_here.ipynb'
    >>> binder_url("https://gitlab.com/course/dpteach.git", ref="main")
    'https://mybinder.org/v2/gl/course%2Fdpteach/main?urlpath=lab/tree/notebooks/00_start_here.ipynb'
    """
    if not re.fullmatch(r"[A-Za-z0-9._/-]+", str(ref)) or str(ref).startswith(("-", "/")):
        raise ValueError(f"ref must be a branch, tag or commit such as 'HEAD', got {ref!r}")
    url, target = clone_url(repo), f"urlpath=lab/tree/{quote(_path(path))}"
    parts = urlsplit(url)
    project = parts.path.strip("/").removesuffix(".git")
    if parts.scheme == "https" and parts.netloc == "github.com":
        spec = f"gh/{project}/{quote(ref, safe='')}"
    elif parts.scheme == "https" and parts.netloc == "gitlab.com":
        spec = f"gl/{quote(project, safe='')}/{quote(ref, safe='')}"
    else:
        spec = f"git/{quote(url, safe='')}/{quote(ref, safe='')}"
    return f"{BINDER}/v2/{spec}?{target}"


def nbgitpuller_url(hub: str, repo: str, branch: str = "main", path: str = START) -> str:
    """The link that makes a JupyterHub clone (then update) ``repo`` into each student's home and open ``path``.

    >>> print(nbgitpuller_url("https://hub.example.edu/", "someuser/dpteach"))  # doctest: +NORMALIZE_WHITESPACE
    https://hub.example.edu/hub/user-redirect/git-pull?repo=https%3A%2F%2Fgithub.com%2Fsomeuser%2Fdpteach&branch=main&targetpath=dpteach&urlpath=lab%2Ftree%2Fdpteach%2Fnotebooks%2F00_start_here.ipynb
    """
    parts = urlsplit(str(hub).strip())
    if parts.scheme not in ("https", "http") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(f"hub must be the JupyterHub's address, such as 'https://hub.example.edu', got {hub!r}")
    if not re.fullmatch(r"[A-Za-z0-9._/-]+", str(branch)) or str(branch).startswith(("-", "/")):
        raise ValueError(f"branch must be a git branch name such as 'main', got {branch!r}")
    url, folder = clone_url(repo), folder_name(repo)
    query = urlencode({"repo": url, "branch": branch, "targetpath": folder, "urlpath": f"lab/tree/{folder}/{_path(path)}"})
    return f"{str(hub).strip().rstrip('/')}/hub/user-redirect/git-pull?{query}"


def issue_url(repo: str, title: str, body: str = "") -> str | None:
    """The link that opens a new issue in ``repo``'s tracker with ``title`` (and ``body``) filled in, for a
    repository on GitHub or GitLab (gitlab.com, or a self-hosted server whose name starts with ``gitlab.``);
    ``None`` for any other host, whose tracker (if any) has no known address.

    >>> issue_url("someuser/dpteach", "Error on the page 02")
    'https://github.com/someuser/dpteach/issues/new?title=Error+on+the+page+02'
    >>> issue_url("git@gitlab.com:dp/course.git", "Error")
    'https://gitlab.com/dp/course/-/issues/new?issue%5Btitle%5D=Error'
    >>> issue_url("https://git.example.edu/dp/course.git", "Error") is None
    True
    """
    url = clone_url(repo)
    scp = _SCP_LIKE.fullmatch(url)
    if scp and "://" not in url:
        host, _, path = url.split("@", 1)[1].partition(":")
    else:
        parts = urlsplit(url)
        host, path = (parts.hostname or "").lower(), parts.path
    project = path.strip("/").removesuffix(".git").strip("/")
    if "/" not in project:
        return None
    if host == "github.com":
        fields = {"title": title, **({"body": body} if body else {})}
        return f"https://github.com/{project}/issues/new?{urlencode(fields)}"
    if host == "gitlab.com" or host.startswith("gitlab."):
        fields = {"issue[title]": title, **({"issue[description]": body} if body else {})}
        return f"https://{host}/{project}/-/issues/new?{urlencode(fields)}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="links.py", description="Print a link that opens the workbook.")
    sub = parser.add_subparsers(dest="command", required=True)
    binder = sub.add_parser("binder", help="the mybinder.org link")
    binder.add_argument("repo", help="owner/name (GitHub) or a full clone URL")
    binder.add_argument("--ref", default="HEAD", help="branch, tag or commit (default HEAD)")
    binder.add_argument("--path", default=START, help=f"the file to open (default {START})")
    hub = sub.add_parser("nbgitpuller", help="the nbgitpuller link for a course's JupyterHub")
    hub.add_argument("hub", help="the hub's address, e.g. https://hub.example.edu")
    hub.add_argument("repo", help="owner/name (GitHub) or a full clone URL")
    hub.add_argument("--branch", default="main", help="the branch to pull (default main)")
    hub.add_argument("--path", default=START, help=f"the file to open (default {START})")
    args = parser.parse_args(argv)
    try:
        if args.command == "binder":
            print(binder_url(args.repo, args.path, args.ref))
        else:
            print(nbgitpuller_url(args.hub, args.repo, args.branch, args.path))
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
