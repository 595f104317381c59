"""What a verb of the ``dpteach`` command is, and the helpers its runners share (standard library only)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Verb:
    """A subcommand: its name, a one-line summary (``dpteach --help``), a description and examples
    (``dpteach NAME --help``), ``arguments(parser)`` adding its options and ``run(args, parser)`` doing it
    (imports inside ``run`` only). ``project``: it works on a project (it takes ``--root``)."""

    name: str
    summary: str
    description: str
    examples: tuple[str, ...]
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, argparse.ArgumentParser], int | None]
    project: bool = True


def project(args: argparse.Namespace, parser: argparse.ArgumentParser):
    """The :class:`~dpteach.publish.paths.Project` at ``--root``, or an argument error saying what a root is."""
    from dpteach.publish.paths import Project

    try:
        return Project(args.root)
    except ValueError as error:
        parser.error(f"{error} (run it from the project's root, or give --root)")


def in_root(project, path: str | Path | None) -> Path | None:
    """``path`` relative to the project's root (an absolute path stays as it is); None stays None."""
    return None if path is None else project.root / path


def network_options(parser: argparse.ArgumentParser, assets: str) -> None:
    """``--offline`` (the default: pages that need no network, ``assets`` copied in) or ``--online`` (``assets`` from
    CDNs); ``args.offline`` is True unless ``--online`` is given."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--offline", dest="offline", action="store_true", default=True,
                       help=f"copy {assets} in: no network needed (the default)")
    where.add_argument("--online", dest="offline", action="store_false",
                       help=f"load {assets} from CDNs (a smaller folder that needs the network)")


def launch_options(parser: argparse.ArgumentParser, what: str) -> None:
    """``--repo``, ``--hub`` and ``--branch``: the launch links of a book's pages."""
    parser.add_argument("--repo", metavar="OWNER/NAME", default="",
                        help=f"owner/name on GitHub ({what}): an 'Open in Binder' link on "
                                                   "every page")
    parser.add_argument("--hub", metavar="URL", default="",
                        help="a JupyterHub URL: an 'Open on a JupyterHub' link (needs --repo)")
    parser.add_argument("--branch", metavar="NAME", default="main", help="the branch nbgitpuller pulls (default main)")


def in_range(parser: argparse.ArgumentParser, option: str, value: float, low: float, high: float | None = None) -> None:
    """An argument error naming ``option``, its value and the allowed range unless ``low <= value <= high``."""
    if not (value >= low and (high is None or value <= high)):
        allowed = f"≥ {low}" if high is None else f"in [{low}, {high}]"
        parser.error(f"{option} must be {allowed} (got {value})")


def lab_command(*extra: str) -> list[str]:
    """``python -m jupyterlab`` from this environment (the venv ``dpteach`` runs in), told that root may run it:
    containers and CI machines often are root, and JupyterLab refuses root unless told."""
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    return [sys.executable, "-m", "jupyterlab", *(["--allow-root"] if root else []), *extra]


def run_command(command: list[str], **kwargs) -> int:
    """Run ``command`` (a server until Ctrl+C, or a tool), its output on the terminal; return its exit status."""
    try:
        return subprocess.call(command, **kwargs)
    except KeyboardInterrupt:
        return 130
