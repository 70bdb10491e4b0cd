#include "scheduled-message-sender.h"

#include "object-transfer-stream.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScheduledMessageSender");

NS_OBJECT_ENSURE_REGISTERED(ScheduledMessageSender);

TypeId
ScheduledMessageSender::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ScheduledMessageSender")
            .SetParent<Application>()
            .SetGroupName("Transfer")
            .AddConstructor<ScheduledMessageSender>()
            .AddAttribute("Remote",
                          "Address of the receiver.",
                          AddressValue(),
                          MakeAddressAccessor(&ScheduledMessageSender::m_remote),
                          MakeAddressChecker())
            .AddAttribute("SocketFactory",
                          "TypeId name of the socket factory (TCP or SCTP).",
                          StringValue("ns3::TcpSocketFactory"),
                          MakeStringAccessor(&ScheduledMessageSender::m_socketFactory),
                          MakeStringChecker())
            .AddAttribute("WholeMessages",
                          "Hand each message to the socket in one Send (SCTP: one user "
                          "message); false: write its bytes as the send buffer frees (TCP).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&ScheduledMessageSender::m_wholeMessages),
                          MakeBooleanChecker())
            .AddAttribute("ConnectionPerStream",
                          "One socket (connection, association) per stream instead of one "
                          "for all.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&ScheduledMessageSender::m_connectionPerStream),
                          MakeBooleanChecker())
            .AddAttribute("Streams",
                          "Number of streams (0 .. Streams-1): SCTP outbound streams of a "
                          "shared socket, or sockets with ConnectionPerStream.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&ScheduledMessageSender::m_streams),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddTraceSource("TxWithSeqTsSize",
                            "A message was produced (before any transport queueing).",
                            MakeTraceSourceAccessor(&ScheduledMessageSender::m_txTrace),
                            "ns3::PacketSink::SeqTsSizeCallback");
    return tid;
}

ScheduledMessageSender::ScheduledMessageSender()
    : m_wholeMessages(true),
      m_connectionPerStream(false),
      m_streams(2),
      m_written(0),
      m_sendErrors(0)
{
}

ScheduledMessageSender::~ScheduledMessageSender() = default;

void
ScheduledMessageSender::DoDispose()
{
    m_links.clear();
    m_events.clear();
    Application::DoDispose();
}

void
ScheduledMessageSender::AddMessage(Time at, uint32_t size, uint16_t stream)
{
    NS_ABORT_MSG_IF(size < SeqTsSizeHeader().GetSerializedSize(),
                    "ScheduledMessageSender: a message must hold its 20-byte header");
    m_plan.push_back({at, size, stream});
}

uint32_t
ScheduledMessageSender::GetMessageCount() const
{
    return static_cast<uint32_t>(m_plan.size());
}

uint32_t
ScheduledMessageSender::GetMessagesWritten() const
{
    return m_written;
}

uint32_t
ScheduledMessageSender::GetSendErrors() const
{
    return m_sendErrors;
}

Ptr<Socket>
ScheduledMessageSender::GetSocket(uint16_t stream) const
{
    if (m_links.empty())
    {
        return nullptr;
    }
    return m_links[m_connectionPerStream ? stream : 0].socket;
}

void
ScheduledMessageSender::StartApplication()
{
    const TypeId factory = TypeId::LookupByName(m_socketFactory);
    m_links.resize(m_connectionPerStream ? m_streams : 1);
    for (auto& link : m_links)
    {
        link.socket = Socket::CreateSocket(GetNode(), factory);
        if (!m_connectionPerStream)
        {
            link.socket->SetAttributeFailSafe("OutboundStreams", UintegerValue(m_streams));
        }
        link.socket->Bind();
        link.socket->SetConnectCallback(MakeCallback(&ScheduledMessageSender::Connected, this),
                                        MakeCallback(&ScheduledMessageSender::ConnectFailed, this));
        link.socket->SetSendCallback(MakeCallback(&ScheduledMessageSender::SendSpace, this));
        link.socket->Connect(m_remote);
    }
    for (uint32_t seq = 0; seq < m_plan.size(); ++seq)
    {
        NS_ABORT_MSG_IF(m_plan[seq].stream >= m_streams,
                        "ScheduledMessageSender: stream " << m_plan[seq].stream
                                                          << " >= Streams");
        m_events.push_back(
            Simulator::Schedule(m_plan[seq].at, &ScheduledMessageSender::Produce, this, seq));
    }
}

void
ScheduledMessageSender::StopApplication()
{
    for (auto& event : m_events)
    {
        event.Cancel();
    }
    for (auto& link : m_links)
    {
        if (link.socket)
        {
            link.socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
            link.socket->Close();
        }
    }
}

ScheduledMessageSender::Link&
ScheduledMessageSender::LinkOf(uint16_t stream)
{
    return m_links[m_connectionPerStream ? stream : 0];
}

void
ScheduledMessageSender::Produce(uint32_t seq)
{
    const Planned& planned = m_plan[seq];
    Pending message{seq, planned.size, planned.stream, SeqTsSizeHeader(), 0};
    message.header.SetSeq(seq);
    message.header.SetSize(planned.size); // the timestamp is now, set by the header
    Link& link = LinkOf(planned.stream);
    Address local;
    link.socket->GetSockName(local);
    m_txTrace(Bytes(message, 0, planned.size), local, m_remote, message.header);
    link.queue.push_back(message);
    if (link.connected)
    {
        Fill(link);
    }
}

Ptr<Packet>
ScheduledMessageSender::Bytes(const Pending& message, uint32_t from, uint32_t length) const
{
    Ptr<Packet> whole = Create<Packet>(message.size - message.header.GetSerializedSize());
    whole->AddHeader(message.header);
    if (from == 0 && length == message.size)
    {
        return whole;
    }
    return whole->CreateFragment(from, length);
}

void
ScheduledMessageSender::Connected(Ptr<Socket> socket)
{
    for (auto& link : m_links)
    {
        if (link.socket == socket)
        {
            link.connected = true;
            Fill(link);
        }
    }
}

void
ScheduledMessageSender::ConnectFailed(Ptr<Socket> socket)
{
    NS_LOG_WARN("ScheduledMessageSender: connection failed");
}

void
ScheduledMessageSender::SendSpace(Ptr<Socket> socket, uint32_t available)
{
    for (auto& link : m_links)
    {
        if (link.socket == socket && link.connected)
        {
            Fill(link);
        }
    }
}

void
ScheduledMessageSender::Fill(Link& link)
{
    while (!link.queue.empty())
    {
        Pending& message = link.queue.front();
        const uint32_t room = link.socket->GetTxAvailable();
        const uint32_t left = message.size - message.written;
        uint32_t length = left;
        if (m_wholeMessages)
        {
            if (room < message.size)
            {
                return; // SendSpace calls again when the buffer has freed
            }
        }
        else
        {
            length = std::min(left, room);
            if (length == 0)
            {
                return;
            }
        }
        Ptr<Packet> packet = Bytes(message, message.written, length);
        TagObjectTransferStream(packet, m_connectionPerStream ? 0 : message.stream);
        if (link.socket->Send(packet) < 0)
        {
            ++m_sendErrors;
            return;
        }
        message.written += length;
        if (message.written == message.size)
        {
            ++m_written;
            link.queue.pop_front();
        }
    }
}

} // namespace ns3
