"""The two stacks of the validation and their scenarios: what a cached run executes.

One :class:`Scenario` (link, transfer, losses, protocol knobs) runs on two stacks:

* :func:`run_oracle`: ``usrsctp-oracle`` (``tools/usrsctp-oracle``), two usrsctp endpoints in
  one process, in simulated time, through a link model (rate, delay, drop-tail queue);
* :func:`run_model`: transportlab's ns-3 SCTP model on two nodes joined by a point-to-point
  link of the same rate, delay and queue, with ``ns3::SctpDropErrorModel`` dropping the
  same packets (by number, by TSN or by the same seeded hash) on the forward link.

Both return a :class:`Trace` (pandas tables: cwnd/ssthresh/RTO series, DATA chunks sent with
their kind new/fast/t3, drops); :func:`.differences.compare_traces` reduces a pair to
completion times, retransmission counts by kind and the cwnd trajectory difference
(analysis, outside the cache key).

Pure Python at import time: ns-3 is loaded only by :func:`run_model`.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path

import numpy as np
import pandas as pd

from transportlab.ns3.native import NativeLibraryNotFoundError, native_dir
from transportlab.ns3.recording import vector_array
from transportlab.ns3.simulation import run_until, simulation

#: The named ways usrsctp departs from RFC 9260 (``comparison.DIFFERENCES`` describes each
#: and detects it in traces; a scenario's ``expect`` names some of them).
DIFFERENCE_NAMES = (
    "abc_l2",
    "cwnd_counts_headers",
    "small_packets",
    "cwnd_maxburst",
    "initial_cwnd",
    "rwnd_overhead",
    "ssthresh_floor",
    "fast_rtx_withheld",
    "t3_not_restarted",
    "repeat_fast_rtx",
)
#: Completion times within this relative difference agree (the issue's criterion).
COMPLETION_TOLERANCE = 0.10
#: IPv4 header + SCTP common header + DATA chunk header: user data per chunk = MTU - 48.
DATA_OVERHEAD = 20 + 12 + 16
#: Comparison profiles. "default": each stack with its own defaults. "aligned": the
#: usrsctp settings closest to RFC 9260 (7.2.1: at most one PMDCS of cwnd growth per SACK
#: in slow start; 6.1: Max.Burst limits the packets sent at once and does not shrink cwnd;
#: 6.2.1: the peer's rwnd is charged the DATA bytes outstanding, no per-chunk overhead),
#: and the ns-3 model started with usrsctp's initial cwnd (3 x its MTU, 7.2.1).
PROFILES = {
    "default": {"usrsctp": {}, "ns3": {}},
    "aligned": {
        "usrsctp": {"abc_l": 1, "cwnd_maxburst": 0, "peer_chunk_oh": 0},
        "ns3": {"InitialCwnd": lambda sc: 3 * (sc.mtu - 20)},
    },
}


class ScenarioError(ValueError):
    """A scenario that cannot run (said before anything runs)."""


class OracleNotAvailableError(RuntimeError):
    """usrsctp-oracle is not built (libusrsctp-dev missing when transportlab was built)."""


@dataclass(frozen=True)
class Scenario:
    """One bulk transfer from a client to a server over one link, and what goes wrong on it.

    ``drop_packets`` are forward-link packet numbers counted at the receiver (1 = INIT,
    2 = COOKIE ECHO, 3 = first DATA packet ...); ``drop_tsns`` are ``(relative TSN, times)``
    pairs (0 = the first DATA TSN; the first ``times`` transmissions of that TSN are lost);
    ``loss_rate``/``loss_seed`` drop forward packets by a seeded hash, the same function in
    both stacks: a packet carrying DATA is lost when a hash of the seed,
    the relative TSN of its first DATA chunk and how many times that TSN arrived before is
    below ``loss_rate``, so both stacks lose the same transmissions of the same data.
    Reverse-direction packets (SACKs) are never dropped.
    """

    name: str
    group: str = "misc"
    description: str = ""
    rate_mbps: float = 10.0
    delay_ms: float = 10.0
    queue_packets: int = 100
    mtu: int = 1500
    message_size: int = 1452
    total_bytes: int = 500_000
    streams: int = 1
    drop_packets: tuple[int, ...] = ()
    drop_tsns: tuple[tuple[int, int], ...] = ()
    loss_rate: float = 0.0
    loss_seed: int = 1
    rto_initial_ms: int = 1000
    rto_min_ms: int = 1000
    rto_max_ms: int = 60000
    sack_delay_ms: int = 200
    sack_freq: int = 2
    sndbuf: int = 131072
    rcvbuf: int = 131072
    max_burst: int = 4
    stop_s: float = 300.0
    #: Named differences (keys of DIFFERENCES) this scenario is designed to show.
    expect: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        # normalise lists given by callers into tuples (hashable, frozen)
        object.__setattr__(self, "drop_packets", tuple(int(n) for n in self.drop_packets))
        object.__setattr__(self, "drop_tsns", tuple((int(t), int(k)) for t, k in self.drop_tsns))
        object.__setattr__(self, "expect", tuple(self.expect))
        self.validate()

    def validate(self) -> None:
        """Raise :class:`ScenarioError` naming the first bad field."""

        def need(ok: bool, message: str) -> None:
            if not ok:
                raise ScenarioError(f"scenario {self.name!r}: {message}")

        need(bool(self.name) and "," not in self.name, "name must be non-empty without commas")
        need(0.001 <= self.rate_mbps <= 100_000, f"rate_mbps {self.rate_mbps} not in [0.001, 1e5]")
        need(0 <= self.delay_ms <= 10_000, f"delay_ms {self.delay_ms} not in [0, 1e4]")
        need(1 <= self.queue_packets <= 1_000_000, "queue_packets must be >= 1")
        need(576 <= self.mtu <= 65535, f"mtu {self.mtu} not in [576, 65535]")
        need(1 <= self.message_size <= 65536, "message_size must be in [1, 65536]")
        need(self.message_size <= self.sndbuf, "message_size must fit in sndbuf")
        need(1 <= self.total_bytes <= 1 << 31, "total_bytes must be in [1, 2^31]")
        need(1 <= self.streams <= 1000, "streams must be in [1, 1000]")
        need(all(n >= 1 for n in self.drop_packets), "drop_packets are numbers >= 1")
        need(
            all(t >= 0 and 1 <= k <= 1000 for t, k in self.drop_tsns),
            "drop_tsns are (tsn >= 0, times in [1, 1000])",
        )
        need(len({t for t, _ in self.drop_tsns}) == len(self.drop_tsns), "drop_tsns repeat a TSN")
        need(0 <= self.loss_rate <= 0.5, f"loss_rate {self.loss_rate} not in [0, 0.5]")
        need(self.loss_seed >= 0, "loss_seed must be >= 0")
        need(
            1 <= self.rto_min_ms <= self.rto_initial_ms <= self.rto_max_ms,
            "need 1 <= rto_min_ms <= rto_initial_ms <= rto_max_ms",
        )
        need(0 <= self.sack_delay_ms <= 500, "sack_delay_ms must be in [0, 500] (RFC 9260 6.2)")
        need(1 <= self.sack_freq <= 100, "sack_freq must be in [1, 100]")
        need(4096 <= self.sndbuf <= 1 << 30 and 4096 <= self.rcvbuf <= 1 << 30, "buffers >= 4096")
        need(1 <= self.max_burst <= 1000, "max_burst must be in [1, 1000]")
        need(0 < self.stop_s <= 100_000, "stop_s must be in (0, 1e5]")
        unknown = [e for e in self.expect if e not in DIFFERENCE_NAMES]
        need(not unknown, f"unknown expected differences {unknown}")

    @property
    def pmdcs(self) -> int:
        """Path maximum data chunk size (RFC 9260): MTU - IPv4 header - common header."""
        return self.mtu - 20 - 12

    def oracle_args(self, profile: str = "default", seed: int = 1) -> list[str]:
        """Command-line arguments of usrsctp-oracle for this scenario."""
        if profile not in PROFILES:
            raise ScenarioError(f"unknown usrsctp profile {profile!r} (one of {list(PROFILES)})")
        args = {
            "rate_bps": repr(self.rate_mbps * 1e6),
            "delay_ms": repr(float(self.delay_ms)),
            "queue_packets": self.queue_packets,
            "mtu": self.mtu,
            "message_size": self.message_size,
            "total_bytes": self.total_bytes,
            "streams": self.streams,
            "loss_rate": repr(float(self.loss_rate)),
            "loss_seed": self.loss_seed,
            "seed": seed,
            "rto_initial_ms": self.rto_initial_ms,
            "rto_min_ms": self.rto_min_ms,
            "rto_max_ms": self.rto_max_ms,
            "sack_delay_ms": self.sack_delay_ms,
            "sack_freq": self.sack_freq,
            "sndbuf": self.sndbuf,
            "rcvbuf": self.rcvbuf,
            "max_burst": self.max_burst,
            "stop_s": repr(float(self.stop_s)),
            **PROFILES[profile]["usrsctp"],
        }
        out = [f"{k}={v}" for k, v in args.items()]
        if self.drop_packets:
            out.append("drop_packets=" + ",".join(str(n) for n in self.drop_packets))
        if self.drop_tsns:
            out.append("drop_tsns=" + ",".join(f"{t}:{k}" for t, k in self.drop_tsns))
        return out

    def replace(self, **changes) -> Scenario:
        return dataclasses.replace(self, **changes)


# ---------------------------------------------------------------- the shared random loss


def _splitmix64(state: int) -> tuple[int, int]:
    mask = (1 << 64) - 1
    state = (state + 0x9E3779B97F4A7C15) & mask
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31), state


def random_loss(rate: float, seed: int, relative_tsn: int, transmission: int) -> bool:
    """Whether this transmission (0 = first) of a packet whose first DATA chunk has
    ``relative_tsn`` is lost: the function both stacks use."""
    if rate <= 0:
        return False
    key = relative_tsn * 1024 + min(transmission, 1023)
    z, _ = _splitmix64((seed * 0x100000001B3 + key) & ((1 << 64) - 1))
    return (z >> 11) * (1.0 / 9007199254740992.0) < rate


def random_loss_tsns(rate: float, seed: int, count: int) -> list[int]:
    """Relative TSNs in 0..count-1 whose first transmission the seeded random loss drops."""
    return [t for t in range(count) if random_loss(rate, seed, t, 0)]


# ---------------------------------------------------------------- traces


@dataclass
class Trace:
    """What one stack did in one scenario. Times in seconds from the association start."""

    stack: str
    scenario: Scenario
    completion_s: float
    delivered: int
    #: columns time, name (cwnd, ssthresh, rto_ms, rtt_ms, peer_rwnd), value
    series: pd.DataFrame
    #: DATA chunks sent: time, tsn (relative), length, kind (new, fast, t3)
    data: pd.DataFrame
    #: forward packets lost: time, reason (list, tsn, random, queue)
    drops: pd.DataFrame
    #: T3-rtx expiries (timeouts with data outstanding)
    timeouts: int
    #: times of the T3-rtx expiries (oracle only; empty for ns-3)
    timeout_times: tuple[float, ...] = ()
    #: packets (oracle only): time, event, dir, tsn, value, kind
    packets: pd.DataFrame | None = None

    @property
    def complete(self) -> bool:
        return bool(np.isfinite(self.completion_s))

    def series_of(self, name: str) -> pd.DataFrame:
        return self.series[self.series.name == name][["time", "value"]].reset_index(drop=True)

    def retransmissions(self) -> dict[str, int]:
        kinds = self.data.kind.value_counts()
        return {k: int(kinds.get(k, 0)) for k in ("fast", "t3")}


def oracle_path() -> Path | None:
    """The usrsctp-oracle executable: $TRANSPORTLAB_USRSCTP_ORACLE, else the one installed
    next to libtransportlab.so, else one in the build tree; None when not built."""
    env = os.environ.get("TRANSPORTLAB_USRSCTP_ORACLE")
    if env:
        return Path(env) if Path(env).is_file() else None
    candidates: list[Path] = []
    try:
        candidates.append(native_dir() / "bin" / "usrsctp-oracle")
    except NativeLibraryNotFoundError:
        pass
    candidates += [Path(p) / "transportlab" / "bin" / "usrsctp-oracle" for p in sys.path if p]
    # a checkout's build tree: <root>/src/transportlab/studies/sctp_validation/stacks.py
    root = Path(__file__).resolve().parents[4]
    candidates += sorted(root.glob("build/*/tools/usrsctp-oracle/usrsctp-oracle"))
    for c in candidates:
        if c.is_file() and os.access(c, os.X_OK):
            return c
    found = shutil.which("usrsctp-oracle")
    return Path(found) if found else None


def oracle_available() -> bool:
    return oracle_path() is not None


_DROP_REASONS = ("list", "tsn", "random")


def run_oracle(scenario: Scenario, profile: str = "default", seed: int = 1) -> Trace:
    """Run the scenario on usrsctp (a subprocess; milliseconds of CPU)."""
    exe = oracle_path()
    if exe is None:
        raise OracleNotAvailableError(
            "usrsctp-oracle is not built: install libusrsctp-dev "
            "(apt-get install libusrsctp-dev) and rebuild (make install)"
        )
    args = scenario.oracle_args(profile, seed)
    proc = subprocess.run([str(exe), *args], capture_output=True, text=True, check=False)
    if proc.returncode not in (0, 3):  # 3 = not complete by stop_s
        raise RuntimeError(f"usrsctp-oracle failed ({proc.returncode}): {proc.stderr.strip()}")
    return parse_oracle_trace(proc.stdout, scenario)


def parse_oracle_trace(text: str, scenario: Scenario) -> Trace:
    """Turn usrsctp-oracle's CSV into a :class:`Trace` (times relative to the INIT)."""
    ev = pd.read_csv(StringIO(text), dtype={"event": str, "dir": str, "kind": str})
    ev["kind"] = ev["kind"].fillna("")
    ev["time"] = ev.pop("time_ns") / 1e9
    names = {"cwnd": "cwnd", "rto_ms": "rto_ms", "srtt_ms": "rtt_ms", "peer_rwnd": "peer_rwnd"}
    s = ev[ev.event.isin(list(names))]
    series = pd.DataFrame(
        {"time": s.time, "name": s.event.map(names), "value": s.value.astype(float)}
    ).reset_index(drop=True)
    d = ev[ev.event == "data_tx"]
    data = pd.DataFrame(
        {"time": d.time, "tsn": d.tsn.astype(np.int64), "length": d.value, "kind": d.kind}
    ).reset_index(drop=True)
    dr = ev[ev.event == "pkt_drop"]
    drops = pd.DataFrame({"time": dr.time, "reason": dr.kind}).reset_index(drop=True)
    done = ev[ev.event == "complete"]
    end = ev[ev.event == "end"]
    t3 = ev[ev.event == "t3_timeout"]
    return Trace(
        stack="usrsctp",
        scenario=scenario,
        completion_s=float(done.time.iloc[0]) if len(done) else float("nan"),
        delivered=int(end.value.iloc[-1]) if len(end) else 0,
        series=series,
        data=data,
        drops=drops,
        timeouts=int(t3.value.max()) if len(t3) else 0,
        timeout_times=tuple(float(t) for t in t3.time),
        packets=ev[ev.event.str.startswith("pkt_")].reset_index(drop=True),
    )


