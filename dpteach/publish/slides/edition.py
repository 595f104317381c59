"""The slide edition: a chapter (its instructor edition) made for a room, at build time.

Nothing in notebooks/ or instructor/ changes. :func:`slide_edition` is applied to the static deck
(:func:`~.deck.build_slides`) and to the live copy ``make present`` writes (``python -m dpteach.publish
instructor --slides``, :mod:`dpteach.publish.present`). Its budget is a 1920×1080 slide with body text at
28 px (24 px and more at 1920×1080, the same share of a 1280×720 screen): :mod:`.sizing` and
:mod:`.pagination`.
"""

from __future__ import annotations

import copy
import html
import re
from types import SimpleNamespace

from .marking import heading, role, set_role
from .pagination import paginate, split_tall_tables
from .sizing import CONTROL_MODELS, blocks, hides_code, size_figures, widget_state

#: Prose longer than this (characters) is shortened on the slide, the full text moving to the speaker notes.
LONG_PROSE = 170
_STATEMENT = ("**Definition", "**Theorem", "**Fact", "**Claim", "**Corollary", "**Lemma")
_ABBREVIATIONS = ("e.g", "i.e", "vs", "cf", "al", "Fig", "Eq", "Def", "Thm", "No", "p", "pp", "ca", "approx")
_PRECOMPUTED = re.compile(r"dp\.widgets\.precomputed\(\s*(?:dp\.widgets\.)?(\w+)")

#: RISE's settings for the live copy (notebook metadata ``rise``, which RISE reads over the lab's settings):
#: slides fill the screen to its edges, top-aligned, never scroll (the edition makes them fit), no
#: transition, "slide n / N"; the first code cell of a new slide is not selected (it would scroll). The
#: reveal.js theme is "white", whose fonts come with RISE ("simple" asks Google Fonts for its own).
RISE_SETTINGS = {"scroll": False, "center": False, "margin": 0.02, "transition": "none", "slideNumber": "c/t",
                 "auto_select": "none", "width": "100%", "height": "100%", "theme": "white"}


def _sentences(value: str) -> list[str]:
    """``value`` cut into sentences, never inside $…$ math, after an abbreviation or after a bold label."""
    masked = re.sub(r"\$[^$]+\$", lambda m: "\0" * len(m.group()), value)
    cuts, start = [], 0
    for found in re.finditer(r"(?<=[.!?])\s+(?=[A-Z(*$\[“\"ΔεδΘ])", masked):
        before = masked[start:found.start()].rsplit(None, 1)[-1] if masked[start:found.start()].strip() else ""
        if before.rstrip(".").rstrip("!?") in _ABBREVIATIONS or re.fullmatch(r"[A-Za-z]\.", before):
            continue
        cuts.append(found.start())
    pieces, last = [], 0
    for cut in cuts:
        pieces.append(value[last:cut].strip())
        last = cut
    pieces.append(value[last:].strip())
    return [p for p in pieces if p]


def _shorten_paragraph(block: str) -> str:
    """A paragraph's first sentence (its display formulas kept); a list's items, each to its first sentence."""
    lines = block.splitlines()
    if re.match(r"^\s*([-*+]|\d+[.)])\s", lines[0]):
        items, out = [], []
        for line in lines:
            if re.match(r"^\s*([-*+]|\d+[.)])\s", line) or not items:
                items.append(line)
            else:
                items[-1] += " " + line.strip()
        for item in items:
            lead = re.match(r"^(\s*(?:[-*+]|\d+[.)])\s+)(.*)$", item)
            first = _sentences(lead.group(2))
            out.append(lead.group(1) + (first[0] if first else lead.group(2)))
        return "\n".join(out)
    joined = " ".join(line.strip() for line in lines)
    displays = re.findall(r"\$\$.+?\$\$", joined)
    first = _sentences(re.sub(r"\$\$.+?\$\$", " ", joined))
    short = first[0] if first else joined
    return "\n\n".join([short, *displays])


