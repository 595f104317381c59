"""Where the build reads and writes: the project it is run in, never the installed package's folder.

A build tool is run from a project's root (the folder holding ``notebooks/``) or given one with
``--root``. Every path it reads or writes comes from :class:`Project`, so a second clone whose
venv holds an editable install of the first still builds into its own ``build/``. Only the
templates, which are part of the package, are found beside the package (:data:`TEMPLATES`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: The package's own templates: the book's Sphinx configuration, the slides' nbconvert template,
#: the pieces they share, and the live slideshow's style (package data, not the project's files).
TEMPLATES = Path(__file__).resolve().parent / "templates"
#: nbconvert's settings that find our templates (dpteach_slides) and the pieces they share (dpteach_common/).
TEMPLATE_DIRS = {"extra_template_basedirs": [str(TEMPLATES)], "extra_template_paths": [str(TEMPLATES)]}


@dataclass(frozen=True)
class Project:
    """A workbook's folders, all under ``root`` (default: the current directory).

    >>> Project("/nonexistent-dpteach-root")
    Traceback (most recent call last):
    ...
    ValueError: root must be a folder holding notebooks/ (the chapters), got '/nonexistent-dpteach-root'
    """

    root: Path

    def __init__(self, root: str | Path | None = None) -> None:
        path = Path.cwd() if root is None else Path(root)
        if not (path / "notebooks").is_dir():
            raise ValueError(f"root must be a folder holding notebooks/ (the chapters), got {str(root or path)!r}")
        object.__setattr__(self, "root", path.resolve())

    @property
    def notebooks(self) -> Path:
        """The chapters students open (``NN_name.ipynb``, executed, outputs stored)."""
        return self.root / "notebooks"

    @property
    def sources(self) -> Path:
        """The chapters' MyST text twins (``NN_name.md``), paired by jupytext."""
        return self.root / "sources"

    @property
    def instructor(self) -> Path:
        """The instructor's speaker notes, one file per chapter (``NN_name.md``)."""
        return self.root / "instructor"

    @property
    def build(self) -> Path:
        """Everything the build writes."""
        return self.root / "build"

    @property
    def executed(self) -> Path:
        """Chapters executed headless with their widget state (what the book and slides are made of)."""
        return self.build / "executed"

    @property
    def npm_cache(self) -> Path:
        """npm tarballs fetched for offline pages, kept between builds."""
        return self.build / "npm-cache"

    def chapters(self):
        """The chapters, in order (:func:`dpteach.book.chapters` of this project's notebooks)."""
        from ..book import chapters

        return chapters(self.notebooks)

    def twin(self, notebook: Path) -> Path | None:
        """A chapter's MyST text twin: ``sources/NN_name.md``, else beside the notebook; None if it has none."""
        for path in (self.sources / f"{notebook.stem}.md", notebook.with_suffix(".md")):
            if path.is_file():
                return path
        return None
