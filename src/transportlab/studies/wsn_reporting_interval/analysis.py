"""Analysis of the sensor-network study: per-run metrics, the rows compared with Tables 2-4.

Not cached: changing anything here costs no simulation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab.studies.wsn_reporting_interval.parameters import (
    MICA2,
    NS2_ENERGY,
    SINK,
    effective_interval_s,
    sources,
)

#: summary column -> (published metric, unit, axis label), in the order of the figures.
#: Throughput and delay as an NS-2 trace defines them (agent level, see ``agent_metrics``);
#: the application-level ones are ``app_throughput_kbps`` and ``app_delay_ms``.
METRICS = {
    "throughput_kbps": ("throughput", "kbps", "agent throughput at the sink (kb/s)"),
    "energy_per_node_j": ("consumed_energy", "J", "energy per node (J)"),
    "routing_load": ("routing_load", "ratio", "routing packets per delivered packet"),
    "mac_load": ("mac_load", "ratio", "MAC frames per delivered packet"),
    "dropped_packets": ("dropped_packets", "packets", "dropped packets"),
    "mean_delay_ms": ("e2e_delay", "ms", "agent end-to-end delay (ms)"),
}
#: the application-level counterparts of the two agent-level metrics
APP_METRICS = {
    "app_throughput_kbps": ("throughput", "kbps", "report throughput at the sink (kb/s)"),
    "app_delay_ms": ("e2e_delay", "ms", "report delay, write to sink read (ms)"),
}

TCP, UDP, SCTP = 6, 17, 132
SCTP_DATA_CHUNK = 0
#: bytes NS-2's ``r AGT`` line of a packet shows beyond ns-3's transport bytes (TCP, SCTP)
#: or beyond the payload (UDP): TCP 1000 + 40 = 1040 (Agent/TCP's header holds the IP
#: header: + 20); SCTP chunks + 12 + ipHeaderSize_ 20, and on the way AODV::recv adds its
#: own 20-byte IP header to every packet a node originates that is not TCP (+ 40); UDP:
#: NS-2's Agent/UDP adds no header bytes, AODV adds 20 (+ 20 to the payload: 276 for a
#: 256-byte report). Checked against NS-2's trace (tests/studies/test_wsn_ns2.py); until
#: issue 25 the AODV header was left out (UDP 256, SCTP chunks + 32).
NS2_TRACE_EXTRA = {TCP: 20, SCTP: 40}
NS2_UDP_TRACE_EXTRA = 20

# Drops that NS-2's trace would show as a "D" line: collisions and receptions lost while busy
# (PHY), queue overflow and retry-limit drops (MAC), no-route/TTL drops (IP/AODV) and ARP drops.
# Frames below the reception threshold (preamble not detected) are not drops in NS-2: its
# PHY hands them to the MAC only as carrier-sense energy.
WIFI_PHY_RX_FAILURE = {
    3: "RXING",
    4: "TXING",
    8: "BUSY_DECODING_PREAMBLE",
    9: "PREAMBLE_DETECT_FAILURE",
    10: "RECEPTION_ABORTED_BY_TX",
    11: "L_SIG_FAILURE",
    17: "PREAMBLE_DETECTION_PACKET_SWITCH",
    18: "FRAME_CAPTURE_PACKET_SWITCH",
}
DROP_SOURCES = ("wifi-phy-rx-drop", "wifi-phy-rx-error", "wifi-mac-drop", "ipv4-drop", "arp-drop")
NOT_A_DROP = {("wifi-phy-rx-drop", 9)}
DATA_CLASSES = ("tcp-data", "udp-data", "sctp-data")

# --------------------------------------------------------------------------- channel time

#: 802.11b DSSS as the study runs it (NS-2.35's Mac/802_11): long PLCP preamble and header
#: (192 us), control frames and data at 1 Mb/s, SIFS 10 us, DIFS 50 us, slot 20 us, CWmin 31
PLCP_S, SIFS_S, DIFS_S, SLOT_S, CW_MIN = 192e-6, 10e-6, 50e-6, 20e-6, 31
RTS_BYTES, CTS_BYTES, ACK_BYTES = 20, 14, 14
#: MAC header and FCS (28) and LLC/SNAP (8) around an IP packet in a data frame
DATA_FRAME_OVERHEAD_BYTES = 28 + 8


def exchange_time_s(ip_bytes: int, control_bps: float = 1e6, data_bps: float = 1e6) -> float:
    """Time one unicast IP packet holds the channel on one hop with nobody else sending:
    DIFS, the mean backoff (CWmin / 2 slots), RTS, SIFS, CTS, SIFS, DATA, SIFS, ACK."""

    def frame(size: int, bps: float) -> float:
        return PLCP_S + size * 8 / bps

    return (
        DIFS_S
        + CW_MIN / 2 * SLOT_S
        + frame(RTS_BYTES, control_bps)
        + SIFS_S
        + frame(CTS_BYTES, control_bps)
        + SIFS_S
        + frame(ip_bytes + DATA_FRAME_OVERHEAD_BYTES, data_bps)
        + SIFS_S
        + frame(ACK_BYTES, control_bps)
    )


# --------------------------------------------------------------------------- per-run metrics


def analyse(raw: Mapping[str, pd.DataFrame], params: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """One replication's tables: ``summary`` (one row, :func:`summarise`), ``energy_states``
    (:func:`energy_breakdown`) and the raw tables."""
    # NS-2 does not count its events (NaN in its run step's performance table)
    events = float(raw["performance"]["events"].iloc[0])
    summary = summarise(params, raw["packets"], raw["counts"], events)
    summary.update(agent_metrics(raw["agent"], params))
    # receptions NS-2's collision rule lost (reception_model ns2; 0 under ns3's rule)
    summary["ns2_collisions"] = float(raw["performance"]["ns2_collisions"].iloc[0])
    # frames below RXThresh received to their end (reception_model ns2_lock; 0 otherwise)
    summary["ns2_undecodable"] = float(raw["performance"]["ns2_undecodable"].iloc[0])
    summary.update(_trace_drops(raw, summary["dropped_packets"]))
    breakdown = energy_breakdown(raw["states"], params)
    summary["energy_per_node_j"] = float(breakdown["energy_j"].mean())
    if len(raw["energy"]):  # ns-3's own energy models ran (RunOptions.ns3_energy_models)
        summary["mica2_model_energy_per_node_j"] = float(raw["energy"]["energy_j"].mean())
    for state in ("tx", "rx", "idle"):
        summary[f"{state}_time_per_node_s"] = float(breakdown[f"{state}_s"].mean())
        summary[f"{state}_energy_per_node_j"] = float(breakdown[f"{state}_j"].mean())
    tables = {"summary": pd.DataFrame([summary]), "energy_states": breakdown}
    tables.update((name, frame) for name, frame in raw.items())
    return tables


#: drops that are not the PHY's: NS-2's RET, IFQ, router and ARP lines
NON_PHY_DROP_SOURCES = ("wifi-mac-drop", "ipv4-drop", "arp-drop")
#: the packet counter's rows of the decodable frames NS-2's collision rule lost, by frame
#: (reason 0: NS-2's trace shows the frame, 1: NS-2 frees it untraced)
NS2_COLLISION_SOURCE = "ns2-collision-drop"


def _trace_drops(raw: Mapping[str, pd.DataFrame], every_drop: int) -> dict[str, float]:
    """``dropped_packets`` as NS-2's trace counts it, where the run counted its PHY's drops
    the NS-2 way, plus the MAC's, IP's and ARP's drops (with the RTS line of a frame given
    up at the RTS retry limit, ``PacketCounter::WatchWifiRtsRetryLimit``).

    The PHY's part: the decodable frames lost in collisions for which NS-2's trace has a
    COL line. ns-2.35's Mac802_11 (mac/mac-802_11.cc) frees a frame below RXThresh_, or
    one that arrives while the node sends, untraced; and discard(), which writes the
    line, writes it only for a frame addressed to the node (or broadcast data), freeing
    an overheard unicast frame for another node untraced. A run with the counter's
    :data:`NS2_COLLISION_SOURCE` rows counts those of reason 0 (issue 25); one without
    them (older raw tables) counts ``ns2_collision_drops``, every decodable frame lost,
    overheard ones included. ``phy_drop_events`` keeps every drop event of ns-3's PHY
    and the rest (the definition used until issue 25). An NS-2 run's counts are its
    trace lines already."""
    performance = raw["performance"]
    if "ns2_collision_drops" not in performance or pd.isna(
        performance["ns2_collision_drops"].iloc[0]
    ):
        return {"phy_drop_events": float(every_drop)}
    counts = raw["counts"]
    others = int(counts.loc[counts["source"].isin(NON_PHY_DROP_SOURCES), "count"].sum())
    collisions = int(performance["ns2_collision_drops"].iloc[0])
    by_frame = counts[counts["source"] == NS2_COLLISION_SOURCE]
    if len(by_frame):
        collisions = int(by_frame.loc[by_frame["reason"] == 0, "count"].sum())
    return {"phy_drop_events": float(every_drop), "dropped_packets": collisions + others}


def summarise(
    params: Mapping[str, Any],
    packets: pd.DataFrame,
    counts: pd.DataFrame,
    events: float,
) -> dict[str, Any]:
    """The metrics of one run, as the paper defines them.

    Application level (``app_*``): report bytes received at the sink over the whole
    run, mean delay of the delivered reports from the write to the sink's read (the
    agent-level throughput and delay, the compared ones, come from
    :func:`agent_metrics`, the energy from :func:`energy_breakdown`, both added by
    :func:`analyse`); routing load: AODV packets sent by
    the MACs per delivered report;
    MAC load: frames sent by the PHYs (RTS, CTS, data, ACK, broadcasts) per
    delivered report; dropped packets: every drop NS-2's trace would show
    (:data:`DROP_SOURCES` without :data:`NOT_A_DROP`).
    """
    duration = params["duration"]
    sent = packets[packets["event"] == "sent"]
    received = packets[packets["event"] == "received"]
    delivered = int(len(received))
    drops = counts[counts["source"].isin(DROP_SOURCES)]
    keep = [
        (s, r) not in NOT_A_DROP for s, r in zip(drops["source"], drops["reason"], strict=False)
    ]
    drops = drops[np.array(keep, dtype=bool)]
    phy_tx = counts[counts["source"] == "wifi-phy-tx"]
    mac_tx = counts[counts["source"] == "wifi-mac-tx"]
    routing_packets = int(mac_tx.loc[mac_tx["packet_class"] == "routing", "count"].sum())
    mac_frames = int(phy_tx["count"].sum())
    return {
        "interval_s": effective_interval_s(params),
        "reporting_sensors": len(sources(params)),
        "duration_s": duration,
        "sent": int(len(sent)),
        "delivered": delivered,
        "delivery_ratio": delivered / len(sent) if len(sent) else np.nan,
        "app_throughput_kbps": delivered * params["packet_size"] * 8 / duration / 1000.0,
        "app_delay_ms": float(received["delay"].mean() * 1000.0) if delivered else np.nan,
        "routing_packets": routing_packets,
        "mac_frames": mac_frames,
        "data_frames": int(phy_tx.loc[phy_tx["packet_class"].isin(DATA_CLASSES), "count"].sum()),
        "dropped_packets": int(drops["count"].sum()),
        # frames a MAC gave up on (retry limit, queue): what AODV takes as a broken link
        "mac_drops": int(counts.loc[counts["source"] == "wifi-mac-drop", "count"].sum()),
        "dropped_data": int(drops.loc[drops["packet_class"].isin(DATA_CLASSES), "count"].sum()),
        "routing_load": routing_packets / delivered if delivered else np.nan,
        "mac_load": mac_frames / delivered if delivered else np.nan,
        "events": events,
    }


def _data_packets(agent: pd.DataFrame) -> pd.DataFrame:
    """Agent events of data packets from a sensor to the sink (no SYN/ACK, no SCTP control)."""
    to_sink = agent["dst"] == SINK
    data = np.where(
        agent["ip_protocol"] == SCTP,
        agent["chunk_type"] == SCTP_DATA_CHUNK,
        agent["payload"] > 0,
    )
    return agent[to_sink & data]


def agent_metrics(agent: pd.DataFrame, params: Mapping[str, Any]) -> dict[str, Any]:
    """Throughput and delay as NS-2's trace defines them, from the AGT events.

    An NS-2 trace has an ``s`` line with ``AGT`` when a transport agent sends a packet
    and an ``r`` line with ``AGT`` when the destination's agent receives it; the usual
    AWK scripts (and the seed's definition of E2E, "the time that data packet n was
    received" minus "the time that data packet n was sent", over the packets received)
    take delay = r time - s time of the same packet (uid) and throughput = the
    bytes of the ``r AGT`` data lines over the run. Here the packet is an IP datagram
    (source, destination, protocol, identification: a retransmission is a new one),
    its bytes as NS-2 writes them (:data:`NS2_TRACE_EXTRA`). Data packets only: TCP
    segments with payload, UDP reports, SCTP packets starting with a DATA chunk.
    """
    data = _data_packets(agent)
    key = ["src", "dst", "ip_protocol", "ip_id"]
    sent = data[data["event"] == "sent"]
    received = data[data["event"] == "received"]
    # Keep the last send of a datagram key before each receive (ids are 16-bit per flow).
    matched = pd.merge_asof(
        received.sort_values("time"),
        sent.sort_values("time")[[*key, "time"]].rename(columns={"time": "sent_time"}),
        left_on="time",
        right_on="sent_time",
        by=key,
        direction="backward",
    )
    extra = matched["ip_protocol"].map(NS2_TRACE_EXTRA).fillna(0)
    udp = matched["ip_protocol"] == UDP
    trace_bytes = np.where(udp, matched["payload"] + NS2_UDP_TRACE_EXTRA, matched["size"] + extra)
    delays = (matched["time"] - matched["sent_time"]).dropna()
    duration = params["duration"]
    return {
        "agent_sent": int(len(sent)),
        "agent_received": int(len(received)),
        "throughput_kbps": float(np.sum(trace_bytes)) * 8 / duration / 1000.0,
        "mean_delay_ms": float(delays.mean() * 1000.0) if len(delays) else np.nan,
        # the shape of the delay: a mean far above the median is a tail of long waits
        "median_delay_ms": float(delays.median() * 1000.0) if len(delays) else np.nan,
        "p90_delay_ms": float(delays.quantile(0.9) * 1000.0) if len(delays) else np.nan,
    }


def energy_breakdown(states: pd.DataFrame, params: Mapping[str, Any]) -> pd.DataFrame:
    """Per node: seconds and joules in tx, rx and idle under ``energy_model``.

    ``states`` holds each PHY's seconds per WifiPhyState. NS-2.35's WirelessPhy (``ns2``)
    charges Pt_consume_ 0.660 W while sending and Pr_consume_ 0.395 W for every packet
    whose power is above CSThresh_, decodable or not: ns-3's RX (a frame above the
    reception threshold) and CCA_BUSY (energy above the carrier-sense threshold, the
    same CSThresh here) together; the rest is idle at ``idle_power_w`` (0 by default).
    ``mica2``: 3 V x (27 mA tx, 10 mA rx, busy, idle and switching, 1 uA sleep), what
    ns-3's WifiRadioEnergyModel charges in the scenario.
    """
    tx = states["tx"]
    rx = states["rx"] + states["cca_busy"]
    idle = states["idle"] + states["switching"]
    sleep = states["sleep"] + states["off"]
    if params["energy_model"] == "ns2":
        p_tx, p_rx = NS2_ENERGY["tx_power_w"], NS2_ENERGY["rx_power_w"]
        p_idle, p_sleep = params["idle_power_w"], NS2_ENERGY["sleep_power_w"]
    else:
        v = MICA2["voltage_v"]
        p_tx, p_rx = v * MICA2["tx_current_a"], v * MICA2["rx_current_a"]
        p_idle, p_sleep = v * MICA2["idle_current_a"], v * MICA2["sleep_current_a"]
    frame = pd.DataFrame(
        {
            "node": states["node"],
            "tx_s": tx,
            "rx_s": rx,
            "idle_s": idle,
            "tx_j": tx * p_tx,
            "rx_j": rx * p_rx,
            "idle_j": idle * p_idle,
        }
    )
    frame["energy_j"] = frame["tx_j"] + frame["rx_j"] + frame["idle_j"] + sleep * p_sleep
    return frame


def per_interval(summary: pd.DataFrame) -> pd.DataFrame:
    """Reports sent and delivered and every compared metric, mean over the runs per point."""
    return summary.groupby(["protocol", "reporting_interval"])[
        ["sent", "delivered", *METRICS]
    ].mean()
