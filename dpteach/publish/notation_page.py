"""The book's "Notation" page, made from :mod:`dpteach.notation`: the same entries chapter 00 prints.

One meaning per symbol across the chapters' core, then the symbols whose meaning holds only where listed. The
page and chapter 00's "Notation" section are two views of one data source, so they cannot drift; the test that
reads every chapter against the table (``tests/test_notation.py``) reads the same entries.
"""

from __future__ import annotations

#: the page's file name in the book (``notation.html``)
STEM = "notation"
TITLE = "Notation"


def page() -> str:
    """The page's MyST Markdown: why some letters differ from a paper's, and the table."""
    from ..notation import notation_table

    return f"""# {TITLE}

Each symbol has one meaning across the chapters. Where papers give a letter two meanings, the workbook keeps
the one Dwork & Roth use and gives the other a name of its own: α is an error bound and β the probability that
a bound fails, as in the book's (α, β)-accuracy; a test's errors are its false positive and false negative rates,
FPR and FNR (Dong, Roth & Su write α and β); an audit's false-alarm rate is p_FA; the discrete Laplace's ratio
of successive masses is q; the order of a Rényi divergence is λ (Mironov writes α). The last rows hold only in
the chapters they list. "As in" names the source whose notation each row follows.

{notation_table().markdown()}
"""