def short_version(markdown: str) -> tuple[str, bool]:
    """The slide's version of a Markdown cell, and whether anything was left off.

    Headings, display formulas, code, tables and statements (definitions, theorems, facts, claims)
    stay whole; a paragraph longer than :data:`LONG_PROSE` characters keeps its first sentence, a
    list each item's first sentence.

    >>> short_version("## A\\n\\nOne. Two and more, a long sentence that goes on " + "and on " * 30 + ".")
    ('## A\\n\\nOne.', True)
    >>> short_version("**Theorem 3.6.** The Laplace mechanism preserves ε-DP. It is long.")[1]
    False
    """
    out, changed = [], False
    for block in blocks(markdown):
        stripped = block.lstrip()
        keep = (stripped.startswith(("#", "```", "$$", "|", "<", ">")) or stripped.startswith(_STATEMENT)
                or len(block) <= LONG_PROSE)
        if keep:
            out.append(block)
            continue
        short = _shorten_paragraph(block)
        changed = changed or short != block
        out.append(short)
    return "\n\n".join(out), changed


def _value_text(st: dict) -> str | None:
    """A saved control's value as its readout shows it (None for a button)."""
    if "_options_labels" in st:
        labels, index = st["_options_labels"], st.get("index")
        return str(labels[index]) if isinstance(index, int) and 0 <= index < len(labels) else None
    value = st.get("value")
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, (int, float)):
        spec = str(st.get("readout_format") or "g").replace("~", "")
        spec += "g" if re.fullmatch(r"\.\d+", spec) else ""      # d3's ".3" is 3 significant figures, zeros trimmed
        try:
            return format(value, spec).replace("e-0", "e-").replace("e+0", "e")
        except ValueError:
            return f"{value:g}"
    return None


def fixed_controls_caption(state: dict, model_id: str) -> str:
    """What a figure's caption says on the static deck, which leaves its sliders out (no kernel moves them there):
    the value each control was saved at, and for a privacy slider (ε, δ, a noise scale) which way is more private
    and which more accurate, as the slider's own label row says in the lab."""
    from ...widgets import direction_ends, private_end

    def controls(mid: str):
        st = state.get(mid, {}).get("state", {})
        if "dpteach-direction" in st.get("_dom_classes", ()):
            return
        if state.get(mid, {}).get("model_name", "").endswith(CONTROL_MODELS) and st.get("description"):
            yield st
        for child in st.get("children", []):
            if isinstance(child, str):
                yield from controls(child.removeprefix("IPY_MODEL_"))

    values, ends, trades = [], {"low": [], "high": []}, []
    for st in controls(model_id):
        text = _value_text(st)
        if text is None:
            continue
        description = str(st["description"])
        values.append(f"{description}: {text}" if isinstance(st.get("value"), bool) else f"{description} = {text}")
        end = private_end(SimpleNamespace(description=description))
        if end is not None:
            ends[end].append(description.split(" ", 1)[0])
        elif (trade := direction_ends(SimpleNamespace(description=description))) is not None:
            trades.append(f"{description.split(' ', 1)[0]}: {trade[0]} · {trade[1]}.")   # δ′: slack, not a dial
    if not values:
        return ""
    said = [f"Drawn at {', '.join(values)}."]
    for end, (more, less) in (("low", ("smaller", "larger")), ("high", ("larger", "smaller"))):
        if ends[end]:
            said.append(f"A {more} {' or '.join(ends[end])} is more private, a {less} one more accurate.")
    return " ".join(said + trades)


