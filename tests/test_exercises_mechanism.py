"""Chapter 03's checkers: the right answers pass, each known mistake gets its own message, the
proof question has feedback on every option, and the function exercise names the failing case."""

import math

import numpy as np
import pytest
from helpers import assert_checker_contract

import dpteach as dp
from dpteach import exercises as ex


def test_scale_for_overlapping_counts_contract():
    assert_checker_contract(ex.check_scale_for_overlapping_counts, 6, 2)


@pytest.mark.parametrize("wrong, words", [
    (2.0, "Δf = 1"),            # the sensitivity of one count
    (3.0, "scale at ε = 1 only"),
    (1.5, "multiplied Δf by ε"),
    (0.5 / 3, "upside down"),
    (2 * math.sqrt(3), "ℓ2"),
    (0.5, "Δf = 1 and multiplied"),
])
def test_scale_for_overlapping_counts_names_each_mistake(wrong, words):
    verdict = ex.check_scale_for_overlapping_counts(wrong)
    assert verdict.correct is False and words in verdict.message
    assert "6" not in verdict.message.replace(f"{wrong:g}", "")     # never the expected value


def test_understated_loss_contract():
    assert_checker_contract(ex.check_understated_loss, 2, 1.5)


@pytest.mark.parametrize("wrong, words", [
    (1.0, "promised ε"),
    (math.exp(2), "logarithm"),
    (0.5, "noise scale b"),             # (= the calibrated Δf times ε too, at these numbers: named once)
    (math.e, "e^ε"),
])
def test_understated_loss_names_each_mistake(wrong, words):
    verdict = ex.check_understated_loss(wrong)
    assert verdict.correct is False and words in verdict.message and "Or:" not in verdict.message
    assert "divided by b" not in verdict.message and "|/b" not in verdict.message     # no recipe for the answer


def test_gaussian_proof_step_has_one_right_answer_and_feedback_on_every_option():
    verdicts = {letter: ex.check_gaussian_proof_step(letter) for letter in "abcde"}
    assert [v.correct for v in verdicts.values()] == [False, True, False, False, False]
    assert len({v.message for v in verdicts.values()}) == 5
    assert "triangle" in verdicts["b"].message and "linearly" in verdicts["b"].message
    assert ex.check_gaussian_proof_step(" (B) ").correct is True
    assert ex.check_gaussian_proof_step(...).correct is None
    assert ex.check_gaussian_proof_step("z").correct is False


def test_a_shuffled_proof_question_judges_the_letter_the_student_sees():
    """A homework shows the options in another order: the right letter is the one that shows Step 2, every
    order (all 119 but the chapter's) has exactly one, and the right letter moves among the five."""
    spec = ex.EXERCISES["check_gaussian_proof_step"]
    assert len(spec.homework["order"]) == 119 and "abcde" not in spec.homework["order"]
    right_letters = set()
    for order in spec.homework["order"]:
        prompt = spec.render(order=order)
        right = [letter for letter in "abcde" if ex.check_gaussian_proof_step(letter, order=order).correct]
        assert len(right) == 1
        assert f"- ({right[0]}) Step 2: no inequality bounds" in prompt
        right_letters.add(right[0])
    assert right_letters == set("abcde")
    with pytest.raises(ValueError, match="order must be a permutation"):
        ex.check_gaussian_proof_step("a", order="abcdd")


# -- the function exercise -------------------------------------------------------------------------

def reference(true_answer, sensitivity, epsilon, rng):
    true_answer = np.asarray(true_answer, dtype=float)
    out = true_answer + rng.laplace(0.0, sensitivity / epsilon, size=true_answer.shape)
    return out if out.ndim else float(out)


def with_scale(scale):
    def mechanism(true_answer, sensitivity, epsilon, rng):
        t = np.asarray(true_answer, dtype=float)
        return t + rng.laplace(0.0, scale(sensitivity, epsilon), size=t.shape)
    return mechanism


def split_over_coordinates(true_answer, sensitivity, epsilon, rng):
    t = np.asarray(true_answer, dtype=float)
    return t + rng.laplace(0.0, sensitivity / (max(t.size, 1) * epsilon), size=t.shape)


