"""The sensor field of seed 003 in NS-2.35 itself: Tcl generated from the study's
parameters, run, and its trace parsed into the raw tables of ``scenario.run``.

The script is ours, written from the parameters (never a seed's script: seed 003 prints
none). It builds Table 1 with NS-2's own defaults, every value written out:

* 56 mobile nodes on an 800 m x 400 m flat grid, at **the positions of the ns-3 run**
  (``network.positions(params, seed, run)``: a placement means the same in both
  simulators, and the declared ``field`` placement gives every replication its own field);
* ``Phy/WirelessPhy``: ``freq_`` 2.4 GHz (Table 1), ``RXThresh_`` and ``CSThresh_`` from
  the parameters (Table 1 and NS-2's default), ``CPThresh_`` 10, ``L_`` 1; each node's
  ``Pt_`` the power that puts RXThresh at its range (150 m for the sink and nodes 1-7,
  60 m for the others: ``network.tx_power_for_range_w``, as NS-2's ``threshold.cc``);
  ``Antenna/OmniAntenna`` 1.5 m high, unit gains; ``Propagation/TwoRayGround``;
* ``Mac/802_11`` at NS-2.35's ``dataRate_`` and ``basicRate_`` 1Mb, ``RTSThreshold_`` 0
  (RTS/CTS for every unicast frame), its retry limits (``ShortRetryLimit_`` 7,
  ``LongRetryLimit_`` 4);
* ``LL``, ``Queue/DropTail/PriQueue`` of ``queue_packets`` with ``Prefer_Routing_Protocols``
  1 (routing packets to the head of the interface queue), AODV;
* NS-2's ``EnergyModel`` with WirelessPhy's default draws written out (tx 0.660 W, rx
  0.395 W, idle and sleep 0: ``parameters.NS2_ENERGY``) and an initial energy no run can
  exhaust;
* per reporting sensor an ``Application/Traffic/CBR`` (``packetSize_`` = ``packet_size``,
  ``interval_`` = the effective interval, ``random_`` 0) on ``Agent/UDP`` -> ``Agent/Null``,
  ``Agent/TCP`` -> ``Agent/TCPSink`` (NS-2's defaults written out: ``packetSize_`` 1000,
  ``window_`` 20, ``windowInit_`` 2, ``rtxcur_init_`` 3 s, ``minrto_`` 0.2 s, ``tcpTick_``
  0.01 s) or ``Agent/SCTP`` -> ``Agent/SCTP`` (NS-2.35's defaults), at the sink node 0,
  started at **the ns-3 run's start times** (``network.start_times``) and stopped at
  ``duration``;
* **replications**: ``$defaultRNG`` (MAC backoff, AODV jitter) seeded with ``seed`` and
  moved to substream ``run - 1`` (:func:`transportlab.ns2.tcl.seed_rng`); the field and
  the start times are the replication's own, drawn outside both simulators.

Tracing: the new trace format, agent, router and MAC levels, no movement and no energy
lines (each node's ``log-target`` is a trace object attached to no file: NS-2 would write
one line per reception), no nam. Only the lines the tables need are parsed (sends,
forwards and drops at every level, receptions at the agents). At the end the script
prints each node's remaining energy.

What NS-2 cannot express is rejected by :data:`PARAMETERS` before anything runs
(:func:`ns2_problem`): ``stack_preset`` ``modern`` (NS-2's agents only), and the ns-3
settings that switch off one of NS-2's own models, which NS-2 always runs: its
``Mac802_11`` collision rule with the lock on undecodable frames (``reception_model``
``ns2_lock`` only), its retry counts (``retry_model`` ``ns2``), its ``WirelessChannel``
culling (``carrier_sense_culling`` ``ns2``). NS-2's ARP is its own, neither of
``arp_model``'s readings: both are accepted and change nothing here. ``ns2_prefer_routing``
(NS-2 only) turns PriQueue's routing priority off, for the experiment that shows what that
model difference (ns-3's wifi MAC queue has none) changes.

Raw tables, with the columns and units of ``scenario.run``:

* ``packets`` (application level): every CBR write (``sent``: ``start + k interval``
  before ``duration``, as NS-2's CBR with ``random_`` 0) and every report delivered to
  the sink (``received``): UDP when its packet reaches the sink's agent (CBR sequence
  number), TCP and SCTP in order (segment ``k + 1`` after the SYN, TSN ``k + 1``: report
  ``k`` when it and every one before it have arrived);
* ``agent``: the ``AGT`` send and receive lines of data to and from the sink: ``ip_id``
  is NS-2's packet uid (a retransmission is a new packet, as a new IP datagram in ns-3);
  ``size`` the transport bytes ns-3 would count (TCP segment: NS-2's size minus the
  20-byte IP header; UDP: the payload plus ns-3's 8-byte header; SCTP: NS-2's size minus
  ``ipHeaderSize_``), ``payload`` the application bytes, ``chunk_type`` the SCTP chunk
  (DATA 0, INIT family 1, SACK 3, HEARTBEAT 4/5, FORWARD-TSN 192): with these,
  ``analysis.agent_metrics`` counts the bytes NS-2's ``r AGT`` lines show (AODV's IP
  header included: :data:`NS2_AODV_IP_HEADER`);
* ``counts`` (node, source, packet class, reason, count): ``wifi-phy-tx`` every frame a
  MAC sent (``s MAC``, retries included), ``wifi-mac-tx`` every packet the routing layer
  handed to the interface (``s``/``f RTR``) and every ARP frame, and the ``d`` lines:
  ``wifi-phy-rx-drop`` for the MAC's receive-side drops (``COL`` collisions, ``DUP``,
  ``ERR``, ``BSY``...), ``wifi-mac-drop`` for ``RET`` (retry limit) and a full interface
  queue, ``arp-drop`` for ``IFQ ARP``, ``ipv4-drop`` for the router's (``TTL``, ``CBK``,
  ``NRTE``...); ``reason`` is NS-2's reason as :data:`NS2_DROP_REASON_CODES` numbers it
  (from 1000, never one of ns-3's);
* ``states`` (seconds per radio state): ``tx`` the air time of the frames the node sent
  (NS-2's ``Mac802_11::txtime``: 192 us of PLCP preamble and header at 1 Mb/s plus the
  rest of the frame at its rate), ``rx`` the rest of the energy NS-2's model charged, at
  its receive power, ``idle`` the remainder: so the study's ``ns2`` energy model gives
  back NS-2's own energy exactly, and other powers apply to NS-2's charged times (a
  transmission NS-2 charges only past an ongoing reception counts fully as tx here);
* ``energy`` (empty: ns-3's energy models are a cross-check of the ns-3 run only) and
  ``performance`` (``events`` NaN: NS-2 does not count them; ``ns2_collisions`` the
  ``COL`` drop lines; ``ns2_culling_distance_m`` the carrier-sense culling distance NS-2
  fixed from the first transmitting node, printed as ``distCST_``; wall and CPU time).
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine.params import Param, ParameterSpace
from transportlab.ns2 import tcl, traces
from transportlab.ns2.runner import ns2_run_step, run_script
from transportlab.ns3 import ns2_tcp
from transportlab.studies.wsn_reporting_interval.network import (
    node_ranges,
    positions,
    start_times,
    tx_power_for_range_w,
)
from transportlab.studies.wsn_reporting_interval.parameters import (
    ANTENNA_HEIGHT_M,
    FIELD_X_M,
    FIELD_Y_M,
    N_NODES,
    NS2_CAPTURE_THRESHOLD_DB,
    NS2_ENERGY,
    SINK,
    effective_interval_s,
    sources,
)
from transportlab.studies.wsn_reporting_interval.parameters import (
    PARAMETERS as NS3_PARAMETERS,
)

__all__ = [
    "NS2_DROP_REASON_CODES",
    "PARAMETERS",
    "TABLES",
    "frame_airtime_s",
    "ns2_problem",
    "run",
    "tables_from_trace",
    "tcl_script",
]

TRACE_FILE = "wsn.tr"
TIMEOUT_SECONDS = 3600.0
#: joules each node starts with: more than any run spends, so no node ever runs out
INITIAL_ENERGY_J = 1.0e6
#: NS-2.35's Mac/802_11 (tcl/lan/ns-mac.tcl, mac-802_11.h) as the script writes it
NS2_MAC = {
    "dataRate_": 1e6,
    "basicRate_": 1e6,
    "RTSThreshold_": 0,
    "ShortRetryLimit_": 7,
    "LongRetryLimit_": 4,
}
#: Mac802_11::txtime: the PLCP preamble and header (144 + 48 bits, 24 "bytes" of every
#: frame's size) at PLCPDataRate 1 Mb/s, then the rest of the frame at its rate
PLCP_BYTES = 24
PLCP_S = 192e-6
#: sizes NS-2 gives frames: getHdrLen11 (PLCP 24 + MAC header 30 + FCS 4) added to an IP
#: or ARP packet, the RTS (24 + 20) and the CTS and ACK (24 + 14), ARP_HDR_LEN 28
MAC_DATA_OVERHEAD_BYTES = 58
RTS_FRAME_BYTES = 44
CTS_ACK_FRAME_BYTES = 38
ARP_BYTES = 28
#: the 20-byte IP header AODV::recv adds to every packet a node originates that is not
#: TCP (TCP's 40-byte header already holds one): UDP reports and SCTP packets arrive
#: 20 bytes larger than they were sent
NS2_AODV_IP_HEADER = 20
NS2_SCTP_IP_HEADER = 20  # Agent/SCTP ipHeaderSize_: counted in the packet it sends
NS2_TCP_IP_HEADER = 20  # of Agent/TCP's tcpip_base_hdr_size_ 40
NS3_UDP_HEADER = 8  # what ns-3's UDP adds and NS-2's Agent/UDP does not
SCTP_CHUNK_TYPES = {"D": 0, "I": 1, "S": 3, "H": 4, "B": 5, "R": 192}
#: NS-2's drop reasons (cmu-trace.h) as numbers in the ``reason`` column of ``counts``
NS2_DROP_REASON_CODES = {
    "COL": 1001, "DUP": 1002, "ERR": 1003, "RET": 1004, "STA": 1005, "BSY": 1006,
    "DST": 1007, "SLP": 1008, "IFQ": 1010, "ARP": 1011, "FIL": 1012, "TOUT": 1013,
    "NRTE": 1020, "LOOP": 1021, "TTL": 1022, "CBK": 1023, "SAL": 1024, "OUT": 1025,
    "END": 1030,
}  # fmt: skip
UNKNOWN_DROP_REASON = 1999
TABLES = ("packets", "counts", "energy", "states", "agent", "performance")


# ----------------------------------------------------------------------------- parameters


def ns2_problem(values: Mapping[str, Any]) -> str | None:
    """Why NS-2.35 cannot run this point as configured, or None.

    NS-2 runs its own models: its ``Mac802_11`` always applies the 10-dB collision rule,
    locks on undecodable frames and counts retries as ``retry_model`` ``ns2``; its
    ``WirelessChannel`` always culls (``carrier_sense_culling`` ``ns2``). The ns-3
    settings that switch one of those off have no NS-2 counterpart. NS-2's ARP is its own
    (neither of ``arp_model``'s readings): both are accepted and change nothing here.
    """
    problems = []
    if values["stack_preset"] != "ns2":
        problems.append(
            f"stack_preset {values['stack_preset']!r} (NS-2's Agent/TCP and Agent/SCTP "
            "with their defaults: ns2)"
        )
    if values["reception_model"] != "ns2_lock":
        problems.append(
            f"reception_model {values['reception_model']!r} (NS-2's Mac802_11 applies its "
            "collision rule and locks on undecodable frames: ns2_lock)"
        )
    if values["retry_model"] != "ns2":
        problems.append(f"retry_model {values['retry_model']!r} (Mac802_11's counts: ns2)")
    if values["carrier_sense_culling"] != "ns2":
        problems.append(
            f"carrier_sense_culling {values['carrier_sense_culling']!r} (WirelessChannel "
            "always culls: ns2)"
        )
    if problems:
        return "NS-2.35 cannot run: " + "; ".join(problems)
    return None


#: NS-2-only settings (no ns-3 counterpart), for the experiments that show a model
#: difference in NS-2 itself
NS2_ONLY = (
    Param(
        "ns2_prefer_routing",
        True,
        bool,
        "Queue/DropTail/PriQueue Prefer_Routing_Protocols: routing packets to the head of "
        "the interface queue (NS-2's default); false: one FIFO, as ns-3's wifi MAC queue",
    ),
)

PARAMETERS = ParameterSpace(
    *NS3_PARAMETERS.params.values(),
    *NS2_ONLY,
    consistency=[*NS3_PARAMETERS.consistency, ns2_problem],
)


# ----------------------------------------------------------------------------- the script


def _agents(protocol: str) -> tuple[str, str, dict[str, Any]]:
    """Sender class, sink class and the sender's settings (NS-2's defaults written out)."""
    if protocol == "udp":
        return "Agent/UDP", "Agent/Null", {}
    if protocol == "tcp":
        return (
            "Agent/TCP",
            "Agent/TCPSink",
            {
                "packetSize_": ns2_tcp.PACKET_SIZE,
                "window_": ns2_tcp.WINDOW,
                "windowInit_": ns2_tcp.WINDOW_INIT,
                "rtxcur_init_": tcl.seconds(ns2_tcp.INITIAL_RTO_S),
                "minrto_": tcl.seconds(ns2_tcp.MIN_RTO_S),
                "tcpTick_": tcl.seconds(ns2_tcp.TICK_S),
            },
        )
    return "Agent/SCTP", "Agent/SCTP", {}


def tcl_script(params: Mapping[str, Any], seed: int = 1, run: int = 1) -> str:
    """The NS-2 Tcl of one point and one replication (see the module docstring)."""
    frequency = params["frequency_hz"]
    rx_threshold = params["rx_threshold_w"]
    where = positions(params, seed, run)
    starts = start_times(params, seed, run)
    energy = NS2_ENERGY
    out = [
        "# Sensor field of seed 003 for NS-2.35, generated by transportlab",
        "# (studies/wsn_reporting_interval/ns2_scenario.py) from the study's parameters;",
        f"# seed {seed}, run {run}.",
        "set ns [new Simulator]",
        tcl.seed_rng(seed, run),
        "$ns use-newtrace",
        f"set trace [open {TRACE_FILE} w]",
        "$ns trace-all $trace",
        "set topo [new Topography]",
        f"$topo load_flatgrid {tcl.number(FIELD_X_M)} {tcl.number(FIELD_Y_M)}",
        f"create-god {N_NODES}",
        f"Phy/WirelessPhy set freq_ {tcl.number(float(frequency))}",
        f"Phy/WirelessPhy set RXThresh_ {tcl.number(float(rx_threshold))}",
        f"Phy/WirelessPhy set CSThresh_ {tcl.number(float(params['cs_threshold_w']))}",
        f"Phy/WirelessPhy set CPThresh_ {tcl.number(10 ** (NS2_CAPTURE_THRESHOLD_DB / 10))}",
        "Phy/WirelessPhy set L_ 1.0",
        f"Antenna/OmniAntenna set Z_ {tcl.number(ANTENNA_HEIGHT_M)}",
        "Antenna/OmniAntenna set Gt_ 1.0",
        "Antenna/OmniAntenna set Gr_ 1.0",
        f"Mac/802_11 set dataRate_ {tcl.bandwidth(NS2_MAC['dataRate_'] / 1e6)}",
        f"Mac/802_11 set basicRate_ {tcl.bandwidth(NS2_MAC['basicRate_'] / 1e6)}",
        *[f"Mac/802_11 set {name} {NS2_MAC[name]}"
          for name in ("RTSThreshold_", "ShortRetryLimit_", "LongRetryLimit_")],
        "Queue/DropTail/PriQueue set Prefer_Routing_Protocols "
        f"{int(params.get('ns2_prefer_routing', True))}",
        "set channel [new Channel/WirelessChannel]",
        "$ns node-config -adhocRouting AODV -llType LL -macType Mac/802_11 \\",
        f"    -ifqType Queue/DropTail/PriQueue -ifqLen {params['queue_packets']} \\",
        "    -antType Antenna/OmniAntenna -propType Propagation/TwoRayGround \\",
        "    -phyType Phy/WirelessPhy -channel $channel -topoInstance $topo \\",
        "    -agentTrace ON -routerTrace ON -macTrace ON -movementTrace OFF \\",
        f"    -energyModel EnergyModel -initialEnergy {tcl.number(INITIAL_ENERGY_J)} \\",
        f"    -txPower {tcl.number(energy['tx_power_w'])} "
        f"-rxPower {tcl.number(energy['rx_power_w'])} \\",
        f"    -idlePower {tcl.number(energy['idle_power_w'])} "
        f"-sleepPower {tcl.number(energy['sleep_power_w'])}",
        "# energy lines (one per reception) go to a trace attached to no file",
        "set quiet [new Trace/Generic]",
    ]  # fmt: skip
    ranges = node_ranges(params)
    for node, (x, y) in enumerate(where):
        power = tx_power_for_range_w(ranges[node], rx_threshold, frequency)
        out += [
            f"set n({node}) [$ns node]",
            f"$n({node}) log-target $quiet",
            f"$n({node}) set X_ {tcl.number(float(x))}",
            f"$n({node}) set Y_ {tcl.number(float(y))}",
            f"$n({node}) set Z_ 0.0",
            f"[$n({node}) set netif_(0)] set Pt_ {tcl.number(power)}",
        ]
    sender, receiver, settings = _agents(params["protocol"])
    interval = tcl.seconds(effective_interval_s(params))
    for node in sources(params):
        out += [
            f"set agent({node}) [new {sender}]",
            *[f"$agent({node}) set {name} {value}" for name, value in settings.items()],
            f"$ns attach-agent $n({node}) $agent({node})",
            f"set sink({node}) [new {receiver}]",
            f"$ns attach-agent $n({SINK}) $sink({node})",
            f"$ns connect $agent({node}) $sink({node})",
            f"set cbr({node}) [new Application/Traffic/CBR]",
            f"$cbr({node}) set packetSize_ {params['packet_size']}",
            f"$cbr({node}) set interval_ {interval}",
            f"$cbr({node}) set random_ 0",
            f"$cbr({node}) attach-agent $agent({node})",
            f'$ns at {tcl.seconds(starts[node])} "$cbr({node}) start"',
            f'$ns at {tcl.seconds(params["duration"])} "$cbr({node}) stop"',
        ]
    out += [
        "proc finish {} {",
        "    global ns trace n",
        "    $ns flush-trace",
        "    close $trace",
        f"    for {{set i 0}} {{$i < {N_NODES}}} {{incr i}} {{",
        '        puts "energy $i [$n($i) energy]"',
        "    }",
        "    exit 0",
        "}",
        f'$ns at {tcl.seconds(params["duration"])} "finish"',
        "$ns run",
    ]
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------------------- the trace

#: new-trace keys read (``-Ma`` MAC duration, ``-Md``/``-Ms`` MAC receiver and sender
#: addresses in hex, ``-P`` the ARP/AODV tag, ``-Pi`` CBR sequence, ``-Ps`` TCP sequence,
#: ``-Pct``/``-Ptsn``/``-Pnc`` SCTP chunk type, TSN and chunks of the packet)
TRACE_FIELDS = {
    "t": "time", "Ni": "node", "Nl": "level", "Nw": "reason", "It": "type", "Il": "size",
    "Ii": "uid", "Is": "src", "Id": "dst", "Ma": "duration", "Md": "mac_dst",
    "Ms": "mac_src", "P": "tag", "Pi": "cbr_seq", "Ps": "seq", "Pct": "chunk",
    "Ptsn": "tsn", "Pnc": "chunks",
}  # fmt: skip


def _wanted_lines(stream) -> io.StringIO:
    """The lines the tables need: every send, forward and drop, receptions at agents only
    (a broadcast's receptions at every neighbour's MAC and router are most of a trace)."""
    kept = io.StringIO()
    for line in stream:
        event = line[:1]
        if event in ("s", "f", "d") or (event == "r" and "-Nl AGT" in line):
            kept.write(line)
    kept.seek(0)
    return kept


def read_trace(source) -> pd.DataFrame:
    """The wanted lines of a trace (path or text stream) as a typed DataFrame."""
    if isinstance(source, str | Path):
        with open(source) as stream:
            kept = _wanted_lines(stream)
    else:
        kept = _wanted_lines(source)
    lines = traces.read_wireless(kept, fields=TRACE_FIELDS)
    for column in ("event", "level", "reason", "type"):
        if column in lines:
            lines[column] = lines[column].astype(str)
    return lines


def frame_airtime_s(
    size_bytes: np.ndarray | float, rate_bps: np.ndarray | float
) -> np.ndarray | float:
    """NS-2's ``Mac802_11::txtime(psz, drt)``: PLCP preamble and header at 1 Mb/s, the rest
    of the frame (``psz`` counts the 24 PLCP bytes) at ``drt``."""
    return PLCP_S + (np.asarray(size_bytes) - PLCP_BYTES) * 8 / np.asarray(rate_bps)


def _hex(values: pd.Series) -> np.ndarray:
    return np.array([int(v, 16) if isinstance(v, str) else -1 for v in values], dtype=np.int64)


def _mac_frames(lines: pd.DataFrame) -> pd.DataFrame:
    """Every frame a MAC sent (``s MAC``): node, class, air time."""
    sent = lines[(lines["event"] == "s") & (lines["level"] == "MAC")].copy()
    ip = sent["type"].notna() & (sent["type"] != "nan")
    arp = ~ip & (sent["tag"].astype(str) == "arp")
    control = ~ip & ~arp
    broadcast = sent["mac_dst"].astype(str) == "ffffffff"
    duration = _hex(sent["duration"])
    mac_src = _hex(sent["mac_src"])
    mac_dst = _hex(sent["mac_dst"])
    node = sent["node"].to_numpy()
    # RTS frames carry their sender's address, CTS and ACK none (0); an ACK's duration is
    # 0. Node 0's own RTS also reads 0: it is the one followed by its DATA to the same
    # receiver (or by a retried RTS that is).
    rts = control & (duration > 0) & (mac_src == node) & (node != 0)
    zero = np.flatnonzero((control & (duration > 0) & (node == 0)).to_numpy())
    if len(zero):
        mine = np.flatnonzero(node == 0)
        following = {int(a): int(b) for a, b in zip(mine[:-1], mine[1:], strict=True)}
        is_rts = np.zeros(len(sent), dtype=bool)
        for i in zero[::-1]:
            j = following.get(int(i))
            if j is not None and mac_dst[j] == mac_dst[i]:
                if ip.iloc[j] or arp.iloc[j]:
                    is_rts[i] = True
                elif control.iloc[j] and duration[j] > 0 and is_rts[j]:
                    is_rts[i] = True
        rts = rts | is_rts
    size = np.where(
        ip,
        pd.to_numeric(sent["size"], errors="coerce").fillna(0).to_numpy(),
        np.where(arp, ARP_BYTES + MAC_DATA_OVERHEAD_BYTES,
                 np.where(rts, RTS_FRAME_BYTES, CTS_ACK_FRAME_BYTES)),
    )  # fmt: skip
    # unicast DATA at dataRate_, RTS/CTS/ACK and broadcast DATA at basicRate_ (sendDATA)
    rate = np.where((ip | arp) & ~broadcast, NS2_MAC["dataRate_"], NS2_MAC["basicRate_"])
    klass = np.where(
        ip, _ip_classes(sent), np.where(arp, "arp", np.where(rts, "rts", np.where(
            duration > 0, "cts", "ack"))),
    )  # fmt: skip
    return pd.DataFrame(
        {"node": node, "packet_class": klass, "airtime": frame_airtime_s(size, rate)}
    )


def _ip_classes(lines: pd.DataFrame) -> np.ndarray:
    """The ns-3 packet counter's class of each IP packet line (``-It``)."""
    kind = lines["type"].astype(str).to_numpy()
    size = pd.to_numeric(lines["size"], errors="coerce").fillna(0).to_numpy()
    chunk = lines["chunk"].astype(str).to_numpy()
    # a TCP segment carries data when it is longer than Agent/TCP's 40-byte header (the
    # MAC's lines hold 58 bytes more)
    at_mac = (lines["level"] == "MAC").to_numpy()
    header = np.where(at_mac, 40 + MAC_DATA_OVERHEAD_BYTES, 40)
    return np.select(
        [
            kind == "cbr",
            (kind == "tcp") & (size > header),
            np.isin(kind, ("tcp", "ack")),
            (kind == "sctp") & (chunk == "D"),
            kind == "sctp",
            kind == "AODV",
            kind == "ARP",
        ],
        ["udp-data", "tcp-data", "tcp-control", "sctp-data", "sctp-control", "routing", "arp"],
        default="other",
    )