def two_node_link(ns, rate_mbps: float, delay_ms: float, queue_packets: int, mtu=None):
    """The oracle's link model in ns-3: two nodes with IPv4 and SCTP on one point-to-point
    link (10.1.1.0/24) whose device drop-tail queue of ``queue_packets`` is the only queue
    (the traffic-control layer is removed). ``mtu`` None keeps the device's default.
    Returns (nodes, p2p helper, devices, interfaces): the caller keeps each alive for the
    run and deletes them before the simulation ends, as every run here does."""
    nodes = ns.NodeContainer()
    nodes.Create(2)
    p2p = ns.PointToPointHelper()
    p2p.SetDeviceAttribute("DataRate", ns.DataRateValue(ns.DataRate(int(rate_mbps * 1e6))))
    if mtu is not None:
        p2p.SetDeviceAttribute("Mtu", ns.UintegerValue(mtu))
    p2p.SetChannelAttribute("Delay", ns.TimeValue(ns.NanoSeconds(round(delay_ms * 1e6))))
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", ns.StringValue(f"{queue_packets}p"))
    devices = p2p.Install(nodes)
    ns.InternetStackHelper().Install(nodes)
    ns.SctpStackHelper().Install(nodes)
    addresses = ns.Ipv4AddressHelper()
    addresses.SetBase(ns.Ipv4Address("10.1.1.0"), ns.Ipv4Mask("255.255.255.0"))
    interfaces = addresses.Assign(devices)
    ns.TrafficControlHelper().Uninstall(devices)
    return nodes, p2p, devices, interfaces


