"""Chapter 03's replay: the generator a student's mechanism is handed, made again in the grader, and every
release compared with ``true_answer + rng.laplace(0, b, size)`` from it; and the long run's generator, with
a noise planted beyond the reach of any sample (a PCG64 state solved for, O'Neill 2014)."""

from __future__ import annotations

import random

import numpy as np

#: How far (in units of the last place of float64, ulps of |f(x)| + |noise|) a release may be from the replay
#: f(x) + rng.laplace(0, b, size) and still be the same release: another order of the same operations
#: (Δf·(1/ε) for Δf/ε, say) moves it by a few ulps; a channel in the low 16 bits by thousands.
REPLAY_ULPS = 16
#: numpy's generator classes as imported before any student code runs (with the checker): a cell that
#: replaces ``np.random.default_rng`` or ``np.random.Generator`` afterwards does not change what the runner
#: hands the function, and the replay in the grader's own process never depends on the sandbox.
_GENERATOR, _PCG64 = np.random.Generator, np.random.PCG64
#: PCG64's 128-bit LCG multiplier (O'Neill 2014, as numpy's PCG64 uses it): a draw's state is the one before
#: it times this, plus the stream's increment, modulo 2¹²⁸; its output is XSL-RR of that state.
_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645


def _generator(seed) -> np.random.Generator:
    """``default_rng(seed)`` for an integer seed; for a planted state (:func:`_planted`), a PCG64 generator
    made from its entropy and put in that state. Built from the classes taken before any student code."""
    if not isinstance(seed, dict):
        return _GENERATOR(_PCG64(seed))
    bits = _PCG64(seed["entropy"])
    bits.state = {"bit_generator": "PCG64", "state": {"state": seed["state"], "inc": seed["inc"]},
                  "has_uint32": 0, "uinteger": 0}
    return _GENERATOR(bits)


def _planted(fresh: random.Random, position: int) -> dict:
    """A PCG64 state (as :func:`_generator` takes it) whose draw number ``position`` (from 0) of
    ``rng.laplace(0, b)`` is ±b·ln(2⁵²/k) for a k from 1 to 255, between 30.4·b and 36·b: a noise that
    Lap(b) gives with probability about 10⁻¹³, planted where no sample of a million would reach.

    PCG64 outputs XSL-RR of its state after each step, a bijection for a fixed rotation: the state that
    outputs a chosen 64-bit word is solved for, stepped back one draw (the LCG inverted) and then
    ``position`` draws (``advance`` by 2¹²⁸ − position). Every other draw is PCG64's own. A function whose
    noise is clamped or redrawn anywhere within ±30·b changes that release, and the replay sees it.
    """
    entropy = fresh.getrandbits(128)
    inc = _PCG64(entropy).state["state"]["inc"]
    k = fresh.randrange(1, 256)
    uniform = k if fresh.random() < 0.5 else 2**53 - k           # next_double is (word >> 11)·2⁻⁵³
    word = (uniform << 11) | fresh.getrandbits(11)
    high = fresh.getrandbits(64)
    turn = high >> 58
    low = high ^ (((word << turn) | (word >> (64 - turn))) & (2**64 - 1))
    before = (((high << 64) | low) - inc) * pow(_MULTIPLIER, -1, 2**128) % 2**128
    bits = _PCG64(entropy)
    bits.state = {"bit_generator": "PCG64", "state": {"state": before, "inc": inc}, "has_uint32": 0, "uinteger": 0}
    if position:
        bits.advance(2**128 - position)
    return {"entropy": entropy, "state": bits.state["state"]["state"], "inc": inc}


def _replay_problem(values: np.ndarray, expected) -> str | None:
    """None if every release is the one the generator it was given makes: f(x) + rng.laplace(0, b, size) with
    ``rng = default_rng(seed)``, call after call (replayed here, from numpy's own classes), to within
    :data:`REPLAY_ULPS` ulps, or that release rounded to float32. Else which release differs, and how.

    Exact, so it has no false failures for a function that draws its noise as the exercise asks (one
    ``rng.laplace`` call per release, the scale Δf/ε), and it catches what no statistic of a sample can:
    an exact first release per generator, noise redrawn or clamped in a far tail, a keyed channel in the
    low bits, noise from another generator made to look like ``rng``. Without a seed (a sample judged on
    its own) there is nothing to replay.
    """
    if "seed" not in expected:
        return None
    true, b = np.asarray(expected["true"], dtype=float), expected["scale"]
    calls = int(expected.get("calls", len(values)))
    if len(values) != calls:
        return f"it was called {calls} times but {len(values)} releases came back."
    want = true + _generator(expected["seed"]).laplace(0.0, b, size=(calls,) + true.shape)
    tolerance = REPLAY_ULPS * np.finfo(float).eps * (np.abs(true) + np.abs(want - true) + np.finfo(float).tiny)
    same = (np.abs(values - want) <= tolerance) | (values == want.astype(np.float32).astype(float))
    if same.all():
        return None
    wrong = np.flatnonzero(~same.reshape(calls, -1).all(axis=1))
    return (f"release {wrong[0] + 1} of {calls} is not the one the generator gives ({len(wrong):,} of the {calls:,} "
            "differ): the grader replays rng and expects true_answer + rng.laplace(0, b, size=np.shape(true_answer)) "
            "with b = Δf/ε, one such call per release, in order. A release that differs has noise drawn otherwise "
            "(another generator, a tail redrawn or clamped, no noise on some call, extra bits): draw the noise "
            "with that one call and return true_answer + noise.")
