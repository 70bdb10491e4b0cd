/*
 * Stream reconfiguration of an SCTP association (RFC 6525): the procedures of section 5
 * for the requests this endpoint sends (5.1) and those it receives (5.2), the request
 * sequence numbers, the responses and their result codes, and the retransmission of an
 * unanswered request on its own timer. The wire format is sctp-reconfig-chunk.h.
 *
 * What it changes belongs to the association's other parts: the outgoing SSNs and the
 * number of outbound streams are SctpTxQueue's, the incoming SSNs and inbound streams
 * SctpReassemblyQueue's; this class only decides when.
 *
 * Used only when both ends listed RE-CONFIG (chunk type 130) in their Supported
 * Extensions (SctpSocket ReconfigSupported), so nothing here runs by default.
 */
#ifndef SCTP_STREAM_RECONFIG_H
#define SCTP_STREAM_RECONFIG_H

#include "sctp-chunk.h"
#include "sctp-protocol-parameters.h"
#include "sctp-reconfig-chunk.h"
#include "sctp-tx-queue.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/socket.h"

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <vector>

namespace ns3
{

class SctpAssociation;

/**
 * \ingroup sctp
 * \brief Stream reconfiguration (RFC 6525) of an SctpAssociation.
 *
 * At most one RE-CONFIG request is outstanding at a time (as usrsctp does): a new
 * request while one waits for its response is refused with ERROR_AGAIN.
 */
class SctpStreamReconfig
{
  public:
    explicit SctpStreamReconfig(SctpAssociation& association);

    /**
     * A new association: request sequence numbers start at the initial TSNs (RFC 6525
     * 4.1: "initialized to the initial TSN"), nothing is outstanding.
     */
    void Initialize(uint32_t localInitialTsn, uint32_t peerInitialTsn);
    /** The association ended: the timer stops, held messages are dropped. */
    void Reset();
    void CancelTimers();

    /**
     * RFC 6525 section 3: list RE-CONFIG (130) in the Supported Extensions parameter of
     * an INIT or INIT ACK when \p config's reconfigSupported is on (added to the
     * parameter if there is one already).
     */
    static void Announce(const SctpAssociationConfig& config, std::vector<SctpTlv>& parameters);
    /** \return true if the INIT or INIT ACK lists RE-CONFIG in Supported Extensions. */
    static bool IsAnnounced(const SctpInitChunk& init);

    /** \name Requests of the user (RFC 6525 section 5.1, RFC 6458 8.3.x) */
    //!@{
    /**
     * Reset the SSNs of \p streams (all streams if empty): \p outgoing sends an Outgoing
     * SSN Reset Request (5.1.2) once the data already queued on them has its TSNs, new
     * messages on them wait until the peer answers; \p incoming asks the peer to reset
     * its outgoing streams (Incoming SSN Reset Request, 5.1.3). Both may go in one chunk.
     * \return ERROR_NOTERROR, ERROR_OPNOTSUPP (not negotiated), ERROR_NOTCONN (not
     *         established), ERROR_AGAIN (a request is outstanding) or ERROR_INVAL.
     */
    Socket::SocketErrno RequestStreamReset(const std::vector<uint16_t>& streams,
                                           bool outgoing,
                                           bool incoming);
    /** SSN/TSN Reset Request (5.1.4): only when none of our data is queued or
     *  unacknowledged (else ERROR_AGAIN); new messages wait for the answer. */
    Socket::SocketErrno RequestSsnTsnReset();
    /** Add Outgoing (5.1.5) and / or Incoming (5.1.6) Streams Requests. */
    Socket::SocketErrno RequestAddStreams(uint16_t outgoing, uint16_t incoming);
    //!@}

