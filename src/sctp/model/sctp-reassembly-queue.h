/*
 * Receive side above the TSN map (RFC 9260 sections 6.5, 6.6, 6.9): reassembly of
 * fragmented user messages and per-stream ordering, so that a loss on one stream never
 * holds back messages on another, and unordered messages bypass ordering altogether.
 */
#ifndef SCTP_REASSEMBLY_QUEUE_H
#define SCTP_REASSEMBLY_QUEUE_H

#include "sctp-chunk.h"
#include "sctp-stream-ordering.h"

#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup sctp
 * \brief Reassembly and per-stream ordered delivery of received DATA chunks.
 */
class SctpReassemblyQueue
{
  public:
    /** \param inboundStreams number of inbound streams negotiated. */
    void Initialize(uint16_t inboundStreams);

    /**
     * Take a new DATA chunk (its TSN was not received before). Messages that become
     * deliverable are appended to \p out in delivery order.
     * \return false if the chunk contradicts fragments already held (it is dropped).
     */
    bool Add(const SctpDataChunk& chunk, std::deque<SctpReceivedMessage>& out);

    /** Bytes of user data held for reassembly or waiting for an earlier SSN. */
    uint32_t GetBufferedBytes() const;

    /** Next SSN expected on \p streamId (for tests and FORWARD TSN). */
    uint16_t GetNextSsn(uint16_t streamId) const;

    /**
     * Issue 4 (FORWARD TSN): drop fragments at or below \p cumTsn and skip stream
     * \p streamId past \p ssn, delivering what becomes deliverable.
     */
    void SkipTo(uint32_t cumTsn, std::deque<SctpReceivedMessage>& out);
    void SkipStream(uint16_t streamId, uint16_t ssn, std::deque<SctpReceivedMessage>& out);
    /** RFC 6525 5.2.2: the next message expected on \p streamId has SSN 0. */
    void ResetSsn(uint16_t streamId);
    /** RFC 6525 5.2.5: \p count more inbound streams, each expecting SSN 0. */
    void AddStreams(uint16_t count);

  private:
    struct Fragment
    {
        uint16_t streamId;
        uint16_t ssn;
        uint8_t flags;
        uint32_t ppid;
        std::vector<uint8_t> bytes;
    };

    struct TsnLess
    {
        bool operator()(uint32_t a, uint32_t b) const
        {
            return static_cast<int32_t>(a - b) < 0;
        }
    };

    /** A complete message: unordered to \p out at once, ordered by its SSN. */
    void Deliver(SctpReceivedMessage&& message, std::deque<SctpReceivedMessage>& out);
    void TryReassemble(uint32_t tsn, std::deque<SctpReceivedMessage>& out);

    SctpStreamOrdering<uint16_t> m_ordering; //!< by SSN (RFC 9260 6.6)
    std::map<uint32_t, Fragment, TsnLess> m_fragments;
    uint32_t m_fragmentBytes{0}; //!< user data of the fragments held
};

} // namespace ns3

#endif /* SCTP_REASSEMBLY_QUEUE_H */