def run_model(
    scenario: Scenario,
    profile: str = "default",
    seed: int = 1,
    run: int = 1,
    defaults: Mapping[str, str] | None = None,
    pcap_prefix: str | None = None,
) -> Trace:
    """Run the scenario on transportlab's ns-3 SCTP model (ns-3 loaded here).

    ``defaults`` (attribute path -> value, e.g. ``SctpStackHelper::GetNs2Defaults``) are
    set before the profile's and the scenario's own settings, which win where both set
    an attribute. ``pcap_prefix``: also write a pcap of the sender's side of the link
    (both directions), ``<prefix>-0-1.pcap``, that tshark decodes.
    """
    if profile not in PROFILES:
        raise ScenarioError(f"unknown profile {profile!r} (one of {list(PROFILES)})")
    sc = scenario
    with simulation(seed=seed, run=run) as ns:
        for path, value in (defaults or {}).items():
            ns.Config.SetDefault(path, ns.StringValue(str(value)))
        for attr, value in PROFILES[profile]["ns3"].items():
            ns.Config.SetDefault(f"ns3::SctpSocket::{attr}", ns.UintegerValue(int(value(sc))))
        for attr, value in (
            ("RtoInitial", ns.TimeValue(ns.MilliSeconds(sc.rto_initial_ms))),
            ("RtoMin", ns.TimeValue(ns.MilliSeconds(sc.rto_min_ms))),
            ("RtoMax", ns.TimeValue(ns.MilliSeconds(sc.rto_max_ms))),
            ("SackDelay", ns.TimeValue(ns.MilliSeconds(sc.sack_delay_ms))),
            ("SackFrequency", ns.UintegerValue(sc.sack_freq)),
            ("SndBufSize", ns.UintegerValue(sc.sndbuf)),
            ("RcvBufSize", ns.UintegerValue(sc.rcvbuf)),
            ("MaxBurst", ns.UintegerValue(sc.max_burst)),
            ("OutboundStreams", ns.UintegerValue(max(10, sc.streams))),
            ("MaxInboundStreams", ns.UintegerValue(max(10, sc.streams))),
            ("AssociationMaxRetrans", ns.UintegerValue(100)),  # as in usrsctp-oracle
            ("PathMaxRetrans", ns.UintegerValue(100)),
        ):
            ns.Config.SetDefault(f"ns3::SctpSocket::{attr}", value)
        nodes, p2p, devices, interfaces = two_node_link(
            ns, sc.rate_mbps, sc.delay_ms, sc.queue_packets, mtu=sc.mtu
        )
        em = ns.CreateObject[ns.SctpDropErrorModel]()
        for n in sc.drop_packets:
            em.AddPacket(n)
        for tsn, times in sc.drop_tsns:
            em.AddTsn(tsn, times)
        em.SetRandomLoss(float(sc.loss_rate), int(sc.loss_seed))
        devices.Get(1).SetAttribute("ReceiveErrorModel", ns.PointerValue(em))
        flow = ns.CreateObject[ns.SctpValidationFlow]()
        flow.Setup(
            nodes.Get(0),
            nodes.Get(1),
            interfaces.GetAddress(1),
            5002,
            sc.message_size,
            sc.total_bytes,
            sc.streams,
            0.0,
        )
        flow.WatchQueue(devices.Get(0))
        if pcap_prefix:
            p2p.EnablePcap(str(pcap_prefix), devices.Get(0), True)
        run_until(sc.stop_s)
        names = ("cwnd", "ssthresh", "rto_ms", "rtt_ms", "peer_rwnd")
        series = pd.DataFrame(
            {
                "time": vector_array(flow.GetSeriesTimesNs(), np.int64) / 1e9,
                "name": [names[i] for i in vector_array(flow.GetSeriesNames(), np.uint8)],
                "value": vector_array(flow.GetSeriesValues(), np.float64),
            }
        )
        tsns = vector_array(flow.GetDataTsns(), np.uint32).astype(np.int64)
        base = int(tsns[0]) if len(tsns) else 0
        kinds = np.array(["new", "fast", "t3"], dtype=object)
        data = pd.DataFrame(
            {
                "time": vector_array(flow.GetDataTimesNs(), np.int64) / 1e9,
                "tsn": (tsns - base) % (1 << 32),
                "length": vector_array(flow.GetDataLengths(), np.uint32).astype(np.int64),
                "kind": kinds[vector_array(flow.GetDataKinds(), np.uint8)],
            }
        )
        reasons = np.array(_DROP_REASONS, dtype=object)
        queue = vector_array(flow.GetQueueDropTimesNs(), np.int64) / 1e9
        drops = pd.DataFrame(
            {
                "time": np.concatenate([vector_array(em.GetDropTimesNs(), np.int64) / 1e9, queue]),
                "reason": np.concatenate(
                    [
                        reasons[vector_array(em.GetDropReasons(), np.uint8)],
                        np.array(["queue"] * len(queue), dtype=object),
                    ]
                ),
            }
        ).sort_values("time", kind="stable", ignore_index=True)
        completion = int(flow.GetCompletionNs())
        socket = flow.GetClientSocket()
        trace = Trace(
            stack="ns-3",
            scenario=sc,
            completion_s=completion / 1e9 if completion >= 0 else float("nan"),
            delivered=int(flow.GetDelivered()),
            series=series,
            data=data,
            drops=drops,
            timeouts=int(socket.GetAssociation().GetSender().GetTimeoutCount()) if socket else 0,
        )
        del flow, em, devices, nodes, p2p, interfaces, socket
    return trace


