/*
 * Send side data structures (RFC 9260 sections 6.1, 6.6, 6.9): user messages waiting to
 * be sent (held by an SctpStreamScheduler, which chooses the next one), and the DATA
 * chunks sent but not yet covered by the cumulative TSN ack, in TSN order so that a TSN
 * is found in O(1). Messages are fragmented lazily, when their chunks are first
 * transmitted; with DATA the scheduler finishes a message before it starts another, so
 * TSNs of one message stay consecutive; with I-DATA (RFC 8260) they may interleave with
 * those of messages of other streams. The chunk format (SctpDataFormat) numbers messages.
 */
#ifndef SCTP_TX_QUEUE_H
#define SCTP_TX_QUEUE_H

#include "sctp-data-format.h"
#include "sctp-message-tag.h"
#include "sctp-stream-scheduler.h"

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

/** \ingroup sctp \brief A user message accepted by Send(). */
class SctpOutboundMessage : public SimpleRefCount<SctpOutboundMessage>
{
  public:
    std::vector<uint8_t> data;
    uint16_t streamId{0};
    /** Stream sequence number; assigned when the first chunk is cut (ordered messages;
     * with I-DATA the low 16 bits of the MID). */
    uint16_t ssn{0};
    /** I-DATA message identifier (RFC 8260 2.1); assigned when the first chunk is cut. */
    uint32_t mid{0};
    uint32_t ppid{0};
    bool unordered{false};
    /** PR-SCTP policy (RFC 3758, RFC 7496): lifetime, retransmission limit or priority. */
    SctpPrPolicy prPolicy{SctpPrPolicy::NONE};
    uint32_t prValue{0};
    Time enqueueTime;
    uint32_t nextOffset{0}; //!< bytes already cut into chunks
    uint32_t firstTsn{0};   //!< TSN of the first chunk (valid when chunksCut > 0)
    uint32_t chunksCut{0};  //!< chunks that have a TSN
    uint32_t lastTsn{0};    //!< TSN of the last chunk cut (beyond firstTsn + chunksCut - 1
                            //!< when I-DATA interleaved other messages' chunks)
    bool abandoned{false};
};

/** \ingroup sctp \brief One DATA chunk that has a TSN. */
struct SctpTxChunk
{
    uint32_t tsn{0};
    Ptr<SctpOutboundMessage> message;
    uint32_t offset{0};  //!< first byte of this fragment in the message
    uint16_t length{0};  //!< user data bytes
    uint8_t flags{0};    //!< DATA chunk flags (B, E, U)
    uint8_t headerSize{16}; //!< chunk header bytes: 16 (DATA) or 20 (I-DATA)
    uint32_t fsn{0};     //!< I-DATA fragment sequence number (0 for the first fragment)
    uint32_t pathIndex{0}; //!< destination the chunk was last sent to
    uint32_t rtxPath{0};   //!< destination of its retransmission (when marked)
    uint16_t transmissions{0};
    uint8_t missIndications{0};
    bool gapAcked{false};
    bool markedForRetransmit{false};
    bool fastRetransmit{false};    //!< marked by fast retransmit (sent regardless of cwnd once)
    bool fastRetransmitted{false}; //!< already fast retransmitted once
    bool inFlight{false};          //!< counted in its path's flight size
    bool abandoned{false};         //!< PR-SCTP: given up, skipped by FORWARD TSN
    Time lastSent;

    /** Bytes this chunk occupies on the wire, padding included (header + data). */
    uint32_t GetWireSize() const
    {
        return (headerSize + length + 3u) & ~3u;
    }
};

/**
 * \ingroup sctp
 * \brief Queue of outbound messages and of outstanding (sent, not cum-acked) chunks.
 */
class SctpTxQueue
{
  public:
    /** With a first-come, first-served stream scheduler. */
    SctpTxQueue();

    void Initialize(uint32_t initialTsn, uint16_t outboundStreams);
    /**
     * Frame messages with \p format from now on (DATA by default; I-DATA once both ends
     * negotiated it). Set before any chunk is cut: its sequences start at 0.
     */
    void SetDataFormat(Ptr<SctpDataFormat> format);
    Ptr<SctpDataFormat> GetDataFormat() const;
    /** Take the messages of \p scheduler's choice first (before any is queued). */
    void SetScheduler(Ptr<SctpStreamScheduler> scheduler);
    Ptr<SctpStreamScheduler> GetScheduler() const;

    /** Queue a message (its SSN is assigned when its first chunk is cut). */
    void Enqueue(Ptr<SctpOutboundMessage> message);

    /** \return true if some message still has bytes without a TSN. */
    bool HasUnsentData() const;
    /** User bytes of the next chunk that NextChunk() would cut (0 if none). */
    uint32_t PeekNextChunkLength(uint32_t maxPayload) const;
    /**
     * Cut the next chunk (at most \p maxPayload user bytes) from the message the
     * scheduler chooses, give it the next TSN and append it to the outstanding chunks.
     */
    SctpTxChunk& NextChunk(uint32_t maxPayload);
    /** The packet being built, which holds chunks NextChunk() cut, is closed. */
    void PacketDone();

    std::deque<SctpTxChunk>& GetOutstanding();
    const std::deque<SctpTxChunk>& GetOutstanding() const;
    /** \return the outstanding chunk with \p tsn, or nullptr. */
    SctpTxChunk* Find(uint32_t tsn);
    /** Drop the chunks with TSN <= \p cumTsnAck from the front. */
    void PopAcked(uint32_t cumTsnAck);

    /** The next message, if none of it has a TSN yet (nullptr otherwise). */
    Ptr<SctpOutboundMessage> PeekUnsentMessage() const;
    /**
     * PR-SCTP: drop the bytes of \p message that have no TSN yet (the whole message if
     * it has none; its SSN is then never used). \return the bytes dropped.
     */
    uint32_t DropUnsent(Ptr<SctpOutboundMessage> message);
    /** Queued messages, oldest first (for the priority policy). */
    std::vector<Ptr<SctpOutboundMessage>> GetPending() const;
    /** Free the send-buffer space of an abandoned chunk (its bytes stay until acked). */
    void ReleaseAbandoned(uint32_t bytes);

    uint32_t GetNextTsn() const;
    /** Highest TSN assigned so far (next TSN - 1). */
    uint32_t GetHighestSentTsn() const;
    /** User bytes queued or outstanding: what the send buffer holds. */
    uint32_t GetBufferedBytes() const;
    uint32_t GetUnsentBytes() const;
    bool IsEmpty() const;
    uint16_t GetOutboundStreams() const;
    /** RFC 6525 5.1.2: the next message of \p streamId gets SSN 0. */
    void ResetSsn(uint16_t streamId);
    /** RFC 6525 5.1.5: \p count more outbound streams, each starting at SSN 0. */
    void AddStreams(uint16_t count);

  private:
    Ptr<SctpStreamScheduler> m_scheduler;
    Ptr<SctpDataFormat> m_format;
    std::deque<SctpTxChunk> m_outstanding;
    uint16_t m_outboundStreams{0};
    uint32_t m_nextTsn{0};
    uint32_t m_bufferedBytes{0};
    uint32_t m_unsentBytes{0};
    uint32_t m_abandonedBytes{0}; //!< bytes of abandoned chunks still outstanding
};

} // namespace ns3

#endif /* SCTP_TX_QUEUE_H */
