/*
 * Receive side of I-DATA (RFC 8260 section 2.1): reassembly of user messages from
 * fragments named by (stream, U flag, MID, FSN) instead of consecutive TSNs, so that
 * fragments of messages of different streams may arrive interleaved; ordered messages
 * are delivered in MID order per stream, unordered ones as soon as they are complete.
 * I-FORWARD-TSN (RFC 8260 2.3) skips abandoned messages by their MID.
 *
 * The TSN map, SACKs and the receive window are SctpReceiver's as for DATA: the TSN
 * still counts every chunk. SctpReassemblyQueue remains the one for DATA chunks.
 */
#ifndef SCTP_IDATA_REASSEMBLY_QUEUE_H
#define SCTP_IDATA_REASSEMBLY_QUEUE_H

#include "sctp-chunk.h"
#include "sctp-stream-ordering.h"

#include <cstdint>
#include <deque>
#include <map>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \ingroup sctp
 * \brief Reassembly and per-stream ordered delivery of received I-DATA chunks.
 */
class SctpIDataReassemblyQueue
{
  public:
    /** \param inboundStreams number of inbound streams negotiated. */
    void Initialize(uint16_t inboundStreams);

    /**
     * Take a new I-DATA chunk (its TSN was not received before). Messages that become
     * deliverable are appended to \p out in delivery order.
     * \return false if the chunk contradicts fragments already held (it is dropped).
     */
    bool Add(const SctpIDataChunk& chunk, std::deque<SctpReceivedMessage>& out);

    /** Bytes of user data held for reassembly or waiting for an earlier MID. */
    uint32_t GetBufferedBytes() const;
    /** Next ordered MID expected on \p streamId. */
    uint32_t GetNextMid(uint16_t streamId) const;
    /** Messages of which some but not all fragments are held. */
    std::size_t GetPartialCount() const;

    /**
     * An I-FORWARD-TSN entry (RFC 8260 2.3.1): the messages of \p streamId with the
     * ordering \p unordered up to MID \p mid were abandoned. Their fragments are dropped;
     * for ordered messages, what is held up to \p mid is delivered and delivery goes on
     * after it.
     */
    void Skip(uint16_t streamId,
              bool unordered,
              uint32_t mid,
              std::deque<SctpReceivedMessage>& out);

    /**
     * A stream reset performed for the peer's Outgoing SSN Reset Request (RFC 6525
     * 5.2.2): the next ordered message expected on \p streamId has MID 0, because the
     * peer starts both its MID counters of the stream again at 0 (RFC 8260 2.3.2).
     */
    void ResetStream(uint16_t streamId);
    /** RFC 6525 5.2.5: \p count more inbound streams, each expecting MID 0. */
    void AddStreams(uint16_t count);

  private:
    /** A message being reassembled. */
    struct Partial
    {
        std::map<uint32_t, std::vector<uint8_t>> fragments; //!< by FSN
        bool haveFirst{false};
        uint32_t ppid{0};
        uint32_t firstTsn{0};
        bool haveLast{false};
        uint32_t lastFsn{0};
        uint32_t bytes{0};
    };

    /** (stream, unordered, MID) */
    using Key = std::tuple<uint16_t, bool, uint32_t>;

    /** A complete message: unordered to \p out at once, ordered by its MID. */
    void Deliver(SctpReceivedMessage&& message, std::deque<SctpReceivedMessage>& out);

    SctpStreamOrdering<uint32_t> m_ordering; //!< ordered messages by MID (RFC 8260 2.1)
    std::map<Key, Partial> m_partial;
    uint32_t m_partialBytes{0}; //!< user data of the fragments of partial messages
};

} // namespace ns3

#endif /* SCTP_IDATA_REASSEMBLY_QUEUE_H */
