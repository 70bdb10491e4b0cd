#include "sctp-stream-schedulers.h"

#include "sctp-tx-queue.h"

#include "ns3/log.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpStreamSchedulers");

NS_OBJECT_ENSURE_REGISTERED(SctpStreamQueuesScheduler);
NS_OBJECT_ENSURE_REGISTERED(SctpRoundRobinStreamScheduler);
NS_OBJECT_ENSURE_REGISTERED(SctpRoundRobinPacketStreamScheduler);
NS_OBJECT_ENSURE_REGISTERED(SctpPriorityStreamScheduler);
NS_OBJECT_ENSURE_REGISTERED(SctpWfqStreamScheduler);
NS_OBJECT_ENSURE_REGISTERED(SctpFairCapacityStreamScheduler);

// ------------------------------------------------------------------ per-stream queues

TypeId
SctpStreamQueuesScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpStreamQueuesScheduler")
                            .SetParent<SctpStreamScheduler>()
                            .SetGroupName("Sctp");
    return tid;
}

SctpStreamQueuesScheduler::~SctpStreamQueuesScheduler() = default;

void
SctpStreamQueuesScheduler::Enqueue(Ptr<SctpOutboundMessage> message)
{
    std::deque<Entry>& queue = m_streams[message->streamId];
    queue.push_back({message, m_arrivals++});
    if (queue.size() == 1)
    {
        HeadChanged(message->streamId);
    }
}

Ptr<SctpOutboundMessage>
SctpStreamQueuesScheduler::Peek() const
{
    if (m_inProgress)
    {
        return m_inProgress; // DATA: the rest of a started message comes first
    }
    if (m_streams.empty())
    {
        return nullptr;
    }
    return GetHead(SelectStream());
}

void
SctpStreamQueuesScheduler::ChunkCut(Ptr<SctpOutboundMessage> message, bool last)
{
    ChunkTaken(message);
    if (!last)
    {
        // DATA: the rest of the message must follow at once (consecutive TSNs). I-DATA:
        // the message stays at its stream's head and the next chunk is chosen afresh.
        if (!IsInterleaving())
        {
            m_inProgress = message;
        }
        return;
    }
    m_inProgress = nullptr;
    auto it = m_streams.find(message->streamId);
    NS_ASSERT(it != m_streams.end() && it->second.front().message == message);
    it->second.pop_front();
    bool more = !it->second.empty();
    if (!more)
    {
        m_streams.erase(it);
    }
    MessageSent(message);
    if (more)
    {
        HeadChanged(message->streamId);
    }
}

bool
SctpStreamQueuesScheduler::Remove(Ptr<SctpOutboundMessage> message)
{
    auto it = m_streams.find(message->streamId);
    if (it == m_streams.end())
    {
        return false;
    }
    std::deque<Entry>& queue = it->second;
    auto pos = std::find_if(queue.begin(), queue.end(), [&message](const Entry& e) {
        return e.message == message;
    });
    if (pos == queue.end())
    {
        return false;
    }
    bool wasHead = pos == queue.begin();
    queue.erase(pos);
    bool wasInProgress = m_inProgress == message;
    if (wasInProgress)
    {
        m_inProgress = nullptr;
    }
    bool empty = queue.empty();
    if (empty)
    {
        m_streams.erase(it);
    }
    if (wasInProgress)
    {
        // Given up after some of its chunks were sent (PR-SCTP): its stream had its turn.
        MessageSent(message);
    }
    if (!empty && wasHead)
    {
        HeadChanged(message->streamId);
    }
    return true;
}

bool
SctpStreamQueuesScheduler::IsEmpty() const
{
    return m_streams.empty();
}

std::vector<Ptr<SctpOutboundMessage>>
SctpStreamQueuesScheduler::GetMessages() const
{
    std::vector<Entry> all;
    for (const auto& [stream, queue] : m_streams)
    {
        all.insert(all.end(), queue.begin(), queue.end());
    }
    std::sort(all.begin(), all.end(), [](const Entry& a, const Entry& b) {
        return a.arrival < b.arrival;
    });
    std::vector<Ptr<SctpOutboundMessage>> messages;
    messages.reserve(all.size());
    for (const Entry& e : all)
    {
        messages.push_back(e.message);
    }
    return messages;
}

