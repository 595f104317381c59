"""The notation table (``dpteach.notation``): one meaning per symbol, and the chapters read against it.

Every chapter's MyST twin (prose, code and the solutions folded in its markdown) is cut into units: a sentence
of prose, a line of code. A symbol of the table must not stand near a mark of a meaning it is barred from (its
``rivals``: the meanings the same letter carried before the table), e.g. "α" within a few words of
"false-alarm" or "Rényi". Figures' labels and alt texts are read the same way, from the strings of the plotting
and widget modules and from the exercises' checkers. The table's own claims are checked too: a core symbol has one meaning, and it is used in
every chapter the table lists.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dpteach.notation import NOTATION, notation_table

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "sources").glob("[0-9][0-9]_*.md"))
#: the speaker notes the slides and the instructor edition show beside each chapter
NOTES = sorted((ROOT / "instructor").glob("[0-9][0-9]_*.md"))
#: what a learner reads from the package: figures' labels and alt texts, sliders, and the checkers' messages
FIGURES = sorted(path for part in ("plots", "widgets", "exercises") for path in (ROOT / "dpteach" / part).rglob("*.py"))
#: how near (in characters, within one sentence or line) a rival's mark must be to the symbol to count
WINDOW = 60
_BY_KEY = {entry.key: entry for entry in NOTATION}
_GREEK_TEX = {"α": r"\\alpha", "β": r"\\beta", "λ": r"\\lambda", "σ": r"\\sigma"}
_SENTENCE = re.compile(r"(?<=[.;!?])\s+(?=[A-Z*(\[$])")


def _symbol(entry, code: bool) -> re.Pattern:
    """Where ``entry``'s symbol is written: the letter (or its LaTeX name) in prose, and in code also the names
    code gives it."""
    forms = [rf"(?<![\w]){re.escape(entry.symbol)}(?![a-zA-Z])"]
    if entry.symbol in _GREEK_TEX:
        forms.append(_GREEK_TEX[entry.symbol] + r"(?![a-zA-Z])")
    if code:
        forms += [rf"\b{re.escape(n)}\b" for n in entry.names]
    return re.compile("|".join(forms))


def _units(path: Path) -> list[tuple[int, bool, str]]:
    """(line number, is code, text) for every sentence of prose and every line of code in a chapter's twin."""
    units, fence = [], ""                 # the open fence's info string: "{code-cell} ipython3", "python", "{math}"…
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("```"):
            fence = "" if fence else (line[3:].strip() or "text")
            continue
        code = fence.startswith(("{code-cell}", "python"))
        if line.startswith(("+++", "---")) or (code and line.startswith(("slideshow:", "  slide_type", "tags:"))):
            continue
        units += [(number, code, part) for part in ([line] if code else _SENTENCE.split(line))]
    return units


def _figure_units(path: Path) -> list[tuple[int, bool, str]]:
    """The string literals of a plotting or widget module, line by line: what a figure's labels and alt texts say.
    Only the symbols' letters count here (the modules' own variable names are not notation)."""
    strings = re.compile(r"""(?:[rfbu]{0,2})("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')""")
    return [(number, False, " ".join(strings.findall(line)))
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
            if strings.search(line)]


def _clashes(units, chapter: str) -> list[str]:
    found = []
    for entry in NOTATION:
        if not entry.core or not entry.rivals:
            continue
        for number, code, text in units:
            at = [m.start() for m in _symbol(entry, code).finditer(text)]
            if not at:
                continue
            for key in entry.rivals:
                rival = _BY_KEY[key]
                for mark in rival.marks:
                    for m in re.finditer(mark, text, flags=re.IGNORECASE):
                        if any(abs(m.start() - a) <= WINDOW for a in at):
                            found.append(f"{chapter}:{number}: {entry.symbol} ({entry.key}) used as {rival.symbol} "
                                         f"({rival.meaning.split(':')[0]}), near {m.group(0)!r}: …{text[:160]}…")
                            break
    return sorted(set(found))


def test_every_chapter_is_read():
    assert len(SOURCES) >= 12 and len(NOTES) >= 12 and FIGURES


@pytest.mark.parametrize("path", SOURCES + NOTES, ids=lambda p: f"{p.parent.name}/{p.stem[:2]}")
def test_no_symbol_has_a_rival_meaning_in_a_chapter(path):
    clashes = _clashes(_units(path), path.stem[:2])
    assert not clashes, "a symbol used with a meaning the notation table gives another symbol:\n" + "\n".join(clashes)


def test_figures_labels_alt_texts_and_checkers_messages_follow_the_table():
    clashes = [c for path in FIGURES for c in _clashes(_figure_units(path), str(path.relative_to(ROOT)))]
    assert not clashes, "\n".join(clashes)


