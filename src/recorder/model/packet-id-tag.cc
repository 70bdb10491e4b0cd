#include "packet-id-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PacketIdTag);

TypeId
PacketIdTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PacketIdTag")
                            .SetParent<Tag>()
                            .SetGroupName("Recorder")
                            .AddConstructor<PacketIdTag>();
    return tid;
}

TypeId
PacketIdTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

PacketIdTag::PacketIdTag()
    : m_flow(0),
      m_id(0)
{
}

PacketIdTag::PacketIdTag(uint32_t flow, uint64_t id)
    : m_flow(flow),
      m_id(id)
{
}

uint32_t
PacketIdTag::GetSerializedSize() const
{
    return sizeof(uint32_t) + sizeof(uint64_t);
}

void
PacketIdTag::Serialize(TagBuffer buffer) const
{
    buffer.WriteU32(m_flow);
    buffer.WriteU64(m_id);
}

void
PacketIdTag::Deserialize(TagBuffer buffer)
{
    m_flow = buffer.ReadU32();
    m_id = buffer.ReadU64();
}

void
PacketIdTag::Print(std::ostream& os) const
{
    os << "flow=" << m_flow << " id=" << m_id;
}

uint32_t
PacketIdTag::GetFlow() const
{
    return m_flow;
}

uint64_t
PacketIdTag::GetId() const
{
    return m_id;
}

} // namespace ns3
