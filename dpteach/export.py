"""Build the workbook for readers (HTML book) and instructors (reveal.js slides).

    python -m dpteach.export html   [--offline] [--instructor] [--out build/html]
    python -m dpteach.export slides [--offline] [--out build/slides]   (dpteach.slides builds them)

``make html`` / ``make slides`` call these. Each chapter is executed headless first (a fresh
kernel, widget state saved), so every figure, including those inside sliders, is in the
page as a still image, and every formula is typeset by MathJax. ``--offline`` copies MathJax
(from the PyPI package jupyter-server-mathjax), require.js, the widget renderer
(@jupyter-widgets/html-manager) and reveal.js (both from the npm registry, fetched with
``npm pack``) next to the pages, so the folder works with no network at all.

This module is a build tool: ``import dpteach`` does not import it.
"""

from __future__ import annotations

import argparse
import copy
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from .book import Chapter, chapters

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
TEMPLATES = Path(__file__).resolve().parent / "templates"
#: Our templates (dpteach_html, dpteach_slides) and the pieces they share (dpteach_common/).
_TEMPLATE_DIRS = {"extra_template_basedirs": [str(TEMPLATES)], "extra_template_paths": [str(TEMPLATES)]}

#: npm packages for offline pages: (name, version, {path in package: path in the book's assets/}).
NPM_ASSETS = [
    ("requirejs", "2.3.8", {"require.js": "require.js"}),
    ("@jupyter-widgets/html-manager", "1.0.15", {"dist": "html-manager"}),
]
REVEAL = ("reveal.js", "4.6.1", {"dist": "reveal.js/dist", "plugin": "reveal.js/plugin"})
JQUERY = ("jquery", "3.7.1", {"dist/jquery.min.js": "jquery.min.js"})
MATHJAX_TEX_FONTS = ("mathjax", "2.7.9", {"fonts/HTML-CSS/TeX/otf": "mathjax/fonts/HTML-CSS/TeX/otf"})


# -- executing ---------------------------------------------------------------------------

def execute(chapter: Chapter, out_dir: Path, timeout: int = 600):
    """Run a chapter top to bottom in a fresh kernel (cwd = notebooks/), widget state saved."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(chapter.path, as_version=4)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", record_timing=False,
                            store_widget_state=True, resources={"metadata": {"path": str(chapter.path.parent)}})
    client.execute()
    out_dir.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, out_dir / chapter.path.name)
    return nb


# -- offline assets ----------------------------------------------------------------------

def _npm_pack(name: str, version: str, cache: Path) -> Path:
    """The package tarball from the npm registry (via npm itself), cached in ``cache``."""
    cache.mkdir(parents=True, exist_ok=True)
    stem = name.lstrip("@").replace("/", "-")
    tgz = cache / f"{stem}-{version}.tgz"
    if not tgz.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("offline builds need npm (Debian: apt-get install -y npm) to fetch "
                               f"{name}@{version} from the npm registry")
        subprocess.run([npm, "pack", "--silent", f"{name}@{version}", "--pack-destination", str(cache)],
                       check=True, capture_output=True)
    return tgz


def _extract(tgz: Path, mapping: dict[str, str], dest: Path) -> None:
    with tarfile.open(tgz) as tar:
        for member in tar:          # in archive order: each file is read as the stream passes it
            if not member.isfile() or member.name.endswith(".map"):
                continue
            inner = member.name.split("/", 1)[1]          # drop the leading "package/"
            for src, target in mapping.items():
                if inner == src or inner.startswith(src + "/"):
                    path = dest / target / inner[len(src):].lstrip("/") if inner != src else dest / target
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(tar.extractfile(member).read())


def copy_offline_assets(dest: Path, cache: Path, reveal: bool = False) -> dict[str, str]:
    """Put MathJax, require.js and the widget renderer (and reveal.js) under ``dest``/assets.

    Returns the nbconvert settings that point the pages at them (relative URLs).
    """
    import jupyter_server_mathjax

    assets = dest / "assets"
    mathjax = Path(jupyter_server_mathjax.__file__).parent / "static"
    if not (assets / "mathjax" / "MathJax.js").exists():
        shutil.copytree(mathjax, assets / "mathjax", dirs_exist_ok=True)
    for name, version, mapping in NPM_ASSETS + ([REVEAL, JQUERY] if reveal else []):
        _extract(_npm_pack(name, version, cache), mapping, assets)
    settings = {
        "mathjax_url": "assets/mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full,Safe",
        "require_js_url": "assets/require.js",
        "widget_renderer_url": "assets/html-manager/embed-amd.js",
    }
    if reveal:
        settings["reveal_url_prefix"] = "assets/reveal.js"
        settings["jquery_url"] = "assets/jquery.min.js"
    return settings


# -- HTML book (Sphinx + myst-nb + sphinx-book-theme) ------------------------------------

BOOK_CONF = TEMPLATES / "book"
#: Text that says an interactive figure needs a kernel: true in JupyterLab, not in an image's description.
_LIVE_HINT = re.compile(r"\s*\((?:move|drag)[^()]*\)\s*$")
_FIGURE_REPR = re.compile(r"^<(\w+): (.*)>$", re.S)
_CONTROLS = ("SliderModel", "ToggleButtonModel", "CheckboxModel", "DropdownModel", "RadioButtonsModel",
             "ToggleButtonsModel", "IntTextModel", "FloatTextModel", "BoundedIntTextModel", "BoundedFloatTextModel")


def _link_pages(source: str) -> str:
    """Links between chapters point at the book's pages, not at the notebooks."""
    return re.sub(r"(\d\d_[a-z0-9_]+)\.ipynb", r"\1.html", source)


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value or "")


