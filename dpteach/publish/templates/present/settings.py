"""The presenting venv's lab settings (make present): the students' overrides.json, plus

* RISE's: slides that never scroll (the slide edition makes them fit), top-aligned, no transition,
  "slide n / N", reveal.js's "white" theme (whose fonts come with RISE: "simple", RISE's default, asks
  Google Fonts for its own); the live copy's notebook metadata ``rise`` sets them too, with the margin
  the settings schema lacks;
* → and ← for the slideshow: JupyterLab 4 binds them, on a focused heading cell in command mode, to
  "move to the heading above/below or collapse/expand it", which swallowed → on a slide whose heading
  cell had the focus. The two bindings are disabled in this venv only;
* T is not RISE's speaker notes: their window sends the projected show back to its first slide
  (jupyterlab-contrib/rise#47, #74); the speaker view of ``make present`` replaces them.

    python settings.py binder/overrides.json .venv-present/share/jupyter/lab/settings/overrides.json
"""

import json
import sys

RISE = {"scroll": False, "center": False, "transition": "none", "slideNumber": "c/t", "theme": "white"}
SELECTOR = ".jp-Notebook.jp-mod-commandMode:not(.jp-mod-readWrite) :focus"
FREED_KEYS = [{"command": "notebook:move-cursor-heading-above-or-collapse", "keys": ["ArrowLeft"],
               "selector": SELECTOR, "disabled": True},
              {"command": "notebook:move-cursor-heading-below-or-expand", "keys": ["ArrowRight"],
               "selector": SELECTOR, "disabled": True},
              {"command": "RISE:notes-open", "keys": ["T"], "selector": ".lm-Widget.reveal .jp-mod-commandMode",
               "disabled": True}]


def main(source: str, target: str) -> None:
    with open(source, encoding="utf-8") as f:
        settings = json.load(f)
    settings["jupyterlab-rise:plugin"] = dict(RISE)
    settings["@jupyterlab/shortcuts-extension:shortcuts"] = {"shortcuts": FREED_KEYS}
    with open(target, "w", encoding="utf-8") as f:
        json.dump(settings, f, indent=1)


if __name__ == "__main__":
    main(*sys.argv[1:3])
