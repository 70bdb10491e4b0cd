"""The wired best-effort dumbbell in NS-2.35 itself: Tcl generated from the study's
parameters, run, and its trace parsed into the raw tables of ``scenario.run``.

The script is ours, written from the parameters (``tests/studies/test_wired_ns2.py``
checks, with :func:`transportlab.ns2.structure.describe`, that for the default point it
builds what seed 004's Appendix A scripts build: the same links, queues, agents,
applications, their bound variables, start and stop times). What it adds:

* every setting the study declares is written out (``packetSize_``, ``window_``,
  ``windowInit_``, RTO settings of ``Agent/TCP``; ``dataChunkSize_`` of
  ``Agent/SCTP``; the CBR's ``packetSize_``, ``rate_``, ``random_ 0``; DropTail's
  ``limit_``); at the defaults they are NS-2's own, so the scenario is the seeds';
* **replications**: the seeds' run is deterministic (fixed start times, ``random_``
  false, no random element anywhere). As in the ns-3 run, each flow starts at its
  script time plus a uniform draw from ``[0, start_jitter_ms)``, drawn by NS-2's
  ``$defaultRNG`` seeded with ``seed`` and moved to substream ``run - 1``
  (:func:`transportlab.ns2.tcl.seed_rng`); the script prints the start times it drew.
  With ``start_jitter_ms = 0`` every replication is the seeds' run;
* only the links the data packets cross are traced (source -> router 0, the
  bottleneck, router 1 -> sink), with SCTP's per-chunk header fields
  (``show_sctphdr_``: TSNs) so that delivered bytes can be counted; the congestion
  windows of the FTP agents are traced into a second file. No nam output.

What NS-2 cannot express (another TCP variant, SACK, timestamps, delayed ACKs, the
ns-3 queue disciplines, RFC 9260's SCTP profile, pcap files) is rejected by
:data:`PARAMETERS` before anything runs.

Raw tables (as ``scenario.run``): ``flows``, ``packets`` (``sent`` = ``+`` at the
source, ``bottleneck`` = ``-`` on router 0 -> 1, ``dropped`` = ``d`` at a router,
``received`` = ``r`` at the sink; ``packet`` = NS-2 uid; ``size`` = NS-2's packet
size, which has no link header and, for UDP, no UDP/IP header: ``analysis.packet_sizes``),
``goodput`` (bytes delivered in order to the sink application per sample interval),
``queue`` (bottleneck queue occupancy, packets waiting), ``windows`` (cwnd and ssthresh
in bytes) and ``run`` (``events`` is NaN: NS-2 does not count them).
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine.params import ParameterSpace
from transportlab.ns2 import tcl, traces
from transportlab.ns2.runner import ns2_run_step, run_script
from transportlab.studies.wired_best_effort.parameters import (
    NS2_TCP_HEADER,
    ROUTERS,
    SCTP_DATA_CHUNK_HEADER,
    node_count,
    node_pairs,
    sample_edges,
)
from transportlab.studies.wired_best_effort.parameters import (
    PARAMETERS as NS3_PARAMETERS,
)

__all__ = ["PARAMETERS", "POINTS", "ns2_problem", "run", "tcl_script"]

POINTS = ["sent", "bottleneck", "dropped", "received"]
TRACE_FILE = "links.tr"
WINDOWS_FILE = "windows.tr"
NS2_SCTP_MTU = 1500  # Agent/SCTP mtu_
NS2_SCTP_HEADERS = 12 + 20  # common header + ipHeaderSize_
TIMEOUT_SECONDS = 1800.0


# ----------------------------------------------------------------------------- parameters


def ns2_problem(values: Mapping[str, Any]) -> str | None:
    """Why NS-2.35 cannot run this point as configured, or None."""
    problems = []
    if values["queue_discipline"] != "droptail":
        problems.append(f"queue_discipline {values['queue_discipline']!r} (NS-2: droptail)")
    if values["pcap_prefix"]:
        problems.append("pcap_prefix (NS-2 writes no pcap)")
    if values["protocol"] == "tcp":
        if (values["tcp_congestion"], values["tcp_recovery"]) != ("TcpTahoe", "TcpTahoeRecovery"):
            problems.append(
                f"{values['tcp_congestion']}/{values['tcp_recovery']} (NS-2's Agent/TCP is "
                "Tahoe: TcpTahoe/TcpTahoeRecovery)"
            )
        for option in ("tcp_sack", "tcp_timestamps", "tcp_window_scaling", "tcp_limited_transmit"):
            if values[option]:
                problems.append(f"{option} (Agent/TCP has none)")
        if values["tcp_delack_count"] != 1:
            problems.append("tcp_delack_count != 1 (TCPSink acknowledges every packet)")
        if not 0 < values["tcp_initial_ssthresh"] <= values["tcp_window"]:
            problems.append(
                "tcp_initial_ssthresh must be 1..tcp_window (Agent/TCP starts ssthresh_ at "
                "window_, or at max_ssthresh_ below it)"
            )
    if values["protocol"] == "sctp":
        if values["stack_preset"] != "ns2":
            problems.append(f"stack_preset {values['stack_preset']!r} (NS-2: ns2)")
        largest = NS2_SCTP_MTU - NS2_SCTP_HEADERS - SCTP_DATA_CHUNK_HEADER
        if values["sctp_message_size"] > largest:
            problems.append(f"sctp_message_size > {largest} (one chunk per 1500-byte packet)")
    if problems:
        return "NS-2.35 cannot run: " + "; ".join(problems)
    return None


PARAMETERS = ParameterSpace(*NS3_PARAMETERS, consistency=[*NS3_PARAMETERS.consistency, ns2_problem])


# ----------------------------------------------------------------------------- the script


def tcl_script(params: Mapping[str, Any], seed: int = 1, run: int = 1) -> str:
    """The NS-2 Tcl of one point and one replication (see the module docstring)."""
    pairs = node_pairs(params)
    sources, sinks = list(pairs["source"]), list(pairs["sink"])
    router0, router1 = ROUTERS
    access = (tcl.bandwidth(params["access_rate_mbps"]), tcl.delay(params["access_delay_ms"]))
    core = (tcl.bandwidth(params["bottleneck_rate_mbps"]), tcl.delay(params["bottleneck_delay_ms"]))
    egress = (tcl.bandwidth(params["egress_rate_mbps"]), tcl.delay(params["egress_delay_ms"]))
    out = [
        "# Wired best-effort dumbbell (seeds 000/004) for NS-2.35, generated by transportlab",
        "# (studies/wired_best_effort/ns2_scenario.py) from the study's parameters;",
        f"# seed {seed}, run {run}.",
        "set ns [new Simulator]",
        tcl.seed_rng(seed, run),
    ]
    # The start times first: what other objects draw from $defaultRNG (Agent/SCTP does)
    # then cannot move them, so a (seed, run) starts the flows alike for every transport.
    jitter = params["start_jitter_ms"] / 1e3
    for row in pairs.itertuples():
        start = tcl.seconds(row.script_start)
        if jitter:
            start = f"[expr {{{start} + [$defaultRNG uniform 0.0 {tcl.seconds(jitter)}]}}]"
        out += [
            f"set start({row.flow}) {start}",
            f'puts "start {row.flow} [format %.17g $start({row.flow})]"',
        ]
    out.append(f"Queue/DropTail set limit_ {params['queue_packets']}")
    if params["protocol"] == "sctp":
        out.append("Trace set show_sctphdr_ 1")
    out += [
        f"for {{set i 0}} {{$i < {node_count(params)}}} {{incr i}} {{ set n($i) [$ns node] }}",
        *[f"$ns duplex-link $n({s}) $n({router0}) {access[0]} {access[1]} DropTail"
          for s in sources],
        f"$ns duplex-link $n({router0}) $n({router1}) {core[0]} {core[1]} DropTail",
        *[f"$ns duplex-link $n({d}) $n({router1}) {egress[0]} {egress[1]} DropTail"
          for d in sinks],
        f"set trace [open {TRACE_FILE} w]",
        *[f"$ns trace-queue $n({s}) $n({router0}) $trace" for s in sources],
        f"$ns trace-queue $n({router0}) $n({router1}) $trace",
        *[f"$ns trace-queue $n({router1}) $n({d}) $trace" for d in sinks],
        f"set windows [open {WINDOWS_FILE} w]",
    ]  # fmt: skip
    for row in pairs.itertuples():
        out += _pair(params, row)
    out += [f'$ns at $start({row.flow}) "$app({row.flow}) start"' for row in pairs.itertuples()]
    out += [
        "proc finish {} {",
        "    global ns trace windows",
        "    $ns flush-trace",
        "    close $trace",
        "    close $windows",
        "    exit 0",
        "}",
        f'$ns at {tcl.seconds(params["duration"])} "finish"',
        "$ns run",
    ]
    return "\n".join(out) + "\n"


def _pair(params: Mapping[str, Any], row) -> list[str]:
    k, src, dst = row.flow, row.source, row.sink
    if row.transport == "tcp":
        agent, sink = "Agent/TCP", "Agent/TCPSink"
        settings = {
            "packetSize_": params["tcp_segment_size"],
            "window_": params["tcp_window"],
            "windowInit_": params["tcp_initial_cwnd"],
            "minrto_": tcl.seconds(params["tcp_min_rto_ms"] / 1e3),
            "rtxcur_init_": tcl.seconds(params["tcp_initial_rto_ms"] / 1e3),
            "tcpTick_": tcl.seconds(params["tcp_clock_granularity_ms"] / 1e3),
        }
        if params["tcp_initial_ssthresh"] < params["tcp_window"]:
            settings["max_ssthresh_"] = params["tcp_initial_ssthresh"]
        sink_settings = {}
    elif row.transport == "sctp":
        agent = sink = "Agent/SCTP"
        settings = {"dataChunkSize_": params["sctp_message_size"] + SCTP_DATA_CHUNK_HEADER}
        sink_settings = {}
    else:
        agent, sink = "Agent/UDP", "Agent/Null"
        settings, sink_settings = {}, {}
    lines = [f"set agent({k}) [new {agent}]"]
    lines += [f"$agent({k}) set {name} {value}" for name, value in settings.items()]
    lines += [f"$ns attach-agent $n({src}) $agent({k})", f"set sink({k}) [new {sink}]"]
    lines += [f"$sink({k}) set {name} {value}" for name, value in sink_settings.items()]
    lines += [f"$ns attach-agent $n({dst}) $sink({k})", f"$ns connect $agent({k}) $sink({k})"]
    if row.application == "ftp":
        lines += [f"set app({k}) [new Application/FTP]", f"$app({k}) attach-agent $agent({k})"]
        lines += [f"$agent({k}) attach $windows", f"$agent({k}) trace cwnd_"]
        if row.transport == "tcp":
            lines.append(f"$agent({k}) trace ssthresh_")
    else:
        lines += [
            f"set app({k}) [new Application/Traffic/CBR]",
            f"$app({k}) attach-agent $agent({k})",
            f"$app({k}) set packetSize_ {params['cbr_packet_size']}",
            f"$app({k}) set rate_ {tcl.bandwidth(params['cbr_rate_mbps'])}",
            f"$app({k}) set random_ 0",
        ]
    return lines


# ----------------------------------------------------------------------------- one run


@ns2_run_step
def run(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """One replication in NS-2: the raw tables of ``scenario.run`` (module docstring)."""
    problem = ns2_problem(params)
    if problem:
        raise ValueError(problem)
    pairs = node_pairs(params)
    wall_start = time.perf_counter()
    script = tcl_script(params, seed, run)
    build_seconds = time.perf_counter() - wall_start
    with run_script(script, timeout=TIMEOUT_SECONDS) as done:
        starts = _start_times(done.stdout, len(pairs))
        lines = _read_links(done.path(TRACE_FILE), pairs)
        windows = _windows(done.path(WINDOWS_FILE), params, pairs)
    packets = _packets(lines, pairs)
    delivered = _deliveries(lines, params, pairs)
    flows = pairs.copy()
    flows["start"] = starts
    totals = delivered.groupby("flow")["bytes"].sum()
    flows["rx_bytes"] = flows["flow"].map(totals).fillna(0).astype(np.int64)
    run_row = {
        "events": np.nan,
        "build_seconds": build_seconds,
        "run_seconds": done.wall_seconds,
        "run_cpu_seconds": done.cpu_seconds,
    }
    return {
        "flows": flows,
        "packets": packets,
        "goodput": _goodput(delivered, params, pairs),
        "queue": _queue(lines),
        "windows": windows,
        "run": pd.DataFrame([run_row]),
    }


_START = re.compile(r"^start (\d+) (\S+)$", re.MULTILINE)


def _start_times(stdout: str, n_flows: int) -> np.ndarray:
    starts = {int(k): float(t) for k, t in _START.findall(stdout)}
    if sorted(starts) != list(range(n_flows)):
        raise RuntimeError(f"NS-2 printed start times for flows {sorted(starts)}")
    return np.array([starts[k] for k in range(n_flows)])


def _read_links(path, pairs: pd.DataFrame) -> pd.DataFrame:
    """The trace lines the tables need: every event on the bottleneck (the queue), and
    the sources' packets where they enter the network, are dropped by a router and
    arrive at their sink."""
    sources = pairs["source"].to_numpy()
    router0, router1 = ROUTERS

    def needed(chunk: pd.DataFrame) -> np.ndarray:
        event = chunk["event"].to_numpy()
        source_packet = np.isin(chunk["src_node"].to_numpy(), sources)
        on_bottleneck = (chunk["from_node"] == router0) & (chunk["to_node"] == router1)
        entering = (event == "+") & (chunk["from_node"] == chunk["src_node"])
        arriving = (event == "r") & (chunk["to_node"] == chunk["dst_node"])
        dropped = (event == "d") & np.isin(chunk["from_node"].to_numpy(), ROUTERS)
        return on_bottleneck.to_numpy() | (source_packet & (entering | arriving | dropped))

    columns = ["event", "time", "from_node", "to_node", "type", "size", "flags",
               "src_node", "dst_node", "seq", "uid", "tsn"]  # fmt: skip
    return traces.read_wired(path, where=needed, columns=columns)


def _packets(lines: pd.DataFrame, pairs: pd.DataFrame) -> pd.DataFrame:
    """One row per packet event (an SCTP packet of several chunks is one line per chunk)."""
    flow_of = pd.Series(pairs["flow"].to_numpy(), index=pairs["source"].to_numpy())
    mine = lines[lines["src_node"].isin(flow_of.index)]
    event = mine["event"].astype(str)
    router0, router1 = ROUTERS
    point = np.select(
        [
            (event == "+") & (mine["from_node"] == mine["src_node"]),
            (event == "-") & (mine["from_node"] == router0) & (mine["to_node"] == router1),
            (event == "d") & mine["from_node"].isin(ROUTERS),
            (event == "r") & (mine["to_node"] == mine["dst_node"]),
        ],
        POINTS,
        default="",
    )
    mine = mine.assign(point=point)[point != ""]
    mine = mine.drop_duplicates(["point", "uid", "time"], keep="first")
    return pd.DataFrame(
        {
            "point": pd.Categorical(mine["point"], categories=POINTS),
            "flow": flow_of.reindex(mine["src_node"]).to_numpy().astype(np.int64),
            "packet": mine["uid"].to_numpy(dtype=np.int64),
            "size": mine["size"].to_numpy(dtype=np.int64),
            "time": mine["time"].to_numpy(dtype=float),
        }
    ).reset_index(drop=True)


def _deliveries(lines: pd.DataFrame, params, pairs: pd.DataFrame) -> pd.DataFrame:
    """When the sink application got each unit of data, and how many bytes.

    TCP segments and SCTP chunks are delivered in order: unit ``i`` (TCP sequence
    number from 1, SCTP TSN from 1) when it and every unit before it have arrived (the
    running maximum of first arrivals); delivery stops at the first unit that never
    arrived. A CBR packet is delivered when it arrives.
    """
    arrivals = lines[(lines["event"] == "r") & (lines["to_node"] == lines["dst_node"])]
    frames = []
    for row in pairs.itertuples():
        mine = arrivals[(arrivals["src_node"] == row.source) & (arrivals["dst_node"] == row.sink)]
        if row.transport == "udp":
            times = mine["time"].to_numpy()
            sizes = mine["size"].to_numpy()
        else:
            if row.transport == "tcp":
                data = mine[mine["size"] > NS2_TCP_HEADER]
                units, unit_bytes = data["seq"], params["tcp_segment_size"]
            else:
                data = mine[mine["flags"].astype(str).str.endswith("D")]
                units, unit_bytes = data["tsn"], params["sctp_message_size"]
            first = data.assign(unit=units).groupby("unit")["time"].min()
            expected = np.arange(1, len(first) + 1)
            received = first.index.to_numpy()
            contiguous = (
                len(received)
                if np.array_equal(received, expected)
                else int(np.argmin(received == expected[: len(received)]))
            )
            times = np.maximum.accumulate(first.to_numpy()[:contiguous])
            sizes = np.full(len(times), unit_bytes, dtype=np.int64)
        frames.append(pd.DataFrame({"flow": row.flow, "time": times, "bytes": sizes}))
    return pd.concat(frames, ignore_index=True)


def _goodput(delivered: pd.DataFrame, params, pairs: pd.DataFrame) -> pd.DataFrame:
    """Bytes delivered per ``sample_interval`` (``(previous edge, edge]``), as the ns-3 run
    samples its sinks' counters."""
    edges = sample_edges(params)
    flows = sorted(pairs["flow"])
    totals = np.zeros((len(flows), len(edges)), dtype=np.int64)
    for i, flow in enumerate(flows):
        mine = delivered[delivered["flow"] == flow]
        slot = np.searchsorted(edges, mine["time"].to_numpy(), side="left")
        inside = slot < len(edges)
        np.add.at(totals[i], slot[inside], mine["bytes"].to_numpy()[inside])
    return pd.DataFrame(
        {
            "flow": np.repeat(flows, len(edges)).astype(np.int64),
            "time": np.tile(edges, len(flows)),
            "bytes": totals.reshape(-1),
        }
    )


