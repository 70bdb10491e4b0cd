"""What one 100-s run of the sensor study costs, from the committed benchmark runs.

``benchmarks/wsn_run.py --compare --csv benchmarks/results/wsn_run.csv`` runs one 100-s
simulation per variant (the study's declared settings with its speed options, each option
switched off in turn, and the process as issue 13 found it), each in a fresh process, and
writes one row per run. :func:`speed_table` reduces those rows to what notebook 04 prints:
per variant the best CPU time of ``Simulator::Run`` (the time least sensitive to other
load on the machine), the wall time of the whole process, the events, the peak memory,
each as a ratio to the study's own variant, and whether the variant simulated exactly
what the study's variant did (the digest of the summary, counters, energies and every
delivered packet).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from transportlab.engine import paths

__all__ = ["BENCHMARK_FILE", "REFERENCE_VARIANT", "benchmark_runs", "speed_table"]

#: the committed runs of ``benchmarks/wsn_run.py --csv``, relative to the project root
BENCHMARK_FILE = Path("benchmarks") / "results" / "wsn_run.csv"
#: the variant every ratio is taken against: the study's declared settings in a
#: simulation worker of the local cluster
REFERENCE_VARIANT = "after"
_COLUMNS = ["variant", "runs", "cpu_run_s", "wall_total_s", "events", "peak_rss_mb"]


def benchmark_runs(path: str | Path | None = None) -> pd.DataFrame:
    """The committed benchmark runs (every row ``benchmarks/wsn_run.py --csv`` wrote)."""
    return pd.read_csv(path or paths.project_root() / BENCHMARK_FILE)


def speed_table(runs: pd.DataFrame, protocol: str = "udp") -> pd.DataFrame:
    """Per variant of ``protocol``: runs, best run CPU and total wall time (s), events,
    peak memory (MB), the ratios of CPU time, events and memory to the reference variant,
    and ``same_results`` (its digest equals the reference variant's in every run)."""
    runs = runs[runs["protocol"] == protocol]
    if REFERENCE_VARIANT not in set(runs["variant"]):
        raise ValueError(f"no {REFERENCE_VARIANT!r} run of {protocol} among the benchmark runs")
    reference = runs[runs["variant"] == REFERENCE_VARIANT]
    digests = set(reference["results_digest"])
    if len(digests) != 1:
        raise ValueError(f"the {REFERENCE_VARIANT!r} runs of {protocol} simulated different things")
    grouped = runs.groupby("variant", sort=False)
    table = grouped.agg(
        runs=("cpu_run_s", "size"),
        cpu_run_s=("cpu_run_s", "min"),
        wall_total_s=("wall_total_s", "min"),
        events=("events", "min"),
        peak_rss_mb=("peak_rss_mb", "min"),
    ).reset_index()[_COLUMNS]
    base = table.set_index("variant").loc[REFERENCE_VARIANT]
    for column, ratio in (("cpu_run_s", "cpu_ratio"), ("events", "events_ratio"),
                          ("peak_rss_mb", "memory_ratio")):  # fmt: skip
        table[ratio] = table[column] / base[column]
    table["same_results"] = grouped["results_digest"].agg(lambda d: set(d) == digests).values
    return table
