"""What a grading run prints: a short table of its records, every text from a submission made safe for a terminal."""

from __future__ import annotations

from collections.abc import Sequence

from .model import Record

__all__ = ["printable", "summary"]


def printable(text) -> str:
    """``text`` for a terminal: each character a terminal would act on (an escape code's ESC, a carriage return,
    a bidirectional override) written as a Python string writes it (``\\x1b``), the rest as it is."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def summary(records: Sequence[Record], seconds: float) -> str:
    """A short table for the terminal, every text from a submission :func:`printable`."""
    width = max([len(r.id) for r in records] + [7])
    lines = [f"{'student':<{width}}  {'chapter':<28} {'points':>7}  status  reason", "-" * (width + 60)]
    for r in sorted(records, key=lambda r: r.id):
        reason = "; ".join(([r.reason] if r.reason else []) + list(r.flags))
        reason = reason if len(reason) <= 70 else reason[:67] + "..."
        lines.append(printable(f"{r.id:<{width}}  {r.chapter[:28]:<28} {r.total:>3}/{r.possible:<3}  "
                               f"{r.status:<6}  {reason}"))
    errors = sum(r.status == "error" for r in records)
    unmatched = sum(r.status == "unmatched" for r in records)
    flagged = sum(bool(r.flags) for r in records)
    isolations = {r.isolation for r in records if r.isolation}
    where = ("each in a bubblewrap sandbox" if isolations == {"bubblewrap"} else
             "WITHOUT A SANDBOX (--unsafe: only for files you trust)" if isolations == {"none"} else
             f"isolation: {', '.join(sorted(isolations)) or 'none ran'}")
    lines.append(f"{len(records)} notebooks graded in {seconds:.1f} s ({seconds / max(1, len(records)):.2f} s each), "
                 f"{where}; {errors} could not be graded (0 points, reason above)"
                 + (f"; {flagged} flagged" if flagged else "") + (f"; {unmatched} match no student (unmatched.csv)"
                                                                    if unmatched else ""))
    return "\n".join(lines)
