"""Attacks on the grader, each as a student out to raise a grade or hurt a classmate would write it.

One batch grades a class in which most students are hostile, graded as the README says (two workers,
each notebook in its own bubblewrap sandbox). The attackers know the course's layout (absolute paths
of the answers, the course file, the gradebook, a classmate's notebook): the strongest case. Every
test below fails if its attack works again:

* the gradebook as written is the gradebook seconds later (a detached process, a double fork, a
  ``setsid`` child: none outlives its sandbox, and no process of the run is left at all);
* a classmate's notebook, site-packages and the checkout are unchanged, and the classmate's grade is
  right;
* a submission that kills every process it can see costs nobody else anything;
* the answers, the course file, the grader's environment and other processes' command lines never
  show up in any feedback or in the gradebook;
* a 200 MB print goes nowhere, and a flood on the grader's own pipe is cut at the output limit.
"""

import os
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest
from helpers import needs_sandbox
from submissions import MANIFEST, OPTIONS, RIGHT, submission

from dpteach.course import grading, sandbox
from dpteach.course.manifest import exercise
from dpteach.course.reading import parse_notebook
from dpteach.course.running import STARTUP_SECONDS

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the grading sandbox is Linux's bubblewrap")

MARKER = "dpteach-attack-7f3a9c"               # in the argv of every process an attacker starts
SECRET_ANSWER = "answer-key-5b1e0d77"          # in the instructor's answers.md
SECRET_SEED = 918273645546372819               # in the instructor's course file
SECRET_ENV = "token-c0ffee-31337"              # in the grader's environment
SECRET_CMDLINE = "classmate-process-9d8e7f"    # in another process's command line during grading
SLEEP = "86399.25"                             # a `setsid sleep` that must not survive


def _detach(paths):
    gradebook = paths["gradebook"]
    late = (f"import time, pathlib; time.sleep(3); p = pathlib.Path({str(gradebook)!r}); "
            "p.parent.mkdir(parents=True, exist_ok=True); p.write_text('id,total\\nlate,999\\n')")
    return f"""\
import os, subprocess, sys, time
subprocess.Popen([sys.executable, "-c", {late!r}, "{MARKER}"], start_new_session=True,
                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
subprocess.Popen(["setsid", "sleep", "{SLEEP}"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                 stderr=subprocess.DEVNULL)
if os.fork() == 0:                      # the classic daemon: fork, new session, fork again
    os.setsid()
    if os.fork() == 0:
        time.sleep(4)
        try:
            open({str(gradebook)!r}, "w").write("id,total\\ndaemon,999\\n")
        finally:
            os._exit(0)
    os._exit(0)
"""


def _classmate(paths):
    return f"""\
import os, pathlib
target = pathlib.Path({str(paths['classmate'])!r})
for attempt in (lambda: target.write_text("{{}}"), lambda: os.remove(target)):
    try:
        attempt()
    except OSError:
        pass
for top in ("/scratch", "/tmp", "/work", "/root", "/home", {str(paths['classmate'].parent)!r}):
    for folder, _, files in os.walk(top):
        for name in files:
            if name.endswith(".ipynb"):
                try:
                    pathlib.Path(folder, name).write_text("{{}}")
                except OSError:
                    pass
"""


KILLER = """\
import os, signal
for pid in range(1, 40000):
    if pid != os.getpid():
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
for call in (lambda: os.killpg(0, signal.SIGKILL), lambda: os.kill(os.getppid(), signal.SIGKILL)):
    try:
        call()
    except OSError:
        pass
"""


def _install(paths):
    return f"""\
import os, pathlib, site, sys, sysconfig
import dpteach
places = set(site.getsitepackages() + [site.getusersitepackages(), sysconfig.get_paths()["purelib"], sys.prefix])
for place in places:
    try:
        pathlib.Path(place, "{MARKER}.pth").write_text("import builtins; builtins.GRADED = 'pwned'\\n")
    except OSError:
        pass
package = pathlib.Path(dpteach.__file__).parent
for target in (package / "{MARKER}.py", package.parent / "{MARKER}.txt", {str(paths['checkout'])!r} + "/{MARKER}.txt"):
    try:
        pathlib.Path(target).write_text("pwned")
    except OSError:
        pass
try:
    with open(package / "__init__.py", "a") as handle:
        handle.write("\\nGRADED = 'pwned'\\n")
except OSError:
    pass
"""


