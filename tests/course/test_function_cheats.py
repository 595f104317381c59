"""Functions that are not the mechanism asked for, or not written by hand, graded as the README says.

Each cheat below scored 2/2 before the function point replayed the generator it hands the function
(chapter 03), the function sandbox refused unpickling by audit hook and the cell reading refused
``np.load``/``allow_pickle``/``exercises`` (any chapter), and chapter 05 drew cases afresh. Each runs
through the real grading path (:func:`dpteach.course.grading.grade_exercise`, the function in a
bubblewrap sandbox of its own) and must get 0 points with a reason that names what it did. The honest
function beside them keeps 2/2: the replay is exact, so it adds no false failure to the statistical
checks' own (under 10⁻⁶ per submission, see ``check_my_laplace_mechanism``).
"""

import io
import pickle
import sys

import nbformat
import numpy as np
import pytest
from helpers import needs_sandbox
from submissions import MANIFEST

import dpteach as dp
from dpteach.course import grading
from dpteach.course.manifest import exercise as as_asked
from dpteach.course.reading import parse_notebook

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the grading sandbox is Linux's bubblewrap")

LAPLACE = {"name": "exercise_4", "answer": "my_laplace_mechanism", "checker": "check_my_laplace_mechanism",
           "kind": "function", "points": 2, "params": {}}
HEAD = "def my_laplace_mechanism(true_answer, sensitivity, epsilon, rng):\n"
HONEST = HEAD + "    true_answer = np.asarray(true_answer, dtype=float)\n" \
                "    return true_answer + rng.laplace(0.0, sensitivity / epsilon, size=true_answer.shape)\n"


class _Eval:
    """Unpickled, calls eval on a string: code the "not run" rule bans, hidden in bytes."""

    def __reduce__(self):
        return eval, ("__import__('os').getpid()",)


def _blob(value) -> bytes:
    """``value`` in an object array, as ``np.save(..., allow_pickle=True)`` writes it (a pickle inside)."""
    buffer = io.BytesIO()
    np.save(buffer, np.array([value], dtype=object), allow_pickle=True)
    return buffer.getvalue()


PICKLED_MECHANISM = _blob(dp.laplace_mechanism)
PICKLED_EVAL = _blob(_Eval())
assert b"laplace_mechanism" in PICKLED_MECHANISM and b"eval" in PICKLED_EVAL and pickle.DEFAULT_PROTOCOL

