"""The chapters as slides: the slide marks stored in each chapter, the slide edition, the reveal.js deck.

One module per seam:

* :mod:`.marking`: every cell's role in a slideshow (``slideshow.slide_type``), stored in the chapters,
  which both JupyterLab's live slideshow (RISE) and nbconvert's reveal.js export read;
* :mod:`.sizing`: what each cell takes of a 1920×1080 slide, and how large a figure is drawn on the
  static deck (its smallest text 24 px or more);
* :mod:`.pagination`: slides that fit, each with a heading, the text after a figure kept with it;
* :mod:`.edition`: the slide edition, a chapter made for a room (hidden code, short prose with the full
  text in the speaker notes), for the live copy and the static deck;
* :mod:`.deck`: the static deck, reveal.js through nbconvert.

Speaker notes are not in the chapters: they live in ``instructor/NN_name.md`` and come into the slides
(role ``notes``, the speaker view) through the instructor edition
(:func:`dpteach.publish.book_site.instructor_edition`).

    python -m dpteach.publish mark [--force]     # write marks into notebooks/ (cells without one)
    python -m dpteach.publish slides [--online]  # build/slides/NN_name.slides.html
"""

from .deck import build_slides
from .edition import LONG_PROSE, RISE_SETTINGS, short_version, slide_edition
from .marking import LONG_CODE, ROLES, heading, mark, mark_chapter, role, split_at_headings, unmarked
from .pagination import INSTRUCTOR_TAG, paginate
from .sizing import (
    FIGURE_CAP,
    FIGURE_TEXT,
    LIVE_FIGURE_CAP,
    LIVE_FIGURE_NOTED,
    SLIDE_BUDGET,
    SLIDE_HEIGHT,
    cell_height,
    figure_height,
    hides_code,
    size_figures,
)

__all__ = ["FIGURE_CAP", "FIGURE_TEXT", "INSTRUCTOR_TAG", "LIVE_FIGURE_CAP", "LIVE_FIGURE_NOTED", "LONG_CODE",
           "LONG_PROSE", "RISE_SETTINGS", "ROLES", "SLIDE_BUDGET", "SLIDE_HEIGHT", "build_slides", "cell_height",
           "figure_height", "heading", "hides_code", "mark", "mark_chapter", "paginate", "role", "short_version",
           "size_figures", "slide_edition", "split_at_headings", "unmarked"]
