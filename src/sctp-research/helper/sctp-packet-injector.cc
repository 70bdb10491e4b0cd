#include "sctp-packet-injector.h"

#include "ns3/object-vector.h"
#include "ns3/sctp-crc32c.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SctpPacketInjector);

TypeId
SctpPacketInjector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpPacketInjector")
                            .SetParent<Object>()
                            .SetGroupName("Sctp")
                            .AddConstructor<SctpPacketInjector>();
    return tid;
}

SctpPacketInjector::SctpPacketInjector() = default;

void
SctpPacketInjector::DoDispose()
{
    m_sctp = nullptr;
    m_watched.clear();
    m_packets.clear();
    Object::DoDispose();
}

void
SctpPacketInjector::SetProtocol(Ptr<SctpL4Protocol> sctp)
{
    m_sctp = sctp;
}

void
SctpPacketInjector::Schedule(Time at,
                             const uint8_t* data,
                             uint32_t length,
                             Ipv4Address source,
                             Ipv4Address destination,
                             bool fixChecksum)
{
    Pending p;
    p.bytes.assign(data, data + length);
    if (fixChecksum)
    {
        SctpWriteChecksum(p.bytes.data(), p.bytes.size());
    }
    p.source = source;
    p.destination = destination;
    m_packets.push_back(std::move(p));
    Time delay = at > Simulator::Now() ? at - Simulator::Now() : Time(0);
    Simulator::Schedule(delay,
                        &SctpPacketInjector::Deliver,
                        this,
                        static_cast<uint32_t>(m_packets.size() - 1));
}

void
SctpPacketInjector::Deliver(uint32_t index)
{
    if (!m_sctp || index >= m_packets.size())
    {
        return;
    }
    Pending& p = m_packets[index];
    m_sctp->ReceiveBytes(p.bytes.data(),
                         static_cast<uint32_t>(p.bytes.size()),
                         p.source,
                         p.destination);
    ++m_injected;
    p.bytes.clear();
    p.bytes.shrink_to_fit();
    Check();
}

void
SctpPacketInjector::Watch(Ptr<SctpSocket> socket)
{
    m_watched.push_back(socket);
}

void
SctpPacketInjector::WatchAll(bool all)
{
    m_watchAll = all;
}

void
SctpPacketInjector::Check()
{
    if (!m_firstViolation.empty())
    {
        return;
    }
    std::vector<Ptr<SctpSocket>> sockets = m_watched;
    if (m_watchAll && m_sctp)
    {
        ObjectVectorValue list;
        m_sctp->GetAttribute("SocketList", list);
        for (auto it = list.Begin(); it != list.End(); ++it)
        {
            sockets.push_back(DynamicCast<SctpSocket>(it->second));
        }
    }
    for (const auto& s : sockets)
    {
        if (!s)
        {
            continue;
        }
        std::string v = s->CheckInvariants();
        if (!v.empty())
        {
            m_firstViolation = "after injected packet " + std::to_string(m_injected) + ": " + v;
            return;
        }
    }
}

uint32_t
SctpPacketInjector::GetInjectedCount() const
{
    return m_injected;
}

std::string
SctpPacketInjector::GetFirstViolation() const
{
    return m_firstViolation;
}

uint32_t
SctpPacketInjector::Crc32c(const uint8_t* data, uint32_t length)
{
    return SctpCrc32c(data, length);
}

void
SctpPacketInjector::FixChecksum(uint8_t* data, uint32_t length)
{
    SctpWriteChecksum(data, length);
}

} // namespace ns3