CHEATS = {
    # exact on the first call with each generator it has not seen (the old check made one such call)
    "first_release_exact": ("SEEN = []\n\n" + HEAD + "    t = np.asarray(true_answer, dtype=float)\n"
                            "    y = rng.laplace(0.0, sensitivity / epsilon, size=t.shape)\n"
                            "    if not any(g is rng for g in SEEN):\n        SEEN.append(rng)\n        return t + 0 * y\n"
                            "    return t + y\n", "release 1 of"),
    # the far tails that a million draws almost never reach: redrawn beyond 14b, clamped at 16b
    "redrawn_beyond_14b": (HEAD + "    t = np.asarray(true_answer, dtype=float)\n    b = sensitivity / epsilon\n"
                           "    y = rng.laplace(0.0, b, size=t.shape)\n    far = np.abs(y) > 14 * b\n"
                           "    while far.any():\n        y[far] = rng.laplace(0.0, b, size=int(far.sum()))\n"
                           "        far = np.abs(y) > 14 * b\n    return t + y\n",
                           # caught by its draws, or (the long run plants a draw at 30–36·b) by its missing far tail
                           ("not the one the generator gives", "light tails")),
    "clamped_at_16b": (HEAD + "    t = np.asarray(true_answer, dtype=float)\n    b = sensitivity / epsilon\n"
                       "    return t + np.clip(rng.laplace(0.0, b, size=t.shape), -16 * b, 16 * b)\n",
                       # caught by its draws, or (the long run plants a draw at 30–36·b) by releases at exactly ±16·b
                       ("not the one the generator gives", "clamped noise")),
    # the true answer in the low 16 bits, masked by a hash of the upper bits (no bit stuck at 1)
    "keyed_low_bits": (HEAD + "    t = np.asarray(true_answer, dtype=float)\n"
                       "    r = np.asarray(t + rng.laplace(0.0, sensitivity / epsilon, size=t.shape), dtype=np.float64)\n"
                       "    bits = r.view(np.uint64)\n    high = bits >> np.uint64(16)\n"
                       "    key = (high * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(48)\n"
                       "    code = (np.round(t).astype(np.int64).astype(np.uint64) ^ key) & np.uint64(0xFFFF)\n"
                       "    return ((bits & ~np.uint64(0xFFFF)) | code).view(np.float64)\n",
                       "not the one the generator gives"),
    # numpy's generator replaced in the sandbox, so that rng.normal answers with Laplace noise there only
    "replaced_default_rng": ("REAL = np.random.default_rng\n\n"
                             "class Looks:\n    def __init__(self, seed=None):\n        self.g = REAL(seed)\n"
                             "    def normal(self, loc, scale, size=None):\n"
                             "        return self.g.laplace(loc, scale / np.sqrt(2), size)\n"
                             "    def laplace(self, loc, scale, size=None):\n        return self.g.laplace(loc, scale, size)\n\n"
                             "np.random.default_rng = Looks\nnp.random.Generator = Looks\n\n"
                             + HEAD + "    t = np.asarray(true_answer, dtype=float)\n"
                             "    return t + rng.normal(0.0, np.sqrt(2) * sensitivity / epsilon, size=t.shape)\n",
                             # normal noise of the right variance: caught by its tails, or (the grader's cases are
                             # drawn afresh) first by its mean |noise|, √(2/π)·√2·b = 1.13·b
                             ("light tails", "wrong size")),
    # the runner's own generator factory patched: the function's Gaussian looks like Laplace in grading only
    "patched_runner": ("REAL = np.random.default_rng\n\n"
                       "class Looks:\n    def __init__(self, seed=None):\n        self.g = REAL(seed)\n"
                       "    def normal(self, loc, scale, size=None):\n"
                       "        return self.g.laplace(loc, scale / np.sqrt(2), size)\n\n"
                       "def patch(module):\n    module.exercises.mechanism.function._generator = Looks\n\n"
                       "patch(dp)\n\n"
                       + HEAD + "    t = np.asarray(true_answer, dtype=float)\n"
                       "    return t + rng.normal(0.0, np.sqrt(2) * sensitivity / epsilon, size=t.shape)\n",
                       "not run: it uses `.exercises`"),
    # dpteach's own mechanism, and eval, out of np.load(allow_pickle=True)
    "np_load_mechanism": ("import io\n\nBLOB = " + repr(PICKLED_MECHANISM) + "\n\n" + HEAD +
                          "    f = np.load(io.BytesIO(BLOB), allow_pickle=True)[0]\n"
                          "    return f(true_answer, sensitivity, epsilon, rng)\n", "not run: it uses `.load`"),
    # the same, by a route the cell reading does not name: the sandbox's audit hook refuses the unpickling
    "read_array_eval": ("import io\n\nBLOB = " + repr(PICKLED_EVAL) + "\n\n" + HEAD +
                        "    np.lib.format.read_array(io.BytesIO(BLOB), True)\n"
                        "    t = np.asarray(true_answer, dtype=float)\n"
                        "    return t + rng.laplace(0.0, sensitivity / epsilon, size=t.shape)\n",
                        "it unpickles data"),
    "read_array_mechanism": ("import io\n\nBLOB = " + repr(PICKLED_MECHANISM) + "\n\n" + HEAD +
                             "    f = np.lib.format.read_array(io.BytesIO(BLOB), True)[0]\n"
                             "    return f(true_answer, sensitivity, epsilon, rng)\n", "it unpickles data"),
}