def _figure_alt(output: dict, section: str) -> str:
    """A short description of an inline figure: the figure's own (``alt`` metadata, from
    ``alt_text()``), else its title from the ``<FigureClass: title>`` repr, else the section it is in."""
    alt = output.get("metadata", {}).get("image/png", {}).get("alt")
    if alt:
        return str(alt)
    shown = _FIGURE_REPR.match(_text(output.get("data", {}).get("text/plain")).strip())
    if shown and shown.group(2).strip():
        return f"Figure: {shown.group(2).strip()}"
    return f"Figure in the section “{section}”" if section else "Figure"


def _widget_alts(state: dict, model_id: str, description: str, section: str) -> tuple[list[str], dict | None]:
    """One description per image of a widget view (in the order of the widget tree), and for a
    precomputed view ``{"labels": slider labels, "alts": one description per frame}``.

    A frame of a precomputed view is described with the slider value it was drawn at (the page
    shows one frame at a time: its script picks the description by the slider's readout); a
    live figure with the values its controls had when the chapter was executed."""
    base = _LIVE_HINT.sub("", description).strip() or (
        f"Interactive figure in the section “{section}”" if section else "Interactive figure")
    nodes, images, stacks, controls = [], [], {}, []

    def walk(mid: str, parent: str | None) -> None:
        model = state.get(mid)
        if model is None:
            return
        name, st = model.get("model_name", ""), model.get("state", {})
        if name == "ImageModel":
            images.append((mid, parent))
        if name == "StackModel":
            stacks[mid] = [c.removeprefix("IPY_MODEL_") for c in st.get("children", [])]
        if name.endswith(_CONTROLS) and st.get("description"):
            if "_options_labels" in st:
                labels = st["_options_labels"]
                index = st.get("index", 0)
                value = labels[index] if isinstance(index, int) and 0 <= index < len(labels) else ""
            else:
                value = st.get("value", "")
                value = f"{value:g}" if isinstance(value, float) else str(value)
            controls.append((st["description"], value, st.get("_options_labels")))
        nodes.append(mid)
        for child in st.get("children", []):
            if isinstance(child, str):
                walk(child.removeprefix("IPY_MODEL_"), mid)

    walk(model_id, None)
    frames = next((labels for _, _, labels in controls if labels), None)
    chooser = next((desc for desc, _, labels in controls if labels), "")
    alts, frame_alts = [], None
    for mid, parent in images:
        if parent in stacks and frames and len(frames) == len(stacks[parent]):
            i = stacks[parent].index(mid)
            alts.append(f"{base}; frame {i + 1} of {len(frames)}, drawn at {chooser} = {frames[i]}")
            frame_alts = frame_alts or {"labels": list(frames), "alts": []}
            frame_alts["alts"].append(alts[-1])
        elif controls:
            alts.append(f"{base}; drawn at " + ", ".join(f"{d} = {v}" for d, v, _ in controls))
        else:
            alts.append(base)
    return alts, frame_alts


