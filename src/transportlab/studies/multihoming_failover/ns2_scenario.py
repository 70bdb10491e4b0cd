"""Brennan et al.'s transfer under loss (seed 002 section 3.5) in NS-2.35 itself: Tcl
generated from the study's ``lossy`` parameters, run, and its trace parsed into the raw
tables of ``scenario.run``.

The ns-3 scenario (``topology.multihomed.two_networks``): hosts A and B joined by two
independent point-to-point links (``rate_mbps``, ``delay_ms``, DropTail of 100
packets, 1500-byte MTU); an FTP-like bulk transfer of 1452-byte messages from A to B
starts at ``START``; from ``LOSS_START`` on, network 0 loses ``loss_rate`` of the
packets in each direction; single-homed, both ends use network 0 only, multi-homed
both addresses of both hosts (network 1 stays loss-free).

NS-2 has no node with several interfaces: its SCTP builds a multi-homed host from a
*core* node and one *interface* node per address (``$ns multihome-add-interface``,
``$ns multihome-attach-agent``; the core only makes the routing decision, packets
leave and arrive at the interface nodes). Here: cores A = node 0 and B = node 1,
interfaces A0, A1, B0, B1 = nodes 2-5, ``duplex-link`` A0-B0 and A1-B1, the sender's
primary destination B0 (``set-primary-destination``). Single-homed: plain nodes A = 0
and B = 1 and the one link. The loss is NS-2's ``ErrorModel`` (packet unit, uniform,
``$defaultRNG``) placed at the end of each direction of network 0
(``$ns link-lossmodel``: after the link, before the receiving node, as ns-3's
``ReceiveErrorModel``), switched on (``enable_``) at ``LOSS_START``. The sender is
``Agent/SCTP`` fed by ``Application/FTP`` (an infinite source: ``dataChunkSize_``
1468 = 1452-byte messages), with the study's timers written out (``initialRto_``,
``minRto_``, ``maxRto_``, ``pathMaxRetrans_``, ``associationMaxRetrans_``,
``heartbeatInterval_``, ``rtxToAlt_``) and the ns-3 model's values where NS-2's
defaults differ (``initialRwnd_`` and ``initialSsthresh_`` 131072: ns-3's receive
buffer and its peer-rwnd initial ssthresh). Replications seed ``$defaultRNG``
(:func:`transportlab.ns2.tcl.seed_rng`).

Raw tables (as ``scenario.run`` for ``lossy``): ``chunks`` (every DATA chunk A sent:
``+`` on A's links; ``path`` = network; ``retransmission`` = the TSN was sent before),
``paths`` (empty: NS-2 traces no path events), ``delivered`` (messages B can hand to
the application: in TSN order, from the first arrival of each TSN at B; node 1,
socket 1, stream 0, SSN = TSN - 1), ``losses`` (every packet the error models dropped:
a ``d`` on network 0 after the packet left the queue; ``lost_to_b`` from A, i.e. DATA,
``lost_to_a`` from B, i.e. SACKs). TSNs start at 1 (ns-3: a random initial TSN).

What NS-2 cannot express, or this generator does not write (the failover and PR-SCTP
scenarios, SCTP-PF, the stack presets), is rejected by :data:`PARAMETERS`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine.params import ParameterSpace
from transportlab.ns2 import tcl, traces
from transportlab.ns2.runner import ns2_run_step, run_script
from transportlab.studies.multihoming_failover.parameters import (
    LOSS_START,
    START,
)
from transportlab.studies.multihoming_failover.parameters import (
    PARAMETERS as NS3_PARAMETERS,
)

__all__ = ["PARAMETERS", "ns2_problem", "run", "tcl_script"]

TRACE_FILE = "links.tr"
#: topology.multihomed.two_networks: its queues and MTU.
QUEUE_PACKETS = 100
MTU_BYTES = 1500
MESSAGE_BYTES = 1452  # BulkSend's SendSize in the ns-3 run; NS-2's dataChunkSize_ 1468 - 16
SCTP_DATA_CHUNK_HEADER = 16
#: ns-3's SctpSocket RcvBufSize (the a_rwnd) and its initial ssthresh (the peer's a_rwnd).
RECEIVE_WINDOW_BYTES = 131072
RTX_TO_ALT = {"SAME": 0, "ALTERNATE": 1, "TIMEOUT_ALTERNATE": 2}
#: Node ids: the hosts (cores when multi-homed), then the interface nodes A0, A1, B0, B1.
A, B = 0, 1
INTERFACES = {"multi": {"a": (2, 3), "b": (4, 5)}, "single": {"a": (A,), "b": (B,)}}
TIMEOUT_SECONDS = 600.0


# ----------------------------------------------------------------------------- parameters


def ns2_problem(values: Mapping[str, Any]) -> str | None:
    """Why this generator cannot run the point in NS-2.35 as configured, or None."""
    problems = []
    if values["scenario"] != "lossy":
        problems.append(
            f"scenario {values['scenario']!r} (not generated: only 'lossy', seed 002 "
            "section 3.5, has published numbers)"
        )
    if values["pf_max_retrans"] < values["path_max_retrans"]:
        problems.append(
            "SCTP-PF (pf_max_retrans < path_max_retrans): Agent/SCTP has no "
            "potentially-failed state (NS-2.35's PF belongs to its CMT agent)"
        )
    if values["stack_preset"] != "none":
        problems.append(f"stack_preset {values['stack_preset']!r} (not generated: set the timers)")
    if values["hb_interval"] != int(values["hb_interval"]):
        problems.append("hb_interval must be whole seconds (heartbeatInterval_ is an integer)")
    if problems:
        return "NS-2.35 cannot run: " + "; ".join(problems)
    return None


#: The study's parameters, defaulting to the one scenario NS-2 runs here (``lossy``).
PARAMETERS = ParameterSpace(
    *(
        dataclasses.replace(param, default="lossy") if param.name == "scenario" else param
        for param in NS3_PARAMETERS
    ),
    consistency=[*NS3_PARAMETERS.consistency, ns2_problem],
)


# ----------------------------------------------------------------------------- the script


def links(params: Mapping[str, Any]) -> list[tuple[int, int, int]]:
    """The traced simplex links as (from node, to node, network): A -> B and B -> A of
    each network."""
    ends = INTERFACES[params["homing"]]
    out = []
    for k, (a, b) in enumerate(zip(ends["a"], ends["b"], strict=True)):
        out += [(a, b, k), (b, a, k)]
    return out


def tcl_script(params: Mapping[str, Any], seed: int = 1, run: int = 1) -> str:
    """The NS-2 Tcl of one ``lossy`` point and one replication (module docstring)."""
    problem = ns2_problem(params)
    if problem:
        raise ValueError(problem)
    multi = params["homing"] == "multi"
    ends = INTERFACES[params["homing"]]
    rate, delay = tcl.bandwidth(params["rate_mbps"]), tcl.delay(params["delay_ms"])
    n_nodes = 6 if multi else 2
    out = [
        "# Brennan et al.'s transfer under loss (seed 002 section 3.5) for NS-2.35,",
        "# generated by transportlab (studies/multihoming_failover/ns2_scenario.py) from the",
        f"# study's parameters; {params['homing']}-homed, seed {seed}, run {run}.",
        "set ns [new Simulator]",
        tcl.seed_rng(seed, run),
        f"Queue/DropTail set limit_ {QUEUE_PACKETS}",
        "Trace set show_sctphdr_ 1",
        f"for {{set i 0}} {{$i < {n_nodes}}} {{incr i}} {{ set n($i) [$ns node] }}",
    ]
    if multi:
        out += [f"$ns multihome-add-interface $n({A}) $n({i})" for i in ends["a"]]
        out += [f"$ns multihome-add-interface $n({B}) $n({i})" for i in ends["b"]]
    for a, b in zip(ends["a"], ends["b"], strict=True):
        out.append(f"$ns duplex-link $n({a}) $n({b}) {rate} {delay} DropTail")
    lossy = [(ends["a"][0], ends["b"][0]), (ends["b"][0], ends["a"][0])]
    for index, (a, b) in enumerate(lossy):
        out += [
            f"set loss({index}) [new ErrorModel]",
            f"$loss({index}) unit pkt",
            f"$loss({index}) set rate_ {tcl.number(float(params['loss_rate']))}",
            f"$loss({index}) set enable_ 0",
            f"$ns link-lossmodel $loss({index}) $n({a}) $n({b})",
            f'$ns at {tcl.seconds(LOSS_START)} "$loss({index}) set enable_ 1"',
        ]
    out.append(f"set trace [open {TRACE_FILE} w]")
    out += [f"$ns trace-queue $n({a}) $n({b}) $trace" for a, b, _ in links(params)]
    settings = {
        "mtu_": MTU_BYTES,
        "dataChunkSize_": MESSAGE_BYTES + SCTP_DATA_CHUNK_HEADER,
        "initialRwnd_": RECEIVE_WINDOW_BYTES,
        "initialSsthresh_": RECEIVE_WINDOW_BYTES,
        "initialRto_": tcl.seconds(params["rto_initial"]),
        "minRto_": tcl.seconds(params["rto_min"]),
        "maxRto_": tcl.seconds(params["rto_max"]),
        "pathMaxRetrans_": params["path_max_retrans"],
        "associationMaxRetrans_": params["assoc_max_retrans"],
        "heartbeatInterval_": int(params["hb_interval"]),
        "rtxToAlt_": RTX_TO_ALT[params["rtx_to_alt"]],
    }
    attach = "multihome-attach-agent" if multi else "attach-agent"
    for name, node in (("sender", A), ("receiver", B)):
        out.append(f"set {name} [new Agent/SCTP]")
        out += [f"${name} set {key} {value}" for key, value in settings.items()]
        out.append(f"$ns {attach} $n({node}) ${name}")
    out.append("$ns connect $sender $receiver")
    if multi:
        out.append(f"$sender set-primary-destination $n({ends['b'][0]})")
    out += [
        "set ftp [new Application/FTP]",
        "$ftp attach-agent $sender",
        f'$ns at {tcl.seconds(START)} "$ftp start"',
        f'$ns at {tcl.seconds(params["duration"])} "$ftp stop"',
        "proc finish {} {",
        "    global ns trace",
        "    $ns flush-trace",
        "    close $trace",
        "    exit 0",
        "}",
        f'$ns at {tcl.seconds(params["duration"])} "finish"',
        "$ns run",
    ]
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------------------- one run


@ns2_run_step
def run(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """One ``lossy`` replication in NS-2: the raw tables of ``scenario.run``."""
    script = tcl_script(params, seed, run)
    columns = ["event", "time", "from_node", "to_node", "size", "flags", "uid", "tsn"]
    with run_script(script, timeout=TIMEOUT_SECONDS) as done:
        lines = traces.read_wired(done.path(TRACE_FILE), columns=columns)
    network = {(a, b): k for a, b, k in links(params)}
    lines = lines.assign(
        network=[
            network.get(pair, -1) for pair in zip(lines["from_node"], lines["to_node"], strict=True)
        ],  # fmt: skip
        chunk=lines["flags"].astype(str).str[-1],
    )
    ends = INTERFACES[params["homing"]]
    return {
        "chunks": _chunks(lines, ends),
        "paths": pd.DataFrame(
            {
                "time": pd.Series(dtype=float),
                "node": pd.Series(dtype=np.int64),
                "socket": pd.Series(dtype=np.int64),
                "path": pd.Series(dtype=np.int64),
                "event": pd.Series(dtype=object),
            }
        ),  # fmt: skip
        "delivered": _delivered(lines, ends, params["duration"]),
        "losses": _losses(lines, ends),
    }


def _chunks(lines: pd.DataFrame, ends: Mapping[str, tuple]) -> pd.DataFrame:
    """Every DATA chunk A sent, in order: where it entered a link from A."""
    event = lines["event"].astype(str)
    sent = lines[(event == "+") & lines["from_node"].isin(ends["a"]) & (lines["chunk"] == "D")]
    tsn = sent["tsn"].to_numpy(dtype=np.int64)
    return pd.DataFrame(
        {
            "time": sent["time"].to_numpy(dtype=float),
            "node": np.zeros(len(sent), dtype=np.int64),
            "socket": np.zeros(len(sent), dtype=np.int64),
            "chunk": np.array(["DATA"] * len(sent), dtype=object),
            "tsn": tsn,
            "path": sent["network"].to_numpy(dtype=np.int64),
            "retransmission": pd.Series(tsn).duplicated().to_numpy(),
        }
    )


def _delivered(lines: pd.DataFrame, ends: Mapping[str, tuple], stop: float) -> pd.DataFrame:
    """Messages B hands to the application: TSN n when it and every TSN before it have
    arrived (ordered delivery on one stream), from the first arrival of each TSN."""
    event = lines["event"].astype(str)
    arrived = lines[(event == "r") & lines["to_node"].isin(ends["b"]) & (lines["chunk"] == "D")]
    arrived = arrived[arrived["time"] <= stop]
    first = arrived.groupby("tsn")["time"].min()
    tsns = first.index.to_numpy(dtype=np.int64)
    contiguous = np.arange(1, len(tsns) + 1)
    whole = (
        int(np.argmin(tsns == contiguous)) if not np.array_equal(tsns, contiguous) else len(tsns)
    )
    times = np.maximum.accumulate(first.to_numpy()[:whole])
    tsns = tsns[:whole]
    return pd.DataFrame(
        {
            "time": times,
            "node": np.ones(whole, dtype=np.int64),
            "socket": np.ones(whole, dtype=np.int64),
            "tsn": tsns,
            "stream": np.zeros(whole, dtype=np.int64),
            "ssn": tsns - 1,
            "size": np.full(whole, MESSAGE_BYTES, dtype=np.int64),
        }
    )


def _losses(lines: pd.DataFrame, ends: Mapping[str, tuple]) -> pd.DataFrame:
    """The packets the error models dropped: on network 0, a ``d`` of a packet that had
    left the queue (``-``) on that link (a ``d`` without one is a full queue's)."""
    net0 = lines[lines["network"] == 0].drop_duplicates(["event", "uid", "from_node"])
    event = net0["event"].astype(str)
    left = set(zip(net0["uid"][event == "-"], net0["from_node"][event == "-"], strict=True))
    drops = net0[event == "d"]
    lost = drops[[pair in left for pair in zip(drops["uid"], drops["from_node"], strict=True)]]
    toward_b = lost["from_node"].isin(ends["a"]).to_numpy()
    return pd.DataFrame(
        {
            "time": lost["time"].to_numpy(dtype=float),
            "point": np.where(toward_b, "lost_to_b", "lost_to_a").astype(object),
            "size": lost["size"].to_numpy(dtype=np.int64),
        }
    )
