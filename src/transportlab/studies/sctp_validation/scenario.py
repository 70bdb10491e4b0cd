"""The run step: one scenario on both stacks (usrsctp and the ns-3 model), two profiles."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from transportlab.ns3 import native
from transportlab.studies.sctp_validation import interleaving, stacks, stream_reset


def run(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """Raw tables of the four traces (usrsctp and ns-3, default and aligned settings).

    Both stacks are deterministic: ``run`` changes nothing (the experiment declares one
    run); ``oracle_seed`` seeds usrsctp's random bytes.
    """
    if stream_reset.is_reset(params["scenario"]):  # RFC 6525: its own two tables
        return stream_reset.run(params["scenario"], params["oracle_seed"])
    if params["scenario"] in interleaving.CASES:  # RFC 8260: per-message tables
        return interleaving.run(params["scenario"], params["oracle_seed"])
    scenario = stacks.scenario_by_name(params["scenario"])
    return stacks.traces_to_tables(stacks.run_traces(scenario, params["oracle_seed"]))


def ns2_defaults(scenario: stacks.Scenario) -> dict[str, str]:
    """``SctpStackHelper::GetNs2Defaults("2.35")`` (NS-2.35's ``Agent/SCTP`` defaults),
    with the scenario's MTU (NS-2's ``mtu_`` is set to it too); the scenario's own
    settings are applied after these (``run_model``)."""
    helper = native.load().SctpStackHelper
    defaults = {str(p.first): str(p.second) for p in helper.GetNs2Defaults("2.35")}
    defaults["ns3::SctpSocket::Mtu"] = str(scenario.mtu)
    return defaults


def run_ns2_defaults(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """The ns-3 side of the NS-2 comparison: the model alone, started from NS-2.35's
    defaults (:func:`ns2_defaults`), as trace ``ns3_ns2`` (``traces_to_tables``)."""
    scenario = stacks.scenario_by_name(params["scenario"])
    trace = stacks.run_model(scenario, "default", defaults=ns2_defaults(scenario))
    return stacks.traces_to_tables({"ns3_ns2": trace})
