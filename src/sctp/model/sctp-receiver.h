/*
 * The receive side of an SCTP association (RFC 9260 sections 6.2, 6.5, 6.7, 6.9; RFC 3758
 * 3.6): acceptance of DATA chunks into the TSN map (duplicates, the window, invalid
 * streams), reassembly and ordered delivery through SctpReassemblyQueue, the delayed or
 * immediate SACK with gap blocks and duplicate TSNs, and FORWARD TSN.
 *
 * I-DATA (RFC 8260 2.1) is accepted by the same rules (Accept) and reassembled by
 * message identifier and fragment sequence number in SctpIDataReassemblyQueue; the TSN
 * map, SACKs and window are the same; I-FORWARD-TSN (RFC 8260 2.3) skips by MID.
 */
#ifndef SCTP_RECEIVER_H
#define SCTP_RECEIVER_H

#include "sctp-chunk.h"
#include "sctp-header.h"
#include "sctp-idata-reassembly-queue.h"
#include "sctp-reassembly-queue.h"
#include "sctp-tsn-map.h"

#include "ns3/event-id.h"

#include <cstdint>
#include <deque>
#include <string>

namespace ns3
{

class SctpAssociation;

/**
 * \ingroup sctp
 * \brief Receive side of an SctpAssociation.
 */
class SctpReceiver
{
  public:
    explicit SctpReceiver(SctpAssociation& association);

    /** The peer's Initial TSN and the negotiated inbound streams (5.1). */
    void Initialize(uint32_t peerInitialTsn, uint16_t inboundStreams);
    void CancelTimers();

    /**
     * A DATA chunk (6.2). \p needImmediateSack / \p gotNewData are set as the chunk
     * requires. \return false if the association was aborted (stop processing the packet).
     */
    bool HandleData(const SctpChunk& chunk, bool& needImmediateSack, bool& gotNewData);
    /** An I-DATA chunk (RFC 8260 2.1); as HandleData. */
    bool HandleIData(const SctpChunk& chunk, bool& needImmediateSack, bool& gotNewData);
    /** I-DATA was negotiated (RFC 8260 2.2): accept I-DATA, and DATA no more. */
    void SetIData(bool iData);
    /** An I-FORWARD-TSN chunk (RFC 8260 2.3). */
    void HandleIForwardTsn(const SctpChunk& chunk, bool& needImmediateSack);
    /** A FORWARD TSN chunk (RFC 3758 3.6). */
    void HandleForwardTsn(const SctpChunk& chunk, bool& needImmediateSack);
    /** The packet that carried DATA is processed: SACK now or start the delayed SACK
     * timer (6.2), and hand complete messages to the socket. */
    void AfterDataPacket(bool hadNewData, bool needImmediateSack);

    /** A SACK is due with the next packet. */
    bool IsSackNeeded() const;
    /** Send a SACK with the next packet (a FORWARD TSN, a window update). */
    void RequestSack();
    /** Write the SACK (6.2, 3.3.4) within \p room bytes of chunk space of the packet. */
    void BuildSack(SctpByteWriter& w, uint32_t room);

    /** The window to advertise (a_rwnd): the receive buffer minus what it holds. */
    uint32_t GetAdvertisedWindow() const;
    /** The a_rwnd of the last SACK sent (the initial one from INIT / INIT ACK before). */
    uint32_t GetLastAdvertisedWindow() const;
    uint32_t GetCumulativeTsn() const;
    uint32_t GetForwardTsnReceivedCount() const;
    const SctpTsnMap& GetTsnMap() const;
    const SctpReassemblyQueue& GetReassemblyQueue() const;
    const SctpIDataReassemblyQueue& GetIDataReassemblyQueue() const;
    /**
     * Stream reconfiguration (RFC 6525 5.2.2): the next message expected on inbound
     * stream \p streamId is numbered 0, its SSN with DATA, its MID with I-DATA (RFC 8260
     * 2.3.2).
     */
    void ResetInboundStream(uint16_t streamId);
    /** Stream reconfiguration (RFC 6525 5.2.5): \p count more inbound streams. */
    void AddInboundStreams(uint16_t count);
    /** "" when the receive side's bookkeeping is consistent, else what is wrong. */
    std::string CheckInvariants() const;

  private:
    /** What to do with a received DATA or I-DATA chunk once its TSN is checked. */
    enum Acceptance
    {
        REASSEMBLE, //!< new data on a valid stream
        DISCARD,    //!< duplicate, beyond the window, invalid stream, not ready
        ABORTED,    //!< the association was aborted (no user data)
    };

    /** The rules of section 6.2 that DATA and I-DATA share: state, empty chunk, TSN map,
     * window, gaps, invalid stream (6.5). */
    Acceptance Accept(uint32_t tsn,
                      uint8_t flags,
                      uint16_t streamId,
                      uint16_t payloadLength,
                      bool& needImmediateSack,
                      bool& gotNewData);
    /**
     * What FORWARD TSN (RFC 3758 3.6) and I-FORWARD-TSN (RFC 8260 2.3.1) share: only in a
     * state that takes data, counted, always answered by an immediate SACK, ignored when
     * \p newCumTsn is stale or beyond the receive window, else the TSN map moves to it.
     * \return true if the caller goes on to skip the abandoned messages.
     */
    bool AcceptForwardTsn(uint32_t newCumTsn, bool& needImmediateSack);
    void OnDelayedSackTimer();
    /** Messages reassembly completed go to the socket. \return true if its queue grew. */
    bool Deliver();

    SctpAssociation& m_association;
    SctpTsnMap m_tsnMap;
    SctpReassemblyQueue m_reassembly;
    SctpIDataReassemblyQueue m_iReassembly;
    bool m_iData{false}; //!< I-DATA negotiated (RFC 8260 2.2)
    std::deque<SctpReceivedMessage> m_complete; //!< scratch: messages just completed
    bool m_sackNeeded{false};
    uint32_t m_packetsSinceSack{0};
    bool m_dataReceived{false}; //!< a DATA chunk of the association was accepted (5.1)
    EventId m_sackTimer;
    uint32_t m_lastAdvertisedWindow{0};
    SctpSackChunk m_sackOut; //!< scratch: the SACK being built
    uint32_t m_forwardTsnReceived{0};
};

} // namespace ns3

#endif /* SCTP_RECEIVER_H */
