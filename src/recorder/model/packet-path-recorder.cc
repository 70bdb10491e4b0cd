#include "packet-path-recorder.h"

#include "ns3/log.h"
#include "ns3/queue-item.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PacketPathRecorder");
NS_OBJECT_ENSURE_REGISTERED(PacketPathRecorder);

TypeId
PacketPathRecorder::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PacketPathRecorder")
            .SetParent<Object>()
            .SetGroupName("Recorder")
            .AddConstructor<PacketPathRecorder>()
            .AddAttribute("Reserve",
                          "Number of events to reserve room for when the first source is watched.",
                          UintegerValue(1 << 16),
                          MakeUintegerAccessor(&PacketPathRecorder::m_reserve),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

PacketPathRecorder::PacketPathRecorder()
    : m_nextId(0),
      m_untagged(0),
      m_reserve(1 << 16)
{
    NS_LOG_FUNCTION(this);
}

PacketPathRecorder::~PacketPathRecorder()
{
    NS_LOG_FUNCTION(this);
}

void
PacketPathRecorder::DoDispose()
{
    // Keep the recorded columns: Python usually reads them after Simulator::Destroy().
    Object::DoDispose();
}

PacketPathRecorder::SourceKind
PacketPathRecorder::Classify(Ptr<Object> object, const std::string& traceSource)
{
    if (!object)
    {
        return UNSUPPORTED;
    }
    TypeId::TraceSourceInformation info;
    if (!object->GetInstanceTypeId().LookupTraceSourceByName(traceSource, &info))
    {
        NS_LOG_WARN("no trace source " << traceSource << " on "
                                       << object->GetInstanceTypeId().GetName());
        return UNSUPPORTED;
    }
    if (info.callback == "ns3::Packet::TracedCallback")
    {
        return PACKET;
    }
    // QueueDisc declares DropBeforeEnqueue, DropAfterDequeue and Mark with this callback
    // name too, but they pass a reason string as a second argument: only the
    // one-argument sources are safe to connect.
    static const std::set<std::string> itemSources{"Enqueue", "Dequeue", "Requeue", "Drop"};
    if (info.callback == "ns3::QueueDiscItem::TracedCallback" && itemSources.count(traceSource))
    {
        return QUEUE_DISC_ITEM;
    }
    NS_LOG_WARN("trace source " << traceSource << " has the unsupported signature "
                                << info.callback);
    return UNSUPPORTED;
}

void
PacketPathRecorder::Reserve()
{
    if (m_points.capacity() < m_reserve)
    {
        m_points.reserve(m_reserve);
        m_flows.reserve(m_reserve);
        m_ids.reserve(m_reserve);
        m_sizes.reserve(m_reserve);
        m_timesNs.reserve(m_reserve);
    }
}

bool
PacketPathRecorder::WatchOrigin(Ptr<Object> object,
                                const std::string& traceSource,
                                uint32_t flowId,
                                uint8_t point)
{
    NS_LOG_FUNCTION(this << object << traceSource << flowId << +point);
    Reserve();
    switch (Classify(object, traceSource))
    {
    case PACKET: {
        Callback<void, Ptr<const Packet>> cb([this, flowId, point](Ptr<const Packet> p) {
            OriginPacket(flowId, point, p);
        });
        return object->TraceConnectWithoutContext(traceSource, cb);
    }
    case QUEUE_DISC_ITEM: {
        Callback<void, Ptr<const QueueDiscItem>> cb(
            [this, flowId, point](Ptr<const QueueDiscItem> item) {
                OriginItem(flowId, point, item);
            });
        return object->TraceConnectWithoutContext(traceSource, cb);
    }
    default:
        return false;
    }
}

bool
PacketPathRecorder::Watch(Ptr<Object> object, const std::string& traceSource, uint8_t point)
{
    NS_LOG_FUNCTION(this << object << traceSource << +point);
    Reserve();
    switch (Classify(object, traceSource))
    {
    case PACKET: {
        Callback<void, Ptr<const Packet>> cb(
            [this, point](Ptr<const Packet> p) { SeenPacket(point, p); });
        return object->TraceConnectWithoutContext(traceSource, cb);
    }
    case QUEUE_DISC_ITEM: {
        Callback<void, Ptr<const QueueDiscItem>> cb(
            [this, point](Ptr<const QueueDiscItem> item) { SeenItem(point, item); });
        return object->TraceConnectWithoutContext(traceSource, cb);
    }
    default:
        return false;
    }
}

void
PacketPathRecorder::Append(uint8_t point, const PacketIdTag& tag, uint32_t size)
{
    m_points.push_back(point);
    m_flows.push_back(tag.GetFlow());
    m_ids.push_back(tag.GetId());
    m_sizes.push_back(size);
    m_timesNs.push_back(Simulator::Now().GetNanoSeconds());
}

void
PacketPathRecorder::OriginPacket(uint32_t flowId, uint8_t point, Ptr<const Packet> packet)
{
    PacketIdTag tag;
    if (!packet->PeekPacketTag(tag))
    {
        tag = PacketIdTag(flowId, m_nextId++);
        // Packet tags may be added to a const packet: they are metadata, not content.
        packet->AddPacketTag(tag);
    }
    Append(point, tag, packet->GetSize());
}

void
PacketPathRecorder::OriginItem(uint32_t flowId, uint8_t point, Ptr<const QueueDiscItem> item)
{
    PacketIdTag tag;
    Ptr<Packet> packet = item->GetPacket();
    if (!packet->PeekPacketTag(tag))
    {
        tag = PacketIdTag(flowId, m_nextId++);
        packet->AddPacketTag(tag);
    }
    Append(point, tag, item->GetSize());
}

void
PacketPathRecorder::SeenPacket(uint8_t point, Ptr<const Packet> packet)
{
    PacketIdTag tag;
    if (packet->PeekPacketTag(tag))
    {
        Append(point, tag, packet->GetSize());
    }
    else
    {
        ++m_untagged;
    }
}

void
PacketPathRecorder::SeenItem(uint8_t point, Ptr<const QueueDiscItem> item)
{
    PacketIdTag tag;
    if (item->GetPacket()->PeekPacketTag(tag))
    {
        Append(point, tag, item->GetSize());
    }
    else
    {
        ++m_untagged;
    }
}

std::size_t
PacketPathRecorder::GetN() const
{
    return m_points.size();
}

uint64_t
PacketPathRecorder::GetUntagged() const
{
    return m_untagged;
}

uint64_t
PacketPathRecorder::GetTagged() const
{
    return m_nextId;
}

void
PacketPathRecorder::Clear()
{
    m_points.clear();
    m_flows.clear();
    m_ids.clear();
    m_sizes.clear();
    m_timesNs.clear();
}

const std::vector<uint8_t>&
PacketPathRecorder::GetPoints() const
{
    return m_points;
}

const std::vector<uint32_t>&
PacketPathRecorder::GetFlows() const
{
    return m_flows;
}

const std::vector<uint64_t>&
PacketPathRecorder::GetIds() const
{
    return m_ids;
}

const std::vector<uint32_t>&
PacketPathRecorder::GetSizes() const
{
    return m_sizes;
}

const std::vector<int64_t>&
PacketPathRecorder::GetTimesNs() const
{
    return m_timesNs;
}

} // namespace ns3
