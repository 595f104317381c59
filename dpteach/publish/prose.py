"""The chapters' prose as the book shows it: maths written in plain text set as maths, chapters named by title.

The chapters write some of their maths in plain text, in the Unicode a notebook's Markdown shows well
(e^ε, M_L(x, f, ε), p_x(z), e^(−t)), beside formulas typeset between dollars. On a page those carets and
underscores read as code next to the typeset maths, so the book sets them as superscripts and subscripts
(MyST's ``{sup}`` and ``{sub}`` roles, docutils' own): e^ε becomes e with a raised ε, p_x(z) p with x
lowered. Only prose changes: code, inline code, formulas between dollars, links' targets and HTML stay
as they are, and so does a word with an underscore inside it (max_size is a name, not maths).

A link whose text is a chapter's file name (``[03_laplace_mechanism.ipynb](03_laplace_mechanism.ipynb)``)
is named by the chapter's title instead ("03 · The Laplace mechanism…"), as the sidebar names it.
"""

from __future__ import annotations

import re

#: What the prose leaves alone: fenced code, inline code, display and inline formulas, roles, links' targets,
#: HTML tags (in this order of precedence).
_KEEP = re.compile(r"```.*?```|`[^`\n]*`|\$\$.*?\$\$|\$[^$\n]+\$|\{\w+\}`[^`]*`|\]\([^)\s]*\)|<[^>\n]+>", re.S)
#: A base (one letter, not the end of a longer word or name; or a closing bracket) and its ^ or _.
_MARK = re.compile(r"(?:(?<![A-Za-z0-9_α-ωΑ-Ωℝℕℤ.′])[A-Za-zα-ωΑ-Ωℝℕℤ][′']?|[)\]])([_^])(?=[(\w−+\-α-ωΑ-Ω∞])")
#: A superscript or subscript written without brackets: a run of letters, digits and signs (a decimal kept).
_RUN = re.compile(r"[−+\-]?(?:\d+(?:\.\d+)?|[A-Za-zα-ωΑ-ΩΔ∞]+[′']?)")


def _group(source: str, start: int) -> tuple[str, int] | None:
    """The bracketed group at ``start`` (``(…)``, nested brackets kept): its inside and where it ends."""
    depth = 0
    for at in range(start, len(source)):
        depth += {"(": 1, ")": -1}.get(source[at], 0)
        if depth == 0:
            return source[start + 1:at], at + 1
    return None


def _typeset(prose: str) -> str:
    out, at = [], 0
    for found in _MARK.finditer(prose):
        if found.start() < at:
            continue
        begin = found.end()
        if prose[begin] == "(":
            group = _group(prose, begin)
            if group is None:
                continue
            inside, end = group
        else:
            run = _RUN.match(prose, begin)
            if run is None:
                continue
            inside, end = run.group(0), run.end()
        if not inside.strip() or "`" in inside:
            continue
        role = "sup" if found.group(1) == "^" else "sub"
        out.append(prose[at:found.start(1)] + f"{{{role}}}`{inside}`")
        at = end
    out.append(prose[at:])
    return "".join(out)


def typeset_plain_maths(markdown: str) -> str:
    """Markdown whose plain-text superscripts and subscripts are set as such (MyST roles), its code, formulas,
    links' targets and HTML untouched.

    >>> typeset_plain_maths("the odds move by e^ε; M_L(x) = f(x) + Lap(Δf/ε), `max_size` and $e^\\\\varepsilon$")
    'the odds move by e{sup}`ε`; M{sub}`L`(x) = f(x) + Lap(Δf/ε), `max_size` and $e^\\\\varepsilon$'
    >>> typeset_plain_maths("½e^(−|x|/b), p_x(z)/p_y(z), (x)_i, e^0.49 and max_size")
    '½e{sup}`−|x|/b`, p{sub}`x`(z)/p{sub}`y`(z), (x){sub}`i`, e{sup}`0.49` and max_size'
    """
    out, at = [], 0
    for kept in _KEEP.finditer(markdown):
        out.append(_typeset(markdown[at:kept.start()]))
        out.append(kept.group(0))
        at = kept.end()
    out.append(_typeset(markdown[at:]))
    return "".join(out)


_FILE_LINK = re.compile(r"\[`?(\d\d_[a-z0-9_]+)\.(?:ipynb|md|html)`?\]\(")


def name_chapter_links(markdown: str, titles: dict[str, str]) -> str:
    """A link whose text is a chapter's file name, named by the chapter's title (``titles``: by stem).

    >>> name_chapter_links("see [03_x.ipynb](03_x.ipynb)", {"03_x": "03 · The X"})
    'see [03 · The X](03_x.ipynb)'
    """
    return _FILE_LINK.sub(lambda m: f"[{titles[m.group(1)]}](" if m.group(1) in titles else m.group(0), markdown)
