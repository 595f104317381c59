"""An anywidget in the offline book, from file:// with the network cut (headless Chromium).

A small project of its own (one chapter, in a temporary folder) displays two figure boxes, each an Image widget and
an anywidget beside it: one whose ES module (``_esm``) runs, one whose module cannot be imported. The chapter is
executed with its widget state stored and built into a book by :func:`dpteach.publish.book_site.build_html`, as
``make html`` builds one. The widget renderer finds the module "anywidget" in the book itself (no request to a CDN,
no console error); the first figure's own module runs (render({model, el}): it sets the image's alt from the model
and marks its element); the second falls back to the book's minimal renderer: the alt, a polite live region and the
figure's data behind a "Data" toggle.
"""

import json
import textwrap

import nbformat
import pytest
from helpers import ARTIFACTS, ROOT, needs_chromium

from dpteach.publish.book_site import build_html
from dpteach.publish.execute import execute_notebook
from dpteach.publish.paths import Project

pytestmark = [needs_chromium, pytest.mark.slow]
LOCAL = ("file://", "blob:", "data:")

#: What the figures' access widget does in the lab, in small: the image's alt from the model, a mark that it ran.
ESM = """
export default {
  render({ model, el }) {
    el.dataset.ran = "esm";
    const show = () => {        // (its element joins the page after render: wait for the box around it)
      const box = el.closest(".dpteach-interactive");
      if (!box) return requestAnimationFrame(show);
      box.querySelectorAll("img").forEach(img => img.setAttribute("alt", model.get("alt")));
    };
    show();
    model.on("change:alt", show);
    const note = document.createElement("p");
    note.textContent = "rows: " + model.get("table").rows.length;
    el.appendChild(note);
    return () => model.off("change:alt", show);
  }
};
"""
ALTS = ["At ε = 1 the attacker's best guess is right 69.7% of the time against Laplace",
        "The noise's density, widest at ε = 0.1: half of its mass beyond ±6.9"]
TABLE = {"caption": "The attack's success", "columns": ["ε", "Laplace"], "rows": [["0.5", "62.2%"], ["1", "69.7%"]]}

CELL = textwrap.dedent('''
    import anywidget, traitlets, ipywidgets as widgets
    import matplotlib
    matplotlib.use("Agg")
    import io
    import matplotlib.pyplot as plt

    def png():
        figure, axes = plt.subplots(figsize=(2, 1.5))
        axes.plot([0, 1, 2], [0, 1, 0])
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png")
        plt.close(figure)
        return buffer.getvalue()

    class Access(anywidget.AnyWidget):
        _esm = {esm!r}
        alt = traitlets.Unicode("").tag(sync=True)
        table = traitlets.Dict().tag(sync=True)

    def figure(alt, esm):
        access = Access(alt=alt, table={table!r})
        access._esm = esm
        box = widgets.VBox([widgets.Image(value=png(), format="png"), access])
        box.add_class("dpteach-interactive")
        return box
''')


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    """The one-chapter book: executed with its widget state stored, then built offline as `make html` builds it."""
    root = tmp_path_factory.mktemp("anywidget-project")
    (root / "notebooks").mkdir()
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Figures that speak: an anywidget in the book\n\nA chapter made for a test."),
        nbformat.v4.new_code_cell(CELL.format(esm=ESM, table=TABLE)),
        nbformat.v4.new_code_cell(f"figure({ALTS[0]!r}, {ESM!r})"),
        nbformat.v4.new_code_cell(f"figure({ALTS[1]!r}, 'export default {{ render(')"),     # cannot be imported
    ])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = root / "notebooks" / "01_figures.ipynb"
    nbformat.write(nb, path)
    execute_notebook(path, path)
    state = nbformat.read(path, as_version=4).metadata["widgets"]["application/vnd.jupyter.widget-state+json"]
    assert any(m["model_name"] == "AnyModel" for m in state["state"].values())
    out = root / "build" / "html"
    build_html(Project(root), out, cache=Project(ROOT).npm_cache, executed=root / "notebooks", course=True)
    return out


def test_the_figures_anywidget_runs_in_the_offline_book(browser, book):
    context = browser.new_context(viewport={"width": 1000, "height": 900}, offline=True)
    page = context.new_page()
    log = {"outside": [], "failed": [], "errors": []}
    page.on("request", lambda r: None if r.url.startswith(LOCAL) else log["outside"].append(r.url))
    page.on("requestfailed", lambda r: log["failed"].append(f"{r.url} ({r.failure})"))
    page.on("pageerror", lambda e: log["errors"].append(str(e)))
    page.on("console", lambda m: log["errors"].append(f"console: {m.text}") if m.type == "error" else None)
    page.goto((book / "01_figures.html").as_uri(), wait_until="load")
    try:
        page.wait_for_selector(".dpteach-anywidget[data-ran=esm]", state="attached", timeout=30_000)
        page.wait_for_selector(".dpteach-access-fallback", state="attached", timeout=10_000)
    except Exception:
        pytest.fail(f"the anywidgets were not drawn: {json.dumps(log)[:1500]}")
    boxes = page.locator(".dpteach-interactive")
    assert boxes.count() == 2
    page.wait_for_function("alts => [...document.querySelectorAll('.dpteach-interactive')].every((b, i) => "
                           "[...b.querySelectorAll('img')].every(img => img.alt === alts[i]))", arg=ALTS, timeout=10_000)
    assert "rows: 2" in boxes.nth(0).inner_text()                      # the module's own render ran
    fallback = boxes.nth(1)
    assert fallback.locator("[aria-live=polite]").count() == 1
    summary = fallback.locator("details.dpteach-data > summary")
    assert summary.inner_text().strip() == "Data"
    summary.focus()
    page.keyboard.press("Enter")                                          # the Data toggle, by keyboard
    table = fallback.locator("details.dpteach-data table")
    table.wait_for(state="visible", timeout=5_000)
    assert table.locator("caption").inner_text() == TABLE["caption"]
    assert table.locator("th").all_inner_texts() == TABLE["columns"]
    assert [r.locator("td").all_inner_texts() for r in table.locator("tbody tr").all()] == TABLE["rows"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "book_anywidget.png"), full_page=True)
    assert not log["outside"], f"requests left file://: {log['outside'][:3]}"
    assert not log["failed"], f"failed requests: {log['failed'][:3]}"
    assert not log["errors"], log["errors"][:5]
    context.close()