# ---------------------------------------------------------------- scenario sets


def _base(**kw) -> Scenario:
    return Scenario(**kw)


def quick_scenarios() -> list[Scenario]:
    """A dozen scenarios, fast (the differential test suite and quick mode)."""
    return [
        _base(name="no_loss", group="no loss", description="500 kB, no loss"),
        _base(
            name="no_loss_fast_link",
            group="no loss",
            rate_mbps=50,
            delay_ms=5,
            total_bytes=1_000_000,
            description="50 Mb/s, 5 ms",
        ),
        _base(
            name="loss_early",
            group="single loss",
            drop_tsns=((5, 1),),
            description="TSN 5 lost once (slow start)",
        ),
        _base(
            name="loss_mid",
            group="single loss",
            drop_tsns=((150, 1),),
            description="TSN 150 lost once",
        ),
        _base(
            name="loss_tail",
            group="single loss",
            total_bytes=14520,
            drop_tsns=((9, 1),),
            description="last of 10 TSNs lost: only T3 recovers it",
            expect=("t3_not_restarted",),
        ),
        _base(
            name="burst_4",
            group="burst",
            drop_tsns=tuple((t, 1) for t in range(100, 104)),
            description="4 consecutive TSNs lost",
        ),
        _base(
            name="random_2pct",
            group="random",
            loss_rate=0.02,
            loss_seed=1,
            description="2 % random loss, seed 1",
        ),
        _base(
            name="random_10pct",
            group="random",
            loss_rate=0.10,
            loss_seed=3,
            total_bytes=300_000,
            description="10 % random loss, seed 3 (lost retransmissions)",
            expect=("repeat_fast_rtx",),
        ),
        _base(
            name="rto_backoff",
            group="rto",
            total_bytes=14520,
            drop_tsns=((3, 3),),
            description="TSN 3 lost 3 times: fast retransmit, then T3 with back-off",
        ),
        _base(
            name="rwnd_limited",
            group="rwnd",
            rcvbuf=16384,
            delay_ms=50,
            description="16 kB receive window, 100 ms RTT",
        ),
        _base(
            name="streams_4",
            group="streams",
            streams=4,
            drop_tsns=((40, 1),),
            description="4 streams, one loss",
        ),
        _base(
            name="small_messages",
            group="messages",
            message_size=100,
            total_bytes=100_000,
            description="100-byte messages (bundling)",
        ),
        _base(
            name="fragmented",
            group="messages",
            message_size=8000,
            total_bytes=400_000,
            drop_tsns=((60, 1),),
            description="8000-byte messages over 1500 MTU",
        ),
    ]


