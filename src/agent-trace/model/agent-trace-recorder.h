/*
 * Agent-level send and receive events, as the "s"/"r" lines of an NS-2 trace with AGT.
 */
#ifndef AGENT_TRACE_RECORDER_H
#define AGENT_TRACE_RECORDER_H

#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/object.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Ipv4L3Protocol;
class Packet;

/**
 * \brief Transport packets as they leave the sending agent and reach the receiving one.
 *
 * NS-2's wireless trace writes an "s ... AGT" line when a transport agent hands a
 * packet to the node (before routing: a packet that waits for an AODV route has
 * already been sent) and an "r ... AGT" line when the destination's agent gets it.
 * In ns-3 these are Ipv4L3Protocol's SendOutgoing trace (the transport hands a packet
 * to IP; with AODV, before the route request) at the sending nodes and its
 * LocalDeliver trace at the receiving node. Each IP datagram is one event pair: a
 * retransmission is a new datagram, as it is a new packet uid in NS-2, so its delay
 * runs from its own send.
 *
 * Only packets to or from \p m_peer (the sink) are recorded, and only UDP, TCP and
 * SCTP ones that are not AODV's (UDP port 654). For each event: kind (0 sent,
 * 1 received), time, IP source and destination, IP identification, protocol,
 * transport bytes (header included) and payload bytes (TCP and UDP: after the
 * header; SCTP: after the 12-byte common header) and, for SCTP, the first chunk's
 * type (255 otherwise).
 */
class AgentTraceRecorder : public Object
{
  public:
    static TypeId GetTypeId();
    AgentTraceRecorder();
    ~AgentTraceRecorder() override;

    /** Record transport packets to or from \p peer only. */
    void SetPeer(Ipv4Address peer);
    /** Watch \p ipv4 (a node's IPv4) for sends and local deliveries. \return true if connected */
    bool Watch(Ptr<Ipv4L3Protocol> ipv4);

    uint32_t GetN() const;
    const std::vector<uint8_t>& GetKinds() const;
    const std::vector<int64_t>& GetTimesNs() const;
    const std::vector<uint32_t>& GetSources() const;
    const std::vector<uint32_t>& GetDestinations() const;
    const std::vector<uint16_t>& GetIdentifications() const;
    const std::vector<uint8_t>& GetProtocols() const;
    const std::vector<uint32_t>& GetSizes() const;
    const std::vector<uint32_t>& GetPayloads() const;
    const std::vector<uint8_t>& GetChunkTypes() const;

  private:
    void Record(uint8_t kind, const Ipv4Header& header, Ptr<const Packet> packet);

    Ipv4Address m_peer;
    std::vector<uint8_t> m_kinds;
    std::vector<int64_t> m_times;
    std::vector<uint32_t> m_sources;
    std::vector<uint32_t> m_destinations;
    std::vector<uint16_t> m_ids;
    std::vector<uint8_t> m_protocols;
    std::vector<uint32_t> m_sizes;
    std::vector<uint32_t> m_payloads;
    std::vector<uint8_t> m_chunkTypes;
};

} // namespace ns3

#endif /* AGENT_TRACE_RECORDER_H */
