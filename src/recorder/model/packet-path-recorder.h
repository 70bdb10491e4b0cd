/*
 * Per-packet events at chosen measurement points along the packets' paths
 * (a source device, a router queue, the destination device), recorded in C++
 * and handed to Python in bulk.
 */
#ifndef PACKET_PATH_RECORDER_H
#define PACKET_PATH_RECORDER_H

#include "packet-id-tag.h"

#include "ns3/object.h"
#include "ns3/packet.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class QueueDiscItem;

/**
 * \brief Records where and when each packet transmission passes chosen points.
 *
 * The network-layer view of a flow that NS-2's trace files give (an "+"
 * event when the source node queues a packet on its link, "r" when the
 * destination node receives it, "d" when a queue drops it), keyed by a number
 * that is unique per transmission, as NS-2's packet uid is:
 *
 * - WatchOrigin() tags every packet passing a trace source with a
 *   PacketIdTag (flow id given by the user, transmission number from a counter
 *   of this recorder) and records it. Attach it where packets enter the
 *   network, e.g. the "MacTx" source of the sending node's device.
 * - Watch() records every tagged packet passing a trace source, e.g. "MacRx"
 *   of the destination's device, "PhyTxBegin" of a router's device, "TcDrop"
 *   of a router's TrafficControlLayer or "Drop" of a queue disc. Untagged
 *   packets (e.g. the acknowledgements of the reverse direction) are counted
 *   but not recorded.
 *
 * Each row holds the point (a small number chosen by the user), the flow id,
 * the transmission number, the size in bytes as seen at that point (the
 * MacTx, MacRx and Phy* sources of a PointToPointNetDevice see the frame with
 * its 2-byte PPP header; a queue disc item counts its IP header; TcDrop sees
 * the packet without its IP header) and the time.
 *
 * Supported trace sources have the signature of "ns3::Packet::TracedCallback"
 * (one Ptr<const Packet>) or the Enqueue, Dequeue, Requeue and Drop sources of
 * a QueueDisc (one Ptr<const QueueDiscItem>); anything else is refused with a
 * false return value instead of the fatal error a mismatched callback causes.
 */
class PacketPathRecorder : public Object
{
  public:
    static TypeId GetTypeId();
    PacketPathRecorder();
    ~PacketPathRecorder() override;

    /**
     * Tag untagged packets passing \p traceSource of \p object as flow
     * \p flowId and record them at \p point.
     * \return false if the trace source does not exist or has another signature.
     */
    bool WatchOrigin(Ptr<Object> object,
                     const std::string& traceSource,
                     uint32_t flowId,
                     uint8_t point);

    /**
     * Record tagged packets passing \p traceSource of \p object at \p point.
     * \return false if the trace source does not exist or has another signature.
     */
    bool Watch(Ptr<Object> object, const std::string& traceSource, uint8_t point);

    /** \return number of recorded events. */
    std::size_t GetN() const;
    /** \return number of untagged packets seen at Watch() points (not recorded). */
    uint64_t GetUntagged() const;
    /** \return number of transmission numbers handed out so far. */
    uint64_t GetTagged() const;
    /** Forget all recorded events (watched sources stay connected, numbering goes on). */
    void Clear();

    // Column accessors; all have GetN() elements.
    const std::vector<uint8_t>& GetPoints() const;
    const std::vector<uint32_t>& GetFlows() const;
    const std::vector<uint64_t>& GetIds() const;
    const std::vector<uint32_t>& GetSizes() const;
    /** Event times in nanoseconds. */
    const std::vector<int64_t>& GetTimesNs() const;

  protected:
    void DoDispose() override;

  private:
    /** Which kind of callback a trace source takes (0: unsupported). */
    enum SourceKind : uint8_t
    {
        UNSUPPORTED = 0,
        PACKET = 1,
        QUEUE_DISC_ITEM = 2,
    };

    static SourceKind Classify(Ptr<Object> object, const std::string& traceSource);
    void Reserve();
    void Append(uint8_t point, const PacketIdTag& tag, uint32_t size);
    void OriginPacket(uint32_t flowId, uint8_t point, Ptr<const Packet> packet);
    void OriginItem(uint32_t flowId, uint8_t point, Ptr<const QueueDiscItem> item);
    void SeenPacket(uint8_t point, Ptr<const Packet> packet);
    void SeenItem(uint8_t point, Ptr<const QueueDiscItem> item);

    std::vector<uint8_t> m_points;
    std::vector<uint32_t> m_flows;
    std::vector<uint64_t> m_ids;
    std::vector<uint32_t> m_sizes;
    std::vector<int64_t> m_timesNs;
    uint64_t m_nextId;   //!< next transmission number
    uint64_t m_untagged; //!< untagged packets seen at Watch() points
    uint32_t m_reserve;  //!< initial capacity of the columns (attribute)
};

} // namespace ns3

#endif // PACKET_PATH_RECORDER_H
