"""The book's and the decks' accessibility rules that can be read without a browser (fast).

Text alternatives from a figure's anywidget in the saved widget state (its ``alt``, a precomputed view's ``alts``),
else composed from the controls; every figure of a deck described; links to chapters that open a deck; and the
configuration the browser tests rely on: the anywidget module loaded beside require.js (offline and online),
formulas out of the Tab order, the decks' assistive MathML and slider keys.
"""

import re

import nbformat
import pytest

from dpteach.publish.book_site import BOOK_CONF, _widget_alts, book_sources, describe_figures
from dpteach.publish.paths import TEMPLATES
from dpteach.publish.slides.deck import link_decks

LABELS = ["0.5", "1", "2"]


def _model(name: str, module: str, **state) -> dict:
    return {"model_name": name, "model_module": module, "model_module_version": "*",
            "state": {"_model_name": name, "_model_module": module, **state}}


def _precomputed(alts: list[str] | None) -> dict:
    """A precomputed view's state: a box of a selection slider, a stack of three images and (with ``alts``) an
    anywidget holding one description per frame."""
    state = {
        "box": _model("VBoxModel", "@jupyter-widgets/controls",
                      children=["IPY_MODEL_slider", "IPY_MODEL_stack"] + (["IPY_MODEL_access"] if alts else [])),
        "slider": _model("SelectionSliderModel", "@jupyter-widgets/controls", description="ε",
                         _options_labels=LABELS, index=1),
        "stack": _model("StackModel", "@jupyter-widgets/controls", children=[f"IPY_MODEL_img{i}" for i in range(3)]),
        **{f"img{i}": _model("ImageModel", "@jupyter-widgets/controls") for i in range(3)},
    }
    if alts:
        state["access"] = _model("AnyModel", "anywidget", _esm="export default {}", alt=alts[1], alts=alts, index=1)
    return state


def test_a_precomputed_view_is_described_by_its_anywidgets_alts():
    alts = [f"At ε = {e} the attacker is right {p}% of the time" for e, p in zip(LABELS, (62.2, 69.7, 81.5))]
    described, frames = _widget_alts(_precomputed(alts), "box", "", "The attack")
    assert described == alts
    assert frames == {"labels": LABELS, "alts": alts}


def test_without_an_anywidget_a_frame_is_described_by_its_slider_value():
    described, frames = _widget_alts(_precomputed(None), "box", "Precomputed view (move the slider)", "The attack")
    assert described == [f"Precomputed view; frame {i + 1} of 3, drawn at ε = {label}" for i, label in enumerate(LABELS)]
    assert frames["labels"] == LABELS


def test_alts_of_the_wrong_length_are_not_used_for_frames():
    state = _precomputed(["one", "two"])           # two texts for three frames: the composed ones instead
    described, _ = _widget_alts(state, "box", "", "")
    assert all("drawn at ε =" in text for text in described)


def test_a_live_figure_is_described_by_its_anywidgets_alt():
    state = {
        "box": _model("VBoxModel", "@jupyter-widgets/controls",
                      children=["IPY_MODEL_slider", "IPY_MODEL_img", "IPY_MODEL_access"]),
        "slider": _model("FloatSliderModel", "@jupyter-widgets/controls", description="ε", value=1.0),
        "img": _model("ImageModel", "@jupyter-widgets/controls"),
        "access": _model("AnyModel", "anywidget", alt="Laplace 69.7%, any ε-DP ≤ 73.1%"),
    }
    assert _widget_alts(state, "box", "", "")[0] == ["Laplace 69.7%, any ε-DP ≤ 73.1%"]
    del state["access"]
    state["box"]["state"]["children"].pop()
    assert _widget_alts(state, "box", "The attack", "")[0] == ["The attack; drawn at ε = 1"]


def _chapter() -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# A chapter\n\n## The attack\n\nSee [chapter 03](03_laplace_mechanism.ipynb#definition-3-3)."),
        nbformat.v4.new_code_cell("figure", outputs=[
            nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0KGgo=", "text/plain": "<Figure: x>"}),
            nbformat.v4.new_output("display_data", data={
                "application/vnd.jupyter.widget-view+json": {"model_id": "box", "version_major": 2, "version_minor": 0},
                "text/plain": "Precomputed view", "text/html": "<a href='05_accuracy_census_names.ipynb'>05</a>"}),
        ]),
    ])
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": _precomputed(["a", "b", "c"])}}
    return nb


def test_every_figure_of_a_deck_is_described():
    nb = describe_figures(_chapter())
    png, view = nb.cells[1].outputs
    assert png.metadata["image/png"]["alt"] == "Figure: x"
    assert view.data["application/vnd.jupyter.widget-view+json"]["dpteach_alt"] == ["a", "b", "c"]
    book = book_sources(_chapter())                      # the book describes them alike
    assert book.cells[1].outputs[1].data["application/vnd.jupyter.widget-view+json"]["dpteach_frames"]["alts"] == ["a", "b", "c"]


def test_links_in_a_deck_open_a_deck_not_a_notebook():
    nb = link_decks(_chapter())
    assert "(03_laplace_mechanism.slides.html)" in nb.cells[0].source
    assert "href='05_accuracy_census_names.slides.html'" in nb.cells[1].outputs[1].data["text/html"]
    assert ".ipynb" not in nb.cells[0].source + nb.cells[1].outputs[1].data["text/html"]


def _conf(offline: bool):
    """The book's Sphinx configuration, configured as a build with or without ``--online`` would be."""
    namespace: dict = {}
    exec(compile((BOOK_CONF / "conf.py").read_text(), "conf.py", "exec"), namespace)
    config = type("Config", (), {})()
    for key, value in namespace.items():
        if not key.startswith("_"):
            setattr(config, key, value)
    config.dpteach_offline, config.dpteach_assets, config.dpteach_instructor = offline, "", False
    config.nb_ipywidgets_js = {}
    namespace["_configure"](None, config)
    return config


@pytest.mark.parametrize("offline", [True, False])
def test_the_anywidget_module_loads_between_require_and_the_widget_renderer(offline):
    scripts = list(_conf(offline).nb_ipywidgets_js)
    at = scripts.index("dpteach-anywidget.js")
    assert re.search(r"require(\.min)?\.js$", scripts[at - 1]) and scripts[at + 1].endswith("embed-amd.js"), scripts
    assert (BOOK_CONF / "_static" / "dpteach-anywidget.js").is_file()


def test_formulas_are_no_tab_stops_and_the_decks_read_them_as_maths():
    assert _conf(True).mathjax2_config["menuSettings"]["inTabOrder"] is False
    deck = (TEMPLATES / "dpteach_slides" / "index.html.j2").read_text()
    assert re.search(r"assistiveMML:\s*true", deck) and re.search(r"inTabOrder:\s*false", deck)
    assert "keyboardCondition" in deck and "dpteach-anywidget.js" in deck


def test_the_books_reflow_rules():
    css = (BOOK_CONF / "_static" / "dpteach.css").read_text()
    assert re.search(r"div\.math\s*\{[^}]*overflow-x:\s*auto", css)
    assert re.search(r"main code span\.pre\s*\{[^}]*white-space:\s*normal", css)
    assert re.search(r"main code,[^{]*\{[^}]*overflow-wrap:\s*anywhere", css)
    slides = (TEMPLATES / "dpteach_slides" / "slides.css").read_text()
    assert re.search(r"\.reveal \.slides a\s*\{[^}]*text-decoration:\s*underline", slides)
