"""The ``dpteach`` command: one subcommand per verb of the workbook's tools, one argument style.

    dpteach lab                                     # open the workbook in JupyterLab
    dpteach course --roster roster.csv --book       # homework for a course
    dpteach grade --course build/course/instructor/course.json collected/
    dpteach --help                                  # every verb; dpteach VERB --help: its options and an example

The parser is built from the standard library alone (``dpteach --help`` imports no tool); a verb imports its
wing (:mod:`dpteach.publish`, :mod:`dpteach.course`, :mod:`dpteach.hub`) only when it runs. Verbs that work on a
project read and write under ``--root`` (default: the current directory, the folder holding ``notebooks/``).
``python -m dpteach VERB`` is the same command. :func:`markdown_reference` writes the reference page
(``docs/reference/command-line.md``) from the same parser, so the page cannot drift from the command.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import textwrap
from collections.abc import Sequence

from ._verbs import Verb
from .course import VERBS as _COURSE
from .hub import VERBS as _HUB
from .publish import VERBS as _PUBLISH

#: Every verb, in the order ``dpteach --help`` and the reference page list them.
VERBS: tuple[Verb, ...] = (*_PUBLISH, *_COURSE, *_HUB)

PROG = "dpteach"
DESCRIPTION = ("The workbook's tools: open the lab, execute the chapters, build the book and the slides, present "
               "a chapter, build a course's homework and grade it, run a hub. `dpteach VERB --help` gives a "
               "verb's options and an example.")


def build_parser(width: int | None = None) -> argparse.ArgumentParser:
    """The whole command's parser: a subparser per :data:`VERBS` entry (``width``: help text's line width)."""
    columns = width or min(100, shutil.get_terminal_size().columns - 2)

    def formatter(prog):
        return argparse.RawDescriptionHelpFormatter(prog, width=columns)

    def fill(*paragraphs: str) -> str:
        return "\n\n".join(textwrap.fill(p, columns) for p in paragraphs if p)

    parser = argparse.ArgumentParser(prog=PROG, description=fill(DESCRIPTION), formatter_class=formatter)
    parser.add_argument("--root", metavar="DIR", default=None, help="the project's root, the folder holding notebooks/ "
                                                     "(default: the current directory)")
    commands = parser.add_subparsers(dest="verb", metavar="VERB", title="verbs")
    commands.required = True
    for verb in VERBS:
        sub = commands.add_parser(verb.name, help=verb.summary, formatter_class=formatter,
                                  description=fill(f"{verb.summary[0].upper()}{verb.summary[1:]}.", verb.description),
                                  epilog="example:\n  " + "\n  ".join(verb.examples))
        if verb.project:
            # also after the verb; SUPPRESS keeps a --root given before it
            sub.add_argument("--root", metavar="DIR", default=argparse.SUPPRESS,
                             help="the project's root, the folder holding notebooks/ (default: the current directory)")
        verb.arguments(sub)
        sub.set_defaults(_verb=verb, _parser=sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``dpteach ARGV``; return its exit status (2 for an argument error, with argparse's message)."""
    parser = build_parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    return args._verb.run(args, args._parser) or 0


def markdown_reference() -> str:
    """The reference page of the command line (MyST Markdown), written from :func:`build_parser`'s subparsers:
    each verb's summary, description, synopsis, options (with defaults) and examples."""
    from .reference import markdown

    return markdown(build_parser(width=100), VERBS)
