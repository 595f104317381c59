"""The package's face: ``import dpteach as dp`` shows the chapters' vocabulary, :mod:`dpteach.prelude` holds
the whole maths API, and every ``dp.X`` a chapter or a test writes still works.

Like diffprivlib (whose top level names its subpackages and one accountant) and OpenDP (whose
``opendp.prelude`` gathers its modules), the top level is small: its ``__all__`` and ``dir()`` are the
names the chapters call, and the three lazy layers. The rest of the maths layer (result records, helpers
the tests and a few sections use) is reachable in its home module and in the prelude, and as ``dp.X`` on
first use (PEP 562), without being on the face.
"""

import re
import subprocess
import sys

import pytest
from helpers import ROOT

import dpteach as dp

LAZY = {"plots", "widgets", "exercises"}


def _used(paths) -> set[str]:
    """Every name written as ``dp.X`` or imported ``from dpteach import X`` in these files."""
    names = set()
    for path in paths:
        text = path.read_text(encoding="utf-8")
        names |= set(re.findall(r"\bdp\.([A-Za-z_]\w*)", text))
        for group in re.findall(r"^\s*from dpteach import ([^\n(]+|\([^)]*\))", text, re.M):
            names |= set(re.findall(r"\w+", group)) - {"as"}
    return names


CHAPTERS = _used(sorted((ROOT / "sources").glob("*.md")))
MATHS = set(dp.prelude.__all__)


def test_every_maths_name_the_chapters_use_is_on_the_face():
    assert CHAPTERS & MATHS, "no chapter name found: the pattern is wrong"
    off_face = sorted((CHAPTERS & MATHS) - set(dp.__all__))
    assert not off_face, f"names the chapters call that dp.__all__ leaves out: {off_face}"


def test_the_face_is_the_chapters_vocabulary_and_smaller_than_the_api():
    face = set(dp.__all__) - LAZY
    assert face <= MATHS and LAZY <= set(dp.__all__)
    assert face <= CHAPTERS, f"on the face but in no chapter: {sorted(face - CHAPTERS)}"
    assert len(face) < len(MATHS)
    assert set(dir(dp)) == set(dp.__all__) | {"prelude", "__version__"}


@pytest.mark.parametrize("name", sorted(MATHS))
def test_every_maths_name_is_reachable_as_dp_x_and_in_its_module(name):
    obj = getattr(dp, name)
    assert obj is getattr(dp.prelude, name)
    home = getattr(obj, "__module__", None)
    if home:                                   # a function or class: also where it is defined and documented
        assert getattr(sys.modules[home], name, obj) is obj


def test_every_dp_name_the_tests_and_benchmarks_use_resolves():
    used = _used([*sorted((ROOT / "tests").rglob("*.py")), *sorted((ROOT / "benchmarks").glob("*.py"))])
    missing = sorted(n for n in used & (MATHS | LAZY | {"prelude"}) if not hasattr(dp, n))
    assert not missing
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        dp.no_such_name  # noqa: B018


def test_from_dpteach_import_reaches_off_face_names_and_stays_numpy_only():
    code = ("import sys; from dpteach import MonteCarloCoverage, laplace_mechanism; import dpteach.prelude; "
            "sys.exit(any(m in sys.modules for m in ('matplotlib', 'ipywidgets', 'scipy')))")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0