def full_scenarios() -> list[Scenario]:
    """The notebook's full set (more than 40)."""
    out = list(quick_scenarios())
    for rate, delay in ((1, 10), (5, 50), (20, 2), (100, 1)):
        out.append(
            _base(
                name=f"no_loss_{rate}M_{delay}ms",
                group="no loss",
                rate_mbps=rate,
                delay_ms=delay,
                total_bytes=min(2_000_000, int(rate * 250_000)),
                description=f"{rate} Mb/s, {delay} ms",
            )
        )
    for tsn in (0, 2, 20, 60, 250):
        out.append(
            _base(
                name=f"loss_tsn_{tsn}",
                group="single loss",
                drop_tsns=((tsn, 1),),
                description=f"TSN {tsn} lost once",
            )
        )
    for tsn in (19, 49):
        out.append(
            _base(
                name=f"loss_tail_{tsn + 1}",
                group="single loss",
                total_bytes=(tsn + 1) * 1452,
                drop_tsns=((tsn, 1),),
                description=f"last of {tsn + 1} TSNs lost",
                expect=("t3_not_restarted",),
            )
        )
    for n in (2, 8, 16):
        out.append(
            _base(
                name=f"burst_{n}",
                group="burst",
                drop_tsns=tuple((t, 1) for t in range(120, 120 + n)),
                description=f"{n} consecutive TSNs lost",
            )
        )
    out.append(
        _base(
            name="two_bursts",
            group="burst",
            drop_tsns=tuple((t, 1) for t in (50, 51, 52, 200, 201)),
            description="two bursts",
        )
    )
    for rate in (0.01, 0.05, 0.10):
        for seed in (1, 2, 3):
            if (rate, seed) == (0.10, 3):
                continue  # the quick set's random_10pct
            out.append(
                _base(
                    name=f"random_{int(rate * 100)}pct_s{seed}",
                    group="random",
                    loss_rate=rate,
                    loss_seed=seed,
                    total_bytes=300_000,
                    description=f"{rate:.0%} random loss, seed {seed}",
                )
            )
    for times in (2, 4):
        out.append(
            _base(
                name=f"rto_backoff_{times}",
                group="rto",
                total_bytes=14520,
                drop_tsns=((3, times),),
                description=f"TSN 3 lost {times} times",
            )
        )
    for rcv in (8192, 32768):
        out.append(
            _base(
                name=f"rwnd_{rcv // 1024}k",
                group="rwnd",
                rcvbuf=rcv,
                delay_ms=50,
                description=f"{rcv // 1024} kB receive window, 100 ms RTT",
            )
        )
    out.append(
        _base(
            name="streams_10",
            group="streams",
            streams=10,
            drop_tsns=((30, 1), (90, 1)),
            description="10 streams, two losses",
        )
    )
    for size in (500, 1452, 4000, 30000):
        out.append(
            _base(
                name=f"msg_{size}",
                group="messages",
                message_size=size,
                total_bytes=300_000 if size < 30000 else 600_000,
                description=f"{size}-byte messages",
            )
        )
    out.append(
        _base(
            name="mtu_1280",
            group="messages",
            mtu=1280,
            message_size=1232,
            description="1280-byte MTU",
        )
    )
    out.append(
        _base(
            name="small_queue",
            group="queue",
            queue_packets=10,
            rate_mbps=5,
            total_bytes=1_000_000,
            description="10-packet queue: losses from overflow",
        )
    )
    out.append(
        _base(name="sack_every_packet", group="sack", sack_freq=1, description="SACK every packet")
    )
    for name, knob, description in (
        ("rto_min_200ms", {"rto_min_ms": 200}, "RTO.Min 200 ms, tail loss"),
        ("sack_delay_50ms", {"sack_delay_ms": 50}, "delayed SACK 50 ms, tail loss"),
    ):
        out.append(
            _base(
                name=name,
                group="knobs",
                total_bytes=14520,
                drop_tsns=((9, 1),),
                description=description,
                expect=("t3_not_restarted",),
                **knob,
            )
        )
    return out


