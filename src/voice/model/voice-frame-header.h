/*
 * The header at the start of every voice message of the trunk applications: which call
 * the frame belongs to, its sequence number in that call and when it was sent.
 */
#ifndef VOICE_FRAME_HEADER_H
#define VOICE_FRAME_HEADER_H

#include "ns3/header.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup voice
 * \brief Call id (16 bit), sequence number (32 bit) and send time (64 bit, ns): 14 bytes.
 *
 * The rest of a voice message is speech (zeros). The header takes the place of the
 * RTP header's sequence number and timestamp and adds the call id, so that many calls
 * can share one socket.
 */
class VoiceFrameHeader : public Header
{
  public:
    /** Bytes on the wire. */
    static constexpr uint32_t SIZE = 14;

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /** \return the bytes read: SIZE, or 0 if fewer than SIZE bytes are left. */
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    void SetCall(uint16_t call);
    uint16_t GetCall() const;
    void SetSeq(uint32_t seq);
    uint32_t GetSeq() const;
    void SetSendTime(Time time);
    Time GetSendTime() const;

  private:
    uint16_t m_call{0};
    uint32_t m_seq{0};
    int64_t m_sendNs{0};
};

} // namespace ns3

#endif /* VOICE_FRAME_HEADER_H */