    /** \name Hooks of the association */
    //!@{
    /**
     * A user message accepted by Send(): \return true if it is held here because its
     * stream waits for an outgoing reset (RFC 6525 5.1.2: no new data on a stream being
     * reset); it is queued for sending when the peer answers.
     */
    bool HoldMessage(Ptr<SctpOutboundMessage> message);
    /** User bytes held by HoldMessage (they occupy the send buffer). */
    uint32_t GetHeldBytes() const;
    /** A RE-CONFIG chunk arrived (the association negotiated RE-CONFIG). */
    void HandleChunk(const SctpChunk& chunk);
    /**
     * The received packet's DATA is processed: a deferred reset of incoming streams
     * whose Sender's Last Assigned TSN the cumulative TSN now covers is performed (5.2.2).
     */
    void AfterDataPacket();
    /**
     * After a transmission opportunity: an outgoing reset whose streams have no unsent
     * data left is queued now. \return true if a RE-CONFIG chunk was queued.
     */
    bool QueueWaitingRequest();
    //!@}

    /** \name Inspection */
    //!@{
    bool HasOutstandingRequest() const;
    uint32_t GetNextRequestSequenceNumber() const;
    uint32_t GetRetransmissionCount() const;
    //!@}

  private:
    /** Queue \p parameters as one RE-CONFIG request chunk and start its timer. */
    void SendRequest(const std::vector<SctpReconfigParameter>& parameters);
    void SendResponses(const std::vector<SctpReconfigParameter>& responses);
    void OnTimer();
    void StartTimer();
    /** Our request \p sequenceNumber was answered with \p result (5.1, 5.2.7). */
    void Answered(uint32_t sequenceNumber, uint32_t result);
    /** A request of the peer: \return its response (none for an accepted Incoming SSN
     *  Reset Request, whose answer is our Outgoing SSN Reset Request, 5.2.3). */
    bool HandleRequest(const SctpReconfigParameter& request, SctpReconfigParameter& response);
    uint32_t ProcessRequest(const SctpReconfigParameter& request, bool& respond);
    /** Release the messages held for an outgoing reset, in the order they were sent. */
    void ReleaseHeld();
    bool IsHeldStream(uint16_t streamId) const;
    bool HasUnsentData(const std::vector<uint16_t>& streams) const;
    void ResetIncoming(const std::vector<uint16_t>& streams);

    SctpAssociation& m_association;
    uint32_t m_nextRequestSeq{0};  //!< our next Re-configuration Request Sequence Number
    uint32_t m_peerExpectedSeq{0}; //!< the next one expected from the peer (5.2.1)
    /** Results of the peer's last two requests, for their retransmissions (5.2.1);
     *  a result of UINT32_MAX: answered by our own Outgoing SSN Reset Request. */
    std::map<uint32_t, uint32_t> m_lastResults;

    // Our outstanding request
    std::vector<SctpReconfigParameter> m_outstanding; //!< requests waiting for an answer
    std::vector<uint8_t> m_requestBytes;              //!< the chunk, for retransmissions
    EventId m_timer;
    Time m_timeout;
    uint32_t m_retransmissions{0};

    // An outgoing reset waiting for its streams' queued data to get TSNs (5.1.2)
    bool m_outgoingWaiting{false};
    bool m_outgoingWithIncoming{false};      //!< send an Incoming request with it
    bool m_answersIncoming{false};           //!< it answers the peer's Incoming request
    uint32_t m_answeredSeq{0};               //!< that request's sequence number
    std::vector<uint16_t> m_resetStreams;    //!< streams of the outgoing reset (empty: all)
    bool m_holding{false};                   //!< new messages on m_resetStreams are held
    std::deque<Ptr<SctpOutboundMessage>> m_held;
    uint32_t m_heldBytes{0};

    // SSN/TSN reset (5.2.4): the TSNs of the answer we gave, and of the answer we got
    uint32_t m_tsnResetSenderNext{0};
    uint32_t m_tsnResetReceiverNext{0};
    std::set<uint32_t> m_performedTsnReset;
    bool m_answerHasTsns{false};
    uint32_t m_answerSenderNextTsn{0};
    uint32_t m_answerReceiverNextTsn{0};

    // A reset of incoming streams deferred until the cumulative TSN reaches the
    // Sender's Last Assigned TSN (5.2.2)
    bool m_deferred{false};
    uint32_t m_deferredSeq{0};
    uint32_t m_deferredTsn{0};
    std::vector<uint16_t> m_deferredStreams;
};

} // namespace ns3

#endif /* SCTP_STREAM_RECONFIG_H */