void
SctpStreamQueuesScheduler::Clear()
{
    m_streams.clear();
    m_inProgress = nullptr;
    m_arrivals = 0;
    DoClear();
}

void
SctpStreamQueuesScheduler::HeadChanged(uint16_t streamId)
{
}

void
SctpStreamQueuesScheduler::ChunkTaken(Ptr<SctpOutboundMessage> message)
{
}

void
SctpStreamQueuesScheduler::MessageSent(Ptr<SctpOutboundMessage> message)
{
}

void
SctpStreamQueuesScheduler::DoClear()
{
}

uint16_t
SctpStreamQueuesScheduler::NextStreamAfter(std::optional<uint16_t> after,
                                           const std::function<bool(uint16_t)>& accept) const
{
    NS_ASSERT(!m_streams.empty());
    auto start = after ? m_streams.upper_bound(*after) : m_streams.begin();
    for (auto it = start; it != m_streams.end(); ++it)
    {
        if (!accept || accept(it->first))
        {
            return it->first;
        }
    }
    for (auto it = m_streams.begin(); it != start; ++it)
    {
        if (!accept || accept(it->first))
        {
            return it->first;
        }
    }
    NS_ABORT_MSG("SctpStreamQueuesScheduler: no queued stream is accepted");
    return 0;
}

std::vector<uint16_t>
SctpStreamQueuesScheduler::GetActiveStreams() const
{
    std::vector<uint16_t> streams;
    streams.reserve(m_streams.size());
    for (const auto& [stream, queue] : m_streams)
    {
        streams.push_back(stream);
    }
    return streams;
}

bool
SctpStreamQueuesScheduler::HasMessages(uint16_t streamId) const
{
    return m_streams.count(streamId) > 0;
}

Ptr<SctpOutboundMessage>
SctpStreamQueuesScheduler::GetHead(uint16_t streamId) const
{
    auto it = m_streams.find(streamId);
    return it == m_streams.end() ? nullptr : it->second.front().message;
}

uint64_t
SctpStreamQueuesScheduler::GetHeadArrival(uint16_t streamId) const
{
    auto it = m_streams.find(streamId);
    return it == m_streams.end() ? std::numeric_limits<uint64_t>::max()
                                 : it->second.front().arrival;
}

// ------------------------------------------------------------------ round robin

TypeId
SctpRoundRobinStreamScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpRoundRobinStreamScheduler")
                            .SetParent<SctpStreamQueuesScheduler>()
                            .SetGroupName("Sctp")
                            .AddConstructor<SctpRoundRobinStreamScheduler>();
    return tid;
}

uint16_t
SctpRoundRobinStreamScheduler::SelectStream() const
{
    return NextStreamAfter(m_lastServed);
}

void
SctpRoundRobinStreamScheduler::MessageSent(Ptr<SctpOutboundMessage> message)
{
    m_lastServed = message->streamId;
}

void
SctpRoundRobinStreamScheduler::ChunkTaken(Ptr<SctpOutboundMessage> message)
{
    // With I-DATA the turn passes after every chunk (fragment), not every message, so
    // a small message of another stream goes between two fragments of a large one.
    if (IsInterleaving())
    {
        m_lastServed = message->streamId;
    }
}

void
SctpRoundRobinStreamScheduler::DoClear()
{
    m_lastServed.reset();
}

// ------------------------------------------------------------------ round robin per packet

TypeId
SctpRoundRobinPacketStreamScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpRoundRobinPacketStreamScheduler")
                            .SetParent<SctpStreamQueuesScheduler>()
                            .SetGroupName("Sctp")
                            .AddConstructor<SctpRoundRobinPacketStreamScheduler>();
    return tid;
}

uint16_t
SctpRoundRobinPacketStreamScheduler::SelectStream() const
{
    if (m_packetStream)
    {
        if (HasMessages(*m_packetStream))
        {
            return *m_packetStream;
        }
        return NextStreamAfter(m_packetStream);
    }
    return NextStreamAfter(m_lastServed);
}

