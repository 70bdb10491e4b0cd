"""NS-2.35 beside ns-3 for every published row of the wired study: published / NS-2 / ns-3.

The NS-2 column is the study's experiment ``main`` (TCP and SCTP FTP flows with the CBR
cross traffic, 10 runs in full mode, 2 in quick mode) re-run in NS-2.35 itself
(:mod:`~transportlab.studies.wired_best_effort.ns2_scenario`) and analysed by the
study's own ``analyse``; a replication is a seeded draw of the flows' start times, as
in the ns-3 runs. The ns-3 column is the committed full-mode ``comparison.csv`` (in
quick mode: the ns-3 study's quick run). Per published row, :func:`baseline_table`
gives the published value, NS-2's mean, 95 % interval and runs with the project's
verdict of the published value against NS-2 (:func:`transportlab.engine.verdicts.compare`,
the same method and tolerance as the ns-3 column's), ns-3's mean, interval, runs and
verdict, and ns-3 / NS-2 with whether ns-3 lies within the tolerance of NS-2
(``|ns3 - ns2| <= tol |ns2|``; not a verdict of the comparison method):
:func:`transportlab.ns2.baseline.baseline_table`, shared by every study's baseline.

``python -m transportlab.studies.wired_best_effort.ns2_baseline [--quick] [--runs N]``
writes ``data/results[/quick]/wired_best_effort/ns2_baseline.csv`` and the figure
``figures[/quick]/wired_best_effort/ns2_baseline.png`` (each atomically).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from transportlab.engine import files, paths, plotting
from transportlab.engine.plotting import save_figure
from transportlab.engine.results import Results, committed_comparison
from transportlab.ns2.baseline import (
    baseline_counts,
    baseline_parser,
    baseline_table,
    print_written,
    published_value,
)
from transportlab.ns2.study import ns2_study
from transportlab.studies.wired_best_effort import STUDY, analysis, ns2_scenario

__all__ = [
    "STUDY_NS2",
    "baseline_counts",
    "baseline_figure",
    "baseline_table",
    "ns2_results",
    "ns3_comparison",
    "write",
]

STUDY_NS2 = ns2_study(STUDY, ns2_scenario.run, ns2_scenario.PARAMETERS, experiments=["main"])
NAME = "ns2_baseline"


def ns2_results(quick: bool = False, runs: int | None = None, scheduler=None, progress=True):
    """The NS-2 re-run of experiment ``main`` (cached like every simulation)."""
    return Results(STUDY_NS2, quick=quick, runs=runs, scheduler=scheduler, progress=progress)


def ns3_comparison(quick: bool = False, scheduler=None, progress=True) -> pd.DataFrame:
    """The ns-3 column: the committed full-mode comparison, or the quick run's."""
    if not quick:
        return committed_comparison(STUDY)
    return Results(STUDY, quick=True, scheduler=scheduler, progress=progress).comparison()


PANELS = [
    ("awk_throughput", "AWK throughput (kb/s)"),
    ("awk_jitter", "AWK jitter (ms)"),
    ("awk_delay", "AWK e2eDelay (ms)"),
]
NS2_COLOR = plotting.OTHER_COLORS[4]  # the palette's grey: the reference simulator
SEED_MARKERS = {analysis.SEED_000: ("o", "seed 000"), analysis.SEED_004: ("s", "seed 004")}


def baseline_figure(table: pd.DataFrame):
    """Per protocol (rows) and metric (columns), per node pair: NS-2 and ns-3 means with
    their 95 % intervals as bars, the two seeds' published values as markers."""
    pairs = sorted({r for r in table["row"] if r.startswith("nodes")},
                   key=lambda p: int(p.split()[1].split("-")[0]))  # fmt: skip
    x = np.arange(len(pairs))
    fig, axes = plotting.subplots(2, 3, figsize=(13, 6.4), squeeze=False)
    for i, protocol in enumerate(("TCP", "SCTP")):
        color = plotting.PROTOCOL_COLORS[protocol.lower()]
        for ax, (metric, label) in zip(axes[i], PANELS, strict=True):
            rows = table[(table["protocol"] == protocol) & (table["metric"] == metric)]
            per_pair = rows[rows["row"].isin(pairs)].drop_duplicates("row").set_index("row")
            per_pair = per_pair.reindex(pairs)
            for offset, simulator, style in ((-0.18, "ns2", {"color": NS2_COLOR}),
                                             (0.18, "ns3", {"color": color})):  # fmt: skip
                name = "NS-2.35" if simulator == "ns2" else "ns-3"
                ax.bar(x + offset, per_pair[simulator], width=0.34, label=name, **style)
                plotting.errorbar(
                    ax, x + offset, per_pair[simulator], per_pair[f"{simulator}_ci_low"],
                    per_pair[f"{simulator}_ci_high"], fmt="none", color="black", linewidth=1,
                    capsize=2,
                )  # fmt: skip
            for seed, (marker, seed_label) in SEED_MARKERS.items():
                published = rows[(rows["seed_file"] == seed) & rows["row"].isin(pairs)]
                published = published.set_index("row").reindex(pairs)
                ax.scatter(x, published_value(published["published"]), marker=marker,
                           color="white", edgecolor="black", zorder=4,
                           label=f"published, {seed_label}")  # fmt: skip
            ax.set_xticks(x, [p.replace("nodes ", "") for p in pairs])
            ax.set_title(f"{protocol}: {label}", fontsize=10)
            if i == 1:
                ax.set_xlabel("node pair")
    for row in axes:
        row[0].legend(fontsize=7, loc="lower left")
    runs_ns2 = int(table["ns2_runs"].max())
    runs_ns3 = int(table["ns3_runs"].max())
    fig.suptitle(
        f"Published / NS-2.35 ({runs_ns2} runs) / ns-3 ({runs_ns3} runs), the same scenario; "
        f"bars: mean, whiskers: {plotting.CI_CLIPPED}",
        fontsize=9,
    )
    fig.tight_layout()
    return fig, runs_ns2


def write(quick: bool = False, runs: int | None = None, scheduler=None, progress=True) -> list:
    """Run (or load) both columns, write the table and the figure; return their paths."""
    folder = files.check_writable_folder(paths.results_dir(STUDY.name, quick))
    ns2 = ns2_results(quick=quick, runs=runs, scheduler=scheduler, progress=progress)
    table = baseline_table(
        ns2.comparison(), ns3_comparison(quick=quick, scheduler=scheduler, progress=progress)
    )
    written = [files.write_csv(table, folder / f"{NAME}.csv")]
    fig, n_runs = baseline_figure(table)
    written.append(save_figure(fig, STUDY.name, NAME, quick=quick, n_runs=n_runs))
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = baseline_parser(__doc__, quick="quick mode (300-s runs, 2 runs)")
    args = parser.parse_args(argv)
    return print_written(write(quick=args.quick, runs=args.runs, scheduler=args.scheduler))


if __name__ == "__main__":
    raise SystemExit(main())
