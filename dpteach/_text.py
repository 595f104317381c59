"""Numbers as the workbook's prose and figure titles write them: powers of ten with superscript
exponents (10⁻⁶, 3.2·10⁻⁷), never Python's 1e-06 and never matplotlib's mathtext (slow to draw)."""

from __future__ import annotations

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def ten_to(exponent: int) -> str:
    """10 to an integer power, as text: ``ten_to(-6) == "10⁻⁶"``."""
    return "10" + str(int(exponent)).translate(_SUPERSCRIPT)


def power_text(value: float) -> str:
    """A small positive number such as a δ: 10⁻⁶ at a power of ten, else 3.2·10⁻⁷ (two figures).

    The mantissa and the exponent are read from the number's own two-figure decimal text, so that a subnormal
    double (10⁻³²⁴, where 10.0 ** exponent is 0) is written too, and 9.96·10⁻⁵ rounds to 10⁻⁴, not "10·10⁻⁵"."""
    mantissa, exponent = f"{value:.1e}".split("e")
    head = "" if float(mantissa) == 1.0 else f"{float(mantissa):.2g}·"
    return head + ten_to(int(exponent))