def same_noise(true_answer, sensitivity, epsilon, rng):
    return np.asarray(true_answer, dtype=float) + rng.laplace(0.0, sensitivity / epsilon)


def noise_only(true_answer, sensitivity, epsilon, rng):
    return rng.laplace(0.0, sensitivity / epsilon, size=np.shape(true_answer))


def biased(true_answer, sensitivity, epsilon, rng):
    t = np.asarray(true_answer, dtype=float)
    return t + np.abs(rng.laplace(0.0, sensitivity / epsilon, size=t.shape))


def gaussian(true_answer, sensitivity, epsilon, rng):
    t = np.asarray(true_answer, dtype=float)
    return t + rng.normal(0.0, sensitivity / epsilon, size=t.shape)


def unseeded(true_answer, sensitivity, epsilon, rng):
    t = np.asarray(true_answer, dtype=float)
    return t + np.random.default_rng().laplace(0.0, sensitivity / epsilon, size=t.shape)


def no_noise(true_answer, sensitivity, epsilon, rng):
    return true_answer


def first_only(true_answer, sensitivity, epsilon, rng):
    return float(np.ravel(true_answer)[0]) + rng.laplace(0.0, sensitivity / epsilon)


def calls_dpteach(true_answer, sensitivity, epsilon, rng):
    return dp.laplace_mechanism(true_answer, sensitivity, epsilon, rng)


def calls_the_scale(true_answer, sensitivity, epsilon, rng):
    t = np.asarray(true_answer, dtype=float)
    return t + rng.laplace(0.0, dp.laplace_scale(sensitivity, epsilon), size=t.shape)


def clamped(true_answer, sensitivity, epsilon, rng):
    b = sensitivity / epsilon
    t = np.asarray(true_answer, dtype=float)
    return t + np.clip(rng.laplace(0.0, b, size=t.shape), -7 * b, 7 * b)


def low_bits(true_answer, sensitivity, epsilon, rng):
    """Laplace noise, with the true answer written into the last 16 bits of each release."""
    t = np.asarray(true_answer, dtype=float)
    released = np.asarray(t + rng.laplace(0.0, sensitivity / epsilon, size=t.shape), dtype=np.float64)
    mask = np.uint64(0xFFFF)
    return ((released.view(np.uint64) & ~mask) | (np.round(t).astype(np.int64).astype(np.uint64) & mask)).view(np.float64)


def in_single_precision(true_answer, sensitivity, epsilon, rng):
    t = np.asarray(true_answer, dtype=float)
    return (t + rng.laplace(0.0, sensitivity / epsilon, size=t.shape)).astype(np.float32).astype(np.float64)


def crashes(true_answer, sensitivity, epsilon, rng):
    raise ZeroDivisionError("oops")


def test_reference_solution_passes():
    """Deterministic (fixed seeds in the checker); see check_my_laplace_mechanism for its
    false-positive rate over seeds (under 3e-8)."""
    verdict = ex.check_my_laplace_mechanism(reference)
    assert verdict.correct is True and "6 hidden cases" in verdict.message


def test_releases_rounded_to_single_precision_are_not_taken_for_a_channel():
    assert ex.check_my_laplace_mechanism(in_single_precision).correct is True


def test_graded_cases_are_drawn_afresh_and_a_right_function_passes_them():
    """A grader's cases (fresh answers, 128-bit seeds, the long run of 2²⁰ noises): 20 draws of the six
    and 5 long runs with correct noise all pass (each fails with probability under 10⁻⁶, so all 25
    pass except with probability under 3·10⁻⁵), and two draws share neither answers nor seeds."""
    import random

    from dpteach.exercises.mechanism.function import LONG_CALLS, LONG_COUNTS, _diagnose, _mechanism_cases, run_mechanism
    fresh = random.SystemRandom()
    first, second = _mechanism_cases(fresh), _mechanism_cases(fresh)
    assert len(first) == 7 and first[-1].kwargs == {"calls": LONG_CALLS} and first[-1].args[0].shape == (LONG_COUNTS,)
    assert all(a.args[3] != b.args[3] for a, b in zip(first, second))
    assert sum(not np.array_equal(a.args[0], b.args[0]) for a, b in zip(first, second)) >= 5
    for draw in range(20):
        for case in _mechanism_cases(fresh)[: None if draw < 5 else 6]:
            got = run_mechanism(reference, *case.args, **(case.kwargs or {}))
            assert _diagnose(got, case.expected) is None, case.label


