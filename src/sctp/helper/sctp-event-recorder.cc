#include "sctp-event-recorder.h"

#include "ns3/callback.h"
#include "ns3/sctp-chunk.h"
#include "ns3/sctp-l4-protocol.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SctpEventRecorder);

TypeId
SctpEventRecorder::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpEventRecorder")
                            .SetParent<Object>()
                            .SetGroupName("Sctp")
                            .AddConstructor<SctpEventRecorder>();
    return tid;
}

SctpEventRecorder::SctpEventRecorder() = default;

void
SctpEventRecorder::DoDispose()
{
    m_watched.clear();
    Object::DoDispose();
}

void
SctpEventRecorder::SetDataChunksOnly(bool only)
{
    m_dataOnly = only;
}

bool
SctpEventRecorder::WatchNode(Ptr<Node> node, uint32_t nodeTag)
{
    Ptr<SctpL4Protocol> sctp = node ? node->GetObject<SctpL4Protocol>() : nullptr;
    if (!sctp)
    {
        return false;
    }
    // Sockets are created by applications when they start and by listening sockets
    // when an association arrives: watch them as they appear.
    return sctp->TraceConnectWithoutContext(
        "SocketCreated",
        MakeCallback(&SctpEventRecorder::OnSocketCreated, this).Bind(nodeTag));
}

void
SctpEventRecorder::OnSocketCreated(uint32_t nodeTag, Ptr<SctpSocket> socket)
{
    if (m_socketsPerNode.size() <= nodeTag)
    {
        m_socketsPerNode.resize(nodeTag + 1, 0);
    }
    WatchSocket(socket, nodeTag, m_socketsPerNode[nodeTag]++);
}

void
SctpEventRecorder::WatchSocket(Ptr<SctpSocket> socket, uint32_t nodeTag, uint32_t ordinal)
{
    socket->TraceConnectWithoutContext("ChunkPath",
                                       MakeCallback(&SctpEventRecorder::OnChunk, this).Bind(nodeTag, ordinal));
    socket->TraceConnectWithoutContext(
        "PathEvent",
        MakeCallback(&SctpEventRecorder::OnPathEvent, this).Bind(nodeTag, ordinal));
    socket->TraceConnectWithoutContext("Deliver",
                                       MakeCallback(&SctpEventRecorder::OnDeliver, this).Bind(nodeTag, ordinal));
    socket->TraceConnectWithoutContext("Abandon",
                                       MakeCallback(&SctpEventRecorder::OnAbandon, this).Bind(nodeTag, ordinal));
    m_watched.push_back(socket);
}

void
SctpEventRecorder::OnChunk(uint32_t node, uint32_t socketOrdinal, uint8_t type, uint32_t tsn, uint32_t path, bool rtx)
{
    if (m_dataOnly && type != SctpChunk::DATA && type != SctpChunk::I_DATA) // RFC 8260 2.1
    {
        return;
    }
    m_chunkTime.push_back(Simulator::Now().GetNanoSeconds());
    m_chunkNode.push_back(node);
    m_chunkSocket.push_back(socketOrdinal);
    m_chunkType.push_back(type);
    m_chunkTsn.push_back(tsn);
    m_chunkPath.push_back(path);
    m_chunkRtx.push_back(rtx ? 1 : 0);
}

void
SctpEventRecorder::OnPathEvent(uint32_t node, uint32_t socketOrdinal, uint32_t path, SctpPathEvent event)
{
    m_pathTime.push_back(Simulator::Now().GetNanoSeconds());
    m_pathNode.push_back(node);
    m_pathSocket.push_back(socketOrdinal);
    m_pathIndex.push_back(path);
    m_pathEvent.push_back(static_cast<uint8_t>(event));
}

void
SctpEventRecorder::OnDeliver(uint32_t node,
                   uint32_t socketOrdinal,
                             Ptr<const Packet> message,
                             uint16_t stream,
                             uint16_t ssn,
                             uint32_t tsn)
{
    m_deliverTime.push_back(Simulator::Now().GetNanoSeconds());
    m_deliverNode.push_back(node);
    m_deliverSocket.push_back(socketOrdinal);
    m_deliverTsn.push_back(tsn);
    m_deliverStream.push_back(stream);
    m_deliverSsn.push_back(ssn);
    m_deliverSize.push_back(message ? message->GetSize() : 0);
}

