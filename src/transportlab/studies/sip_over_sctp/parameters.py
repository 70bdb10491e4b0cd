"""Parameters and constants of the sip_over_sctp study (see the package docstring)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from transportlab.engine.files import check_file_prefix
from transportlab.engine.params import Param, ParameterSpace
from transportlab.ns3.capabilities import sctp_available

SCENARIOS = ("one_call", "throughput", "single_session", "multi_session", "hol")
#: The scenarios that run the SIP testbed of seed Figures 5.4 and 5.8.
SIP_SCENARIOS = ("one_call", "single_session", "multi_session")
PROTOCOLS = ("udp", "tcp", "sctp")
LAYOUTS = ("seed", "shared")
#: stream_mapping parameter -> ns3::SipSctpTransport::StreamMapping enumerator
STREAM_MAPPINGS = {
    "per-call": "PER_CALL",
    "single-unordered": "SINGLE_UNORDERED",
    "single-ordered": "SINGLE_ORDERED",
}
HOL_CONFIGS = ("sctp-streams", "sctp-one-stream", "tcp-one", "tcp-per-object")

REGISTER_AT = 0.1  # s: user agents start and register
FIRST_CALL_AT = 1.0  # s: first INVITE (and start of loss and of the window)
RE_REGISTER_AFTER = 0.2  # s: single session, registration refresh (associations up)
ONE_CALL_UNTIL = 4.0  # s: one_call ends (registration, call at 1 s, BYE at 2 s)

THROUGHPUT_WARMUP = 0.5  # s of each throughput run not measured (set-up, slow start)
THROUGHPUT_PORT = 5001  # ttcp's port
TCP_SEGMENT = 1448  # bytes: full Ethernet-size TCP segments (ns-3's default is 536)

#: ns3::SctpEventRecorder node tags of the traced hosts (sctp_trace)
SCTP_TRACE_NODES = {1: "host_a", 2: "host_b", 3: "proxy"}

HOL_PORT = 8080
HOL_START = 1.0  # s: the transfers start


def available_protocols() -> list[str]:
    """The protocols this build can run SIP over (SCTP needs the SCTP model)."""
    return ["udp", "tcp", "sctp"] if sctp_available() else ["udp", "tcp"]


def _protocol_built(values: Mapping[str, Any]) -> str | None:
    uses_sctp = values["protocol"] == "sctp" or (
        values["scenario"] == "hol" and values["hol_config"].startswith("sctp")
    )
    if uses_sctp and not sctp_available():
        return "SCTP is not available in this build (the SCTP module src/sctp is missing)"
    return None


def _window_fits(values: Mapping[str, Any]) -> str | None:
    if values["scenario"] == "throughput" and values["throughput_duration"] <= THROUGHPUT_WARMUP:
        return f"throughput_duration must exceed the {THROUGHPUT_WARMUP} s warm-up"
    return None


def _pcap_only_on_the_sip_testbed(values: Mapping[str, Any]) -> str | None:
    if values["pcap_prefix"] and values["scenario"] not in SIP_SCENARIOS:
        return f"pcap_prefix is only written by the SIP scenarios {list(SIP_SCENARIOS)}"
    return None


def _sctp_trace_on_sctp_calls(values: Mapping[str, Any]) -> str | None:
    if values["sctp_trace"] and (
        values["scenario"] != "multi_session" or values["protocol"] != "sctp"
    ):
        return "sctp_trace records SCTP chunks of the multi_session scenario over SCTP only"
    return None


def _pcap_folder(prefix: str) -> str | None:
    # Checked before ns-3 runs: ns-3 aborts the process (NS_FATAL) on a missing folder.
    return check_file_prefix(prefix, "pcap_prefix") if prefix else None


PARAMETERS = ParameterSpace(
    Param(
        "scenario",
        "multi_session",
        str,
        "which scenario this run simulates (one_call: the message flow of one call)",
        choices=SCENARIOS,
    ),
    Param(
        "protocol", "udp", str, "transport of SIP (or of the throughput test)", choices=PROTOCOLS
    ),
    Param(
        "layout",
        "seed",
        str,
        "connections/associations between user-agent hosts and proxy: 'seed' = the "
        "proxy sends from its outbound port 5061 (one association per host and "
        "direction, as in seed section 5.3.1), 'shared' = one per host pair "
        "(RFC 3261 connection reuse)",
        choices=LAYOUTS,
    ),
    Param(
        "stream_mapping",
        "per-call",
        str,
        "SCTP: each call on its own stream, or all messages on stream 0 unordered "
        "(RFC 4168 5.1) or ordered",
        choices=tuple(STREAM_MAPPINGS),
    ),
    Param(
        "message_size",
        512,
        int,
        "throughput: bytes per message (ttcp -l)",
        minimum=16,
        maximum=60000,
        unit="B",
    ),
    Param(
        "throughput_duration",
        3.0,
        float,
        "throughput: simulated seconds per run",
        minimum=THROUGHPUT_WARMUP,
        exclusive_minimum=True,
        quick=1.5,
        unit="s",
    ),
    Param("lan_rate_mbps", 100.0, float, "throughput: link rate", minimum=0.1, unit="Mb/s"),
    Param(
        "answer_delay",
        2.0,
        float,
        "single_session: time from 180 Ringing to 200 OK at the callee (subtracted from "
        "call set-up)",
        minimum=0.0,
        unit="s",
    ),
    Param(
        "proxy_processing_ms",
        0.0,
        float,
        "time the proxy needs per received message (0: protocol time only)",
        minimum=0.0,
        unit="ms",
    ),
    Param(
        "agent_processing_ms",
        0.0,
        float,
        "time a user-agent host needs per received message",
        minimum=0.0,
        unit="ms",
    ),
    Param(
        "link_delay_us",
        100.0,
        float,
        "SIP testbed: one-way delay of each of the three host-router links",
        minimum=0.0,
        unit="us",
    ),
    Param(
        "loss_rate",
        0.05,
        float,
        "probability that the router (multi_session) or the link (hol) drops a packet",
        minimum=0.0,
        maximum=0.9,
    ),
    Param(
        "n_pairs", 8, int, "multi_session: user agents per side (seed: 8)", minimum=1, maximum=64
    ),
    Param(
        "window",
        120.0,
        float,
        "multi_session: measurement window from the first INVITE",
        minimum=1.0,
        quick=30.0,
        unit="s",
    ),
    Param(
        "call_duration",
        1.0,
        float,
        "multi_session: talk time from 200 OK to BYE",
        minimum=0.0,
        unit="s",
    ),
    Param(
        "call_interval",
        1.0,
        float,
        "multi_session: pause after a call before the next INVITE",
        minimum=0.0,
        unit="s",
    ),
    Param(
        "setup_timeout",
        32.0,
        float,
        "multi_session: a caller gives up a call without "
        "final response after this long (64*T1, Timer B's value)",
        minimum=0.0,
        unit="s",
    ),
    Param(
        "multi_answer_delay",
        0.0,
        float,
        "multi_session: answer delay at the callees",
        minimum=0.0,
        unit="s",
    ),
    Param("hol_config", "sctp-streams", str, "hol: transport configuration", choices=HOL_CONFIGS),
    Param("objects", 8, int, "hol: concurrent transfers", minimum=1, maximum=64),
    Param(
        "object_size", 100_000, int, "hol: bytes per transfer", minimum=1000, quick=30_000, unit="B"
    ),
    Param(
        "record_size",
        1000,
        int,
        "hol: bytes per write (one SCTP message)",
        minimum=64,
        maximum=60000,
        unit="B",
    ),
    Param(
        "hol_interleave",
        True,
        bool,
        "hol: alternate the objects' records on a shared "
        "connection (else one object after the other, as HTTP/1.1 pipelining)",
    ),
    Param(
        "hol_rate_mbps",
        10.0,
        float,
        "hol: link rate (Rajamani et al.: 10 Mb/s)",
        minimum=0.1,
        unit="Mb/s",
    ),
    Param("hol_delay_ms", 20.0, float, "hol: one-way link delay", minimum=0.0, unit="ms"),
    Param(
        "hol_timeout",
        600.0,
        float,
        "hol: give up after this simulated time",
        minimum=10.0,
        quick=300.0,
        unit="s",
    ),
    Param(
        "sctp_trace",
        False,
        bool,
        "multi_session over SCTP: also record every SCTP chunk sent and every message "
        "delivered on hosts A, B and the proxy (ns3::SctpEventRecorder)",
    ),
    Param(
        "pcap_prefix",
        "",
        str,
        "SIP scenarios: write a pcap of the proxy's link to <prefix>-<node>-<device>.pcap "
        "(empty: none; such a run is never served from the cache)",
        check=_pcap_folder,
    ),
    consistency=[
        _protocol_built,
        _window_fits,
        _pcap_only_on_the_sip_testbed,
        _sctp_trace_on_sctp_calls,
    ],
)