_DROP_SOURCES = {"MAC": "wifi-phy-rx-drop", "IFQ": "wifi-mac-drop", "RTR": "ipv4-drop",
                 "AGT": "ipv4-drop"}  # fmt: skip


def _counts(lines: pd.DataFrame) -> pd.DataFrame:
    """``counts`` as the ns-3 packet counter keys it (see the module docstring)."""
    frames = _mac_frames(lines)
    parts = [frames.assign(source="wifi-phy-tx", reason=0)[["node", "source", "packet_class",
                                                            "reason"]]]  # fmt: skip
    handed = lines[lines["event"].isin(["s", "f"]) & (lines["level"] == "RTR")]
    parts.append(pd.DataFrame({"node": handed["node"].to_numpy(), "source": "wifi-mac-tx",
                               "packet_class": _ip_classes(handed), "reason": 0}))  # fmt: skip
    arp = frames[frames["packet_class"] == "arp"]
    parts.append(arp.assign(source="wifi-mac-tx", reason=0)[["node", "source", "packet_class",
                                                             "reason"]])  # fmt: skip
    drops = lines[lines["event"] == "d"]
    if len(drops):
        level = drops["level"].astype(str).str.strip().to_numpy()
        why = drops["reason"].astype(str).str.strip().to_numpy()
        source = np.array([_DROP_SOURCES.get(lv, "ipv4-drop") for lv in level], dtype=object)
        source[(level == "MAC") & (why == "RET")] = "wifi-mac-drop"
        source[(level == "IFQ") & (why == "ARP")] = "arp-drop"
        ip = drops["type"].notna() & (drops["type"] != "nan")
        # an RTS given up (RET) is traced beside the packet it carried: a control line
        klass = np.where(ip, _ip_classes(drops), np.where(why == "RET", "rts", "control-other"))
        klass = np.where(drops["tag"].astype(str) == "arp", "arp", klass)
        parts.append(pd.DataFrame({
            "node": drops["node"].to_numpy(), "source": source, "packet_class": klass,
            "reason": [NS2_DROP_REASON_CODES.get(w, UNKNOWN_DROP_REASON) for w in why],
        }))  # fmt: skip
    every = pd.concat(parts, ignore_index=True)
    counts = every.groupby(["node", "source", "packet_class", "reason"]).size()
    counts = counts.rename("count").reset_index()
    return counts.astype({"node": np.int64, "reason": np.int64, "count": np.int64})


