"""Analysis of the wired best-effort study: per-flow metrics, summaries, comparison rows.

Not cached: changing anything here costs no simulation. :func:`analyse` turns the
raw tables of one replication (``scenario.run``) into the study's tables; the other
functions summarise replications, build the rows compared with the published
values, and hold the descriptive tables of the notebook (packet sizes, how the TCP
configuration differs from NS-2's).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine import stats
from transportlab.models import metrics
from transportlab.studies.wired_best_effort.parameters import (
    IPV4_HEADER,
    NS2_TCP_HEADER,
    PPP_HEADER,
    SCTP_COMMON_HEADER,
    SCTP_DATA_CHUNK_HEADER,
    TCP_HEADER,
    UDP_HEADER,
    sample_edges,
)

SEED_000 = "000_efd8d8b62659a846.txt"
SEED_004 = "004_c8175ad9bda103cf.txt"

# ----------------------------------------------------------------------------- configuration

# Where the scenario, as configured by default, differs from the NS-2 run, and why.
TCP_DIFFERENCES = pd.DataFrame(
    [
        ("variant", "Tahoe (Agent/TCP)",
         "TcpTahoe + TcpTahoeRecovery (src/tcp-tahoe)",
         "ns-3 has no Tahoe, so src/tcp-tahoe adds NS-2's rules: window growth per ACK, "
         "ssthresh = int(window/2) segments, and after three duplicate ACKs a retransmission "
         "and slow start from one segment without window inflation. With several losses in "
         "one window ns-3's socket retransmits one hole per partial ACK (NewReno) where "
         "Tahoe goes back N and may resend segments the receiver holds."),
        ("limited transmit", "no", "off (LimitedTransmit=false)", "as NS-2"),
        ("SACK / timestamps / window scaling", "no / no / no", "off / off / off", "as NS-2"),
        ("segment size", "1000 B + 40 B header = 1040 B", "1000 B + 20 IP + 20 TCP = 1040 B",
         "same IP datagram; ns-3 adds the 2-byte PPP header on the wire (1042 B)"),
        ("window", "window_ 20 packets", "receiver buffer 20 x 1000 B (advertised window)",
         "as NS-2 (window scaling off, 20000 < 65535)"),
        ("initial window", "windowInit_ 2, after a 40-B SYN", "InitialCwnd 2 after SYN/SYN-ACK/ACK",
         "ns-3 does the three-way handshake; NS-2 sends one SYN-like packet and waits for its ACK"),
        ("initial ssthresh", "window_ (20 packets)", "InitialSlowStartThreshold 20000 B",
         "as NS-2"),
        ("ACKs", "TCPSink: one per packet, 40 B", "DelAckCount 1: one per segment, 40 B (+2 PPP)",
         "as NS-2"),
        ("RTO", "rtxcur_init_ 3 s, minrto_ 0.2 s, maxrto_ 60 s, tcpTick_ 10 ms, RFC 2988",
         "RttEstimator InitialEstimation 3 s, MinRto 0.2 s, ClockGranularity 10 ms, RFC 6298",
         "NS-2 times one segment per RTT in 10-ms ticks; ns-3 takes a sample from every ACK of "
         "a segment sent once (Karn) at 1-ns resolution"),
        ("ssthresh after loss", "window()/2, at least 2 packets",
         "bytes in flight/2, at least 2 MSS",
         "the same while the window is full"),
        ("max burst", "maxburst_ 0 (none)", "none", "as NS-2"),
    ],
    columns=["setting", "ns2", "ns3", "note"],
)  # fmt: skip


def packet_sizes(params: Mapping[str, Any]) -> pd.DataFrame:
    """Bytes per packet in NS-2's trace and in ns-3 (IP datagram and on the wire).

    NS-2 has no link header; its TCP adds one 40-byte IP+TCP header, its UDP
    adds none, and its SCTP counts the 12-byte common header and a 20-byte IP
    header. ns-3 builds real headers and the point-to-point link adds 2 bytes
    of PPP. ``ns3_wire / ns2`` is how much longer ns-3's packet occupies the
    bottleneck; ``transmission_ms`` is the ns-3 time on the bottleneck.
    """
    mss = params["tcp_segment_size"]
    tcp_options = 12 if params["tcp_timestamps"] else 0
    chunk = params["sctp_message_size"] + SCTP_DATA_CHUNK_HEADER
    chunk += -chunk % 4  # chunks are padded to 4 bytes
    rows = [
        ("TCP data", mss, mss + NS2_TCP_HEADER, mss + IPV4_HEADER + TCP_HEADER + tcp_options),
        ("TCP ACK", 0, NS2_TCP_HEADER, IPV4_HEADER + TCP_HEADER + tcp_options),
        ("UDP CBR", params["cbr_packet_size"], params["cbr_packet_size"],
         params["cbr_packet_size"] + UDP_HEADER + IPV4_HEADER),
        ("SCTP DATA", params["sctp_message_size"], chunk + SCTP_COMMON_HEADER + IPV4_HEADER,
         chunk + SCTP_COMMON_HEADER + IPV4_HEADER),
    ]  # fmt: skip
    frame = pd.DataFrame(rows, columns=["packet", "payload", "ns2", "ns3_ip"])
    frame["ns3_wire"] = frame["ns3_ip"] + PPP_HEADER
    frame["ns3_wire / ns2"] = frame["ns3_wire"] / frame["ns2"]
    frame["transmission_ms"] = frame["ns3_wire"] * 8 / (params["bottleneck_rate_mbps"] * 1e3)
    return frame


def sctp_awk_share(params: Mapping[str, Any]) -> float:
    """Share of a full SCTP packet's data the AWK throughput script counts.

    The script counts ``size - size % pkt`` of a packet's NS-2 size (1000 of the
    1500 bytes of a packet with 1452 data bytes); the packet carries
    ``sctp_message_size`` bytes of data.
    """
    sizes = packet_sizes(params).set_index("packet")
    size, pkt = int(sizes.loc["SCTP DATA", "ns2"]), params["awk_pkt"]
    return (size - size % pkt) / params["sctp_message_size"]


def expected_queueing_delay(params: Mapping[str, Any], packet_bytes: int) -> float:
    """One-way delay (s) of a packet finding ``queue_packets - 1`` packets of its size waiting.

    Three propagation delays, three transmissions of the packet and the
    transmissions of the waiting ones on the bottleneck: the ceiling of the
    delay when the bottleneck queue is full of this flow's packets.
    """
    wire = (packet_bytes + PPP_HEADER) * 8
    bottleneck = params["bottleneck_rate_mbps"] * 1e6
    return (
        (params["access_delay_ms"] + params["bottleneck_delay_ms"] + params["egress_delay_ms"])
        / 1e3
        + wire / (params["access_rate_mbps"] * 1e6)
        + wire / bottleneck
        + wire / (params["egress_rate_mbps"] * 1e6)
        + (params["queue_packets"] - 1) * wire / bottleneck
    )


# ----------------------------------------------------------------------------- one replication


def analyse(raw: Mapping[str, pd.DataFrame], params: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """One replication's tables from the raw tables of ``scenario.run``.

    * ``flows``: one row per node pair: identity, start time, application bytes
      and goodput, and the metrics of :func:`flow_metrics`;
    * ``run``: one row: bottleneck utilisation (bits on the wire, PPP headers
      included, over capacity x time since the first start), Jain's index of the
      FTP flows' goodput and AWK throughput, drops, events, wall time;
    * ``series`` (if ``record_series``): long table ``flow, metric, time,
      value`` per ``sample_interval`` (goodput, congestion window, bottleneck
      queue with flow -1) and per AWK window (the AWK series);
    * ``packets`` (if ``record_packets``): every recorded transmission
      (``point``: sent, bottleneck, dropped, received; ``size``: IP bytes).
    """
    packets = raw["packets"]
    flows = raw["flows"].copy()
    flows["goodput_kbps"] = flows["rx_bytes"] * 8 / (params["duration"] - flows["start"]) / 1e3
    per_flow, awk_series = flow_metrics(packets, flows, params)
    flows = flows.merge(per_flow, on="flow", how="left")

    on_link = packets[packets["point"] == "bottleneck"]
    wire_bits = (on_link["size"].sum() + PPP_HEADER * len(on_link)) * 8
    busy_time = params["duration"] - float(flows["start"].min())
    ftp = flows[flows["application"] == "ftp"]
    run_row = {
        "bottleneck_utilisation": wire_bits / (params["bottleneck_rate_mbps"] * 1e6 * busy_time),
        "bottleneck_drops": int((packets["point"] == "dropped").sum()),
        "jain_goodput": metrics.jain_index(ftp["goodput_kbps"]) if len(ftp) else np.nan,
        "jain_awk_throughput": (
            metrics.jain_index(ftp["awk_throughput_kbps"].fillna(0))
            if len(ftp) and ftp["awk_throughput_kbps"].fillna(0).sum() > 0
            else np.nan
        ),
        # Column by column: a row of the mixed table would turn the event count into a float.
        **{name: column.iloc[0] for name, column in raw["run"].items()},
    }
    tables = {"flows": flows, "run": pd.DataFrame([run_row])}
    if params["record_series"]:
        tables["series"] = _series(params, raw["goodput"], raw["queue"], raw["windows"], awk_series)
    if params["record_packets"]:
        tables["packets"] = packets
    return tables


def _series(params, goodput, queue_frame, windows_frame, awk_series) -> pd.DataFrame:
    edges = sample_edges(params)
    interval = np.diff(np.concatenate([[0.0], edges]))
    parts = []
    for flow, group in goodput.groupby("flow"):
        kbps = group["bytes"].to_numpy() * 8 / interval / 1e3
        parts.append(_long(flow, "goodput_kbps", group["time"], kbps))
    if len(queue_frame):
        device = queue_frame[queue_frame["series"] == "device"]
        total_t, total_v = device["time"].to_numpy(), device["value"].to_numpy()
        if (queue_frame["series"] == "queue_disc").any():
            # Occupancy = device queue + queue disc: merge the two step functions.
            both = queue_frame.sort_values("time", kind="mergesort")
            current = {"device": 0.0, "queue_disc": 0.0}
            values = []
            for name, value in zip(both["series"], both["value"], strict=True):
                current[name] = value
                values.append(current["device"] + current["queue_disc"])
            total_t, total_v = both["time"].to_numpy(), np.array(values)
        mean, peak, _ = _step_series(total_t, total_v, edges)
        parts.append(_long(-1, "queue_mean_packets", edges, mean))
        parts.append(_long(-1, "queue_max_packets", edges, peak))
    if len(windows_frame):
        names = windows_frame["series"].str.split(":", expand=True)
        for (flow, variable), group in windows_frame.groupby([names[0], names[1]]):
            *_, last = _step_series(group["time"].to_numpy(), group["value"].to_numpy(), edges)
            parts.append(_long(int(flow), f"{variable}_bytes", edges, last))
    if awk_series is not None:
        parts.append(awk_series)
    return pd.concat(parts, ignore_index=True)


def _step_series(times: np.ndarray, values: np.ndarray, edges: np.ndarray):
    """Time-weighted mean, maximum and last value of a step function per interval.

    The function is 0 before its first change; interval ``i`` is
    ``[edges[i-1], edges[i])`` with ``edges[-1] = 0`` before the first.
    """
    t = np.concatenate([[0.0], times])
    v = np.concatenate([[0.0], values])
    area = np.concatenate([[0.0], np.cumsum(v[:-1] * np.diff(t))])

    def integral(x):
        j = np.searchsorted(t, x, side="right") - 1
        return area[j] + v[j] * (x - t[j])

    lower = np.concatenate([[0.0], edges[:-1]])
    mean = (integral(edges) - integral(lower)) / (edges - lower)
    at_start = v[np.searchsorted(t, lower, side="right") - 1]
    inside = np.searchsorted(lower, t, side="right") - 1
    peak = at_start.copy()
    valid = (inside >= 0) & (t < edges[-1])
    np.maximum.at(peak, inside[valid], v[valid])
    last = v[np.searchsorted(t, edges, side="left") - 1]
    return mean, peak, last


def _long(flow: int, metric: str, time, value) -> pd.DataFrame:
    time = np.asarray(time, dtype=float)
    return pd.DataFrame({
        "flow": np.full(len(time), flow, dtype=np.int64),
        "metric": metric,
        "time": time,
        "value": np.asarray(value, dtype=float),
    })  # fmt: skip


# ----------------------------------------------------------------------------- per-flow metrics

# The per-pair metrics of :func:`flow_metrics`: column -> (label, unit).
METRICS = {
    "awk_throughput_kbps": ("AWK throughput", "kbps"),
    "awk_jitter_ms": ("AWK jitter", "ms"),
    "awk_delay_s": ("AWK delay as printed", "s"),
    "awk_e2e_delay_ms": ("AWK e2eDelay", "ms"),
    "goodput_kbps": ("goodput", "kbps"),
    "delay_ms": ("one-way delay", "ms"),
    "rfc3550_jitter_ms": ("RFC 3550 jitter", "ms"),
    "ipdv_ms": ("mean |IPDV| (RFC 3393)", "ms"),
    "loss_ratio": ("loss ratio", ""),
}


def packet_records(packets: pd.DataFrame, pkt: float) -> pd.DataFrame:
    """Sends and receives of data packets as :mod:`transportlab.models.metrics` records.

    ``packets`` is the recorder's table; only transmissions of at least ``pkt``
    bytes (IP datagram) are kept, as the AWK scripts keep them (this leaves out
    SYNs, pure ACKs and SACKs). ``seq`` numbers a flow's data transmissions
    0, 1, 2, ... in sending order (the AWK scripts visit NS-2 uids in increasing
    order, which within one flow is the same order), ``sent_time`` and ``delay``
    are set on received rows.
    """
    sent = packets[(packets["point"] == "sent") & (packets["size"] >= pkt)]
    sent = sent.sort_values(["flow", "packet"], kind="mergesort")
    seq = sent.groupby("flow").cumcount()
    seq_of = pd.Series(seq.to_numpy(), index=sent["packet"].to_numpy())
    sent_time = pd.Series(sent["time"].to_numpy(), index=sent["packet"].to_numpy())
    received = packets[(packets["point"] == "received") & (packets["size"] >= pkt)]
    frames = []
    for event, rows in (("sent", sent), ("received", received)):
        ids = rows["packet"].to_numpy()
        frame = pd.DataFrame({
            "event": event,
            "flow": rows["flow"].to_numpy(),
            "seq": seq_of.reindex(ids).to_numpy(),
            "packet": ids,
            "size": rows["size"].to_numpy(),
            "time": rows["time"].to_numpy(),
            "sent_time": sent_time.reindex(ids).to_numpy(),
        })  # fmt: skip
        frames.append(frame)
    records = pd.concat(frames, ignore_index=True).sort_values("time", kind="mergesort")
    records["event"] = pd.Categorical(records["event"], categories=["sent", "received"])
    records["seq"] = records["seq"].astype(np.int64)
    received_rows = records["event"] == "received"
    records["delay"] = np.where(received_rows, records["time"] - records["sent_time"], np.nan)
    records.loc[~received_rows, "sent_time"] = np.nan
    return records.reset_index(drop=True)


def flow_metrics(
    packets: pd.DataFrame, flows: pd.DataFrame, params: Mapping[str, Any]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per-flow metrics (one row per flow) and their time series (long table).

    The papers' own definitions, from :mod:`transportlab.models.metrics` (the seed 004
    AWK scripts, ``tic = awk_tic``, ``pkt = awk_pkt``; table entry = mean of the
    printed values without gap markers):

    * ``awk_throughput_kbps``: the throughput script (sizes rounded down to a
      multiple of ``pkt``: 1000 of a 1040-byte TCP packet, of a 1028-byte UDP
      packet and of a 1500-byte SCTP packet);
    * ``awk_jitter_ms``: the jitter script (mean |delay difference| of
      consecutive packets per window);
    * ``awk_delay_s``: the delay script as printed: the inter-arrival gap of the
      packet that closes a window, not a one-way delay;
    * ``awk_e2e_delay_ms``: the one-way delay (``e2eDelay``, which the script
      computes but does not print) of the same window-closing packets.

    Standard definitions: ``goodput_kbps`` (application bytes over the flow's
    active time), ``delay_ms`` (mean one-way delay of the data packets),
    ``rfc3550_jitter_ms`` (mean of the RFC 3550 estimator over the flow),
    ``ipdv_ms`` (mean |RFC 3393 IPDV| of packets consecutive in sending order),
    ``loss_ratio`` (data transmissions dropped / sent; a TCP retransmission is
    a transmission of its own).
    """
    tic, pkt = params["awk_tic"], params["awk_pkt"]
    records = packet_records(packets, pkt)
    # The throughput script starts its clock at the first line of the NS-2 trace.
    trace_start = float(packets["time"].min()) if len(packets) else 0.0
    dropped = packets[(packets["point"] == "dropped") & (packets["size"] >= pkt)]
    drops = dropped.groupby("flow").size()
    rows, series = [], []
    for flow in flows["flow"]:
        mine = records[records["flow"] == flow]
        received = mine[mine["event"] == "received"]
        row = {"flow": flow}
        n_sent = int((mine["event"] == "sent").sum())
        row["data_sent"] = n_sent
        row["data_received"] = len(received)
        row["data_dropped"] = int(drops.get(flow, 0))
        row["loss_ratio"] = row["data_dropped"] / n_sent if n_sent else np.nan
        if len(received) < 3:
            rows.append(row)
            continue
        throughput = metrics.awk_throughput_series(mine, tic=tic, pkt=pkt, trace_start=trace_start)
        jitter = metrics.awk_jitter_series(mine, tic=tic, pkt=pkt)
        delay = metrics.awk_delay_series(mine, tic=tic, pkt=pkt)
        closing = delay.loc[~delay["gap_marker"], "time"].to_numpy()
        by_arrival = received.set_index("time")["delay"]
        e2e = by_arrival.reindex(closing).to_numpy()
        row["awk_throughput_kbps"] = metrics.awk_table_average(throughput)
        row["awk_jitter_ms"] = metrics.awk_table_average(jitter)
        row["awk_delay_s"] = metrics.awk_table_average(delay)
        row["awk_e2e_delay_ms"] = float(np.nanmean(e2e)) * 1e3 if len(e2e) else np.nan
        one_way = metrics.one_way_delay(mine)
        row["delay_ms"] = float(one_way.mean()) * 1e3
        row["rfc3550_jitter_ms"] = (
            float(metrics.rfc3550_jitter_series(one_way.to_numpy()).mean()) * 1e3
        )
        variation = metrics.ipdv(mine)
        row["ipdv_ms"] = float(variation.abs().mean()) * 1e3 if len(variation) else np.nan
        rows.append(row)
        for name, frame, scale in (
            ("awk_throughput_kbps", throughput, 1.0),
            ("awk_jitter_ms", jitter, 1.0),
        ):
            kept = frame[~frame["gap_marker"]]
            series.append(_long(flow, name, kept["time"], kept["value"] * scale))
        series.append(_long(flow, "awk_e2e_delay_ms", closing, e2e * 1e3))
    return pd.DataFrame(rows), pd.concat(series, ignore_index=True) if series else None


