"""Parameters and constants of the multihoming_failover study (see the package docstring)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from transportlab.engine.params import Param, ParameterSpace

PORT = 7000
START = 0.5  # the application starts; the association is set up first
VOICE_PAYLOAD = 172  # 160 bytes of G.711 per 20 ms + 12 bytes of RTP header
VOICE_INTERVAL = 0.020
DELAY_BUDGET = 0.150  # ITU-T G.114 one-way delay for good quality
# Random loss starts once the association is up (handshake: two RTTs after START), so
# that a lost INIT (3 s RTO.Initial) does not decide a run; frames sent before it are
# not counted.
LOSS_START = START + 0.1
#: Named SCTP stack presets (parameter ``stack_preset``; "none" keeps the timer parameters).
STACK_PRESETS = ("none", "rfc9260", "linux", "freebsd")
#: ns3::SctpSocket::PotentiallyFailedMaxRetrans that switches SCTP-PF off (its default).
PF_OFF = 65535
# prsctp: the voice source stops this long before the end, to deliver what is in flight.
DRAIN_SECONDS = 5.0


def _consistency(p: Mapping[str, Any]) -> str | None:
    if p["scenario"] == "failover":
        if not START < p["fail_at"] < p["duration"]:
            return f"fail_at ({p['fail_at']} s) must lie between {START} s and duration"
        if p["repair_at"] and not p["fail_at"] < p["repair_at"] < p["duration"]:
            return "repair_at must be 0 (never) or between fail_at and duration"
    if p["rto_min"] > p["rto_max"]:
        return f"rto_min ({p['rto_min']} s) exceeds rto_max ({p['rto_max']} s)"
    if p["scenario"] == "prsctp" and p["policy"] == "rtx" and p["pr_value"] > 100:
        return "pr_value is a retransmission count for policy 'rtx' (at most 100)"
    if p["scenario"] == "prsctp" and p["duration"] - DRAIN_SECONDS <= LOSS_START:
        return (
            f"prsctp: duration ({p['duration']} s) must exceed {LOSS_START + DRAIN_SECONDS} s "
            f"(the voice source stops {DRAIN_SECONDS} s before the end)"
        )
    return None


PARAMETERS = ParameterSpace(
    Param(
        "scenario",
        "failover",
        str,
        "failover (pulled cable), lossy (bulk transfer under loss) or prsctp (voice)",
        choices=("failover", "lossy", "prsctp"),
    ),
    Param(
        "topology",
        "two_networks",
        str,
        "failover: seed_hub (A .1/.2, B .3 on one hub) or two_networks (both hosts "
        "multi-homed on two independent links)",
        choices=("two_networks", "seed_hub"),
    ),
    Param(
        "homing",
        "multi",
        str,
        "lossy: single (one link) or multi (a second, loss-free link for retransmissions)",
        choices=("single", "multi"),
    ),
    Param(
        "policy",
        "reliable",
        str,
        "prsctp: reliable (ordered SCTP), ttl (lifetime pr_value ms), rtx (at most "
        "pr_value retransmissions), udp",
        choices=("reliable", "ttl", "rtx", "udp"),
    ),
    Param("pr_value", 150, int, "prsctp: lifetime (ms) or retransmission limit", minimum=0),
    Param(
        "stack_preset",
        "none",
        str,
        "SCTP stack preset (SctpStackHelper::SetPreset) applied after the timer "
        "parameters below, so its values win: none (the parameters below), rfc9260, "
        "linux (SCTP-PF on) or freebsd",
        choices=STACK_PRESETS,
    ),
    Param(
        "pf_max_retrans",
        PF_OFF,
        int,
        "RFC 7829 SCTP-PF PotentiallyFailed.Max.Retrans; a value >= path_max_retrans "
        f"switches SCTP-PF off ({PF_OFF}, the default: RFC 9260 alone; Linux uses 0)",
        minimum=0,
        maximum=PF_OFF,
    ),
    Param("path_max_retrans", 5, int, "Path.Max.Retrans (RFC 9260 default 5)", minimum=1),
    Param("assoc_max_retrans", 10, int, "Association.Max.Retrans (RFC 9260 default 10)", minimum=1),
    Param(
        "rto_initial",
        3.0,
        float,
        "RTO.Initial (3 s: RFC 2960/4960 and NS-2's initialRto_, the era of the seeds; "
        "RFC 9260 says 1 s)",
        minimum=0.001,
        unit="s",
    ),
    Param("rto_min", 1.0, float, "RTO.Min", minimum=0.001, unit="s"),
    Param("rto_max", 60.0, float, "RTO.Max", minimum=0.001, unit="s"),
    Param("hb_interval", 30.0, float, "HB.interval", minimum=0.001, unit="s"),
    Param(
        "source_failover",
        True,
        bool,
        "failover/seed_hub: move to A's other address when the T3-rtx timer expires "
        "(RFC 9260 6.4.1); False: the seed's lksctp behaviour",
    ),
    Param(
        "rtx_to_alt",
        "ALTERNATE",
        str,
        "destination of retransmissions (NS-2 rtxToAlt_, its default ALTERNATE)",
        choices=("SAME", "ALTERNATE", "TIMEOUT_ALTERNATE"),
    ),
    Param("rate_mbps", 10.0, float, "link rate", minimum=0.01, unit="Mb/s"),
    Param("delay_ms", 10.0, float, "one-way propagation delay per link", minimum=0, unit="ms"),
    Param(
        "loss_rate",
        0.15,
        float,
        "lossy/prsctp: packet loss rate, each direction",
        minimum=0,
        maximum=0.9,
    ),
    Param("message_size", 1000, int, "failover: bytes per message", minimum=1, maximum=65000),
    Param(
        "message_interval_ms",
        10.0,
        float,
        "failover: one message every ... ms",
        minimum=0.1,
        unit="ms",
    ),
    Param("fail_at", 5.0, float, "failover: the primary cable is pulled", minimum=0, unit="s"),
    Param("repair_at", 0.0, float, "failover: plugged back (0 = never)", minimum=0, unit="s"),
    Param("duration", 40.0, float, "simulated time", quick=20.0, minimum=1.0, unit="s"),
    Param(
        "stall_threshold",
        0.2,
        float,
        "delivery gaps longer than this count as stalls (analysis only)",
        minimum=0.001,
        unit="s",
    ),
    consistency=[_consistency],
)
