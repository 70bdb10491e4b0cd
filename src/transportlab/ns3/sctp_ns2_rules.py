"""The SCTP model's attributes that apply NS-2.35's rules, each off by default (so that the
committed results stay reproducible): one place for the studies that run the model with
them (``sctp_validation.ns2_baseline``, ``multihoming_failover.rules_scenario``), since a
study imports no other study. Values are ``Config::SetDefault`` strings."""

from __future__ import annotations

__all__ = [
    "CWND_GROWTH_ON_CUM_ACK_ONLY",
    "IMMEDIATE_FIRST_SACK",
    "NS2_RULES",
    "UTILIZATION_AT_CWND",
]

#: The model's RFC 9260 5.1 behaviour, off by default: SACK the first DATA chunk at once.
IMMEDIATE_FIRST_SACK = {"ns3::SctpSocket::ImmediateFirstSack": "true"}
#: The model's RFC 9260 7.2.2 utilization test, off by default: the cwnd counts as fully
#: utilized only when the flight size before the SACK was at least the cwnd (NS-2.35's
#: test in slow start and congestion avoidance).
UTILIZATION_AT_CWND = {"ns3::SctpSocket::UtilizationAtCwnd": "true"}
#: The model's RFC 4960 7.2.1/7.2.2 growth rule, off by default: the cwnd grows only on a
#: SACK that advances the cumulative TSN ack (NS-2.35's AdjustCwnd; ``cum_ack_growth``).
CWND_GROWTH_ON_CUM_ACK_ONLY = {"ns3::SctpSocket::CwndGrowthOnCumAckOnly": "true"}
#: Every model attribute that applies one of NS-2.35's rules.
NS2_RULES = {**IMMEDIATE_FIRST_SACK, **UTILIZATION_AT_CWND, **CWND_GROWTH_ON_CUM_ACK_ONLY}
