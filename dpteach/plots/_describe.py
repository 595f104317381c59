"""Numbers as a figure's text alternative and data table write them: plain text a screen reader reads aloud.

No e-notation (``4.5e-05`` is read "4.5 e minus 05"): a number below a thousandth is written as a power of ten
(4.5·10⁻⁵), one of a thousand or more with thousands separated.
"""

from __future__ import annotations

import math

from .._text import power_text


def plain_number(value: float, digits: int = 3) -> str:
    """``value`` to ``digits`` significant figures, never in e-notation: 0.462, 1,387, 4.5·10⁻⁵, 0, "—" for NaN."""
    if math.isnan(value):
        return "—"
    text = f"{value:.{digits}g}"
    if "e" not in text:
        return text
    if abs(value) >= 1:
        return f"{value:,.0f}"
    return ("−" if value < 0 else "") + power_text(abs(float(text)))
