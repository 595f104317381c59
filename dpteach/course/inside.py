"""What runs inside the sandbox: a submitted notebook's cells, or a student's function on hidden cases.

:mod:`dpteach.course.sandbox` starts ``python -I -c "...; from dpteach.course.inside import main;
main()" LIMITS`` inside bubblewrap and writes one pickled job to its stdin (the grader is trusted; the
job never comes from a student). :func:`main`, before any student code exists in the process:

1. keeps a private copy of stdout for its reports and points fds 0, 1 and 2 at /dev/null (a print,
   however large, goes nowhere);
2. sets the limits: address space, CPU seconds, processes (counted in the sandbox's own user
   namespace, or for the fresh uid it becomes), size of any file written, no core dumps;
3. when started as root, becomes ``uid`` (a fresh one per run, no supplementary groups), so that
   even a file mounted by mistake is read with a stranger's rights;
4. runs the job, reporting JSON lines: ``{"event": ...}`` for a notebook, ``[status, value]`` for a
   function's cases (values as :mod:`dpteach.course.plain` data).

A notebook is run cell by cell in IPython's own shell (no kernel, no sockets: the sandbox has no
network), with dpteach's figure and slider layers as stand-ins unless figures are asked for. Before
a cell it reports ``{"event": "cell", "index": i}``; after it, the answers' current values (when they
changed) and ``{"event": "ran", "index": i, "error": ...}``. The grader kills the whole sandbox when
a cell runs past its limit: the answers reported so far are kept.

A function's cell is executed in a fresh namespace holding ``np``, ``math`` and ``dp`` (the names the
chapters import), with the dpteach functions the exercise asks to write turned into ones that raise
(:func:`forbid`), numpy's global generator seeded from the grader's fresh entropy, an audit hook
(:func:`guard`, PEP 578) that refuses unpickling, shells, new processes and foreign libraries from the
cell's first line on, and the runner called on each case. Nothing of the grading package stays in ``sys.modules`` once the student's cell
runs.
"""

from __future__ import annotations

import json
import math
import os
import pickle
import resource
import sys
import types
from collections.abc import Sequence
from typing import Any

READY = "ready"


class ForbiddenCall(BaseException):
    """Raised when the student's code calls a dpteach function it is asked to write.

    A BaseException, so that a student's ``except Exception`` does not swallow it; each call is also
    recorded, so that catching it anyway does not hide it.
    """

    called: list[str] = []

    def __init__(self, name: str):
        super().__init__(name)
        ForbiddenCall.called.append(name)


class RefusedRoute(BaseException):
    """Raised (by :func:`guard`'s audit hook) when a function's code takes a route the grader does not run:
    unpickling (``pickle``, ``np.load(..., allow_pickle=True)``), a shell, a process or a foreign library.

    A BaseException, recorded like :class:`ForbiddenCall`, so that catching it hides nothing.
    """

    seen: list[str] = []

    def __init__(self, why: str):
        super().__init__(why)
        RefusedRoute.seen.append(why)


#: Audit events (PEP 578) a function's code may not raise, and why: each is a route around the rule that a
#: function's cell is read before it runs (``eval``, ``os``, ``sys._getframe`` are "not run"), and none is
#: needed to write a mechanism. Unpickling is refused whole: any callable can hide in a pickle.
#: (``sys._getframe`` is not among them: ``collections.namedtuple`` calls it, so importing most libraries
#: does; the cell's own text may not name it, and a pickle, the other way to it, is refused.)
ROUTES = {"pickle.find_class": "it unpickles data (pickle, or np.load with allow_pickle=True), which can run any code",
          "sys._current_frames": "it reads the interpreter's frames",
          "os.system": "it runs a shell command", "subprocess.Popen": "it starts a process", "os.exec": "it starts a process",
          "os.posix_spawn": "it starts a process", "os.spawn": "it starts a process", "os.fork": "it starts a process",
          "ctypes.dlopen": "it loads a foreign library", "ctypes.dlsym": "it loads a foreign library",
          "sys.addaudithook": "it changes the grader's audit hooks", "sys.setprofile": "it traces the interpreter",
          "sys.settrace": "it traces the interpreter"}