def _queue(lines: pd.DataFrame) -> pd.DataFrame:
    """Packets waiting in the bottleneck queue after each change: ``+`` adds one, ``-``
    takes one. NS-2 traces a packet DropTail refuses as ``+`` then ``d`` at the same
    instant: that pair never occupied the queue and is left out."""
    router0, router1 = ROUTERS
    link = lines[(lines["from_node"] == router0) & (lines["to_node"] == router1)]
    link = link.drop_duplicates(["event", "uid", "time"], keep="first")
    event = link["event"].astype(str)
    drops = link[event == "d"][["uid", "time"]]
    refused = link.merge(drops, on=["uid", "time"], how="left", indicator=True)["_merge"]
    link = link[(refused == "left_only").to_numpy()]
    step = link["event"].astype(str).map({"+": 1, "-": -1}).fillna(0).astype(int)
    changes = (step != 0).to_numpy()
    return pd.DataFrame(
        {
            "series": "device",
            "time": link["time"].to_numpy()[changes],
            "value": np.cumsum(step.to_numpy())[changes].astype(float),
        }
    )


_SCTP_WINDOW = re.compile(r"time:\s*(\S+)\s+saddr:\s*(\d+).*?cwnd:\s*(\d+).*?ssthresh:\s*(\d+)")


