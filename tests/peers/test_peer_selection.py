"""Selection probabilities against IBM's diffprivlib, and the peers' versions against the peer table (docs/peers.md)."""

from __future__ import annotations

import importlib.metadata
import re

import numpy as np
import pytest
from diffprivlib.mechanisms import Exponential
from helpers import ROOT
from peers_common import PEERS, close, compares

import dpteach as dp

pytestmark = pytest.mark.slow


@compares(quantity="exponential mechanism's selection probabilities (exponential_mechanism_probabilities)",
          peer="diffprivlib",
          grid="utilities {(1, 2, 5), (0, 0, 0, 10), 20 random in [0, 50)} × ε ∈ {0.1, 1, 4} × Δu ∈ {1, 3}",
          tolerance="1e-12 relative + 1e-15")
def test_exponential_mechanism_probabilities():
    rng = np.random.default_rng(7)
    for utilities in ([1.0, 2.0, 5.0], [0.0, 0.0, 0.0, 10.0], list(rng.uniform(0, 50, size=20))):
        for eps in (0.1, 1.0, 4.0):
            for sens in (1.0, 3.0):
                mechanism = Exponential(epsilon=eps, sensitivity=sens, utility=utilities)
                theirs = np.diff(np.r_[0.0, mechanism._probabilities])        # diffprivlib keeps them cumulative
                ours = dp.exponential_mechanism_probabilities(utilities, sensitivity=sens, epsilon=eps)
                for a, b in zip(ours, theirs):
                    close(float(a), float(b), rel=1e-12, atol=1e-15, what=f"u={utilities[:3]} ε={eps} Δ={sens}")


def test_the_peers_installed_are_the_versions_the_peer_table_names():
    """The peer table names each peer with the version the suite ran against: the one installed here."""
    section = (ROOT / "docs" / "peers.md").read_text(encoding="utf-8")
    for peer in PEERS:
        named = set(re.findall(rf"\| {re.escape(peer)} (\S+) \|", section))
        assert named == {importlib.metadata.version(peer)}, (peer, named)
