/*
 * The send side of an SCTP association (RFC 9260 sections 6.1-6.4, 6.9, 6.10, 7; RFC
 * 3758 and RFC 7496 for PR-SCTP): the transmission queue (user messages and
 * outstanding DATA chunks), the peer's receiver window, the cumulative TSN ack point,
 * SACK processing with gap blocks and reneging, fast retransmit and fast recovery,
 * retransmission marks after T3-rtx expiries, zero window probing, Max.Burst, PR-SCTP
 * (abandoning, Advanced.Peer.Ack.Point, FORWARD TSN) and the bundling of every packet
 * that may carry DATA.
 *
 * RFC 8260: the order in which messages of several streams are sent is the
 * SctpStreamScheduler's (SctpTxQueue asks it for the next message); the chunk format,
 * DATA or I-DATA with FORWARD TSN or I-FORWARD-TSN, is an SctpDataFormat that SetIData
 * chooses once the handshake is done.
 */
#ifndef SCTP_SENDER_H
#define SCTP_SENDER_H

#include "sctp-chunk.h"
#include "sctp-header.h"
#include "sctp-message-tag.h"
#include "sctp-tx-queue.h"

#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

class SctpAssociation;
class SctpPath;
class SctpStreamScheduler;

/**
 * \ingroup sctp
 * \brief Send side of an SctpAssociation.
 */
class SctpSender
{
  public:
    explicit SctpSender(SctpAssociation& association);

    /** A new association: \p initialTsn and \p outboundStreams, nothing queued. */
    void Initialize(uint32_t initialTsn, uint16_t outboundStreams);
    /** The peer's a_rwnd from INIT / INIT ACK: its window and its buffer size. */
    void SetPeerInitialWindow(uint32_t peerRwnd);
    /** The association ended: outstanding data is dropped, flight sizes emptied. */
    void Reset();
    /** The stream scheduler of SctpTxQueue (the default is first-come first-served). */
    void SetStreamScheduler(Ptr<SctpStreamScheduler> scheduler);
    Ptr<SctpStreamScheduler> GetStreamScheduler() const;

    /**
     * Frame user data as I-DATA (RFC 8260 2.1, with I-FORWARD-TSN, 2.3) or as DATA, and
     * let the stream scheduler interleave messages when I-DATA is used. Called once the
     * handshake has told what both ends support, before any data is sent.
     */
    void SetIData(bool iData);

    /** Queue a user message (the association checked it). */
    void Enqueue(Ptr<SctpOutboundMessage> message);
    /**
     * RFC 7496 4.3: abandon queued messages of lower priority until \p size bytes fit
     * in the socket's send buffer. \return true if they do.
     */
    bool MakeRoomByPriority(uint32_t size, uint32_t priority);

    /**
     * A transmission opportunity (6.1): replies and control chunks, fast
     * retransmissions, retransmissions to other destinations, then new data to the data
     * path, at most Max.Burst packets of it.
     */
    void SendPending();

    /** A SACK chunk (6.2.1). */
    void HandleSack(const SctpChunk& chunk);
    /** The cumulative TSN ack of a SHUTDOWN chunk (9.2). */
    void ProcessCumulativeAck(uint32_t cumTsnAck);
    /** T3-rtx of \p path expired (6.3.3). */
    void OnT3Expired(SctpPath& path);
    /** A retransmission timeout on \p path (T3-rtx or T2-shutdown): congestion control
     * (7.2.3), RTO back-off (E2) and no RTT measurement across it. */
    void BackOff(SctpPath& path);

    /** \name Inspection */
    //!@{
    bool IsEmpty() const;
    uint32_t GetBufferedBytes() const;
    uint32_t GetNextTsn() const;
    uint32_t GetCumulativeTsnAcked() const;
    uint32_t GetPeerRwnd() const;
    /** The peer's a_rwnd from INIT / INIT ACK (the size of its receive buffer). */
    uint32_t GetPeerInitialRwnd() const;
    bool IsInFastRecovery() const;
    uint32_t GetFastRetransmitCount() const;
    uint32_t GetTimeoutCount() const;
    uint32_t GetRetransmittedChunkCount() const;
    uint32_t GetAdvancedPeerAckPoint() const;
    uint32_t GetAbandonedMessageCount() const;
    uint32_t GetAbandonedUnsentCount() const;
    uint32_t GetForwardTsnSentCount() const;
    bool HasForwardTsnPending() const;
    /** User bytes of the DATA chunk to be sent next (a retransmission first; 0 if none). */
    uint32_t NextChunkLength() const;
    /** Bytes in flight on every destination. */
    uint32_t GetTotalFlight() const;
    /** The queue (stream reconfiguration resets and adds its streams' SSNs, RFC 6525). */
    SctpTxQueue& GetTxQueue()
    {
        return m_txQueue;
    }
    const SctpTxQueue& GetTxQueue() const
    {
        return m_txQueue;
    }
    /** "" when the send side's bookkeeping is consistent, else what is wrong. */
    std::string CheckInvariants() const;
    //!@}

