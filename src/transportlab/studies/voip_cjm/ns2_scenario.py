"""The voice calls of voip_cjm in NS-2.35 itself: Tcl generated from the study's
parameters, run, and its trace parsed into the raw tables of ``scenario.run``.

The seed ran NS-2 but gives no script: this one is written from the study's parameters
(:mod:`~transportlab.studies.voip_cjm.parameters`), on both topology readings
(``topology = "homogeneous"``: a sender and a receiver host per call with the per-call
access delays; ``"trunk"``: every call between one sender and one receiver host). Nodes
are numbered as in the ns-3 run (routers 0 and 1, then the senders, then the
receivers); every link is a ``duplex-link`` with ``DropTail`` of ``limit_`` =
``queue_packets``. Each call is an ``Application/Traffic/CBR`` (``random_ 0``) writing
one message every ``frame_ms`` to its own agent pair:

* **UDP**: ``Agent/UDP`` -> ``Agent/Null``. NS-2's UDP adds no header, so the CBR writes
  the study's whole IP packet (message + 8 + 20 bytes) and the packet on the wire has
  the size of ns-3's IP packet;
* **TCP**: ``Agent/TCP`` (Tahoe) -> ``Agent/TCPSink``, with the NS-2 settings the ns-3
  run copies (``window_``, ``windowInit_``, ``minrto_``, ``tcpTick_``, an ACK per
  segment, no SACK). A one-way NS-2 TCP counts packets, not bytes: ``packetSize_`` is
  the message, so every message is one 212-byte segment (ns-3: a byte stream that may
  coalesce messages when its window is full), and ``window_`` 20 is 20 messages
  (ns-3: 20 segments of ``mtu_bytes - 40`` bytes). ``syn_`` stays NS-2's default (true):
  the first message goes out after a modelled SYN exchange, so segment ``k + 1``
  carries message ``k``;
* **SCTP**: an ``Agent/SCTP`` pair with NS-2's defaults (what
  ``SctpStackHelper::SetNs2Defaults("2.35")`` copies), ``mtu_`` = ``mtu_bytes``,
  ``dataChunkSize_`` = message + 16 (only infinite sources use it; it must fit the
  MTU), ``unordered_`` from ``sctp_delivery``; TSN ``k + 1`` is message ``k``.

Each call starts at ``CALL_START_S`` plus a uniform draw from ``CALL_START_SPREAD_S``
(``$defaultRNG``, seeded per replication: :func:`transportlab.ns2.tcl.seed_rng`; the
script prints the draws) and writes ``ceil(duration / frame_ms)`` messages
(``maxpkts_``), as ns-3's calls send while ``now < start + duration``. The write
times are not traced: NS-2's CBR writes its first message at the start and each next
one ``interval_`` = ``packetSize_ * 8 / rate_`` after the previous one, and
:func:`send_times` repeats that double arithmetic (a test checks it against the trace
of the messages leaving a UDP sender).

Traced: only the receive events (``r``) of the links into the receiver hosts (a
``Trace/Recv`` spliced in as ``SimpleLink::trace`` places it; no enqueue, dequeue or
drop lines), and call 0's sender link both ways in the homogeneous topology (its
packets leaving the host, the acknowledgements arriving at it). No nam output.

Raw tables (as ``scenario.run``): ``packets`` (``event`` sent / received, ``flow`` =
call, ``seq`` = message, ``size`` = message bytes, ``time``, ``sent_time``,
``delay``; a message is *received* when the receiving agent can hand it to the
application: UDP and unordered SCTP at its arrival, TCP and ordered SCTP when it and
every earlier message of the call have arrived) and ``counters``
(``ip_packets_to_receivers``: distinct packets received by the receiver hosts;
``events`` is NaN: NS-2 does not count them). One more table, NS-2's only:
``ns2_call0`` (call 0's sender, homogeneous topology: ``event`` ``data_sent`` with the
message it carried, or ``ack_received``, and ``time``), which shows *when* NS-2's
agents send what the application wrote.

What NS-2 cannot express, or this generator does not write, is rejected by
:data:`PARAMETERS` before anything runs (:func:`ns2_problem`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine.params import ParameterSpace
from transportlab.ns2 import tcl, traces
from transportlab.ns2.runner import ns2_run_step, run_script
from transportlab.ns3 import ns2_tcp
from transportlab.studies.voip_cjm.parameters import (
    CALL_START_S,
    CALL_START_SPREAD_S,
    IPV4_HEADER_BYTES,
    UDP_HEADER_BYTES,
    access_delays_ms,
    end_time,
    voice_payload_bytes,
)
from transportlab.studies.voip_cjm.parameters import (
    PARAMETERS as NS3_PARAMETERS,
)

__all__ = [
    "PARAMETERS",
    "call_count",
    "deliveries",
    "frames_per_call",
    "ns2_problem",
    "run",
    "send_times",
    "tcl_script",
]

RECEIVE_TRACE = "received.tr"
CALL0_TRACE = "call0.tr"
SCTP_DATA_CHUNK_HEADER = 16
#: Agent/TCP's settings, NS-2's defaults written out from the one place the project
#: states them (:mod:`transportlab.ns3.ns2_tcp`, which the ns-3 run step applies too;
#: a pure-Python module, so the NS-2 cache key holds no ns-3 code).
NS2_TCP_HEADER = ns2_tcp.HEADER_BYTES  # tcpip_base_hdr_size_: data = packetSize_ + 40
NS2_TCP_WINDOW_PACKETS = ns2_tcp.WINDOW  # window_
NS2_TCP_WINDOW_INIT = ns2_tcp.WINDOW_INIT  # windowInit_
NS2_TCP_MIN_RTO_S = ns2_tcp.MIN_RTO_S  # minrto_
NS2_TCP_TICK_S = ns2_tcp.TICK_S  # tcpTick_
#: rtxcur_init_, the RTO before the first RTT sample. This study's ns-3 TCP keeps its
#: own 1 s; it only matters if the SYN or the first segment is lost (docs/ns2-notes.md).
NS2_TCP_INITIAL_RTO_S = ns2_tcp.INITIAL_RTO_S
TIMEOUT_SECONDS = 3600.0


# ----------------------------------------------------------------------------- parameters


def ns2_problem(values: Mapping[str, Any]) -> str | None:
    """Why this generator cannot run the point in NS-2.35 as configured, or None."""
    problems = []
    protocol = values["protocol"]
    if values["stack_preset"] != "ns2":
        problems.append(
            f"stack_preset {values['stack_preset']!r} (only 'ns2' has NS-2's TCP/SCTP defaults)"
        )
    if protocol == "tcp" and values["tcp_variant"] != "TcpTahoe":
        problems.append(f"tcp_variant {values['tcp_variant']!r} (Agent/TCP is Tahoe: TcpTahoe)")
    if values["sctp_pr_lifetime_ms"] > 0:
        problems.append(
            "sctp_pr_lifetime_ms (Agent/SCTP's partial reliability is k-rtx, reliability_; "
            "it has no timed reliability)"
        )
    if values["connection"] == "shared":
        problems.append(
            "connection 'shared' (a CBR writes to one agent of its own; Agent/SCTP puts a "
            "legacy application's messages on stream 0, so no stream per call)"
        )
    if values["voice_activity"] != "continuous":
        problems.append(
            "voice_activity 'talkspurts' (not generated: the write times of an on/off "
            "source are random and would have to be traced at every sender)"
        )
    if values["cross_traffic"] != "none":
        problems.append(f"cross_traffic {values['cross_traffic']!r} (not generated)")
    payload = voice_payload_bytes(values)
    if protocol == "tcp" and payload + NS2_TCP_HEADER > values["mtu_bytes"]:
        problems.append("a message + 40 bytes exceeds mtu_bytes (Agent/TCP: one segment each)")
    if protocol == "sctp":
        largest = values["mtu_bytes"] - 12 - IPV4_HEADER_BYTES
        if payload + SCTP_DATA_CHUNK_HEADER > largest:
            problems.append("a message's DATA chunk exceeds the MTU (Agent/SCTP cannot fragment)")
    if problems:
        return "NS-2.35 cannot run: " + "; ".join(problems)
    return None


PARAMETERS = ParameterSpace(*NS3_PARAMETERS, consistency=[*NS3_PARAMETERS.consistency, ns2_problem])


# ----------------------------------------------------------------------------- the script


def call_count(params: Mapping[str, Any]) -> int:
    return int(params["n_calls"])


def _hosts(params: Mapping[str, Any]) -> int:
    return params["n_calls"] if params["topology"] == "homogeneous" else 1


def frames_per_call(params: Mapping[str, Any]) -> int:
    """Messages each call writes: ns-3's calls send at ``start + k * frame`` while that is
    before ``start + duration`` (integer nanoseconds, as ns-3's Time)."""
    frame_ns = round(params["frame_ms"] * 1e6)
    duration_ns = round(params["duration"] * 1e9)
    return -(-duration_ns // frame_ns)


def _cbr_packet_bytes(params: Mapping[str, Any]) -> int:
    """What the CBR writes: the message, or for NS-2's header-less UDP the whole IP packet."""
    payload = voice_payload_bytes(params)
    if params["protocol"] == "udp":
        return payload + UDP_HEADER_BYTES + IPV4_HEADER_BYTES
    return payload


def _cbr_rate_bps(params: Mapping[str, Any]) -> float:
    return _cbr_packet_bytes(params) * 8 / (params["frame_ms"] / 1000)


def send_times(start: float, params: Mapping[str, Any]) -> np.ndarray:
    """The times a call started at ``start`` writes its messages, computed as NS-2's CBR
    does: ``interval_ = (packetSize_ << 3) / rate_``, each write ``interval_`` after the
    previous one (the scheduler adds the delay to the clock)."""
    interval = float(_cbr_packet_bytes(params) << 3) / _cbr_rate_bps(params)
    steps = np.full(frames_per_call(params), interval)
    steps[0] = start
    return np.add.accumulate(steps)


_RECEIVE_ONLY = """\
# A receive-only trace on a link: NS-2's Trace/Recv, placed where SimpleLink::trace puts
# it (after the TTL check), without the enqueue, dequeue and drop traces.
proc trace_receptions {from to file} {
    global ns
    set link [$ns link $from $to]
    set recv [$ns create-trace Recv $file $from $to]
    set ttl [$link set ttl_]
    $recv target [$ttl target]
    $ttl target $recv
}"""


def tcl_script(params: Mapping[str, Any], seed: int = 1, run: int = 1) -> str:
    """The NS-2 Tcl of one point and one replication (see the module docstring)."""
    problem = ns2_problem(params)
    if problem:
        raise ValueError(problem)
    n_calls, hosts = call_count(params), _hosts(params)
    delays = access_delays_ms(params)
    senders = [2 + h for h in range(hosts)]
    receivers = [2 + hosts + h for h in range(hosts)]
    access = tcl.bandwidth(params["access_rate_mbps"])
    out = [
        "# Voice calls of voip_cjm (seed 001) for NS-2.35, generated by transportlab",
        "# (studies/voip_cjm/ns2_scenario.py) from the study's parameters;",
        f"# topology {params['topology']}, {n_calls} calls over {params['protocol']}, "
        f"seed {seed}, run {run}.",
        "set ns [new Simulator]",
        tcl.seed_rng(seed, run),
    ]
    # The start times first, so that what other objects draw from $defaultRNG
    # (Agent/SCTP does) cannot move them: a (seed, run) starts the calls alike for
    # every transport.
    for call in range(n_calls):
        out += [
            f"set start({call}) [expr {{{tcl.seconds(CALL_START_S)} + "
            f"[$defaultRNG uniform 0.0 {tcl.seconds(CALL_START_SPREAD_S)}]}}]",
            f'puts "start {call} [format %.17g $start({call})]"',
        ]
    out.append(f"Queue/DropTail set limit_ {params['queue_packets']}")
    if params["protocol"] == "sctp":
        out.append("Trace set show_sctphdr_ 1")
    out += [
        f"for {{set i 0}} {{$i < {2 + 2 * hosts}}} {{incr i}} {{ set n($i) [$ns node] }}",
        f"$ns duplex-link $n(0) $n(1) {tcl.bandwidth(params['bottleneck_rate_mbps'])} "
        f"{tcl.delay(params['bottleneck_delay_ms'])} DropTail",
    ]
    for h in range(hosts):
        delay = tcl.delay(delays[h])
        out += [
            f"$ns duplex-link $n({senders[h]}) $n(0) {access} {delay} DropTail",
            f"$ns duplex-link $n(1) $n({receivers[h]}) {access} {delay} DropTail",
        ]
    if params["loss_rate"] > 0:
        # NS-2's ErrorModel, packet unit, uniform draws from $defaultRNG
        for index, (a, b) in enumerate(((0, 1), (1, 0))):
            out += [
                f"set loss({index}) [new ErrorModel]",
                f"$loss({index}) unit pkt",
                f"$loss({index}) set rate_ {tcl.number(float(params['loss_rate']))}",
                # after the link, before the receiving node: ns-3's ReceiveErrorModel
                f"$ns link-lossmodel $loss({index}) $n({a}) $n({b})",
            ]
    out += [_RECEIVE_ONLY, f"set received [open {RECEIVE_TRACE} w]"]
    out += [f"trace_receptions $n(1) $n({r}) $received" for r in receivers]
    out.append(f"set call0 [open {CALL0_TRACE} w]")
    if params["topology"] == "homogeneous":
        out += [
            f"$ns trace-queue $n({senders[0]}) $n(0) $call0",
            f"trace_receptions $n(0) $n({senders[0]}) $call0",
        ]
    for call in range(n_calls):
        host = call if params["topology"] == "homogeneous" else 0
        out += _call(params, call, senders[host], receivers[host])
    out += [
        "proc finish {} {",
        "    global ns received call0",
        "    $ns flush-trace",
        "    close $received",
        "    close $call0",
        "    exit 0",
        "}",
        f'$ns at {tcl.seconds(end_time(params))} "finish"',
        "$ns run",
    ]
    return "\n".join(out) + "\n"


def _call(params: Mapping[str, Any], call: int, sender: int, receiver: int) -> list[str]:
    protocol = params["protocol"]
    payload = voice_payload_bytes(params)
    if protocol == "udp":
        agent, sink, settings, sink_settings = "Agent/UDP", "Agent/Null", {}, {}
    elif protocol == "tcp":
        agent, sink = "Agent/TCP", "Agent/TCPSink"
        settings = {
            "packetSize_": payload,
            "window_": NS2_TCP_WINDOW_PACKETS,
            "windowInit_": NS2_TCP_WINDOW_INIT,
            "minrto_": tcl.seconds(NS2_TCP_MIN_RTO_S),
            "tcpTick_": tcl.seconds(NS2_TCP_TICK_S),
            "rtxcur_init_": tcl.seconds(NS2_TCP_INITIAL_RTO_S),
            "syn_": "true",
        }
        sink_settings = {}
    else:
        agent = sink = "Agent/SCTP"
        settings = {
            "mtu_": params["mtu_bytes"],
            "dataChunkSize_": payload + SCTP_DATA_CHUNK_HEADER,
            "numOutStreams_": 1,
            "unordered_": int(params["sctp_delivery"] == "unordered"),
        }
        sink_settings = {name: settings[name] for name in ("mtu_", "dataChunkSize_")}
    size = _cbr_packet_bytes(params)
    k = call
    lines = [f"set agent({k}) [new {agent}]"]
    lines += [f"$agent({k}) set {name} {value}" for name, value in settings.items()]
    lines += [f"$ns attach-agent $n({sender}) $agent({k})", f"set sink({k}) [new {sink}]"]
    lines += [f"$sink({k}) set {name} {value}" for name, value in sink_settings.items()]
    lines += [
        f"$ns attach-agent $n({receiver}) $sink({k})",
        f"$ns connect $agent({k}) $sink({k})",
        f'puts "call {k} [$agent({k}) set agent_addr_] [$agent({k}) set agent_port_]"',
        f"set app({k}) [new Application/Traffic/CBR]",
        f"$app({k}) attach-agent $agent({k})",
        f"$app({k}) set packetSize_ {size}",
        f"$app({k}) set rate_ {tcl.number(_cbr_rate_bps(params))}",
        f"$app({k}) set random_ 0",
        f"$app({k}) set maxpkts_ {frames_per_call(params)}",
        f'$ns at $start({k}) "$app({k}) start"',
    ]
    return lines


# ----------------------------------------------------------------------------- one run


@ns2_run_step
def run(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """One replication in NS-2: the raw tables of ``scenario.run`` (module docstring)."""
    script = tcl_script(params, seed, run)
    with run_script(script, timeout=TIMEOUT_SECONDS) as done:
        starts, agents = _printed(done.stdout, call_count(params))
        arrivals = _read_arrivals(done.path(RECEIVE_TRACE), params)
        call0 = _read_call0(done.path(CALL0_TRACE), params, agents)
    packets = _packets(arrivals, starts, agents, params)
    counters = pd.DataFrame(
        {
            "ip_packets_to_receivers": [int(arrivals["uid"].nunique())],
            "events": [np.nan],
        }
    )
    return {"packets": packets, "counters": counters, "ns2_call0": call0}


_START = re.compile(r"^start (\d+) (\S+)$", re.MULTILINE)
_AGENT = re.compile(r"^call (\d+) (-?\d+) (-?\d+)$", re.MULTILINE)


def _printed(stdout: str, n_calls: int) -> tuple[np.ndarray, pd.DataFrame]:
    """The start times and the sending agents' (node, port) the script printed."""
    starts = {int(k): float(t) for k, t in _START.findall(stdout)}
    agents = {int(k): (int(node), int(port)) for k, node, port in _AGENT.findall(stdout)}
    if sorted(starts) != list(range(n_calls)) or sorted(agents) != list(range(n_calls)):
        raise RuntimeError(f"NS-2 printed start times for calls {sorted(starts)}")
    table = pd.DataFrame(
        [(k, *agents[k]) for k in range(n_calls)], columns=["call", "node", "port"]
    )
    return np.array([starts[k] for k in range(n_calls)]), table


def _read_arrivals(path, params: Mapping[str, Any]) -> pd.DataFrame:
    columns = ["time", "type", "size", "flags", "src_node", "src_port", "seq", "uid", "tsn"]
    return traces.read_wired(path, columns=columns)


def _units(arrivals: pd.DataFrame, params: Mapping[str, Any]) -> tuple[pd.DataFrame, np.ndarray]:
    """The voice-carrying lines of a trace and the message (0-based) each one carries."""
    protocol = params["protocol"]
    kind = arrivals["type"].astype(str).to_numpy()
    if protocol == "udp":
        data = arrivals[kind == "cbr"]
        return data, data["seq"].to_numpy()
    if protocol == "tcp":
        data = arrivals[(kind == "tcp") & (arrivals["size"].to_numpy() > NS2_TCP_HEADER)]
        return data, data["seq"].to_numpy() - 1  # segment 0 is the modelled SYN
    chunk = arrivals["flags"].astype(str).str[-1].to_numpy()
    data = arrivals[chunk == "D"]
    return data, data["tsn"].to_numpy() - 1


def deliveries(first_arrival: np.ndarray, in_order: bool) -> np.ndarray:
    """When each message of one call reaches the application (NaN: never).

    ``first_arrival[k]`` is when message ``k`` first arrived (NaN if it never did). In
    order (TCP, ordered SCTP): when it and every earlier message have arrived, never
    after the first message that never arrived; else at its arrival.
    """
    if not in_order:
        return first_arrival.copy()
    missing = np.isnan(first_arrival)
    cut = int(np.argmax(missing)) if missing.any() else len(first_arrival)
    out = np.full(len(first_arrival), np.nan)
    out[:cut] = np.maximum.accumulate(first_arrival[:cut])
    return out


def _packets(
    arrivals: pd.DataFrame, starts: np.ndarray, agents: pd.DataFrame, params: Mapping[str, Any]
) -> pd.DataFrame:
    data, message = _units(arrivals, params)
    call_of = {(row.node, row.port): row.call for row in agents.itertuples()}
    keys = list(zip(data["src_node"].to_numpy(), data["src_port"].to_numpy(), strict=True))
    calls = np.array([call_of.get(key, -1) for key in keys], dtype=np.int64)
    if (calls < 0).any():
        raise RuntimeError("a voice packet from an unknown agent in NS-2's trace")
    n_frames = frames_per_call(params)
    in_order = params["protocol"] == "tcp" or (
        params["protocol"] == "sctp" and params["sctp_delivery"] == "ordered"
    )
    payload = voice_payload_bytes(params)
    frames = []
    for call in range(call_count(params)):
        sent = send_times(float(starts[call]), params)
        mine = calls == call
        first = np.full(n_frames, np.nan)
        units, times = message[mine], data["time"].to_numpy()[mine]
        inside = (units >= 0) & (units < n_frames)
        if not inside.all():
            raise RuntimeError(f"call {call}: NS-2 carried a message it never wrote")
        np.fmin.at(first, units, times)
        delivered = deliveries(first, in_order)
        got = ~np.isnan(delivered)
        seq = np.arange(n_frames)
        frames.append(
            pd.DataFrame(
                {
                    "event": "sent",
                    "flow": call,
                    "seq": seq,
                    "time": sent,
                    "sent_time": sent,
                    "delay": np.nan,
                }
            )  # fmt: skip
        )
        frames.append(
            pd.DataFrame(
                {
                    "event": "received",
                    "flow": call,
                    "seq": seq[got],
                    "time": delivered[got],
                    "sent_time": sent[got],
                    "delay": delivered[got] - sent[got],
                }
            )  # fmt: skip
        )
    table = pd.concat(frames, ignore_index=True)
    table["size"] = payload
    # In event order, as the ns-3 recorder writes them (a send before a reception at
    # the same instant).
    table["_order"] = (table["event"] == "received").astype(int)
    table = table.sort_values(["time", "_order"], kind="stable").reset_index(drop=True)
    return pd.DataFrame(
        {
            "event": pd.Categorical(table["event"], categories=["sent", "received"]),
            "flow": table["flow"].to_numpy(dtype=np.int64),
            "seq": table["seq"].to_numpy(dtype=np.int64),
            "size": table["size"].to_numpy(dtype=np.int64),
            "time": table["time"].to_numpy(dtype=float),
            "sent_time": table["sent_time"].to_numpy(dtype=float),
            "delay": table["delay"].to_numpy(dtype=float),
        }
    )


def _read_call0(path, params: Mapping[str, Any], agents: pd.DataFrame) -> pd.DataFrame:
    """Call 0's sender: its voice packets entering the access link (``+``), and the
    acknowledgements (TCP ACKs, SCTP SACK chunks) received from it."""
    empty = pd.DataFrame({"event": pd.Series(dtype=object), "time": pd.Series(dtype=float),
                          "seq": pd.Series(dtype=np.int64)})  # fmt: skip
    if params["topology"] != "homogeneous":
        return empty
    lines = traces.read_wired(path)
    if lines.empty:
        return empty
    sender = int(agents.loc[agents["call"] == 0, "node"].iloc[0])
    event = lines["event"].astype(str).to_numpy()
    leaving = lines[(event == "+") & (lines["from_node"].to_numpy() == sender)]
    data, message = _units(leaving, params)
    arriving = lines[(event == "r") & (lines["to_node"].to_numpy() == sender)]
    if params["protocol"] == "sctp":
        acks = arriving[arriving["flags"].astype(str).str[-1].to_numpy() == "S"]
    else:
        acks = arriving[arriving["type"].astype(str).to_numpy() == "ack"]
    acks = acks.drop_duplicates("uid")
    table = pd.concat(
        [
            pd.DataFrame(
                {
                    "event": "data_sent",
                    "time": data["time"].to_numpy(),
                    "seq": message.astype(np.int64),
                }
            ),  # fmt: skip
            pd.DataFrame(
                {
                    "event": "ack_received",
                    "time": acks["time"].to_numpy(),
                    "seq": np.full(len(acks), -1, dtype=np.int64),
                }
            ),  # fmt: skip
        ],
        ignore_index=True,
    )
    return table.sort_values("time", kind="stable").reset_index(drop=True)
