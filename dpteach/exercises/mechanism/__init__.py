"""Checkers for chapter 03: the Laplace mechanism (Definition 3.3) and its proof (Theorem 3.6).

:mod:`.questions`: the numbers and the proof question; :mod:`.function`: the mechanism the student writes.
"""

from .function import check_my_laplace_mechanism, run_mechanism
from .questions import check_gaussian_proof_step, check_scale_for_overlapping_counts, check_understated_loss

__all__ = ["check_scale_for_overlapping_counts", "check_understated_loss", "check_gaussian_proof_step",
           "check_my_laplace_mechanism", "run_mechanism"]
