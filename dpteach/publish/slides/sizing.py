"""How tall a cell is on a slide, and how large a figure is drawn on one.

A slide is read from the back of a room, not at a desk. The budget is a 1920×1080 slide with body text
at 28 px (24 px and more at 1920×1080, the same share of a 1280×720 screen): :func:`cell_height`
estimates what each cell takes of it, from its text and its outputs, so that the pagination
(:mod:`.pagination`) can split a section into slides that fit.

Figures on the static deck (no kernel) are drawn so that their smallest text is 24 px or more on the
screen: each PNG the workbook draws says how small its smallest text is (a ``dpteach:text-px`` text
chunk, :func:`dpteach.plots.text_px`), and :func:`size_figures` gives every figure the height that
makes that text :data:`FIGURE_TEXT` px, within the slide. On the live slides an interactive figure sits
beside its controls (rise.css), as wide as the rest of the slide.
"""

from __future__ import annotations

import base64
import math
import re
import struct

from ...plots import png_text_px
from .marking import LONG_CODE, role

#: A slide's height and the height its content may fill (px of a 1920×1080 slide: the margins aside).
SLIDE_HEIGHT = 1080
SLIDE_BUDGET = 960
#: Characters on a line of prose (28 px) and of code or printed output (24 px), across 1800 px.
PROSE_CHARS, CODE_CHARS = 105, 118
PROSE_LINE, CODE_LINE = 38, 31
#: The height a figure is drawn on a static slide when its PNG does not say how small its text is.
FIGURE_CAP = 540
#: Static deck: a figure is drawn so that its smallest text is this high on the 1920×1080 slide (reveal.js
#: scales the slide by 0.98 for its margin: 24 px on the screen), as wide as :data:`CONTENT_WIDTH` at most
#: and :data:`FIGURE_MAX` high at most (a slide's 1040 px inside its padding, less a heading: a figure that
#: tall has its slide to itself, with its heading and, for a precomputed view, its slider).
FIGURE_TEXT = 24.5
CONTENT_WIDTH = 1820
FIGURE_MAX = 920
#: A figure's height is exact where text's is estimated: a slide may fill this much when it takes a figure.
FIGURE_BUDGET = 1000
#: Text that follows a figure may sit beside it, in a column this wide at least, this far from the figure.
BESIDE_MIN, BESIDE_GAP = 420, 40
#: On the live slides an interactive figure (``dpteach-interactive``) sits beside its controls, as wide as the
#: rest of the slide and at most this high (72vh; rise.css caps it the same way), or :data:`LIVE_FIGURE_NOTED`
#: (56vh) when text follows it on its slide (rise.css: the figure that has a Markdown cell after it), so that
#: a line before it and its "What to watch" after it fit on its slide.
LIVE_FIGURE_CAP = 778
LIVE_FIGURE_NOTED = 605
#: Tags under which the book hides a cell's code (the slides hide it too).
HIDE_INPUT_TAGS = ("remove_input", "remove-input", "hide-input", "hide_input")
CONTROL_MODELS = ("SliderModel", "ButtonModel", "ToggleButtonModel", "CheckboxModel", "DropdownModel",
                  "RadioButtonsModel", "ToggleButtonsModel", "TextModel", "IntTextModel", "FloatTextModel")


def text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value or "")


def widget_state(nb) -> dict:
    """The widget models saved in a notebook, by id."""
    return nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})


def hides_code(cell) -> bool:
    """True when the slides show only the output of this code cell: the book hides its code (a tag),
    or it is longer than :data:`LONG_CODE` lines."""
    if cell.cell_type != "code":
        return False
    tags = cell.metadata.get("tags", [])
    return any(t in tags for t in HIDE_INPUT_TAGS) or len(cell.source.splitlines()) > LONG_CODE \
        or cell.metadata.get("jupyter", {}).get("source_hidden", False)


