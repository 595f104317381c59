"""The workbook's notation: one meaning per symbol across the core, and the local meanings with where they hold.

One data source for three readers: chapter 00's "Notation" section prints :func:`notation_table`, the book's
"Notation" page is made from it (:mod:`dpteach.publish.notation_page`), and ``tests/test_notation.py`` reads every
chapter against it. Each entry names the symbol, how code spells it, its meaning, the chapters where it is used
and the source whose notation it follows.

The choices, where the literature gives one letter several meanings:

- **α** is an accuracy, the error bound of Dwork & Roth's (α, β)-accuracy (Definition 3.9, Theorem 3.24), and
  **β** the probability that an accuracy guarantee fails (Theorem 3.8, which writes δ; δ stays (ε, δ)-DP's).
- A test's errors are **FPR** and **FNR** (false positive and false negative rates): Dong, Roth & Su (2019) write
  α and β for them, but here those letters are an accuracy and a failure probability; Kairouz, Oh & Viswanath
  (2015) write P_FA and P_MD, and membership-inference papers (Carlini et al. 2022) FPR and TPR = 1 − FNR.
- An audit's false-alarm rate (the probability that a correct mechanism is wrongly refuted) is **p_FA**, after
  Kairouz, Oh & Viswanath's P_FA: it bounds a rate the auditor chooses, not a test's measured error.
- The discrete Laplace's ratio of successive masses is **q** = e^(−1/t) (a geometric series' ratio; Ghosh,
  Roughgarden & Sundararajan write α, Canonne, Kamath & Steinke only its scale t).
- The Rényi order is **λ**: Mironov (2017) and Bun & Steinke (2016) write α; λ is the letter of the moments
  accountant (Abadi et al. 2016, whose λ-th moment is the order λ + 1) and reads as a parameter in D_λ(P‖Q) ≤ ρλ.
  The snapping mechanism's noise scale, which Mironov (2012) calls λ, is the Laplace scale b.
- **σ** is the scale parameter of the Gaussian family, as its papers write it: the standard deviation of
  N(0, σ²), and the parameter of the discrete Gaussian N_ℤ(0, σ²) (Canonne, Kamath & Steinke 2020) and of the
  Generalized Gaussian (Ganesh & Zhao 2020), whose standard deviations the chapters compute apart.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

__all__ = ["NOTATION", "Notation", "NotationTable", "notation_table"]


@dataclass(frozen=True)
class Notation:
    """One symbol with one meaning.

    ``core`` entries hold across the workbook's core: the symbol has no other meaning there. A local entry
    (``core=False``) holds only in the chapters ``where`` names (and the section ``section``, if given).
    ``marks`` are regular expressions (case-insensitive) that identify the meaning in text; ``rivals`` name the
    other entries (by ``key``) whose meaning this symbol carried before and must not carry again: the test
    fails where the symbol and a rival's mark stand in one sentence."""

    key: str
    symbol: str
    meaning: str
    where: tuple[str, ...]
    source: str
    names: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()
    rivals: tuple[str, ...] = ()
    core: bool = True
    section: str = ""


_ALL = tuple(f"{n:02d}" for n in range(13))

