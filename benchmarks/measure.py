"""What every benchmark section writes the same way: milliseconds, the load average, a verdict."""

from __future__ import annotations

import os


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f}"


def _load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def _verdict(ok: bool) -> str:
    return "met" if ok else "**missed**"
