/*
 * SctpSocket, part 1: attributes, the socket API, the association state machine
 * (RFC 9260 sections 4, 5, 9), verification tag rules (section 8.5) and control chunks.
 * Set-up and collisions are in sctp-socket-setup.cc, the send side in
 * sctp-socket-tx.cc, the receive side in sctp-socket-rx.cc.
 */
#include "sctp-socket.h"

#include "sctp-l4-protocol.h"
#include "sctp-message-tag.h"

#include "ns3/address.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpSocket");
NS_OBJECT_ENSURE_REGISTERED(SctpSocket);

std::string
SctpStateName(SctpState state)
{
    switch (state)
    {
    case SCTP_CLOSED:
        return "CLOSED";
    case SCTP_LISTEN:
        return "LISTEN";
    case SCTP_COOKIE_WAIT:
        return "COOKIE-WAIT";
    case SCTP_COOKIE_ECHOED:
        return "COOKIE-ECHOED";
    case SCTP_ESTABLISHED:
        return "ESTABLISHED";
    case SCTP_SHUTDOWN_PENDING:
        return "SHUTDOWN-PENDING";
    case SCTP_SHUTDOWN_SENT:
        return "SHUTDOWN-SENT";
    case SCTP_SHUTDOWN_RECEIVED:
        return "SHUTDOWN-RECEIVED";
    case SCTP_SHUTDOWN_ACK_SENT:
        return "SHUTDOWN-ACK-SENT";
    }
    return "UNKNOWN";
}

std::string
SctpPathEventName(SctpPathEvent event)
{
    switch (event)
    {
    case SctpPathEvent::AVAILABLE:
        return "AVAILABLE";
    case SctpPathEvent::UNREACHABLE:
        return "UNREACHABLE";
    case SctpPathEvent::CONFIRMED:
        return "CONFIRMED";
    case SctpPathEvent::MADE_PRIMARY:
        return "MADE_PRIMARY";
    case SctpPathEvent::DATA_PATH:
        return "DATA_PATH";
    case SctpPathEvent::POTENTIALLY_FAILED:
        return "POTENTIALLY_FAILED";
    }
    return "UNKNOWN";
}