#: every symbol of the workbook with its meaning; core entries first, then the local ones
NOTATION: tuple[Notation, ...] = (
    Notation("epsilon", "ε", "the privacy parameter: one person changes the probability of any outcome by at most "
             "a factor e^ε (ε-differential privacy)", _ALL, "Dwork & Roth, Definition 2.4", ("epsilon", "eps")),
    Notation("delta", "δ", "the additive slack of (ε, δ)-differential privacy; never a failure probability",
             ("02", "03", "06", "08", "09", "11", "12"), "Dwork & Roth, Definition 2.4", ("delta",)),
    Notation("sensitivity", "Δf", "the ℓ1-sensitivity of a query f: the most one person changes its answer",
             _ALL, "Dwork & Roth, Definition 3.1", ("sensitivity",)),
    Notation("l2_sensitivity", "Δ₂f", "the ℓ2-sensitivity of a query f (Δ₂, Δ when f is clear)",
             ("08",), "Dwork & Roth, Definition 3.8", ("l2_sensitivity",)),
    Notation("scale", "b", "the scale of Laplace noise Lap(b), density e^(−|x|/b)/(2b); b = Δf/ε in the Laplace "
             "mechanism, and the snapping mechanism's noise scale", ("00", "02", "03", "04", "05", "06", "09"),
             "Dwork & Roth, Definition 3.2", ("scale", "b"),
             marks=(r"\bscale\b", r"Lap\(",)),
    Notation("k", "k", "a number of queries, counts or releases", ("01", "04", "05", "06", "07", "08", "11", "12"),
             "Dwork & Roth, Theorems 3.8 and 3.16", ("k",)),
    Notation("accuracy", "α", "an accuracy: an answer within ±α of the truth ((α, β)-accuracy)", ("06", "07"),
             "Dwork & Roth, Definition 3.9 and Theorem 3.24", ("alpha",),
             marks=(r"accura", r"±\s*α", r"\bT\s*[±−+-]\s*α"),
             rivals=("false_alarm", "fpr", "dlap_ratio", "renyi_order")),
    Notation("failure", "β", "a failure probability: an accuracy guarantee holds except with probability β",
             ("02", "05", "07"), "Dwork & Roth, Theorem 3.8 (which writes δ) and Definition 3.9", ("beta",),
             marks=(r"failure", r"probability (at least )?1\s*[−-]\s*β", r"except with probability"),
             rivals=("fnr",)),
    Notation("sigma", "σ", "the scale parameter of the Gaussian family: the standard deviation of N(0, σ²), and the "
             "parameter of the discrete Gaussian N_ℤ(0, σ²) and of the Generalized Gaussian (their standard "
             "deviations are computed apart)", ("02", "03", "06", "08", "09", "11", "12"),
             "Dwork & Roth, Theorem 3.22; Canonne, Kamath & Steinke 2020; Ganesh & Zhao 2020", ("sigma", "std")),
    Notation("rho", "ρ", "the parameter of ρ-zero-concentrated DP (zCDP): D_λ(M(x) ‖ M(y)) ≤ ρλ for every order "
             "λ > 1", ("03", "06", "09", "11", "12"), "Bun & Steinke 2016, Definition 1.1", ("rho",)),
    Notation("renyi_order", "λ", "the order of a Rényi divergence D_λ(P ‖ Q) = ln E_Q[(P/Q)^λ]/(λ − 1)", ("09",),
             "Mironov 2017 (which writes α); Bun & Steinke 2016", ("order",),
             marks=(r"Rényi", r"\border\b", r"\bD_", r"\bρ", r"\\rho", r"zCDP", r"zcdp"),
             rivals=("scale",)),
    Notation("mu", "μ", "the parameter of μ-Gaussian differential privacy: tests against the mechanism do no better "
             "than telling N(0, 1) from N(μ, 1)", ("06", "11"), "Dong, Roth & Su 2019", ("mu",)),
    Notation("fpr", "FPR", "a test's false positive rate (type-I error): it says y when the data is x",
             ("11",), "Kairouz, Oh & Viswanath 2015 (P_FA); Dong, Roth & Su 2019 write α", ("fpr",),
             marks=(r"type[- ]I\b(?![I-])", r"false positive", r"trade-?off", r"threshold_test", r"fpr_box",
                    r"\bf-DP", r"G_μ", r"G_\\mu")),
    Notation("fnr", "FNR", "a test's false negative rate (type-II error): it says x when the data is y; "
             "1 − FNR is its true positive rate", ("11",),
             "Kairouz, Oh & Viswanath 2015 (P_MD); Dong, Roth & Su 2019 write β", ("fnr",),
             marks=(r"type[- ]II", r"true positive", r"false negative", r"trade-?off", r"threshold_test",
                    r"fnr_box", r"\bf-DP", r"G_μ", r"G_\\mu")),
    Notation("false_alarm", "p_FA", "an audit's false-alarm rate: the probability, at most p_FA, that a correct "
             "mechanism is wrongly refuted", ("08", "09"), "after Kairouz, Oh & Viswanath 2015 (P_FA)",
             ("false_alarm",),
             marks=(r"false[- ]alarm", r"privacy_audit", r"calibration_audit", r"wrongly refuted")),
    Notation("dlap_ratio", "q", "the discrete Laplace's ratio of successive masses, q = e^(−1/t) = e^(−ε/Δf): "
             "Pr[Z = z] = (1 − q)/(1 + q)·q^|z|", ("09", "12"),
             "Canonne, Kamath & Steinke 2020 (their scale t); Ghosh, Roughgarden & Sundararajan "
             "2009 write α", ("q", "ratio"),
             marks=(r"discrete Laplace", r"e\^\(?−1/t", r"e\^\{-1/t\}", r"e\^\(−ε/Δf\)", r"e\^\(−ours", r"\bratio\b")),
    # local meanings: each holds only where it is listed
    Notation("t_tail", "t", "a multiple of the scale in a tail bound: Pr[|Lap(b)| ≥ t·b] = e^(−t)",
             ("02", "05", "06"), "Dwork & Roth, Fact 3.7", core=False),
    Notation("t_dlap", "t", "the discrete Laplace's scale, t = Δf/ε", ("09",),
             "Canonne, Kamath & Steinke 2020", core=False, section="Integer noise"),
    Notation("t_threshold", "t", "a test's threshold: say y when the output is at least t", ("11",),
             "Kairouz, Oh & Viswanath 2015", core=False),
    Notation("f_tradeoff", "f", "in f-DP, a trade-off function: the least FNR at each FPR (elsewhere f is the "
             "query)", ("11",), "Dong, Roth & Su 2019", core=False),
    Notation("q_density", "q", "the density of additive noise, in the exact condition for ε-DP", ("02",),
             "Dwork & Roth, section 3.3", core=False, section="if and only if"),
    Notation("gamma", "γ", "the exponent of a Bernoulli(e^(−γ)) draw in the exact samplers", ("09",),
             "Canonne, Kamath & Steinke 2020, Algorithm 1", core=False),
    Notation("grid", "Λ", "the snapping mechanism's grid: the smallest power of two ≥ b", ("09",),
             "Mironov 2012", core=False),
    Notation("nu", "ν_i", "AboveThreshold's noise on query i", ("07",), "Dwork & Roth, Algorithm 1", core=False),
    Notation("threshold", "T", "AboveThreshold's threshold", ("07",), "Dwork & Roth, Algorithm 1", core=False),
    Notation("steps", "T", "the number of training steps", ("10",), "Abadi et al. 2016", core=False),
    Notation("eta", "η", "a learning rate", ("10",), "Abadi et al. 2016", core=False),
    Notation("shape", "p", "the Generalized Gaussian's shape: density ∝ e^(−(|x|/σ)^p)", ("08",),
             "Ganesh & Zhao 2020", core=False),
    Notation("group", "k", "the size of a group (k people) in group privacy", ("03", "11"),
             "Dwork & Roth, Theorem 2.2", core=False),
)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _where(entry: Notation) -> str:
    where = "all chapters" if entry.where == _ALL else ", ".join(entry.where)
    if entry.core:
        return where
    return f"only {where}" + (f" ({entry.section})" if entry.section else "")


