/*
 * SctpSocket: the socket API (one-to-one style), the endpoint, the receive queue of
 * delivered messages, the attributes and the trace sources; everything the association
 * does is SctpAssociation's.
 */
#include "sctp-socket.h"

#include "sctp-l4-protocol.h"
#include "sctp-message-tag.h"
#include "sctp-nested-accessor.h"

#include "ns3/abort.h"
#include "ns3/address.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/type-id.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpSocket");
NS_OBJECT_ENSURE_REGISTERED(SctpSocket);

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
                          MakeNestedAttributeAccessor<UintegerValue>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::rcvBufSize),
                          MakeUintegerChecker<uint32_t>(1500))
            .AddAttribute("OutboundStreams",
                          "Number of outbound streams requested in INIT/INIT ACK (OS).",
                          UintegerValue(10),
                          MakeNestedAttributeAccessor<UintegerValue>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::outboundStreams),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("MaxInboundStreams",
                          "Maximum number of inbound streams accepted (MIS).",
                          UintegerValue(10),
                          MakeNestedAttributeAccessor<UintegerValue>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::maxInboundStreams),
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
                          MakeNestedAttributeAccessor<TimeValue>(&SctpSocket::m_parameters,
                                                       &SctpProtocolParameters::rtoInitial),
                          MakeTimeChecker(MilliSeconds(1)))
            .AddAttribute("RtoMin",
                          "RTO.Min (RFC 9260: 1 s).",
                          TimeValue(Seconds(1)),
                          MakeNestedAttributeAccessor<TimeValue>(&SctpSocket::m_parameters,
                                                       &SctpProtocolParameters::rtoMin),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("RtoMax",
                          "RTO.Max (RFC 9260: 60 s).",
                          TimeValue(Seconds(60)),
                          MakeNestedAttributeAccessor<TimeValue>(&SctpSocket::m_parameters,
                                                       &SctpProtocolParameters::rtoMax),
                          MakeTimeChecker(MilliSeconds(1)))
            .AddAttribute("RtoAlpha",
                          "RTO.Alpha, the SRTT gain (1/8).",
                          DoubleValue(0.125),
                          MakeNestedAttributeAccessor<DoubleValue>(&SctpSocket::m_parameters,
                                                       &SctpProtocolParameters::rtoAlpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("RtoBeta",
                          "RTO.Beta, the RTTVAR gain (1/4).",
                          DoubleValue(0.25),
                          MakeNestedAttributeAccessor<DoubleValue>(&SctpSocket::m_parameters,
                                                       &SctpProtocolParameters::rtoBeta),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("MaxBurst",
                          "Max.Burst: packets with new DATA sent per transmission "
                          "opportunity (0 = unlimited).",
                          UintegerValue(4),
                          MakeNestedAttributeAccessor<UintegerValue>(&SctpSocket::m_parameters,
                                                       &SctpProtocolParameters::maxBurst),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ValidCookieLife",
                          "Valid.Cookie.Life: lifetime of the State Cookies this endpoint issues.",
                          TimeValue(Seconds(60)),
                          MakeNestedAttributeAccessor<TimeValue>(&SctpSocket::m_parameters,
                                                       &SctpProtocolParameters::validCookieLife),
                          MakeTimeChecker(MilliSeconds(1)))
            .AddAttribute("AssociationMaxRetrans",
                          "Association.Max.Retrans: consecutive errors before the association "
                          "is declared dead.",
                          UintegerValue(10),
                          MakeNestedAttributeAccessor<UintegerValue>(&SctpSocket::m_parameters,
                                                       &SctpProtocolParameters::associationMaxRetrans),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("PathMaxRetrans",
                          "Path.Max.Retrans: errors before a destination becomes inactive.",
                          UintegerValue(5),
                          MakeNestedAttributeAccessor<UintegerValue>(&SctpSocket::m_parameters,
                                                       &SctpProtocolParameters::pathMaxRetrans),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MaxInitRetransmits",
                          "Max.Init.Retransmits: INIT and COOKIE ECHO retransmissions.",
                          UintegerValue(8),
                          MakeNestedAttributeAccessor<UintegerValue>(&SctpSocket::m_parameters,
                                                       &SctpProtocolParameters::maxInitRetransmits),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HbInterval",
                          "HB.interval (heartbeats on idle destinations; used with "
                          "multi-homing).",
                          TimeValue(Seconds(30)),
                          MakeNestedAttributeAccessor<TimeValue>(&SctpSocket::m_parameters,
                                                       &SctpProtocolParameters::hbInterval),
                          MakeTimeChecker())
            .AddAttribute("SackDelay",
                          "Delayed SACK timeout (RFC 9260: at most 500 ms; 200 ms default).",
                          TimeValue(MilliSeconds(200)),
                          MakeNestedAttributeAccessor<TimeValue>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::sackDelay),
                          MakeTimeChecker(Time(0), MilliSeconds(500)))
            .AddAttribute("SackFrequency",
                          "Packets with DATA received before a SACK is sent without delay "
                          "(2 = every second packet; 1 = no delayed SACK).",
                          UintegerValue(2),
                          MakeNestedAttributeAccessor<UintegerValue>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::sackFrequency),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ImmediateFirstSack",
                          "SACK the packet with the association's first DATA (or I-DATA) "
                          "chunk at once, as RFC 9260 section 5.1 says the endpoint MUST "
                          "(NS-2.35 does too); later packets follow SackDelay and "
                          "SackFrequency (6.2). Default false: the delayed-SACK rule for "
                          "the first DATA too, which keeps the committed results.",
                          BooleanValue(false),
                          MakeNestedAttributeAccessor<BooleanValue>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::immediateFirstSack),
                          MakeBooleanChecker())
            .AddAttribute("UtilizationAtCwnd",
                          "Count a destination's cwnd as fully utilized, the condition for "
                          "growing it in slow start (RFC 9260 7.2.1) and congestion "
                          "avoidance (7.2.2), only when its flight size before the SACK was "
                          "at least the cwnd: 7.2.2's test (NS-2.35 applies it in slow start "
                          "too). Default false: less than one PMDCS of the cwnd free counts as "
                          "fully utilized too, which keeps the committed results.",
                          BooleanValue(false),
                          MakeNestedAttributeAccessor<BooleanValue>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::utilizationAtCwnd),
                          MakeBooleanChecker())
            .AddAttribute("CwndGrowthOnCumAckOnly",
                          "Grow a destination's cwnd (slow start and congestion avoidance) "
                          "and its partial_bytes_acked only on a SACK that advances the "
                          "cumulative TSN ack point, as RFC 4960 7.2.1/7.2.2 and NS-2.35's "
                          "AdjustCwnd do. Default false: RFC 9260 dropped that condition, "
                          "so bytes newly acknowledged by gap blocks count too, which keeps "
                          "the committed results.",
                          BooleanValue(false),
                          MakeNestedAttributeAccessor<BooleanValue>(
                              &SctpSocket::m_config,
                              &SctpAssociationConfig::cwndGrowthOnCumAckOnly),
                          MakeBooleanChecker())
            .AddAttribute("FastRtxTrigger",
                          "Miss indications that trigger a fast retransmit (RFC 9260: 3; "
                          "NS-2.34: 4).",
                          UintegerValue(3),
                          MakeNestedAttributeAccessor<UintegerValue>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::fastRtxTrigger),
                          MakeUintegerChecker<uint32_t>(1, 255))
            .AddAttribute("InitialCwnd",
                          "Initial congestion window in bytes; 0 = RFC 9260 section 7.2.1, "
                          "min(4*PMDCS, max(2*PMDCS, 4404)), 4344 instead of 4404 "
                          "to an IPv6 destination.",
                          UintegerValue(0),
                          MakeNestedAttributeAccessor<UintegerValue>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::initialCwnd),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("InitialSsthresh",
                          "Initial slow start threshold in bytes; 0 = the peer's a_rwnd.",
                          UintegerValue(0),
                          MakeNestedAttributeAccessor<UintegerValue>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::initialSsthresh),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MaxSegment",
                          "Largest user data per DATA chunk (bytes); 0 = as much as the path "
                          "MTU allows.",
                          UintegerValue(0),
                          MakeNestedAttributeAccessor<UintegerValue>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::maxSegment),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Mtu",
                          "Path MTU in bytes (IP header included); 0 = the MTU of the "
                          "outgoing interface.",
                          UintegerValue(0),
                          MakeNestedAttributeAccessor<UintegerValue>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::mtu),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CookiePreservative",
                          "Ask for a longer cookie life after a Stale Cookie error (5.2.6).",
                          BooleanValue(true),
                          MakeNestedAttributeAccessor<BooleanValue>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::cookiePreservative),
                          MakeBooleanChecker())
            // Multi-homing (RFC 9260 sections 5.4, 6.4, 8.2, 8.3)
            .AddAttribute("PrimaryAddress",
                          "Peer IP address to use as the primary path once the association "
                          "is up (section 6.4; empty = the address given to Connect, or the "
                          "source of the INIT).",
                          AddressValue(),
                          MakeNestedAttributeAccessor<AddressValue>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::primaryAddress),
                          MakeAddressChecker())
            .AddAttribute("HbMaxBurst",
                          "HB.Max.Burst: path verification HEARTBEATs sent per RTO (5.4).",
                          UintegerValue(1),
                          MakeNestedAttributeAccessor<UintegerValue>(&SctpSocket::m_parameters,
                                                       &SctpProtocolParameters::hbMaxBurst),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Heartbeat",
                          "Which associations send HEARTBEATs on idle destinations (8.3): "
                          "OFF, MULTIHOMED (the peer has several addresses) or ALL.",
                          EnumValue(SctpHeartbeatMode::MULTIHOMED),
                          MakeNestedAttributeAccessor<EnumValue<SctpHeartbeatMode>>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::heartbeatMode),
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
                          MakeNestedAttributeAccessor<EnumValue<SctpRtxToAlt>>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::rtxToAlt),
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
                          MakeNestedAttributeAccessor<EnumValue<SctpDormantAction>>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::dormantAction),
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
                          MakeNestedAttributeAccessor<BooleanValue>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::returnToPrimary),
                          MakeBooleanChecker())
            .AddAttribute("ChangePrimaryThresh",
                          "Errors on the primary path after which an active alternate becomes "
                          "the primary (NS-2 changePrimaryThresh_; -1 = never).",
                          IntegerValue(-1),
                          MakeNestedAttributeAccessor<IntegerValue>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::changePrimaryThresh),
                          MakeIntegerChecker<int32_t>(-1))
            .AddAttribute("PotentiallyFailedMaxRetrans",
                          "RFC 7829 PotentiallyFailed.Max.Retrans (PFMR): errors after which "
                          "a destination is potentially failed (no new data, a HEARTBEAT "
                          "every RTO). A value >= PathMaxRetrans switches SCTP-PF off (the "
                          "default: RFC 9260 behaviour); RFC 7829 section 6 suggests 0.",
                          UintegerValue(65535),
                          MakeNestedAttributeAccessor<UintegerValue>(&SctpSocket::m_parameters,
                                                       &SctpProtocolParameters::potentiallyFailedMaxRetrans),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PrimarySwitchoverMaxRetrans",
                          "RFC 7829 section 5 Primary.Switchover.Max.Retrans (PSMR): errors on "
                          "the primary path after which an active alternate becomes the "
                          "primary for good (new data stays there when the old primary "
                          "recovers). 65535 (default) = never, as Linux's ps_retrans.",
                          UintegerValue(65535),
                          MakeNestedAttributeAccessor<UintegerValue>(&SctpSocket::m_parameters,
                                                       &SctpProtocolParameters::primarySwitchoverMaxRetrans),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SourceAddressFailover",
                          "On a local multi-homed endpoint, move a destination to another "
                          "local (source) address when its retransmission timer expires: "
                          "the most divergent source-destination pair of section 6.4.1.",
                          BooleanValue(true),
                          MakeNestedAttributeAccessor<BooleanValue>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::sourceAddressFailover),
                          MakeBooleanChecker())
            // PR-SCTP (RFC 3758, RFC 7496)
            .AddAttribute("PrSctpEnabled",
                          "Announce Forward-TSN-Supported in INIT / INIT ACK and use the "
                          "PR-SCTP policies of messages when the peer supports them.",
                          BooleanValue(true),
                          MakeNestedAttributeAccessor<BooleanValue>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::prSctpEnabled),
                          MakeBooleanChecker())
            .AddAttribute("IDataSupported",
                          "Announce I-DATA (RFC 8260) in INIT / INIT ACK (Supported "
                          "Extensions listing chunk type 64); the association records whether "
                          "both ends did (SctpAssociation::IsIDataNegotiated). When both did, "
                          "user messages go in I-DATA chunks (RFC 8260 2.1: the stream "
                          "scheduler may interleave fragments of messages of different "
                          "streams) and PR-SCTP uses I-FORWARD-TSN (2.3).",
                          BooleanValue(false),
                          MakeNestedAttributeAccessor<BooleanValue>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::iDataSupported),
                          MakeBooleanChecker())
            .AddAttribute("ReconfigSupported",
                          "Announce stream reconfiguration (RFC 6525: RE-CONFIG, chunk type "
                          "130, in Supported Extensions of INIT / INIT ACK) and, when the peer "
                          "announced it too, answer its requests and allow ResetStreams, "
                          "ResetAssociation and AddStreams.",
                          BooleanValue(false),
                          MakeNestedAttributeAccessor<BooleanValue>(&SctpSocket::m_config,
                                                       &SctpAssociationConfig::reconfigSupported),
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
            .AddAttribute("StreamScheduler",
                          "The stream scheduler of RFC 8260 section 3 (which stream the next "
                          "message is sent from), a subclass of ns3::SctpStreamScheduler: "
                          "ns3::SctpFcfsStreamScheduler (first come, first served), "
                          "ns3::SctpRoundRobinStreamScheduler, "
                          "ns3::SctpRoundRobinPacketStreamScheduler, "
                          "ns3::SctpPriorityStreamScheduler, "
                          "ns3::SctpFairCapacityStreamScheduler or "
                          "ns3::SctpWfqStreamScheduler. Per-stream priorities and weights: "
                          "SetStreamPriority, SetStreamWeight.",
                          TypeIdValue(SctpFcfsStreamScheduler::GetTypeId()),
                          MakeTypeIdAccessor(&SctpSocket::m_streamSchedulerType),
                          MakeTypeIdChecker())
            // Trace sources
            .AddTraceSource("State",
                            "Association state",
                            MakeNestedTraceSourceAccessor(&SctpSocket::m_traces,
                                                          &SctpAssociationTraces::state),
                            "ns3::SctpSocket::StateTracedCallback")
            .AddTraceSource("CongestionWindow",
                            "Congestion window of the primary path (bytes)",
                            MakeNestedTraceSourceAccessor(&SctpSocket::m_traces,
                                                          &SctpAssociationTraces::cwnd),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("SlowStartThreshold",
                            "Slow start threshold of the primary path (bytes)",
                            MakeNestedTraceSourceAccessor(&SctpSocket::m_traces,
                                                          &SctpAssociationTraces::ssthresh),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("RTO",
                            "Retransmission timeout of the primary path",
                            MakeNestedTraceSourceAccessor(&SctpSocket::m_traces,
                                                          &SctpAssociationTraces::rto),
                            "ns3::TracedValueCallback::Time")
            .AddTraceSource("RTT",
                            "Last RTT sample (any path)",
                            MakeNestedTraceSourceAccessor(&SctpSocket::m_traces,
                                                          &SctpAssociationTraces::rtt),
                            "ns3::TracedValueCallback::Time")
            .AddTraceSource("PeerRwnd",
                            "The peer's receiver window as estimated by the sender (bytes)",
                            MakeNestedTraceSourceAccessor(&SctpSocket::m_traces,
                                                          &SctpAssociationTraces::peerRwnd),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("TxChunk",
                            "A chunk was sent: type, flags, length, TSN (DATA) or 0",
                            MakeNestedTraceSourceAccessor(&SctpSocket::m_traces,
                                                          &SctpAssociationTraces::txChunk),
                            "ns3::SctpSocket::ChunkTracedCallback")
            .AddTraceSource("RxChunk",
                            "A chunk was received: type, flags, length, TSN (DATA) or 0",
                            MakeNestedTraceSourceAccessor(&SctpSocket::m_traces,
                                                          &SctpAssociationTraces::rxChunk),
                            "ns3::SctpSocket::ChunkTracedCallback")
            .AddTraceSource("Retransmission",
                            "A DATA chunk was retransmitted: TSN, fast retransmit or not",
                            MakeNestedTraceSourceAccessor(&SctpSocket::m_traces,
                                                          &SctpAssociationTraces::retransmission),
                            "ns3::SctpSocket::RetransmissionTracedCallback")
            .AddTraceSource("Deliver",
                            "A complete message was handed to the application queue: "
                            "message, stream, SSN, TSN",
                            MakeNestedTraceSourceAccessor(&SctpSocket::m_traces,
                                                          &SctpAssociationTraces::deliver),
                            "ns3::SctpSocket::DeliverTracedCallback")
            .AddTraceSource("ChunkPath",
                            "A chunk was sent to a destination: type, TSN (DATA; the new "
                            "cumulative TSN of FORWARD TSN) or 0, path index, retransmission",
                            MakeNestedTraceSourceAccessor(&SctpSocket::m_traces,
                                                          &SctpAssociationTraces::chunkPath),
                            "ns3::SctpSocket::ChunkPathTracedCallback")
            .AddTraceSource("PathEvent",
                            "A destination changed: path index and event (AVAILABLE, "
                            "UNREACHABLE, CONFIRMED, MADE_PRIMARY, DATA_PATH)",
                            MakeNestedTraceSourceAccessor(&SctpSocket::m_traces,
                                                          &SctpAssociationTraces::pathEvent),
                            "ns3::SctpSocket::PathEventTracedCallback")
            .AddTraceSource("Abandon",
                            "PR-SCTP abandoned a message: stream, SSN, first TSN (0 if never "
                            "sent), size, policy",
                            MakeNestedTraceSourceAccessor(&SctpSocket::m_traces,
                                                          &SctpAssociationTraces::abandon),
                            "ns3::SctpSocket::AbandonTracedCallback")
            .AddTraceSource("StreamReconfig",
                            "Stream reconfiguration (RFC 6525): a request sent, retransmitted "
                            "or received, a response received, a deferred reset performed; "
                            "with the parameter type, request sequence number and result",
                            MakeNestedTraceSourceAccessor(&SctpSocket::m_traces,
                                                          &SctpAssociationTraces::reconfig),
                            "ns3::SctpSocket::StreamReconfigTracedCallback");
    return tid;
}

SctpSocket::SctpSocket()
    : m_association(CreateObject<SctpAssociation>())
{
    NS_LOG_FUNCTION(this);
    m_association->SetSocket(this);
}

SctpSocket::SctpSocket(const SctpSocket& o)
    : Socket(o),
      m_parameters(o.m_parameters),
      m_config(o.m_config),
      m_sndBufSize(o.m_sndBufSize),
      m_defaultStream(o.m_defaultStream),
      m_defaultPpid(o.m_defaultPpid),
      m_defaultUnordered(o.m_defaultUnordered),
      m_defaultPrPolicy(o.m_defaultPrPolicy),
      m_defaultPrValue(o.m_defaultPrValue),
      m_streamSchedulerType(o.m_streamSchedulerType),
      m_streamPriorities(o.m_streamPriorities),
      m_streamWeights(o.m_streamWeights),
      m_node(o.m_node),
      m_sctp(o.m_sctp),
      m_boundDevice(o.m_boundDevice),
      m_bound(false),
      m_ipv6(o.m_ipv6),
      m_localAddress(o.m_localAddress),
      m_boundAddresses(o.m_boundAddresses),
      m_localPort(o.m_localPort),
      m_association(CreateObject<SctpAssociation>())
{
    NS_LOG_FUNCTION(this);
    m_association->SetSocket(this);
    m_association->SetSctp(m_sctp);
    Ptr<SctpCongestionOps> congestion = o.m_association->GetCongestionOps();
    m_association->SetCongestionOps(congestion ? congestion->Fork() : nullptr);
}

SctpSocket::~SctpSocket()
{
    NS_LOG_FUNCTION(this);
}

void
SctpSocket::DoDispose()
{
    if (m_association)
    {
        m_association->Dispose();
        m_association = nullptr;
    }
    m_rxMessages.clear();
    m_node = nullptr;
    m_sctp = nullptr;
    m_boundDevice = nullptr;
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
    m_association->SetSctp(sctp);
}

Ptr<SctpL4Protocol>
SctpSocket::GetSctp() const
{
    return m_sctp;
}

void
SctpSocket::SetCongestionOps(Ptr<SctpCongestionOps> algorithm)
{
    m_association->SetCongestionOps(algorithm);
}

Ptr<SctpCongestionOps>
SctpSocket::GetCongestionOps() const
{
    return m_association->GetCongestionOps();
}

int
SctpSocket::SetStreamPriority(uint16_t streamId, uint16_t priority)
{
    m_streamPriorities[streamId] = priority;
    if (Ptr<SctpStreamScheduler> scheduler = GetStreamScheduler())
    {
        scheduler->SetStreamPriority(streamId, priority);
    }
    return 0;
}

uint16_t
SctpSocket::GetStreamPriority(uint16_t streamId) const
{
    auto it = m_streamPriorities.find(streamId);
    return it == m_streamPriorities.end() ? 0 : it->second;
}

int
SctpSocket::SetStreamWeight(uint16_t streamId, uint16_t weight)
{
    if (weight == 0)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    m_streamWeights[streamId] = weight;
    if (Ptr<SctpStreamScheduler> scheduler = GetStreamScheduler())
    {
        scheduler->SetStreamWeight(streamId, weight);
    }
    return 0;
}

int
SctpSocket::ResetStreams(const std::vector<uint16_t>& streams, bool outgoing, bool incoming)
{
    NS_LOG_FUNCTION(this << streams.size() << outgoing << incoming);
    m_errno = m_association->GetStreamReconfig().RequestStreamReset(streams, outgoing, incoming);
    return m_errno == ERROR_NOTERROR ? 0 : -1;
}

int
SctpSocket::ResetAssociation()
{
    NS_LOG_FUNCTION(this);
    m_errno = m_association->GetStreamReconfig().RequestSsnTsnReset();
    return m_errno == ERROR_NOTERROR ? 0 : -1;
}

int
SctpSocket::AddStreams(uint16_t outgoing, uint16_t incoming)
{
    NS_LOG_FUNCTION(this << outgoing << incoming);
    m_errno = m_association->GetStreamReconfig().RequestAddStreams(outgoing, incoming);
    return m_errno == ERROR_NOTERROR ? 0 : -1;
}

uint16_t
SctpSocket::GetStreamWeight(uint16_t streamId) const
{
    auto it = m_streamWeights.find(streamId);
    return it == m_streamWeights.end() ? 1 : it->second;
}

Ptr<SctpStreamScheduler>
SctpSocket::GetStreamScheduler() const
{
    return m_association ? m_association->GetSender().GetStreamScheduler() : nullptr;
}

Ptr<SctpStreamScheduler>
SctpSocket::CreateStreamScheduler() const
{
    NS_ABORT_MSG_UNLESS(m_streamSchedulerType.IsChildOf(SctpStreamScheduler::GetTypeId()),
                        "SctpSocket::StreamScheduler: " << m_streamSchedulerType.GetName()
                                                        << " is not an ns3::SctpStreamScheduler");
    ObjectFactory factory;
    factory.SetTypeId(m_streamSchedulerType);
    Ptr<SctpStreamScheduler> scheduler = factory.Create<SctpStreamScheduler>();
    for (const auto& [stream, priority] : m_streamPriorities)
    {
        scheduler->SetStreamPriority(stream, priority);
    }
    for (const auto& [stream, weight] : m_streamWeights)
    {
        scheduler->SetStreamWeight(stream, weight);
    }
    return scheduler;
}

Ptr<SctpAssociation>
SctpSocket::GetAssociation() const
{
    return m_association;
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

namespace
{

bool
IsAny(const Address& ip)
{
    return ip.IsInvalid() ||
           (Ipv4Address::IsMatchingType(ip) && Ipv4Address::ConvertFrom(ip).IsAny()) ||
           (Ipv6Address::IsMatchingType(ip) && Ipv6Address::ConvertFrom(ip).IsAny());
}

} // namespace

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
    SctpState state = GetState();
    if (!m_bound || IsAny(m_localAddress) || IsAny(ip) || (port != 0 && port != m_localPort) ||
        (state != SCTP_CLOSED && state != SCTP_LISTEN) || !m_sctp->IsLocalAddress(ip))
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
    if (GetState() != SCTP_CLOSED)
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
    m_association->Associate(peer, peerPort);
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
    if (GetState() != SCTP_CLOSED)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    m_association->Listen();
    return 0;
}

int
SctpSocket::Close()
{
    NS_LOG_FUNCTION(this << SctpStateName(GetState()));
    if (GetState() == SCTP_LISTEN)
    {
        m_association->StopListening();
        m_sctp->Unbind(this);
        m_bound = false;
        return 0;
    }
    return m_association->Close();
}

int
SctpSocket::ShutdownSend()
{
    NS_LOG_FUNCTION(this);
    m_association->ShutdownSend();
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
    if (!m_association->Abort())
    {
        m_errno = ERROR_NOTCONN;
        return -1;
    }
    return 0;
}

int
SctpSocket::SetPrimaryPath(const Address& peer)
{
    if (!m_association->SetPrimaryPath(peer))
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    return 0;
}

int
SctpSocket::RequestHeartbeat(uint32_t index)
{
    if (!m_association->RequestHeartbeat(index))
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    return 0;
}

uint32_t
SctpSocket::GetTxAvailable() const
{
    uint32_t used = m_association->GetSender().GetBufferedBytes() +
                    m_association->GetStreamReconfig().GetHeldBytes();
    return used >= m_sndBufSize ? 0 : m_sndBufSize - used;
}

int
SctpSocket::Send(Ptr<Packet> p, uint32_t flags)
{
    NS_LOG_FUNCTION(this << p);
    SctpState s = GetState();
    if (s != SCTP_ESTABLISHED && s != SCTP_COOKIE_WAIT && s != SCTP_COOKIE_ECHOED)
    {
        m_errno = (s == SCTP_CLOSED || s == SCTP_LISTEN) ? ERROR_NOTCONN : ERROR_SHUTDOWN;
        return -1;
    }
    if (m_association->IsClosing())
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
    // The message and its stream, PPID, ordering and PR-SCTP policy: from the packet's
    // SctpSendInfoTag, or the socket's defaults.
    auto message = Create<SctpOutboundMessage>();
    SctpSendInfoTag tag;
    if (p->PeekPacketTag(tag))
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
    message->data.resize(size);
    p->CopyData(message->data.data(), size);
    SocketErrno error = m_association->Send(message);
    if (error != ERROR_NOTERROR)
    {
        m_errno = error;
        return -1;
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
        m_errno = m_association->IsAlive() ? ERROR_AGAIN : ERROR_NOTCONN;
        return nullptr;
    }
    SctpReceivedMessage& front = m_rxMessages.front();
    const SctpReceiver& receiver = m_association->GetReceiver();
    uint32_t windowBefore = receiver.GetAdvertisedWindow();
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
    uint32_t windowNow = receiver.GetAdvertisedWindow();
    uint32_t lastAdvertised = receiver.GetLastAdvertisedWindow();
    if (m_association->IsAlive() && GetState() != SCTP_COOKIE_WAIT && windowNow > windowBefore &&
        ((lastAdvertised < 1500 && windowNow >= 1500) ||
         windowNow >= lastAdvertised + m_config.rcvBufSize / 2) &&
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
    Ptr<SctpPath> primary = m_association->GetPathManager().GetPrimaryPath();
    if (IsAny(ip) && primary && m_sctp)
    {
        ip = m_sctp->GetSourceAddress(primary->GetAddress(), m_boundDevice);
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
    Ptr<SctpPath> primary = m_association->GetPathManager().GetPrimaryPath();
    if (!primary)
    {
        m_errno = ERROR_NOTCONN;
        return -1;
    }
    const Address& ip = primary->GetAddress();
    uint16_t peerPort = m_association->GetPeerPort();
    if (Ipv6Address::IsMatchingType(ip))
    {
        address = Inet6SocketAddress(Ipv6Address::ConvertFrom(ip), peerPort);
    }
    else
    {
        address = InetSocketAddress(Ipv4Address::ConvertFrom(ip), peerPort);
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
    return m_association->GetState();
}

uint16_t
SctpSocket::GetLocalPort() const
{
    return m_localPort;
}

uint16_t
SctpSocket::GetPeerPort() const
{
    return m_association->GetPeerPort();
}

std::vector<Address>
SctpSocket::GetLocalAddresses() const
{
    if (!m_boundAddresses.empty())
    {
        return m_boundAddresses;
    }
    if (IsAny(m_localAddress))
    {
        return m_sctp ? m_sctp->GetLocalAddresses(m_ipv6) : std::vector<Address>();
    }
    return {m_localAddress};
}

uint64_t
SctpSocket::GetDeliveredBytes() const
{
    return m_deliveredBytes;
}

std::string
SctpSocket::CheckInvariants() const
{
    std::string problem = m_association->CheckInvariants();
    if (!problem.empty())
    {
        return problem;
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

// ------------------------------------------------------------------ upcalls of the association

const SctpProtocolParameters&
SctpSocket::GetParameters() const
{
    return m_parameters;
}

const SctpAssociationConfig&
SctpSocket::GetConfig() const
{
    return m_config;
}

SctpAssociationTraces&
SctpSocket::GetTraces()
{
    return m_traces;
}

const Address&
SctpSocket::GetBoundAddress() const
{
    return m_localAddress;
}

Ptr<NetDevice>
SctpSocket::GetBoundDevice() const
{
    return m_boundDevice;
}

bool
SctpSocket::IsIpv6() const
{
    return m_ipv6;
}

void
SctpSocket::SetLocalPort(uint16_t port)
{
    m_localPort = port;
}

void
SctpSocket::ReleaseEndpoint()
{
    if (m_sctp)
    {
        m_sctp->Unbind(this);
    }
    m_bound = false;
}

Ptr<SctpSocket>
SctpSocket::Fork()
{
    return CopyObject<SctpSocket>(this);
}

void
SctpSocket::NotifyAssociationUp()
{
    NotifyConnectionSucceeded();
}

void
SctpSocket::NotifyAssociationFailed()
{
    NotifyConnectionFailed();
}

void
SctpSocket::NotifyAssociationClosed(bool normal)
{
    if (normal)
    {
        NotifyNormalClose();
    }
    else
    {
        NotifyErrorClose();
    }
}

bool
SctpSocket::AcceptAssociation(const Address& from)
{
    return NotifyConnectionRequest(from);
}

void
SctpSocket::NotifyNewAssociation(Ptr<SctpSocket> socket, const Address& from)
{
    NotifyNewConnectionCreated(socket, from);
}

void
SctpSocket::NotifyDataSentUp(uint32_t bytes)
{
    NotifyDataSent(bytes);
}

void
SctpSocket::NotifySpaceAvailable()
{
    NotifySend(GetTxAvailable());
}

bool
SctpSocket::AcceptMessages(std::deque<SctpReceivedMessage>& messages)
{
    std::size_t before = m_rxMessages.size();
    for (auto& m : messages)
    {
        m_rxMessages.push_back(std::move(m));
    }
    for (std::size_t i = before; i < m_rxMessages.size(); ++i)
    {
        const SctpReceivedMessage& m = m_rxMessages[i];
        uint32_t size = m.data->GetSize();
        m_rxMessageBytes += size;
        m_deliveredBytes += size;
        if (!m_traces.deliver.IsEmpty())
        {
            m_traces.deliver(m.data, m.streamId, m.ssn, m.tsn);
        }
    }
    if (m_shutdownRecv)
    {
        m_rxMessages.clear();
        m_rxMessageBytes = 0;
    }
    return m_rxMessages.size() > before;
}

void
SctpSocket::NotifyMessagesReady()
{
    if (!m_rxMessages.empty())
    {
        NotifyDataRecv();
    }
}

void
SctpSocket::CancelWindowUpdate()
{
    Simulator::Cancel(m_windowUpdateEvent);
}

void
SctpSocket::OnWindowUpdate()
{
    m_association->OnWindowUpdate();
}

} // namespace ns3