def guard() -> None:
    """From now on, in this process, every audit event of :data:`ROUTES` raises :class:`RefusedRoute`."""
    def hook(event: str, args) -> None:
        if event in ROUTES:
            raise RefusedRoute(f"{ROUTES[event]} ({event})")
    sys.addaudithook(hook)


def set_limits(limits: dict) -> None:
    """Address space, CPU time, processes, file size, no core dumps: for this process and its children."""
    memory = int(limits["memory_mb"]) * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    cpu = max(1, math.ceil(limits["cpu_seconds"]))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 2))
    size = int(limits["file_mb"]) * 2**20
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if limits.get("processes") is not None:   # without a sandbox the count would be all the grader's processes
        processes = int(limits["processes"])
        resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))


def become(uid: int | None) -> None:
    """Become ``uid`` (group likewise, no supplementary groups); nothing when uid is None."""
    if uid is None:
        return
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)


def main() -> None:
    """Run one job from stdin (see the module docstring); never returns."""
    limits = json.loads(sys.argv[1])
    data = sys.stdin.buffer.read()
    private = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    set_limits(limits)
    become(limits.get("uid"))

    def report(item: Any) -> None:
        try:
            private.write(json.dumps(item, allow_nan=False) + "\n")
            private.flush()
        except (OSError, ValueError):   # the grader stopped reading: nothing left to say
            os._exit(0)

    try:
        job = pickle.loads(data)   # from the grader, which is trusted
    except Exception as error:   # e.g. a runner that cannot be imported here: the grader's fault, said plainly
        report(READY)
        report(["error", f"the sandbox could not load its job ({type(error).__name__}: {error})"])
        os._exit(0)
    if job["kind"] == "notebook":
        run_notebook(job, report)
    else:
        run_function(job, report)
    os._exit(0)


def _forget_the_grader() -> None:
    """Drop the grading package from ``sys.modules`` (its code objects live on in what uses them)."""
    for name in [n for n in sys.modules if n == "dpteach.course" or n.startswith("dpteach.course.")]:
        del sys.modules[name]


# -- a function on hidden cases -----------------------------------------------------------------

