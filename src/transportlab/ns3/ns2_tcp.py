"""NS-2's one-way TCP as ns-3 attribute defaults: the one place its values are written.

The seeds that ran NS-2 used its default TCP: ``Agent/TCP`` sending and ``Agent/TCPSink``
acknowledging. Their defaults (NS-2.35, ``tcl/lib/ns-default.tcl``; NS-2 prints any of
them, e.g. ``puts [Agent/TCP set window_]``):

========================  ===========  =============================================
NS-2                      value        ns-3 (this module)
========================  ===========  =============================================
``Agent/TCP``             Tahoe        ``TcpTahoe`` + ``TcpTahoeRecovery``
``packetSize_``           1000 B       ``TcpSocket::SegmentSize``
``window_``               20 packets   ``TcpSocket::RcvBufSize`` (advertised window)
initial ssthresh          ``window_``  ``TcpSocket::InitialSlowStartThreshold``
``windowInit_``           2 packets    ``TcpSocket::InitialCwnd``
``rtxcur_init_``          3 s          ``RttEstimator::InitialEstimation``,
                                       ``TcpSocket::ConnTimeout`` (the SYN's timer)
``minrto_``               0.2 s        ``TcpSocketBase::MinRto``
``tcpTick_``              0.01 s       ``TcpSocketBase::ClockGranularity``
``timestamps_``           false        ``TcpSocketBase::Timestamp`` off
no SACK                                ``TcpSocketBase::Sack`` off
``Agent/TCPSink``         ACK every    ``TcpSocket::DelAckCount`` 1
                          packet
never gives up                         ``ConnCount``, ``DataRetries`` out of reach
``tcpip_base_hdr_size_``  40 B         IP + TCP in one number (:data:`HEADER_BYTES`)
========================  ===========  =============================================

Tahoe is ``src/tcp-tahoe``; the initial ssthresh is ``window_`` because
``TcpAgent::reset()`` sets ``ssthresh_ = int(wnd_)``.

Window scaling does not exist in NS-2's Agent/TCP (its window is 20 packets).

:func:`ns2_tcp_defaults` gives all of them as a :class:`TcpDefaults`; a study that
follows NS-2 only in part changes fields of it (``dataclasses.replace``, ``None`` keeps
ns-3's default) and says why, and :func:`set_tcp_defaults` applies it with
``Config::SetDefault`` before the sockets are created.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "HEADER_BYTES",
    "INITIAL_RTO_S",
    "MIN_RTO_S",
    "PACKET_SIZE",
    "TICK_S",
    "TcpDefaults",
    "WINDOW",
    "WINDOW_INIT",
    "ns2_tcp_defaults",
    "set_tcp_defaults",
]

PACKET_SIZE = 1000  #: Agent/TCP packetSize_ (bytes of payload per segment)
WINDOW = 20  #: Agent/TCP window_ (packets); ssthresh_ 0 starts slow start at it
WINDOW_INIT = 2  #: Agent/TCP windowInit_ (packets)
INITIAL_RTO_S = 3.0  #: Agent/TCP rtxcur_init_ (s): the RTO before the first RTT sample
MIN_RTO_S = 0.2  #: Agent/TCP minrto_ (s)
TICK_S = 0.01  #: Agent/TCP tcpTick_ (s): the RTO clock
HEADER_BYTES = 40  #: Agent/TCP tcpip_base_hdr_size_: IP and TCP header in one number
#: Retries that never run out: NS-2's agent never gives up a connection or a packet.
NEVER_GIVE_UP = 1_000_000


@dataclass(frozen=True)
class TcpDefaults:
    """Attribute defaults of the TCP sockets a scenario creates; ``None``: ns-3's default.

    Sizes in bytes, times in nanoseconds (exact, as ns-3 keeps them).
    """

    socket_type: str | None = None  #: TcpL4Protocol::SocketType (TypeId name)
    recovery: str | None = None  #: TcpL4Protocol::RecoveryType (TypeId name)
    segment_size: int | None = None
    initial_cwnd: int | None = None  #: segments
    initial_ssthresh: int | None = None
    receive_buffer: int | None = None  #: the advertised window
    max_window: int | None = None  #: TcpSocketBase::MaxWindowSize, the sender's limit
    delack_count: int | None = None
    sack: bool | None = None
    timestamps: bool | None = None
    window_scaling: bool | None = None
    limited_transmit: bool | None = None
    initial_rto_ns: int | None = None  #: RttEstimator::InitialEstimation
    min_rto_ns: int | None = None
    clock_granularity_ns: int | None = None
    connection_timeout_ns: int | None = None  #: TcpSocket::ConnTimeout (SYN retransmission)
    connection_retries: int | None = None  #: TcpSocket::ConnCount
    data_retries: int | None = None  #: TcpSocket::DataRetries


def _ns(seconds: float) -> int:
    return round(seconds * 1e9)


def ns2_tcp_defaults(segment_size: int = PACKET_SIZE) -> TcpDefaults:
    """NS-2's Agent/TCP and Agent/TCPSink (the module's table), ``segment_size`` bytes per
    segment; the window of :data:`WINDOW` segments is the receive buffer and the initial
    slow-start threshold."""
    window = WINDOW * segment_size
    return TcpDefaults(
        socket_type="ns3::TcpTahoe",
        recovery="ns3::TcpTahoeRecovery",
        segment_size=segment_size,
        initial_cwnd=WINDOW_INIT,
        initial_ssthresh=window,
        receive_buffer=window,
        delack_count=1,
        sack=False,
        timestamps=False,
        window_scaling=False,
        initial_rto_ns=_ns(INITIAL_RTO_S),
        min_rto_ns=_ns(MIN_RTO_S),
        clock_granularity_ns=_ns(TICK_S),
        connection_timeout_ns=_ns(INITIAL_RTO_S),
        connection_retries=NEVER_GIVE_UP,
        data_retries=NEVER_GIVE_UP,
    )


def set_tcp_defaults(ns, defaults: TcpDefaults) -> None:
    """``Config::SetDefault`` of every attribute ``defaults`` gives (call it inside
    :func:`transportlab.ns3.simulation.simulation`, before the sockets exist)."""

    def type_id(name: str):
        return ns.TypeIdValue(ns.TypeId.LookupByName(name))

    def time(nanoseconds: int):
        return ns.TimeValue(ns.NanoSeconds(nanoseconds))

    uint, boolean = ns.UintegerValue, ns.BooleanValue
    settings = (
        ("ns3::TcpL4Protocol::SocketType", defaults.socket_type, type_id),
        ("ns3::TcpL4Protocol::RecoveryType", defaults.recovery, type_id),
        ("ns3::TcpSocket::SegmentSize", defaults.segment_size, uint),
        ("ns3::TcpSocket::InitialCwnd", defaults.initial_cwnd, uint),
        ("ns3::TcpSocket::InitialSlowStartThreshold", defaults.initial_ssthresh, uint),
        ("ns3::TcpSocket::RcvBufSize", defaults.receive_buffer, uint),
        ("ns3::TcpSocketBase::MaxWindowSize", defaults.max_window, uint),
        ("ns3::TcpSocket::DelAckCount", defaults.delack_count, uint),
        ("ns3::TcpSocketBase::Sack", defaults.sack, boolean),
        ("ns3::TcpSocketBase::Timestamp", defaults.timestamps, boolean),
        ("ns3::TcpSocketBase::WindowScaling", defaults.window_scaling, boolean),
        ("ns3::TcpSocketBase::LimitedTransmit", defaults.limited_transmit, boolean),
        ("ns3::RttEstimator::InitialEstimation", defaults.initial_rto_ns, time),
        ("ns3::TcpSocketBase::MinRto", defaults.min_rto_ns, time),
        ("ns3::TcpSocketBase::ClockGranularity", defaults.clock_granularity_ns, time),
        ("ns3::TcpSocket::ConnTimeout", defaults.connection_timeout_ns, time),
        ("ns3::TcpSocket::ConnCount", defaults.connection_retries, uint),
        ("ns3::TcpSocket::DataRetries", defaults.data_retries, uint),
    )
    for name, value, wrap in settings:
        if value is not None:
            ns.Config.SetDefault(name, wrap(value))