def wrapped(value: str, width: int) -> int:
    return sum(max(1, -(-len(line) // width)) for line in value.splitlines()) if value.strip() else 0


# -- figures on the static deck ----------------------------------------------------------------------

def png_size(png: bytes) -> tuple[int, int]:
    """A PNG's width and height in pixels (its IHDR)."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("png must be the bytes of a PNG image (they start with \\x89PNG)")
    return struct.unpack(">II", png[16:24])


def figure_height(png: bytes) -> int:
    """The height (px of the 1920×1080 slide) at which a figure's smallest text is :data:`FIGURE_TEXT` px,
    no wider than :data:`CONTENT_WIDTH` and no taller than :data:`FIGURE_MAX` (its text is then smaller:
    the browser test says so), and never smaller than :data:`FIGURE_CAP` where the width allows.
    A PNG that does not say how small its text is gets :data:`FIGURE_CAP`."""
    width, height = png_size(png)
    small = png_text_px(png)
    widest = CONTENT_WIDTH * height / width
    if not small:
        return round(min(FIGURE_CAP, widest))
    wanted = height * FIGURE_TEXT / small
    return math.ceil(min(max(wanted, min(FIGURE_CAP, widest)), widest, FIGURE_MAX))


def _image_bytes(model: dict) -> bytes | None:
    for buffer in model.get("buffers", []):
        if buffer.get("path") == ["value"] and buffer.get("encoding") == "base64":
            return base64.b64decode(buffer["data"])
    value = model.get("state", {}).get("value")
    return base64.b64decode(value) if isinstance(value, str) and value else None


def size_figures(cells: list, state: dict) -> None:
    """Give every figure of the static deck its height (:func:`figure_height`): an inline PNG through its
    output metadata (the deck's template writes it as a style), a widget image through its model and its
    layout. Every frame of a precomputed view gets the height of the tallest, and the view loses the note the
    book shows above it ("Precomputed view: …", the book's business). A cell that shows a figure shows it
    without its code (the call is not the point on a slide)."""
    for cell in cells:
        if cell.cell_type != "code" or role(cell) in ("skip", "notes"):
            continue
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            view = data.get("application/vnd.jupyter.widget-view+json")
            if "image/png" in data or (view and any(m.get("model_name") == "ImageModel"
                                                    for m in _models(state, view.get("model_id", "")))):
                _hide_code(cell)
            if view and view.get("dpteach_precomputed"):
                note = next((m for m in _models(state, view.get("model_id", "")) if m.get("model_name") == "HTMLModel"), None)
                layout = state.get(str((note or {}).get("state", {}).get("layout", "")).removeprefix("IPY_MODEL_"))
                if layout is not None:
                    layout["state"]["display"] = "none"
            if "image/png" in data:
                png = base64.b64decode(text(data["image/png"]))
                output.setdefault("metadata", {}).setdefault("image/png", {})["height"] = figure_height(png)
    for model in state.values():
        if model.get("model_name") == "StackModel":
            children = [state.get(c.removeprefix("IPY_MODEL_"), {}) for c in model["state"].get("children", [])]
            frames = [(child, _image_bytes(child)) for child in children if child.get("model_name") == "ImageModel"]
            tallest = max((figure_height(png) for _, png in frames if png), default=None)
            for child, _ in frames:
                if tallest:
                    _set_height(child, state, tallest)
    for model in state.values():
        if model.get("model_name") == "ImageModel" and not model["state"].get("height"):
            png = _image_bytes(model)
            if png:
                _set_height(model, state, figure_height(png))


def _hide_code(cell) -> None:
    cell.metadata.setdefault("jupyter", {})["source_hidden"] = True
    tags = cell.metadata.setdefault("tags", [])
    if "remove_input" not in tags:
        tags.append("remove_input")


def _set_height(image: dict, state: dict, height: int) -> None:
    """An image model's height: its attribute, and its layout's (a style, which the widgets' CSS cannot override)."""
    image["state"]["height"] = str(height)
    layout = state.get(str(image["state"].get("layout", "")).removeprefix("IPY_MODEL_"))
    if layout is not None:
        layout["state"].update({"height": f"{height}px", "width": "auto"})


def figure_box(cell, state: dict) -> tuple[int, int] | None:
    """The width and height a sized figure takes on a static slide (the first image of the cell), or None."""
    for output in cell.get("outputs", []):
        data = output.get("data", {})
        if "image/png" in data:
            png = base64.b64decode(text(data["image/png"]))
            height = output.get("metadata", {}).get("image/png", {}).get("height") or figure_height(png)
            width, natural = png_size(png)
            return round(width * height / natural), height
        view = data.get("application/vnd.jupyter.widget-view+json")
        if view:
            for model in _models(state, view.get("model_id", "")):
                if model.get("model_name") == "ImageModel" and model["state"].get("height"):
                    png = _image_bytes(model)
                    if png:
                        width, natural = png_size(png)
                        height = int(model["state"]["height"])
                        return round(width * height / natural), height
    return None


def _models(state: dict, model_id: str):
    model = state.get(model_id)
    if model is None:
        return
    yield model
    for child in model.get("state", {}).get("children", []):
        if isinstance(child, str):
            yield from _models(state, child.removeprefix("IPY_MODEL_"))


# -- heights -----------------------------------------------------------------------------------------

def is_interactive(state: dict, model_id: str) -> bool:
    """True for the view of a live figure with its controls (``dpteach-interactive``)."""
    return "dpteach-interactive" in state.get(model_id, {}).get("state", {}).get("_dom_classes", ())


def widget_height(state: dict, model_id: str, live: bool = False) -> int:
    """A widget view's height on a slide: its rows of controls, its text, its figure.

    On the live slides (``live``) an interactive figure is laid out as a column of controls beside the
    figure, so it is as high as the taller of the two. On the static deck its controls are left out (no
    kernel moves them: only a precomputed view's slider stays), and a figure is as high as it is sized."""
    def walk(mid: str, stacked: bool = False) -> int:
        model = state.get(mid, {})
        name, st = model.get("model_name", ""), model.get("state", {})
        children = [c.removeprefix("IPY_MODEL_") for c in st.get("children", []) if isinstance(c, str)]
        if "dpteach-interactive" in st.get("_dom_classes", ()) and children:
            if live:       # the controls' row (an HBox the CSS turns into a column) and the status line, beside the figure
                return max(sum(walk(c, stacked=True) for c in children[:-1]), LIVE_FIGURE_CAP)
            return sum(walk(c) for c in children[1:])
        if name == "ImageModel":
            return int(st["height"]) if not live and str(st.get("height", "")).isdigit() else FIGURE_CAP
        layout = state.get(str(st.get("layout", "")).removeprefix("IPY_MODEL_"), {}).get("state", {})
        if layout.get("display") == "none":
            return 0
        if name in ("HTMLModel", "HTMLMathModel", "LabelModel"):
            plain = re.sub(r"<[^>]+>", "", text(st.get("value")))
            return wrapped(plain, PROSE_CHARS) * PROSE_LINE
        if name.endswith(CONTROL_MODELS):
            return 52
        if name == "StackModel":
            return max((walk(c) for c in children), default=0)
        if name in ("HBoxModel", "GridBoxModel") and not stacked:
            return max((walk(c) for c in children), default=0)
        if name == "OutputModel":
            return sum(output_height(o, state, live) for o in st.get("outputs", []))
        return sum(walk(c) for c in children)
    return walk(model_id) + 16


def output_height(output: dict, state: dict, live: bool = False) -> int:
    data = output.get("data", {})
    if output.get("output_type") == "stream":
        return wrapped(text(output.get("text")), CODE_CHARS) * CODE_LINE + 20
    view = data.get("application/vnd.jupyter.widget-view+json")
    if view:
        return widget_height(state, view.get("model_id", ""), live)
    if "image/png" in data:      # drawn at its sized height (static), else FIGURE_CAP (the CSS keeps its shape)
        return int(output.get("metadata", {}).get("image/png", {}).get("height") or FIGURE_CAP) + 12
    if "text/html" in data:
        html = text(data["text/html"])
        rows = re.findall(r"<tr.*?</tr>", html, re.S)
        return sum(row_height(r) for r in rows) + 20 if rows else wrapped(re.sub(r"<[^>]+>", "", html), PROSE_CHARS) * PROSE_LINE
    if "text/markdown" in data:
        return markdown_height(text(data["text/markdown"]))
    if "text/latex" in data:
        return 90
    if "text/plain" in data:
        return wrapped(text(data["text/plain"]), CODE_CHARS) * CODE_LINE + 20
    return 0


def row_height(row: str) -> int:
    """A table row's height: its longest cell wraps in a wide column, the others in narrow ones."""
    texts = sorted((len(re.sub(r"<[^>]+>", "", c).strip()) for c in re.findall(r"<t[dh].*?</t[dh]>", row, re.S)),
                   reverse=True) or [0]
    lines = max(-(-texts[0] // 70), -(-(texts[1] if len(texts) > 1 else 0) // 26), 1)
    return lines * 34 + 18


def blocks(markdown: str) -> list[str]:
    """Markdown cut into blocks at blank lines, a ```fence or a $$ display kept whole."""
    found, current, fence, display = [], [], False, False
    for line in markdown.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            fence = not fence
        if stripped.startswith("$$") and not fence:
            display = not display if stripped == "$$" or not (stripped.endswith("$$") and len(stripped) > 2) else display
        if not stripped and not fence and not display:
            if current:
                found.append("\n".join(current))
            current = []
            continue
        current.append(line)
    if current:
        found.append("\n".join(current))
    return found


def markdown_height(markdown: str, chars: int = PROSE_CHARS) -> int:
    """The height of Markdown on a slide, its prose wrapped at ``chars`` characters a line (the slide's width)."""
    height = 0
    for block in blocks(markdown):
        stripped = block.lstrip()
        found = re.match(r"^(#{1,6}) ", stripped)
        if found:
            height += {1: 110, 2: 90}.get(len(found.group(1)), 76)
        elif stripped.startswith("<table"):
            height += sum(row_height(r) for r in re.findall(r"<tr.*?</tr>", block, re.S)) + 20
        elif stripped.startswith("```"):
            height += (len(block.splitlines()) - 2) * CODE_LINE + 30
        elif stripped.startswith("$$"):
            height += 70 + 48 * block.count("\\\\") + (40 if "frac" in block or "sum" in block else 0)
        elif stripped.startswith("|"):
            height += 46 * len([row for row in block.splitlines() if not re.match(r"^\s*\|[\s:|-]+\|\s*$", row)]) + 10
        elif re.match(r"^\s*([-*+]|\d+[.)])\s", stripped):
            items = re.split(r"(?m)^\s*(?:[-*+]|\d+[.)])\s", block)
            height += sum(wrapped(i.replace("\n", " "), chars - 4) * PROSE_LINE + 8 for i in items if i.strip()) + 16
        else:
            plain = re.sub(r"\$\$.+?\$\$", "", block.replace("\n", " "))
            height += wrapped(plain, chars) * PROSE_LINE + 22 + 70 * block.count("$$") // 2
    return height


def cell_height(cell, state: dict | None = None, live: bool = False) -> int:
    """The height (px of a 1920×1080 slide) a cell takes on a slide, estimated from its text and outputs
    (``live``: on the live slides, where an interactive figure sits beside its controls)."""
    state = state or {}
    if cell.cell_type == "markdown":
        return markdown_height(cell.source)
    if cell.cell_type != "code":
        return 0
    height = 0 if hides_code(cell) else wrapped(cell.source, CODE_CHARS) * CODE_LINE + 28
    return height + sum(output_height(o, state, live) for o in cell.get("outputs", []))


def live_figure(cell, state: dict) -> bool:
    """True for a cell that shows an interactive figure (the live slides cap its figure by rise.css)."""
    return cell.cell_type == "code" and any(
        is_interactive(state, o.get("data", {}).get("application/vnd.jupyter.widget-view+json", {}).get("model_id", ""))
        for o in cell.get("outputs", []))