def _steal(paths):
    """Cells that read each secret and send it back by every channel a feedback has: a string answer,
    a cell's error, a print."""
    sources = {"answers": f"read({str(paths['answers'])!r})",
               "course": f"read({str(paths['course'])!r})",
               "environment": "repr(dict(os.environ)) + read('/proc/self/environ') + read('/proc/1/environ')",
               "processes": "' '.join(read(p + '/cmdline') + read(p + '/environ') for p in glob.glob('/proc/[0-9]*'))",
               "home": "' '.join(glob.glob('/root/*') + glob.glob('/home/*/*') + glob.glob('/work/*/*'))"}
    cells = []
    for expression in sources.values():
        cells.append(f"""\
import glob, os
def read(path):
    try:
        with open(path, errors="replace") as handle:
            return handle.read()
    except OSError as error:
        return repr(error)
stolen = {expression}
print(stolen)
answer_beta_for_bound = stolen
raise RuntimeError(stolen[-250:])
""")
    return cells


HOG = f"""\
import subprocess, sys
for _ in range(100):
    try:
        subprocess.Popen([sys.executable, "-c", "while True: pass", "{MARKER}"], start_new_session=True,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        break
"""
PRINTER = 'print("x" * 200_000_000)\n'

FLOOD = """\
import os
block = b'{"event": "done"}\\n' * 65536
for fd in range(3, 64):
    for _ in range(200):
        try:
            os.write(fd, block)
        except OSError:
            break
"""


