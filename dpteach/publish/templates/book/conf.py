"""Sphinx configuration of the reader's book (Sphinx + myst-nb + sphinx-book-theme).

``python -m dpteach.publish html`` (dpteach/publish/book_site.py) prepares the sources (the executed chapters, an index)
and runs Sphinx with this folder as its configuration directory. What changes from one
build to another comes in as ``-D`` overrides of the ``dpteach_*`` values below:

- ``dpteach_offline``: MathJax, require.js and the widget renderer from ``_static/``,
  not from a CDN (the folder then works with no network, from file://);
- ``dpteach_assets``: the folder holding those offline assets (added to the static files);
- ``dpteach_repo`` (``owner/name``), ``dpteach_hub`` (a JupyterHub URL), ``dpteach_branch``:
  the per-page "Open in Binder" / "Open on a JupyterHub" links (left out when not given);
- ``dpteach_instructor``: the instructor edition (a banner; the sources come with solutions open and notes in);
- ``dpteach_report``: a "Report an error" link on every page, opening a new issue titled with the page's name in
  ``dpteach_repo``'s tracker when the repository is on GitHub or GitLab (no link otherwise); off in the course
  edition.

Importing this file has no side effects beyond defining names (pytest skips this folder).
"""

from __future__ import annotations

import re

from dpteach.publish.links import binder_url, issue_url, nbgitpuller_url  # as make binder-url / nbgitpuller-url print

project = "dpteach: the Laplace mechanism"
author = "the dpteach authors"
copyright = "the dpteach authors, MIT licence"
html_title = "The Laplace mechanism: an interactive workbook"

extensions = ["myst_nb"]
root_doc = "index"
exclude_patterns = ["_build", "**.ipynb_checkpoints", "downloads"]
templates_path = ["_templates"]
html_static_path = ["_static"]
html_css_files = ["dpteach.css"]
html_js_files = ["dpteach.js"]

# The chapters come executed: their outputs and widget state are embedded as they are.
nb_execution_mode = "off"
nb_merge_streams = True
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
myst_heading_anchors = 3
myst_update_mathjax = False          # MathJax 2.7 is configured below (the widget renderer needs it)
suppress_warnings = ["myst.header", "mystnb.unknown_mime_type"]

html_theme = "sphinx_book_theme"
html_context = {"default_mode": "light"}
html_show_sourcelink = False
html_copy_source = False
html_show_search_summary = False     # its snippet fetches fail from file://
html_last_updated_fmt = None
html_theme_options = {
    "home_page_in_toc": True,
    "show_toc_level": 2,
    "toc_title": "On this page",
    "use_download_button": False,    # dpteach's own download menu (.ipynb, .md, print) replaces it
    "use_fullscreen_button": False,
    "navigation_with_keys": False,
    "secondary_sidebar_items": ["page-toc"],
    "article_footer_items": ["report-error.html"],
    "footer_content_items": ["copyright"],
}

#: MathJax 2.7: Sphinx 9's MathJax 4 breaks the widget renderer (it calls MathJax.Hub.Queue).
MATHJAX_CDN = "https://cdnjs.cloudflare.com/ajax/libs/mathjax/2.7.9/MathJax.js?config=TeX-AMS-MML_HTMLorMML"
mathjax_path = MATHJAX_CDN
mathjax2_config = {
    "tex2jax": {"inlineMath": [["$", "$"], ["\\(", "\\)"]], "processEscapes": True},
    # MathJax probes fonts with a blank font at url('about:blank'), which a page opened from file:// may not load.
    "HTML-CSS": {"styles": {"@font-face": {"font-family": "MathJax_Blank", "src": "local('MathJax_Blank')"}}},
    # a formula is no Tab stop of its own (MathJax 2 made each one: its menu); one that scrolls is (dpteach.js)
    "menuSettings": {"inTabOrder": False},
}

#: The module "anywidget" (AMD, beside require.js): the saved state's anywidgets run here, not from a CDN.
ANYWIDGET_JS = "dpteach-anywidget.js"


