#include "object-transfer-receiver.h"

#include "object-transfer-record.h"
#include "object-transfer-stream.h"

#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ObjectTransferReceiver");

NS_OBJECT_ENSURE_REGISTERED(ObjectTransferReceiver);

TypeId
ObjectTransferReceiver::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ObjectTransferReceiver")
            .SetParent<Application>()
            .SetGroupName("Transfer")
            .AddConstructor<ObjectTransferReceiver>()
            .AddAttribute("SocketFactory",
                          "TypeId name of the socket factory (TCP or SCTP).",
                          StringValue("ns3::TcpSocketFactory"),
                          MakeStringAccessor(&ObjectTransferReceiver::m_socketFactory),
                          MakeStringChecker())
            .AddAttribute("Port",
                          "Port to listen on.",
                          UintegerValue(8080),
                          MakeUintegerAccessor(&ObjectTransferReceiver::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("Objects",
                          "Number of objects expected.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&ObjectTransferReceiver::m_objects),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("ObjectSize",
                          "Bytes per object.",
                          UintegerValue(100000),
                          MakeUintegerAccessor(&ObjectTransferReceiver::m_objectSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("InboundStreams",
                          "SCTP: inbound streams accepted per association.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&ObjectTransferReceiver::m_inboundStreams),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("StopWhenComplete",
                          "Stop the simulation once every object has arrived (the transports' "
                          "timers would otherwise keep it running).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&ObjectTransferReceiver::m_stopWhenComplete),
                          MakeBooleanChecker())
            .AddTraceSource("ObjectComplete",
                            "All bytes of an object were delivered.",
                            MakeTraceSourceAccessor(&ObjectTransferReceiver::m_completeTrace),
                            "ns3::ObjectTransferReceiver::CompleteTracedCallback");
    return tid;
}

ObjectTransferReceiver::ObjectTransferReceiver()
    : m_port(8080),
      m_objects(8),
      m_objectSize(100000),
      m_inboundStreams(64),
      m_stopWhenComplete(false),
      m_completed(0)
{
}

ObjectTransferReceiver::~ObjectTransferReceiver() = default;

void
ObjectTransferReceiver::DoDispose()
{
    m_accepted.clear();
    m_buffers.clear();
    m_listener = nullptr;
    Application::DoDispose();
}

const std::vector<int64_t>&
ObjectTransferReceiver::GetCompletionNs() const
{
    return m_completion;
}

uint32_t
ObjectTransferReceiver::GetCompletedCount() const
{
    return m_completed;
}

const std::vector<uint32_t>&
ObjectTransferReceiver::GetRecordObjects() const
{
    return m_recordObject;
}

const std::vector<uint32_t>&
ObjectTransferReceiver::GetRecordOffsets() const
{
    return m_recordOffset;
}

const std::vector<int64_t>&
ObjectTransferReceiver::GetRecordSentNs() const
{
    return m_recordSent;
}

const std::vector<int64_t>&
ObjectTransferReceiver::GetRecordDeliveredNs() const
{
    return m_recordDelivered;
}

const std::vector<int32_t>&
ObjectTransferReceiver::GetRecordStreams() const
{
    return m_recordStream;
}

void
ObjectTransferReceiver::StartApplication()
{
    m_received.assign(m_objects, 0);
    m_completion.assign(m_objects, -1);
    m_listener = Socket::CreateSocket(GetNode(), TypeId::LookupByName(m_socketFactory));
    m_listener->SetAttributeFailSafe("MaxInboundStreams", UintegerValue(m_inboundStreams));
    m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
    m_listener->Listen();
    m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&ObjectTransferReceiver::Accept, this));
}

void
ObjectTransferReceiver::StopApplication()
{
    for (auto& socket : m_accepted)
    {
        socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        socket->Close();
    }
    if (m_listener)
    {
        m_listener->Close();
    }
}

void
ObjectTransferReceiver::Accept(Ptr<Socket> socket, const Address& from)
{
    m_accepted.push_back(socket);
    socket->SetRecvCallback(MakeCallback(&ObjectTransferReceiver::Read, this));
}

void
ObjectTransferReceiver::Read(Ptr<Socket> socket)
{
    std::vector<uint8_t>& buffer = m_buffers[socket];
    while (Ptr<Packet> packet = socket->Recv())
    {
        const std::size_t old = buffer.size();
        buffer.resize(old + packet->GetSize());
        packet->CopyData(buffer.data() + old, packet->GetSize());
        Parse(buffer, ObjectTransferReceivedStream(packet));
    }
}

void
ObjectTransferReceiver::Parse(std::vector<uint8_t>& buffer, int32_t stream)
{
    std::size_t position = 0;
    while (buffer.size() - position >= ObjectTransferRecord::SIZE)
    {
        ObjectTransferRecord record;
        if (!record.Read(buffer.data() + position) || record.object >= m_objects)
        {
            NS_LOG_WARN("ObjectTransferReceiver: garbage in the stream; dropping it");
            buffer.clear();
            return;
        }
        if (buffer.size() - position < ObjectTransferRecord::SIZE + record.length)
        {
            break; // the rest of this record has not arrived yet
        }
        position += ObjectTransferRecord::SIZE + record.length;
        const Time now = Simulator::Now();
        m_recordObject.push_back(record.object);
        m_recordOffset.push_back(record.offset);
        m_recordSent.push_back(record.sentNs);
        m_recordDelivered.push_back(now.GetNanoSeconds());
        m_recordStream.push_back(stream);
        m_received[record.object] += record.length;
        if (m_received[record.object] >= m_objectSize && m_completion[record.object] < 0)
        {
            m_completion[record.object] = now.GetNanoSeconds();
            ++m_completed;
            m_completeTrace(record.object, now);
            if (m_stopWhenComplete && m_completed == m_objects)
            {
                Simulator::Stop();
            }
        }
    }
    buffer.erase(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(position));
}

} // namespace ns3
