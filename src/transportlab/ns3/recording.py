"""Per-packet and per-flow records of a simulation as pandas DataFrames.

The trace sinks are C++ (``ns3::PacketEventRecorder``,
``ns3::TracedValueRecorder``): Python callables cannot be ns-3 callbacks, and a
Python call per packet would dominate the run time. Python reads the recorded
columns once, after ``Simulator::Run``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from transportlab.ns3 import native

_EVENT_NAMES = np.array(["sent", "received"])

# TracedValueRecorder::ValueType
VALUE_TYPES = {"uint32": 0, "int32": 1, "double": 2, "time": 3, "uint64": 4}


def _ns():
    return native.load()  # ns-3, loaded on first use


def vector_array(vector, dtype) -> np.ndarray:
    """Copy a std::vector of a numeric type into a numpy array (no Python loop); ``dtype``
    must be the vector's element type (``np.uint32`` for ``std::vector<uint32_t>``)."""
    n = int(vector.size())
    if n == 0:
        return np.empty(0, dtype=dtype)
    return np.frombuffer(vector.data(), dtype=dtype, count=n).copy()


class PacketRecorder:
    """Application send/receive events: flow, sequence number, size, time.

    Watch applications that have the ``TxWithSeqTsSize`` (OnOff, BulkSend) or
    ``RxWithSeqTsSize`` (PacketSink) trace sources; their
    ``EnableSeqTsSizeHeader`` attribute must be true (see
    :func:`enable_seq_ts_size`).
    """

    def __init__(self) -> None:
        ns = _ns()
        self._recorder = ns.CreateObject[ns.PacketEventRecorder]()

    @property
    def native(self):
        """The underlying ``ns3::PacketEventRecorder`` (for C++ applications)."""
        return self._recorder

    def watch_sender(self, app, flow: int) -> None:
        if not self._recorder.WatchSender(app, int(flow)):
            raise ValueError(f"{app.GetInstanceTypeId().GetName()} has no TxWithSeqTsSize trace")

    def watch_receiver(self, app, flow: int) -> None:
        if not self._recorder.WatchReceiver(app, int(flow)):
            raise ValueError(f"{app.GetInstanceTypeId().GetName()} has no RxWithSeqTsSize trace")

    def __len__(self) -> int:
        return int(self._recorder.GetN())

    def to_frame(self) -> pd.DataFrame:
        """One row per event, in event order.

        Columns: ``event`` ('sent' | 'received'), ``flow``, ``seq``, ``size``
        (bytes), ``time`` (s), ``sent_time`` (s; the timestamp carried in the
        packet, NaN where absent) and ``delay`` (s; one-way delay of received
        packets, NaN for sent ones).
        """
        r = self._recorder
        kinds = vector_array(r.GetKinds(), np.uint8)
        times = vector_array(r.GetTimesNs(), np.int64) / 1e9
        sent_ns = vector_array(r.GetSentNs(), np.int64)
        sent = np.where(sent_ns >= 0, sent_ns / 1e9, np.nan)
        frame = pd.DataFrame(
            {
                "event": pd.Categorical(_EVENT_NAMES[kinds], categories=list(_EVENT_NAMES)),
                "flow": vector_array(r.GetFlows(), np.uint32).astype(np.int64),
                "seq": vector_array(r.GetSeqs(), np.uint64).astype(np.int64),
                "size": vector_array(r.GetSizes(), np.uint32).astype(np.int64),
                "time": times,
                "sent_time": sent,
            }
        )
        frame["delay"] = np.where(kinds == 1, frame["time"] - frame["sent_time"], np.nan)
        return frame


def enable_seq_ts_size(*helpers) -> None:
    """Set ``EnableSeqTsSizeHeader`` on application helpers (OnOff, BulkSend, PacketSink)."""
    ns = _ns()
    for helper in helpers:
        helper.SetAttribute("EnableSeqTsSizeHeader", ns.BooleanValue(True))