def _configure(app, config) -> None:
    if config.dpteach_offline:
        config.mathjax_path = "mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"
        # The offline MathJax (PyPI's jupyter-server-mathjax) ships STIX-Web fonts only.
        config.mathjax2_config = {**config.mathjax2_config, "HTML-CSS": {
            **config.mathjax2_config["HTML-CSS"],
            "availableFonts": ["STIX-Web"], "preferredFont": "STIX-Web", "webFont": "STIX-Web", "imageFont": None}}
        config.nb_ipywidgets_js = {
            "dpteach-require-paths.js": {},
            "require.js": {},
            ANYWIDGET_JS: {},
            "html-manager/embed-amd.js": {},
        }
    else:       # the CDN's require.js and widget renderer, with the anywidget module between them (never a CDN's)
        from myst_nb.core.config import ipywidgets_js_factory

        (require, first), *rest = ipywidgets_js_factory().items()
        config.nb_ipywidgets_js = {require: first, ANYWIDGET_JS: {}, **dict(rest)}
    if config.dpteach_assets:
        config.html_static_path = [*config.html_static_path, config.dpteach_assets]
    if config.dpteach_instructor:
        config.html_theme_options = {**config.html_theme_options,
                                     "announcement": "Instructor edition: every solution is shown open, with the speaker notes."}
        config.html_title += " (instructor edition)"


def _report(app, pagename, templatename, context, doctree) -> None:
    """The "Report an error" link of a page (``report-error.html`` shows it when there is one)."""
    config = app.config
    if not (config.dpteach_report and config.dpteach_repo) or doctree is None:
        return
    title = re.sub(r"<[^>]+>", "", context.get("title", pagename)).strip()
    body = (f"On the page “{title}” ({pagename}.html) of “{config.html_title}”:\n\n"
            "- what is wrong (quote the sentence, the number or the figure):\n- what it should say, and why:\n")
    context["dpteach_report_url"] = issue_url(config.dpteach_repo, f"Error on the page “{title}”", body)


def _buttons(app, pagename, templatename, context, doctree) -> None:
    """Launch and download menus on every chapter page (after the theme made its own list)."""
    if not pagename[:2].isdigit() or "header_buttons" not in context:
        return
    config = app.config
    notebook = f"notebooks/{pagename}.ipynb"
    launch = []
    if config.dpteach_repo:
        launch.append({"type": "link", "text": "Open in Binder", "tooltip": "Open this chapter in Binder",
                       "icon": "_static/images/logo_binder.svg", "url": binder_url(config.dpteach_repo, notebook),
                       "label": "launch-binder-button"})
    if config.dpteach_hub and config.dpteach_repo:
        launch.append({"type": "link", "text": "Open on a JupyterHub", "tooltip": "Open this chapter on your JupyterHub",
                       "icon": "_static/images/logo_jupyterhub.svg",
                       "url": nbgitpuller_url(config.dpteach_hub, config.dpteach_repo, config.dpteach_branch, notebook),
                       "label": "launch-jupyterhub-button"})
    downloads = [
        {"type": "link", "text": ".ipynb", "tooltip": "Download this chapter as a notebook", "icon": "fas fa-code",
         "url": f"downloads/{pagename}.ipynb", "label": "download-notebook-button"},
        {"type": "link", "text": ".md", "tooltip": "Download this chapter as MyST Markdown", "icon": "fas fa-file",
         "url": f"downloads/{pagename}.md", "label": "download-markdown-button"},
        {"type": "javascript", "javascript": "window.print()", "text": "print / .pdf", "tooltip": "Print this page",
         "icon": "fas fa-file-pdf", "label": "download-pdf-button"},
    ]
    buttons = context["header_buttons"]
    if launch:
        buttons.insert(0, {"type": "group", "tooltip": "Open this chapter in JupyterLab", "icon": "fas fa-rocket",
                           "buttons": launch, "label": "launch-buttons"})
    buttons.insert(0, {"type": "group", "tooltip": "Download this chapter", "icon": "fas fa-download",
                       "buttons": downloads, "label": "download-buttons"})


def setup(app):
    for name, default in [("dpteach_offline", False), ("dpteach_assets", ""), ("dpteach_repo", ""),
                          ("dpteach_hub", ""), ("dpteach_branch", "main"), ("dpteach_instructor", False),
                          ("dpteach_report", False)]:
        app.add_config_value(name, default, "html", types=[type(default)])
    app.connect("config-inited", _configure)
    app.connect("html-page-context", _buttons, priority=502)
    app.connect("html-page-context", _report)
    return {"parallel_read_safe": True}