def test_a_list_returning_solution_passes_too():
    def as_list(true_answer, sensitivity, epsilon, rng):
        out = reference(true_answer, sensitivity, epsilon, rng)
        return out if isinstance(out, float) else list(out)
    assert ex.check_my_laplace_mechanism(as_list).correct is True


@pytest.mark.parametrize("function, case, words", [
    (with_scale(lambda s, e: e / s), "case 2 of 6", "ε/Δf"),
    (with_scale(lambda s, e: s), "case 2 of 6", "forgot to divide by ε"),
    (with_scale(lambda s, e: s * e), "case 2 of 6", "Δf·ε"),
    (with_scale(lambda s, e: 1 / e), "case 3 of 6", "left out the sensitivity"),
    (with_scale(lambda s, e: math.sqrt(2) * s / e), "case 1 of 6", "standard deviation"),
    (with_scale(lambda s, e: s / e / math.sqrt(2)), "case 1 of 6", "standard deviation"),
    (with_scale(lambda s, e: 1.7 * s / e), "case 1 of 6", "wrong size"),
    (split_over_coordinates, "case 4 of 6", "Δf/(k·ε)"),
    (gaussian, "case 1 of 6", "Gaussian"),
    (same_noise, "case 4 of 6", "same noise"),
    (noise_only, "case 1 of 6", "noise alone"),
    (biased, "case 1 of 6", "not centred"),
    (unseeded, "case 1 of 6", "rng argument"),
    (no_noise, "case 1 of 6", "no noise"),
    (first_only, "case 4 of 6", "shape"),
    (crashes, "case 1 of 6", "ZeroDivisionError"),
    (clamped, "case 1 of 6", "lamped noise"),
    (low_bits, "case 1 of 6", "last bits"),
])
def test_typical_wrong_functions_fail_naming_the_case_and_the_mistake(function, case, words):
    verdict = ex.check_my_laplace_mechanism(function)
    assert verdict.correct is False
    assert case in verdict.message and words in verdict.message, verdict.message


@pytest.mark.parametrize("function, name", [(calls_dpteach, "laplace_mechanism"), (calls_the_scale, "laplace_scale")])
def test_calling_the_dpteach_function_is_refused(function, name):
    verdict = ex.check_my_laplace_mechanism(function)
    assert verdict.correct is False and f"dp.{name}" in verdict.message
    assert dp.laplace_mechanism(1.0, 1.0, 1.0, np.random.default_rng(0)) is not None   # restored afterwards


def test_not_answered_and_not_a_function():
    def stub(true_answer, sensitivity, epsilon, rng):
        ...
    assert ex.check_my_laplace_mechanism(stub).correct is None
    assert ex.check_my_laplace_mechanism(...).correct is None
    assert ex.check_my_laplace_mechanism(None).correct is None
    assert ex.check_my_laplace_mechanism(42).correct is False


def test_the_tests_have_the_stated_false_rejection_rate():
    """Every test of the checker (centre, scale, bound, tails, CDF gap, independence), run on 300 fresh
    seeds with correct noise, for a scalar and a 5-coordinate case: none fails (the whole check fails a
    right answer with probability under 1e-6, so all 600 pass except with probability under 1e-3)."""
    from dpteach.exercises.mechanism.function import ALPHA, BAND, DRAWS, _diagnose
    rng = np.random.default_rng(99)
    for true, scale in ((np.array(42.0), 2.0), (np.array([9.0, 6.0, 3.0, 0.5, 1.0]), 0.25)):
        expected = {"true": true, "scale": scale, "sensitivity": scale, "epsilon": 1.0}
        for _ in range(300):
            values = true + rng.laplace(0.0, scale, size=(DRAWS,) + true.shape)
            assert _diagnose({"values": values, "reproducible": True}, expected) is None
    assert BAND == 6.0 and ALPHA == 1e-8