#: Differences that the 'aligned' profile removes (settings of one of the stacks).
def run_traces(sc: Scenario, seed: int = 1) -> dict[str, Trace]:
    """Both stacks under both profiles: the four traces of one scenario."""
    return {
        "usrsctp": run_oracle(sc, "default", seed=seed),
        "ns3": run_model(sc, "default"),
        "usrsctp_aligned": run_oracle(sc, "aligned", seed=seed),
        "ns3_aligned": run_model(sc, "aligned"),
    }


TRACE_TABLES = ("series", "data", "drops", "packets")


def traces_to_tables(traces: Mapping[str, Trace]) -> dict[str, pd.DataFrame]:
    """The four traces of a scenario as tables (a ``trace`` column names each), for caching."""
    runs = pd.DataFrame(
        [
            {
                "trace": key,
                "stack": t.stack,
                "completion_s": t.completion_s,
                "delivered": t.delivered,
                "timeouts": t.timeouts,
            }
            for key, t in traces.items()
        ]
    )
    tables = {"runs": runs}
    for name in TRACE_TABLES:
        frames = [
            getattr(t, name).assign(trace=key)
            for key, t in traces.items()
            if getattr(t, name) is not None
        ]
        tables[name] = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    tables["timeout_times"] = pd.DataFrame(
        [(key, time) for key, t in traces.items() for time in t.timeout_times],
        columns=["trace", "time"],
    )
    return tables


