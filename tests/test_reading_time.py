"""A chapter's reading time, core and Going further (issue 52; the rule in :mod:`dpteach.publish.reading_time`).

Each chapter's opening states its reading time in a line the tests hold to the function, so the line stays
current: after an edit, ``python -m dpteach.publish.reading_time --write`` puts the right line back. The book's
index gives the same figures (:func:`dpteach.publish.reading_time.summary`).
"""

from __future__ import annotations

import jupytext
import pytest
from helpers import ROOT

from dpteach.book import Chapter
from dpteach.publish import book_site, reading_time

SOURCES = sorted((ROOT / "sources").glob("[0-9][0-9]_*.md"))
#: Chapter 00 is the workbook's opening, with no line of its own (its notation section is another issue's).
WITH_LINE = [path for path in SOURCES if not path.name.startswith("00")]


def _cell(kind, text, *tags):
    return {"cell_type": kind, "metadata": {"tags": list(tags)}, "source": text}


def test_the_rule_counts_words_at_238_a_minute_and_a_minute_a_code_cell():
    words = " ".join(["word"] * 476)               # two minutes of reading
    nb = {"cells": [_cell("markdown", words), _cell("code", "x = 1"), _cell("code", "print(x)"),
                    _cell("markdown", "a folded solution is not read on the way " * 10, "solution"),
                    _cell("markdown", "### Going further: more\n\n" + " ".join(["w"] * 230), "going-further"),
                    _cell("code", "y = 2", "going-further")]}
    core, depth = reading_time.core_and_depth(nb)
    assert (core.words, core.code_cells, core.minutes) == (476, 2, 4.0)
    assert (depth.words, depth.code_cells) == (234, 1)   # the heading is four tokens
    assert reading_time.summary(nb) == "core about 4 min; Going further 2 min (more)"
    assert reading_time.opening_line(nb).startswith("*Reading time: the core about 4 min (476 words at 238 a minute, "
                                                    "2 code cells at a minute each); the Going-further parts add 2 min")


@pytest.mark.parametrize("path", WITH_LINE, ids=lambda p: p.stem)
def test_each_chapter_s_opening_states_its_reading_time_as_the_function_computes_it(path):
    text = path.read_text(encoding="utf-8")
    found = reading_time.LINE.findall(text)
    assert len(found) == 1, f"{path.name}: one '*Reading time: …*' line in its Overview"
    assert text.index(found[0]) > text.index("## Overview") and text.index(found[0]) < text.index("## Prerequisites")
    expected = reading_time.opening_line(jupytext.reads(text, fmt="md:myst"))
    assert found[0] == expected, f"{path.name} is stale: run python -m dpteach.publish.reading_time --write"


def test_the_writer_puts_back_a_stale_line_and_refuses_a_file_without_one(tmp_path):
    source = tmp_path / "03.md"
    text = (ROOT / "sources" / "03_laplace_mechanism.md").read_text(encoding="utf-8")
    source.write_text(reading_time.LINE.sub("*Reading time: stale.*", text, count=1), encoding="utf-8")
    assert reading_time.write_opening_line(source) is True
    assert source.read_text(encoding="utf-8") == text
    bare = tmp_path / "bare.md"
    bare.write_text("# no line\n", encoding="utf-8")
    with pytest.raises(ValueError, match="path .*bare.md has no line"):
        reading_time.write_opening_line(bare)


def test_the_book_index_lists_each_chapter_s_reading_time(tmp_path):
    path = ROOT / "notebooks" / "02_laplace_distribution.ipynb"
    chapter = Chapter(path=path, number="02", title="The Laplace distribution", summary="the noise")
    index = book_site._index([chapter], instructor=False, times={"02_laplace_distribution": "core about 35 min"})
    assert "*Reading time: core about 35 min.*" in index
