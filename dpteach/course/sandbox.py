"""Where a student's code runs: bubblewrap, one entry point (:func:`run`: a job and limits in, a result out).

Every submitted notebook, and every student function on hidden cases, runs in a sandbox of its own
built by bubblewrap (``bwrap``, the sandbox Flatpak is built on), on a root that starts empty:

* read-only: ``/usr`` (with ``/bin``, ``/lib``... as on the host), the Python environment the grader
  runs in (its venv, its base installation) and the ``dpteach`` package folder, nothing else of the
  host: no home folder, no checkout around the package, no course file, answers, gradebook or other
  submission, no ``/etc`` beyond the dynamic linker's cache and the fonts;
* writable: a fresh ``/tmp`` and ``/scratch`` (the working folder) and ``/dev/shm``, memory-backed and capped;
* its own network (loopback only: nothing reachable), PID, IPC and UTS namespaces, a new session
  (no keystrokes pushed into the grader's terminal), and ``--die-with-parent``: when the grader kills
  the sandbox, the PID namespace goes with it, so nothing a student starts outlives the run;
* an environment that is an allow-list (``--clearenv``): no variable of the instructor's shell gets in;
* limits set inside before any student code (:mod:`dpteach.course.inside`): memory (the sandbox's
  whole, as processes × address space each: :meth:`Limits.per_process`), CPU seconds,
  processes, file size; wall time and the size of what it reports are watched from here.

Run as root, the sandbox becomes a fresh uid (no user namespace, so the kernel counts and limits its
processes as a stranger's); run as an ordinary user, it lives in a user namespace of its own.

Where bubblewrap is missing or cannot start, :func:`require` raises :class:`SandboxUnavailable` with
what to install: grading then stops, unless the instructor asks for ``isolation="none"`` (the
command's ``--unsafe``, for files they trust), which runs the same job as a plain child process.
Each :class:`Result` says which isolation it ran under.

One more isolation exists for one platform only: ``"user"``, for Gradescope's autograder container,
where Docker's seccomp profile usually stops bubblewrap from starting (:mod:`dpteach.course.gradescope`
chooses it only there, and says so in its instructor-only output). The grader, which must be root,
runs the job as a plain child that becomes a fresh unprivileged uid before any student code, in a
fresh working folder of its own, with the allow-list environment and the same limits; when the run
ends, every process of that uid is killed. The container keeps classmates apart; the uid keeps the
student's code from the grader's files (made readable by root only) and its results. The network
stays reachable in this mode.
"""

from __future__ import annotations

import json
import os
import pickle
import random
import selectors
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

