"""The validation scenarios in NS-2.35's own SCTP (``Agent/SCTP``, SCTP module 3.8): a
Tcl script generated from a :class:`~.stacks.Scenario`, run by ``ns``, its trace parsed
into the :class:`~.stacks.Trace` the usrsctp comparison uses (completion time, DATA
chunks with their kind new/fast/t3, cwnd, ssthresh, RTO and peer-window series, drops,
T3-rtx expiries, packets).

**What the script builds** (written from the scenario's fields, never copied from
elsewhere): two nodes and one duplex link of the scenario's rate and delay;
``Queue/DropTail`` with ``limit_`` = ``queue_packets + 1`` (NS-2's DropTail counts the
packet being sent: ``limit_`` N holds N - 1 waiting, as ns-3's device queue of
``queue_packets`` beside the one in transmission, ``topology.dumbbell.queue_layout``);
an ``Agent/SCTP`` pair with every scenario setting NS-2 has (``mtu_``,
``initialRwnd_`` = ``rcvbuf``, ``initialSwnd_`` = ``sndbuf``, ``initialRto_``,
``minRto_``, ``maxRto_``, ``sackDelay_``, ``useDelayedSacks_`` for a SACK every
packet or every second one, ``associationMaxRetrans_``/``pathMaxRetrans_`` 100 and no
HEARTBEATs on the idle path (``heartbeatInterval_`` 0), as the model and usrsctp-oracle
run); everything else is NS-2's own default (initial cwnd 4380 B, initial ssthresh
65536 B, Max.Burst 4, three miss indications). The application writes every message
at time 0 with the agent's ``send`` (a "legacy" write: NS-2 queues it and, for a
message larger than one chunk, splits it into independent chunks of at most
``mtu - 48`` bytes without the B/E bits of SCTP fragmentation: the same chunks on the
wire as the fragmentation of the model and usrsctp; ``sctp/sctp.cc``,
``SctpAgent::sendmsg``). Both directions of the link are traced with SCTP's chunk
fields (``show_sctphdr_``), and the sender's ``cwnd_``, ``rto_``, ``rwnd_``,
``timeoutCount_`` and ``frCount_`` into a second file.

**Losses.** NS-2's list error model (``ErrorModel/List``, ``droplist``) on the forward
link drops packets by their number (0 = the first packet it sees: the INIT), as the
model's ``SctpDropErrorModel`` drops by number, by TSN or by the seeded hash of
(relative TSN, transmission). The scenario's TSN and random losses are turned into
packet numbers by NS-2 itself (:func:`drop_list`): run, walk the forward packets in the
order they reach the error model (the link's dequeue order) through the same decision
rule as the model's error model (:func:`loss_decisions`), add the first packet the rule
drops and the list does not, run again. The packets before a drop do not depend on it,
so each round fixes one more drop and the last run loses exactly the transmissions the
scenario says. Numbers of ``drop_packets`` count from 1 at the receiver, NS-2's from 0.

**What NS-2.35 cannot express** (:func:`ns2_problem`, checked before anything runs):
more than one stream (a legacy write always goes to stream 0, ``sendmsg``; the
infinite FTP source spreads chunks over streams but has no end, so its tail would never
be the scenario's); SACK frequencies other than 1 and 2 and Max.Burst other than 4
(``DELAYED_SACK_TRIGGER`` and ``MAX_BURST`` are compile-time constants, ``sctp.h``);
an MTU that leaves less than the smallest message chunk NS-2 accepts.

Times are seconds from the INIT, TSNs relative to the first DATA TSN (NS-2 starts at
1), as in the other stacks' traces. The trace's times are NS-2's (rounded to 1 µs);
the variable trace's to 10 µs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine.params import ParameterSpace
from transportlab.ns2 import tcl, traces
from transportlab.ns2.runner import ns2_run_step, run_script
from transportlab.studies.sctp_validation.parameters import PARAMETERS as NS3_PARAMETERS
from transportlab.studies.sctp_validation.stacks import (
    Scenario,
    Trace,
    random_loss,
    scenario_by_name,
    traces_to_tables,
)

__all__ = [
    "PARAMETERS",
    "TRACE_KEY",
    "chunk_lengths",
    "drop_list",
    "expressible",
    "loss_decisions",
    "ns2_problem",
    "parse_run",
    "run",
    "run_scenario",
    "tcl_script",
]

#: The key of NS-2's trace in the tables (``traces_to_tables``).
TRACE_KEY = "ns2"
LINKS_FILE = "links.tr"
VARIABLES_FILE = "variables.tr"
SENDER, RECEIVER = 0, 1
#: SCTP common header 12 + NS-2's ``ipHeaderSize_`` 20; a DATA chunk header is 16 bytes.
SCTP_IP_HEADERS = 12 + 20
DATA_CHUNK_HEADER = 16
#: ``sctp.h``: MIN_DATA_CHUNK_SIZE (``dataChunkSize_`` below it is refused).
MIN_DATA_CHUNK_SIZE = 16 + 1
#: How many list-building rounds a scenario may take (one per dropped transmission).
MAX_DROP_ROUNDS = 5000
TIMEOUT_SECONDS = 600.0


# ----------------------------------------------------------------------------- what NS-2 can run


def ns2_problem(scenario: Scenario) -> str | None:
    """Why NS-2.35's ``Agent/SCTP`` cannot run ``scenario`` as the other stacks do, or None."""
    problems = []
    if scenario.streams != 1:
        problems.append(
            f"{scenario.streams} streams (a legacy write goes to stream 0 and the infinite "
            "source that spreads chunks over streams has no end: sctp.cc sendmsg, GenChunk)"
        )
    if scenario.sack_freq not in (1, 2):
        problems.append(
            f"a SACK every {scenario.sack_freq} packets (DELAYED_SACK_TRIGGER is 2 at compile "
            "time; useDelayedSacks_ 0 gives 1)"
        )
    if scenario.max_burst != 4:
        problems.append(f"Max.Burst {scenario.max_burst} (MAX_BURST is 4 at compile time)")
    if scenario.mtu - SCTP_IP_HEADERS < MIN_DATA_CHUNK_SIZE:
        problems.append(f"MTU {scenario.mtu} leaves no room for a DATA chunk")
    if problems:
        return f"NS-2.35 cannot run {scenario.name}: " + "; ".join(problems)
    return None