def _agent(lines: pd.DataFrame, params: Mapping[str, Any]) -> pd.DataFrame:
    """``agent``: the AGT lines of packets to and from the sink (module docstring)."""
    agent = lines[(lines["level"] == "AGT") & lines["event"].isin(["s", "r"])]
    agent = agent[(agent["src_node"] == SINK) | (agent["dst_node"] == SINK)]
    kind = agent["type"].astype(str).to_numpy()
    size = agent["size"].to_numpy(dtype=np.int64)
    received = (agent["event"] == "r").to_numpy()
    protocol = np.select([kind == "cbr", np.isin(kind, ("tcp", "ack")), kind == "sctp"],
                         [17, 6, 132], default=0)  # fmt: skip
    # NS-2's bytes without AODV's header on arrival (UDP, SCTP), then as ns-3 counts them
    sent_size = np.where(received & np.isin(protocol, (17, 132)), size - NS2_AODV_IP_HEADER, size)
    chunks = pd.to_numeric(agent["chunks"], errors="coerce").fillna(0).to_numpy(dtype=np.int64)
    chunk = agent["chunk"].astype(str).to_numpy()
    tcp_data = (protocol == 6) & (sent_size > 40)
    payload = np.select(
        [protocol == 17, tcp_data, (protocol == 132) & (chunk == "D")],
        [sent_size, sent_size - 40, chunks * params["packet_size"]],
        default=0,
    )
    l4 = np.select(
        [protocol == 17, protocol == 6, protocol == 132],
        [sent_size + NS3_UDP_HEADER, sent_size - NS2_TCP_IP_HEADER,
         sent_size - NS2_SCTP_IP_HEADER],
        default=sent_size,
    )  # fmt: skip
    chunk_type = np.where(protocol == 132, [SCTP_CHUNK_TYPES.get(c, 255) for c in chunk], 255)
    return pd.DataFrame(
        {
            "event": np.where(received, "received", "sent"),
            "time": agent["time"].to_numpy(dtype=float),
            "src": agent["src_node"].to_numpy(dtype=np.int64),
            "dst": agent["dst_node"].to_numpy(dtype=np.int64),
            "ip_id": agent["uid"].to_numpy(dtype=np.int64),
            "ip_protocol": protocol.astype(np.int64),
            "size": l4.astype(np.int64),
            "payload": payload.astype(np.int64),
            "chunk_type": chunk_type.astype(np.int64),
        }
    )