# ----------------------------------------------------------------------------- over replications


def per_pair_summary(
    flows: pd.DataFrame, by: Sequence[str] = ("protocol",), metrics: Sequence[str] | None = None
) -> pd.DataFrame:
    """Mean, 95 % Student-t interval and run count of each metric per node pair
    (:func:`transportlab.engine.stats.summarise`).

    ``flows`` is the ``flows`` table of several replications (a sweep's, with
    the parameter columns ``by``). One row per (``by``..., pair, metric).
    """
    keys = [*by, "flow", "pair", "application"]
    return stats.summarise(flows, keys, list(metrics or METRICS), sort=True)


def ci_display(summary: pd.DataFrame, application: str = "ftp") -> pd.DataFrame:
    """``mean ± half CI`` of :func:`per_pair_summary` per (protocol, flow, pair) and metric,
    as text, for the pairs of one application (for display)."""
    shown = summary[summary["application"] == application].copy()
    shown["mean ± half CI"] = [
        f"{m:.4g} ± {(h - low) / 2:.2g}" if np.isfinite(h) else f"{m:.4g}"
        for m, low, h in zip(shown["mean"], shown["ci_low"], shown["ci_high"], strict=True)
    ]
    metrics_shown = [m for m in METRICS if m in set(shown["metric"])]
    return shown.pivot_table(
        index=["protocol", "flow", "pair"],
        columns="metric",
        values="mean ± half CI",
        aggfunc="first",
    )[metrics_shown]


