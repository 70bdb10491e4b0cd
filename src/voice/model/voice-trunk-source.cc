#include "voice-trunk-source.h"

#include "voice-frame-header.h"

#include "ns3/address-utils.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/sctp-message-tag.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("VoiceTrunkSource");
NS_OBJECT_ENSURE_REGISTERED(VoiceTrunkSource);

TypeId
VoiceTrunkSource::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::VoiceTrunkSource")
            .SetParent<Application>()
            .SetGroupName("Voice")
            .AddConstructor<VoiceTrunkSource>()
            .AddAttribute("Remote",
                          "Address of the receiving gateway (VoiceTrunkSink).",
                          AddressValue(),
                          MakeAddressAccessor(&VoiceTrunkSource::m_remote),
                          MakeAddressChecker())
            .AddAttribute("Protocol",
                          "Socket factory: ns3::UdpSocketFactory, ns3::TcpSocketFactory, "
                          "ns3::SctpSocketFactory...",
                          TypeIdValue(UdpSocketFactory::GetTypeId()),
                          MakeTypeIdAccessor(&VoiceTrunkSource::m_protocol),
                          MakeTypeIdChecker())
            .AddAttribute("Calls",
                          "Number of calls sharing the socket.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&VoiceTrunkSource::m_calls),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("FirstCall",
                          "Call id of the first call (the others follow).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&VoiceTrunkSource::m_firstCall),
                          MakeUintegerChecker<uint32_t>(0, 65535))
            .AddAttribute("PayloadSize",
                          "Bytes per voice message, VoiceFrameHeader included.",
                          UintegerValue(172),
                          MakeUintegerAccessor(&VoiceTrunkSource::m_payloadSize),
                          MakeUintegerChecker<uint32_t>(VoiceFrameHeader::SIZE))
            .AddAttribute("FrameInterval",
                          "Speech per message: one message per call every interval.",
                          TimeValue(MilliSeconds(20)),
                          MakeTimeAccessor(&VoiceTrunkSource::m_frameInterval),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("StartSpread",
                          "Each call starts at a uniform random offset in [0, StartSpread) "
                          "after the socket is connected.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&VoiceTrunkSource::m_startSpread),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("CallDuration",
                          "How long each call lasts from its start (0: until the "
                          "application stops).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&VoiceTrunkSource::m_callDuration),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("OnTime",
                          "Length of a talkspurt (s).",
                          StringValue("ns3::ConstantRandomVariable[Constant=1e9]"),
                          MakePointerAccessor(&VoiceTrunkSource::m_onTime),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("OffTime",
                          "Length of a silence between talkspurts (s).",
                          StringValue("ns3::ConstantRandomVariable[Constant=0]"),
                          MakePointerAccessor(&VoiceTrunkSource::m_offTime),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("Recorder",
                          "PacketEventRecorder that gets one 'sent' row per frame (flow = "
                          "call id); none if null.",
                          PointerValue(),
                          MakePointerAccessor(&VoiceTrunkSource::m_recorder),
                          MakePointerChecker<PacketEventRecorder>())
            .AddAttribute("SctpStreamPerCall",
                          "SCTP: send each call on its own stream (the call's index on this "
                          "source); the association needs that many outbound streams.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&VoiceTrunkSource::m_sctpStreamPerCall),
                          MakeBooleanChecker())
            .AddAttribute("SctpUnordered",
                          "SCTP: send the messages unordered (U bit).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&VoiceTrunkSource::m_sctpUnordered),
                          MakeBooleanChecker())
            .AddAttribute("SctpLifetime",
                          "SCTP: PR-SCTP timed reliability, abandon a message this long after "
                          "it was sent (0: fully reliable).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&VoiceTrunkSource::m_sctpLifetime),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("Tx",
                            "A voice frame was created (packet, call id, sequence number).",
                            MakeTraceSourceAccessor(&VoiceTrunkSource::m_txTrace),
                            "ns3::VoiceTrunkSource::TxTracedCallback");
    return tid;
}

VoiceTrunkSource::VoiceTrunkSource()
    : m_calls(1),
      m_firstCall(0),
      m_payloadSize(172),
      m_sctpStreamPerCall(false),
      m_sctpUnordered(false),
      m_sctp(false),
      m_connected(false),
      m_framesSent(0),
      m_sendFailures(0)
{
    NS_LOG_FUNCTION(this);
    m_startOffset = CreateObject<UniformRandomVariable>();
}

VoiceTrunkSource::~VoiceTrunkSource()
{
    NS_LOG_FUNCTION(this);
}

void
VoiceTrunkSource::DoDispose()
{
    m_socket = nullptr;
    m_recorder = nullptr;
    m_state.clear();
    Application::DoDispose();
}

uint64_t
VoiceTrunkSource::GetFramesSent() const
{
    return m_framesSent;
}

uint64_t
VoiceTrunkSource::GetSendFailures() const
{
    return m_sendFailures;
}

Ptr<Socket>
VoiceTrunkSource::GetSocket() const
{
    return m_socket;
}

void
VoiceTrunkSource::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_firstCall + m_calls > 65536, "call ids must fit in 16 bits");
    m_state.assign(m_calls, Call{});
    m_sctp = m_protocol.GetName() == "ns3::SctpSocketFactory";

    if (!m_socket)
    {
        m_socket = Socket::CreateSocket(GetNode(), m_protocol);
        // The connect callbacks first: UDP reports success from inside Connect().
        m_socket->SetConnectCallback(MakeCallback(&VoiceTrunkSource::ConnectionSucceeded, this),
                                     MakeCallback(&VoiceTrunkSource::ConnectionFailed, this));
        int bound = InetSocketAddress::IsMatchingType(m_remote) ? m_socket->Bind()
                                                                : m_socket->Bind6();
        NS_ABORT_MSG_IF(bound == -1, "VoiceTrunkSource: cannot bind a socket");
        m_socket->Connect(m_remote);
        m_socket->ShutdownRecv();
    }
}

