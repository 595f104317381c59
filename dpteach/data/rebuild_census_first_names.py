"""Rebuild census_first_names.csv from the US Census Bureau's 1990 first-name files.

The files ship inside the PyPI source distribution of ``names`` 0.3.0 (public-domain data,
see PROVENANCE.md)::

    pip download --no-deps --no-binary :all: names==0.3.0
    python rebuild_census_first_names.py names-0.3.0.tar.gz

Each line of ``names/dist.male.first`` and ``names/dist.female.first`` reads
``NAME  percent  cumulative-percent  rank``. A name's count is its percentage of the
2010 census population of that sex, rounded to the nearest integer::

    count = round(percent / 100 × population of that sex)

computed exactly with integers (the percentages have three decimals, so ties never occur).
The male and female lists are merged by name (a name on both lists gets both counts) and
sorted by total count, descending, then by name. Only the standard library is used.
"""

from __future__ import annotations

import argparse
import csv
import tarfile
from decimal import Decimal
from pathlib import Path

#: 2010 census resident population by sex (308,745,538 in all).
MEN_2010 = 151_781_326
WOMEN_2010 = 156_964_212

MEMBERS = {"male": "names-0.3.0/names/dist.male.first", "female": "names-0.3.0/names/dist.female.first"}
OUTPUT = Path(__file__).with_name("census_first_names.csv")


def read_list(archive: tarfile.TarFile, member: str) -> dict[str, int]:
    """{name: percent in thousandths of a percent} from one Census first-name file."""
    out: dict[str, int] = {}
    text = archive.extractfile(member).read().decode("ascii")
    for line in text.splitlines():
        name, percent, _cumulative, _rank = line.split()
        if name in out:
            raise ValueError(f"{member}: {name} appears twice")
        out[name] = int(Decimal(percent) * 1000)
    return out


def count(thousandths: int, population: int) -> int:
    """round(percent/100 × population), exactly: percent = thousandths/1000."""
    return (2 * thousandths * population + 100_000) // 200_000


def rebuild(sdist: Path, output: Path = OUTPUT) -> dict[str, int]:
    with tarfile.open(sdist) as archive:
        male = read_list(archive, MEMBERS["male"])
        female = read_list(archive, MEMBERS["female"])
    rows = []
    for name in set(male) | set(female):
        m, f = male.get(name, 0), female.get(name, 0)
        men, women = count(m, MEN_2010), count(f, WOMEN_2010)
        rows.append((name, m, f, men, women, men + women))
    rows.sort(key=lambda r: (-r[5], r[0]))
    with output.open("w", newline="", encoding="ascii") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["name", "male_percent", "female_percent", "male", "female", "total"])
        for name, m, f, men, women, total in rows:
            writer.writerow([name, f"{m / 1000:.3f}", f"{f / 1000:.3f}", men, women, total])
    return {"rows": len(rows), "male": sum(r[3] for r in rows), "female": sum(r[4] for r in rows),
            "male_percent_sum": sum(male.values()), "female_percent_sum": sum(female.values())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sdist", type=Path, help="path to names-0.3.0.tar.gz")
    parser.add_argument("--output", type=Path, default=OUTPUT, help=f"CSV to write (default {OUTPUT.name})")
    args = parser.parse_args()
    totals = rebuild(args.sdist, args.output)
    print(f"wrote {args.output}: {totals['rows']:,} names; {totals['male']:,} men "
          f"({totals['male_percent_sum'] / 1000:.3f}% of {MEN_2010:,}), {totals['female']:,} women "
          f"({totals['female_percent_sum'] / 1000:.3f}% of {WOMEN_2010:,})")


if __name__ == "__main__":
    main()