def per_pair_means(summary: pd.DataFrame) -> pd.DataFrame:
    """The means of :func:`per_pair_summary`: a row per (protocol, pair), a column per metric."""
    metrics_shown = [m for m in METRICS if m in set(summary["metric"])]
    table = summary.pivot_table(
        index=["protocol", "flow", "pair"], columns="metric", values="mean", observed=True
    )[metrics_shown]
    return table.droplevel("flow")


# ----------------------------------------------------------------------------- what the AWK
# scripts' arguments do (one replication's packets)


def ftp_flows(params: Mapping[str, Any]) -> range:
    """The flow numbers of the FTP pairs (they come first)."""
    return range(len(params["ftp_starts"]))


def awk_windows(
    packets: pd.DataFrame, params: Mapping[str, Any], tics: Sequence[float]
) -> pd.DataFrame:
    """The delay and jitter scripts over the FTP flows of one replication, per window ``tic``.

    Per ``tic``: the mean over the FTP flows of the printed delay (the inter-arrival
    gap of the packet closing each window), of the one-way delay (``e2eDelay``) of
    the same packets, and of the AWK jitter (table average). A last row ``pooled``
    holds the jitter script's terms pooled over all windows: the mean |e2eDelay
    difference| of packets received consecutively in sending order, per packet
    instead of per window.
    """
    pkt = params["awk_pkt"]
    records = packet_records(packets, pkt)
    rows = []
    for tic in tics:
        printed, e2e, jitter = [], [], []
        for flow in ftp_flows(params):
            mine = records[records["flow"] == flow]
            delay = metrics.awk_delay_series(mine, tic=tic, pkt=pkt)
            kept = delay[~delay["gap_marker"]]
            printed.append(kept["value"].mean())
            by_time = mine[mine["event"] == "received"].set_index("time")["delay"]
            e2e.append(by_time.reindex(kept["time"]).mean())
            jitter.append(
                metrics.awk_table_average(metrics.awk_jitter_series(mine, tic=tic, pkt=pkt))
            )
        rows.append((tic, 1e3 * np.mean(printed), 1e3 * np.mean(e2e), np.mean(jitter)))
    pooled = []
    for flow in ftp_flows(params):
        received = records[(records["flow"] == flow) & (records["event"] == "received")]
        pooled.append(received.sort_values("seq")["delay"].diff().abs().mean() * 1e3)
    rows.append(("pooled", np.nan, np.nan, np.mean(pooled)))
    return pd.DataFrame(
        rows, columns=["tic_s", "printed_delay_ms", "e2e_delay_ms", "awk_jitter_ms"]
    )


def awk_throughput_by_pkt(
    packets: pd.DataFrame, params: Mapping[str, Any], pkts: Sequence[int]
) -> pd.DataFrame:
    """The throughput script's table average over the FTP flows of one replication, per ``pkt``.

    A packet counts ``size - size % pkt`` bytes; ``pkt`` = 1 counts whole IP datagrams.
    """
    start = float(packets["time"].min())
    rows = []
    for pkt in pkts:
        records = packet_records(packets, pkt)
        values = [
            metrics.awk_table_average(
                metrics.awk_throughput_series(
                    records[records["flow"] == flow],
                    tic=params["awk_tic"],
                    pkt=pkt,
                    trace_start=start,
                )
            )
            for flow in ftp_flows(params)
        ]
        rows.append((pkt, np.mean(values)))
    return pd.DataFrame(rows, columns=["pkt", "awk_throughput_kbps"])
