"""The command line's reference page, written from the parser itself (:func:`dpteach.cli.markdown_reference`).

Built from each option's own fields (its flags, metavar, help and default), never from argparse's formatted help,
whose layout changes between Python versions: the page is the same on every Python the package supports.
"""

from __future__ import annotations

import argparse

HEADER = """# The command line

<!-- Written by dpteach.cli.markdown_reference() from the command's parser: do not edit by hand.
     After changing a verb: python -c "from dpteach.cli import markdown_reference as m; print(m(), end='')" > docs/reference/command-line.md -->

Installing the package (`make lab` does it in `./.venv`) gives one command, `dpteach`, with a verb for each
task; `python -m dpteach` is the same command. `dpteach --help` lists the verbs and `dpteach VERB --help` gives
a verb's options and an example. Verbs that work on the workbook's folder take `--root` (default: the current
directory, the folder holding `notebooks/`). The Makefile's targets call these verbs (`make grade` runs
`dpteach grade`).
"""


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _flags(action: argparse.Action) -> str:
    if not action.option_strings:
        return f"`{action.metavar or action.dest.upper()}`"
    takes = action.nargs != 0
    metavar = action.metavar or (f"{{{','.join(action.choices)}}}" if action.choices else action.dest.upper())
    more = " ..." if action.nargs in ("+", "*") else ""
    return ", ".join(f"`{flag}{f' {metavar}{more}' if takes else ''}`" for flag in action.option_strings)


def _synopsis(name: str, actions: list[argparse.Action]) -> str:
    words = [f"dpteach {name}"]
    for action in actions:
        if action.option_strings:
            if action.required:
                words.append(f"{action.option_strings[0]} {action.metavar or action.dest.upper()}")
            continue
        metavar = action.metavar or action.dest.upper()
        words.append({"?": f"[{metavar}]", "*": f"[{metavar} ...]", "+": f"{metavar} ..."}.get(action.nargs, metavar))
    if any(a.option_strings and not a.required for a in actions):
        words.insert(1, "[options]")
    return " ".join(words)


def markdown(parser: argparse.ArgumentParser, verbs) -> str:
    """The page: a table of the verbs, then a section per verb (summary, description, synopsis, arguments, examples;
    each option's help states its default)."""
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    lines = [HEADER, "| verb | what it does |", "| --- | --- |"]
    lines += [f"| `{v.name}` | {_cell(v.summary)} |" for v in verbs]
    for verb in verbs:
        sub = subparsers.choices[verb.name]
        actions = [a for a in sub._actions if not isinstance(a, argparse._HelpAction)]
        lines += ["", f"## dpteach {verb.name}", "", f"{verb.summary[0].upper()}{verb.summary[1:]}.", ""]
        lines += [verb.description, "", "```text", _synopsis(verb.name, actions), "```", ""]
        lines += ["| argument | meaning |", "| --- | --- |"]
        lines += [f"| {_flags(action)} | {_cell(action.help or '')} |" for action in actions]
        lines += ["", "Example:", "", "```bash", *verb.examples, "```"]
    return "\n".join(lines) + "\n"