def _writes(params: Mapping[str, Any], starts: Mapping[int, float]) -> pd.DataFrame:
    """Every CBR write: at the start, then every interval, before ``duration``."""
    interval = effective_interval_s(params)
    frames = []
    for node, start in starts.items():
        count = int(np.ceil((params["duration"] - start) / interval)) if start < params[
            "duration"] else 0  # fmt: skip
        times = start + interval * np.arange(count)
        times = times[times < params["duration"]]
        frames.append(pd.DataFrame({"flow": node, "seq": np.arange(len(times)), "time": times}))
    return pd.concat(frames, ignore_index=True)


def _in_order(first_arrival: pd.Series) -> pd.Series:
    """Report ``k`` (index from 0) delivered when it and every one before it have arrived."""
    first_arrival = first_arrival.sort_index()
    expected = np.arange(len(first_arrival))
    have = first_arrival.index.to_numpy()
    if not np.array_equal(have, expected):
        holes = np.flatnonzero(have != expected)
        first_arrival = first_arrival.iloc[: holes[0]] if len(holes) else first_arrival
    return pd.Series(np.maximum.accumulate(first_arrival.to_numpy()), index=first_arrival.index)


def _packets(
    lines: pd.DataFrame, params: Mapping[str, Any], starts: Mapping[int, float]
) -> pd.DataFrame:
    """``packets``: the application's writes and the reports delivered (module docstring)."""
    writes = _writes(params, starts)
    at_sink = lines[(lines["level"] == "AGT") & (lines["event"] == "r")
                    & (lines["node"] == SINK) & (lines["dst_node"] == SINK)]  # fmt: skip
    kind = at_sink["type"].astype(str)
    protocol = params["protocol"]
    delivered = []
    if protocol == "udp":
        cbr = at_sink[kind == "cbr"]
        delivered.append(pd.DataFrame({"flow": cbr["src_node"].to_numpy(),
                                       "seq": cbr["cbr_seq"].to_numpy(dtype=np.int64),
                                       "time": cbr["time"].to_numpy()}))  # fmt: skip
    else:
        if protocol == "tcp":
            data = at_sink[(kind == "tcp") & (at_sink["size"] > 40)]
            # segment 0 is Agent/TCP's SYN: report k is segment k + 1
            units = data.assign(unit=data["seq"].to_numpy(dtype=np.int64) - 1)
        else:
            data = at_sink[(kind == "sctp") & (at_sink["chunk"].astype(str) == "D")]
            last = pd.to_numeric(data["tsn"]).to_numpy(dtype=np.int64)
            count = pd.to_numeric(data["chunks"]).to_numpy(dtype=np.int64)
            # a packet of n DATA chunks carries TSNs last - n + 1 .. last; TSN k + 1 is report k
            reps = np.repeat(np.arange(len(data)), count)
            offsets = np.concatenate([np.arange(c)[::-1] for c in count]) if len(count) else []
            units = pd.DataFrame({
                "src_node": data["src_node"].to_numpy()[reps],
                "time": data["time"].to_numpy()[reps],
                "unit": last[reps] - np.asarray(offsets, dtype=np.int64) - 1,
            })  # fmt: skip
        units = units[units["unit"] >= 0]
        for flow, mine in units.groupby("src_node"):
            first = mine.groupby("unit")["time"].min()
            got = _in_order(first)
            delivered.append(pd.DataFrame({"flow": flow, "seq": got.index.to_numpy(),
                                           "time": got.to_numpy()}))  # fmt: skip
    received = pd.concat(delivered, ignore_index=True) if delivered else pd.DataFrame(
        {"flow": [], "seq": [], "time": []})  # fmt: skip
    received = received.drop_duplicates(["flow", "seq"], keep="first")
    sent_at = writes.set_index(["flow", "seq"])["time"]
    key = pd.MultiIndex.from_arrays([received["flow"].astype(np.int64),
                                     received["seq"].astype(np.int64)])  # fmt: skip
    received = received.assign(sent_time=sent_at.reindex(key).to_numpy())
    received = received[received["sent_time"].notna()]
    frame = pd.concat(
        [
            writes.assign(event="sent", sent_time=writes["time"], delay=np.nan),
            received.assign(event="received", delay=received["time"] - received["sent_time"]),
        ],
        ignore_index=True,
    ).sort_values("time", kind="stable")
    return pd.DataFrame(
        {
            "event": pd.Categorical(frame["event"], categories=["sent", "received"]),
            "flow": frame["flow"].to_numpy(dtype=np.int64),
            "seq": frame["seq"].to_numpy(dtype=np.int64),
            "size": np.int64(params["packet_size"]),
            "time": frame["time"].to_numpy(dtype=float),
            "sent_time": frame["sent_time"].to_numpy(dtype=float),
            "delay": frame["delay"].to_numpy(dtype=float),
        }
    ).reset_index(drop=True)


