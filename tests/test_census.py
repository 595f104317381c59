"""Example 3.3's data: the 1990 Census first-name lists scaled to the 2010 population.

The expected totals are what honest scaling gives: each name's count is
round(percent/100 × population of that sex), and the percentages of the listed names sum
to 90.052% (men) and 89.940% (women), so the totals fall short of the population.
"""

from __future__ import annotations

import csv
import hashlib
import os
import re
import subprocess
import sys
from decimal import Decimal
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

import dpteach as dp
from dpteach import census

DATA = resources.files("dpteach").joinpath("data")
#: the source the CSV was built from; fetched from PyPI (a registry, by name) when not given
SDIST_SHA256 = "726e46254f2ed03f1ffb5d941dae3bc67c35123941c29becd02d48d0caa2a671"


@pytest.fixture(scope="module")
def sdist(tmp_path_factory) -> Path:
    given = os.environ.get("DPTEACH_NAMES_SDIST")
    if given:
        return Path(given)
    folder = tmp_path_factory.mktemp("names")
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                    "names==0.3.0", "-d", str(folder)], check=True, capture_output=True, timeout=120,
                   env={k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"})   # pip is not ours to police
    path = folder / "names-0.3.0.tar.gz"
    assert hashlib.sha256(path.read_bytes()).hexdigest() == SDIST_SHA256, "not the sdist the CSV was built from"
    return path


@pytest.fixture(scope="module")
def data() -> dp.CensusFirstNames:
    return dp.census_first_names()


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    with DATA.joinpath("census_first_names.csv").open(encoding="ascii", newline="") as fh:
        return list(csv.DictReader(fh))


def test_universe_is_the_books_10000_potential_names(data):
    assert data.k == len(data) == 10_000
    assert data.n_listed == 5_163
    for a in (data.names, data.counts, data.male, data.female, data.male_percent, data.female_percent, data.listed):
        assert a.shape == (10_000,)
    assert data.counts.dtype == np.int64 and data.male.dtype == np.int64 and data.female.dtype == np.int64


def test_the_csv_holds_the_5163_listed_names_of_both_lists(rows):
    assert len(rows) == 5_163
    assert sum(float(r["male_percent"]) > 0 for r in rows) == 1_219      # dist.male.first
    assert sum(float(r["female_percent"]) > 0 for r in rows) == 4_275    # dist.female.first
    assert sum(float(r["male_percent"]) > 0 and float(r["female_percent"]) > 0 for r in rows) == 331


def test_totals_per_sex(data):
    """The totals the honest scaling gives (fixed numbers: the data file must not drift)."""
    assert int(data.male.sum()) == 136_682_120
    assert int(data.female.sum()) == 141_173_829
    assert data.total == 277_855_949 == int(data.male.sum() + data.female.sum())


def test_totals_agree_with_the_percent_sums_and_fall_short_of_the_population(data):
    """Each total is Σ percent/100 × population up to rounding (≤ 0.5 per name); the lists cover ~90%."""
    for counts, percent, population, n_names in ((data.male, data.male_percent, census.MEN_2010, 1_219),
                                                 (data.female, data.female_percent, census.WOMEN_2010, 4_275)):
        exact = percent.sum() / 100 * population
        assert abs(counts.sum() - exact) <= 0.5 * n_names
        assert 0.899 < counts.sum() / population < 0.901
    assert data.total < census.POPULATION_2010 == 308_745_538


def test_each_count_is_the_rounded_share_of_its_sexs_population(rows):
    """count = round(percent/100 × population), exactly, row by row; total = male + female."""
    for r in rows:
        for sex, population in (("male", census.MEN_2010), ("female", census.WOMEN_2010)):
            exact = Decimal(r[f"{sex}_percent"]) * population / 100
            assert abs(Decimal(r[sex]) - exact) <= Decimal("0.5"), r
        assert int(r["total"]) == int(r["male"]) + int(r["female"])


def test_no_duplicate_names_and_no_negative_counts(data):
    assert len(set(data.names.tolist())) == data.k
    assert (data.counts >= 0).all() and (data.male >= 0).all() and (data.female >= 0).all()
    assert (data.counts == data.male + data.female).all()


def test_sorted_by_count_descending_then_by_name(data):
    assert (np.diff(data.counts) <= 0).all()
    listed = data.names[: data.n_listed].tolist()
    for i in range(data.n_listed - 1):
        if data.counts[i] == data.counts[i + 1]:
            assert listed[i] < listed[i + 1]
    assert (str(data.names[0]), int(data.counts[0])) == ("JAMES", 5_051_800)
    assert str(data.names[np.argmax(data.female)]) == "MARY"


def test_listed_names_are_real_and_the_rest_are_labelled_placeholders_with_count_0(data):
    listed, unused = data.names[data.listed], data.names[~data.listed]
    assert data.listed[: data.n_listed].all() and not data.listed[data.n_listed:].any()
    assert all(re.fullmatch(r"[A-Z]+", n) for n in listed)
    assert unused.size == 4_837
    assert unused[0] == "(unused name 0001)" and unused[-1] == "(unused name 4837)"
    assert (data.counts[~data.listed] == 0).all()
    assert data.counts[data.listed].min() == 1_570       # a female name at 0.001%


def test_the_data_is_loaded_once_and_cannot_be_changed_by_accident(data):
    assert dp.census_first_names() is data
    with pytest.raises(ValueError, match="read-only"):
        data.counts[0] = 0
    assert "10,000 potential names" in repr(data)


def test_the_data_ships_inside_the_package_with_its_provenance():
    assert DATA.joinpath("census_first_names.csv").is_file()
    note = DATA.joinpath("PROVENANCE.md").read_text(encoding="utf-8")
    for fact in ("names==0.3.0", "726e46254f2ed03f1ffb5d941dae3bc67c35123941c29becd02d48d0caa2a671",
                 "151,781,326", "156,964,212", "90.052%", "89.940%", "(unused name 0001)", "public domain"):
        assert fact in note, fact


@pytest.mark.slow   # re-derives the census table from its sources: the slow tier
def test_the_rebuild_script_reproduces_the_csv_byte_for_byte(tmp_path, sdist):
    script = Path(census.__file__).parent / "data" / "rebuild_census_first_names.py"
    out = tmp_path / "rebuilt.csv"
    done = subprocess.run([sys.executable, str(script), str(sdist), "--output", str(out)],
                          capture_output=True, text=True, check=True)
    assert "5,163 names" in done.stdout
    assert out.read_bytes() == DATA.joinpath("census_first_names.csv").read_bytes()


def test_name_table_shows_true_and_released_counts(data):
    noisy = data.counts + 0.25
    table = dp.name_table(data, 3, noisy=noisy, published=np.rint(noisy))
    text = repr(table)
    assert text.splitlines()[0].split() == ["rank", "name", "true", "count", "noisy", "noisy", "error",
                                            "relative", "error", "published", "published", "error"]
    assert "JAMES" in text and "5,051,800" in text and "+0.25" in text
    assert "<table>" in table._repr_html_() and "JAMES" in table._repr_html_()
    picked = dp.name_table(data, [0, 9_999], noisy=noisy)
    assert "(unused name 4837)" in repr(picked) and "—" in repr(picked)   # no relative error for a count of 0


@pytest.mark.parametrize("kwargs, error, match", [
    ({"rows": 0}, ValueError, "rows must be an integer in"),
    ({"rows": 10_001}, ValueError, "rows must be an integer in"),
    ({"rows": [0, 10_000]}, ValueError, "rows must be cell indices"),
    ({"rows": [0.5]}, ValueError, "rows must be cell indices"),
    ({"rows": 3, "noisy": np.zeros(5)}, ValueError, "noisy must have one value per name"),
    ({"rows": 3, "noisy": np.full(10_000, np.nan)}, ValueError, "noisy must not contain NaN"),
])
def test_name_table_refuses_bad_input(data, kwargs, error, match):
    with pytest.raises(error, match=match):
        dp.name_table(data, **kwargs)


def test_name_table_needs_the_census_data():
    with pytest.raises(TypeError, match="census_first_names"):
        dp.name_table(np.zeros(10_000), 3)