def test_a_core_symbol_has_one_meaning():
    symbols = [e.symbol for e in NOTATION if e.core]
    assert len(symbols) == len(set(symbols)), sorted(s for s in symbols if symbols.count(s) > 1)
    keys = [e.key for e in NOTATION]
    assert len(keys) == len(set(keys))
    assert all(r in _BY_KEY and r != e.key for e in NOTATION for r in e.rivals)


@pytest.mark.parametrize("entry", [e for e in NOTATION if e.core], ids=lambda e: e.key)
def test_a_core_symbol_is_used_where_the_table_says(entry):
    """The table's "where" is true: the symbol appears in each chapter it lists."""
    texts = {p.stem[:2]: p.read_text(encoding="utf-8") for p in SOURCES}
    pattern = _symbol(entry, code=False)
    missing = [c for c in entry.where if c in texts and not pattern.search(texts[c])]
    assert not missing, f"{entry.symbol} is listed in chapters {missing} but not used there"


def test_the_rivals_marks_find_their_own_meaning():
    """A mark that matches nothing guards nothing: each rival's marks find its meaning in the chapters it holds."""
    texts = {p.stem[:2]: p.read_text(encoding="utf-8") for p in SOURCES}
    for key in {r for e in NOTATION for r in e.rivals}:
        rival = _BY_KEY[key]
        assert rival.marks, key
        text = "\n".join(texts[c] for c in rival.where if c in texts)
        assert any(re.search(m, text, flags=re.IGNORECASE) for m in rival.marks), key


def test_the_table_lists_every_entry_in_each_form():
    table = notation_table()
    markdown, text, page = table.markdown(), repr(table), table._repr_html_()
    assert markdown.count("\n") == len(NOTATION) + 1 and text.count("\n") == len(NOTATION) - 1
    assert page.count("<tr>") == len(NOTATION) + 1
    for e in NOTATION:
        cell = e.meaning.replace("|", "\\|")
        assert f"| {e.symbol} | {cell} |" in markdown and e.meaning in text
    core = notation_table(local=False).markdown()
    assert core.count("\n") == sum(e.core for e in NOTATION) + 1 and "| only " not in core


def test_chapter_00_shows_the_table_from_the_data():
    """Chapter 00's "Notation" section prints the table from :mod:`dpteach.notation`, so the two cannot drift."""
    text = (ROOT / "sources" / "00_start_here.md").read_text(encoding="utf-8")
    assert "\n## Notation\n" in text
    section = text.split("\n## Notation\n", 1)[1].split("\n## ", 1)[0]
    assert "dp.notation_table()" in section and "| --- |" not in section


def test_the_detector_catches_the_collisions_it_guards_against():
    """The rule itself: each old collision, written as the chapters wrote it, is found; its renamed form is not."""
    old = ["a false-alarm rate α = 0.1% here", "its type-I error is α = Pr[M(x) ∈ S]",
           "and its type-II error β = Pr[M(y) ∉ S]", "every order α > 1 the Rényi divergence D_α(M(x) ‖ M(y))",
           r"\alpha = e^{-1/t},", "noise scale λ (λ = 1/ε):"]
    new = ["a false-alarm rate p_FA = 0.1% here", "its FPR is Pr[M(x) ∈ S]", "and its FNR is Pr[M(y) ∉ S]",
           "every order λ > 1 the Rényi divergence D_λ(M(x) ‖ M(y))", r"q = e^{-1/t},", "noise scale b (b = 1/ε):",
           "each count within ±α of the truth, except with probability β"]
    assert all(_clashes([(1, False, text)], "x") for text in old), [t for t in old if not _clashes([(1, False, t)], "x")]
    assert not any(_clashes([(1, False, text)], "x") for text in new)
    assert _clashes([(1, True, "audit = dp.privacy_audit(mechanism, 0, 1, epsilon=1.0, alpha=1e-6)")], "x")


def test_the_book_has_a_notation_page_made_from_the_table_in_every_edition():
    from dpteach.publish import book_site, notation_page

    page = notation_page.page()
    assert page.startswith(f"# {notation_page.TITLE}\n") and notation_table().markdown() in page
    for course in (False, True):
        index = book_site._index([], instructor=False, mistakes=not course)
        assert f"\n{notation_page.TITLE} <{notation_page.STEM}>\n" in index
        assert f"]({notation_page.STEM}.md)" in index


def test_notation_table_refuses_a_flag_that_is_not_a_bool():
    with pytest.raises(TypeError, match="local must be True or False, got 'no'"):
        notation_table(local="no")
