"""The project's documentation: the MyST pages of ``docs/`` as a site built like the reader's book.

    python -m dpteach.publish docs [--online] [--out build/docs]

``make docs`` calls it. Sphinx builds the pages with the book's own configuration and theme
(:data:`~dpteach.publish.book_site.BOOK_CONF`, :func:`~dpteach.publish.book_site.run_sphinx`), and MathJax and
the widget renderer are bundled as in the book (:func:`~dpteach.publish.assets.book_assets`), so the folder
opens from disk with the network cut. A reader finds the pages of the index's tables of contents
(``docs/index.md``, and the pages it lists in turn: :func:`reachable`).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from .assets import book_assets
from .book_site import run_sphinx
from .paths import Project

TITLE = "dpteach: the documentation"

#: Pages the index lists that a tool writes (the command line's reference, from its parser). Where one is missing
#: from a checkout, the site says so on its page instead of failing on a link to nowhere.
GENERATED = {"reference/command-line": "The command line"}

_TOCTREE = re.compile(r"^```\{toctree\}[^\n]*\n(.*?)^```", re.S | re.M)


def docs_folder(project: Project) -> Path:
    """The folder of the MyST pages (``docs/`` at the project's root)."""
    return project.root / "docs"


def pages(folder: Path) -> list[str]:
    """Every page in ``folder`` by its Sphinx name (``instructor/grading`` for ``instructor/grading.md``), sorted."""
    return sorted(p.relative_to(folder).with_suffix("").as_posix() for p in Path(folder).rglob("*.md"))


def toctree(text: str) -> list[str]:
    """The entries of the ``{toctree}`` blocks of a page's text, in order (options and blank lines left out)."""
    return [line.strip() for block in _TOCTREE.findall(text) for line in block.splitlines()
            if line.strip() and not line.strip().startswith(":")]


def reachable(folder: Path, names: set[str] | None = None) -> list[str]:
    """The pages a reader reaches from ``index`` through the tables of contents, in reading order (depth first).

    An entry is relative to the page that lists it (``instructor/index`` lists ``grading`` for
    ``instructor/grading``). ``names`` are the pages that exist (default: :func:`pages` of ``folder``, and the
    :data:`GENERATED` ones); an entry naming none of them is kept, so that a test can name it."""
    folder = Path(folder)
    names = set(pages(folder)) | set(GENERATED) if names is None else names
    order: list[str] = []

    def visit(name: str) -> None:
        if name in order:
            return
        order.append(name)
        path = folder / f"{name}.md"
        if name not in names or not path.exists():
            return
        base = name.rpartition("/")[0]
        for entry in toctree(path.read_text(encoding="utf-8")):
            visit(f"{base}/{entry}" if base else entry)

    visit("index")
    return order


def build_docs(project: Project, out: Path | None = None, *, offline: bool = True, cache: Path | None = None,
               work: Path | None = None) -> list[Path]:
    """The pages of ``docs/`` as a site in ``out`` (default ``build/docs``), with the book's theme and configuration.

    Sphinx's sources and caches go to ``work`` (default: ``.<out's name>-sources`` beside ``out``). ``offline`` (the
    default) copies MathJax, require.js and the widget renderer in (npm tarballs cached in ``cache``, default the
    project's), so the folder needs no network; built for the network instead, a page opened without one says so.
    Sphinx's warnings are errors (a link to a page or a section that does not exist among them). Returns the pages
    a reader reaches from the index, the index first."""
    folder = docs_folder(project)
    if not (folder / "index.md").is_file():
        raise ValueError(f"project must hold docs/index.md, the site's first page (got {str(project.root)!r}, "
                         "whose docs/ has none)")
    out = Path(out) if out is not None else project.build / "docs"
    work = Path(work) if work is not None else out.parent / f".{out.name}-sources"
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    src = work / "src"
    shutil.copytree(folder, src, ignore=shutil.ignore_patterns("__pycache__", ".*"))
    for name, title in GENERATED.items():
        page = src / f"{name}.md"
        if not page.exists():
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(f"# {title}\n\nThis page is written from the program itself, and this copy of the project "
                            "does not have it yet.\n", encoding="utf-8")
    overrides = {"dpteach_offline": int(offline), "html_title": TITLE, "project": TITLE}
    if offline:
        overrides["dpteach_assets"] = str(book_assets(work, cache or project.npm_cache))
    done = run_sphinx(project, src, out, work, overrides)
    if done.returncode != 0 or done.stderr.strip():
        raise RuntimeError(f"the Sphinx build of the documentation failed or warned:\n{done.stderr[-4000:]}")
    return [out / f"{name}.html" for name in reachable(src)]
