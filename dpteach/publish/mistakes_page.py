"""The self-study book's "Common mistakes" page, made from the checkers' registry.

Every wrong step an exercise's checker recognises has a name, a one-line why and the section that teaches the
right step (``dp.exercises.common_mistakes()``); the claims DP teaching material most often gets wrong come with
the section that gets them right (``dp.exercises.wrong_claims()``). This page lists both, grouped by the chapter
that teaches the step, and links to the section rather than quoting its formula, so that no homework answer is
one click away. A mistake named in the registry appears here without editing anything; the course edition's
book leaves the page out (a graded course's students meet each mistake in their checker's message).
"""

from __future__ import annotations

#: the page's file name in the book (``common_mistakes.html``)
STEM = "common_mistakes"
TITLE = "Common mistakes"


def _anchor(section: str) -> str:
    """The anchor MyST gives a heading (``myst_heading_anchors``): a link to it resolves to the heading's own id.

    MyST's own GitHub-style slug function: ``myst_parser.slugs.github_slugify`` from myst-parser 5, the same
    function as ``default_slugify`` in ``myst_parser.mdit_to_docutils.base`` before (4.x, the last for Python 3.10)."""
    try:
        from myst_parser.slugs import github_slugify
    except ImportError:
        from myst_parser.mdit_to_docutils.base import default_slugify as github_slugify

    return github_slugify(section)


def _where(chapter: str, section: str, titles: dict[str, str]) -> str:
    if chapter not in titles:
        return f"{section} (chapter {chapter[:2]}, not in this book)"
    return f"[{section}]({chapter}.ipynb#{_anchor(section)}) in {titles[chapter]}"


def page(titles: dict[str, str]) -> str:
    """The page's MyST Markdown. ``titles`` maps the stem of every chapter in the book to its short title (the
    sidebar's "05 · Accuracy and the census first names"); a section of a chapter left out is named, not linked."""
    from ..exercises import common_mistakes, wrong_claims

    mistakes = common_mistakes()
    chapters = sorted({m["chapter"] for m in mistakes})
    groups = []
    for chapter in chapters:
        here = [m for m in mistakes if m["chapter"] == chapter]
        name = titles.get(chapter, f"Chapter {chapter[:2]}")
        rows = "\n".join(f"- **{m['name']}.** {m['why']} *The right step:* {_where(chapter, m['section'], titles)}."
                         for m in here)
        groups.append(f"### {name}\n\n{rows}")
    claims = "\n".join(f"- **“{c['claim'].rstrip('.')}.”** {c['why']} *Read:* "
                       f"{_where(c['chapter'], c['section'], titles)}." for c in wrong_claims())
    return f"""# {TITLE}

The exercises' checkers recognise the wrong steps below, and name one when an answer matches it: the name
here is the one their message uses. Each comes with why it is wrong and a link to the section that teaches
the right step. The section, not the formula: work the step out there, and the exercise will tell you
whether you have it. {len(mistakes)} mistakes, by the chapter that teaches their step; then
{len(wrong_claims())} claims about differential privacy that teaching material often gets wrong.

## The mistakes the checkers name

{chr(10).join(groups)}

## Claims often made elsewhere

Each is written, somewhere, as if it were true. It is not, and the section linked says what is.

{claims}
"""
