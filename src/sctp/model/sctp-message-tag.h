/*
 * Per-message metadata between applications and SCTP, in the spirit of the
 * sctp_sndinfo / sctp_rcvinfo structures of the sockets API (RFC 6458 section 5.3).
 */
#ifndef SCTP_MESSAGE_TAG_H
#define SCTP_MESSAGE_TAG_H

#include "ns3/tag.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup sctp
 * \brief PR-SCTP policy of a message (RFC 3758, RFC 7496); used from issue 4 on.
 */
enum class SctpPrPolicy : uint8_t
{
    NONE = 0,     //!< fully reliable
    TTL = 1,      //!< timed reliability: abandon after a lifetime (value in ms)
    RTX = 2,      //!< limited retransmissions (NS-2 "k-rtx"): value = max retransmissions
    PRIORITY = 3, //!< RFC 7496 priority policy (value = priority)
};

/**
 * \ingroup sctp
 * \brief Packet tag on a message given to SctpSocket::Send: stream, PPID, unordered flag
 *        and PR-SCTP policy. Without it the socket's defaults apply.
 */
class SctpSendInfoTag : public Tag
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

    SctpSendInfoTag() = default;
    SctpSendInfoTag(uint16_t streamId, uint32_t ppid, bool unordered);

    uint16_t streamId{0};
    uint32_t ppid{0};
    bool unordered{false};
    SctpPrPolicy prPolicy{SctpPrPolicy::NONE};
    uint32_t prValue{0};

    // Accessors for Python (cppyy) users.
    void SetStreamId(uint16_t v)
    {
        streamId = v;
    }

    uint16_t GetStreamId() const
    {
        return streamId;
    }

    void SetPpid(uint32_t v)
    {
        ppid = v;
    }

    uint32_t GetPpid() const
    {
        return ppid;
    }

    void SetUnordered(bool v)
    {
        unordered = v;
    }

    bool GetUnordered() const
    {
        return unordered;
    }

    void SetPrPolicy(SctpPrPolicy policy, uint32_t value)
    {
        prPolicy = policy;
        prValue = value;
    }
};

/**
 * \ingroup sctp
 * \brief Packet tag on a message returned by SctpSocket::Recv: where it came from in the
 *        association (stream, SSN, the TSN of its first fragment, PPID, unordered flag).
 */
class SctpReceiveInfoTag : public Tag
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

    uint16_t streamId{0};
    uint16_t ssn{0};
    uint32_t tsn{0};
    uint32_t ppid{0};
    bool unordered{false};

    uint16_t GetStreamId() const
    {
        return streamId;
    }

    uint16_t GetSsn() const
    {
        return ssn;
    }

    uint32_t GetTsn() const
    {
        return tsn;
    }

    uint32_t GetPpid() const
    {
        return ppid;
    }

    bool GetUnordered() const
    {
        return unordered;
    }
};

} // namespace ns3

#endif /* SCTP_MESSAGE_TAG_H */
