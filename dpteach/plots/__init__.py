"""Figures for the workbook: one style, pure builders (data in, figure out), updated in place.

Each topic's figures live in ``dpteach/plots/T.py`` (laplace, sensitivity, counting, accuracy,
composition, selection, gaussian, noise, applications, attack); the style, the PNG frames and the
base class every figure shares are in ``_base``. This module only re-exports their public names.
"""

from ._base import PALETTE, UpdatableFigure, new_figure, png_bytes, presentation, style, styled, use_style
from ._png import png_text_px
from .accuracy import AccuracyBoundFigure, MarketingNoiseFigure, NameReliabilityFigure
from .applications import CappedReportFigure, HospitalCountFigure
from .attack import AttackSuccessFigure
from .composition import AdvancedCompositionFigure, AveragingFigure, BudgetFigure, PostProcessingFigure
from .counting import CountErrorBySizeFigure, CountingVsHistogramFigure
from .dpsgd import DPSGDFigure
from .exact_composition import ExactCompositionFigure
from .gaussian import GaussianCalibrationFigure, PrivacyCurveFigure, SensitivityNormsFigure
from .generalized_gaussian import ErrorTradeoffFigure, GeneralizedGaussianDensityFigure, SparseVectorFigure
from .hypothesis import GaussianCompositionFigure, TradeoffFigure
from .laplace import LaplaceDensityFigure, PrivacyLossFigure, TailFigure
from .local import LocalCentralFigure, LocationDensityFigure
from .noise import AuditFigure, DiscreteGaussianFigure, DiscreteLaplaceFigure, FloatGapsFigure
from .planner import BudgetPlannerFigure
from .reconstruction import ReconstructionFigure
from .selection import AboveThresholdFigure, ExponentialMechanismFigure, NoisyMaxFigure
from .sensitivity import ChangeBySizeFigure, NeighbourChangesFigure
from .sparse_variants import VariantAuditFigure

__all__ = [
    "PALETTE",
    "UpdatableFigure",
    "new_figure",
    "png_bytes",
    "png_text_px",
    "presentation",
    "style",
    "styled",
    "use_style",
    "AccuracyBoundFigure",
    "NameReliabilityFigure",
    "MarketingNoiseFigure",
    "CappedReportFigure",
    "DPSGDFigure",
    "HospitalCountFigure",
    "LocalCentralFigure",
    "LocationDensityFigure",
    "AttackSuccessFigure",
    "AdvancedCompositionFigure",
    "AveragingFigure",
    "BudgetFigure",
    "PostProcessingFigure",
    "CountErrorBySizeFigure",
    "CountingVsHistogramFigure",
    "ErrorTradeoffFigure",
    "GaussianCalibrationFigure",
    "GeneralizedGaussianDensityFigure",
    "PrivacyCurveFigure",
    "SensitivityNormsFigure",
    "SparseVectorFigure",
    "LaplaceDensityFigure",
    "TailFigure",
    "PrivacyLossFigure",
    "AuditFigure",
    "DiscreteGaussianFigure",
    "DiscreteLaplaceFigure",
    "FloatGapsFigure",
    "AboveThresholdFigure",
    "ExponentialMechanismFigure",
    "NoisyMaxFigure",
    "NeighbourChangesFigure",
    "ChangeBySizeFigure",
    "ExactCompositionFigure",
    "TradeoffFigure",
    "GaussianCompositionFigure",
    "ReconstructionFigure",
    "VariantAuditFigure",
    "BudgetPlannerFigure",
]