def expressible(scenarios: Sequence[Scenario]) -> list[Scenario]:
    """The scenarios NS-2.35 can run (:func:`ns2_problem` is None), in their order."""
    return [sc for sc in scenarios if ns2_problem(sc) is None]


def _check_scenario(values: Mapping[str, Any]) -> str | None:
    return ns2_problem(scenario_by_name(values["scenario"]))


#: The study's parameters, refusing the scenarios NS-2.35 cannot run (before anything runs).
PARAMETERS = ParameterSpace(
    *NS3_PARAMETERS, consistency=[*NS3_PARAMETERS.consistency, _check_scenario]
)


# ----------------------------------------------------------------------------- the script


def largest_chunk_data(scenario: Scenario) -> int:
    """The most user data NS-2 puts in one chunk: ``mtu - 12 - 20 - 16``."""
    return scenario.mtu - SCTP_IP_HEADERS - DATA_CHUNK_HEADER


def application_writes(scenario: Scenario) -> list[int]:
    """The messages the application writes: ``message_size`` bytes until ``total_bytes``
    (the last one shorter), as ``SctpValidationFlow`` writes them."""
    full, rest = divmod(scenario.total_bytes, scenario.message_size)
    return [scenario.message_size] * full + ([rest] if rest else [])


def chunk_lengths(scenario: Scenario) -> np.ndarray:
    """User data bytes of each TSN (index = relative TSN): each write split as NS-2's
    ``sendmsg`` splits it, into pieces of at most :func:`largest_chunk_data`."""
    largest = largest_chunk_data(scenario)
    pieces = []
    for size in application_writes(scenario):
        full, rest = divmod(size, largest)
        pieces += [largest] * full + ([rest] if rest else [])
    return np.asarray(pieces, dtype=np.int64)


