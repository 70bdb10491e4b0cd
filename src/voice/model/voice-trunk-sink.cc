#include "voice-trunk-sink.h"

#include "voice-frame-header.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("VoiceTrunkSink");
NS_OBJECT_ENSURE_REGISTERED(VoiceTrunkSink);

TypeId
VoiceTrunkSink::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::VoiceTrunkSink")
            .SetParent<Application>()
            .SetGroupName("Voice")
            .AddConstructor<VoiceTrunkSink>()
            .AddAttribute("Local",
                          "Address to listen on.",
                          AddressValue(),
                          MakeAddressAccessor(&VoiceTrunkSink::m_local),
                          MakeAddressChecker())
            .AddAttribute("Protocol",
                          "Socket factory (as at the VoiceTrunkSource).",
                          TypeIdValue(UdpSocketFactory::GetTypeId()),
                          MakeTypeIdAccessor(&VoiceTrunkSink::m_protocol),
                          MakeTypeIdChecker())
            .AddAttribute("FrameSize",
                          "Bytes per voice message (the source's PayloadSize).",
                          UintegerValue(172),
                          MakeUintegerAccessor(&VoiceTrunkSink::m_frameSize),
                          MakeUintegerChecker<uint32_t>(VoiceFrameHeader::SIZE))
            .AddAttribute("Recorder",
                          "PacketEventRecorder that gets one 'received' row per frame "
                          "(flow = call id); none if null.",
                          PointerValue(),
                          MakePointerAccessor(&VoiceTrunkSink::m_recorder),
                          MakePointerChecker<PacketEventRecorder>())
            .AddTraceSource("Rx",
                            "A voice frame arrived (packet, call id, sequence number, delay).",
                            MakeTraceSourceAccessor(&VoiceTrunkSink::m_rxTrace),
                            "ns3::VoiceTrunkSink::RxTracedCallback");
    return tid;
}

VoiceTrunkSink::VoiceTrunkSink()
    : m_frameSize(172),
      m_framesReceived(0),
      m_badFrames(0)
{
    NS_LOG_FUNCTION(this);
}

VoiceTrunkSink::~VoiceTrunkSink()
{
    NS_LOG_FUNCTION(this);
}

void
VoiceTrunkSink::DoDispose()
{
    m_listener = nullptr;
    m_accepted.clear();
    m_pending.clear();
    m_recorder = nullptr;
    Application::DoDispose();
}

uint64_t
VoiceTrunkSink::GetFramesReceived() const
{
    return m_framesReceived;
}

uint64_t
VoiceTrunkSink::GetBadFrames() const
{
    return m_badFrames;
}

void
VoiceTrunkSink::StartApplication()
{
    NS_LOG_FUNCTION(this);
    if (!m_listener)
    {
        m_listener = Socket::CreateSocket(GetNode(), m_protocol);
        NS_ABORT_MSG_IF(m_listener->Bind(m_local) == -1, "VoiceTrunkSink: cannot bind");
        m_listener->Listen();
        m_listener->ShutdownSend();
        m_listener->SetRecvCallback(MakeCallback(&VoiceTrunkSink::HandleRead, this));
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeCallback(&VoiceTrunkSink::HandleAccept, this));
    }
}

void
VoiceTrunkSink::StopApplication()
{
    NS_LOG_FUNCTION(this);
    for (auto& socket : m_accepted)
    {
        socket->Close();
    }
    if (m_listener)
    {
        m_listener->Close();
        m_listener->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    }
}

void
VoiceTrunkSink::HandleAccept(Ptr<Socket> socket, const Address& from)
{
    NS_LOG_FUNCTION(this << socket << from);
    socket->SetRecvCallback(MakeCallback(&VoiceTrunkSink::HandleRead, this));
    m_accepted.push_back(socket);
}

void
VoiceTrunkSink::HandleRead(Ptr<Socket> socket)
{
    Address from;
    while (Ptr<Packet> packet = socket->RecvFrom(from))
    {
        if (packet->GetSize() == 0)
        {
            break;
        }
        Ptr<Packet>& pending = m_pending[socket];
        if (!pending)
        {
            pending = Create<Packet>();
        }
        pending->AddAtEnd(packet);
        while (pending->GetSize() >= m_frameSize)
        {
            Ptr<Packet> frame = pending->CreateFragment(0, m_frameSize);
            pending->RemoveAtStart(m_frameSize);
            Deliver(frame);
        }
    }
}

void
VoiceTrunkSink::Deliver(Ptr<Packet> frame)
{
    VoiceFrameHeader header;
    if (frame->PeekHeader(header) != VoiceFrameHeader::SIZE)
    {
        ++m_badFrames;
        return;
    }
    ++m_framesReceived;
    Time delay = Simulator::Now() - header.GetSendTime();
    m_rxTrace(frame, header.GetCall(), header.GetSeq(), delay);
    if (m_recorder)
    {
        m_recorder->Record(PacketEventRecorder::RECEIVED,
                           header.GetCall(),
                           header.GetSeq(),
                           m_frameSize,
                           header.GetSendTime());
    }
}

} // namespace ns3
