"""Reproducing the validation: every scenario on both stacks, the table and the figures."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from transportlab.engine.study import Experiment, Reproduction
from transportlab.studies.sctp_validation import differences, stacks

CWND_SCENARIOS = ("no_loss", "loss_mid", "loss_tail", "random_2pct", "rwnd_limited")


def _points(scenarios) -> list[dict[str, Any]]:
    return [{"scenario": sc.name} for sc in scenarios]


SCENARIOS = Experiment(
    name="scenarios",
    description="every validation scenario on usrsctp and on the ns-3 model, default and "
    "aligned settings (deterministic: one run each)",
    points=lambda params: _points(stacks.full_scenarios()),
    quick_points=lambda params: _points(stacks.quick_scenarios()),
    runs=1,
    quick_runs=1,
    deterministic=True,
    available=stacks.oracle_available,
)


def validation_table(results) -> pd.DataFrame:
    """One row per scenario: completion times, retransmissions, verdict and evidence."""
    return results["scenarios"]["validation"].drop(columns=["oracle_seed", "seed", "run"])


def traces(results, name: str) -> dict[str, stacks.Trace]:
    """The four traces of scenario ``name`` (from the cached tables)."""
    tables = results["scenarios"]
    picked: Mapping[str, pd.DataFrame] = {
        key: frame[frame["scenario"] == name].drop(
            columns=["scenario", "oracle_seed", "seed", "run"]
        )
        for key, frame in tables.items()
        if key != "validation" and "scenario" in frame
    }
    return stacks.traces_from_tables(stacks.scenario_by_name(name), picked)


def cwnd_figure(results):
    """cwnd against time, usrsctp and the model side by side, for a few scenarios."""
    names = [n for n in CWND_SCENARIOS if n in set(validation_table(results)["scenario"])]
    fig = differences.plot_cwnd({n: traces(results, n) for n in names}, names)
    return fig, 4 * len(names)


def completion_figure(results):
    """Completion times of both stacks per scenario, with the 10 % band."""
    table = validation_table(results)
    return differences.plot_completion(table), 4 * len(table)


REPRODUCTION = Reproduction(
    experiments=(SCENARIOS,),
    tables={"validation": validation_table},
    figures={"cwnd_side_by_side": cwnd_figure, "completion_times": completion_figure},
)
