"""Running a student's code where it cannot reach the grader: a child process with limits.

Two things run here, each in a process of its own that the grader starts and can kill:

* :class:`SandboxedFunction` runs a function a student wrote (its cell's source, not the live
  object from the student's kernel) on a checker's hidden cases. It is what
  ``dpteach.exercises.check_function`` receives in place of the function: having ``run_cases``,
  it is not called by the checker; the checker hands it the cases and judges the outcomes.
* ``kernel``: the Jupyter kernel that executes a submitted notebook, started through this module
  so that its limits are set before the first line of student code runs.

The child of :class:`SandboxedFunction` (``python -I``: no ``PYTHON*`` variables, no user site, no
current folder on ``sys.path``; started in an empty folder of its own) reads its job from stdin
(pickled by the grader, which is trusted), sets ``RLIMIT_AS`` (memory), ``RLIMIT_CPU``,
``RLIMIT_FSIZE`` and a wall-clock alarm, turns every forbidden dpteach function into one that raises
(the function object itself, so every alias of it raises too, and the attribute of every dpteach
module that holds it), executes the cell's source in a fresh namespace holding ``np``, ``math`` and
``dp`` (the names the chapters import), then runs ``runner(function, *case.args, **case.kwargs)``
(or the plain call) per case. Outcomes go back as JSON lines, arrays as base64 ``.npy`` read with
``allow_pickle=False``: the grader never unpickles what a child sends. The child's own stdout and
stderr go to /dev/null, so printing cannot flood the grader. When the grader runs as root, the
child (and the kernel) run under a fresh unprivileged uid: student code can then neither write into
the installed package nor signal another student's processes.

Every way a child can end badly is an outcome, never an exception in the grader: a hang is killed at
the limit (``("timeout", "")``), running out of memory is ``("memory", "")``, a crash, an early exit or
unreadable output is ``("error", "...")``.

Limits of this design (no container): a student's code runs as an ordinary process, so without
root it runs as the grader's user and could write wherever that user can. Grade as root (then each
child gets its own uid), or as a dedicated user whose only writable folder is the output folder.
"""

from __future__ import annotations

import base64
import io
import json
import math
import os
import pickle
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: The folder that holds the ``dpteach`` package the grader imported: children import the same one.
PACKAGE_PARENT = str(Path(__file__).resolve().parents[2])
#: Seconds a child may take to start (import numpy and dpteach) before its cases' time begins.
STARTUP_SECONDS = 30.0
#: Largest output a child may send back (bytes); more is an error, not a bigger buffer.
MAX_OUTPUT = 32 * 1024 * 1024
READY = "ready"


class ForbiddenCall(BaseException):
    """Raised in the child when the student's code calls a dpteach function it is asked to write.

    A BaseException, so that a student's ``except Exception`` does not swallow it; each call is also
    recorded, so that catching it anyway does not hide it.
    """

    called: list[str] = []

    def __init__(self, name: str):
        super().__init__(name)
        ForbiddenCall.called.append(name)


class _Timeout(BaseException):
    """The wall-clock alarm of one case."""


def _validate(time_limit: float, memory_mb: int) -> None:
    if not (isinstance(time_limit, (int, float)) and math.isfinite(time_limit) and time_limit > 0):
        raise ValueError(f"time_limit must be a number of seconds > 0 (got {time_limit!r})")
    if not (isinstance(memory_mb, int) and not isinstance(memory_mb, bool) and memory_mb >= 256):
        raise ValueError(f"memory_mb must be an integer ≥ 256 (got {memory_mb!r}); numpy alone needs about 100 MB")


def fresh_uid() -> int | None:
    """A uid for one student's processes (none is in use) when the grader runs as root, else None.

    Also None when another user could not read this Python (its standard library, its packages, or
    dpteach): e.g. a Python installed under /root. Then student code runs as the grader's user.
    """
    if os.geteuid() != 0 or not _others_can_read():
        return None
    return 200_000 + random.SystemRandom().randrange(1_000_000)


def _others_can_read() -> bool:
    import stat
    import sysconfig
    paths = [sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"], PACKAGE_PARENT,
             os.path.realpath(sys.executable)]
    for path in map(Path, paths):
        for folder in [path, *path.parents]:
            try:
                mode = folder.stat().st_mode
            except OSError:
                return False
            if not mode & (stat.S_IXOTH if folder.is_dir() else stat.S_IROTH):
                return False
    return True


def drop_privileges(uid: int | None) -> None:
    """Become ``uid`` (group likewise, no supplementary groups); nothing when uid is None."""
    if uid is None:
        return
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)