def _agent_settings(scenario: Scenario) -> dict[str, str]:
    data_chunk = min(scenario.message_size, largest_chunk_data(scenario)) + DATA_CHUNK_HEADER
    return {
        "mtu_": str(scenario.mtu),
        # Checked against the MTU when the agent starts; used by the infinite source only.
        "dataChunkSize_": str(max(data_chunk, MIN_DATA_CHUNK_SIZE)),
        "initialRwnd_": str(scenario.rcvbuf),
        "initialRto_": tcl.seconds(scenario.rto_initial_ms / 1e3),
        "minRto_": tcl.seconds(scenario.rto_min_ms / 1e3),
        "maxRto_": tcl.seconds(scenario.rto_max_ms / 1e3),
        "sackDelay_": tcl.seconds(scenario.sack_delay_ms / 1e3),
        "useDelayedSacks_": "1" if scenario.sack_freq == 2 else "0",
        "useMaxBurst_": "1",
        "heartbeatInterval_": "0",
        "associationMaxRetrans_": "100",
        "pathMaxRetrans_": "100",
    }


def tcl_script(scenario: Scenario, drops: Sequence[int] = ()) -> str:
    """The NS-2 Tcl of ``scenario`` with ``drops`` (packet numbers from 0 counted by the
    list error model on the forward link; see the module docstring)."""
    problem = ns2_problem(scenario)
    if problem:
        raise ValueError(problem)
    sc = scenario
    settings = _agent_settings(sc)
    writes = application_writes(sc)
    full = sum(1 for w in writes if w == sc.message_size)
    out = [
        f"# sctp_validation scenario {sc.name} ({sc.description}) for NS-2.35, generated by",
        "# transportlab (studies/sctp_validation/ns2_scenario.py) from the scenario's fields.",
        "set ns [new Simulator]",
        "Trace set show_sctphdr_ 1",
        f"Queue/DropTail set limit_ {sc.queue_packets + 1}",
        f"set n({SENDER}) [$ns node]",
        f"set n({RECEIVER}) [$ns node]",
        f"$ns duplex-link $n({SENDER}) $n({RECEIVER}) {tcl.bandwidth(sc.rate_mbps)} "
        f"{tcl.delay(sc.delay_ms)} DropTail",
        f"set trace [open {LINKS_FILE} w]",
        f"$ns trace-queue $n({SENDER}) $n({RECEIVER}) $trace",
        f"$ns trace-queue $n({RECEIVER}) $n({SENDER}) $trace",
        "set sender [new Agent/SCTP]",
        "set receiver [new Agent/SCTP]",
    ]
    for agent in ("sender", "receiver"):
        out += [f"${agent} set {name} {value}" for name, value in settings.items()]
    out += [
        f"$sender set initialSwnd_ {sc.sndbuf}",
        f"$ns attach-agent $n({SENDER}) $sender",
        f"$ns attach-agent $n({RECEIVER}) $receiver",
        "$ns connect $sender $receiver",
        f"set variables [open {VARIABLES_FILE} w]",
        "$sender attach $variables",
        *[f"$sender trace {name}" for name in ("cwnd_", "rto_", "rwnd_", "timeoutCount_",
                                                 "frCount_")],
    ]  # fmt: skip
    if drops:
        numbers = sorted({int(n) for n in drops})
        if numbers[0] < 0:
            raise ValueError(f"packet numbers count from 0, got {numbers[0]}")
        out += [
            "set loss [new ErrorModel/List]",
            f"$loss droplist {{{' '.join(str(n) for n in numbers)}}}",
            f"$ns link-lossmodel $loss $n({SENDER}) $n({RECEIVER})",
        ]
    out += [
        "proc write_messages {} {",
        "    global sender",
        f"    for {{set i 0}} {{$i < {full}}} {{incr i}} {{ $sender send {sc.message_size} }}",
        *[f"    $sender send {w}" for w in writes[full:]],
        "}",
        "proc finish {} {",
        "    global ns trace variables",
        "    $ns flush-trace",
        "    close $trace",
        "    close $variables",
        "    exit 0",
        "}",
        '$ns at 0.0 "write_messages"',
        f'$ns at {tcl.seconds(sc.stop_s)} "finish"',
        "$ns run",
    ]
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------------------- losses