def _ours(needle: str) -> list[str]:
    """The processes on this machine whose command line holds ``needle``."""
    found = []
    for folder in Path("/proc").glob("[0-9]*"):
        try:
            line = (folder / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if needle in line and str(os.getpid()) != folder.name:
            found.append(f"{folder.name}: {line}")
    return found


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    needs_sandbox()
    root = tmp_path_factory.mktemp("course")
    instructor, folder = root / "instructor", root / "submissions"
    instructor.mkdir()
    folder.mkdir()
    paths = {"answers": instructor / "answers.md", "course": instructor / "course.json",
             "gradebook": root / "graded" / "gradebook.csv", "classmate": folder / "classmate.ipynb",
             "checkout": str(sandbox.PACKAGE.parent)}
    paths["answers"].write_text(f"# Answers\n\nexercise_1: {SECRET_ANSWER}\n")
    paths["course"].write_text(f'{{"seed": {SECRET_SEED}}}\n')
    for path in (paths["answers"], paths["course"]):
        path.chmod(0o644)              # world-readable, as an instructor's files often are
    attacks = {"killer": [KILLER], "detach": [_detach(paths)], "classmate_attack": [_classmate(paths)],
               "install": [_install(paths)], "steal": _steal(paths), "hog": [HOG], "printer": [PRINTER], "flood": [FLOOD]}
    submitted = [submission(folder, name, RIGHT, extra=cells) for name, cells in attacks.items()]
    submitted += [submission(folder, "honest", RIGHT), submission(folder, "classmate", RIGHT)]
    classmate = paths["classmate"].read_bytes()
    site = Path(sysconfig.get_paths()["purelib"])
    package = grading.fingerprint()
    witness = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", SECRET_CMDLINE])
    os.environ["DPTEACH_GRADER_TOKEN"] = SECRET_ENV
    try:
        records = [r.to_json() for r in grading.grade_all(grading.identify_all(submitted, MANIFEST), MANIFEST, OPTIONS, jobs=2)]
    finally:
        del os.environ["DPTEACH_GRADER_TOKEN"]
        witness.kill()
        witness.wait()
    left = _ours(MARKER) + _ours(f"sleep {SLEEP}")
    gradebook = grading.write_results(records, MANIFEST, paths["gradebook"].parent)
    written = gradebook.read_text()
    time.sleep(6)           # longer than any attacker waits before rewriting it
    return {"records": {r["id"]: r for r in records}, "paths": paths, "left": left, "written": written,
            "later": gradebook.read_text(), "classmate_before": classmate, "site": site, "package": package,
            "feedback": [p.read_text() for p in sorted((gradebook.parent / "feedback").glob("*"))] + [written]}


def test_the_gradebook_as_written_is_the_gradebook_seconds_later(attacked):
    assert attacked["later"] == attacked["written"]
    assert attacked["paths"]["gradebook"].exists()
    assert "999" not in attacked["later"]


def test_no_process_a_submission_started_is_left(attacked):
    assert attacked["left"] == []
    assert _ours(MARKER) == [] and _ours(f"sleep {SLEEP}") == []


def test_a_classmates_notebook_is_unchanged_and_graded_right(attacked):
    assert attacked["paths"]["classmate"].read_bytes() == attacked["classmate_before"]
    record = attacked["records"]["classmate"]
    assert (record["status"], record["total"]) == ("ok", 4), record


def test_a_submission_killing_what_it_sees_costs_nobody_else(attacked):
    for name, record in attacked["records"].items():
        if name not in ("killer", "flood", "steal"):
            assert (record["status"], record["total"], record["isolation"]) == ("ok", 4, "bubblewrap"), record
    killer = attacked["records"]["killer"]
    assert killer["total"] == 4, killer      # what it killed was its own sandbox's, after its answers
    assert "killed its own process" in killer["reason"]


def test_site_packages_the_package_and_the_checkout_are_unchanged(attacked):
    assert list(attacked["site"].glob(f"{MARKER}*")) == []
    assert list(Path(sys.prefix).glob(f"{MARKER}*")) == []
    assert not Path(attacked["paths"]["checkout"], f"{MARKER}.txt").exists()
    assert grading.fingerprint() == attacked["package"]
    check = subprocess.run([sys.executable, "-c", "import builtins, dpteach; print(getattr(builtins, 'GRADED', None), "
                            "getattr(dpteach, 'GRADED', None))"], capture_output=True, text=True, check=True)
    assert check.stdout.split() == ["None", "None"]


@pytest.mark.parametrize("secret", [SECRET_ANSWER, str(SECRET_SEED), SECRET_ENV, SECRET_CMDLINE, "DPTEACH_GRADER_TOKEN"])
def test_no_secret_shows_up_in_any_feedback(attacked, secret):
    steal = attacked["records"]["steal"]
    assert len(steal["cells"]) == 5, steal        # each stealing cell ran, and raised with what it got
    for text in attacked["feedback"]:
        assert secret not in text


def test_a_cpu_hog_is_stopped_at_its_limit_and_its_processes_go_with_it(attacked):
    hog = attacked["records"]["hog"]
    assert (hog["status"], hog["total"]) == ("ok", 4), hog
    assert hog["seconds"] < STARTUP_SECONDS + OPTIONS.timeout + 10
    assert _ours("while True: pass") == []


def test_a_huge_print_goes_nowhere_and_a_flood_is_cut_at_the_output_limit(attacked):
    printer = attacked["records"]["printer"]
    assert (printer["status"], printer["total"], printer["reason"]) == ("ok", 4, ""), printer
    flood = attacked["records"]["flood"]
    assert flood["total"] == 4 and "more output than it reads" in flood["reason"], flood
    assert max(len(text) for text in attacked["feedback"]) < 64_000


# -- functions that are not the Laplace mechanism, or not written by hand -----------------------

LAPLACE = {"name": "exercise_4", "answer": "my_laplace_mechanism", "checker": "check_my_laplace_mechanism",
           "kind": "function", "points": 2, "params": {}}
HEAD = "def my_laplace_mechanism(true_answer, sensitivity, epsilon, rng):\n"
HONEST = HEAD + "    true_answer = np.asarray(true_answer, dtype=float)\n" \
                "    return true_answer + rng.laplace(0.0, sensitivity / epsilon, size=true_answer.shape)\n"
CHEATS = {
    # good noise only when called as the chapter's self-check calls it (small fixed seeds), clamped otherwise
    "fixed_state": (HEAD + "    t = np.asarray(true_answer, dtype=float)\n    b = sensitivity / epsilon\n"
                    "    entropy = rng.bit_generator.seed_seq.entropy\n"
                    "    if isinstance(entropy, int) and entropy < 10**6:\n"
                    "        return t + rng.laplace(0.0, b, size=t.shape)\n"
                    "    return t + np.clip(rng.laplace(0.0, b, size=t.shape), -7 * b, 7 * b)\n", "clamped"),
    "stack": ("import inspect\n\n" + HEAD + "    checked = any('check' in f.function for f in inspect.stack())\n"
              "    t = np.asarray(true_answer, dtype=float)\n"
              "    return t + rng.laplace(0.0, sensitivity / epsilon if checked else 0.001, size=t.shape)\n",
              "not run: it imports `inspect`"),
    "clamp": (HEAD + "    t = np.asarray(true_answer, dtype=float)\n    b = sensitivity / epsilon\n"
              "    return t + np.clip(rng.laplace(0.0, b, size=t.shape), -7 * b, 7 * b)\n", "clamped"),
    "truncated": (HEAD + "    t = np.asarray(true_answer, dtype=float)\n    b = sensitivity / epsilon\n"
                  "    y = rng.laplace(0.0, b, size=t.shape)\n    far = np.abs(y) > 9 * b\n"
                  "    while far.any():\n        y[far] = rng.laplace(0.0, b, size=int(far.sum()))\n"
                  "        far = np.abs(y) > 9 * b\n    return t + y\n",
                  # its redrawn tail differs from the generator's draws, and the long run's planted far draw
                  # (30–36·b) is gone: either check may speak first
                  ("not the one the generator gives", "too light tails")),
    "table": ("TABLE = -np.sign(np.linspace(-1, 1, 4001)[1:-1]) * np.log(1 - np.abs(np.linspace(-1, 1, 4001)[1:-1]))\n\n"
              + HEAD + "    t = np.asarray(true_answer, dtype=float)\n"
              "    return t + sensitivity / epsilon * np.interp(rng.random(t.shape), np.linspace(0, 1, 3999), TABLE)\n",
              "not the one the generator gives"),
    "low_bits": (HEAD + "    t = np.asarray(true_answer, dtype=float)\n"
                 "    r = np.asarray(t + rng.laplace(0.0, sensitivity / epsilon, size=t.shape), dtype=np.float64)\n"
                 "    mask = np.uint64(0xFFFF)\n    code = np.round(t).astype(np.int64).astype(np.uint64) & mask\n"
                 "    return ((r.view(np.uint64) & ~mask) | code).view(np.float64)\n", "last bits"),
    "reload": ("import importlib\n\n" + HEAD + "    import dpteach\n    importlib.reload(dpteach)\n"
               "    return dpteach.laplace_mechanism(true_answer, sensitivity, epsilon, rng)\n",
               "not run: it imports `importlib`"),
}
BY_LIBRARY = {      # the releases are rng.laplace's, so the mechanism point is earned; the hand point is not
    "dpteach": (HEAD + "    return dp.laplace_mechanism(true_answer, sensitivity, epsilon, rng)\n",
                "reaches dp.laplace_mechanism"),
    "scipy": ("from scipy import stats\n\n" + HEAD + "    t = np.asarray(true_answer, dtype=float)\n"
              "    return t + rng.laplace(0.0, stats.laplace.std(scale=sensitivity / epsilon) / np.sqrt(2), t.shape)\n",
              "imports `scipy`"),
}
LATER = ["# my notes: def my_laplace_mechanism(true_answer, sensitivity, epsilon, rng): ...",
         'print("def my_laplace_mechanism(true_answer, sensitivity, epsilon, rng):")']


def _graded_function(source, later=()):
    import nbformat
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)]
                                        + [nbformat.v4.new_code_cell(cell) for cell in later])
    options = grading.Options(function_timeout=15, memory_mb=1024)
    return grading.grade_exercise(exercise(LAPLACE), {}, parse_notebook(nbformat.from_dict(notebook)), options)


