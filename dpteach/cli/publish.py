"""The verbs of the publishing wing (:mod:`dpteach.publish`): the lab, executing and syncing the chapters, the book,
the slides, the editions and presenting live."""

from __future__ import annotations

import os
import sys

from ._verbs import Verb, in_root, lab_command, launch_options, network_options, project, run_command

START = "notebooks/00_start_here.ipynb"


def _lab_arguments(parser):
    parser.add_argument("notebook", nargs="?", metavar="NOTEBOOK", default=START,
                        help=f"the notebook to open (default {START})")
    parser.add_argument("--port", metavar="N", type=int, default=None,
                        help="the server's port (default: JupyterLab's, 8888)")


def _lab(args, parser):
    root = project(args, parser).root
    return run_command(lab_command(*([f"--ServerApp.port={args.port}"] if args.port else []), args.notebook), cwd=root)


def _execute_arguments(parser):
    parser.add_argument("notebooks", nargs="*", metavar="NOTEBOOK",
                        help="notebooks to run (default: every chapter in notebooks/)")
    parser.add_argument("--inplace", action="store_true",
                        help="store the outputs in the notebooks themselves (default: copies in build/executed)")
    parser.add_argument("--out", metavar="DIR", default=None, help="folder of the copies (default build/executed)")
    parser.add_argument("--timeout", metavar="SECONDS", type=int, default=600,
                        help="seconds a cell may run (default 600)")


def _execute(args, parser):
    from dpteach.publish.execute import execute_notebook

    where = project(args, parser)
    paths = [in_root(where, p) for p in args.notebooks] or [c.path for c in where.chapters()]
    out = in_root(where, args.out) or where.executed
    for path in paths:
        execute_notebook(path, path if args.inplace else out / path.name, timeout=args.timeout)
        print(f"executed {path.name}" + ("" if args.inplace else f" into {out}"))
    return 0


def _sync_arguments(parser):
    parser.add_argument("notebooks", nargs="*", metavar="NOTEBOOK",
                        help="notebooks to sync (default: every chapter in notebooks/)")


def _sync(args, parser):
    where = project(args, parser)
    paths = [str(in_root(where, p)) for p in args.notebooks] or [str(c.path) for c in where.chapters()]
    return run_command([sys.executable, "-m", "jupytext", "--sync", *paths], cwd=where.root)


def _html_arguments(parser):
    network_options(parser, "MathJax, require.js and the widget renderer")
    parser.add_argument("--instructor", action="store_true",
                        help="the instructor edition (solutions open, speaker notes) in build/html-instructor")
    launch_options(parser, "the workbook's repository")
    parser.add_argument("--out", metavar="DIR", default=None, help="output folder (default build/html)")
    parser.add_argument("--executed", metavar="DIR", default=None,
                        help="executed chapters to reuse (default build/executed)")


def _pages(pages):
    for page in pages:
        print(f"{page}  {page.stat().st_size / 1024:,.0f} KiB")
    return 0


def _html(args, parser):
    from dpteach.publish.book_site import build_html

    where = project(args, parser)
    return _pages(build_html(where, in_root(where, args.out), offline=args.offline, instructor=args.instructor,
                             executed=in_root(where, args.executed), repo=args.repo, hub=args.hub, branch=args.branch))


def _slides_arguments(parser):
    network_options(parser, "reveal.js, MathJax and the widget renderer")
    parser.add_argument("--out", metavar="DIR", default=None, help="output folder (default build/slides)")
    parser.add_argument("--executed", metavar="DIR", default=None,
                        help="executed chapters to reuse (default build/executed)")


def _slides(args, parser):
    from dpteach.publish.slides import build_slides

    where = project(args, parser)
    return _pages(build_slides(where, in_root(where, args.out), offline=args.offline,
                               executed=in_root(where, args.executed)))


def _mark_arguments(parser):
    parser.add_argument("--force", action="store_true", help="overwrite the roles already stored")


def _mark(args, parser):
    from dpteach.publish.slides import mark_chapter

    where = project(args, parser)
    for chapter in where.chapters():
        print(f"{chapter.path.name}: {mark_chapter(where, chapter.path, force=args.force)} cells marked")
    return 0


def _instructor_arguments(parser):
    parser.add_argument("notebooks", nargs="+", metavar="NOTEBOOK", help="chapter notebooks (in notebooks/)")
    parser.add_argument("--out", metavar="DIR", required=True, help="folder to write them to")
    parser.add_argument("--slides", action="store_true", help="made for a room: the slide edition")


def _instructor(args, parser):
    import nbformat

    from dpteach.publish.book_site import instructor_edition
    from dpteach.publish.slides import slide_edition

    where = project(args, parser)
    out = in_root(where, args.out)
    out.mkdir(parents=True, exist_ok=True)
    for path in (in_root(where, p) for p in args.notebooks):
        nb = instructor_edition(nbformat.read(path, as_version=4), path.stem, where)
        nbformat.write(slide_edition(nb) if args.slides else nb, out / path.name)
        print(f"{out / path.name}: the instructor edition of {path.name}")
    return 0