def forward_packets(links: pd.DataFrame) -> pd.DataFrame:
    """The forward packets in the order they reach the error model (the link's dequeue
    order; one row per packet): ``index`` (the list model's number), ``uid``, ``time``,
    ``tsns`` (the relative TSNs of its DATA chunks, in order; TSN 1 is relative 0)."""
    dequeued = links[
        (links["event"] == "-") & (links["from_node"] == SENDER) & (links["to_node"] == RECEIVER)
    ]
    is_data = dequeued["flags"].astype(str).str.endswith("D").to_numpy()
    tsn = np.where(is_data, dequeued["tsn"].to_numpy() - 1, -1)
    grouped = (
        pd.DataFrame({"uid": dequeued["uid"].to_numpy(), "time": dequeued["time"].to_numpy(),
                      "tsn": tsn})
        .groupby("uid", sort=False)
        .agg(time=("time", "first"), tsns=("tsn", lambda t: [int(x) for x in t if x >= 0]))
        .reset_index()
    )  # fmt: skip
    grouped.insert(0, "index", np.arange(len(grouped), dtype=np.int64))
    return grouped


def loss_decisions(scenario: Scenario, packets: pd.DataFrame) -> dict[int, str]:
    """Which forward packets the scenario loses (packet index -> reason ``list``, ``tsn``
    or ``random``): the rule of the model's ``SctpDropErrorModel`` applied to NS-2's
    packets in order (a packet carrying a TSN with drops left is lost and uses one of
    each such TSN's drops; otherwise one whose first TSN draws below ``loss_rate`` for
    its ``n``-th arrival)."""
    listed = {n - 1 for n in scenario.drop_packets}
    tsn_drops_left = dict(scenario.drop_tsns)
    arrivals: dict[int, int] = {}
    decided = {}
    for row in packets.itertuples():
        tsn_drop = False
        for tsn in row.tsns:
            if tsn_drops_left.get(tsn, 0) > 0:
                tsn_drops_left[tsn] -= 1
                tsn_drop = True
        if row.index in listed:
            decided[row.index] = "list"
        elif tsn_drop:
            decided[row.index] = "tsn"
        elif row.tsns:
            first = row.tsns[0]
            transmission = arrivals.get(first, 0)
            arrivals[first] = transmission + 1
            if random_loss(scenario.loss_rate, scenario.loss_seed, first, transmission):
                decided[row.index] = "random"
    return decided


def _read_links(path) -> pd.DataFrame:
    columns = ["event", "time", "from_node", "to_node", "size", "flags", "uid", "tsn"]
    return traces.read_wired(path, columns=columns)


def drop_list(scenario: Scenario) -> tuple[dict[int, str], int]:
    """The list error model's packet numbers (with their reasons) that make NS-2 lose
    what the scenario loses, and how many NS-2 runs found them (module docstring)."""
    drops: dict[int, str] = {}
    if not (scenario.drop_packets or scenario.drop_tsns or scenario.loss_rate > 0):
        return drops, 0
    for rounds in range(1, MAX_DROP_ROUNDS + 1):
        with run_script(tcl_script(scenario, sorted(drops)), timeout=TIMEOUT_SECONDS) as done:
            packets = forward_packets(_read_links(done.path(LINKS_FILE)))
        decided = loss_decisions(scenario, packets)
        wrong = {i: r for i, r in drops.items() if decided.get(i) != r}
        if wrong:
            raise RuntimeError(
                f"{scenario.name}: NS-2's packets before a listed drop changed ({wrong})"
            )
        missing = sorted(set(decided) - set(drops))
        if not missing:
            return drops, rounds
        drops[missing[0]] = decided[missing[0]]
    raise RuntimeError(f"{scenario.name}: more than {MAX_DROP_ROUNDS} drop-list rounds")