def names_its_reason(name: str, message: str) -> bool:
    """Whether ``message`` gives one of the reasons the cheat ``name`` may be refused for (CHEATS' second item)."""
    reasons = CHEATS[name][1] if isinstance(CHEATS[name][1], tuple) else (CHEATS[name][1],)
    return any(reason.lower() in message.lower() for reason in reasons)


def graded_in_sandbox(exercise, source):
    """``exercise`` graded on a one-cell notebook holding ``source``, through the sandbox (grading.grade_exercise)."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    options = grading.Options(function_timeout=15, memory_mb=1024)
    return grading.grade_exercise(as_asked(exercise), {}, parse_notebook(nbformat.from_dict(notebook)), options)


@pytest.fixture(scope="module")
def graded():
    from concurrent.futures import ThreadPoolExecutor
    needs_sandbox()
    sources = {"honest": HONEST, **{name: source for name, (source, _) in CHEATS.items()}}
    with ThreadPoolExecutor(2) as pool:
        done = {name: pool.submit(graded_in_sandbox, LAPLACE, source) for name, source in sources.items()}
        return {name: future.result() for name, future in done.items()}


def test_the_honest_mechanism_keeps_both_points(graded):
    result = graded["honest"]
    assert (result["points"], result["correct"]) == (2, True), result
    assert result["strict"].startswith("written by hand")


@pytest.mark.parametrize("name", sorted(CHEATS))
def test_a_function_that_is_not_the_laplace_mechanism_gets_no_point_with_its_reason(graded, name):
    result = graded[name]
    assert (result["points"], result["correct"]) == (0, False), result
    assert names_its_reason(name, result["message"]), result["message"]


def test_the_planted_tail_is_a_laplace_draw_far_beyond_a_million_samples():
    """The long run's generator draws, at a position chosen afresh, a noise between 30·b and 36·b (Lap(b)
    gives |Y| ≥ 30·b with probability e⁻³⁰ ≈ 10⁻¹³), every other draw PCG64's own."""
    import random

    from dpteach.exercises.mechanism.function import _generator, _planted
    fresh = random.SystemRandom()
    for position in (0, 1, fresh.randrange(2**20)):
        state = _planted(fresh, position)
        draws = _generator(state).laplace(0.0, 1.0, size=2**20)
        assert np.flatnonzero(np.abs(draws) >= 30).tolist() == [position]
        assert abs(draws[position]) <= 36.1


# -- chapter 05: a table of the fixed cases ---------------------------------------------------------------

TABLE = ("ANSWERS = {" + ", ".join(f"{args!r}: {dp.laplace_accuracy_bound(*args)!r}" for args in
                                  [(10_000, 0.05, 1, 1.0), (1_000, 0.01, 1, 0.5), (600, 0.05, 5, 1.0), (1, 0.05, 1, 2.0),
                                   (20, 1.0, 2, 0.25), (1, 1.0, 1, 1.0), (1_000_000, 0.001, 3, 0.1)]) + "}\n\n"
         "def my_accuracy_bound(k, beta, sensitivity, epsilon):\n"
         "    return ANSWERS.get((k, beta, sensitivity, epsilon), 1.0)\n")


def test_a_table_of_chapter_05s_fixed_cases_gets_no_point():
    needs_sandbox()
    exercise = MANIFEST["chapters"]["05_accuracy_census_names"]["exercises"][2]
    assert exercise["answer"] == "my_accuracy_bound"
    result = graded_in_sandbox(exercise, TABLE)
    assert (result["points"], result["correct"]) == (0, False), result
    assert "a case drawn for this grading" in result["message"], result["message"]
    right = graded_in_sandbox(exercise, "def my_accuracy_bound(k, beta, sensitivity, epsilon):\n"
                                        "    return np.log(k / beta) * sensitivity / epsilon\n")
    assert (right["points"], right["correct"]) == (2, True), right
    assert "all 10 hidden cases pass" in right["message"]