#: The folder holding the ``dpteach`` package the grader imported: the sandbox imports the same one.
PACKAGE = Path(__file__).resolve().parents[1]
ISOLATIONS = ("bubblewrap", "user", "none")
#: What a student's processes see of the environment (every other variable is left out).
ENVIRONMENT = {"PATH": "/usr/bin:/bin", "HOME": "/scratch", "LANG": "C.UTF-8", "USER": "student",
               "TMPDIR": "/tmp", "MPLBACKEND": "agg", "MPLCONFIGDIR": "/tmp/matplotlib", "IPYTHONDIR": "/tmp/ipython",
               "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
               "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}
#: The most JSON values one report line may hold (counted as its ``[``, ``{`` and ``,`` before parsing):
#: a function's long run is one base64 string, a notebook's answers a few dozen values; twelve megabytes of
#: ``[0,0,...]`` would be gigabytes of Python objects in the grader.
MAX_ITEMS = 100_000
INSTALL = ("bubblewrap (bwrap) is needed to grade students' code safely and was not found or cannot start "
           "here{detail}. Install it: `sudo apt-get install bubblewrap` (Debian, Ubuntu), `sudo dnf install "
           "bubblewrap` (Fedora). On macOS or Windows, grade inside a Linux container or WSL. Only for files "
           "you trust, `--unsafe` grades without a sandbox.")


class SandboxUnavailable(RuntimeError):
    """bubblewrap is missing or cannot start here; the message says what to install."""


#: The least address space one process of a sandbox gets (MB): Python, IPython and numpy take about 270.
PROCESS_MB = 512


@dataclass(frozen=True)
class Limits:
    """What one sandbox may use: wall seconds (the whole run), CPU seconds (each process), memory (MB, the
    whole sandbox: see :meth:`per_process`), processes (the most at once, threads included), any file (MB),
    ``/dev/shm`` (MB), its report (MB)."""

    wall_seconds: float = 120.0
    cpu_seconds: float = 120.0
    memory_mb: int = 2048
    processes: int = 2
    file_mb: int = 64
    output_mb: int = 1
    shm_mb: int = 64

    def __post_init__(self):
        for name, low in (("wall_seconds", 0.1), ("cpu_seconds", 1), ("memory_mb", 256), ("processes", 1),
                          ("file_mb", 1), ("output_mb", 1), ("shm_mb", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= low:
                raise ValueError(f"{name} must be a number ≥ {low} (got {value!r})")

    def per_process(self) -> tuple[int, int]:
        """(processes, MB of address space each): at most :attr:`processes`, each at least :data:`PROCESS_MB`
        where ``memory_mb`` allows, so that their product never exceeds ``memory_mb``, the sandbox's whole.

        Without cgroups (none are delegated to an unprivileged grader, nor inside Gradescope's container),
        a sandbox's memory as a whole is bounded this way: RLIMIT_NPROC counts the processes (and threads)
        of its fresh uid, RLIMIT_AS each one's address space (Linux's setrlimit(2))."""
        count = max(1, min(int(self.processes), int(self.memory_mb) // PROCESS_MB))
        return count, int(self.memory_mb) // count


@dataclass
class Result:
    """How a sandbox ended: ``end`` is ``exited``, ``timeout``, ``output`` (reported more than allowed),
    ``memory`` (its files in ``/dev/shm`` passed ``shm_mb``, "user" isolation) or ``signal N``; ``alone`` whether
    it ran with no other sandbox beside it; ``items`` what it reported (JSON lines, garbage left out), ``isolation`` where it ran."""

    end: str
    items: list = field(default_factory=list)
    returncode: int | None = None
    seconds: float = 0.0
    isolation: str = "bubblewrap"
    garbled: bool = False
    signal: int | None = None
    alone: bool = False


def _bwrap() -> str | None:
    return shutil.which("bwrap")


_CHECKED: dict[str, str | None] = {}


def require() -> None:
    """Raise :class:`SandboxUnavailable` unless bubblewrap is installed and starts a sandbox here."""
    if "bubblewrap" not in _CHECKED:
        _CHECKED["bubblewrap"] = _problem()
    if _CHECKED["bubblewrap"] is not None:
        raise SandboxUnavailable(INSTALL.format(detail=_CHECKED["bubblewrap"]))


def _problem() -> str | None:
    if _bwrap() is None:
        return ""
    try:
        done = subprocess.run(command(["/usr/bin/true"], _uid()), capture_output=True, text=True, timeout=30,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError) as error:
        return f" ({error})"
    return None if done.returncode == 0 else f" (it said: {done.stderr.strip()[:200]})"


def _python_folders() -> list[Path]:
    """The folders a Python run needs: the venv, the base installation, dpteach (if not inside them)."""
    folders = []
    for path in (sys.prefix, sys.base_prefix, sys.exec_prefix, sysconfig.get_paths()["stdlib"],
                 sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"],
                 Path(os.path.realpath(sys.executable)).parent.parent, PACKAGE):
        path = Path(os.path.realpath(path))
        if path.parts[:2] != ("/", "usr") and not any(path == f or f in path.parents for f in folders):
            folders = [f for f in folders if path not in f.parents] + [path]
    return folders


def command(inside: list[str], uid: int | None, shm_mb: int = 64) -> list[str]:
    """The bwrap command line that runs ``inside`` (an argv) in a sandbox (see the module docstring), with a
    ``/dev/shm`` of its own of ``shm_mb`` MB (bubblewrap's ``--dev`` would otherwise give it half the RAM)."""
    if os.geteuid() == 0:
        spaces = ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
                  "--cap-add", "CAP_SETUID,CAP_SETGID"] if uid is not None else ["--unshare-all"]
    else:
        spaces = ["--unshare-all"]
    argv = [_bwrap() or "bwrap", *spaces, "--die-with-parent", "--new-session", "--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        host = Path("/") / name
        if host.is_symlink():
            argv += ["--symlink", os.readlink(host), str(host)]
        elif host.is_dir():
            argv += ["--ro-bind", str(host), str(host)]
    for name in ("/etc/ld.so.cache", "/etc/fonts", "/etc/localtime"):
        if os.path.exists(name):
            argv += ["--ro-bind", name, name]
    # the fresh folders first: a Python installed under /tmp is then bound on top of the new /tmp
    argv += ["--proc", "/proc", "--dev", "/dev",
             "--perms", "1777", "--size", str(shm_mb * 2**20), "--tmpfs", "/dev/shm",
             "--perms", "1777", "--size", str(256 * 2**20), "--tmpfs", "/tmp",
             "--perms", "1777", "--size", str(256 * 2**20), "--tmpfs", "/scratch"]
    made = {Path("/usr"), Path("/etc"), Path("/tmp"), Path("/scratch")}
    for folder in _python_folders():
        for parent in reversed(folder.parents):
            if parent != Path("/") and parent not in made:
                argv += ["--perms", "0755", "--dir", str(parent)]   # bwrap would make it 0700
                made.add(parent)
        argv += ["--ro-bind", str(folder), str(folder)]
        made.add(folder)
    argv += ["--chdir", "/scratch", "--clearenv"]
    for key, value in ENVIRONMENT.items():
        argv += ["--setenv", key, value]
    return argv + ["--", *inside]


def fresh_uid() -> int:
    """A uid no account uses, for one sandbox started by root."""
    return 200_000 + random.SystemRandom().randrange(1_000_000)


def _uid() -> int | None:
    """The uid a sandbox becomes: a fresh one when the grader is root, else its own (None)."""
    return fresh_uid() if os.geteuid() == 0 else None


def _inside(limits: Limits, uid: int | None, processes: bool = True) -> list[str]:
    code = ("import sys; sys.path.insert(0, %r); from dpteach.course.inside import main; main()"
            % str(PACKAGE.parent))
    count, each = limits.per_process()
    settings = {"memory_mb": each if processes else limits.memory_mb, "cpu_seconds": limits.cpu_seconds,
                "processes": count if processes else None, "file_mb": limits.file_mb, "uid": uid}
    return [sys.executable, "-I", "-c", code, json.dumps(settings)]


def run(job: dict, limits: Limits, isolation: str = "bubblewrap",
        watch: Callable[[object], float | None] | None = None, alone: bool = False) -> Result:
    """Run ``job`` (a dict for :func:`dpteach.course.inside.main`) in a sandbox; never raises for what it does.

    ``watch`` sees each item reported and may return a number of seconds: the next item must then come
    within them (a cell's own limit); the whole run always ends at ``limits.wall_seconds``. Items that
    are not JSON are dropped (``garbled``). When the run ends (or is killed), nothing of it is left.
    With ``alone``, no other sandbox of this user's graders runs meanwhile (:func:`turn`): for a run
    that ran out of time beside others, before it is failed.
    """
    if isolation not in ISOLATIONS:
        raise ValueError(f"isolation must be one of {ISOLATIONS} (got {isolation!r})")
    with turn(alone):
        result = _run(job, limits, isolation, watch)
    result.alone = alone
    return result


def _run(job: dict, limits: Limits, isolation: str, watch) -> Result:
    uid, scratch = None, None
    if isolation == "bubblewrap":
        require()
        uid = _uid()
        argv = command(_inside(limits, uid), uid, limits.shm_mb)
        cwd, env = "/", {"PATH": "/usr/bin:/bin"}
    elif isolation == "user":
        if os.geteuid() != 0:
            raise SandboxUnavailable("the 'user' isolation runs students' code as a fresh unprivileged uid, which "
                                     "only root can become (Gradescope runs its autograder as root)")
        uid, scratch = fresh_uid(), tempfile.mkdtemp(prefix="dpteach-student-")
        os.chown(scratch, uid, uid)
        os.chmod(scratch, 0o700)
        argv, cwd = _inside(limits, uid), scratch
        env = dict(ENVIRONMENT, HOME=scratch, TMPDIR=scratch, MPLCONFIGDIR=f"{scratch}/matplotlib",
                   IPYTHONDIR=f"{scratch}/ipython")
    else:
        argv, cwd = _inside(limits, None, processes=False), None
        env = dict(ENVIRONMENT, HOME="/tmp", MPLCONFIGDIR="/tmp/matplotlib-dpteach", IPYTHONDIR="/tmp/ipython-dpteach")
    started = time.monotonic()
    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               cwd=cwd, env=env, start_new_session=True)
    result = Result(end="exited", isolation=isolation)
    police = (lambda: "memory" if shared_memory(uid) > limits.shm_mb * 2**20 else None) if isolation == "user" else None
    try:
        _feed(process, pickle.dumps(job))
        result.end = _collect(process, limits, watch, result, started, police)
    finally:
        _kill(process)
        if isolation == "user":
            kill_uid(uid)
            shutil.rmtree(scratch, ignore_errors=True)
            shared_memory(uid, remove=True)
    code = result.returncode = process.returncode
    # a signal ends a plain child with -N; bubblewrap reports its child's signal N as exit status 128 + N
    number = -code if code is not None and code < 0 else code - 128 if isolation == "bubblewrap" and code and code > 128 \
        else None
    if result.end == "exited" and number:
        result.end, result.signal = f"signal {number}", number
    result.seconds = time.monotonic() - started
    return result


def _feed(process: subprocess.Popen, data: bytes) -> None:
    try:
        process.stdin.write(data)
        process.stdin.close()
    except (BrokenPipeError, OSError):   # it ended before reading its job: its result says how
        pass


def _collect(process, limits: Limits, watch, result: Result, started: float, police=None) -> str:
    """Read the reports line by line until the process ends or a limit is reached; how it ended.
    ``police``, if given, is asked every quarter second and ends the run with what it returns (not None)."""
    budget = limits.output_mb * 2**20
    end_all = started + limits.wall_seconds
    end_next = end_all
    buffer, size = b"", 0
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    os.set_blocking(process.stdout.fileno(), False)
    try:
        while True:
            now = time.monotonic()
            if now >= min(end_all, end_next):
                return "timeout"
            if police is not None and (verdict := police()) is not None:
                return verdict
            if not selector.select(timeout=min(end_all, end_next, now + (0.25 if police else 3600)) - now):
                continue
            chunk = process.stdout.read(65536)
            if not chunk:
                try:
                    process.wait(timeout=max(0.0, end_all - time.monotonic()))
                except subprocess.TimeoutExpired:
                    return "timeout"
                return "exited"
            size += len(chunk)
            if size > budget:
                return "output"
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                if line.count(b"[") + line.count(b"{") + line.count(b",") > MAX_ITEMS:
                    result.garbled = True     # parsed, it would cost the grader gigabytes: never parsed
                    continue
                try:
                    item = json.loads(line)
                except ValueError:
                    result.garbled = True
                    continue
                result.items.append(item)
                seconds = watch(item) if watch else None
                if seconds is not None:
                    end_next = time.monotonic() + seconds
    finally:
        selector.close()


#: Where a process of any uid may write into memory on a host without a sandbox ("user" isolation).
SHARED_MEMORY = ("/dev/shm",)


def shared_memory(uid: int, remove: bool = False) -> int:
    """Bytes held by ``uid``'s files in :data:`SHARED_MEMORY` (RAM-backed); with ``remove``, they are deleted."""
    total = 0
    for top in SHARED_MEMORY:
        for folder, folders, files in os.walk(top):
            for name in folders + files:
                path = os.path.join(folder, name)
                try:
                    status = os.lstat(path)
                except OSError:
                    continue
                if status.st_uid != uid:
                    continue
                total += status.st_blocks * 512
                if remove:
                    (shutil.rmtree if os.path.isdir(path) and not os.path.islink(path) else os.unlink)(path)
    return total


@contextmanager
def turn(alone: bool):
    """Hold this user's graders' turn: shared (any number of sandboxes at once) or, ``alone``, exclusive.

    Two ``flock(2)`` locks on files in the temporary folder, one per user: a run alone first takes the
    gate, so that no new sandbox starts, then waits for those running to end (writer preference). Where
    the files cannot be opened, sandboxes run without turns.
    """
    import fcntl
    folder = tempfile.gettempdir()
    try:
        gate = os.open(os.path.join(folder, f"dpteach-grading-{os.geteuid()}.gate"), os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield
        return
    try:
        main = os.open(os.path.join(folder, f"dpteach-grading-{os.geteuid()}.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        os.close(gate)
        yield
        return
    try:
        fcntl.flock(gate, fcntl.LOCK_EX)
        try:
            fcntl.flock(main, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        finally:
            fcntl.flock(gate, fcntl.LOCK_UN)
        yield
    finally:
        os.close(main)       # closing the descriptors releases their locks
        os.close(gate)


def processes_of(uid: int) -> list[int]:
    """The pids of every process whose real or effective uid is ``uid`` (read from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", encoding="utf-8") as status:
                line = next(line for line in status if line.startswith("Uid:"))
        except (OSError, StopIteration):      # gone meanwhile
            continue
        if str(uid) in line.split()[1:3]:
            found.append(int(entry))
    return found


def kill_uid(uid: int, rounds: int = 50) -> None:
    """Kill every process of ``uid`` until none is left (a fork bomb's children are killed as they appear;
    RLIMIT_NPROC bounds how many there can be)."""
    for _ in range(rounds):
        pids = processes_of(uid)
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.01)


def _kill(process: subprocess.Popen) -> None:
    """Kill the sandbox (its PID namespace dies with it) and anything left in its session; reap it."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.kill()
    except ProcessLookupError:
        pass
    process.wait()
    process.stdout.close()