# ----------------------------------------------------------------------------- the trace

_VARIABLE = re.compile(r"time:\s*(\S+)\s+(.*)$")
_FIELD = re.compile(r"(\w+):\s*(-?[0-9.]+)")
#: Handshake chunks share the trace flag ``I``: named by their order in each direction.
_HANDSHAKE = {"fwd": ("INIT", "COOKIE_ECHO"), "rev": ("INIT_ACK", "COOKIE_ACK")}
_CHUNK_FLAGS = {"D": "DATA", "S": "SACK", "H": "HEARTBEAT", "B": "HEARTBEAT_ACK",
                "R": "FORWARD_TSN", "N": "NR_SACK"}  # fmt: skip


def read_variables(path) -> pd.DataFrame:
    """The sender's traced variables: one row per (time, name, value). ``cwnd_`` lines
    give cwnd, ssthresh and the sender's view of the peer's window (``peerRwnd``);
    ``rto_`` gives rto (seconds) and srtt; ``rwnd_`` the peer window; ``timeoutCount_``
    its count; ``frCount_`` lines mark fast retransmissions (NS-2 prints the counter's
    value uninitialised: only the time is kept); the peer window printed when the trace is
    attached is uninitialised too and left out. Undecodable bytes are replaced, and
    stray bytes before a line's ``time:`` are skipped."""
    rows = []
    with open(path, errors="replace") as stream:
        for line in stream:
            # SctpAgent::SendBufferDequeueUpTo writes an uninitialised buffer to the
            # same channel (sctp.cc): the stray bytes end up in front of the next line.
            match = _VARIABLE.search(line.strip())
            if not match:
                continue
            time = float(match.group(1))
            fields = dict(_FIELD.findall(match.group(2)))
            if "cwnd" in fields:
                rows += [(time, "cwnd", fields["cwnd"]), (time, "ssthresh", fields["ssthresh"])]
            elif "rto" in fields:
                rows += [(time, "rto", fields["rto"]), (time, "srtt", fields["srtt"])]
            elif "rwnd" in fields:
                rows.append((time, "peer_rwnd", fields["peerRwnd"]))
            elif "timeoutCount" in fields:
                rows.append((time, "timeouts", fields["timeoutCount"]))
            elif "frCount" in match.group(2):
                rows.append((time, "fast_rtx", "1"))
    frame = pd.DataFrame(rows, columns=["time", "name", "value"])
    frame["value"] = frame["value"].astype(float)
    if len(frame):
        # `trace rwnd_` prints the member when the trace is attached, before any INIT ACK
        # can have set it: NS-2 leaves it uninitialised (0 or any 32-bit garbage), so the
        # peer's window is only known from the first line after that instant.
        attached = frame["time"].iloc[0]
        frame = frame[~((frame["name"] == "peer_rwnd") & (frame["time"] <= attached))]
        frame = frame.reset_index(drop=True)
    return frame


#: The variable trace prints times with 5 decimals: an expiry and the retransmission it
#: sends at the same instant may differ by up to 5 µs.
VARIABLE_TIME_TOLERANCE = 6e-6


