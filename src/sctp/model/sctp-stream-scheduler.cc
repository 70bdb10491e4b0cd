#include "sctp-stream-scheduler.h"

#include "sctp-tx-queue.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SctpStreamScheduler);
NS_OBJECT_ENSURE_REGISTERED(SctpFcfsStreamScheduler);

TypeId
SctpStreamScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SctpStreamScheduler").SetParent<Object>().SetGroupName("Sctp");
    return tid;
}

SctpStreamScheduler::~SctpStreamScheduler() = default;

void
SctpStreamScheduler::PacketDone()
{
}

void
SctpStreamScheduler::SetInterleaving(bool interleaving)
{
    m_interleaving = interleaving;
}

bool
SctpStreamScheduler::IsInterleaving() const
{
    return m_interleaving;
}

void
SctpStreamScheduler::SetStreamPriority(uint16_t streamId, uint16_t priority)
{
    m_priorities[streamId] = priority;
}

uint16_t
SctpStreamScheduler::GetStreamPriority(uint16_t streamId) const
{
    auto it = m_priorities.find(streamId);
    return it == m_priorities.end() ? 0 : it->second;
}

void
SctpStreamScheduler::SetStreamWeight(uint16_t streamId, uint16_t weight)
{
    NS_ABORT_MSG_IF(weight == 0, "SctpStreamScheduler: the weight of stream " << streamId
                                                                              << " must be >= 1");
    m_weights[streamId] = weight;
}

uint16_t
SctpStreamScheduler::GetStreamWeight(uint16_t streamId) const
{
    auto it = m_weights.find(streamId);
    return it == m_weights.end() ? 1 : it->second;
}

TypeId
SctpFcfsStreamScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpFcfsStreamScheduler")
                            .SetParent<SctpStreamScheduler>()
                            .SetGroupName("Sctp")
                            .AddConstructor<SctpFcfsStreamScheduler>();
    return tid;
}

SctpFcfsStreamScheduler::SctpFcfsStreamScheduler() = default;

SctpFcfsStreamScheduler::~SctpFcfsStreamScheduler() = default;

void
SctpFcfsStreamScheduler::Enqueue(Ptr<SctpOutboundMessage> message)
{
    m_queue.push_back(message);
}

Ptr<SctpOutboundMessage>
SctpFcfsStreamScheduler::Peek() const
{
    return m_queue.empty() ? nullptr : m_queue.front();
}

void
SctpFcfsStreamScheduler::ChunkCut(Ptr<SctpOutboundMessage> message, bool last)
{
    if (last)
    {
        m_queue.pop_front(); // Peek() returned the front
    }
}

bool
SctpFcfsStreamScheduler::Remove(Ptr<SctpOutboundMessage> message)
{
    auto it = std::find(m_queue.begin(), m_queue.end(), message);
    if (it == m_queue.end())
    {
        return false;
    }
    m_queue.erase(it);
    return true;
}

bool
SctpFcfsStreamScheduler::IsEmpty() const
{
    return m_queue.empty();
}

std::vector<Ptr<SctpOutboundMessage>>
SctpFcfsStreamScheduler::GetMessages() const
{
    return std::vector<Ptr<SctpOutboundMessage>>(m_queue.begin(), m_queue.end());
}

void
SctpFcfsStreamScheduler::Clear()
{
    m_queue.clear();
}

} // namespace ns3
