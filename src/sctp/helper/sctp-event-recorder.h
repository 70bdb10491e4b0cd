/*
 * Records what SCTP associations do, for notebooks and tests: every chunk sent with the
 * destination (path) it went to, path events (failover, return, confirmation), messages
 * delivered to the application queue and messages abandoned by PR-SCTP. Columns are
 * read by Python once after the run (transportlab.ns3.sctp_recording).
 */
#ifndef SCTP_EVENT_RECORDER_H
#define SCTP_EVENT_RECORDER_H

#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/sctp-socket.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup sctp
 * \brief Trace sink for SctpSocket's ChunkPath, PathEvent, Deliver and Abandon sources.
 */
class SctpEventRecorder : public Object
{
  public:
    static TypeId GetTypeId();
    SctpEventRecorder();

    /**
     * Watch every SCTP socket created on \p node from now on (application sockets and
     * the associations a listening socket accepts). Events carry \p nodeTag and the
     * socket's ordinal on that node (0, 1, ...).
     */
    bool WatchNode(Ptr<Node> node, uint32_t nodeTag);
    /** Watch one existing socket. */
    void WatchSocket(Ptr<SctpSocket> socket, uint32_t nodeTag, uint32_t ordinal);
    /** Record only DATA and I-DATA chunks in the chunk table (HEARTBEATs, SACKs... are left
     * out). */
    void SetDataChunksOnly(bool only);

    /** \name Chunks sent */
    //!@{
    const std::vector<int64_t>& GetChunkTimesNs() const;
    const std::vector<uint32_t>& GetChunkNodes() const;
    const std::vector<uint32_t>& GetChunkSockets() const;
    const std::vector<uint8_t>& GetChunkTypes() const;
    const std::vector<uint32_t>& GetChunkTsns() const;
    const std::vector<uint32_t>& GetChunkPaths() const;
    const std::vector<uint8_t>& GetChunkRetransmissions() const;
    //!@}

    /** \name Path events */
    //!@{
    const std::vector<int64_t>& GetPathTimesNs() const;
    const std::vector<uint32_t>& GetPathNodes() const;
    const std::vector<uint32_t>& GetPathSockets() const;
    const std::vector<uint32_t>& GetPathIndices() const;
    const std::vector<uint8_t>& GetPathEvents() const;
    //!@}

    /** \name Messages delivered to the receive queue */
    //!@{
    const std::vector<int64_t>& GetDeliverTimesNs() const;
    const std::vector<uint32_t>& GetDeliverNodes() const;
    const std::vector<uint32_t>& GetDeliverSockets() const;
    const std::vector<uint32_t>& GetDeliverTsns() const;
    const std::vector<uint16_t>& GetDeliverStreams() const;
    const std::vector<uint16_t>& GetDeliverSsns() const;
    const std::vector<uint32_t>& GetDeliverSizes() const;
    //!@}

    /** \name Messages abandoned (PR-SCTP) */
    //!@{
    const std::vector<int64_t>& GetAbandonTimesNs() const;
    const std::vector<uint32_t>& GetAbandonNodes() const;
    const std::vector<uint32_t>& GetAbandonSockets() const;
    const std::vector<uint16_t>& GetAbandonStreams() const;
    const std::vector<uint16_t>& GetAbandonSsns() const;
    const std::vector<uint32_t>& GetAbandonTsns() const;
    const std::vector<uint32_t>& GetAbandonSizes() const;
    const std::vector<uint8_t>& GetAbandonPolicies() const;
    //!@}

  protected:
    void DoDispose() override;

  private:
    void OnSocketCreated(uint32_t nodeTag, Ptr<SctpSocket> socket);
    void OnChunk(uint32_t node, uint32_t socketOrdinal, uint8_t type, uint32_t tsn, uint32_t path, bool rtx);
    void OnPathEvent(uint32_t node, uint32_t socketOrdinal, uint32_t path, SctpPathEvent event);
    void OnDeliver(uint32_t node, uint32_t socketOrdinal, Ptr<const Packet> message, uint16_t stream, uint16_t ssn, uint32_t tsn);
    void OnAbandon(uint32_t node,
                   uint32_t socketOrdinal,
                   uint16_t stream,
                   uint16_t ssn,
                   uint32_t tsn,
                   uint32_t size,
                   SctpPrPolicy policy);

    bool m_dataOnly{false};
    std::vector<uint32_t> m_socketsPerNode; //!< ordinals handed out, by node tag
    std::vector<Ptr<SctpSocket>> m_watched;

    std::vector<int64_t> m_chunkTime;
    std::vector<uint32_t> m_chunkNode;
    std::vector<uint32_t> m_chunkSocket;
    std::vector<uint8_t> m_chunkType;
    std::vector<uint32_t> m_chunkTsn;
    std::vector<uint32_t> m_chunkPath;
    std::vector<uint8_t> m_chunkRtx;

    std::vector<int64_t> m_pathTime;
    std::vector<uint32_t> m_pathNode;
    std::vector<uint32_t> m_pathSocket;
    std::vector<uint32_t> m_pathIndex;
    std::vector<uint8_t> m_pathEvent;

    std::vector<int64_t> m_deliverTime;
    std::vector<uint32_t> m_deliverNode;
    std::vector<uint32_t> m_deliverSocket;
    std::vector<uint32_t> m_deliverTsn;
    std::vector<uint16_t> m_deliverStream;
    std::vector<uint16_t> m_deliverSsn;
    std::vector<uint32_t> m_deliverSize;

    std::vector<int64_t> m_abandonTime;
    std::vector<uint32_t> m_abandonNode;
    std::vector<uint32_t> m_abandonSocket;
    std::vector<uint16_t> m_abandonStream;
    std::vector<uint16_t> m_abandonSsn;
    std::vector<uint32_t> m_abandonTsn;
    std::vector<uint32_t> m_abandonSize;
    std::vector<uint8_t> m_abandonPolicy;
};

} // namespace ns3

#endif /* SCTP_EVENT_RECORDER_H */
