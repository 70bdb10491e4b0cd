#include "sctp-stream-scheduler.h"

#include "sctp-tx-queue.h"

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