void
VoiceTrunkSource::StopApplication()
{
    NS_LOG_FUNCTION(this);
    for (auto& call : m_state)
    {
        call.next.Cancel();
    }
    if (m_socket)
    {
        m_socket->Close();
    }
}

void
VoiceTrunkSource::ConnectionSucceeded(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    m_connected = true;
    for (uint32_t i = 0; i < m_calls; ++i)
    {
        Time offset = Seconds(m_startOffset->GetValue(0.0, m_startSpread.GetSeconds()));
        m_state[i].next = Simulator::Schedule(offset, &VoiceTrunkSource::StartCall, this, i);
    }
}

void
VoiceTrunkSource::ConnectionFailed(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    NS_LOG_WARN("VoiceTrunkSource: connection failed; no call is sent");
}

void
VoiceTrunkSource::StartCall(uint32_t index)
{
    m_state[index].callEnd = m_callDuration.IsStrictlyPositive()
                                 ? Simulator::Now() + m_callDuration
                                 : Time::Max();
    StartTalkspurt(index);
}

void
VoiceTrunkSource::StartTalkspurt(uint32_t index)
{
    m_state[index].talkspurtEnd = Simulator::Now() + Seconds(m_onTime->GetValue());
    SendFrame(index);
}

void
VoiceTrunkSource::SendFrame(uint32_t index)
{
    Call& call = m_state[index];
    Time now = Simulator::Now();
    if (now >= call.callEnd)
    {
        return; // the call is over
    }
    if (now >= call.talkspurtEnd)
    {
        call.next = Simulator::Schedule(Seconds(m_offTime->GetValue()),
                                        &VoiceTrunkSource::StartTalkspurt,
                                        this,
                                        index);
        return;
    }
    auto callId = static_cast<uint16_t>(m_firstCall + index);
    VoiceFrameHeader header;
    header.SetCall(callId);
    header.SetSeq(call.seq);
    header.SetSendTime(now);
    Ptr<Packet> packet = Create<Packet>(m_payloadSize - VoiceFrameHeader::SIZE);
    packet->AddHeader(header);
    if (m_sctp)
    {
        TagForSctp(packet, index);
    }
    m_txTrace(packet, callId, call.seq);
    if (m_recorder)
    {
        m_recorder->Record(PacketEventRecorder::SENT, callId, call.seq, m_payloadSize, now);
    }
    ++m_framesSent;
    if (m_socket->Send(packet) < 0)
    {
        ++m_sendFailures;
        NS_LOG_LOGIC("call " << callId << " frame " << call.seq << " refused by the socket");
    }
    ++call.seq;
    call.next = Simulator::Schedule(m_frameInterval, &VoiceTrunkSource::SendFrame, this, index);
}

void
VoiceTrunkSource::TagForSctp(Ptr<Packet> packet, uint32_t index) const
{
    SctpSendInfoTag tag(static_cast<uint16_t>(m_sctpStreamPerCall ? index : 0), 0, m_sctpUnordered);
    if (m_sctpLifetime.IsStrictlyPositive())
    {
        tag.SetPrPolicy(SctpPrPolicy::TTL, static_cast<uint32_t>(m_sctpLifetime.GetMilliSeconds()));
    }
    packet->AddPacketTag(tag);
}

} // namespace ns3
