#include "voice-frame-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(VoiceFrameHeader);

TypeId
VoiceFrameHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::VoiceFrameHeader")
                            .SetParent<Header>()
                            .SetGroupName("Voice")
                            .AddConstructor<VoiceFrameHeader>();
    return tid;
}

TypeId
VoiceFrameHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
VoiceFrameHeader::GetSerializedSize() const
{
    return SIZE;
}

void
VoiceFrameHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU16(m_call);
    start.WriteHtonU32(m_seq);
    start.WriteHtonU64(static_cast<uint64_t>(m_sendNs));
}

uint32_t
VoiceFrameHeader::Deserialize(Buffer::Iterator start)
{
    // A short or corrupted message must not reach Buffer::Iterator's assertions.
    if (start.GetRemainingSize() < SIZE)
    {
        return 0;
    }
    m_call = start.ReadNtohU16();
    m_seq = start.ReadNtohU32();
    m_sendNs = static_cast<int64_t>(start.ReadNtohU64());
    return SIZE;
}

void
VoiceFrameHeader::Print(std::ostream& os) const
{
    os << "call=" << m_call << " seq=" << m_seq << " sent=" << GetSendTime().As(Time::S);
}

void
VoiceFrameHeader::SetCall(uint16_t call)
{
    m_call = call;
}

uint16_t
VoiceFrameHeader::GetCall() const
{
    return m_call;
}

void
VoiceFrameHeader::SetSeq(uint32_t seq)
{
    m_seq = seq;
}

uint32_t
VoiceFrameHeader::GetSeq() const
{
    return m_seq;
}

void
VoiceFrameHeader::SetSendTime(Time time)
{
    m_sendNs = time.GetNanoSeconds();
}

Time
VoiceFrameHeader::GetSendTime() const
{
    return NanoSeconds(m_sendNs);
}

} // namespace ns3