def run_function(job: dict, report) -> None:
    """Execute the cell, then every case in turn; one ``[status, value]`` per case, stopping at a failure."""
    import builtins

    import numpy as np

    import dpteach
    from dpteach.course.plain import encode

    def send(status: str, value: Any) -> None:
        try:
            item = [status, encode(value) if status == "ok" else value]
            json.dumps(item, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as error:
            item = ["error", f"TypeError: the function returned {error}, which the grader cannot read; "
                             "return numbers, arrays, lists or dicts"]
        report(item)

    forbid(dpteach, job["forbidden"])
    np.random.seed(job["entropy"] % 2**32)
    namespace = {"__name__": "__main__", "__builtins__": builtins, "np": np, "math": math, "dp": dpteach}
    runner = job["runner"]
    report(READY)
    _forget_the_grader()
    code = compile(job["source"], "<your answer cell>", "exec")
    guard()
    try:
        exec(code, namespace)
        if RefusedRoute.seen:
            raise RefusedRoute(RefusedRoute.seen[0])
        function = namespace.get(job["name"])
        if not callable(function):
            send("error", f"NameError: the cell defines no function {job['name']}")
            return
        for args, kwargs in job["cases"]:
            ForbiddenCall.called.clear()
            got = runner(function, *args, **kwargs) if runner is not None else function(*args, **kwargs)
            if RefusedRoute.seen:
                raise RefusedRoute(RefusedRoute.seen[0])
            if ForbiddenCall.called:
                send("forbidden", ForbiddenCall.called[0])
                return
            send("ok", got)
    except ForbiddenCall as called:
        send("forbidden", str(called))
    except RefusedRoute:
        send("error", f"not run: {RefusedRoute.seen[0]}; the grader runs a function only through what its cell "
                      "shows (numpy and math)")
    except MemoryError:
        send("memory", "")
    except RecursionError as error:
        send("error", f"RecursionError: {error}")
    except BaseException as error:   # the student's code: any error is an outcome
        if RefusedRoute.seen:
            send("error", f"not run: {RefusedRoute.seen[0]}; the grader runs a function only through what its cell "
                          "shows (numpy and math)")
        elif ForbiddenCall.called:
            send("forbidden", ForbiddenCall.called[0])
        else:
            send("error", f"{type(error).__name__}: {str(error)[:300]}")


def forbid(dpteach, forbidden: Sequence[str]) -> None:
    """Make every forbidden dpteach function raise, under every name it is reachable by."""
    originals = {name: getattr(dpteach, name) for name in forbidden if hasattr(dpteach, name)}
    for name, original in originals.items():
        namespace = {"_ForbiddenCall": ForbiddenCall}
        exec(f"def {name}(*args, **kwargs):\n    raise _ForbiddenCall({name!r})", namespace)
        refusal = namespace[name]
        if isinstance(original, types.FunctionType) and not original.__code__.co_freevars:
            original.__globals__.setdefault("_ForbiddenCall", ForbiddenCall)
            original.__code__ = refusal.__code__          # every alias of the object now raises
        for module in [m for key, m in list(sys.modules.items()) if key == "dpteach" or key.startswith("dpteach.")]:
            for attribute, value in list(vars(module).items()):
                if value is original:
                    setattr(module, attribute, refusal)


# -- a notebook, cell by cell -------------------------------------------------------------------

def run_notebook(job: dict, report) -> None:
    """Each code cell in IPython's shell; the events of the module docstring."""
    import numbers

    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    if not job["figures"]:
        stand_in_figures()
    config = Config()
    config.HistoryManager.enabled = False
    shell = InteractiveShell.instance(config=config)
    names = list(job["names"])

    def answers() -> dict:
        found = {}
        for name in names:
            if name not in shell.user_ns:
                found[name] = {"missing": True}
                continue
            value = shell.user_ns[name]
            try:
                if value is None or value is Ellipsis:
                    found[name] = {"blank": True}
                elif isinstance(value, bool):
                    found[name] = {"bool": value}
                elif isinstance(value, numbers.Real):
                    number = float(value)
                    found[name] = {"number": number if math.isfinite(number) else repr(number)}
                elif isinstance(value, str):
                    found[name] = {"text": value[:1000]}
                else:
                    found[name] = {"type": type(value).__name__[:60]}
            except BaseException:   # a value whose float() raises is not an answer
                found[name] = {"type": "value that cannot be read"}
        return found

    report(READY)
    _forget_the_grader()
    last: dict = {}
    for index, source in enumerate(job["cells"]):
        report({"event": "cell", "index": index})
        try:
            result = shell.run_cell(source, store_history=False)
            error = result.error_before_exec or result.error_in_exec
            text = None if error is None else f"{type(error).__name__}: {str(error)[:300]}"
        except BaseException as error:   # the shell itself gave way: the cell is the cause
            text = f"{type(error).__name__}: {str(error)[:300]}"
        now = answers()
        if now != last:
            report({"event": "answers", "values": now})
            last = now
        report({"event": "ran", "index": index, "error": text})
    report({"event": "done"})


class _Nothing:
    """What a figure or slider is while grading: anything done with it gives it back, and it shows nothing."""

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return self

    def __call__(self, *args, **kwargs):
        return self

    def __getitem__(self, key):
        return self

    def __iter__(self):
        return iter(())

    def __len__(self) -> int:
        return 0

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> bool:
        return False

    def __repr__(self) -> str:
        return "(figure not drawn while grading)"


class _StandIn(types.ModuleType):
    """``dpteach.widgets`` / ``dpteach.plots`` while grading: every public name is :class:`_Nothing`."""

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return _Nothing()


def stand_in_figures() -> None:
    """Replace dpteach's figure and slider layers by stand-ins (no exercise answer comes from a figure)."""
    import dpteach
    for name in ("widgets", "plots"):
        module = _StandIn(f"dpteach.{name}", "stands in for the figures while grading")
        sys.modules[module.__name__] = module
        setattr(dpteach, name, module)


if __name__ == "__main__":
    main()