PHY_STATES = ("idle", "cca_busy", "tx", "rx", "switching", "sleep", "off")


def _states(lines: pd.DataFrame, consumed_j: np.ndarray, duration: float) -> pd.DataFrame:
    """``states`` from the frames each node sent and the energy NS-2 charged it."""
    frames = _mac_frames(lines)
    tx = frames.groupby("node")["airtime"].sum().reindex(range(N_NODES), fill_value=0.0)
    tx = tx.to_numpy()
    rx = np.maximum(consumed_j - tx * NS2_ENERGY["tx_power_w"], 0.0) / NS2_ENERGY["rx_power_w"]
    states = pd.DataFrame({"node": np.arange(N_NODES)})
    for state in PHY_STATES:
        states[state] = 0.0
    states["tx"] = tx
    states["rx"] = rx
    states["idle"] = np.maximum(duration - tx - rx, 0.0)
    return states


def tables_from_trace(
    trace, params: Mapping[str, Any], starts: Mapping[int, float], consumed_j: np.ndarray
) -> dict[str, pd.DataFrame]:
    """The raw tables but ``performance`` from a trace (path or stream), the start times
    and the energy each node consumed (what :func:`run` does after NS-2 has run)."""
    lines = read_trace(trace)
    if "src_node" not in lines:  # a trace without any IP line
        lines["src_node"] = lines["dst_node"] = -1
    return {
        "packets": _packets(lines, params, starts),
        "counts": _counts(lines),
        "energy": pd.DataFrame(columns=["node", "energy_j", "remaining_j"]),
        "states": _states(lines, consumed_j, params["duration"]),
        "agent": _agent(lines, params),
        "collisions": pd.DataFrame(
            {"count": [int(((lines["event"] == "d") & (lines["reason"] == "COL")).sum())]}
        ),
    }