def book_sources(nb, instructor: bool = False):
    """A chapter made ready for the book: solutions folded (open for instructors), speaker notes
    removed (kept for instructors), links to pages, and a text alternative for every figure,
    inline or inside a widget."""
    nb = copy.deepcopy(nb)
    state = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    section = ""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            headings = re.findall(r"(?m)^#{1,3} (.+)$", cell.source)
            section = headings[-1].strip() if headings else section
            # speaker notes are for the instructor: removed from the students' book, like solutions
            if "instructor" in cell.metadata.get("tags", []) and not instructor:
                cell.metadata["tags"] = [*cell.metadata["tags"], "remove-cell"]
            continue
        if cell.cell_type != "code":
            continue
        tags = cell.metadata.setdefault("tags", [])
        if "solution" in tags:
            cell.metadata["mystnb"] = {**cell.metadata.get("mystnb", {}),
                                       "code_prompt_show": "Show the solution", "code_prompt_hide": "Hide the solution"}
            if not instructor and "hide-cell" not in tags:
                tags.append("hide-cell")
        alts = []
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "text/html" in data:
                data["text/html"] = _link_pages(_text(data["text/html"]))
            if "image/png" in data:
                alts.append(_figure_alt(output, section))
            view = data.get("application/vnd.jupyter.widget-view+json")
            if view and view.get("model_id") in state:
                view["dpteach_alt"], frames = _widget_alts(state, view["model_id"], _text(data.get("text/plain")), section)
                if frames:
                    view["dpteach_frames"] = frames
        if alts:
            image = cell.metadata.setdefault("mystnb", {}).setdefault("image", {})
            image["alt"] = "; ".join(dict.fromkeys(alts))
    return nb


def _index(items: list[Chapter], instructor: bool) -> str:
    # the sidebar shows each title up to its colon ("05 · Accuracy and the census first names")
    toc = "\n".join(f"{c.number} · {c.title.split(': ')[0]} <{c.path.stem}>" for c in items)
    rows = "\n".join(f"- **{c.number}** [{c.title}]({c.path.name}): {c.summary}" for c in items)
    edition = "\n\n*Instructor edition: every solution is shown open.*" if instructor else ""
    return f"""# The Laplace mechanism: an interactive workbook

Differential privacy from Dwork & Roth, *The Algorithmic Foundations of Differential Privacy*,
chapter 3, and what grows from it. These pages were executed when they were built: figures and
formulas are all here, and the interactive figures show the state they were saved in (precomputed
views still move). To move every slider and run the code, open a chapter in JupyterLab (the rocket
menu at the top of each page, or `make lab`); each page can also be downloaded as a notebook.{edition}

```{{toctree}}
:hidden:
:maxdepth: 1

{toc}
```

{rows}
"""


def _book_assets(work: Path, cache: Path) -> Path:
    """MathJax, require.js and the widget renderer for ``_static/``, plus the fonts they ask for."""
    copy_offline_assets(work, cache)
    assets = work / "assets"
    # The widget renderer finds its icon fonts (FontAwesome .woff2/.woff/.ttf, in the bundle)
    # beside its modules' URLs, which require.js derives from their names (@jupyter-widgets/…,
    # i.e. a folder beside the page): point those names at the bundle's folder.
    (assets / "dpteach-require-paths.js").write_text(
        "var require = {paths: {'@jupyter-widgets': '_static/html-manager',\n"
        "                       '@jupyter-widgets/html-manager/dist': '_static/html-manager'}};\n")
    # MathJax's TeX fonts (assistive MathML and a few symbols ask for them; the PyPI copy has STIX-Web only).
    _extract(_npm_pack(*MATHJAX_TEX_FONTS[:2], cache), MATHJAX_TEX_FONTS[2], assets)
    return assets