def traces_from_tables(sc: Scenario, tables: Mapping[str, pd.DataFrame]) -> dict[str, Trace]:
    """The inverse of :func:`traces_to_tables` for one scenario."""

    def part(name: str, key: str) -> pd.DataFrame | None:
        frame = tables[name]
        if "trace" not in frame:
            return None
        rows = frame[frame["trace"] == key].drop(columns="trace")
        return rows.reset_index(drop=True)

    traces = {}
    for row in tables["runs"].itertuples():
        packets = part("packets", row.trace)
        times = tables["timeout_times"]
        traces[row.trace] = Trace(
            stack=row.stack,
            scenario=sc,
            completion_s=float(row.completion_s),
            delivered=int(row.delivered),
            series=part("series", row.trace),
            data=part("data", row.trace),
            drops=part("drops", row.trace),
            timeouts=int(row.timeouts),
            timeout_times=tuple(float(t) for t in times[times["trace"] == row.trace]["time"]),
            packets=packets if packets is not None and len(packets) else None,
        )
    return traces


def scenario_by_name(name: str) -> Scenario:
    """A scenario of the quick or full set, by name."""
    for sc in [*quick_scenarios(), *full_scenarios()]:
        if sc.name == name:
            return sc
    raise KeyError(f"unknown validation scenario {name!r}")
