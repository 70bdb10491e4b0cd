"""The ns-3 ``lossy`` run with the SCTP model's attributes for NS-2.35's rules.

A run step of its own (not ``scenario.run``), so that the study's cached ns-3 runs keep
their code fingerprint: parameter ``ns2_rules`` names the set of model attributes set
after the study's timers (``none``: the study's run unchanged; ``all``: every attribute
of :data:`~transportlab.ns3.sctp_ns2_rules.NS2_RULES`; or one of them).
Used by :func:`~transportlab.studies.multihoming_failover.ns2_baseline.goodput_rules`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import pandas as pd

from transportlab.engine.params import Param, ParameterSpace
from transportlab.ns3 import sctp_ns2_rules
from transportlab.ns3.simulation import simulation
from transportlab.studies.multihoming_failover import scenario
from transportlab.studies.multihoming_failover.parameters import PARAMETERS as NS3_PARAMETERS

__all__ = ["PARAMETERS", "RULE_SETS", "run"]

#: The model attributes per value of parameter ``ns2_rules``.
RULE_SETS: dict[str, dict[str, str]] = {
    "none": {},
    "immediate_first_sack": sctp_ns2_rules.IMMEDIATE_FIRST_SACK,
    "utilization_at_cwnd": sctp_ns2_rules.UTILIZATION_AT_CWND,
    "cum_ack_growth": sctp_ns2_rules.CWND_GROWTH_ON_CUM_ACK_ONLY,
    "all": sctp_ns2_rules.NS2_RULES,
}

PARAMETERS = ParameterSpace(
    *(
        dataclasses.replace(param, default="lossy") if param.name == "scenario" else param
        for param in NS3_PARAMETERS
    ),
    Param(
        "ns2_rules",
        "none",
        str,
        "model attributes applying NS-2.35's rules: none, all, or one of them",
        choices=tuple(RULE_SETS),
    ),
    consistency=list(NS3_PARAMETERS.consistency),
)


def run(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """One ``lossy`` replication of ``scenario.run`` with ``RULE_SETS[params["ns2_rules"]]``."""
    if params["scenario"] != "lossy":
        raise ValueError("rules_scenario runs only scenario 'lossy'")
    with simulation(seed=seed, run=run) as ns:
        scenario._socket_defaults(ns, params)
        for name, value in RULE_SETS[params["ns2_rules"]].items():
            ns.Config.SetDefault(name, ns.StringValue(value))
        return scenario._run_transfer(ns, params)