def _windows(path, params, pairs: pd.DataFrame) -> pd.DataFrame:
    """cwnd and ssthresh of each FTP agent in bytes, series ``<flow>:cwnd``/``:ssthresh``.

    ``Agent/TCP`` traces ``time saddr sport daddr dport cwnd_|ssthresh_ value`` in
    packets (times ``packetSize_``); ``Agent/SCTP`` traces ``time: t saddr: s ...
    cwnd: c ... ssthresh: x ...`` in bytes.
    """
    flow_of = dict(zip(pairs["source"], pairs["flow"], strict=True))
    segment = params["tcp_segment_size"]
    rows = []
    # Agent/SCTP prints uninitialised bytes in some fields: decode leniently.
    with open(path, errors="replace") as stream:
        for line in stream:
            fields = line.split()
            if not fields:
                continue
            if fields[0] == "time:":
                match = _SCTP_WINDOW.search(line)
                if match:
                    t, source, cwnd, ssthresh = match.groups()
                    flow = flow_of.get(int(source))
                    rows.append((f"{flow}:cwnd", float(t), float(cwnd)))
                    rows.append((f"{flow}:ssthresh", float(t), float(ssthresh)))
            elif len(fields) == 7 and fields[5] in ("cwnd_", "ssthresh_"):
                flow = flow_of.get(int(fields[1]))
                name = fields[5].rstrip("_")
                rows.append((f"{flow}:{name}", float(fields[0]), float(fields[6]) * segment))
    return pd.DataFrame(rows, columns=["series", "time", "value"])
