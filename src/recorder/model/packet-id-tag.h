/*
 * A packet tag that names one transmission of a packet: the flow it belongs to
 * and a number unique within the recorder that attached it.
 */
#ifndef PACKET_ID_TAG_H
#define PACKET_ID_TAG_H

#include "ns3/tag.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief Identifies one packet transmission across the hops of its path.
 *
 * ns-3 keeps the uid of a packet through copies and fragments, and TCP builds
 * a retransmission from the same buffered data, so the uid does not tell two
 * transmissions of the same bytes apart. NS-2 gives every transmission a new
 * uid, and the AWK scripts of the studies key their delay and jitter on it.
 * This tag is attached once, where a packet enters the network, and read
 * wherever the packet is observed later (routers, the destination).
 *
 * Packet tags survive copies, header changes and forwarding but are not
 * serialized on the wire (pcap traces do not show them).
 */
class PacketIdTag : public Tag
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    PacketIdTag();
    PacketIdTag(uint32_t flow, uint64_t id);

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer buffer) const override;
    void Deserialize(TagBuffer buffer) override;
    void Print(std::ostream& os) const override;

    /** \return the flow id given where the tag was attached. */
    uint32_t GetFlow() const;
    /** \return the transmission number (unique per recorder, increasing in time). */
    uint64_t GetId() const;

  private:
    uint32_t m_flow; //!< flow id
    uint64_t m_id;   //!< transmission number
};

} // namespace ns3

#endif // PACKET_ID_TAG_H
