"""SCTP multi-homing and partial reliability: seed 002 sections 3.5 and 5.5, seed 001.

Three experiments (``section``):

* ``failover`` (seed 002 section 5.5): host A with two addresses sends a paced stream
  of messages to host B; at ``fail_at`` the cable of A's primary interface is pulled
  (IP does not notice, as on the seed's 2002 Linux host) and optionally plugged back at
  ``repair_at``. ``topology = "seed_hub"`` is the seed's set-up (A .1 and .2, B .3 on
  one 100 Mb/s hub): B has one address, so only A's source address can change
  (``source_failover``; off = what the seed saw: retransmissions on the dead interface
  until the association gives up). ``topology = "two_networks"``: A and B both have
  two addresses on two independent links, the RFC 9260 destination failover after
  Path.Max.Retrans + 1 consecutive timeouts (:func:`failover_window`).
* ``lossy`` (seed 002 section 3.5, Brennan et al. 2001): a bulk transfer over a path
  losing ``loss`` of its packets in both directions, single-homed (one link) or
  multi-homed (a second, loss-free link for retransmissions); delivery stalls.
* ``prsctp`` (seed 001's voice over SCTP): a 64 kb/s voice-like stream (a frame every
  20 ms) over a lossy link with fully reliable SCTP, PR-SCTP with a lifetime, PR-SCTP
  with at most k retransmissions (NS-2 "k-rtx"), or UDP as the floor.

Tables per run: ``summary`` (one row), ``deliveries`` (time and TSN of every message
delivered at B: TSN-versus-time plots), ``stalls`` (delivery gaps longer than
``stall_threshold``), ``paths`` (path events of A), ``delays`` (prsctp: one row per
voice frame).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab.params import Param, ParameterSpace
from transportlab.studies import Study

PORT = 7000
START = 0.5  # the application starts; the association is set up first
VOICE_PAYLOAD = 172  # 160 bytes of G.711 per 20 ms + 12 bytes of RTP header
VOICE_INTERVAL = 0.020
DELAY_BUDGET = 0.150  # ITU-T G.114 one-way delay for good quality
# Random loss starts once the association is up (handshake: two RTTs after START), so
# that a lost INIT (3 s RTO.Initial) does not decide a run; frames sent before it are
# not counted.
LOSS_START = START + 0.1


def _consistency(p: Mapping[str, Any]) -> str | None:
    if p["section"] == "failover":
        if not START < p["fail_at"] < p["duration"]:
            return f"fail_at ({p['fail_at']} s) must lie between {START} s and duration"
        if p["repair_at"] and not p["fail_at"] < p["repair_at"] < p["duration"]:
            return "repair_at must be 0 (never) or between fail_at and duration"
    if p["rto_min"] > p["rto_max"]:
        return f"rto_min ({p['rto_min']} s) exceeds rto_max ({p['rto_max']} s)"
    if p["section"] == "prsctp" and p["policy"] == "rtx" and p["pr_value"] > 100:
        return "pr_value is a retransmission count for policy 'rtx' (at most 100)"
    return None


PARAMETERS = ParameterSpace(
    Param("section", "failover", str, "experiment", choices=("failover", "lossy", "prsctp")),
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
    Param("path_max_retrans", 5, int, "Path.Max.Retrans (RFC 9260 default 5)", minimum=1),
    Param("assoc_max_retrans", 10, int, "Association.Max.Retrans (RFC 9260 default 10)", minimum=1),
    Param("rto_initial", 3.0, float, "RTO.Initial", minimum=0.001, unit="s"),
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
        "loss",
        0.15,
        float,
        "lossy/prsctp: packet loss rate, each direction",
        minimum=0,
        maximum=0.9,
    ),  # fmt: skip
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
        "delivery gaps longer than this count as stalls",
        minimum=0.001,
        unit="s",
    ),
    consistency=[_consistency],
)


# ----------------------------------------------------------------------------- analysis


def failover_window(path_max_retrans: int, rto: float, rto_max: float) -> tuple[float, float]:
    """When the primary becomes inactive after a failure, by the RFC 9260 timers.

    The (Path.Max.Retrans + 1)-th consecutive T3-rtx expiry marks it inactive (8.2).
    The RTO is ``rto`` at the failure and doubles at each expiry (6.3.3 E2, capped at
    RTO.Max); the first expiry comes at most one RTO after the failure (the timer runs
    from the last acknowledgement), at the earliest just after it. Returns
    ``(earliest, latest)`` seconds after the failure.
    """
    backoffs = [min(rto * 2**i, rto_max) for i in range(path_max_retrans + 1)]
    after_first = sum(backoffs[1:])
    return after_first, after_first + backoffs[0]


def return_bound(hb_interval: float, rto_max: float, rtt: float) -> float:
    """Latest return of a repaired path after the repair (RFC 9260 8.3): the next
    HEARTBEAT to an inactive destination leaves within HB.interval + RTO (jitter +50 %,
    RTO at most RTO.Max), its answer one RTT later."""
    return hb_interval + 1.5 * rto_max + rtt


def delivery_gaps(times: np.ndarray, start: float, end: float) -> np.ndarray:
    """Gaps between consecutive deliveries, including start -> first and last -> end."""
    t = np.concatenate(([start], np.sort(np.asarray(times, dtype=float)), [end]))
    return np.diff(t)


def stall_table(times: np.ndarray, start: float, end: float, threshold: float) -> pd.DataFrame:
    """Delivery gaps longer than ``threshold``: begin, end, length."""
    t = np.concatenate(([start], np.sort(np.asarray(times, dtype=float)), [end]))
    gaps = np.diff(t)
    long = gaps > threshold
    return pd.DataFrame({"begin": t[:-1][long], "end": t[1:][long], "length": gaps[long]})


# ----------------------------------------------------------------------------- simulation


def _socket_defaults(ns, p: Mapping[str, Any]) -> None:
    s = "ns3::SctpSocket::"
    ns.Config.SetDefault(s + "RtoInitial", ns.TimeValue(ns.Seconds(p["rto_initial"])))
    ns.Config.SetDefault(s + "RtoMin", ns.TimeValue(ns.Seconds(p["rto_min"])))
    ns.Config.SetDefault(s + "RtoMax", ns.TimeValue(ns.Seconds(p["rto_max"])))
    ns.Config.SetDefault(s + "HbInterval", ns.TimeValue(ns.Seconds(p["hb_interval"])))
    ns.Config.SetDefault(s + "PathMaxRetrans", ns.UintegerValue(p["path_max_retrans"]))
    ns.Config.SetDefault(s + "AssociationMaxRetrans", ns.UintegerValue(p["assoc_max_retrans"]))
    ns.Config.SetDefault(s + "SourceAddressFailover", ns.BooleanValue(p["source_failover"]))
    ns.Config.SetDefault(s + "RtxToAlt", ns.StringValue(p["rtx_to_alt"]))


def _loss_model(ns, rate: float):
    model = ns.CreateObject[ns.RateErrorModel]()
    model.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
    model.SetAttribute("ErrorRate", ns.DoubleValue(rate))
    return model


def _any(ns, port: int):
    return ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo()


def simulate(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """One replication of the selected section (tables: module docstring)."""
    from transportlab.simulation import simulation  # noqa: PLC0415

    with simulation(seed=seed, run=run) as ns:
        _socket_defaults(ns, params)
        if params["section"] == "prsctp":
            return _simulate_prsctp(ns, params)
        return _simulate_transfer(ns, params)


def _simulate_transfer(ns, p: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    from transportlab import multihoming  # noqa: PLC0415
    from transportlab.sctp_recording import SctpRecorder  # noqa: PLC0415
    from transportlab.simulation import run_until  # noqa: PLC0415

    failover = p["section"] == "failover"
    if failover and p["topology"] == "seed_hub":
        net = multihoming.seed_hub(ns)
    else:
        net = multihoming.two_networks(ns, rate=f"{p['rate_mbps']}Mbps", delay=f"{p['delay_ms']}ms")
    single = p["section"] == "lossy" and p["homing"] == "single"
    recorder = SctpRecorder(data_chunks_only=True)
    recorder.watch_node(net.a, 0)
    recorder.watch_node(net.b, 1)
    remote = ns.InetSocketAddress(net.b_addresses[0], PORT).ConvertTo()
    # Single-homed: both ends bound to their address on network 0 only. Multi-homed:
    # bound to the any-address, so the association uses every address of the host.
    local_b = ns.InetSocketAddress(net.b_addresses[0], PORT).ConvertTo() if single else None
    sink = ns.PacketSinkHelper("ns3::SctpSocketFactory", local_b or _any(ns, PORT))
    sink_apps = sink.Install(net.b)
    sink_apps.Start(ns.Seconds(0.0))
    if failover:
        rate = p["message_size"] * 8 / (p["message_interval_ms"] / 1000)
        source = ns.OnOffHelper("ns3::SctpSocketFactory", remote)
        source.SetConstantRate(ns.DataRate(round(rate)), p["message_size"])
    else:
        source = ns.BulkSendHelper("ns3::SctpSocketFactory", remote)
        source.SetAttribute("SendSize", ns.UintegerValue(1452))
    if single:
        source.SetAttribute(
            "Local", ns.AddressValue(ns.InetSocketAddress(net.a_addresses[0], 0).ConvertTo())
        )
    source_apps = source.Install(net.a)
    source_apps.Start(ns.Seconds(START))
    source_apps.Stop(ns.Seconds(p["duration"]))
    if failover:
        ns.LinkFailure.ScheduleUnplug(ns.Seconds(p["fail_at"]), net.a_devices[0])
        if p["repair_at"]:
            ns.LinkFailure.SchedulePlug(ns.Seconds(p["repair_at"]), net.a_devices[0])
    else:
        models = [_loss_model(ns, p["loss"]) for _ in range(2)]
        net.keep += models
        run_until(LOSS_START)
        net.a_devices[0].SetAttribute("ReceiveErrorModel", ns.PointerValue(models[0]))
        net.b_devices[0].SetAttribute("ReceiveErrorModel", ns.PointerValue(models[1]))
    run_until(p["duration"])
    chunks = recorder.chunks()
    paths = recorder.paths()
    delivered = recorder.delivered()
    deliveries = delivered[delivered.node == 1][["time", "tsn", "size"]].reset_index(drop=True)
    data = chunks[(chunks.node == 0) & (chunks.chunk == "DATA")]
    first = deliveries.time.min() if len(deliveries) else np.nan
    window_start = p["fail_at"] if failover else first
    after = deliveries.time[deliveries.time >= window_start].to_numpy()
    stalls = (
        stall_table(after, window_start, p["duration"], p["stall_threshold"])
        if np.isfinite(window_start)
        else pd.DataFrame(columns=["begin", "end", "length"])
    )
    gaps = (
        delivery_gaps(after, window_start, p["duration"])
        if np.isfinite(window_start)
        else np.array([])
    )
    a_paths = paths[paths.node == 0]
    summary = {
        "delivered_bytes": int(deliveries["size"].sum()),
        "goodput_mbps": float(deliveries["size"].sum() * 8 / 1e6 / (p["duration"] - START)),
        "data_chunks": len(data),
        "retransmissions": int(data.retransmission.sum()),
        "first_retransmission_s": float(data.time[data.retransmission].min() - START)
        if data.retransmission.any()
        else np.nan,
        "max_stall_s": float(gaps.max()) if len(gaps) else np.nan,
        "n_stalls": len(stalls),
        "association_failed": bool(
            p["duration"] - (deliveries.time.max() if len(deliveries) else 0) > 5.0
        ),
    }
    if failover:
        unreachable = a_paths[(a_paths.path == 0) & (a_paths.event == "UNREACHABLE")].time
        available = a_paths[(a_paths.path == 0) & (a_paths.event == "AVAILABLE")].time
        resumed = deliveries.time[deliveries.time > p["fail_at"]]
        summary |= {
            "failover_s": float(unreachable.min() - p["fail_at"]) if len(unreachable) else np.nan,
            "resume_s": float(resumed.min() - p["fail_at"]) if len(resumed) else np.nan,
            "return_s": float(available.min() - p["repair_at"])
            if p["repair_at"] and len(available)
            else np.nan,
            "data_chunks_secondary": int((data.path != 0).sum()),
        }
    del net, recorder, sink_apps, source_apps
    return {
        "summary": pd.DataFrame([summary]),
        "deliveries": deliveries,
        "stalls": stalls,
        "paths": a_paths.reset_index(drop=True),
    }


def _simulate_prsctp(ns, p: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    from transportlab.recording import PacketRecorder, enable_seq_ts_size  # noqa: PLC0415
    from transportlab.simulation import run_until  # noqa: PLC0415

    policy = p["policy"]
    if policy != "udp":
        s = "ns3::SctpSocket::"
        names = {"reliable": "NONE", "ttl": "TTL", "rtx": "RTX"}
        ns.Config.SetDefault(s + "PrPolicy", ns.StringValue(names[policy]))
        ns.Config.SetDefault(s + "PrValue", ns.UintegerValue(p["pr_value"]))
        ns.Config.SetDefault(s + "Unordered", ns.BooleanValue(policy != "reliable"))
    nodes = ns.NodeContainer()
    nodes.Create(2)
    link = ns.PointToPointHelper()
    link.SetDeviceAttribute("DataRate", ns.StringValue(f"{p['rate_mbps']}Mbps"))
    link.SetChannelAttribute("Delay", ns.TimeValue(ns.MicroSeconds(round(p["delay_ms"] * 1000))))
    devices = link.Install(nodes)
    ns.InternetStackHelper().Install(nodes)
    ns.SctpStackHelper().Install(nodes)
    addresses = ns.Ipv4AddressHelper()
    addresses.SetBase(ns.Ipv4Address("10.1.1.0"), ns.Ipv4Mask("255.255.255.0"))
    interfaces = addresses.Assign(devices)
    factory = "ns3::UdpSocketFactory" if policy == "udp" else "ns3::SctpSocketFactory"
    remote = ns.InetSocketAddress(interfaces.GetAddress(1), PORT).ConvertTo()
    source = ns.OnOffHelper(factory, remote)
    source.SetConstantRate(ns.DataRate(round(VOICE_PAYLOAD * 8 / VOICE_INTERVAL)), VOICE_PAYLOAD)
    sink = ns.PacketSinkHelper(factory, _any(ns, PORT))
    enable_seq_ts_size(source, sink)
    source_apps = source.Install(nodes.Get(0))
    sink_apps = sink.Install(nodes.Get(1))
    sink_apps.Start(ns.Seconds(0.0))
    source_apps.Start(ns.Seconds(START))
    stop_sending = p["duration"] - 5.0  # five seconds to deliver what is in flight
    source_apps.Stop(ns.Seconds(stop_sending))
    models = [_loss_model(ns, p["loss"]) for _ in range(2)]
    recorder = PacketRecorder()
    recorder.watch_sender(source_apps.Get(0), flow=1)
    recorder.watch_receiver(sink_apps.Get(0), flow=1)
    run_until(LOSS_START)
    for device, model in zip((devices.Get(0), devices.Get(1)), models, strict=True):
        device.SetAttribute("ReceiveErrorModel", ns.PointerValue(model))
    run_until(p["duration"])
    packets = recorder.to_frame()
    sent = packets[packets.event == "sent"].set_index("seq")
    received = packets[packets.event == "received"].drop_duplicates("seq").set_index("seq")
    sent = sent[sent.time >= LOSS_START]
    frames = pd.DataFrame({"sent": sent.time})
    frames["received"] = received.time.reindex(frames.index)
    frames["delay_s"] = frames.received - frames.sent
    frames = frames.reset_index()
    delays = frames.delay_s.dropna().to_numpy()
    n = len(frames)
    summary = {
        "frames_sent": n,
        "frames_received": len(delays),
        "residual_loss": 1 - len(delays) / n if n else np.nan,
        "late_or_lost": float(((frames.delay_s > DELAY_BUDGET) | frames.delay_s.isna()).mean()),
        "delay_mean_ms": float(delays.mean() * 1e3) if len(delays) else np.nan,
        "delay_p95_ms": float(np.percentile(delays, 95) * 1e3) if len(delays) else np.nan,
        "delay_p99_ms": float(np.percentile(delays, 99) * 1e3) if len(delays) else np.nan,
        "delay_max_ms": float(delays.max() * 1e3) if len(delays) else np.nan,
        "duplicates": int((packets.event == "received").sum() - len(received)),
    }
    del nodes, devices, source_apps, sink_apps, recorder, models
    return {"summary": pd.DataFrame([summary]), "delays": frames}


# ----------------------------------------------------------------------------- comparison


def reproduced_rows(lossy_summary: pd.DataFrame) -> pd.DataFrame:
    """Rows for :func:`transportlab.published.compare` from the ``lossy`` summaries
    (one row per replication): the longest stall of each run, per configuration, and
    the time of the first retransmission single-homed."""
    rows = []
    labels = {"single": "SCTP (single-homed)", "multi": "SCTP (multi-homed)"}
    for _, r in lossy_summary.iterrows():
        protocol = labels[r["homing"]]
        row = f"{round(r['loss'] * 100):d}% packet loss"
        rows.append((protocol, "transmission_stall", row, "s", r["max_stall_s"]))
        if r["homing"] == "single":
            rows.append((protocol, "first_loss_time", row, "s", r["first_retransmission_s"]))
    return pd.DataFrame(rows, columns=["protocol", "metric", "row", "unit", "value"])


STUDY = Study(
    name="multihoming_failover",
    title="SCTP multi-homing failover, stalls under loss, and PR-SCTP for voice",
    seed_files=("002_8ca3fd7f92b4e1a6.txt", "001_8dea97bcf2df26a4.txt"),
    notebook="05_multihoming_failover.ipynb",
    parameters=PARAMETERS,
    simulate=simulate,
    description="Seed 002 section 5.5 (unplugged primary interface) and section 3.5 "
    "(Brennan et al.: single vs multi-homed under 15 % loss); PR-SCTP lifetime and k-rtx "
    "for a voice-like flow against full reliability and UDP.",
    tags=("sctp", "multihoming", "pr-sctp"),
)
