"""Voice quality from recorded frames: per-call traces, playout, loss, delay, jitter, R and MOS.

The input is the per-packet event table of :class:`transportlab.ns3.recording.PacketRecorder`
(one ``flow`` per call, ``seq`` per voice frame): a ``sent`` row for every frame
the source produced and a ``received`` row for every frame delivered to the
receiving application. :func:`call_traces` turns it into one
:class:`~transportlab.models.playout.VoiceTrace` per call; :func:`assess_calls` runs
every playout policy on every call and rates it with the G.107 E-model;
:func:`pool` aggregates calls into one row per policy.

Pure Python (numpy/pandas); no ns-3. The calls themselves are sent in ns-3 by the
applications :mod:`.voice_gateways` installs; this module is analysis only,
outside the sweep cache key, so changing a playout model or the E-model costs no
simulation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from transportlab.models.emodel import CODECS, burst_ratio, voice_rating
from transportlab.models.playout import PlayoutPolicy, PlayoutSchedule, VoiceTrace, evaluate

# ITU-T limits the seed quotes (G.114 one-way delay; the 30 ms jitter guideline).
ONE_WAY_DELAY_LIMIT_MS = 150.0
JITTER_LIMIT_MS = 30.0


def call_traces(
    packets: pd.DataFrame, frame_interval: float, stop_time: float | None = None
) -> dict[int, VoiceTrace]:
    """One trace per call (``flow``) from a PacketRecorder table.

    Frames received after ``stop_time`` (when given) count as never arrived.
    Duplicated receptions keep the first one. Raises if a frame was received
    that was never recorded as sent.
    """
    required = {"event", "flow", "seq", "size", "time"}
    missing = required - set(packets.columns)
    if missing:
        raise ValueError(f"packet table lacks columns {sorted(missing)}")
    sent = packets[packets["event"] == "sent"]
    received = packets[packets["event"] == "received"]
    if stop_time is not None:
        received = received[received["time"] <= stop_time]
    received = received.sort_values("time", kind="stable").drop_duplicates(["flow", "seq"])
    traces: dict[int, VoiceTrace] = {}
    for flow, s in sent.groupby("flow", sort=True):
        s = s.sort_values("seq", kind="stable")
        r = received[received["flow"] == flow]
        position = np.searchsorted(s["seq"].to_numpy(), r["seq"].to_numpy())
        seq = s["seq"].to_numpy()
        ok = (position < len(seq)) & (
            seq[np.minimum(position, len(seq) - 1)] == r["seq"].to_numpy()
        )
        if not np.all(ok):
            raise ValueError(f"call {flow}: {int((~ok).sum())} frames received but never sent")
        arrival = np.full(len(s), np.nan)
        arrival[position] = r["time"].to_numpy()
        traces[int(flow)] = VoiceTrace(
            seq=seq,
            send=s["time"].to_numpy(),
            arrival=arrival,
            frame_interval=frame_interval,
            size=s["size"].to_numpy(),
        )
    unknown = set(received["flow"].unique()) - set(traces)
    if unknown:
        raise ValueError(f"frames received on calls that sent nothing: {sorted(unknown)}")
    return traces


@dataclass(frozen=True)
class VoiceQualitySettings:
    """How a call is rated: codec, concealment, delays outside the network."""

    codec: str = "G.711"
    plc: bool = True
    frame_ms: float = 20.0
    extra_delay_ms: float = 0.0  # terminal delays outside packetisation and buffering

    def __post_init__(self) -> None:
        if self.codec not in CODECS:
            raise ValueError(f"unknown codec {self.codec!r}; known: {sorted(CODECS)}")

    def mouth_to_ear_ms(self, playout_delay_ms: float) -> float:
        """Ta: packetisation (one frame) + codec look-ahead + send-to-playout + extra."""
        return (
            playout_delay_ms + self.frame_ms + CODECS[self.codec].lookahead_ms + self.extra_delay_ms
        )


_MS = 1000.0
_SECONDS_TO_MS = (
    "delay_mean",
    "delay_p99",
    "delay_max",
    "playout_delay_mean",
    "playout_delay_p99",
    "playout_delay_max",
    "before_jitter",
    "before_jitter_final",
    "before_ipdv_mean",
    "after_jitter",
    "after_jitter_final",
    "after_ipdv_mean",
)

#: Policies whose output is not a playable stream: no voice-quality rating.
UNRATED_POLICIES = frozenset({"arrival"})


def assess_calls(
    traces: Mapping[int, VoiceTrace],
    policies: Sequence[PlayoutPolicy],
    quality: VoiceQualitySettings,
) -> tuple[pd.DataFrame, dict[tuple[int, str], np.ndarray]]:
    """Every policy on every call: one row per (call, policy), and the schedules.

    Times in the table are in ms. ``mouth_to_ear_ms`` is Ta of the E-model;
    ``R`` and ``MOS`` are NaN for policies in :data:`UNRATED_POLICIES` (playing
    packets as they arrive is no playout strategy a listener could bear).

    ``R`` is reported on the rating scale, 0 to 100: under long bursts of loss the
    G.107 loss formula gives Ie,eff above 95 and R far below 0, which means no more
    than R = 0 does (MOS 1), but would dominate a mean over calls.
    """
    names = [p.name for p in policies]
    if len(set(names)) != len(names):
        raise ValueError(f"playout policies need distinct names, got {names}")
    rows = []
    schedules: dict[tuple[int, str], PlayoutSchedule] = {}
    for call, trace in traces.items():
        for policy in policies:
            schedule = policy.schedule(trace)
            metrics = evaluate(trace, schedule)
            played = schedule.played(trace)
            schedules[(call, policy.name)] = schedule
            row: dict[str, float | int | str] = {"call": call, "policy": policy.name}
            for key, value in metrics.items():
                if key in _SECONDS_TO_MS:
                    row[f"{key}_ms"] = value * _MS
                else:
                    row[key] = value
            row["burst_ratio"] = burst_ratio(~played)
            if policy.name in UNRATED_POLICIES or metrics["played"] == 0:
                row.update(mouth_to_ear_ms=np.nan, R=np.nan, MOS=np.nan)
            else:
                ta = quality.mouth_to_ear_ms(row["playout_delay_mean_ms"])
                rating = voice_rating(
                    ta,
                    100.0 * metrics["total_loss_rate"],
                    row["burst_ratio"],
                    codec=quality.codec,
                    plc=quality.plc,
                )
                row.update(mouth_to_ear_ms=ta, R=max(rating.R, 0.0), MOS=rating.MOS)
            rows.append(row)
    return pd.DataFrame(rows), schedules


def pool(
    calls: pd.DataFrame,
    traces: Mapping[int, VoiceTrace],
    schedules: Mapping[tuple[int, str], PlayoutSchedule],
) -> pd.DataFrame:
    """One row per policy over all calls.

    Loss rates and delay statistics are over all packets of all calls (the 99th
    percentile and maximum of the pooled delays); jitter, R and MOS are means
    over calls (R also its minimum, the worst call).
    """
    rows = []
    network_delay = np.concatenate(
        [t.network_delay[t.received] for t in traces.values()] or [np.empty(0)]
    )
    for policy, group in calls.groupby("policy", sort=False):
        playout = np.concatenate(
            [
                (schedules[(c, policy)].slot - traces[c].send)[
                    schedules[(c, policy)].played(traces[c])
                ]
                for c in traces
            ]
        )
        playout = playout[~np.isnan(playout)]
        sent = group["sent"].sum()
        row = {
            "policy": policy,
            "calls": len(group),
            "sent": sent,
            "received": group["received"].sum(),
            "played": group["played"].sum(),
            "network_loss_rate": 1 - group["received"].sum() / sent,
            "late_loss_rate": group["late"].sum() / sent,
            "total_loss_rate": 1 - group["played"].sum() / sent,
        }
        for prefix, values in (("delay", network_delay), ("playout_delay", playout)):
            empty = len(values) == 0
            row[f"{prefix}_mean_ms"] = np.nan if empty else float(values.mean()) * _MS
            row[f"{prefix}_p99_ms"] = np.nan if empty else float(np.percentile(values, 99)) * _MS
            row[f"{prefix}_max_ms"] = np.nan if empty else float(values.max()) * _MS
        for column in (
            "before_jitter_ms",
            "after_jitter_ms",
            "before_ipdv_mean_ms",
            "after_ipdv_mean_ms",
            "mouth_to_ear_ms",
            "R",
            "MOS",
        ):
            row[column] = group[column].mean()
        row["before_jitter_max_call_ms"] = group["before_jitter_ms"].max()
        row["R_min"] = group["R"].min()
        row["calls_over_delay_limit"] = int((group["delay_max_ms"] > ONE_WAY_DELAY_LIMIT_MS).sum())
        row["calls_over_jitter_limit"] = int((group["before_jitter_ms"] > JITTER_LIMIT_MS).sum())
        rows.append(row)
    return pd.DataFrame(rows)


def per_second(packets: pd.DataFrame, start: float, stop: float) -> pd.DataFrame:
    """Frames received per second (all calls) and their delay, in 1-s bins of receive time.

    Columns: ``second`` (bin start, s), ``frames`` (frames received in the bin),
    ``delay_mean_ms``, ``delay_max_ms`` (of those frames).
    """
    if not stop > start:
        raise ValueError(f"stop ({stop}) must be after start ({start})")
    received = packets[(packets["event"] == "received")]
    received = received[(received["time"] >= start) & (received["time"] < stop)]
    edges = np.arange(np.floor(start), np.ceil(stop) + 1.0)
    second = edges[:-1]
    bins = np.searchsorted(edges, received["time"].to_numpy(), side="right") - 1
    counts = np.bincount(bins, minlength=len(second))[: len(second)]
    delay = received["delay"].to_numpy() * _MS
    total = np.bincount(bins, weights=delay, minlength=len(second))[: len(second)]
    maximum = np.full(len(second), np.nan)
    if len(bins):
        np.fmax.at(maximum, bins, delay)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(counts > 0, total / counts, np.nan)
    return pd.DataFrame(
        {"second": second, "frames": counts, "delay_mean_ms": mean, "delay_max_ms": maximum}
    )