def _kinds(data: pd.DataFrame, timeouts: np.ndarray) -> np.ndarray:
    """new / fast / t3 per DATA transmission (in time order): a TSN's first transmission
    is new; a retransmission is ``t3`` when a T3-rtx expiry came between it and the TSN's
    previous transmission (the expiry marked it: ``TimeoutRtx``), else ``fast``."""
    kinds = np.empty(len(data), dtype=object)
    last: dict[int, float] = {}
    tolerance = VARIABLE_TIME_TOLERANCE
    for i, (time, tsn) in enumerate(zip(data["time"], data["tsn"], strict=True)):
        if tsn not in last:
            kinds[i] = "new"
        else:
            between = timeouts[(timeouts > last[tsn] + tolerance) & (timeouts <= time + tolerance)]
            kinds[i] = "t3" if len(between) else "fast"
        last[tsn] = time
    return kinds


def _packet_table(links: pd.DataFrame, drops: Mapping[int, str]) -> pd.DataFrame:
    """Packets as usrsctp-oracle lists them: ``time``, ``event`` (pkt_tx at the sender of
    the packet, pkt_rx where it arrives, pkt_drop), ``dir`` (fwd: towards the receiver),
    ``tsn`` (a DATA packet's first relative TSN, a SACK's cumulative TSN ack, relative;
    -1 otherwise), ``value`` (packet size in bytes), ``kind`` (chunk names, ``+``)."""
    link = links.assign(dir=np.where(links["from_node"] == SENDER, "fwd", "rev"))
    flags = link["flags"].astype(str).str[-1]
    link = link.assign(chunk=flags.map(_CHUNK_FLAGS).fillna("HANDSHAKE"))
    rows = []
    handshake_seen = {"fwd": 0, "rev": 0}
    names: dict[int, str] = {}
    for row in link.drop_duplicates(["uid"]).itertuples():
        if row.chunk == "HANDSHAKE":
            order = handshake_seen[row.dir]
            handshake_seen[row.dir] += 1
            names[row.uid] = _HANDSHAKE[row.dir][min(order, 1)]
    for (event, uid), part in link.groupby(["event", "uid"], sort=False):
        first = part.iloc[0]
        if event == "+":
            kind = "pkt_tx"
        elif event == "r":
            kind = "pkt_rx"
        elif event == "d":
            kind = "pkt_drop"
        else:
            continue
        chunks = [names.get(uid, c) for c in part["chunk"]]
        if first["chunk"] == "DATA":
            tsn = int(part["tsn"].min()) - 1
        elif first["chunk"] in ("SACK", "NR_SACK"):
            tsn = int(first["tsn"]) - 1
        else:
            tsn = -1
        rows.append((float(first["time"]), kind, first["dir"], tsn, int(first["size"]),
                     "+".join(dict.fromkeys(chunks)), int(uid)))  # fmt: skip
    packets = pd.DataFrame(rows, columns=["time", "event", "dir", "tsn", "value", "kind", "uid"])
    return packets.sort_values(["time", "uid"], kind="stable", ignore_index=True).drop(
        columns="uid"
    )


