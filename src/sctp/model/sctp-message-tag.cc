#include "sctp-message-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SctpSendInfoTag);
NS_OBJECT_ENSURE_REGISTERED(SctpReceiveInfoTag);

SctpSendInfoTag::SctpSendInfoTag(uint16_t streamId, uint32_t ppid, bool unordered)
    : streamId(streamId),
      ppid(ppid),
      unordered(unordered)
{
}

TypeId
SctpSendInfoTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpSendInfoTag")
                            .SetParent<Tag>()
                            .SetGroupName("Sctp")
                            .AddConstructor<SctpSendInfoTag>();
    return tid;
}

TypeId
SctpSendInfoTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
SctpSendInfoTag::GetSerializedSize() const
{
    return 2 + 4 + 1 + 1 + 4;
}

void
SctpSendInfoTag::Serialize(TagBuffer i) const
{
    i.WriteU16(streamId);
    i.WriteU32(ppid);
    i.WriteU8(unordered ? 1 : 0);
    i.WriteU8(static_cast<uint8_t>(prPolicy));
    i.WriteU32(prValue);
}

void
SctpSendInfoTag::Deserialize(TagBuffer i)
{
    streamId = i.ReadU16();
    ppid = i.ReadU32();
    unordered = i.ReadU8() != 0;
    prPolicy = static_cast<SctpPrPolicy>(i.ReadU8());
    prValue = i.ReadU32();
}

void
SctpSendInfoTag::Print(std::ostream& os) const
{
    os << "sid=" << streamId << " ppid=" << ppid << " unordered=" << unordered
       << " pr=" << static_cast<int>(prPolicy) << "/" << prValue;
}

TypeId
SctpReceiveInfoTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpReceiveInfoTag")
                            .SetParent<Tag>()
                            .SetGroupName("Sctp")
                            .AddConstructor<SctpReceiveInfoTag>();
    return tid;
}

TypeId
SctpReceiveInfoTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
SctpReceiveInfoTag::GetSerializedSize() const
{
    return 2 + 2 + 4 + 4 + 1;
}

void
SctpReceiveInfoTag::Serialize(TagBuffer i) const
{
    i.WriteU16(streamId);
    i.WriteU16(ssn);
    i.WriteU32(tsn);
    i.WriteU32(ppid);
    i.WriteU8(unordered ? 1 : 0);
}

void
SctpReceiveInfoTag::Deserialize(TagBuffer i)
{
    streamId = i.ReadU16();
    ssn = i.ReadU16();
    tsn = i.ReadU32();
    ppid = i.ReadU32();
    unordered = i.ReadU8() != 0;
}

void
SctpReceiveInfoTag::Print(std::ostream& os) const
{
    os << "sid=" << streamId << " ssn=" << ssn << " tsn=" << tsn << " ppid=" << ppid
       << " unordered=" << unordered;
}

} // namespace ns3