def set_limits(memory_mb: int, cpu_seconds: float, file_mb: int = 64) -> None:
    """Address space, CPU time, size of any file written, no core dumps: for this process and its children."""
    memory = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    cpu = max(1, math.ceil(cpu_seconds))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    size = file_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def clean_environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for a student's processes: the grader's, without what a test harness injects.

    Dropped: PYTHONWARNINGS (a library's warning must not fail a student's cell), IPYTHONDIR and
    JUPYTER_* (start-up files and settings), PYTEST_*, COV_* and coverage's hooks, PYTHONSTARTUP,
    PYTHONINSPECT. BLAS runs one thread: students' kernels run side by side on the grader's cores.
    """
    dropped = ("PYTHONWARNINGS", "IPYTHONDIR", "PYTHONSTARTUP", "PYTHONINSPECT", "PYTHONBREAKPOINT", "MPLBACKEND")
    env = {key: value for key, value in os.environ.items()
           if key not in dropped and not key.startswith(("JUPYTER", "PYTEST", "COV_", "COVERAGE"))}
    env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1",
               PYTHONHASHSEED="0")
    env.update(extra or {})
    return env


# -- outcomes: plain data, encoded without pickle --------------------------------------------

def encode(value: Any, depth: int = 0) -> Any:
    """Plain data as JSON-able objects (arrays as base64 .npy); TypeError for anything else."""
    import numbers

    import numpy as np
    if depth > 20:
        raise TypeError("data nested too deeply")
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, (np.integer, np.floating)):
        return encode(value.item(), depth)     # as the checkers' own plain data: numpy scalars become numbers
    if isinstance(value, numbers.Integral):
        return {"int": str(int(value))}
    if isinstance(value, numbers.Real):
        number = float(value)
        return number if math.isfinite(number) else {"float": repr(number)}
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biuf":
            raise TypeError(f"an array of dtype {value.dtype} (only numbers or booleans can be graded)")
        buffer = io.BytesIO()
        np.save(buffer, np.ascontiguousarray(value), allow_pickle=False)
        return {"ndarray": base64.b64encode(buffer.getvalue()).decode("ascii")}
    if isinstance(value, list):
        return [encode(item, depth + 1) for item in value]
    if isinstance(value, tuple):
        return {"tuple": [encode(item, depth + 1) for item in value]}
    if isinstance(value, dict):
        return {"dict": [[str(key), encode(item, depth + 1)] for key, item in value.items()]}
    raise TypeError(f"a value of type {type(value).__name__}")


def decode(data: Any, depth: int = 0) -> Any:
    """The inverse of :func:`encode`, for data that may be garbage: ValueError when it is not valid."""
    import numpy as np
    if depth > 21:
        raise ValueError("data nested too deeply")
    if data is None or isinstance(data, (bool, str, float, int)):
        return data
    if isinstance(data, list):
        return [decode(item, depth + 1) for item in data]
    if isinstance(data, dict) and len(data) == 1:
        (kind, payload), = data.items()
        if kind == "int" and isinstance(payload, str):
            return int(payload)
        if kind == "float" and payload in ("nan", "inf", "-inf"):
            return float(payload)
        if kind == "tuple" and isinstance(payload, list):
            return tuple(decode(item, depth + 1) for item in payload)
        if kind == "dict" and isinstance(payload, list) and all(isinstance(p, list) and len(p) == 2 for p in payload):
            pairs = [(decode(key, depth + 1), decode(item, depth + 1)) for key, item in payload]
            try:
                return dict(pairs)
            except TypeError as error:
                raise ValueError(f"unusable dict key: {error}") from None
        if kind == "ndarray" and isinstance(payload, str):
            try:
                array = np.load(io.BytesIO(base64.b64decode(payload, validate=True)), allow_pickle=False)
            except Exception as error:   # whatever np.load makes of garbage, it is garbage
                raise ValueError(f"not an .npy array: {error}") from None
            if not isinstance(array, np.ndarray) or array.dtype.kind not in "biuf":
                raise ValueError("not an array of numbers or booleans")
            return array
    raise ValueError(f"not plain data: {str(data)[:60]!r}")


# -- the grader's side ----------------------------------------------------------------------

class SandboxedFunction:
    """A student's function, run in a child process on a checker's cases (see the module docstring).

    ``source`` is the student's cell (without the checker call), ``name`` the function it defines.
    ``time_limit`` is the wall time in seconds for all the cases of one :meth:`run_cases` together
    (the child's start-up is not counted), ``memory_mb`` the child's address space. ``forbidden``
    names the dpteach functions that raise in the child when no checker passes its own list (a
    direct call, as older checkers make). :attr:`forbidden_seen` holds the list a checker passed.
    """

    def __init__(self, source: str, name: str, time_limit: float = 20.0, memory_mb: int = 1024,
                 forbidden: Sequence[str] = ()):
        _validate(time_limit, memory_mb)
        if not name.isidentifier():
            raise ValueError(f"name must be a Python identifier (got {name!r})")
        self.source, self.name = source, name
        self.time_limit, self.memory_mb = float(time_limit), memory_mb
        self.forbidden = tuple(forbidden)
        self.forbidden_seen: tuple[str, ...] | None = None
        self.__name__ = name

    def __repr__(self) -> str:
        return f"<function {self.name} (run in a sandbox)>"

    def __call__(self, *args, **kwargs):
        """One call in a child of its own, for checkers that call the function directly."""
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
        """Run every case in ONE child; a list of (status, value), one per case, stopping at the first failure."""
        self.forbidden_seen = tuple(forbidden)
        uid = fresh_uid()
        job = pickle.dumps({
            "source": self.source, "name": self.name, "runner": runner, "forbidden": tuple(forbidden),
            "cases": [(tuple(case.args), dict(case.kwargs or {})) for case in cases],
            "time_limit": self.time_limit, "memory_mb": self.memory_mb, "uid": uid})
        with tempfile.TemporaryDirectory(prefix="dpteach-sandbox-") as folder:
            work = Path(folder) / "cwd"
            work.mkdir()
            out_path = Path(folder) / "out"
            if uid is not None:
                os.chown(work, uid, uid)
            with open(out_path, "wb") as out:
                # The child writes nothing else to this file; student code cannot reach the
                # grader's memory through it (read back at most MAX_OUTPUT bytes, as JSON).
                code = ("import sys; sys.path.insert(0, %r); from dpteach.course.sandbox import _child; _child()"
                        % PACKAGE_PARENT)
                process = subprocess.Popen([sys.executable, "-I", "-c", code], stdin=subprocess.PIPE, stdout=out,
                                           stderr=subprocess.DEVNULL, cwd=work, env=clean_environment({"HOME": str(work)}),
                                           start_new_session=True)
                killed = self._feed_and_wait(process, job, out_path, len(cases))
            return self._outcomes(out_path, process.returncode, killed, len(cases))

    def _feed_and_wait(self, process: subprocess.Popen, job: bytes, out_path: Path, n_cases: int) -> bool:
        """Send the job; wait for the child within its limits; True if it had to be killed."""
        try:
            process.stdin.write(job)
            process.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        started = time.monotonic()
        deadline = started + STARTUP_SECONDS + self.time_limit
        ready_at = None
        while process.poll() is None:
            now = time.monotonic()
            if ready_at is None and _first_line(out_path) == READY:
                ready_at = now
                deadline = ready_at + self.time_limit + 1.0
            if now > deadline or out_path.stat().st_size > MAX_OUTPUT:
                _kill(process)
                return True
            time.sleep(0.01)
        return False

    def _outcomes(self, out_path: Path, returncode: int | None, killed: bool, n_cases: int) -> list[tuple[str, Any]]:
        with open(out_path, "rb") as handle:
            raw = handle.read(MAX_OUTPUT + 1)
        if len(raw) > MAX_OUTPUT:
            return [("error", "the function's output is larger than the grader accepts")]
        lines = raw.decode("utf-8", errors="replace").splitlines()
        outcomes: list[tuple[str, Any]] = []
        if lines and lines[0] == READY:
            lines = lines[1:]
        for line in lines:
            try:
                status, value = json.loads(line)
                if status == "ok":
                    value = decode(value)
                elif status not in ("error", "forbidden", "timeout", "memory") or not isinstance(value, str):
                    raise ValueError(status)
            except Exception:   # garbage from the child, in any form
                return outcomes + [("error", "the sandbox sent back output the grader cannot read")]
            outcomes.append((status, value))
            if status != "ok" or len(outcomes) == n_cases:
                return outcomes
        if killed:
            return outcomes + [("timeout", "")]
        if returncode is not None and returncode < 0:
            signal_number = -returncode
            if signal_number == signal.SIGXCPU:
                return outcomes + [("timeout", "")]
            if signal_number in (signal.SIGSEGV, signal.SIGKILL, signal.SIGABRT, signal.SIGBUS):
                return outcomes + [("memory", "")]
            return outcomes + [("error", f"the function's process was killed by signal {signal_number}")]
        return outcomes + [("error", "the function's process ended before it returned (exit or crash)")]


def _first_line(path: Path) -> str | None:
    with open(path, "rb") as handle:
        head = handle.read(len(READY) + 1)
    return READY if head == (READY + "\n").encode() else None


def _kill(process: subprocess.Popen) -> None:
    """Kill the child and anything it started in its session; reap it."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()
    process.wait()


# -- the child's side -----------------------------------------------------------------------

def _child() -> None:
    """Run one job from stdin (see the module docstring); never returns."""
    data = sys.stdin.buffer.read()
    private = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    try:
        job = pickle.loads(data)   # from the grader, which is trusted
    except Exception as error:   # e.g. a runner the child cannot import: the grader's fault, said plainly
        private.write(READY + "\n" + json.dumps(["error", f"the sandbox could not load its job ({error})"]) + "\n")
        private.flush()
        os._exit(0)
    limit = job["time_limit"]
    set_limits(job["memory_mb"], STARTUP_SECONDS + limit)
    drop_privileges(job["uid"])

    def send(status: str, value: Any) -> None:
        try:
            line = json.dumps([status, encode(value) if status == "ok" else value], allow_nan=False)
        except (TypeError, ValueError, RecursionError) as error:
            line = json.dumps(["error", f"TypeError: the function returned {error}, which the grader cannot read; "
                                        "return numbers, arrays, lists or dicts"])
        private.write(line + "\n")
        private.flush()

    import builtins

    import numpy as np

    import dpteach
    private.write(READY + "\n")
    private.flush()
    _forbid(dpteach, job["forbidden"])

    def alarm(signum, frame):
        raise _Timeout()

    signal.signal(signal.SIGALRM, alarm)
    deadline = time.monotonic() + limit
    namespace = {"__name__": "__student__", "__builtins__": builtins, "np": np, "math": math, "dp": dpteach}
    try:
        signal.setitimer(signal.ITIMER_REAL, limit)
        exec(compile(job["source"], "<your answer cell>", "exec"), namespace)
        function = namespace.get(job["name"])
        if not callable(function):
            send("error", f"NameError: the cell defines no function {job['name']}")
            os._exit(0)
        runner = job["runner"]
        for args, kwargs in job["cases"]:
            ForbiddenCall.called.clear()
            signal.setitimer(signal.ITIMER_REAL, max(deadline - time.monotonic(), 0.001))
            got = runner(function, *args, **kwargs) if runner is not None else function(*args, **kwargs)
            signal.setitimer(signal.ITIMER_REAL, 0)
            if ForbiddenCall.called:
                send("forbidden", ForbiddenCall.called[0])
                os._exit(0)
            send("ok", got)
    except ForbiddenCall as called:
        send("forbidden", str(called))
    except _Timeout:
        send("timeout", "")
    except MemoryError:
        send("memory", "")
    except RecursionError as error:
        send("error", f"RecursionError: {error}")
    except BaseException as error:   # the student's code: any error is an outcome
        if ForbiddenCall.called:
            send("forbidden", ForbiddenCall.called[0])
        else:
            send("error", f"{type(error).__name__}: {error}")
    os._exit(0)


def _forbid(dpteach, forbidden: Sequence[str]) -> None:
    """Make every forbidden dpteach function raise, under every name it is reachable by."""
    import types
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


# -- the kernel that executes a submission ----------------------------------------------------

class _Nothing:
    """What a figure or slider is in a grading kernel: anything done with it gives it back, and it shows nothing."""

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
    """``dpteach.widgets`` / ``dpteach.plots`` in a grading kernel: every public name is :class:`_Nothing`."""

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


def kernel_main(argv: Sequence[str] | None = None) -> None:
    """``python -m dpteach.course.sandbox kernel --memory-mb M --cpu-seconds S [--uid U] [--no-figures] -f CONNECTION``:
    set the limits, drop to ``uid`` (the connection file is copied where that user can read it),
    put stand-ins for dpteach's figures and sliders with ``--no-figures``, then start ipykernel."""
    import argparse
    import shutil
    parser = argparse.ArgumentParser(prog="python -m dpteach.course.sandbox kernel")
    parser.add_argument("--memory-mb", type=int, required=True)
    parser.add_argument("--cpu-seconds", type=float, required=True)
    parser.add_argument("--uid", type=int, default=None)
    parser.add_argument("--no-figures", action="store_true")
    parser.add_argument("-f", dest="connection_file", required=True)
    args, rest = parser.parse_known_args(argv)
    connection = args.connection_file
    if args.uid is not None:
        copy = Path.cwd().parent / "connection.json"
        shutil.copyfile(connection, copy)
        os.chown(copy, args.uid, args.uid)
        os.chmod(copy, 0o600)
        connection = str(copy)
    set_limits(args.memory_mb, args.cpu_seconds)
    drop_privileges(args.uid)
    if args.no_figures:
        stand_in_figures()
    from ipykernel.kernelapp import IPKernelApp
    IPKernelApp.launch_instance(argv=["-f", connection, *rest])


if __name__ == "__main__":
    if sys.argv[1:2] == ["kernel"]:
        kernel_main(sys.argv[2:])
    else:
        _child()