void
SctpRoundRobinPacketStreamScheduler::ChunkTaken(Ptr<SctpOutboundMessage> message)
{
    m_packetStream = message->streamId;
}

void
SctpRoundRobinPacketStreamScheduler::PacketDone()
{
    if (m_packetStream)
    {
        m_lastServed = m_packetStream;
        m_packetStream.reset();
    }
}

void
SctpRoundRobinPacketStreamScheduler::DoClear()
{
    m_lastServed.reset();
    m_packetStream.reset();
}

// ------------------------------------------------------------------ priority

TypeId
SctpPriorityStreamScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpPriorityStreamScheduler")
                            .SetParent<SctpStreamQueuesScheduler>()
                            .SetGroupName("Sctp")
                            .AddConstructor<SctpPriorityStreamScheduler>();
    return tid;
}

uint16_t
SctpPriorityStreamScheduler::SelectStream() const
{
    uint16_t best = std::numeric_limits<uint16_t>::max();
    for (uint16_t stream : GetActiveStreams())
    {
        best = std::min(best, GetStreamPriority(stream));
    }
    return NextStreamAfter(m_lastServed,
                           [this, best](uint16_t s) { return GetStreamPriority(s) == best; });
}

void
SctpPriorityStreamScheduler::MessageSent(Ptr<SctpOutboundMessage> message)
{
    m_lastServed = message->streamId;
}

void
SctpPriorityStreamScheduler::ChunkTaken(Ptr<SctpOutboundMessage> message)
{
    // With I-DATA the turn passes after every chunk (fragment), not every message, so
    // a small message of another stream goes between two fragments of a large one.
    if (IsInterleaving())
    {
        m_lastServed = message->streamId;
    }
}

void
SctpPriorityStreamScheduler::DoClear()
{
    m_lastServed.reset();
}

// ------------------------------------------------------------------ weighted fair queueing

TypeId
SctpWfqStreamScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpWfqStreamScheduler")
                            .SetParent<SctpStreamQueuesScheduler>()
                            .SetGroupName("Sctp")
                            .AddConstructor<SctpWfqStreamScheduler>();
    return tid;
}

double
SctpWfqStreamScheduler::GetShare(uint16_t streamId) const
{
    return GetStreamWeight(streamId);
}

void
SctpWfqStreamScheduler::HeadChanged(uint16_t streamId)
{
    // A stream that was idle starts from the current virtual time, not from its old tag,
    // so it neither saves up credit while idle nor pays for the past.
    double start = std::max(m_virtualTime, m_lastTag[streamId]);
    double bytes = static_cast<double>(GetHead(streamId)->data.size());
    double tag = start + bytes / GetShare(streamId);
    m_headTag[streamId] = tag;
    m_lastTag[streamId] = tag;
}

uint16_t
SctpWfqStreamScheduler::SelectStream() const
{
    std::optional<uint16_t> best;
    for (uint16_t stream : GetActiveStreams())
    {
        if (!best)
        {
            best = stream;
            continue;
        }
        double tag = m_headTag.at(stream);
        double bestTag = m_headTag.at(*best);
        if (tag < bestTag || (tag == bestTag && GetHeadArrival(stream) < GetHeadArrival(*best)))
        {
            best = stream;
        }
    }
    return *best;
}

void
SctpWfqStreamScheduler::MessageSent(Ptr<SctpOutboundMessage> message)
{
    m_virtualTime = m_headTag[message->streamId];
}

void
SctpWfqStreamScheduler::DoClear()
{
    m_virtualTime = 0;
    m_headTag.clear();
    m_lastTag.clear();
}

// ------------------------------------------------------------------ fair capacity

TypeId
SctpFairCapacityStreamScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpFairCapacityStreamScheduler")
                            .SetParent<SctpWfqStreamScheduler>()
                            .SetGroupName("Sctp")
                            .AddConstructor<SctpFairCapacityStreamScheduler>();
    return tid;
}

double
SctpFairCapacityStreamScheduler::GetShare(uint16_t streamId) const
{
    return 1.0;
}

} // namespace ns3