_ENERGY = re.compile(r"^energy (\d+) (\S+)$", re.MULTILINE)
_CULLING = re.compile(r"distCST_ = ([0-9.eE+-]+)")


def _consumed(stdout: str) -> np.ndarray:
    remaining = {int(node): float(value) for node, value in _ENERGY.findall(stdout)}
    if sorted(remaining) != list(range(N_NODES)):
        raise RuntimeError(f"NS-2 printed the energy of nodes {sorted(remaining)}")
    return INITIAL_ENERGY_J - np.array([remaining[n] for n in range(N_NODES)])


def culling_distance_m(stdout: str) -> float:
    """The carrier-sense culling distance NS-2 printed (``distCST_``), NaN if it sent
    nothing."""
    found = _CULLING.search(stdout)
    return float(found.group(1)) if found else float("nan")


# ----------------------------------------------------------------------------- one run


@ns2_run_step
def run(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """One replication in NS-2: the raw tables of ``scenario.run`` (module docstring)."""
    problem = ns2_problem(params)
    if problem:
        raise ValueError(problem)
    wall_start = time.perf_counter()
    script = tcl_script(params, seed, run)
    starts = start_times(params, seed, run)
    with run_script(script, timeout=TIMEOUT_SECONDS) as done:
        consumed = _consumed(done.stdout)
        tables = tables_from_trace(done.path(TRACE_FILE), params, starts, consumed)
    collisions = int(tables.pop("collisions")["count"].iloc[0])
    tables["performance"] = pd.DataFrame(
        [
            {
                "wall_s": done.wall_seconds,
                "cpu_s": done.cpu_seconds,
                "events": np.nan,
                "events_per_s": np.nan,
                "peak_rss_mb": np.nan,
                "ns2_undecodable": np.nan,
                "arrivals_scheduled": np.nan,
                "arrivals_skipped": np.nan,
                "ns2_collisions": collisions,
                "arrivals_culled": np.nan,
                "ns2_culling_distance_m": culling_distance_m(done.stdout),
                # NaN: an NS-2 run's drop counts are its trace lines already
                "ns2_collision_drops": np.nan,
                "energy_reschedules_skipped": np.nan,
                "energy_reschedules_done": np.nan,
                "step_wall_s": time.perf_counter() - wall_start,
            }
        ]
    )
    return {name: tables[name] for name in TABLES}
