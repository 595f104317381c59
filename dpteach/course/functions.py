"""A student's function, held by the grader and run in a sandbox on a checker's hidden cases.

:class:`SandboxedFunction` is what ``dpteach.exercises.check_function`` receives in place of the
function: having ``run_cases``, it is not called by the checker; the checker hands it the cases and
the runner and judges the outcomes. The cell's source (read from the submitted file, never the live
object from the student's run) is executed in a sandbox of its own (:mod:`dpteach.course.sandbox`),
with numpy's global generator seeded from fresh entropy drawn here (a function cannot recognise a
check by a fixed random state), and each case's outcome comes back as plain data.

Every way a run can end badly is an outcome, never an exception in the grader: a hang is killed at
the limit (``("timeout", "")``), running out of memory is ``("memory", "")``, a crash, an early exit
or unreadable output is ``("error", "...")``.
"""

from __future__ import annotations

import math
import random
import signal
from collections.abc import Sequence
from typing import Any

from . import sandbox
from .inside import READY
from .plain import decode

#: Seconds a sandbox may take to start (import numpy and dpteach) before its cases' time begins.
STARTUP_SECONDS = 30.0
#: Largest report a function's sandbox may send back (MB): the tails case returns a million draws.
OUTPUT_MB = 64


class SandboxedFunction:
    """A student's function, run in a sandbox on a checker's cases (see the module docstring).

    ``source`` is the student's cell (without the checker call), ``name`` the function it defines.
    ``time_limit`` is the wall time in seconds for all the cases of one :meth:`run_cases` together
    (the start-up is not counted), ``memory_mb`` the sandbox's address space. ``forbidden`` names the
    dpteach functions that raise in the sandbox when no checker passes its own list (a direct call,
    as older checkers make). :attr:`forbidden_seen` holds the list a checker passed; ``isolation`` is
    ``"bubblewrap"``, or ``"none"`` only for trusted files. With ``allow_library``, the forbidden
    functions are not refused in the sandbox (the cases judge what the function computes; whether it is
    written by hand is the grader's second part, read from its source).
    """

    def __init__(self, source: str, name: str, time_limit: float = 20.0, memory_mb: int = 1024,
                 forbidden: Sequence[str] = (), isolation: str = "bubblewrap", allow_library: bool = False):
        if not (isinstance(time_limit, (int, float)) and math.isfinite(time_limit) and time_limit > 0):
            raise ValueError(f"time_limit must be a number of seconds > 0 (got {time_limit!r})")
        if not (isinstance(memory_mb, int) and not isinstance(memory_mb, bool) and memory_mb >= 256):
            raise ValueError(f"memory_mb must be an integer ≥ 256 (got {memory_mb!r}); numpy alone needs about 100 MB")
        if not name.isidentifier():
            raise ValueError(f"name must be a Python identifier (got {name!r})")
        if isolation not in sandbox.ISOLATIONS:
            raise ValueError(f"isolation must be one of {sandbox.ISOLATIONS} (got {isolation!r})")
        self.source, self.name, self.isolation = source, name, isolation
        self.time_limit, self.memory_mb = float(time_limit), memory_mb
        self.forbidden = tuple(forbidden)
        self.allow_library = bool(allow_library)
        self.forbidden_seen: tuple[str, ...] | None = None
        self.__name__ = name

    def __repr__(self) -> str:
        return f"<function {self.name} (run in a sandbox)>"

    def __call__(self, *args, **kwargs):
        """One call in a sandbox of its own, for checkers that call the function directly."""
        from types import SimpleNamespace
        case = SimpleNamespace(label="a call", args=args, kwargs=kwargs, expected=None)
        (status, value), = self.run_cases([case], None, self.forbidden)[:1]
        if status == "ok":
            return value
        if status == "forbidden":
            raise RuntimeError(f"calls dp.{value}, which this exercise asks you to write yourself")
        if status == "timeout":
            raise TimeoutError(f"took longer than the time limit ({self.time_limit:g} s)")
        if status == "memory":
            raise MemoryError(f"used more than the memory limit ({self.memory_mb} MB)")
        raise RuntimeError(value)

    def run_cases(self, cases, runner, forbidden) -> list[tuple[str, Any]]:
        """Run every case in ONE sandbox; a list of (status, value), one per case, stopping at the first failure.
        A run that ran out of time is run again alone before its timeout is an outcome."""
        self.forbidden_seen = tuple(forbidden)
        job = {"kind": "function", "source": self.source, "name": self.name, "runner": runner,
               "forbidden": () if self.allow_library else tuple(forbidden), "cases": [(tuple(case.args), dict(case.kwargs or {})) for case in cases],
               "entropy": random.SystemRandom().getrandbits(64)}
        limits = sandbox.Limits(wall_seconds=STARTUP_SECONDS + self.time_limit,
                                cpu_seconds=STARTUP_SECONDS + self.time_limit, memory_mb=self.memory_mb,
                                output_mb=OUTPUT_MB)
        limit = self.time_limit + 1.0
        def watch(item):
            return limit if item == READY else None
        result = sandbox.run(job, limits, self.isolation, watch=watch)
        if result.end == "timeout":   # perhaps for others' load: the same cases again, alone, before failing
            result = sandbox.run(job, limits, self.isolation, watch=watch, alone=True)
        return _outcomes(result, len(cases))


def _outcomes(result: sandbox.Result, n_cases: int) -> list[tuple[str, Any]]:
    outcomes: list[tuple[str, Any]] = []
    items = result.items[1:] if result.items[:1] == [READY] else result.items
    if result.garbled:
        return [("error", "the sandbox sent back output the grader cannot read")]
    for item in items:
        try:
            status, value = item
            if status == "ok":
                value = decode(value)
            elif status not in ("error", "forbidden", "timeout", "memory") or not isinstance(value, str):
                raise ValueError(status)
        except Exception:   # garbage from the sandbox, in any form
            return outcomes + [("error", "the sandbox sent back output the grader cannot read")]
        outcomes.append((status, value))
        if status != "ok" or len(outcomes) == n_cases:
            return outcomes
    if result.end == "timeout":
        return outcomes + [("timeout", "")]
    if result.end == "output":
        return outcomes + [("error", "the function's output is larger than the grader accepts")]
    if result.end == "memory":
        return outcomes + [("memory", "")]
    if result.end.startswith("signal"):
        number = result.signal
        if number == signal.SIGXCPU:
            return outcomes + [("timeout", "")]
        if number in (signal.SIGSEGV, signal.SIGKILL, signal.SIGABRT, signal.SIGBUS):
            return outcomes + [("memory", "")]
        return outcomes + [("error", f"the function's process was killed by signal {number}")]
    return outcomes + [("error", "the function's process ended before it returned (exit or crash)")]