void
SctpEventRecorder::OnAbandon(uint32_t node,
                   uint32_t socketOrdinal,
                             uint16_t stream,
                             uint16_t ssn,
                             uint32_t tsn,
                             uint32_t size,
                             SctpPrPolicy policy)
{
    m_abandonTime.push_back(Simulator::Now().GetNanoSeconds());
    m_abandonNode.push_back(node);
    m_abandonSocket.push_back(socketOrdinal);
    m_abandonStream.push_back(stream);
    m_abandonSsn.push_back(ssn);
    m_abandonTsn.push_back(tsn);
    m_abandonSize.push_back(size);
    m_abandonPolicy.push_back(static_cast<uint8_t>(policy));
}

// clang-format off
const std::vector<int64_t>& SctpEventRecorder::GetChunkTimesNs() const { return m_chunkTime; }
const std::vector<uint32_t>& SctpEventRecorder::GetChunkNodes() const { return m_chunkNode; }
const std::vector<uint32_t>& SctpEventRecorder::GetChunkSockets() const { return m_chunkSocket; }
const std::vector<uint8_t>& SctpEventRecorder::GetChunkTypes() const { return m_chunkType; }
const std::vector<uint32_t>& SctpEventRecorder::GetChunkTsns() const { return m_chunkTsn; }
const std::vector<uint32_t>& SctpEventRecorder::GetChunkPaths() const { return m_chunkPath; }
const std::vector<uint8_t>& SctpEventRecorder::GetChunkRetransmissions() const { return m_chunkRtx; }
const std::vector<int64_t>& SctpEventRecorder::GetPathTimesNs() const { return m_pathTime; }
const std::vector<uint32_t>& SctpEventRecorder::GetPathNodes() const { return m_pathNode; }
const std::vector<uint32_t>& SctpEventRecorder::GetPathSockets() const { return m_pathSocket; }
const std::vector<uint32_t>& SctpEventRecorder::GetPathIndices() const { return m_pathIndex; }
const std::vector<uint8_t>& SctpEventRecorder::GetPathEvents() const { return m_pathEvent; }
const std::vector<int64_t>& SctpEventRecorder::GetDeliverTimesNs() const { return m_deliverTime; }
const std::vector<uint32_t>& SctpEventRecorder::GetDeliverNodes() const { return m_deliverNode; }
const std::vector<uint32_t>& SctpEventRecorder::GetDeliverSockets() const { return m_deliverSocket; }
const std::vector<uint32_t>& SctpEventRecorder::GetDeliverTsns() const { return m_deliverTsn; }
const std::vector<uint16_t>& SctpEventRecorder::GetDeliverStreams() const { return m_deliverStream; }
const std::vector<uint16_t>& SctpEventRecorder::GetDeliverSsns() const { return m_deliverSsn; }
const std::vector<uint32_t>& SctpEventRecorder::GetDeliverSizes() const { return m_deliverSize; }
const std::vector<int64_t>& SctpEventRecorder::GetAbandonTimesNs() const { return m_abandonTime; }
const std::vector<uint32_t>& SctpEventRecorder::GetAbandonNodes() const { return m_abandonNode; }
const std::vector<uint32_t>& SctpEventRecorder::GetAbandonSockets() const { return m_abandonSocket; }
const std::vector<uint16_t>& SctpEventRecorder::GetAbandonStreams() const { return m_abandonStream; }
const std::vector<uint16_t>& SctpEventRecorder::GetAbandonSsns() const { return m_abandonSsn; }
const std::vector<uint32_t>& SctpEventRecorder::GetAbandonTsns() const { return m_abandonTsn; }
const std::vector<uint32_t>& SctpEventRecorder::GetAbandonSizes() const { return m_abandonSize; }
const std::vector<uint8_t>& SctpEventRecorder::GetAbandonPolicies() const { return m_abandonPolicy; }
// clang-format on

} // namespace ns3