def parse_run(scenario: Scenario, links: pd.DataFrame, variables: pd.DataFrame,
              drops: Mapping[int, str]) -> Trace:  # fmt: skip
    """NS-2's trace of one run as a :class:`~.stacks.Trace` (``stack`` ``NS-2.35``).
    ``links`` is the link trace (:func:`transportlab.ns2.traces.read_wired`),
    ``variables`` :func:`read_variables`, ``drops`` the list model's packets and reasons."""
    lengths = chunk_lengths(scenario)
    forward = (links["from_node"] == SENDER) & (links["to_node"] == RECEIVER)
    is_data = links["flags"].astype(str).str.endswith("D")
    init = links[forward & (links["event"] == "+")]
    origin = float(init["time"].iloc[0]) if len(init) else 0.0
    links = links.assign(time=links["time"] - origin)
    variables = variables.assign(time=variables["time"] - origin)

    sent = links[forward & is_data & (links["event"] == "+")]
    first_data = float(sent["time"].min()) if len(sent) else np.inf
    timeout_rows = variables[variables["name"] == "timeouts"].sort_values("time", kind="stable")
    increments = timeout_rows[timeout_rows["value"].diff() > 0]
    # Only T3-rtx expiries: a HEARTBEAT timeout (its count is shared) can only come before
    # the first DATA here (no HEARTBEATs on the idle path, only the confirming one).
    timeout_times = increments[increments["time"] >= first_data]["time"].to_numpy()
    data = pd.DataFrame(
        {"time": sent["time"].to_numpy(), "tsn": sent["tsn"].to_numpy() - 1}
    ).reset_index(drop=True)
    data["length"] = lengths[data["tsn"].clip(0, len(lengths) - 1)] if len(lengths) else 0
    data["kind"] = _kinds(data, timeout_times)

    arrived = links[forward & is_data & (links["event"] == "r")]
    first_arrival = arrived.groupby("tsn")["time"].min()
    delivered_tsns = first_arrival.index.to_numpy() - 1
    complete = len(lengths) > 0 and set(range(len(lengths))) <= set(delivered_tsns.tolist())
    completion = float(first_arrival.max()) if complete else float("nan")
    delivered = int(lengths[delivered_tsns[delivered_tsns < len(lengths)]].sum())

    dropped = links[forward & (links["event"] == "d")].drop_duplicates("uid")
    packets = forward_packets(links)
    reason_of = {int(packets["uid"].iloc[i]): r for i, r in drops.items() if i < len(packets)}
    drops_table = pd.DataFrame(
        {
            "time": dropped["time"].to_numpy(),
            "reason": [reason_of.get(int(u), "queue") for u in dropped["uid"]],
        }
    )

    names = {"cwnd": 1.0, "ssthresh": 1.0, "rto": 1e3, "srtt": 1e3, "peer_rwnd": 1.0}
    renamed = {"rto": "rto_ms", "srtt": "rtt_ms"}
    chosen = variables[variables["name"].isin(list(names))]
    series = pd.DataFrame(
        {
            "time": chosen["time"].to_numpy(),
            "name": chosen["name"].map(lambda n: renamed.get(n, n)).to_numpy(),
            "value": chosen["value"].to_numpy() * chosen["name"].map(names).to_numpy(),
        }
    )
    # The agent traces its initial values before the association exists: keep from the
    # INIT on (the other stacks' series start there too).
    series = series[series["time"] >= 0].reset_index(drop=True)
    return Trace(
        stack="NS-2.35",
        scenario=scenario,
        completion_s=completion,
        delivered=delivered,
        series=series,
        data=data,
        drops=drops_table,
        timeouts=len(timeout_times),
        timeout_times=tuple(float(t) for t in timeout_times),
        packets=_packet_table(links, drops),
    )


def run_scenario(scenario: Scenario) -> tuple[Trace, int]:
    """Run ``scenario`` in NS-2.35: its trace and how many NS-2 runs it took (the drop
    list's rounds, then the run that is parsed)."""
    drops, rounds = drop_list(scenario)
    with run_script(tcl_script(scenario, sorted(drops)), timeout=TIMEOUT_SECONDS) as done:
        links = _read_links(done.path(LINKS_FILE))
        variables = read_variables(done.path(VARIABLES_FILE))
    return parse_run(scenario, links, variables, drops), rounds + 1


@ns2_run_step
def run(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """One scenario in NS-2.35: the tables of ``traces_to_tables`` with one trace,
    ``ns2``, and ``ns2_runs`` (how many NS-2 runs it took). NS-2 is deterministic here
    (no random element): ``seed`` and ``run`` change nothing."""
    scenario = scenario_by_name(params["scenario"])
    problem = ns2_problem(scenario)
    if problem:
        raise ValueError(problem)
    trace, runs = run_scenario(scenario)
    tables = traces_to_tables({TRACE_KEY: trace})
    tables["runs"] = tables["runs"].assign(ns2_runs=runs)
    return tables