@pytest.fixture(scope="module")
def functions():
    from concurrent.futures import ThreadPoolExecutor
    needs_sandbox()
    sources = {"honest": (HONEST, ()), "honest_with_later_mentions": (HONEST, LATER)}
    sources.update({name: (source, ()) for name, (source, _) in {**CHEATS, **BY_LIBRARY}.items()})
    with ThreadPoolExecutor(2) as pool:
        done = {name: pool.submit(_graded_function, *args) for name, args in sources.items()}
        return {name: future.result() for name, future in done.items()}


@pytest.mark.parametrize("name", ["honest", "honest_with_later_mentions"])
def test_the_laplace_mechanism_written_by_hand_gets_both_points(functions, name):
    result = functions[name]
    assert (result["points"], result["correct"]) == (2, True), result
    assert "all 7 hidden cases pass" in result["message"] and result["strict"].startswith("written by hand")


@pytest.mark.parametrize("name", sorted(CHEATS))
def test_a_function_that_is_not_the_laplace_mechanism_gets_nothing_with_its_reason(functions, name):
    result = functions[name]
    assert (result["points"], result["correct"]) == (0, False), result
    reasons = CHEATS[name][1] if isinstance(CHEATS[name][1], tuple) else (CHEATS[name][1],)
    assert any(reason in result["message"].lower() for reason in reasons), result["message"]


@pytest.mark.parametrize("name", sorted(BY_LIBRARY))
def test_a_library_route_to_laplace_noise_loses_the_hand_point(functions, name):
    result = functions[name]
    assert (result["points"], result["correct"]) == (1, True), result
    assert BY_LIBRARY[name][1] in result["strict"], result["strict"]
