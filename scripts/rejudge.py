"""Apply the current comparison method to the committed full-mode comparisons, no simulation.

    .venv/bin/python scripts/rejudge.py [--study NAME ...]

For each seed study with a committed ``data/results/<study>/comparison.csv``:
:func:`transportlab.engine.verdicts.rejudge` (its means, intervals and run counts judged
again against the current ``data/published``), written back with its tolerance and
``qualitative.csv``, and its committed NS-2 baseline (``ns2_baseline.csv``,
:func:`transportlab.ns2.baseline.rejudge_baseline`, and its counts) if it has one; then
the summary of all studies (``transportlab.summary``: claims, derived rows and qualitative
claims counted apart, the tolerance's calibration and sensitivity), each study's best
single configuration (``best-configuration.csv``,
:func:`transportlab.best_configuration.write_best_configurations`) and the README's
generated blocks (:func:`transportlab.summary.update_readme`: counts, the results table's
headlines and the NS-2 paragraphs, :mod:`transportlab.headlines`).
Afterwards run ``scripts/derive_provenance.py`` for the studies written.
"""

from __future__ import annotations

import argparse
import sys

import pandas as pd

from transportlab.best_configuration import write_best_configurations
from transportlab.engine import paths, verdicts
from transportlab.engine.files import write_csv
from transportlab.ns2.baseline import baseline_counts, rejudge_baseline
from transportlab.studies import get
from transportlab.summary import collect_summary, seed_studies, update_readme, write_summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--study", action="append", choices=seed_studies())
    args = parser.parse_args(argv)
    for name in args.study or seed_studies():
        study = get(name)
        comparison = verdicts.rejudge(study)
        path = verdicts.write_comparison(study, comparison)
        written = verdicts.write_qualitative(study, comparison)
        print(f"{name}: {len(comparison)} rows -> {path}" + (f", {written}" if written else ""))
        baseline = paths.results_dir(name, quick=False) / "ns2_baseline.csv"
        if baseline.is_file():
            table = rejudge_baseline(study)
            print(f"{name}: NS-2 baseline -> {write_csv(table, baseline)}")
            counts = baseline.with_name("ns2_baseline_counts.csv")
            if counts.is_file():  # counted by the columns before "rows", as written
                header = pd.read_csv(counts, nrows=0).columns
                by = list(header[: header.get_loc("rows")])
                print(f"{name}: -> {write_csv(baseline_counts(table, by=by), counts)}")
    print(f"summary -> {write_summary(collect_summary(quick=False), quick=False)}")
    print(f"best configuration -> {write_best_configurations()}")
    print(f"generated blocks of {update_readme()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