class PathRecorder:
    """Per-transmission packet events at named measurement points along the path.

    The network-layer view that NS-2 trace files give: tag packets where they
    enter the network (:meth:`origin`, e.g. the ``MacTx`` trace of the source
    node's device: NS-2's ``+`` event at the source), then record them wherever
    they pass later (:meth:`watch`, e.g. ``MacRx`` of the destination's device:
    NS-2's ``r``; ``TcDrop`` of a router's TrafficControlLayer or ``Drop`` of a
    queue disc: NS-2's ``d``). Every transmission gets its own number, also a
    TCP retransmission of the same bytes, as NS-2's packet uid does.

    Points are names chosen by the caller; :meth:`to_frame` returns them as a
    categorical column in the order they were first used.
    """

    def __init__(self) -> None:
        ns = _ns()
        self._recorder = ns.CreateObject[ns.PacketPathRecorder]()
        self._points: list[str] = []

    @property
    def native(self):
        """The underlying ``ns3::PacketPathRecorder``."""
        return self._recorder

    def _code(self, point: str) -> int:
        if point not in self._points:
            if len(self._points) == 255:
                raise ValueError("at most 255 measurement points")
            self._points.append(point)
        return self._points.index(point)

    @staticmethod
    def _describe(obj, trace_source: str) -> str:
        return f"{trace_source!r} of {obj.GetInstanceTypeId().GetName()}"

    def origin(self, obj, trace_source: str, flow: int, point: str = "sent") -> None:
        """Tag packets passing ``trace_source`` of ``obj`` as ``flow`` and record them."""
        if not self._recorder.WatchOrigin(obj, trace_source, int(flow), self._code(point)):
            raise ValueError(
                f"cannot tag at {self._describe(obj, trace_source)}: no such trace "
                "source, or not a one-packet (or queue-disc item) signature"
            )

    def watch(self, obj, trace_source: str, point: str) -> None:
        """Record tagged packets passing ``trace_source`` of ``obj`` at ``point``."""
        if not self._recorder.Watch(obj, trace_source, self._code(point)):
            raise ValueError(
                f"cannot watch {self._describe(obj, trace_source)}: no such trace "
                "source, or not a one-packet (or queue-disc item) signature"
            )

    def __len__(self) -> int:
        return int(self._recorder.GetN())

    @property
    def untagged(self) -> int:
        """Packets seen at watched points without a tag (e.g. reverse-direction ACKs)."""
        return int(self._recorder.GetUntagged())

    @property
    def tagged(self) -> int:
        """Transmissions numbered so far."""
        return int(self._recorder.GetTagged())

    def to_frame(self) -> pd.DataFrame:
        """One row per event, in event order.

        Columns: ``point`` (categorical), ``flow``, ``packet`` (transmission
        number, unique per recorder and increasing with the origin time),
        ``size`` (bytes as seen at that point) and ``time`` (s).
        """
        r = self._recorder
        codes = vector_array(r.GetPoints(), np.uint8).astype(np.int16)
        return pd.DataFrame(
            {
                "point": pd.Categorical.from_codes(codes, categories=self._points or ["-"]),
                "flow": vector_array(r.GetFlows(), np.uint32).astype(np.int64),
                "packet": vector_array(r.GetIds(), np.uint64).astype(np.int64),
                "size": vector_array(r.GetSizes(), np.uint32).astype(np.int64),
                "time": vector_array(r.GetTimesNs(), np.int64) / 1e9,
            }
        )


class ValueRecorder:
    """Time series of TracedValues (cwnd, ssthresh, RTO...) as a DataFrame."""

    def __init__(self) -> None:
        ns = _ns()
        self._recorder = ns.CreateObject[ns.TracedValueRecorder]()
        self._names: dict[int, str] = {}

    def _series(self, name: str) -> int:
        series = len(self._names)
        self._names[series] = name
        return series

    def watch(self, obj, trace_source: str, value_type: str, name: str | None = None) -> None:
        """Connect ``trace_source`` of ``obj`` now."""
        series = self._series(name or trace_source)
        if not self._recorder.Watch(obj, trace_source, VALUE_TYPES[value_type], series):
            raise ValueError(
                f"no trace source {trace_source!r} on {obj.GetInstanceTypeId().GetName()}"
            )

    def watch_path(
        self, path: str, value_type: str, name: str | None = None, at: float | None = None
    ) -> None:
        """Connect every trace source matching the Config ``path``.

        With ``at`` (seconds), connect at that simulation time: sockets only
        exist once their application has started.
        """
        ns = _ns()
        series = self._series(name or path)
        kind = VALUE_TYPES[value_type]
        if at is None:
            if not self._recorder.WatchPath(path, kind, series):
                raise ValueError(f"no trace source matches {path!r}")
        else:
            self._recorder.WatchPathAt(ns.Seconds(float(at)), path, kind, series)

    def unmatched_paths(self) -> list[str]:
        return [str(p) for p in self._recorder.GetUnmatchedPaths()]

    def to_frame(self) -> pd.DataFrame:
        """Columns: ``series`` (name), ``time`` (s), ``value``."""
        r = self._recorder
        ids = vector_array(r.GetSeries(), np.uint32)
        names = np.array([self._names[i] for i in range(len(self._names))] or [""], dtype=object)
        return pd.DataFrame(
            {
                "series": names[ids] if len(ids) else np.array([], dtype=object),
                "time": vector_array(r.GetTimesNs(), np.int64) / 1e9,
                "value": vector_array(r.GetValues(), np.float64),
            }
        )


def flow_monitor_frame(monitor, helper) -> pd.DataFrame:
    """Per-flow counters of an ns-3 FlowMonitor (IPv4 TCP/UDP flows) as a DataFrame.

    ``monitor`` is what ``FlowMonitorHelper.InstallAll()`` returned and
    ``helper`` that FlowMonitorHelper. Call after ``Simulator::Run``.
    """
    ns = _ns()
    monitor.CheckForLostPackets()
    classifier = ns.DynamicCast[ns.Ipv4FlowClassifier](helper.GetClassifier())
    rows = []
    for flow_id, st in monitor.GetFlowStats():
        t = classifier.FindFlow(flow_id)
        rx = int(st.rxPackets)
        rows.append(
            {
                "flow_id": int(flow_id),
                "source": str(t.sourceAddress),
                "destination": str(t.destinationAddress),
                "protocol": int(t.protocol),
                "source_port": int(t.sourcePort),
                "destination_port": int(t.destinationPort),
                "tx_packets": int(st.txPackets),
                "rx_packets": rx,
                "lost_packets": int(st.lostPackets),
                "tx_bytes": int(st.txBytes),
                "rx_bytes": int(st.rxBytes),
                "first_tx": st.timeFirstTxPacket.GetSeconds(),
                "last_rx": st.timeLastRxPacket.GetSeconds() if rx else np.nan,
                "delay_sum": st.delaySum.GetSeconds(),
                "jitter_sum": st.jitterSum.GetSeconds(),
                "mean_delay": st.delaySum.GetSeconds() / rx if rx else np.nan,
            }
        )
    return pd.DataFrame(rows)
