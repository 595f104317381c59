"""How long a chapter takes to read: its core path, and what its "Going further" parts add (issue 52).

The rule: **words at 238 a minute, plus one minute for each code cell.** Words are the whitespace-separated
tokens of the Markdown cells a learner reads (a folded solution, tagged ``solution``, is left out: it is opened
after answering, not read on the way); 238 words a minute is the average silent-reading rate of adults for
non-fiction (Brysbaert 2019, "How many words do we read per minute?", *Journal of Memory and Language* 109).
A code cell takes about a minute: run it, read what it prints or draws, move a slider. Mathematics counts as
its tokens, which undercounts a proof read slowly: the figure is a floor for the core, not a promise.

Each chapter's opening says it in one line (:func:`opening_line`, checked against the chapter by the tests),
and the book's index lists it (:func:`summary`). ``python -m dpteach.publish.reading_time`` prints the table of
every chapter; ``--write`` puts each chapter's line back into its MyST twin in ``sources/`` after an edit.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from .going_further import is_going_further, parts

#: Words read a minute (Brysbaert 2019, non-fiction, silent reading).
WORDS_PER_MINUTE = 238
#: Minutes for one code cell.
MINUTES_PER_CODE_CELL = 1.0
#: The line a chapter's opening carries.
LINE = re.compile(r"(?m)^\*Reading time: .*\*$")


@dataclass(frozen=True)
class ReadingTime:
    """Words and code cells of some cells of a chapter, and the minutes they take by the rule above."""

    words: int
    code_cells: int

    @property
    def minutes(self) -> float:
        return self.words / WORDS_PER_MINUTE + self.code_cells * MINUTES_PER_CODE_CELL

    def __add__(self, other: ReadingTime) -> ReadingTime:
        return ReadingTime(self.words + other.words, self.code_cells + other.code_cells)


def _source(cell) -> str:
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else text


def measure(cells) -> ReadingTime:
    """The words (Markdown, folded solutions left out) and the code cells of ``cells``."""
    words = code = 0
    for cell in cells:
        if cell.get("cell_type") == "code":
            code += 1
        elif cell.get("cell_type") == "markdown" and "solution" not in cell.get("metadata", {}).get("tags", []):
            words += len(_source(cell).split())
    return ReadingTime(words, code)


def core_and_depth(nb) -> tuple[ReadingTime, ReadingTime]:
    """(the core path's reading time, the Going-further parts') of a chapter."""
    core = measure(cell for cell in nb["cells"] if not is_going_further(cell))
    depth = measure(cell for cell in nb["cells"] if is_going_further(cell))
    return core, depth


def _minutes(value: float) -> int:
    return max(1, math.ceil(value))


def summary(nb) -> str:
    """A chapter's reading time in a phrase: ``core about 41 min; Going further 12 min (topic, topic)``."""
    core, depth = core_and_depth(nb)
    text = f"core about {_minutes(core.minutes)} min"
    topics = [topic for topic, _ in parts(nb)]
    if topics:
        text += f"; Going further {_minutes(depth.minutes)} min ({', '.join(topics)})"
    return text


def opening_line(nb) -> str:
    """The line a chapter's opening carries: its core's reading time, by the rule, and what Going further holds."""
    core, depth = core_and_depth(nb)
    line = (f"*Reading time: the core about {_minutes(core.minutes)} min ({core.words:,} words at "
            f"{WORDS_PER_MINUTE} a minute, {core.code_cells} code cells at a minute each)")
    topics = [topic for topic, _ in parts(nb)]
    if topics:
        line += f"; the Going-further parts add {_minutes(depth.minutes)} min: {'; '.join(topics)}"
    return line + ".*"


def write_opening_line(path) -> bool:
    """Put :func:`opening_line` into the MyST twin at ``path`` in place of its reading-time line (until it stops
    changing: the line's own words count). Returns whether the file changed. Raises ``ValueError`` when the file
    has no such line."""
    import jupytext

    path = Path(path)
    before = text = path.read_text(encoding="utf-8")
    if not LINE.search(text):
        raise ValueError(f"path {path} has no line starting '*Reading time: ' to update")
    for _ in range(4):
        line = opening_line(jupytext.reads(text, fmt="md:myst"))
        updated = LINE.sub(lambda _, new=line: new, text, count=1)
        if updated == text:
            break
        text = updated
    path.write_text(text, encoding="utf-8")
    return text != before


def main(argv: list[str] | None = None) -> int:
    import argparse

    import jupytext

    parser = argparse.ArgumentParser(prog="python -m dpteach.publish.reading_time",
                                     description="Each chapter's reading time, core and Going further.")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the project's root (default: here)")
    parser.add_argument("--write", action="store_true", help="update each chapter's reading-time line in sources/")
    args = parser.parse_args(argv)
    print(f"{'chapter':<40} {'core min':>8} {'words':>7} {'cells':>5} {'whole min':>9}")
    for path in sorted((args.root / "sources").glob("[0-9][0-9]_*.md")):
        if args.write and LINE.search(path.read_text(encoding="utf-8")):
            write_opening_line(path)
        core, depth = core_and_depth(jupytext.reads(path.read_text(encoding="utf-8"), fmt="md:myst"))
        whole = core + depth
        print(f"{path.stem:<40} {_minutes(core.minutes):>8} {core.words:>7,} {core.code_cells:>5} {_minutes(whole.minutes):>9}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
