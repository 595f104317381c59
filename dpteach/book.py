"""The workbook's table of contents, read from the chapter notebooks themselves.

Each chapter is listed with its title, its first sentence, and its sections (its ``## `` headings, without the
frame every chapter has: overview, prerequisites, summary, exercises, what's next), each linked to its anchor,
so that a section a reader looks for by name (chapter 06's "Choosing ε and δ") is found from the map.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from pathlib import Path

_CHAPTER = re.compile(r"^(\d\d)_[a-z0-9_]+\.ipynb$")


@dataclass(frozen=True)
class Chapter:
    number: str
    path: Path
    title: str
    summary: str
    sections: tuple[str, ...] = ()

    def anchor(self, section: str) -> str:
        """The link to ``section`` in the notebook: Jupyter's anchor is the heading with spaces as hyphens."""
        return f"{self.path.name}#{section.replace(' ', '-')}"


#: The headings every chapter has, left out of its list of sections.
FRAME = ("Overview", "Prerequisites", "Summary", "Exercises", "What's next")


def chapters(folder: str | Path | None = None) -> list[Chapter]:
    """Every chapter notebook ``NN_name.ipynb`` in ``folder``, with its title (the first ``#``
    heading) and summary (the first sentence after it). By default the folder is the current
    one (a chapter's kernel runs in the folder that holds it), or its ``notebooks/`` when run
    from the project's root: never a folder found from where the package is installed."""
    if folder is None:
        here = Path.cwd()
        folder = here if any(_CHAPTER.match(p.name) for p in here.iterdir()) else here / "notebooks"
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"folder must be a directory holding the chapter notebooks, got {str(folder)!r}")
    out = []
    for path in sorted(folder.iterdir()):
        m = _CHAPTER.match(path.name)
        if m:
            title, summary, sections = _title_and_summary(path)
            out.append(Chapter(m.group(1), path, title, summary, sections))
    return out


def _title_and_summary(path: Path) -> tuple[str, str, tuple[str, ...]]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    title = next((ln[2:].strip() for ln in text.splitlines() if ln.startswith("# ")), path.stem)
    after = text.split(f"# {title}", 1)[-1]
    paragraphs = [p.strip() for p in after.split("\n\n") if p.strip() and not p.lstrip().startswith(("#", "|", ">", "-", "```"))]
    first = paragraphs[0].replace("\n", " ") if paragraphs else ""
    sentence = re.split(r"(?<=[.!?])\s", first, maxsplit=1)[0]
    sections = tuple(ln[3:].strip() for ln in text.splitlines()
                     if ln.startswith("## ") and ln[3:].strip() not in FRAME)
    return title, sentence, sections


_STRONG = re.compile(r"\*\*(.+?)\*\*")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
_CODE = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def _plain(markdown: str) -> str:
    """Inline Markdown as plain text: the words of **bold**, *italic*, `code` and [links](...), without the marks."""
    text = _LINK.sub(r"\1", markdown)
    text = _CODE.sub(r"\1", text)
    text = _STRONG.sub(r"\1", text)
    return _EMPHASIS.sub(r"\1", text)


def _html(markdown: str) -> str:
    """Inline Markdown as HTML: **bold**, *italic*, `code` and [links](...); everything else escaped."""
    text = html.escape(markdown, quote=False)
    text = _LINK.sub(lambda m: f"<a href='{html.escape(m.group(2))}'>{m.group(1)}</a>", text)
    text = _CODE.sub(r"<code>\1</code>", text)
    text = _STRONG.sub(r"<strong>\1</strong>", text)
    return _EMPHASIS.sub(r"<em>\1</em>", text)


class ChapterMap:
    """A displayable table of the chapters, with links (HTML in a notebook, text elsewhere)."""

    def __init__(self, items: list[Chapter]) -> None:
        self.items = items

    def __repr__(self) -> str:
        return "\n".join(f"{c.number}  {_plain(c.title)}" + "".join(f"\n      · {_plain(t)}" for t in c.sections)
                         for c in self.items)

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{c.number}</td><td><a href='{html.escape(c.path.name)}'>{html.escape(_plain(c.title))}</a></td>"
            f"<td>{_html(c.summary)}{_sections_html(c)}</td></tr>" for c in self.items)
        return ("<table><thead><tr><th>#</th><th>chapter</th><th>what it teaches</th></tr></thead>"
                f"<tbody>{rows}</tbody></table>")


def _sections_html(chapter: Chapter) -> str:
    """A chapter's sections as a line of links under its summary."""
    if not chapter.sections:
        return ""
    links = " · ".join(f"<a href='{html.escape(chapter.anchor(t))}'>{html.escape(_plain(t))}</a>"
                       for t in chapter.sections)
    return f"<br><small>{links}</small>"


def chapter_map(folder: str | Path | None = None) -> ChapterMap:
    """The chapter list as a table: run it in chapter 00 to see every chapter present."""
    return ChapterMap(chapters(folder))
