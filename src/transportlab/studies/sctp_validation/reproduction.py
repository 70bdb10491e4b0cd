"""Reproducing the validation: every scenario on both stacks, the table and the figures."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from transportlab.engine.study import Experiment, Reproduction
from transportlab.studies.sctp_validation import differences, interleaving, stacks, stream_reset

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


STREAM_RESET = Experiment(
    name="stream_reset",
    description="stream reset mid-transfer (RFC 6525), outgoing by the sender and incoming "
    "at the receiver's request, on usrsctp and on the ns-3 model (deterministic)",
    points=lambda params: [{"scenario": name} for name in stream_reset.RESET_SCENARIOS],
    runs=1,
    quick_runs=1,
    deterministic=True,
    available=stacks.oracle_available,
)


INTERLEAVING = Experiment(
    name="interleaving",
    description="bulk (256-KB messages, stream 0) and 100-B messages (stream 1) on one "
    "association, DATA or I-DATA (RFC 8260), each scheduler both stacks have, with and "
    "without loss, on usrsctp and on the ns-3 model (deterministic)",
    points=lambda params: [{"scenario": name} for name in interleaving.CASES],
    runs=1,
    quick_runs=1,
    deterministic=True,
    available=stacks.oracle_available,
)


def _drop_run_columns(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.drop(columns=["oracle_seed", "seed", "run"])


def validation_table(results) -> pd.DataFrame:
    """One row per scenario: completion times, retransmissions, verdict and evidence; the
    stream-reset scenarios last (their retransmission and cwnd columns empty)."""
    table = _drop_run_columns(results["scenarios"]["validation"])
    reset_tables = results.get("stream_reset")
    if reset_tables is None:
        return table
    reset = _drop_run_columns(reset_tables["validation"])
    # nullable integers and booleans: the counts and flags stay as they are written in the
    # CSV, empty for the reset rows (one profile, no loss)
    nullable = {"i": "Int64", "b": "boolean"}
    dtypes = {c: nullable[t.kind] for c, t in table.dtypes.items() if t.kind in nullable}
    return pd.concat([table.astype(dtypes), reset.astype(dtypes)], ignore_index=True)


def interleaving_table(results) -> pd.DataFrame:
    """Per interleaving case, both stacks: small-message latency (median, 95th percentile,
    max; delivery minus due time), small messages delivered before the last bulk message,
    bulk completion, verdict and the named differences with their evidence."""
    return _drop_run_columns(results["interleaving"]["interleaving"])


def interleaving_evidence(results, names=None) -> pd.DataFrame:
    """Per interleaving case (default: those not agreeing), the wire facts behind its
    verdict (:func:`.interleaving.evidence_row`), from the cached wire tables."""
    tables = results["interleaving"]
    verdicts = interleaving_table(results).set_index("scenario").verdict
    if names is None:
        names = [n for n in interleaving.CASES if n in verdicts and verdicts[n] != "agrees"]
    rows = []
    for name in names:
        raw = {
            key: frame[frame["scenario"] == name]
            for key, frame in tables.items()
            if key.startswith("il_") and "scenario" in frame
        }
        rows.append(interleaving.evidence_row(name, *interleaving.frames_from_tables(raw)))
    return pd.DataFrame(rows)


def stream_reset_table(results) -> pd.DataFrame:
    """Per stream-reset scenario, both stacks side by side: messages delivered, times of
    the request, of the reset and of the last delivery, stream-0 deliveries while the
    reset was pending, and whether the SSNs the receiver saw agree."""
    return _drop_run_columns(results["stream_reset"]["stream_reset"])


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
    experiments=(SCENARIOS, STREAM_RESET, INTERLEAVING),
    tables={
        "validation": validation_table,
        "stream_reset": stream_reset_table,
        "interleaving": interleaving_table,
    },
    figures={"cwnd_side_by_side": cwnd_figure, "completion_times": completion_figure},
)
