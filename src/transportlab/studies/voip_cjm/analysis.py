"""Analysis of voip_cjm: playout, loss, delay, jitter, R and MOS per replication; tables.

Not cached: the run step (``scenario.py``) records the frames once, and everything
here (the playout models of :mod:`transportlab.models.playout`, the E-model of
:mod:`transportlab.models.emodel`, the pooling of :mod:`.voice_quality`) runs
on every load, so changing any of it costs no simulation.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from transportlab.models.playout import (
    AdaptivePlayout,
    ChunkPlayout,
    FixedPlayout,
    PlayOnArrival,
    PlayoutPolicy,
)
from transportlab.studies.voip_cjm.parameters import (
    PPP_HEADER_BYTES,
    access_delays_ms,
    end_time,
    ip_packet_bytes,
    voice_payload_bytes,
)
from transportlab.studies.voip_cjm.voice_quality import (
    VoiceQualitySettings,
    assess_calls,
    call_traces,
    per_second,
    pool,
)

#: The playout models of the "standard" playout set, in the order of every table.
PLAYOUT_POLICIES = ("arrival", "fixed", "adaptive", "cjm")
#: Chunk sizes (frames) of the CJM variants, and the fixed playout point added to the
#: study's, in the "variants" playout set (notebook section 5.4).
CJM_VARIANT_CHUNKS = (1, 5, 10, 25, 50)
FIXED_VARIANT_MS = 80.0
ADAPTIVE_VARIANT_MARGIN_MS = 5.0
#: Seconds of the sample call kept for playout diagrams.
SAMPLE_SECONDS = 10.0


# --------------------------------------------------------------------------- playout models


def playout_policies(p: Mapping[str, Any]) -> list[PlayoutPolicy]:
    """The receiver playout models run on every call (``playout_set``).

    ``standard``: no buffer ("arrival", the network's own delay and jitter), a fixed
    playout point, Ramjee et al.'s adaptive algorithm and CJM, as the parameters set
    them. ``variants``: two fixed points, the adaptive algorithm with and without a
    margin, CJM with chunks of 1 to 50 frames.
    """
    if p["playout_set"] == "variants":
        resync = p["adaptive_resync_s"] or None
        margin_s = ADAPTIVE_VARIANT_MARGIN_MS / 1000.0
        variants: list[PlayoutPolicy] = [
            FixedPlayout(FIXED_VARIANT_MS / 1000.0, name=f"fixed {FIXED_VARIANT_MS:g} ms"),
            FixedPlayout(
                p["fixed_playout_ms"] / 1000.0, name=f"fixed {p['fixed_playout_ms']:g} ms"
            ),
            AdaptivePlayout(resync_interval=resync, name="adaptive"),
            AdaptivePlayout(
                resync_interval=resync,
                margin=margin_s,
                name=f"adaptive +{ADAPTIVE_VARIANT_MARGIN_MS:g} ms",
            ),
        ]
        variants += [
            ChunkPlayout(
                chunk_packets=k,
                buffer_chunks=p["cjm_buffer_chunks"],
                max_packet_bytes=p["mtu_bytes"],
                start_chunks=p["cjm_start_chunks"],
                name=f"cjm {k}",
            )
            for k in CJM_VARIANT_CHUNKS
        ]
        return variants
    return [
        PlayOnArrival(),
        FixedPlayout(p["fixed_playout_ms"] / 1000.0, anchor="send", name="fixed"),
        AdaptivePlayout(
            resync_interval=p["adaptive_resync_s"] or None,
            margin=p["adaptive_margin_ms"] / 1000.0,
            name="adaptive",
        ),
        ChunkPlayout(
            chunk_packets=p["cjm_chunk_packets"],
            buffer_chunks=p["cjm_buffer_chunks"],
            max_packet_bytes=p["mtu_bytes"],
            start_chunks=p["cjm_start_chunks"],
            name="cjm",
        ),
    ]


# --------------------------------------------------------------------------- per replication


def analyse(raw: Mapping[str, pd.DataFrame], params: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """One replication's tables from the recorded frames of ``scenario.run``.

    ``summary``: one row per playout model, pooled over the calls
    (:func:`transportlab.studies.voip_cjm.voice_quality.pool`), with the frames (and the IP packets
    that carried them) received per second; ``calls``: one row per call and model;
    ``per_second``: frames received and their delay in 1-s bins; ``sample``: the
    frames of the first call over its first 10 s with each model's playout time;
    ``cost``: simulator events and recorded rows.
    """
    p = params
    packets, counters = raw["packets"], raw["counters"].iloc[0]
    end = end_time(p)
    traces = call_traces(packets, p["frame_ms"] / 1000.0, stop_time=end)
    quality = VoiceQualitySettings(codec=p["codec"], plc=p["plc"], frame_ms=p["frame_ms"])
    policies = playout_policies(p)
    calls, schedules = assess_calls(traces, policies, quality)
    delays = access_delays_ms(p)
    calls.insert(
        1, "propagation_ms", [2 * delays[c] + p["bottleneck_delay_ms"] for c in calls["call"]]
    )
    summary = pool(calls, traces, schedules)

    # Frames received per second: every call sends for `duration`, so the frames that
    # arrived (before the end of the run) over `duration` are the aggregate rate the calls
    # receive while they all talk. The per-second series covers the whole run.
    frames_received = int((packets["event"] == "received").sum())
    summary["frames_per_s"] = frames_received / p["duration"]
    sent_times = packets.loc[packets["event"] == "sent", "time"]
    first_sent = float(sent_times.min()) if len(sent_times) else 0.0
    rate = per_second(packets, math.floor(first_sent), math.ceil(end))
    # IP packets that carried them (TCP may put several frames in one segment).
    delivered = int(counters["ip_packets_to_receivers"])
    per_frame = delivered / frames_received if frames_received else np.nan
    summary["ip_packets_per_frame"] = per_frame
    summary["ip_packets_per_s"] = summary["frames_per_s"] * per_frame

    cost = pd.DataFrame({"events": [int(counters["events"])], "recorded": [len(packets)]})
    return {
        "summary": summary,
        "calls": calls,
        "per_second": rate,
        "sample": _sample(traces, schedules, [policy.name for policy in policies]),
        "cost": cost,
    }


def _sample(traces, schedules, policies: Sequence[str]) -> pd.DataFrame:
    """The first call's frames over its first SAMPLE_SECONDS, with every model's playout."""
    sample_call = min(traces)
    trace = traces[sample_call]
    keep = trace.send <= trace.send[0] + SAMPLE_SECONDS
    sample = pd.DataFrame(
        {
            "call": sample_call,
            "seq": trace.seq[keep],
            "send": trace.send[keep],
            "arrival": trace.arrival[keep],
        }
    )
    for policy in policies:
        schedule = schedules[(sample_call, policy)]
        sample[f"slot_{policy}"] = schedule.slot[keep]
        sample[f"played_{policy}"] = schedule.played(trace)[keep]
    return sample


# --------------------------------------------------------------------------- across runs


def configuration(point: Mapping[str, Any]) -> str:
    """A short label for the transport configuration of a point, e.g. 'SCTP unordered'."""
    protocol = point["protocol"]
    label = protocol.upper()
    if protocol == "sctp":
        label += f" {point['sctp_delivery']}"
        if point.get("sctp_pr_lifetime_ms", 0) > 0:
            label += f" PR {point['sctp_pr_lifetime_ms']:g} ms"
    if point.get("connection") == "shared":
        label += " shared"
    return label


def with_configuration(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` (one row per point and ...) with a ``configuration`` label column."""
    return table.assign(configuration=table.apply(configuration, axis=1))


# --------------------------------------------------------------------------- hand calculation


def voice_link_rate_mbps(p: Mapping[str, Any]) -> float:
    """The calls' bit rate on the shared link (Mb/s): ``n_calls`` frames every
    ``frame_ms``, each one IP packet of ``protocol`` plus the PPP header (continuous
    speech; acknowledgements, which flow the other way, not counted)."""
    frames_per_s = p["n_calls"] * 1000 / p["frame_ms"]
    bits = (ip_packet_bytes(p, p["protocol"]) + PPP_HEADER_BYTES) * 8
    return frames_per_s * bits / 1e6


def hand_calculation(p: Mapping[str, Any]) -> dict[str, Any]:
    """The numbers of the notebook's hand calculation for the parameters ``p``.

    Message and IP packet sizes, the load the calls put on the shared link, the
    propagation delays of the first and last call, the delay of call 0's fastest
    frame over UDP (propagation plus store-and-forward on three links) and the
    CJM buffer size.
    """
    offered = p["n_calls"] * 1000 / p["frame_ms"]
    ip_bytes = {protocol: ip_packet_bytes(p, protocol) for protocol in ("udp", "tcp", "sctp")}
    load = {
        protocol: voice_link_rate_mbps({**p, "protocol": protocol}) / p["bottleneck_rate_mbps"]
        for protocol in ip_bytes
    }
    delays = access_delays_ms(p)
    udp_bits = (ip_bytes["udp"] + PPP_HEADER_BYTES) * 8
    fastest_ms = (
        2 * delays[0]
        + p["bottleneck_delay_ms"]
        + 2 * udp_bits / (p["access_rate_mbps"] * 1e3)
        + udp_bits / (p["bottleneck_rate_mbps"] * 1e3)
    )
    cjm = ChunkPlayout(
        chunk_packets=p["cjm_chunk_packets"],
        buffer_chunks=p["cjm_buffer_chunks"],
        max_packet_bytes=p["mtu_bytes"],
    )
    return {
        "message_bytes": voice_payload_bytes(p),
        "offered_frames_per_s": offered,
        "ip_bytes": ip_bytes,
        "link_load": load,
        "propagation_ms": (
            2 * delays[0] + p["bottleneck_delay_ms"],
            2 * delays[-1] + p["bottleneck_delay_ms"],
        ),
        "fastest_udp_delay_ms": fastest_ms,
        "cjm_buffer_bytes": cjm.buffer_bytes,
    }
