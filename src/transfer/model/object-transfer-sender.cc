#include "object-transfer-sender.h"

#include "object-transfer-record.h"
#include "object-transfer-stream.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ObjectTransferSender");

NS_OBJECT_ENSURE_REGISTERED(ObjectTransferSender);

TypeId
ObjectTransferSender::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ObjectTransferSender")
            .SetParent<Application>()
            .SetGroupName("Transfer")
            .AddConstructor<ObjectTransferSender>()
            .AddAttribute("Remote",
                          "Address of the receiver.",
                          AddressValue(),
                          MakeAddressAccessor(&ObjectTransferSender::m_remote),
                          MakeAddressChecker())
            .AddAttribute("SocketFactory",
                          "TypeId name of the socket factory (TCP or SCTP).",
                          StringValue("ns3::TcpSocketFactory"),
                          MakeStringAccessor(&ObjectTransferSender::m_socketFactory),
                          MakeStringChecker())
            .AddAttribute("Objects",
                          "Number of objects transferred at once.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&ObjectTransferSender::m_objects),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("ObjectSize",
                          "Bytes per object.",
                          UintegerValue(100000),
                          MakeUintegerAccessor(&ObjectTransferSender::m_objectSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RecordSize",
                          "Bytes per record (one Send), header included.",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&ObjectTransferSender::m_recordSize),
                          MakeUintegerChecker<uint32_t>(ObjectTransferRecord::SIZE + 1))
            .AddAttribute("Connections",
                          "1: all objects share one connection; otherwise one connection "
                          "per object (must then equal Objects).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&ObjectTransferSender::m_connections),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("StreamPerObject",
                          "SCTP: send object i on stream i (else all on stream 0).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&ObjectTransferSender::m_streamPerObject),
                          MakeBooleanChecker())
            .AddAttribute("Interleave",
                          "Alternate the records of the objects sharing a connection round "
                          "robin (else send the objects one after the other).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&ObjectTransferSender::m_interleave),
                          MakeBooleanChecker());
    return tid;
}

ObjectTransferSender::ObjectTransferSender()
    : m_objects(8),
      m_objectSize(100000),
      m_recordSize(1000),
      m_connections(1),
      m_streamPerObject(false),
      m_interleave(false),
      m_bytesSent(0)
{
}

ObjectTransferSender::~ObjectTransferSender() = default;

void
ObjectTransferSender::DoDispose()
{
    m_links.clear();
    Application::DoDispose();
}

uint64_t
ObjectTransferSender::GetBytesSent() const
{
    return m_bytesSent;
}

void
ObjectTransferSender::StartApplication()
{
    NS_ABORT_MSG_IF(m_connections != 1 && m_connections != m_objects,
                    "ObjectTransferSender: Connections must be 1 or Objects");
    const TypeId factory = TypeId::LookupByName(m_socketFactory);
    m_sentOfObject.assign(m_objects, 0);
    m_links.resize(m_connections);
    for (uint32_t object = 0; object < m_objects; ++object)
    {
        m_links[object % m_connections].objects.push_back(object);
    }
    for (auto& link : m_links)
    {
        link.socket = Socket::CreateSocket(GetNode(), factory);
        if (m_streamPerObject)
        {
            link.socket->SetAttributeFailSafe(
                "OutboundStreams",
                UintegerValue(std::max<uint32_t>(m_objects, 1)));
        }
        link.socket->Bind();
        link.socket->SetConnectCallback(MakeCallback(&ObjectTransferSender::Connected, this),
                                        MakeCallback(&ObjectTransferSender::ConnectFailed, this));
        link.socket->SetSendCallback(MakeCallback(&ObjectTransferSender::SendSpace, this));
        link.socket->Connect(m_remote);
    }
}

void
ObjectTransferSender::StopApplication()
{
    for (auto& link : m_links)
    {
        if (link.socket)
        {
            link.socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
            link.socket->Close();
        }
    }
}

void
ObjectTransferSender::Connected(Ptr<Socket> socket)
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
ObjectTransferSender::ConnectFailed(Ptr<Socket> socket)
{
    NS_LOG_WARN("ObjectTransferSender: connection failed");
}

void
ObjectTransferSender::SendSpace(Ptr<Socket> socket, uint32_t available)
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
ObjectTransferSender::Fill(Link& link)
{
    std::vector<uint8_t> buffer(m_recordSize, 0);
    const uint32_t payloadMax = m_recordSize - ObjectTransferRecord::SIZE;
    while (true)
    {
        // the next object of this connection with bytes left, round robin
        bool found = false;
        uint32_t object = 0;
        for (std::size_t i = 0; i < link.objects.size(); ++i)
        {
            const uint32_t candidate = link.objects[(link.next + i) % link.objects.size()];
            if (m_sentOfObject[candidate] < m_objectSize)
            {
                object = candidate;
                // Sequential: stay on this object until it is done.
                link.next = (link.next + i + (m_interleave ? 1 : 0)) % link.objects.size();
                found = true;
                break;
            }
        }
        if (!found)
        {
            return; // everything written
        }
        ObjectTransferRecord record;
        record.object = static_cast<uint16_t>(object);
        record.offset = m_sentOfObject[object];
        record.length = std::min(payloadMax, m_objectSize - record.offset);
        const uint32_t size = ObjectTransferRecord::SIZE + record.length;
        const auto undo = [&link, this]() {
            // this object goes first when there is room again
            if (m_interleave)
            {
                link.next = (link.next + link.objects.size() - 1) % link.objects.size();
            }
        };
        if (link.socket->GetTxAvailable() < size)
        {
            undo();
            return;
        }
        record.sentNs = Simulator::Now().GetNanoSeconds();
        record.Write(buffer.data());
        Ptr<Packet> packet = Create<Packet>(buffer.data(), size);
        TagObjectTransferStream(packet, m_streamPerObject ? static_cast<uint16_t>(object) : 0);
        if (link.socket->Send(packet) < 0)
        {
            undo();
            return;
        }
        m_sentOfObject[object] += record.length;
        m_bytesSent += size;
    }
}

} // namespace ns3