TypeId
SctpSocket::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SctpSocket")
            .SetParent<Socket>()
            .SetGroupName("Sctp")
            .AddConstructor<SctpSocket>()
            // Buffers and streams
            .AddAttribute("SndBufSize",
                          "Send buffer size (bytes): user messages queued or unacknowledged.",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&SctpSocket::m_sndBufSize),
                          MakeUintegerChecker<uint32_t>(1500))
            .AddAttribute("RcvBufSize",
                          "Receive buffer size (bytes); the advertised receiver window "
                          "(a_rwnd) starts at this value.",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&SctpSocket::m_rcvBufSize),
                          MakeUintegerChecker<uint32_t>(1500))
            .AddAttribute("OutboundStreams",
                          "Number of outbound streams requested in INIT/INIT ACK (OS).",
                          UintegerValue(10),
                          MakeUintegerAccessor(&SctpSocket::m_numOutStreams),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("MaxInboundStreams",
                          "Maximum number of inbound streams accepted (MIS).",
                          UintegerValue(10),
                          MakeUintegerAccessor(&SctpSocket::m_maxInStreams),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("DefaultStream",
                          "Stream of messages sent without an SctpSendInfoTag.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SctpSocket::m_defaultStream),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("DefaultPpid",
                          "Payload Protocol Identifier of messages without an SctpSendInfoTag.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SctpSocket::m_defaultPpid),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Unordered",
                          "Send messages without an SctpSendInfoTag unordered (U bit).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&SctpSocket::m_defaultUnordered),
                          MakeBooleanChecker())
            // RFC 9260 section 16 protocol parameters
            .AddAttribute("RtoInitial",
                          "RTO.Initial (RFC 9260: 1 s; RFC 4960 and NS-2: 3 s).",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&SctpSocket::m_rtoInitial),
                          MakeTimeChecker(MilliSeconds(1)))
            .AddAttribute("RtoMin",
                          "RTO.Min (RFC 9260: 1 s).",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&SctpSocket::m_rtoMin),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("RtoMax",
                          "RTO.Max (RFC 9260: 60 s).",
                          TimeValue(Seconds(60)),
                          MakeTimeAccessor(&SctpSocket::m_rtoMax),
                          MakeTimeChecker(MilliSeconds(1)))
            .AddAttribute("RtoAlpha",
                          "RTO.Alpha, the SRTT gain (1/8).",
                          DoubleValue(0.125),
                          MakeDoubleAccessor(&SctpSocket::m_rtoAlpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("RtoBeta",
                          "RTO.Beta, the RTTVAR gain (1/4).",
                          DoubleValue(0.25),
                          MakeDoubleAccessor(&SctpSocket::m_rtoBeta),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("MaxBurst",
                          "Max.Burst: packets with new DATA sent per transmission "
                          "opportunity (0 = unlimited).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&SctpSocket::m_maxBurst),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ValidCookieLife",
                          "Valid.Cookie.Life: lifetime of the State Cookies this endpoint issues.",
                          TimeValue(Seconds(60)),
                          MakeTimeAccessor(&SctpSocket::m_validCookieLife),
                          MakeTimeChecker(MilliSeconds(1)))
            .AddAttribute("AssociationMaxRetrans",
                          "Association.Max.Retrans: consecutive errors before the association "
                          "is declared dead.",
                          UintegerValue(10),
                          MakeUintegerAccessor(&SctpSocket::m_assocMaxRetrans),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("PathMaxRetrans",
                          "Path.Max.Retrans: errors before a destination becomes inactive.",
                          UintegerValue(5),
                          MakeUintegerAccessor(&SctpSocket::m_pathMaxRetrans),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MaxInitRetransmits",
                          "Max.Init.Retransmits: INIT and COOKIE ECHO retransmissions.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&SctpSocket::m_maxInitRetransmits),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HbInterval",
                          "HB.interval (heartbeats on idle destinations; used with "
                          "multi-homing).",
                          TimeValue(Seconds(30)),
                          MakeTimeAccessor(&SctpSocket::m_hbInterval),
                          MakeTimeChecker())
            .AddAttribute("SackDelay",
                          "Delayed SACK timeout (RFC 9260: at most 500 ms; 200 ms default).",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&SctpSocket::m_sackDelay),
                          MakeTimeChecker(Time(0), MilliSeconds(500)))
            .AddAttribute("SackFrequency",
                          "Packets with DATA received before a SACK is sent without delay "
                          "(2 = every second packet; 1 = no delayed SACK).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&SctpSocket::m_sackFrequency),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("FastRtxTrigger",
                          "Miss indications that trigger a fast retransmit (RFC 9260: 3; "
                          "NS-2.34: 4).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&SctpSocket::m_fastRtxTrigger),
                          MakeUintegerChecker<uint32_t>(1, 255))
            .AddAttribute("InitialCwnd",
                          "Initial congestion window in bytes; 0 = RFC 9260 section 7.2.1, "
                          "min(4*PMDCS, max(2*PMDCS, 4404)), 4344 instead of 4404 "
                          "to an IPv6 destination.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SctpSocket::m_initialCwnd),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("InitialSsthresh",
                          "Initial slow start threshold in bytes; 0 = the peer's a_rwnd.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SctpSocket::m_initialSsthresh),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MaxSegment",
                          "Largest user data per DATA chunk (bytes); 0 = as much as the path "
                          "MTU allows.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SctpSocket::m_maxSegment),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Mtu",
                          "Path MTU in bytes (IP header included); 0 = the MTU of the "
                          "outgoing interface.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SctpSocket::m_mtu),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CookiePreservative",
                          "Ask for a longer cookie life after a Stale Cookie error (5.2.6).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SctpSocket::m_useCookiePreservative),
                          MakeBooleanChecker())
            // Multi-homing (RFC 9260 sections 5.4, 6.4, 8.2, 8.3)
            .AddAttribute("PrimaryAddress",
                          "Peer IP address to use as the primary path once the association "
                          "is up (section 6.4; empty = the address given to Connect, or the "
                          "source of the INIT).",
                          AddressValue(),
                          MakeAddressAccessor(&SctpSocket::m_primaryAddressAttribute),
                          MakeAddressChecker())
            .AddAttribute("HbMaxBurst",
                          "HB.Max.Burst: path verification HEARTBEATs sent per RTO (5.4).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&SctpSocket::m_hbMaxBurst),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Heartbeat",
                          "Which associations send HEARTBEATs on idle destinations (8.3): "
                          "OFF, MULTIHOMED (the peer has several addresses) or ALL.",
                          EnumValue(SctpHeartbeatMode::MULTIHOMED),
                          MakeEnumAccessor<SctpHeartbeatMode>(&SctpSocket::m_heartbeatMode),
                          MakeEnumChecker(SctpHeartbeatMode::OFF,
                                          "OFF",
                                          SctpHeartbeatMode::MULTIHOMED,
                                          "MULTIHOMED",
                                          SctpHeartbeatMode::ALL,
                                          "ALL"))
            .AddAttribute("RtxToAlt",
                          "Destination of retransmissions to a multi-homed peer (NS-2 "
                          "rtxToAlt_): SAME, ALTERNATE (timeouts and fast retransmissions) "
                          "or TIMEOUT_ALTERNATE (timeouts only, RFC 9260 section 6.4).",
                          EnumValue(SctpRtxToAlt::TIMEOUT_ALTERNATE),
                          MakeEnumAccessor<SctpRtxToAlt>(&SctpSocket::m_rtxToAlt),
                          MakeEnumChecker(SctpRtxToAlt::SAME,
                                          "SAME",
                                          SctpRtxToAlt::ALTERNATE,
                                          "ALTERNATE",
                                          SctpRtxToAlt::TIMEOUT_ALTERNATE,
                                          "TIMEOUT_ALTERNATE"))
            .AddAttribute("DormantAction",
                          "Destination of new data when every destination is inactive "
                          "(NS-2 dormantAction_): HOP, PRIMARY or LAST_USED.",
                          EnumValue(SctpDormantAction::PRIMARY),
                          MakeEnumAccessor<SctpDormantAction>(&SctpSocket::m_dormantAction),
                          MakeEnumChecker(SctpDormantAction::HOP,
                                          "HOP",
                                          SctpDormantAction::PRIMARY,
                                          "PRIMARY",
                                          SctpDormantAction::LAST_USED,
                                          "LAST_USED"))
            .AddAttribute("ReturnToPrimary",
                          "Send new data to the primary path again as soon as it answers "
                          "HEARTBEATs after a failure; false: the alternate becomes the "
                          "primary path when the primary becomes inactive.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SctpSocket::m_returnToPrimary),
                          MakeBooleanChecker())
            .AddAttribute("ChangePrimaryThresh",
                          "Errors on the primary path after which an active alternate becomes "
                          "the primary (NS-2 changePrimaryThresh_; -1 = never).",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&SctpSocket::m_changePrimaryThresh),
                          MakeIntegerChecker<int32_t>(-1))
            .AddAttribute("PotentiallyFailedMaxRetrans",
                          "RFC 7829 PotentiallyFailed.Max.Retrans (PFMR): errors after which "
                          "a destination is potentially failed (no new data, a HEARTBEAT "
                          "every RTO). A value >= PathMaxRetrans switches SCTP-PF off (the "
                          "default: RFC 9260 behaviour); RFC 7829 section 6 suggests 0.",
                          UintegerValue(65535),
                          MakeUintegerAccessor(&SctpSocket::m_pfMaxRetrans),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PrimarySwitchoverMaxRetrans",
                          "RFC 7829 section 5 Primary.Switchover.Max.Retrans (PSMR): errors on "
                          "the primary path after which an active alternate becomes the "
                          "primary for good (new data stays there when the old primary "
                          "recovers). 65535 (default) = never, as Linux's ps_retrans.",
                          UintegerValue(65535),
                          MakeUintegerAccessor(&SctpSocket::m_psMaxRetrans),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SourceAddressFailover",
                          "On a local multi-homed endpoint, move a destination to another "
                          "local (source) address when its retransmission timer expires: "
                          "the most divergent source-destination pair of section 6.4.1.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SctpSocket::m_sourceFailover),
                          MakeBooleanChecker())
            // PR-SCTP (RFC 3758, RFC 7496)
            .AddAttribute("PrSctpEnabled",
                          "Announce Forward-TSN-Supported in INIT / INIT ACK and use the "
                          "PR-SCTP policies of messages when the peer supports them.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SctpSocket::m_prSctpEnabled),
                          MakeBooleanChecker())
            .AddAttribute("PrPolicy",
                          "PR-SCTP policy of messages sent without an SctpSendInfoTag: NONE, "
                          "TTL (lifetime, PrValue in ms), RTX (at most PrValue "
                          "retransmissions, NS-2 k-rtx) or PRIORITY (RFC 7496).",
                          EnumValue(SctpPrPolicy::NONE),
                          MakeEnumAccessor<SctpPrPolicy>(&SctpSocket::m_defaultPrPolicy),
                          MakeEnumChecker(SctpPrPolicy::NONE,
                                          "NONE",
                                          SctpPrPolicy::TTL,
                                          "TTL",
                                          SctpPrPolicy::RTX,
                                          "RTX",
                                          SctpPrPolicy::PRIORITY,
                                          "PRIORITY"))
            .AddAttribute("PrValue",
                          "Value of PrPolicy: lifetime in ms (TTL), retransmissions (RTX) or "
                          "priority, lower is more important (PRIORITY).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SctpSocket::m_defaultPrValue),
                          MakeUintegerChecker<uint32_t>())
            // Trace sources
            .AddTraceSource("State",
                            "Association state",
                            MakeTraceSourceAccessor(&SctpSocket::m_state),
                            "ns3::SctpSocket::StateTracedCallback")
            .AddTraceSource("CongestionWindow",
                            "Congestion window of the primary path (bytes)",
                            MakeTraceSourceAccessor(&SctpSocket::m_cwndTrace),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("SlowStartThreshold",
                            "Slow start threshold of the primary path (bytes)",
                            MakeTraceSourceAccessor(&SctpSocket::m_ssthreshTrace),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("RTO",
                            "Retransmission timeout of the primary path",
                            MakeTraceSourceAccessor(&SctpSocket::m_rtoTrace),
                            "ns3::TracedValueCallback::Time")
            .AddTraceSource("RTT",
                            "Last RTT sample (any path)",
                            MakeTraceSourceAccessor(&SctpSocket::m_rttTrace),
                            "ns3::TracedValueCallback::Time")
            .AddTraceSource("PeerRwnd",
                            "The peer's receiver window as estimated by the sender (bytes)",
                            MakeTraceSourceAccessor(&SctpSocket::m_peerRwndTrace),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("TxChunk",
                            "A chunk was sent: type, flags, length, TSN (DATA) or 0",
                            MakeTraceSourceAccessor(&SctpSocket::m_txChunkTrace),
                            "ns3::SctpSocket::ChunkTracedCallback")
            .AddTraceSource("RxChunk",
                            "A chunk was received: type, flags, length, TSN (DATA) or 0",
                            MakeTraceSourceAccessor(&SctpSocket::m_rxChunkTrace),
                            "ns3::SctpSocket::ChunkTracedCallback")
            .AddTraceSource("Retransmission",
                            "A DATA chunk was retransmitted: TSN, fast retransmit or not",
                            MakeTraceSourceAccessor(&SctpSocket::m_retransmissionTrace),
                            "ns3::SctpSocket::RetransmissionTracedCallback")
            .AddTraceSource("Deliver",
                            "A complete message was handed to the application queue: "
                            "message, stream, SSN, TSN",
                            MakeTraceSourceAccessor(&SctpSocket::m_deliverTrace),
                            "ns3::SctpSocket::DeliverTracedCallback")
            .AddTraceSource("ChunkPath",
                            "A chunk was sent to a destination: type, TSN (DATA; the new "
                            "cumulative TSN of FORWARD TSN) or 0, path index, retransmission",
                            MakeTraceSourceAccessor(&SctpSocket::m_chunkPathTrace),
                            "ns3::SctpSocket::ChunkPathTracedCallback")
            .AddTraceSource("PathEvent",
                            "A destination changed: path index and event (AVAILABLE, "
                            "UNREACHABLE, CONFIRMED, MADE_PRIMARY, DATA_PATH)",
                            MakeTraceSourceAccessor(&SctpSocket::m_pathEventTrace),
                            "ns3::SctpSocket::PathEventTracedCallback")
            .AddTraceSource("Abandon",
                            "PR-SCTP abandoned a message: stream, SSN, first TSN (0 if never "
                            "sent), size, policy",
                            MakeTraceSourceAccessor(&SctpSocket::m_abandonTrace),
                            "ns3::SctpSocket::AbandonTracedCallback");
    return tid;
}

SctpSocket::SctpSocket()
    : m_state(SCTP_CLOSED),
      m_cwndTrace(0),
      m_ssthreshTrace(0),
      m_rtoTrace(Time(0)),
      m_rttTrace(Time(0)),
      m_peerRwndTrace(0)
{
    NS_LOG_FUNCTION(this);
}

SctpSocket::SctpSocket(const SctpSocket& o)
    : Socket(o),
      m_sndBufSize(o.m_sndBufSize),
      m_rcvBufSize(o.m_rcvBufSize),
      m_numOutStreams(o.m_numOutStreams),
      m_maxInStreams(o.m_maxInStreams),
      m_defaultStream(o.m_defaultStream),
      m_defaultPpid(o.m_defaultPpid),
      m_defaultUnordered(o.m_defaultUnordered),
      m_rtoInitial(o.m_rtoInitial),
      m_rtoMin(o.m_rtoMin),
      m_rtoMax(o.m_rtoMax),
      m_rtoAlpha(o.m_rtoAlpha),
      m_rtoBeta(o.m_rtoBeta),
      m_maxBurst(o.m_maxBurst),
      m_validCookieLife(o.m_validCookieLife),
      m_assocMaxRetrans(o.m_assocMaxRetrans),
      m_pathMaxRetrans(o.m_pathMaxRetrans),
      m_maxInitRetransmits(o.m_maxInitRetransmits),
      m_hbInterval(o.m_hbInterval),
      m_sackDelay(o.m_sackDelay),
      m_sackFrequency(o.m_sackFrequency),
      m_fastRtxTrigger(o.m_fastRtxTrigger),
      m_initialCwnd(o.m_initialCwnd),
      m_initialSsthresh(o.m_initialSsthresh),
      m_maxSegment(o.m_maxSegment),
      m_mtu(o.m_mtu),
      m_useCookiePreservative(o.m_useCookiePreservative),
      m_primaryAddressAttribute(o.m_primaryAddressAttribute),
      m_hbMaxBurst(o.m_hbMaxBurst),
      m_heartbeatMode(o.m_heartbeatMode),
      m_rtxToAlt(o.m_rtxToAlt),
      m_dormantAction(o.m_dormantAction),
      m_returnToPrimary(o.m_returnToPrimary),
      m_changePrimaryThresh(o.m_changePrimaryThresh),
      m_pfMaxRetrans(o.m_pfMaxRetrans),
      m_psMaxRetrans(o.m_psMaxRetrans),
      m_sourceFailover(o.m_sourceFailover),
      m_prSctpEnabled(o.m_prSctpEnabled),
      m_defaultPrPolicy(o.m_defaultPrPolicy),
      m_defaultPrValue(o.m_defaultPrValue),
      m_node(o.m_node),
      m_sctp(o.m_sctp),
      m_boundDevice(o.m_boundDevice),
      m_bound(false),
      m_ipv6(o.m_ipv6),
      m_localAddress(o.m_localAddress),
      m_boundAddresses(o.m_boundAddresses),
      m_localPort(o.m_localPort),
      m_state(SCTP_CLOSED),
      m_congestionOps(o.m_congestionOps ? o.m_congestionOps->Fork() : nullptr),
      m_cwndTrace(0),
      m_ssthreshTrace(0),
      m_rtoTrace(Time(0)),
      m_rttTrace(Time(0)),
      m_peerRwndTrace(0)
{
    NS_LOG_FUNCTION(this);
}

SctpSocket::~SctpSocket()
{
    NS_LOG_FUNCTION(this);
}

void
SctpSocket::DoDispose()
{
    CancelAllTimers();
    for (auto& p : m_paths)
    {
        p->Dispose();
    }
    m_paths.clear();
    m_rxMessages.clear();
    m_node = nullptr;
    m_sctp = nullptr;
    m_boundDevice = nullptr;
    m_congestionOps = nullptr;
    Socket::DoDispose();
}

void
SctpSocket::SetNode(Ptr<Node> node)
{
    m_node = node;
}

void
SctpSocket::SetSctp(Ptr<SctpL4Protocol> sctp)
{
    m_sctp = sctp;
}

void
SctpSocket::SetCongestionOps(Ptr<SctpCongestionOps> algorithm)
{
    m_congestionOps = algorithm;
}

Ptr<SctpCongestionOps>
SctpSocket::GetCongestionOps() const
{
    return m_congestionOps;
}

// ------------------------------------------------------------------ socket API

Socket::SocketErrno
SctpSocket::GetErrno() const
{
    return m_errno;
}

Socket::SocketType
SctpSocket::GetSocketType() const
{
    // Message-oriented and connection-oriented: one-to-one style SCTP.
    return NS3_SOCK_SEQPACKET;
}

Ptr<Node>
SctpSocket::GetNode() const
{
    return m_node;
}

int
SctpSocket::Bind(const Address& address)
{
    NS_LOG_FUNCTION(this << address);
    if (m_bound)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    Address ip;
    uint16_t port;
    if (InetSocketAddress::IsMatchingType(address))
    {
        InetSocketAddress a = InetSocketAddress::ConvertFrom(address);
        ip = a.GetIpv4();
        port = a.GetPort();
        m_ipv6 = false;
    }
    else if (Inet6SocketAddress::IsMatchingType(address))
    {
        Inet6SocketAddress a = Inet6SocketAddress::ConvertFrom(address);
        ip = a.GetIpv6();
        port = a.GetPort();
        m_ipv6 = true;
    }
    else
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    if (!m_sctp->Bind(this, ip, port))
    {
        m_errno = ERROR_ADDRINUSE;
        return -1;
    }
    m_localAddress = ip;
    m_localPort = port;
    m_bound = true;
    return 0;
}

int
SctpSocket::Bind()
{
    return Bind(InetSocketAddress(Ipv4Address::GetAny(), 0));
}

int
SctpSocket::Bind6()
{
    return Bind(Inet6SocketAddress(Ipv6Address::GetAny(), 0));
}

int
SctpSocket::BindAdd(const Address& address)
{
    NS_LOG_FUNCTION(this << address);
    Address ip;
    uint16_t port;
    if (InetSocketAddress::IsMatchingType(address) && !m_ipv6)
    {
        ip = InetSocketAddress::ConvertFrom(address).GetIpv4();
        port = InetSocketAddress::ConvertFrom(address).GetPort();
    }
    else if (Inet6SocketAddress::IsMatchingType(address) && m_ipv6)
    {
        ip = Inet6SocketAddress::ConvertFrom(address).GetIpv6();
        port = Inet6SocketAddress::ConvertFrom(address).GetPort();
    }
    else
    {
        m_errno = ERROR_INVAL; // another family than the bound address, or not a socket address
        return -1;
    }
    // Only a socket bound to a specific address, before it has an association.
    if (!m_bound || IsAnyAddress(m_localAddress) || IsAnyAddress(ip) ||
        (port != 0 && port != m_localPort) ||
        (m_state != SCTP_CLOSED && m_state != SCTP_LISTEN) || !m_sctp->IsLocalAddress(ip))
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    if (m_boundAddresses.empty())
    {
        m_boundAddresses.push_back(m_localAddress);
    }
    if (std::find(m_boundAddresses.begin(), m_boundAddresses.end(), ip) != m_boundAddresses.end())
    {
        return 0;
    }
    uint16_t bound = m_localPort;
    if (!m_sctp->Bind(this, ip, bound))
    {
        m_errno = ERROR_ADDRINUSE;
        return -1;
    }
    m_boundAddresses.push_back(ip);
    return 0;
}

void
SctpSocket::BindToNetDevice(Ptr<NetDevice> netdevice)
{
    m_boundDevice = netdevice;
    Socket::BindToNetDevice(netdevice);
}

int
SctpSocket::Connect(const Address& address)
{
    NS_LOG_FUNCTION(this << address);
    if (m_state != SCTP_CLOSED)
    {
        m_errno = ERROR_ISCONN;
        return -1;
    }
    Address peer;
    uint16_t peerPort;
    if (InetSocketAddress::IsMatchingType(address))
    {
        peer = InetSocketAddress::ConvertFrom(address).GetIpv4();
        peerPort = InetSocketAddress::ConvertFrom(address).GetPort();
    }
    else if (Inet6SocketAddress::IsMatchingType(address))
    {
        peer = Inet6SocketAddress::ConvertFrom(address).GetIpv6();
        peerPort = Inet6SocketAddress::ConvertFrom(address).GetPort();
    }
    else
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    if (peerPort == 0)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    if (!m_bound)
    {
        int r = Ipv6Address::IsMatchingType(peer) ? Bind6() : Bind();
        if (r != 0)
        {
            return r;
        }
    }
    m_peerPort = peerPort;
    m_peerConnectAddress = peer;
    NewAssociation(m_sctp->GenerateTag(), m_sctp->GenerateTsn());
    SetupPaths({peer}, peer);
    m_sctp->RegisterAssociation(this, m_localPort, m_peerPort, peer);
    m_registered = true;
    m_t1Count = 0;
    m_t1Rto = m_rtoInitial;
    SetState(SCTP_COOKIE_WAIT);
    SendInit();
    StartT1();
    return 0;
}

int
SctpSocket::Listen()
{
    NS_LOG_FUNCTION(this);
    if (!m_bound)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    if (m_state != SCTP_CLOSED)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    SetState(SCTP_LISTEN);
    return 0;
}

int
SctpSocket::Close()
{
    NS_LOG_FUNCTION(this << SctpStateName(m_state));
    switch (m_state.Get())
    {
    case SCTP_LISTEN:
        SetState(SCTP_CLOSED);
        m_sctp->Unbind(this);
        m_bound = false;
        return 0;
    case SCTP_CLOSED:
        return 0;
    case SCTP_COOKIE_WAIT:
        if (m_txQueue.IsEmpty())
        {
            // The peer holds no state yet and nothing waits: forget the association.
            DeleteAssociation(false, false);
            return 0;
        }
        m_closeRequested = true; // deliver the queued messages first, then shut down
        return 0;
    case SCTP_COOKIE_ECHOED:
        m_closeRequested = true; // shut down as soon as the COOKIE ACK arrives
        return 0;
    case SCTP_ESTABLISHED:
        m_closeRequested = true;
        SetState(SCTP_SHUTDOWN_PENDING);
        CheckShutdownProgress();
        return 0;
    default:
        m_closeRequested = true;
        return 0;
    }
}

int
SctpSocket::ShutdownSend()
{
    NS_LOG_FUNCTION(this);
    m_shutdownSend = true;
    if (m_state == SCTP_ESTABLISHED)
    {
        SetState(SCTP_SHUTDOWN_PENDING);
        CheckShutdownProgress();
    }
    else if (m_state == SCTP_COOKIE_ECHOED)
    {
        m_closeRequested = true;
    }
    return 0;
}

int
SctpSocket::ShutdownRecv()
{
    m_shutdownRecv = true;
    return 0;
}

int
SctpSocket::Abort()
{
    NS_LOG_FUNCTION(this);
    if (!IsAssociationAlive())
    {
        m_errno = ERROR_NOTCONN;
        return -1;
    }
    if (m_state != SCTP_COOKIE_WAIT)
    {
        SendAbort({SctpTlv::Cause(SctpTlv::USER_INITIATED_ABORT)});
    }
    m_lastAbortCause = SctpTlv::USER_INITIATED_ABORT;
    DeleteAssociation(false, false);
    return 0;
}

uint32_t
SctpSocket::GetTxAvailable() const
{
    uint32_t used = m_txQueue.GetBufferedBytes();
    return used >= m_sndBufSize ? 0 : m_sndBufSize - used;
}

int
SctpSocket::Send(Ptr<Packet> p, uint32_t flags)
{
    NS_LOG_FUNCTION(this << p);
    SctpState s = m_state;
    if (s != SCTP_ESTABLISHED && s != SCTP_COOKIE_WAIT && s != SCTP_COOKIE_ECHOED)
    {
        m_errno = (s == SCTP_CLOSED || s == SCTP_LISTEN) ? ERROR_NOTCONN : ERROR_SHUTDOWN;
        return -1;
    }
    if (m_shutdownSend || m_closeRequested)
    {
        m_errno = ERROR_SHUTDOWN;
        return -1;
    }
    uint32_t size = p->GetSize();
    if (size == 0)
    {
        m_errno = ERROR_INVAL; // a DATA chunk needs user data (section 6.2)
        return -1;
    }
    auto message = Create<SctpOutboundMessage>();
    SctpSendInfoTag tag;
    bool tagged = p->PeekPacketTag(tag);
    SctpPrPolicy policy = tagged ? tag.prPolicy : m_defaultPrPolicy;
    uint32_t policyValue = tagged ? tag.prValue : m_defaultPrValue;
    if (s == SCTP_ESTABLISHED && m_peerInitialRwnd > 0 && size > m_peerInitialRwnd)
    {
        // The peer could never reassemble it (no partial delivery, section 6.9): it would
        // fill the peer's window for good and the association would die of timeouts.
        NS_LOG_WARN(this << " Send: a " << size << "-byte message exceeds the peer's receive "
                         << "buffer (a_rwnd " << m_peerInitialRwnd << "): refused");
        m_errno = ERROR_MSGSIZE;
        return -1;
    }
    if (size > GetTxAvailable() &&
        !(policy == SctpPrPolicy::PRIORITY && s == SCTP_ESTABLISHED && IsPrSctpActive() &&
          MakeRoomByPriority(size, policyValue)))
    {
        m_errno = ERROR_MSGSIZE;
        return -1;
    }
    if (tagged)
    {
        message->streamId = tag.streamId;
        message->ppid = tag.ppid;
        message->unordered = tag.unordered;
        message->prPolicy = tag.prPolicy;
        message->prValue = tag.prValue;
    }
    else
    {
        message->streamId = m_defaultStream;
        message->ppid = m_defaultPpid;
        message->unordered = m_defaultUnordered;
        message->prPolicy = m_defaultPrPolicy;
        message->prValue = m_defaultPrValue;
    }
    uint16_t streams = s == SCTP_ESTABLISHED ? m_outStreams : m_numOutStreams;
    if (message->streamId >= streams)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    message->data.resize(size);
    p->CopyData(message->data.data(), size);
    message->enqueueTime = Simulator::Now();
    m_txQueue.Enqueue(message);
    if (s == SCTP_ESTABLISHED && !m_processingPacket)
    {
        // Inside packet processing (an application answering a callback) the packet's
        // own SendPending at the end bundles this message with the SACK.
        SendPending();
    }
    return static_cast<int>(size);
}

int
SctpSocket::SendTo(Ptr<Packet> p, uint32_t flags, const Address& toAddress)
{
    return Send(p, flags); // one-to-one style: the association decides the destination
}

uint32_t
SctpSocket::GetRxAvailable() const
{
    return m_rxMessageBytes;
}

Ptr<Packet>
SctpSocket::Recv(uint32_t maxSize, uint32_t flags)
{
    if (m_rxMessages.empty())
    {
        m_errno = IsAssociationAlive() ? ERROR_AGAIN : ERROR_NOTCONN;
        return nullptr;
    }
    SctpReceivedMessage& front = m_rxMessages.front();
    uint32_t windowBefore = GetAdvertisedWindow();
    Ptr<Packet> out;
    SctpReceiveInfoTag tag;
    tag.streamId = front.streamId;
    tag.ssn = front.ssn;
    tag.tsn = front.tsn;
    tag.ppid = front.ppid;
    tag.unordered = front.unordered;
    uint32_t size = front.data->GetSize();
    if (size <= maxSize)
    {
        out = front.data;
        m_rxMessages.pop_front();
        m_rxMessageBytes -= size;
    }
    else
    {
        // Partial read: the rest of the message stays for the next Recv.
        out = front.data->CreateFragment(0, maxSize);
        front.data->RemoveAtStart(maxSize);
        m_rxMessageBytes -= maxSize;
    }
    out->ReplacePacketTag(tag);
    // Window update (SWS avoidance, section 6.2): tell the peer when the window opens
    // from below one MTU or by half the buffer since the last SACK.
    uint32_t windowNow = GetAdvertisedWindow();
    if (IsAssociationAlive() && m_state != SCTP_COOKIE_WAIT && windowNow > windowBefore &&
        ((m_lastAdvertisedWindow < 1500 && windowNow >= 1500) ||
         windowNow >= m_lastAdvertisedWindow + m_rcvBufSize / 2) &&
        !m_windowUpdateEvent.IsPending())
    {
        m_windowUpdateEvent = Simulator::ScheduleNow(&SctpSocket::OnWindowUpdate, this);
    }
    return out;
}

Ptr<Packet>
SctpSocket::RecvFrom(uint32_t maxSize, uint32_t flags, Address& fromAddress)
{
    Ptr<Packet> p = Recv(maxSize, flags);
    if (p)
    {
        GetPeerName(fromAddress);
    }
    return p;
}

int
SctpSocket::GetSockName(Address& address) const
{
    Address ip = m_localAddress;
    bool any = ip.IsInvalid() ||
               (Ipv4Address::IsMatchingType(ip) && Ipv4Address::ConvertFrom(ip).IsAny()) ||
               (Ipv6Address::IsMatchingType(ip) && Ipv6Address::ConvertFrom(ip).IsAny());
    if (any && !m_paths.empty() && m_sctp)
    {
        ip = m_sctp->GetSourceAddress(m_paths[m_primaryPath]->GetAddress(), m_boundDevice);
    }
    if (Ipv6Address::IsMatchingType(ip))
    {
        address = Inet6SocketAddress(Ipv6Address::ConvertFrom(ip), m_localPort);
    }
    else if (Ipv4Address::IsMatchingType(ip))
    {
        address = InetSocketAddress(Ipv4Address::ConvertFrom(ip), m_localPort);
    }
    else
    {
        address = InetSocketAddress(Ipv4Address::GetAny(), m_localPort);
    }
    return 0;
}

int
SctpSocket::GetPeerName(Address& address) const
{
    if (m_paths.empty())
    {
        m_errno = ERROR_NOTCONN;
        return -1;
    }
    const Address& ip = m_paths[m_primaryPath]->GetAddress();
    if (Ipv6Address::IsMatchingType(ip))
    {
        address = Inet6SocketAddress(Ipv6Address::ConvertFrom(ip), m_peerPort);
    }
    else
    {
        address = InetSocketAddress(Ipv4Address::ConvertFrom(ip), m_peerPort);
    }
    return 0;
}

bool
SctpSocket::SetAllowBroadcast(bool allowBroadcast)
{
    return !allowBroadcast; // SCTP is unicast only
}

bool
SctpSocket::GetAllowBroadcast() const
{
    return false;
}

// ------------------------------------------------------------------ inspection

SctpState
SctpSocket::GetState() const
{
    return m_state;
}

uint32_t
SctpSocket::GetNPaths() const
{
    return static_cast<uint32_t>(m_paths.size());
}

Ptr<SctpPath>
SctpSocket::GetPath(uint32_t index) const
{
    return index < m_paths.size() ? m_paths[index] : nullptr;
}

Ptr<SctpPath>
SctpSocket::GetPrimaryPath() const
{
    return m_paths.empty() ? nullptr : m_paths[m_primaryPath];
}

uint32_t
SctpSocket::GetLocalVerificationTag() const
{
    return m_localTag;
}

uint32_t
SctpSocket::GetPeerVerificationTag() const
{
    return m_peerTag;
}

uint16_t
SctpSocket::GetLocalPort() const
{
    return m_localPort;
}

uint16_t
SctpSocket::GetPeerPort() const
{
    return m_peerPort;
}

uint32_t
SctpSocket::GetNextTsn() const
{
    return m_txQueue.GetNextTsn();
}

uint32_t
SctpSocket::GetCumulativeTsnAcked() const
{
    return m_cumTsnAcked;
}

uint32_t
SctpSocket::GetCumulativeTsnReceived() const
{
    return m_tsnMap.GetCumulativeTsn();
}

uint32_t
SctpSocket::GetPeerRwnd() const
{
    return m_peerRwnd;
}

uint16_t
SctpSocket::GetOutboundStreams() const
{
    return m_outStreams;
}

uint16_t
SctpSocket::GetInboundStreams() const
{
    return m_inStreams;
}

uint32_t
SctpSocket::GetFastRetransmitCount() const
{
    return m_fastRetransmits;
}

uint32_t
SctpSocket::GetTimeoutCount() const
{
    return m_timeouts;
}

uint32_t
SctpSocket::GetRetransmittedChunkCount() const
{
    return m_retransmittedChunks;
}

uint32_t
SctpSocket::GetRestartCount() const
{
    return m_restarts;
}

uint64_t
SctpSocket::GetDeliveredBytes() const
{
    return m_deliveredBytes;
}

uint32_t
SctpSocket::GetPrimaryPathIndex() const
{
    return m_primaryPath;
}

uint32_t
SctpSocket::GetDataPathIndex() const
{
    return m_dataPath;
}

uint32_t
SctpSocket::GetAdvancedPeerAckPoint() const
{
    return SctpTsnLt(m_advancedPeerAckPoint, m_cumTsnAcked) ? m_cumTsnAcked
                                                            : m_advancedPeerAckPoint;
}

uint32_t
SctpSocket::GetAbandonedMessageCount() const
{
    return m_abandonedMessages;
}

uint32_t
SctpSocket::GetAbandonedUnsentCount() const
{
    return m_abandonedUnsent;
}

uint32_t
SctpSocket::GetForwardTsnSentCount() const
{
    return m_forwardTsnSent;
}

uint32_t
SctpSocket::GetForwardTsnReceivedCount() const
{
    return m_forwardTsnReceived;
}

uint32_t
SctpSocket::GetHeartbeatCount() const
{
    return m_heartbeatsSent;
}

uint32_t
SctpSocket::GetHeartbeatAckCount() const
{
    return m_heartbeatAcks;
}

uint16_t
SctpSocket::GetLastAbortCause() const
{
    return m_lastAbortCause;
}

std::string
SctpSocket::CheckInvariants() const
{
    std::vector<uint64_t> flight(m_paths.size(), 0);
    const auto& outstanding = m_txQueue.GetOutstanding();
    uint32_t expected = m_cumTsnAcked + 1;
    uint32_t gapAcked = 0;
    uint32_t marked = 0;
    for (const auto& c : outstanding)
    {
        if (c.tsn != expected)
        {
            return "outstanding TSNs not consecutive from cum ack + 1 at " + std::to_string(c.tsn);
        }
        ++expected;
        if (c.pathIndex >= m_paths.size())
        {
            return "chunk on unknown path";
        }
        if (c.inFlight)
        {
            flight[c.pathIndex] += c.GetWireSize();
        }
        if (c.gapAcked)
        {
            ++gapAcked;
            if (c.inFlight)
            {
                return "gap-acked chunk counted in flight";
            }
        }
        if (c.markedForRetransmit)
        {
            ++marked;
            if (c.rtxPath >= m_paths.size())
            {
                return "retransmission to an unknown path";
            }
        }
        if (c.abandoned && (c.inFlight || c.markedForRetransmit))
        {
            return "abandoned chunk in flight or marked for retransmission";
        }
    }
    if (!m_paths.empty() &&
        (m_primaryPath >= m_paths.size() || m_dataPath >= m_paths.size()))
    {
        return "primary or data path index out of range";
    }
    if (SctpTsnGt(m_advancedPeerAckPoint, m_cumTsnAcked) &&
        SctpTsnGt(m_advancedPeerAckPoint, m_txQueue.GetHighestSentTsn()))
    {
        return "Advanced.Peer.Ack.Point beyond the highest TSN sent";
    }
    if (!outstanding.empty() || IsAssociationAlive())
    {
        if (expected != m_txQueue.GetNextTsn() && !outstanding.empty())
        {
            return "next TSN does not follow the outstanding chunks";
        }
    }
    for (std::size_t i = 0; i < m_paths.size(); ++i)
    {
        if (flight[i] != m_paths[i]->GetFlightSize())
        {
            return "flight size of path " + std::to_string(i) + " is " +
                   std::to_string(m_paths[i]->GetFlightSize()) + ", chunks say " +
                   std::to_string(flight[i]);
        }
        if (IsAssociationAlive() && m_state != SCTP_COOKIE_WAIT && m_paths[i]->GetCwnd() == 0)
        {
            return "zero congestion window";
        }
    }
    if (gapAcked != m_gapAckedChunks)
    {
        return "gap-acked count mismatch";
    }
    if (marked != m_markedForRetransmit)
    {
        return "marked-for-retransmission count mismatch";
    }
    if (SctpTsnGt(m_tsnMap.GetCumulativeTsn(), m_tsnMap.GetHighestTsn()))
    {
        return "TSN map cumulative TSN above highest";
    }
    uint32_t rxBytes = 0;
    for (const auto& m : m_rxMessages)
    {
        rxBytes += m.data->GetSize();
    }
    if (rxBytes != m_rxMessageBytes)
    {
        return "receive queue byte count mismatch";
    }
    return "";
}

// ------------------------------------------------------------------ association life

void
SctpSocket::SetState(SctpState state)
{
    if (m_state != state)
    {
        NS_LOG_INFO(this << " " << SctpStateName(m_state) << " -> " << SctpStateName(state));
        m_state = state;
        if (state == SCTP_SHUTDOWN_SENT || state == SCTP_SHUTDOWN_ACK_SENT)
        {
            StopHeartbeats(); // section 8.3
        }
    }
}

bool
SctpSocket::IsAssociationAlive() const
{
    return m_state != SCTP_CLOSED && m_state != SCTP_LISTEN;
}

void
SctpSocket::NewAssociation(uint32_t localTag, uint32_t localInitialTsn)
{
    m_localTag = localTag;
    m_peerTag = 0;
    m_localTieTag = 0;
    m_peerTieTag = 0;
    m_zeroWindowProbe = false;
    m_sackDuringProbe = false;
    m_localInitialTsn = localInitialTsn;
    m_txQueue.Initialize(localInitialTsn, m_numOutStreams);
    m_cumTsnAcked = localInitialTsn - 1;
    m_advancedPeerAckPoint = m_cumTsnAcked;
    m_forwardTsnPending = false;
    m_fastRecovery = false;
    m_markedForRetransmit = 0;
    m_gapAckedChunks = 0;
    m_assocErrorCount = 0;
    m_outStreams = m_numOutStreams;
    m_inStreams = m_maxInStreams;
    m_controlChunks.clear();
    m_cookieEcho.clear();
    m_closeRequested = false;
    m_shutdownSend = false;
}

void
SctpSocket::SetupPaths(const std::vector<Address>& peerAddresses, const Address& primary)
{
    for (auto& p : m_paths)
    {
        p->CancelTimers();
    }
    StopHeartbeats();
    m_paths.clear();
    m_primaryPath = 0;
    m_lastDataSource = -1;
    m_lastDataLocal = Address();
    m_localList = GetLocalAddresses();
    for (const auto& a : peerAddresses)
    {
        auto path = CreateObject<SctpPath>();
        path->SetAddress(a);
        path->SetIndex(static_cast<uint32_t>(m_paths.size()));
        path->SetT3ExpiredCallback(MakeCallback(&SctpSocket::OnT3Event, this));
        path->SetHeartbeatCallbacks(MakeCallback(&SctpSocket::OnHeartbeatTimer, this),
                                    MakeCallback(&SctpSocket::OnHeartbeatResponseTimer, this));
        SelectSource(*path, false);
        uint32_t ipHeader = Ipv6Address::IsMatchingType(a) ? 40 : 20;
        uint32_t mtu = m_mtu;
        if (mtu == 0)
        {
            mtu = m_sctp->GetPathMtu(a,
                                     path->GetSourceDevice() ? path->GetSourceDevice()
                                                             : m_boundDevice);
        }
        if (mtu < ipHeader + 12 + 16 + 4)
        {
            mtu = 1500;
        }
        path->SetMtu(mtu, ipHeader);
        path->InitializeRto(m_rtoInitial);
        if (a == primary)
        {
            m_primaryPath = path->GetIndex();
        }
        m_paths.push_back(path);
    }
    m_dataPath = m_primaryPath;
    UpdatePrimaryTraces();
}

void
SctpSocket::InitializeTransfer(uint32_t peerInitialTsn,
                               uint32_t peerRwnd,
                               uint16_t outboundStreams,
                               uint16_t inboundStreams)
{
    m_tsnMap.Initialize(peerInitialTsn);
    m_reassembly.Initialize(inboundStreams);
    m_peerRwnd = peerRwnd;
    m_peerInitialRwnd = peerRwnd;
    m_peerRwndTrace = peerRwnd;
    m_outStreams = outboundStreams;
    m_inStreams = inboundStreams;
    if (!m_congestionOps)
    {
        m_congestionOps = CreateObject<SctpRfc9260CongestionOps>();
    }
    for (auto& p : m_paths)
    {
        // Section 7.2.1, unless the InitialCwnd / InitialSsthresh attributes say otherwise.
        uint32_t cwnd = m_initialCwnd ? m_initialCwnd : m_congestionOps->GetInitialCwnd(*p);
        uint32_t ssthresh = m_initialSsthresh
                                ? m_initialSsthresh
                                : m_congestionOps->GetInitialSsthresh(*p, peerRwnd);
        p->InitializeCongestionControl(cwnd, ssthresh);
    }
    m_packetsSinceSack = 0;
    m_sackNeeded = false;
    m_lastAdvertisedWindow = m_rcvBufSize; // what INIT / INIT ACK announced
    UpdatePrimaryTraces();
}

void
SctpSocket::UpdatePrimaryTraces()
{
    if (m_paths.empty())
    {
        return;
    }
    const SctpPath& p = *m_paths[m_primaryPath];
    m_cwndTrace = p.GetCwnd();
    m_ssthreshTrace = p.GetSsthresh();
    m_rtoTrace = p.GetRto();
}

void
SctpSocket::CancelAllTimers()
{
    Simulator::Cancel(m_t1Event);
    Simulator::Cancel(m_t2Event);
    Simulator::Cancel(m_t5Event);
    Simulator::Cancel(m_sackTimer);
    Simulator::Cancel(m_windowUpdateEvent);
    for (auto& p : m_paths)
    {
        p->CancelTimers();
    }
    StopHeartbeats();
}

void
SctpSocket::DeleteAssociation(bool notifyNormal, bool notifyError)
{
    NS_LOG_FUNCTION(this << notifyNormal << notifyError);
    Ptr<SctpSocket> self = this;
    CancelAllTimers();
    if (m_sctp)
    {
        m_sctp->UnregisterAssociation(this);
        m_sctp->Unbind(this);
    }
    m_registered = false;
    m_bound = false;
    SctpState old = m_state;
    SetState(SCTP_CLOSED);
    // Outstanding data is gone with the association; keep flight sizes consistent.
    m_txQueue.Initialize(m_txQueue.GetNextTsn(), m_numOutStreams);
    m_cumTsnAcked = m_txQueue.GetNextTsn() - 1;
    m_markedForRetransmit = 0;
    m_gapAckedChunks = 0;
    for (auto& p : m_paths)
    {
        p->RemoveFlight(p->GetFlightSize());
    }
    m_controlChunks.clear();
    if (old == SCTP_COOKIE_WAIT || old == SCTP_COOKIE_ECHOED)
    {
        if (notifyNormal || notifyError)
        {
            NotifyConnectionFailed();
        }
        return;
    }
    if (notifyNormal)
    {
        NotifyNormalClose();
    }
    else if (notifyError)
    {
        NotifyErrorClose();
    }
}

bool
SctpSocket::CountAssociationError()
{
    ++m_assocErrorCount;
    if (m_assocErrorCount > m_assocMaxRetrans)
    {
        NS_LOG_INFO(this << " Association.Max.Retrans exceeded: the peer is unreachable");
        SendAbort({SctpTlv::ProtocolViolation("Association.Max.Retrans exceeded")});
        DeleteAssociation(false, true);
        return false;
    }
    return true;
}

// ------------------------------------------------------------------ sending control

void
SctpSocket::SendControlTo(uint32_t verificationTag,
                          const std::vector<uint8_t>& chunks,
                          const Address& destination,
                          const Address& source,
                          Ptr<NetDevice> device)
{
    m_txBuffer.clear();
    SctpByteWriter w(m_txBuffer);
    SctpCommonHeader h;
    h.sourcePort = m_localPort;
    h.destinationPort = m_peerPort;
    h.verificationTag = verificationTag;
    h.Serialize(w);
    w.WriteBytes(chunks.data(), chunks.size());
    if (m_txChunkTrace.IsEmpty() == false)
    {
        std::vector<SctpChunk> views;
        SctpSplitChunks(chunks.data(), chunks.size(), views);
        for (const auto& v : views)
        {
            m_txChunkTrace(v.type, v.flags, v.length, 0);
        }
    }
    m_sctp->SendPacket(m_txBuffer, source, destination, device ? device : m_boundDevice);
}

void
SctpSocket::SendControl(uint32_t verificationTag, const std::vector<uint8_t>& chunks)
{
    if (m_paths.empty())
    {
        return;
    }
    // Before the association is up only the primary (the address given to Connect, or
    // the INIT's source) is known to work; afterwards control goes where data goes.
    bool up = m_state != SCTP_COOKIE_WAIT && m_state != SCTP_COOKIE_ECHOED;
    SctpPath& path = *m_paths[up ? SelectDataPath() : m_primaryPath];
    m_txBuffer.clear();
    SctpByteWriter w(m_txBuffer);
    SctpCommonHeader h;
    h.sourcePort = m_localPort;
    h.destinationPort = m_peerPort;
    h.verificationTag = verificationTag;
    h.Serialize(w);
    w.WriteBytes(chunks.data(), chunks.size());
    if (!m_txChunkTrace.IsEmpty() || !m_chunkPathTrace.IsEmpty())
    {
        std::vector<SctpChunk> views;
        SctpSplitChunks(chunks.data(), chunks.size(), views);
        for (const auto& v : views)
        {
            m_txChunkTrace(v.type, v.flags, v.length, 0);
            m_chunkPathTrace(v.type, 0, path.GetIndex(), false);
        }
    }
    SendOnPath(path, m_txBuffer);
}

void
SctpSocket::QueueControlChunk(const std::vector<uint8_t>& chunkBytes)
{
    m_controlChunks.insert(m_controlChunks.end(), chunkBytes.begin(), chunkBytes.end());
}

void
SctpSocket::SendAbortOnly(uint32_t tag,
                          bool tBit,
                          const std::vector<SctpTlv>& causes,
                          uint16_t localPort,
                          uint16_t peerPort,
                          const Address& destination,
                          const Address& source)
{
    std::vector<uint8_t> chunk;
    SctpByteWriter w(chunk);
    SctpErrorChunk abort;
    abort.type = SctpChunk::ABORT;
    abort.flags = tBit ? SctpChunk::FLAG_T : 0;
    abort.causes = causes;
    abort.Serialize(w);
    uint16_t savedLocal = m_localPort;
    uint16_t savedPeer = m_peerPort;
    m_localPort = localPort;
    m_peerPort = peerPort;
    SendControlTo(tag, chunk, destination, source);
    m_localPort = savedLocal;
    m_peerPort = savedPeer;
    if (!causes.empty())
    {
        m_lastAbortCause = causes[0].type;
    }
}

void
SctpSocket::SendAbort(const std::vector<SctpTlv>& causes, bool toPeerTag)
{
    if (m_paths.empty())
    {
        return;
    }
    uint32_t tag = toPeerTag ? m_peerTag : m_localTag;
    std::vector<uint8_t> chunk;
    SctpByteWriter w(chunk);
    SctpErrorChunk abort;
    abort.type = SctpChunk::ABORT;
    abort.flags = toPeerTag ? 0 : SctpChunk::FLAG_T;
    abort.causes = causes;
    abort.Serialize(w);
    SendControl(tag, chunk);
    if (!causes.empty())
    {
        m_lastAbortCause = causes[0].type;
    }
}

void
SctpSocket::SendError(const std::vector<SctpTlv>& causes)
{
    std::vector<uint8_t> chunk;
    SctpByteWriter w(chunk);
    SctpErrorChunk error;
    error.type = SctpChunk::ERROR;
    // The ERROR chunk must fit in one packet (and its 16-bit length): causes that do not
    // fit are left out, and a first cause alone too large (an unrecognized chunk copied
    // whole) is cut to the space left, 4-byte aligned.
    std::size_t limit = 1200;
    if (!m_paths.empty())
    {
        limit = m_paths[ReplyPath()]->GetPmdcs();
    }
    std::size_t used = 4; // chunk header
    for (const auto& cause : causes)
    {
        std::size_t size = 4 + ((cause.value.size() + 3) & ~std::size_t(3));
        if (used + size <= limit)
        {
            error.causes.push_back(cause);
            used += size;
        }
        else if (error.causes.empty() && limit >= used + 8)
        {
            SctpTlv cut = cause;
            cut.value.resize((limit - used - 4) & ~std::size_t(3));
            error.causes.push_back(std::move(cut));
            used = limit;
        }
    }
    if (error.causes.empty())
    {
        return;
    }
    error.Serialize(w);
    QueueControlChunk(chunk);
}

std::vector<SctpTlv>
SctpSocket::LocalAddressParameters() const
{
    // Section 5.1.2: list our addresses when we use several (bound to the any-address
    // on a multi-homed node, or to a list); a single address is implied by the packet's
    // source address.
    std::vector<SctpTlv> out;
    std::vector<Address> local = GetLocalAddresses();
    if (local.size() < 2)
    {
        return out;
    }
    for (const auto& a : local)
    {
        if (Ipv4Address::IsMatchingType(a))
        {
            out.push_back(SctpTlv::Ipv4Address(Ipv4Address::ConvertFrom(a)));
        }
        else
        {
            out.push_back(SctpTlv::Ipv6Address(Ipv6Address::ConvertFrom(a)));
        }
    }
    return out;
}

void
SctpSocket::SendInit()
{
    SctpInitChunk init;
    init.type = SctpChunk::INIT;
    init.initiateTag = m_localTag;
    init.aRwnd = m_rcvBufSize;
    init.outboundStreams = m_numOutStreams;
    init.inboundStreams = m_maxInStreams;
    init.initialTsn = m_localInitialTsn;
    init.parameters = LocalAddressParameters();
    if (m_cookiePreservativeMs > 0)
    {
        init.parameters.push_back(SctpTlv::CookiePreservative(m_cookiePreservativeMs));
    }
    init.parameters.push_back(SctpTlv::SupportedAddressTypes(!m_ipv6, m_ipv6));
    if (m_prSctpEnabled)
    {
        init.parameters.emplace_back(SctpTlv::FORWARD_TSN_SUPPORTED, std::vector<uint8_t>());
    }
    std::vector<uint8_t> chunk;
    SctpByteWriter w(chunk);
    init.Serialize(w);
    SendControl(0, chunk);
}

void
SctpSocket::SendCookieEcho()
{
    std::vector<uint8_t> chunk;
    SctpByteWriter w(chunk);
    SctpChunk::SerializeRaw(w, SctpChunk::COOKIE_ECHO, 0, m_cookieEcho.data(), m_cookieEcho.size());
    // Errors about the INIT ACK (unrecognized parameters) are bundled after the cookie.
    chunk.insert(chunk.end(), m_controlChunks.begin(), m_controlChunks.end());
    m_controlChunks.clear();
    SendControl(m_peerTag, chunk);
}

void
SctpSocket::SendShutdown()
{
    std::vector<uint8_t> chunk;
    SctpByteWriter w(chunk);
    SctpTsnChunk shutdown;
    shutdown.type = SctpChunk::SHUTDOWN;
    shutdown.tsn = m_tsnMap.GetCumulativeTsn();
    shutdown.Serialize(w);
    SendControl(m_peerTag, chunk);
}

void
SctpSocket::SendShutdownAck()
{
    std::vector<uint8_t> chunk;
    SctpByteWriter w(chunk);
    SctpChunk::SerializeEmpty(w, SctpChunk::SHUTDOWN_ACK);
    SendControl(m_peerTag, chunk);
}

void
SctpSocket::SendShutdownComplete(bool tBit)
{
    std::vector<uint8_t> chunk;
    SctpByteWriter w(chunk);
    SctpChunk::SerializeEmpty(w, SctpChunk::SHUTDOWN_COMPLETE, tBit ? SctpChunk::FLAG_T : 0);
    SendControl(tBit ? m_localTag : m_peerTag, chunk);
}

// ------------------------------------------------------------------ timers T1, T2, T5

void
SctpSocket::StartT1()
{
    Simulator::Cancel(m_t1Event);
    m_t1Event = Simulator::Schedule(m_t1Rto, &SctpSocket::OnT1Expired, this);
}

void
SctpSocket::OnT1Expired()
{
    ++m_t1Count;
    if (m_t1Count > m_maxInitRetransmits)
    {
        NS_LOG_INFO(this << " Max.Init.Retransmits exceeded in " << SctpStateName(m_state));
        DeleteAssociation(false, true);
        return;
    }
    m_t1Rto = std::min(m_t1Rto * 2, m_rtoMax);
    if (m_state == SCTP_COOKIE_WAIT)
    {
        SendInit();
    }
    else if (m_state == SCTP_COOKIE_ECHOED)
    {
        SendCookieEcho();
    }
    else
    {
        return;
    }
    StartT1();
}

void
SctpSocket::StartT2()
{
    Simulator::Cancel(m_t2Event);
    m_t2Rto = m_paths.empty() ? m_rtoInitial : m_paths[m_dataPath]->GetRto();
    m_t2Event = Simulator::Schedule(m_t2Rto, &SctpSocket::OnT2Expired, this);
}

void
SctpSocket::OnT2Expired()
{
    if (!CountAssociationError())
    {
        return;
    }
    // Section 9.2: an error on the destination; the SHUTDOWN (ACK) is sent again, to an
    // alternate destination if this one became inactive.
    SctpPath& path = *m_paths[m_dataPath];
    RecordPathError(path, true);
    m_congestionOps->RetransmissionTimeout(path);
    path.BackOffRto(m_rtoMax);
    path.CancelRttMeasurement();
    UpdatePrimaryTraces();
    if (m_state == SCTP_SHUTDOWN_SENT)
    {
        SendShutdown();
    }
    else if (m_state == SCTP_SHUTDOWN_ACK_SENT)
    {
        SendShutdownAck();
    }
    else
    {
        return;
    }
    StartT2();
}

void
SctpSocket::OnT5Expired()
{
    // T5-shutdown-guard (section 9.2): give up on a graceful shutdown.
    if (m_state == SCTP_SHUTDOWN_SENT || m_state == SCTP_SHUTDOWN_ACK_SENT)
    {
        SendAbort({});
        DeleteAssociation(false, true);
    }
}

void
SctpSocket::CheckShutdownProgress()
{
    if (!m_txQueue.IsEmpty())
    {
        return;
    }
    if (m_state == SCTP_SHUTDOWN_PENDING)
    {
        SetState(SCTP_SHUTDOWN_SENT);
        SendShutdown();
        StartT2();
        Simulator::Cancel(m_t5Event);
        m_t5Event = Simulator::Schedule(5 * m_rtoMax, &SctpSocket::OnT5Expired, this);
    }
    else if (m_state == SCTP_SHUTDOWN_RECEIVED)
    {
        SetState(SCTP_SHUTDOWN_ACK_SENT);
        SendShutdownAck();
        StartT2();
    }
}

// ------------------------------------------------------------------ packet processing

void
SctpSocket::ReceivePacket(const SctpCommonHeader& header,
                          const std::vector<SctpChunk>& chunks,
                          const Address& source,
                          const Address& destination)
{
    Ptr<SctpSocket> self = this; // an ABORT may release the last reference elsewhere
    if (m_state == SCTP_LISTEN)
    {
        if (chunks[0].type == SctpChunk::INIT)
        {
            m_rxChunkTrace(chunks[0].type, chunks[0].flags, chunks[0].length, 0);
            HandleInit(header, chunks[0], source, destination);
        }
        else if (chunks[0].type == SctpChunk::COOKIE_ECHO)
        {
            m_rxChunkTrace(chunks[0].type, chunks[0].flags, chunks[0].length, 0);
            Ptr<SctpSocket> association = HandleCookieEcho(header, chunks[0], source, destination);
            if (association)
            {
                association->ProcessChunks(header, chunks, 1, source, destination);
            }
        }
        return;
    }
    if (!IsAssociationAlive())
    {
        return;
    }
    if (!CheckVerificationTag(header, chunks, source, destination))
    {
        NS_LOG_LOGIC(this << " verification tag " << header.verificationTag << " rejected");
        return;
    }
    ProcessChunks(header, chunks, 0, source, destination);
}

bool
SctpSocket::CheckVerificationTag(const SctpCommonHeader& header,
                                 const std::vector<SctpChunk>& chunks,
                                 const Address& source,
                                 const Address& destination)
{
    uint8_t first = chunks[0].type;
    switch (first)
    {
    case SctpChunk::INIT:
        return true; // tag 0, checked by SctpL4Protocol; collisions per section 5.2
    case SctpChunk::ABORT:
    case SctpChunk::SHUTDOWN_COMPLETE: {
        // Section 8.5.1 B and C: the T bit says which tag the packet carries.
        bool reflected = (chunks[0].flags & SctpChunk::FLAG_T) != 0;
        if (reflected)
        {
            return m_peerTag != 0 && header.verificationTag == m_peerTag;
        }
        return header.verificationTag == m_localTag;
    }
    case SctpChunk::COOKIE_ECHO:
        return true; // section 8.5.1 D: checked against the cookie (5.2.4)
    case SctpChunk::SHUTDOWN_ACK:
        if (m_state == SCTP_COOKIE_WAIT || m_state == SCTP_COOKIE_ECHOED)
        {
            // Section 8.5.1 E: treat as out of the blue: SHUTDOWN COMPLETE, T bit set.
            std::vector<uint8_t> chunk;
            SctpByteWriter w(chunk);
            SctpChunk::SerializeEmpty(w, SctpChunk::SHUTDOWN_COMPLETE, SctpChunk::FLAG_T);
            SendControlTo(header.verificationTag, chunk, source, destination);
            return false;
        }
        return header.verificationTag == m_localTag;
    default:
        return header.verificationTag == m_localTag;
    }
}

void
SctpSocket::ProcessChunks(const SctpCommonHeader& header,
                          const std::vector<SctpChunk>& chunks,
                          std::size_t first,
                          const Address& source,
                          const Address& destination)
{
    Ptr<SctpSocket> self = this;
    bool hadData = false;
    bool immediateSack = false;
    bool newData = false;
    std::vector<SctpTlv> unrecognized;
    int32_t sourcePath = m_paths.size() > 1 ? FindPath(source) : 0;
    m_processingPacket = true;
    for (std::size_t i = first; i < chunks.size(); ++i)
    {
        const SctpChunk& c = chunks[i];
        if (!IsAssociationAlive())
        {
            break;
        }
        if (c.type != SctpChunk::DATA)
        {
            m_rxChunkTrace(c.type, c.flags, c.length, 0);
        }
        bool keepGoing = true;
        switch (c.type)
        {
        case SctpChunk::DATA:
            hadData = true;
            keepGoing = HandleData(c, immediateSack, newData);
            break;
        case SctpChunk::INIT:
            HandleInit(header, c, source, destination);
            break;
        case SctpChunk::INIT_ACK:
            keepGoing = HandleInitAck(c, source);
            break;
        case SctpChunk::SACK:
            HandleSack(c);
            break;
        case SctpChunk::HEARTBEAT:
            HandleHeartbeat(c, source, destination);
            break;
        case SctpChunk::HEARTBEAT_ACK:
            HandleHeartbeatAck(c, source);
            break;
        case SctpChunk::FORWARD_TSN:
            if (m_prSctpEnabled)
            {
                bool sack = false;
                HandleForwardTsn(c, sack);
                m_sackNeeded = m_sackNeeded || sack;
            }
            else
            {
                keepGoing = HandleUnknownChunk(c, unrecognized); // RFC 3758 3.3.1
            }
            break;
        case SctpChunk::ABORT:
            // Section 8.5.1 B also for a bundled ABORT: with the T bit the packet must
            // carry the peer's tag, without it ours; otherwise the ABORT is discarded.
            if (header.verificationTag ==
                ((c.flags & SctpChunk::FLAG_T) ? m_peerTag : m_localTag))
            {
                HandleAbort(c);
            }
            keepGoing = false;
            break;
        case SctpChunk::SHUTDOWN:
            HandleShutdown(c);
            break;
        case SctpChunk::SHUTDOWN_ACK:
            HandleShutdownAck(header);
            break;
        case SctpChunk::ERROR:
            HandleError(c);
            break;
        case SctpChunk::COOKIE_ECHO:
            if (!HandleCookieEcho(header, c, source, destination))
            {
                keepGoing = false; // a rejected cookie: the rest of the packet goes too
            }
            break;
        case SctpChunk::COOKIE_ACK:
            HandleCookieAck();
            break;
        case SctpChunk::SHUTDOWN_COMPLETE:
            HandleShutdownComplete();
            keepGoing = false;
            break;
        case SctpChunk::ECNE:
        case SctpChunk::CWR:
            // ECN (appendix A) is not negotiated: we never send the ECN-Capable
            // parameter, so a conforming peer never sends these. Skip them.
            break;
        default:
            keepGoing = HandleUnknownChunk(c, unrecognized);
            break;
        }
        if (!keepGoing)
        {
            break;
        }
    }
    m_processingPacket = false;
    if (!IsAssociationAlive())
    {
        return;
    }
    if (!unrecognized.empty())
    {
        SendError(unrecognized);
    }
    if (hadData)
    {
        if (sourcePath >= 0)
        {
            m_lastDataSource = sourcePath; // SACKs go back there (section 6.4)
        }
        if (IsLocallyMultihomed())
        {
            m_lastDataLocal = destination; // ... from the address the DATA came to
        }
        AfterDataPacket(newData, immediateSack);
    }
    SendPending();
}

bool
SctpSocket::HandleUnknownChunk(const SctpChunk& chunk, std::vector<SctpTlv>& report)
{
    // Section 3.2: the two high-order bits of the type say what to do.
    uint8_t action = chunk.type >> 6;
    if (action == 1 || action == 3)
    {
        std::vector<uint8_t> raw;
        SctpByteWriter w(raw);
        w.WriteU8(chunk.type);
        w.WriteU8(chunk.flags);
        w.WriteU16(chunk.length);
        w.WriteBytes(chunk.value, chunk.valueLength);
        report.emplace_back(SctpTlv::UNRECOGNIZED_CHUNK_TYPE, std::move(raw));
    }
    return action >= 2;
}

void
SctpSocket::ProtocolViolation(const std::string& what)
{
    NS_LOG_INFO(this << " protocol violation: " << what);
    SendAbort({SctpTlv::ProtocolViolation(what)});
    DeleteAssociation(false, true);
}

// ------------------------------------------------------------------ ABORT, SHUTDOWN, ERROR

void
SctpSocket::HandleAbort(const SctpChunk& chunk)
{
    SctpErrorChunk abort;
    abort.Deserialize(chunk);
    m_lastAbortCause = abort.causes.empty() ? 0 : abort.causes[0].type;
    NS_LOG_INFO(this << " ABORT received"
                     << (abort.causes.empty() ? std::string()
                                              : ": " + SctpTlv::CauseName(abort.causes[0].type)));
    DeleteAssociation(false, true);
}

void
SctpSocket::HandleShutdown(const SctpChunk& chunk)
{
    SctpTsnChunk shutdown;
    if (!shutdown.Deserialize(chunk))
    {
        return;
    }
    switch (m_state.Get())
    {
    case SCTP_ESTABLISHED:
    case SCTP_SHUTDOWN_PENDING:
    case SCTP_SHUTDOWN_RECEIVED:
        ProcessCumulativeAck(shutdown.tsn, m_peerRwnd, true);
        if (!IsAssociationAlive())
        {
            return;
        }
        if (m_state != SCTP_SHUTDOWN_RECEIVED)
        {
            SetState(SCTP_SHUTDOWN_RECEIVED);
        }
        CheckShutdownProgress();
        break;
    case SCTP_SHUTDOWN_SENT:
        // Both ends shut down: answer at once (section 9.2).
        SetState(SCTP_SHUTDOWN_ACK_SENT);
        SendShutdownAck();
        StartT2();
        break;
    default:
        break;
    }
}

void
SctpSocket::HandleShutdownAck(const SctpCommonHeader& header)
{
    if (m_state != SCTP_SHUTDOWN_SENT && m_state != SCTP_SHUTDOWN_ACK_SENT)
    {
        return;
    }
    SendShutdownComplete(false);
    DeleteAssociation(true, false);
}

void
SctpSocket::HandleShutdownComplete()
{
    if (m_state != SCTP_SHUTDOWN_ACK_SENT)
    {
        return;
    }
    DeleteAssociation(true, false);
}

void
SctpSocket::HandleError(const SctpChunk& chunk)
{
    SctpErrorChunk error;
    error.Deserialize(chunk);
    for (const auto& cause : error.causes)
    {
        NS_LOG_INFO(this << " ERROR received: " << SctpTlv::CauseName(cause.type));
        if (cause.type == SctpTlv::STALE_COOKIE_ERROR && m_state == SCTP_COOKIE_ECHOED)
        {
            // Section 5.2.6: start over, asking for a longer cookie life.
            ++m_t1Count;
            if (m_t1Count > m_maxInitRetransmits)
            {
                DeleteAssociation(false, true);
                return;
            }
            uint32_t stalenessUs = 0;
            if (cause.value.size() >= 4)
            {
                SctpByteReader r(cause.value.data(), 4);
                stalenessUs = r.ReadU32();
            }
            if (m_useCookiePreservative)
            {
                m_cookiePreservativeMs = std::max<uint32_t>(1, stalenessUs / 1000 * 2);
            }
            m_peerTag = 0;
            m_cookieEcho.clear();
            SetState(SCTP_COOKIE_WAIT);
            SendInit();
            StartT1();
            return;
        }
    }
}

void
SctpSocket::HandleHeartbeat(const SctpChunk& chunk,
                            const Address& source,
                            const Address& destination)
{
    SctpHeartbeatChunk hb;
    if (!hb.Deserialize(chunk))
    {
        return;
    }
    // Section 8.3: echo the Heartbeat Information back in a HEARTBEAT ACK.
    hb.type = SctpChunk::HEARTBEAT_ACK;
    std::vector<uint8_t> bytes;
    SctpByteWriter w(bytes);
    hb.Serialize(w);
    // Section 6.4: the reply goes to where the HEARTBEAT came from; a multi-homed
    // endpoint sends it from the address the HEARTBEAT was sent to, through its
    // interface, so that it answers for that very path.
    int32_t index = m_paths.size() > 1 ? FindPath(source) : 0;
    m_chunkPathTrace(SctpChunk::HEARTBEAT_ACK, 0, index < 0 ? 0 : index, false);
    if (IsLocallyMultihomed() && m_sctp->IsLocalAddress(destination))
    {
        SendControlTo(m_peerTag, bytes, source, destination, DeviceForLocalAddress(destination));
        return;
    }
    SendControlTo(m_peerTag, bytes, source, m_localAddress);
}

void
SctpSocket::OnWindowUpdate()
{
    if (IsAssociationAlive() && m_state != SCTP_COOKIE_WAIT && m_state != SCTP_COOKIE_ECHOED)
    {
        m_sackNeeded = true;
        SendPending();
    }
}

} // namespace ns3
