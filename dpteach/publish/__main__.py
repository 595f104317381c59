"""The publishing wing's one entry point, run from the project's root (the folder holding notebooks/).

    python -m dpteach.publish execute [--inplace] [NOTEBOOKS...]   # run chapters headless (into build/executed)
    python -m dpteach.publish html [--online] [--instructor] [--repo owner/name] [--hub URL] [--branch main]
    python -m dpteach.publish slides [--online]                    # reveal.js slides in build/slides/
    python -m dpteach.publish mark [--force]                       # slide marks into the chapters
    python -m dpteach.publish instructor NOTEBOOKS... --out DIR     # instructor editions
    python -m dpteach.publish present NOTEBOOK --out DIR            # a chapter to present live (make present)
    python -m dpteach.publish docs [--online] [--out DIR]           # the documentation (docs/) in build/docs

Every command reads and writes under ``--root`` (default: the current directory), never beside
the installed package; paths given to it are relative to that root. Homework and grading have an
entry point of their own, in the course wing (``python -m dpteach.course``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .assets import network_options
from .paths import Project


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m dpteach.publish", description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=None,
                        help="the project's root, the folder holding notebooks/ (default: the current directory)")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = commands.add_parser("execute", help="run chapters top to bottom in fresh kernels, widget state stored")
    run.add_argument("notebooks", nargs="*", type=Path,
                     help="notebooks to run (default: every chapter in notebooks/)")
    run.add_argument("--inplace", action="store_true",
                     help="store the outputs in the notebooks themselves (default: copies in build/executed)")
    run.add_argument("--out", type=Path, default=None, help="folder of the copies (default build/executed)")
    run.add_argument("--timeout", type=int, default=600, help="seconds a cell may run (default 600)")

    html = commands.add_parser("html", help="the reader's book (Sphinx) in build/html")
    network_options(html, "MathJax, require.js and the widget renderer")
    html.add_argument("--instructor", action="store_true",
                      help="the instructor edition (solutions open, speaker notes) in build/html-instructor")
    html.add_argument("--repo", default="", help="owner/name on GitHub: an 'Open in Binder' link on every page")
    html.add_argument("--hub", default="", help="a JupyterHub URL: an 'Open on a JupyterHub' link (needs --repo)")
    html.add_argument("--branch", default="main", help="the branch nbgitpuller pulls (default main)")
    html.add_argument("--out", type=Path, default=None, help="output folder (default build/html)")
    html.add_argument("--executed", type=Path, default=None, help="executed chapters to reuse (default build/executed)")

    slides = commands.add_parser("slides", help="reveal.js slides per chapter in build/slides")
    network_options(slides, "reveal.js, MathJax and the widget renderer")
    slides.add_argument("--out", type=Path, default=None, help="output folder (default build/slides)")
    slides.add_argument("--executed", type=Path, default=None, help="executed chapters to reuse (default build/executed)")

    mark = commands.add_parser("mark", help="write slide marks into the chapters (cells without one)")
    mark.add_argument("--force", action="store_true", help="overwrite the roles already stored")

    edition = commands.add_parser("instructor", help="chapters as the instructor presents them: solutions open, "
                                  "speaker notes in (make present)")
    edition.add_argument("notebooks", nargs="+", type=Path, help="chapter notebooks (in notebooks/)")
    edition.add_argument("--out", type=Path, required=True, help="folder to write them to")
    edition.add_argument("--slides", action="store_true", help="made for a room: the slide edition (dpteach.publish.slides)")

    present = commands.add_parser("present", help="a chapter to present live (make present): its slide edition, the "
                                  "slideshow's styles and the speaker view, in a folder of their own")
    present.add_argument("notebook", type=Path, help="the chapter's notebook (in notebooks/)")
    present.add_argument("--out", type=Path, required=True, help="the folder to present from (its contents are replaced)")

    docs = commands.add_parser("docs", help="the documentation (the pages of docs/) in build/docs, built like the book")
    network_options(docs, "MathJax, require.js and the widget renderer")
    docs.add_argument("--out", type=Path, default=None, help="output folder (default build/docs)")

    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        project = Project(args.root)
    except ValueError as error:
        parser.error(f"{error} (run it from the project's root, or give --root)")
    for option in ("out", "executed"):          # folders given relative to the root, like everything else
        if getattr(args, option, None) is not None:
            setattr(args, option, project.root / getattr(args, option))
    if args.command == "execute":
        from .execute import execute_notebook

        paths = args.notebooks or [c.path for c in project.chapters()]
        out = args.out or project.executed
        for path in paths:
            path = project.root / path      # relative to the root (an absolute path stays as it is)
            execute_notebook(path, path if args.inplace else out / path.name, timeout=args.timeout)
            print(f"executed {path.name}" + ("" if args.inplace else f" into {out}"))
        return 0
    if args.command == "mark":
        from .slides import mark_chapter

        for chapter in project.chapters():
            print(f"{chapter.path.name}: {mark_chapter(project, chapter.path, force=args.force)} cells marked")
        return 0
    if args.command == "instructor":
        import nbformat

        from .book_site import instructor_edition
        from .slides import slide_edition

        args.out.mkdir(parents=True, exist_ok=True)
        for path in args.notebooks:
            path = project.root / path
            nb = instructor_edition(nbformat.read(path, as_version=4), path.stem, project)
            nb = slide_edition(nb) if args.slides else nb
            nbformat.write(nb, args.out / path.name)
            print(f"{args.out / path.name}: the instructor edition of {path.name}")
        return 0
    if args.command == "present":
        from .present import prepare

        try:
            written = prepare(project, project.root / args.notebook, args.out)
        except ValueError as error:
            parser.error(str(error))
        for path in written:
            print(path)
        return 0
    if args.command == "docs":
        from .docs_site import build_docs

        for page in build_docs(project, args.out, offline=args.offline):
            print(page)
        return 0
    if args.command == "html":
        from .book_site import build_html

        pages = build_html(project, args.out, offline=args.offline, instructor=args.instructor,
                           executed=args.executed, repo=args.repo, hub=args.hub, branch=args.branch)
    else:
        from .slides import build_slides

        pages = build_slides(project, args.out, offline=args.offline, executed=args.executed)
    for page in pages:
        print(f"{page}  {page.stat().st_size / 1024:,.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
