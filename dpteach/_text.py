"""Numbers as the workbook's prose and figure titles write them: powers of ten with superscript
exponents (10⁻⁶, 3.2·10⁻⁷), never Python's 1e-06 and never matplotlib's mathtext (slow to draw)."""

from __future__ import annotations

import math

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def ten_to(exponent: int) -> str:
    """10 to an integer power, as text: ``ten_to(-6) == "10⁻⁶"``."""
    return "10" + str(int(exponent)).translate(_SUPERSCRIPT)


def power_text(value: float) -> str:
    """A small positive number such as a δ: 10⁻⁶ at a power of ten, else 3.2·10⁻⁷ (two figures)."""
    exponent = math.floor(math.log10(value) + 1e-9)
    mantissa = value / 10.0**exponent
    head = "" if round(mantissa, 1) == 1.0 else f"{mantissa:.2g}·"
    return head + ten_to(exponent)