def _caption_fixed_controls(state: dict) -> None:
    """Static deck: each live figure's status line (the row under its controls, empty when it drew) says what its
    hidden sliders were set to and which way they are private (:func:`fixed_controls_caption`)."""
    for model in state.values():
        st = model.get("state", {})
        children = [c.removeprefix("IPY_MODEL_") for c in st.get("children", []) if isinstance(c, str)]
        if "dpteach-interactive" not in st.get("_dom_classes", ()) or len(children) < 2:
            continue
        status = state.get(children[1], {}).get("state", {})
        if state.get(children[1], {}).get("model_name") == "HTMLModel" and not status.get("value"):
            caption = fixed_controls_caption(state, children[0])
            if caption:
                status["value"] = f"<span class='dpteach-fixed'>{html.escape(caption)}</span>"


def _notes(value: str):
    import nbformat

    return nbformat.v4.new_markdown_cell(value, metadata={"slideshow": {"slide_type": "notes"}, "tags": ["slides"]})


def slide_edition(nb, *, live: bool = True):
    """A chapter (its instructor edition) made for a room: what the slides show, nothing else.

    * Code the book hides is hidden (``source_hidden``, and ``remove_input`` for the static deck).
    * Book-only material is left off: the web reader's note and, when ``live``, the precomputed copy
      of a figure; without a kernel (the static deck, ``live=False``) the precomputed view *replaces*
      the live figure, whose sliders could not move it there.
    * Long prose keeps a short version on the slide (:func:`short_version`); the full text moves to
      the slide's speaker notes.
    * On the static deck every figure is drawn so that its smallest text reads at 24 px
      (:func:`~.sizing.size_figures`).
    * Sub-slides become slides (→ and Space then both walk every slide in reading order), and a
      section taller than the screen is split into slides that each fit (:func:`~.pagination.paginate`),
      its heading repeated with "(continued)"; every slide has a heading; the text after a figure
      stays with it; the instructor's notes stay on the section's first slide.

    Cells are never removed or reordered (the live copy still runs top to bottom): only their slide
    roles, tags and the Markdown shown change, and notes and headings are inserted.
    """
    nb = copy.deepcopy(nb)
    state = widget_state(nb)
    cells = nb.cells
    # book-only cells: the precomputed views and the note that introduces them
    for index, cell in enumerate(cells):
        found = _PRECOMPUTED.search(cell.source) if cell.cell_type == "code" else None
        if not found:
            continue
        note = index - 1 if index and cells[index - 1].cell_type == "markdown" and not heading(cells[index - 1]) else None
        twin = next((i for i in range(index - 1, max(index - 4, -1), -1) if cells[i].cell_type == "code"
                     and re.search(rf"\b{found.group(1)}\(", cells[i].source)), None)
        if note is not None:
            set_role(cells[note], "skip")
        if live or twin is None:
            set_role(cell, "skip")
        else:
            set_role(cell, role(cells[twin]) or "-")
            set_role(cells[twin], "skip")
            cell.metadata.setdefault("tags", []).append("remove_input")     # its call is the book's business
            for output in cell.get("outputs", []):
                view = output.get("data", {}).get("application/vnd.jupyter.widget-view+json")
                if view:
                    view["dpteach_precomputed"] = True
    out = []
    for cell in cells:
        kind = role(cell)
        if kind == "subslide":
            set_role(cell, "slide")
            kind = "slide"
        if cell.cell_type == "code" and hides_code(cell):
            cell.metadata.setdefault("jupyter", {})["source_hidden"] = True
            if not live:
                tags = cell.metadata.setdefault("tags", [])
                if "remove_input" not in tags:
                    tags.append("remove_input")
        out.append(cell)
        if cell.cell_type == "markdown" and kind not in ("skip", "notes"):
            short, changed = short_version(cell.source)
            if changed:
                body = re.sub(r"(?m)^#{1,6} .*\n*", "", cell.source).strip()
                cell.source = short
                out.append(_notes(body))
    if not live:
        _caption_fixed_controls(state)
        size_figures(out, state)
    nb.cells = paginate(split_tall_tables(out), state, live)
    if live:
        nb.metadata["rise"] = dict(RISE_SETTINGS)
    return nb
