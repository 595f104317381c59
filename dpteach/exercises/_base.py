"""The machinery every exercise checker shares: a verdict, numeric answers that recognise the
common mistakes, multiple-choice questions, and functions the student writes.

A checker takes the student's answer and returns a :class:`Feedback`, which shows as a
coloured box in a notebook and as one line of text elsewhere. The expected answer is
computed with dpteach itself (by enumeration or by formula), never typed in.

A wrong answer is compared with the answers that the usual mistakes produce (log10 for ln,
forgetting to divide by ε, the variance b² for 2b², …), so the feedback can name the mistake
instead of only saying "incorrect". A wrong message never prints the expected value.

Every numeric answer is judged by one precision rule, stated in its prompt: right to n
significant figures (:func:`tolerance`), or exact for whole numbers. Every exercise is
registered in :data:`EXERCISES` (its prompt, its precision, and the parameter values a homework
may use instead of the chapter's), and a function the student writes can be run here or, through
``run_cases``, in a sandboxed grading process (:func:`check_function`).

The pieces live in three private modules, re-exported here for the topic modules: :mod:`._feedback`
(verdicts, precision, known mistakes, multiple choice), :mod:`._functions` (functions the student writes)
and :mod:`._registry` (the exercises' registry).
"""

from ._feedback import (
    PLACEHOLDER,
    Feedback,
    Mistake,
    as_number,
    check_choice,
    choice_list,
    compare,
    live_mistakes,
    matching_mistake,
    named_anyway,
    orders,
    recording,
    tolerance,
)
from ._functions import DRAWN, FRESH_CASES, Case, check_function, grading_draws, run_in_process, strict_check, to_plain
from ._registry import _PROMPTS, EXERCISES, KINDS, ExerciseSpec, _equal, exercise

__all__ = ["PLACEHOLDER", "Feedback", "Mistake", "as_number", "check_choice", "choice_list", "compare", "live_mistakes",
           "matching_mistake", "named_anyway", "orders", "recording", "tolerance", "DRAWN", "FRESH_CASES", "Case",
           "check_function", "grading_draws", "run_in_process",
           "strict_check", "to_plain", "_PROMPTS", "EXERCISES", "KINDS", "ExerciseSpec", "_equal", "exercise"]