def build_html(out: Path, offline: bool = False, instructor: bool = False, executed: Path | None = None,
               repo: str = "", hub: str = "", branch: str = "main", cache: Path | None = None) -> list[Path]:
    """The reader's book: every chapter (executed, widget state saved) as a page of a Sphinx book.

    Chapters come from ``executed`` (run the missing ones first). Returns the index and the
    chapter pages."""
    import nbformat

    items = chapters(NOTEBOOKS)
    executed = executed or out.parent / "executed"
    work = out.parent / f".{out.name}-sources"
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    src = work / "src"
    src.mkdir(parents=True)
    downloads = out / "downloads"
    downloads.mkdir(parents=True)
    for chapter in items:
        path = executed / chapter.path.name
        nb = nbformat.read(path, as_version=4) if path.exists() else execute(chapter, executed)
        nbformat.write(book_sources(nb, instructor), src / chapter.path.name)
        nbformat.write(nb, downloads / chapter.path.name)
        twin = chapter.path.with_suffix(".md")
        if twin.exists():
            shutil.copyfile(twin, downloads / twin.name)
    (src / "index.md").write_text(_index(items, instructor), encoding="utf-8")
    overrides = {"dpteach_offline": int(offline), "dpteach_instructor": int(instructor),
                 "dpteach_repo": repo, "dpteach_hub": hub, "dpteach_branch": branch}
    if offline:
        overrides["dpteach_assets"] = str(_book_assets(work, cache or ROOT / "build" / "npm-cache"))
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-c", str(BOOK_CONF), "-d", str(work / "doctrees"),
               str(src), str(out)]
    for key, value in overrides.items():
        if value != "":
            command += ["-D", f"{key}={value}"]
    env = {**os.environ, "PYTHONWARNINGS": "ignore::DeprecationWarning"}
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0 or done.stderr.strip():
        raise RuntimeError(f"the Sphinx build of the book failed or warned:\n{done.stderr[-4000:]}")
    return [out / "index.html", *(out / f"{c.path.stem}.html" for c in items)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dpteach.export", description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["html", "slides", "execute"])
    parser.add_argument("--out", type=Path, help="output folder (default build/html or build/slides)")
    parser.add_argument("--offline", action="store_true", help="copy MathJax, require.js, widgets, reveal.js in")
    parser.add_argument("--instructor", action="store_true", help="HTML with every solution shown")
    parser.add_argument("--repo", default="", help="owner/name on GitHub: an 'Open in Binder' link on every page")
    parser.add_argument("--hub", default="", help="a JupyterHub URL: an 'Open on a JupyterHub' link (needs --repo)")
    parser.add_argument("--branch", default="main", help="the branch nbgitpuller pulls (default main)")
    parser.add_argument("--executed", type=Path, default=ROOT / "build" / "executed",
                        help="folder of executed notebooks to reuse (default build/executed)")
    args = parser.parse_args(argv)
    if args.what == "execute":
        shutil.rmtree(args.executed, ignore_errors=True)
        for chapter in chapters(NOTEBOOKS):
            execute(chapter, args.executed)
            print(f"executed {chapter.path.name}")
        return 0
    if args.what == "html":
        out = args.out or ROOT / "build" / ("html-instructor" if args.instructor else "html")
        pages = build_html(out, offline=args.offline, instructor=args.instructor, executed=args.executed,
                           repo=args.repo, hub=args.hub, branch=args.branch)
    else:
        from .slides import build_slides
        pages = build_slides(args.out or ROOT / "build" / "slides", offline=args.offline, executed=args.executed)
    for page in pages:
        print(f"{page}  {page.stat().st_size / 1024:,.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
