"""Write the sensor study's full-mode files that come from experiment ``intervals`` alone.

    .venv/bin/python scripts/write_wsn_intervals.py [--runs N] [--scheduler serial]

Issue 25 changed the study's declared configuration (802.11 at NS-2's 1 Mb/s, the
``field`` placement, NS-2's receiver lock, retry counts, culling, preloaded neighbour
caches, AODV neighbour entries that never expire); its
full mode (about 1000 simulations of 100 s) did not fit on the shared machine, so the
comparison was re-run on its own: ``comparison.csv`` (with its tolerance), the tables
``summary``, ``connectivity`` (no simulation), ``agent_vs_app``, ``energy_states``,
``idle_power`` and the figures ``metrics_vs_interval``, ``metric_averages``, ``idle_power``,
each from the runs of ``intervals`` only (``--runs``: replications per point instead of
its 10). The other experiments' files are not touched. Then
``python -m transportlab.studies.wsn_reporting_interval.ns2_baseline`` (same ``--runs``)
writes the NS-2 column and ``scripts/derive_provenance.py`` the provenance.
"""

from __future__ import annotations

import argparse
import sys

from transportlab.engine.paths import project_root
from transportlab.engine.results import Results
from transportlab.studies.wsn_reporting_interval import STUDY

TABLES = ("summary", "connectivity", "agent_vs_app", "energy_states", "idle_power")
FIGURES = ("metrics_vs_interval", "metric_averages", "idle_power")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=None, help="replications per point")
    parser.add_argument("--scheduler", default="serial", help="serial, local or an address")
    args = parser.parse_args(argv)
    import matplotlib  # noqa: PLC0415

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    results = Results(STUDY, runs=args.runs, scheduler=args.scheduler)
    results["intervals"]
    # everything computed before the first file is written
    comparison = results.comparison()
    tables = {name: results.table(name) for name in TABLES}
    written = [results.write_comparison(comparison)]
    written += [results.write_table(name, table) for name, table in tables.items()]
    for name in FIGURES:
        plt.close(results.figure(name))
        written.append(results.figures_dir() / f"{name}.png")
    for path in written:
        print(path.relative_to(project_root()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
