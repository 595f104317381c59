"""zCDP, the discrete Gaussian's guarantees and the calibrations of the Gaussian mechanisms, against OpenDP and
IBM's diffprivlib.

Safe sides: a zCDP conversion never below the exact ε of Gaussian noise with the same ρ (no conversion of ρ
alone can go below it); the discrete Laplace's ε, as OpenDP computes it for the scale dpteach uses, never
above the ε asked for; a calibrated σ whose δ is at most the δ asked for.
"""

from __future__ import annotations

import math
from fractions import Fraction

import opendp.prelude as odp
import pytest
from diffprivlib.mechanisms import GaussianAnalytic, GaussianDiscrete
from dp_accounting import gaussian_mechanism as dpa_gauss
from peers_common import close, compares

import dpteach as dp

pytestmark = pytest.mark.slow

odp.enable_features("contrib")

INTEGERS = (odp.atom_domain(T=int), odp.absolute_distance(T=int))


@compares(quantity="(ε, δ) from ρ-zCDP (zcdp_to_dp: Canonne, Kamath & Steinke's conversion)", peer="opendp",
          grid="ρ of OpenDP's discrete Gaussian at σ ∈ {0.4419, 1, 3, 10, 100} (ρ from 5e-5 to 2.56) × δ ∈ {10⁻¹⁰, 10⁻⁶, 10⁻³}",
          tolerance="1e-9 relative; never below the exact ε of Gaussian noise with that ρ")
def test_zcdp_to_dp():
    for sigma in (1 / math.sqrt(5.12), 1.0, 3.0, 10.0, 100.0):
        meas = odp.m.make_gaussian(*INTEGERS, scale=sigma)
        rho = meas.map(1)
        profile = odp.c.make_zCDP_to_approxDP(meas).map(1)
        for delta in (1e-10, 1e-6, 1e-3):
            ours = dp.zcdp_to_dp(rho, delta)
            close(ours, profile.epsilon(delta), rel=1e-9, what=f"ρ={rho} δ={delta}")
            # continuous Gaussians with total ρ are exactly √(2ρ)-GDP: dp-accounting's analytic ε at σ = 1/√(2ρ)
            assert ours >= dpa_gauss.get_epsilon_gaussian(1 / math.sqrt(2 * rho), delta) * (1 - 1e-9)


@compares(quantity="ρ of the discrete Gaussian mechanism (discrete_gaussian_rho)", peer="opendp",
          grid="σ ∈ {0.25, 0.4419, 1, 3, 10} × Δ ∈ {1, 2, 5}",
          tolerance="1e-12 relative")
def test_discrete_gaussian_rho():
    for sigma in (0.25, 1 / math.sqrt(5.12), 1.0, 3.0, 10.0):
        meas = odp.m.make_gaussian(*INTEGERS, scale=sigma)
        for sens in (1, 2, 5):
            close(dp.discrete_gaussian_rho(sigma, sens), meas.map(sens), rel=1e-12, what=f"σ={sigma} Δ={sens}")


@compares(quantity="ε of the discrete Laplace mechanism at the scale dpteach draws with (discrete_laplace_scale)",
          peer="opendp",
          grid="ε ∈ {0.1, 0.3, 0.5, 1, 2, 1/3, 0.1234567891} × Δ ∈ {1, 2, 7}",
          tolerance="1e-12 relative to ε′ = Δ/t; ε′ never above the ε asked for, in exact fractions")
def test_discrete_laplace_epsilon():
    """Part of the issue: a float ε is rounded down to a fraction, so the noise is never less than ε asks for.
    OpenDP takes the scale as a float: 70/3 becomes 23.333333333333332, a hair below, and its ε 0.30000000000000004;
    dpteach draws with the fraction itself, so the safe side is checked in fractions."""
    for eps in (0.1, 0.3, 0.5, 1.0, 2.0, 1 / 3, 0.1234567891):
        for sens in (1, 2, 7):
            scale = dp.discrete_laplace_scale(sens, eps)
            theirs = odp.m.make_laplace(*INTEGERS, scale=float(scale)).map(sens)
            close(float(sens / scale), theirs, rel=1e-12, what=f"ε={eps} Δ={sens}")
            assert sens / scale <= Fraction(repr(eps))


@compares(quantity="ε(δ) of one discrete Gaussian release (discrete_gaussian_epsilon) at diffprivlib's calibrated σ",
          peer="diffprivlib",
          grid="ε ∈ {0.1, 0.5, 1, 2, 4} × δ ∈ {10⁻³, 10⁻⁶, 10⁻¹⁰}, Δ = 1",
          tolerance="1e-6 relative (diffprivlib's σ is found to 1e-6)")
def test_discrete_gaussian_calibration():
    for eps in (0.1, 0.5, 1.0, 2.0, 4.0):
        for delta in (1e-3, 1e-6, 1e-10):
            sigma = GaussianDiscrete(epsilon=eps, delta=delta, sensitivity=1)._scale
            close(dp.discrete_gaussian_epsilon(sigma, delta), eps, rel=1e-6, what=f"ε={eps} δ={delta}")


@compares(quantity="analytic Gaussian σ for (ε, δ), Δ₂ = 1 (gaussian_sigma)", peer="diffprivlib",
          grid="ε ∈ {0.1, 0.5, 1, 2, 4} × δ ∈ {10⁻³, 10⁻⁶, 10⁻¹⁰}",
          tolerance="1e-7 relative; dpteach's δ(σ) ≤ δ")
def test_analytic_gaussian_sigma_diffprivlib():
    """diffprivlib's own σ is up to 6e-9 below the smallest private σ at δ = 10⁻¹⁰ (its δ then 6e-7 above δ)."""
    for eps in (0.1, 0.5, 1.0, 2.0, 4.0):
        for delta in (1e-3, 1e-6, 1e-10):
            ours = dp.gaussian_sigma(1.0, eps, delta)
            theirs = GaussianAnalytic(epsilon=eps, delta=delta, sensitivity=1.0)._scale
            close(ours, theirs, rel=1e-7, what=f"ε={eps} δ={delta}")
            assert dp.gaussian_delta(ours, 1.0, eps) <= delta