class NotationTable:
    """The notation as a table: HTML in a notebook and the book, Markdown for a page (:meth:`markdown`), plain
    text elsewhere. Core symbols first, each with its one meaning, then the local ones with where they hold."""

    def __init__(self, entries: tuple[Notation, ...]) -> None:
        self.entries = entries

    def markdown(self) -> str:
        """A Markdown (MyST/GFM) table: symbol, meaning, where (chapters) and the source it follows."""
        rows = ["| symbol | meaning | where | as in |", "| --- | --- | --- | --- |"]
        rows += [f"| {_cell(e.symbol)} | {_cell(e.meaning)} | {_where(e)} | {_cell(e.source)} |" for e in self.entries]
        return "\n".join(rows)

    def __repr__(self) -> str:
        width = max(len(e.symbol) for e in self.entries)
        return "\n".join(f"{e.symbol:<{width}}  {e.meaning} ({_where(e)}; {e.source})" for e in self.entries)

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><td>{html.escape(e.symbol)}</td><td>{html.escape(e.meaning)}</td>"
                       f"<td>{html.escape(_where(e))}</td><td>{html.escape(e.source)}</td></tr>" for e in self.entries)
        return ("<table><thead><tr><th>symbol</th><th>meaning</th><th>where</th><th>as in</th></tr></thead>"
                f"<tbody>{rows}</tbody></table>")


def notation_table(local: bool = True) -> NotationTable:
    """The workbook's notation (:data:`NOTATION`) as a displayable table; ``local=False`` keeps the core symbols
    only. Chapter 00 shows it, and the book's "Notation" page is made from the same entries."""
    if not isinstance(local, bool):
        raise TypeError(f"local must be True or False, got {local!r}")
    return NotationTable(tuple(e for e in NOTATION if e.core or local))