  private:
    uint32_t GetMaxPayload(const SctpPath& path) const;
    bool BuildAndSendPacket(SctpPath& path,
                            bool fastRetransmitOnly,
                            bool allowNewData,
                            bool& sentNewData);
    void WriteForwardTsn(SctpByteWriter& w, SctpPath& path);
    void TransmitChunk(SctpTxChunk& chunk, SctpPath& path, bool retransmission);
    /** The chunk header and user data of \p chunk (DATA or I-DATA, SctpDataFormat). */
    void SerializeDataChunk(SctpByteWriter& w, const SctpTxChunk& chunk) const;
    void HandleSackAcked(uint32_t cumTsnAck,
                         uint32_t aRwnd,
                         const std::vector<std::pair<uint16_t, uint16_t>>& gaps,
                         bool fromShutdown);
    /**
     * A newly acknowledged chunk leaves the flight and is credited to a destination;
     * \p wasMarked: it was marked for retransmission when the acknowledgement came (its
     * last transmission was classified lost; it belongs to the destination it was moved
     * to).
     */
    void AckChunk(SctpTxChunk& chunk, Time now, bool wasMarked);
    void MarkForRetransmit(SctpTxChunk& chunk, bool fast, uint32_t target);

    // ---- sctp-sender-prsctp.cc: partial reliability (RFC 3758, RFC 7496)
    bool PolicyAbandons(const SctpTxChunk& chunk, Time now) const;
    void AbandonMessage(Ptr<SctpOutboundMessage> message, SctpPrPolicy reason);
    void AbandonExpiredUnsent(Time now);
    void AdvancePeerAckPoint(Time now);
    void QueueForwardTsn();

    SctpAssociation& m_association;
    SctpTxQueue m_txQueue;
    uint32_t m_peerRwnd{0};
    uint32_t m_peerInitialRwnd{0}; //!< the peer's a_rwnd from INIT / INIT ACK (its buffer)
    uint32_t m_cumTsnAcked{0};
    bool m_fastRecovery{false};
    uint32_t m_fastRecoveryExit{0};
    bool m_fastRtxPending{false};      //!< send one packet of fast retransmissions now
    uint32_t m_markedForRetransmit{0}; //!< chunks marked for retransmission
    uint32_t m_gapAckedChunks{0};      //!< outstanding chunks currently gap-acked
    bool m_zeroWindowProbe{false}; //!< a DATA chunk was sent into a closed window (6.1 A)
    bool m_sackDuringProbe{false}; //!< and the peer has SACKed since (it is alive)
    uint32_t m_advancedPeerAckPoint{0}; //!< RFC 3758 Advanced.Peer.Ack.Point
    bool m_forwardTsnPending{false};    //!< a FORWARD TSN is to lead the next packet
    bool m_abandonedSpace{false};       //!< abandoning freed send buffer: tell the user

    // Scratch, reused for every packet and SACK
    std::vector<uint8_t> m_txBuffer;
    SctpSackChunk m_sackIn;
    std::vector<uint32_t> m_ackedPerPath;
    /** The SACK being processed acknowledges a chunk sent to the destination once and
     * not moved elsewhere: its error counter is cleared (8.2, AckChunk). */
    std::vector<uint8_t> m_deliveredPerPath;
    std::vector<uint32_t> m_flightBefore;
    std::vector<std::pair<uint32_t, uint32_t>> m_gapRanges; //!< absolute TSN ranges
    std::vector<uint32_t> m_reneged;      //!< TSNs reneged by the SACK being processed
    std::vector<uint32_t> m_fastRtxReduce; //!< paths whose cwnd a fast retransmit cuts

    // Counters
    uint32_t m_fastRetransmits{0};
    uint32_t m_timeouts{0};
    uint32_t m_retransmittedChunks{0};
    uint32_t m_abandonedMessages{0};
    uint32_t m_abandonedUnsent{0};
    uint32_t m_forwardTsnSent{0};
};

} // namespace ns3

#endif /* SCTP_SENDER_H */
