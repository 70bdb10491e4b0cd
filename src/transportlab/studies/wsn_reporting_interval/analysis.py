"""Analysis of the sensor-network study: per-run metrics, the rows compared with Tables 2-4.

Not cached: changing anything here costs no simulation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab.stats import confidence_interval
from transportlab.studies.wsn_reporting_interval.parameters import (
    PRINTED_INTERVALS,
    effective_interval_s,
    sources,
)

#: summary column -> (published metric, unit, axis label), in the order of the figures
METRICS = {
    "throughput_kbps": ("throughput", "kbps", "throughput at the sink (kb/s)"),
    "energy_per_node_j": ("consumed_energy", "J", "energy per node (J)"),
    "routing_load": ("routing_load", "ratio", "routing packets per delivered packet"),
    "mac_load": ("mac_load", "ratio", "MAC frames per delivered packet"),
    "dropped_packets": ("dropped_packets", "packets", "dropped packets"),
    "mean_delay_ms": ("e2e_delay", "ms", "end-to-end delay (ms)"),
}

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

# --------------------------------------------------------------------------- per-run metrics


def analyse(raw: Mapping[str, pd.DataFrame], params: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """One replication's tables: ``summary`` (one row, :func:`summarise`) and the raw tables."""
    events = int(raw["performance"]["events"].iloc[0])
    summary = summarise(params, raw["packets"], raw["counts"], raw["energy"], events)
    tables = {"summary": pd.DataFrame([summary])}
    tables.update((name, frame) for name, frame in raw.items())
    return tables


def summarise(
    params: Mapping[str, Any],
    packets: pd.DataFrame,
    counts: pd.DataFrame,
    energy: pd.DataFrame,
    events: int,
) -> dict[str, Any]:
    """The metrics of one run, as the paper defines them.

    Throughput: application bytes received at the sink over the whole run;
    delay: mean one-way delay of the delivered reports; energy: mean over all
    56 nodes; routing load: AODV packets sent by the MACs per delivered report;
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
        "throughput_kbps": float(received["size"].sum()) * 8 / duration / 1000.0,
        "mean_delay_ms": float(received["delay"].mean() * 1000.0) if delivered else np.nan,
        "energy_per_node_j": float(energy["energy_j"].mean()),
        "routing_packets": routing_packets,
        "mac_frames": mac_frames,
        "data_frames": int(phy_tx.loc[phy_tx["packet_class"].isin(DATA_CLASSES), "count"].sum()),
        "dropped_packets": int(drops["count"].sum()),
        "dropped_data": int(drops.loc[drops["packet_class"].isin(DATA_CLASSES), "count"].sum()),
        "routing_load": routing_packets / delivered if delivered else np.nan,
        "mac_load": mac_frames / delivered if delivered else np.nan,
        "events": events,
    }


def per_interval(summary: pd.DataFrame) -> pd.DataFrame:
    """Reports sent and delivered and every compared metric, mean over the runs per point."""
    return summary.groupby(["protocol", "reporting_interval"])[
        ["sent", "delivered", *METRICS]
    ].mean()


# --------------------------------------------------------------------------- comparison


def reproduced_rows(summary: pd.DataFrame) -> pd.DataFrame:
    """One row per run and published number: ``protocol, metric, unit, row, run, value``.

    ``row`` is the paper's ``data interval <printed interval>``. When every
    printed interval ran, the ``Avg`` rows are added: per run, the mean over the
    five intervals, as the paper's ``Avg`` rows are the mean of its five rows.
    """
    rows = []
    for column, (metric, unit, _) in METRICS.items():
        for _, r in summary.iterrows():
            rows.append({
                "protocol": r["protocol"].upper(), "metric": metric, "unit": unit,
                "row": f"data interval {r['reporting_interval']:g}", "run": r["run"],
                "value": r[column],
            })  # fmt: skip
    reproduced = pd.DataFrame(rows, columns=["protocol", "metric", "unit", "row", "run", "value"])
    if set(summary["reporting_interval"]) == set(PRINTED_INTERVALS):
        averages = reproduced.groupby(["protocol", "metric", "unit", "run"], as_index=False)[
            "value"
        ].mean()
        reproduced = pd.concat([reproduced, averages.assign(row="Avg")], ignore_index=True)
    return reproduced


def half_width(values) -> float:
    """Half the 95 % confidence interval of the mean (NaN with fewer than two values)."""
    mean, _, high, _ = confidence_interval(values)
    return high - mean