def _present_arguments(parser):
    parser.add_argument("--chapter", metavar="NN", required=True, help="the chapter's number, e.g. 03")
    parser.add_argument("--out", metavar="DIR", default="build/present",
                        help="the folder to present from (its contents are replaced; default build/present)")
    parser.add_argument("--port", metavar="N", type=int, default=8888, help="the lab's port (default 8888)")
    parser.add_argument("--prepare-only", action="store_true", help="write the folder, do not start the lab")


def _present(args, parser):
    from dpteach.publish.present import prepare

    where = project(args, parser)
    chapters = [c.path for c in where.chapters()]
    notebook = next((p for p in chapters if p.name[:2] == args.chapter.zfill(2)), None)
    if notebook is None:
        first, last = (chapters[0].name[:2], chapters[-1].name[:2]) if chapters else ("none", "none")
        parser.error(f"--chapter must be a chapter number, {first} to {last} (got {args.chapter!r})")
    out = in_root(where, args.out)
    try:
        prepare(where, notebook, out)
    except ValueError as error:
        parser.error(str(error))
    if args.prepare_only:
        print(out / notebook.name)
        return 0
    print(f"Presenting a copy of {notebook.relative_to(where.root)}: in JupyterLab, Run All, save (Ctrl+S), then open "
          f"the speaker view\n  http://localhost:{args.port}/static/dpteach-presenter.html?notebook={notebook.name}\n"
          "and press its Start button: the slideshow opens in a window of its own, which the speaker view's → and ← "
          "drive\n(or Alt+R in the lab, without notes).", flush=True)
    command = lab_command(f"--ServerApp.port={args.port}", f"--ServerApp.extra_static_paths=['{out / '.static'}']",
                          "--ServerApp.jpserver_extensions={'dpteach.publish.present': True}", notebook.name)
    return run_command(command, cwd=out, env={**os.environ, "DPTEACH_PRESENTATION": "1"})


def _docs_arguments(parser):
    network_options(parser, "MathJax, require.js and the widget renderer")
    parser.add_argument("--out", metavar="DIR", default=None, help="output folder (default build/docs)")


def _docs(args, parser):
    from dpteach.publish.docs_site import build_docs

    where = project(args, parser)
    for page in build_docs(where, in_root(where, args.out), offline=args.offline):
        print(page)
    return 0


VERBS = (
    Verb("lab", "open the workbook in JupyterLab",
         "Starts JupyterLab from this environment on the project's root, opening chapter 00 (or NOTEBOOK), until "
         "Ctrl+C. `make lab` installs the environment first.",
         ("dpteach lab", "dpteach lab notebooks/03_laplace_mechanism.ipynb --port 8890"), _lab_arguments, _lab),
    Verb("execute", "run chapters top to bottom in fresh kernels, widget state stored",
         "The executor the book and the slides use too (nbclient). Without --inplace the executed copies go to "
         "build/executed and the chapters stay as they are.",
         ("dpteach execute", "dpteach execute --inplace --timeout 300 notebooks/03_laplace_mechanism.ipynb"),
         _execute_arguments, _execute),
    Verb("sync", "sync each chapter's notebook with its MyST twin (jupytext --sync)",
         "Text twins (sources/NN_name.md) and notebooks are paired by jupytext.toml; the newer of each pair wins "
         "and outputs are kept. Re-execute after editing a twin.",
         ("dpteach sync",), _sync_arguments, _sync),
    Verb("html", "the reader's book (Sphinx) in build/html",
         "Every chapter executed (build/executed, reused), a sidebar of chapters, offline search. By default "
         "the book needs no network.",
         ("dpteach html", "dpteach html --instructor --repo someone/dpteach --hub https://hub.example.edu"),
         _html_arguments, _html),
    Verb("slides", "reveal.js slides per chapter in build/slides",
         "Each chapter's slide edition with figures drawn for a projector, reveal.js, MathJax and the widget "
         "renderer bundled unless --online.",
         ("dpteach slides", "dpteach slides --online"), _slides_arguments, _slides),
    Verb("mark", "write slide marks into the chapters (cells without one)",
         "A new chapter gets its slide marks here; cells that have one keep it unless --force.",
         ("dpteach mark",), _mark_arguments, _mark),
    Verb("instructor", "chapters as the instructor presents them: solutions open, speaker notes in",
         "Writes each chapter's instructor edition (notes from instructor/NN_name.md) into --out.",
         ("dpteach instructor notebooks/03_laplace_mechanism.ipynb --out build/instructor --slides",),
         _instructor_arguments, _instructor),
    Verb("present", "present a chapter live: RISE slides in JupyterLab with a speaker view",
         "Writes the chapter's slide edition (solutions open, speaker notes in), the slideshow's styles and the "
         "speaker view into --out, then starts JupyterLab there with every figure projector-sized "
         "(DPTEACH_PRESENTATION=1). Run it from the presenting venv (`make present` builds .venv-present).",
         ("dpteach present --chapter 03", "dpteach present --chapter 05 --port 8890"),
         _present_arguments, _present),
    Verb("docs", "the documentation (the pages of docs/) in build/docs, built like the book",
         "The MyST pages of docs/ with the book's Sphinx configuration and theme; no network needed unless --online.",
         ("dpteach docs", "dpteach docs --online"), _docs_arguments, _docs),
)
