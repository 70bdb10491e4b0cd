#include "purging-heap-scheduler.h"

#include "ns3/assert.h"
#include "ns3/event-impl.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"
#include "ns3/nstime.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PurgingHeapScheduler");
NS_OBJECT_ENSURE_REGISTERED(PurgingHeapScheduler);

namespace
{
/** std heap algorithms build max-heaps: "a after b" puts the earliest event on top. */
struct Later
{
    bool operator()(const Scheduler::Event& a, const Scheduler::Event& b) const
    {
        return a.key > b.key;
    }
};
} // namespace

TypeId
PurgingHeapScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PurgingHeapScheduler")
            .SetParent<Scheduler>()
            .SetGroupName("Core")
            .AddConstructor<PurgingHeapScheduler>()
            .AddAttribute("MinimumPurgeSize",
                          "The heap is scanned for cancelled events only once it holds at least "
                          "this many events and has doubled since the previous scan.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&PurgingHeapScheduler::m_minimumPurgeSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Horizon",
                          "Events due after this time are not kept (0: keep every event). Set it "
                          "to the stop time of a run that is never continued: later events "
                          "could only run after the end of the simulation.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&PurgingHeapScheduler::m_horizon),
                          MakeTimeChecker(Seconds(0)));
    return tid;
}

PurgingHeapScheduler::PurgingHeapScheduler()
    : m_purgeAtSize(4096),
      m_minimumPurgeSize(4096),
      m_purged(0),
      m_horizon(Seconds(0)),
      m_beyondHorizon(0)
{
    NS_LOG_FUNCTION(this);
}

PurgingHeapScheduler::~PurgingHeapScheduler()
{
    NS_LOG_FUNCTION(this);
    ReleaseDropped();
}

void
PurgingHeapScheduler::ReleaseDropped()
{
    // The simulator creates an event's EventId only after Insert() returns, so the
    // reference of a dropped event is given back at the next call, not inside Insert().
    for (EventImpl* impl : m_dropped)
    {
        impl->Unref();
    }
    m_dropped.clear();
}

void
PurgingHeapScheduler::Insert(const Event& ev)
{
    ReleaseDropped();
    if (m_horizon.IsStrictlyPositive() &&
        ev.key.m_ts > static_cast<uint64_t>(m_horizon.GetTimeStep()))
    {
        m_dropped.push_back(ev.impl);
        ++m_beyondHorizon;
        return;
    }
    m_heap.push_back(ev);
    std::push_heap(m_heap.begin(), m_heap.end(), Later());
    if (m_heap.size() >= std::max<std::size_t>(m_purgeAtSize, m_minimumPurgeSize))
    {
        Purge();
        m_purgeAtSize = 2 * m_heap.size();
    }
}

uint64_t
PurgingHeapScheduler::Purge()
{
    NS_LOG_FUNCTION(this << m_heap.size());
    const std::size_t before = m_heap.size();
    auto live = std::remove_if(m_heap.begin(), m_heap.end(), [](const Event& ev) {
        if (ev.impl->IsCancelled())
        {
            // The scheduler owns one reference to every event it holds (the simulator
            // drops it after running or removing the event); give it back.
            ev.impl->Unref();
            return true;
        }
        return false;
    });
    m_heap.erase(live, m_heap.end());
    std::make_heap(m_heap.begin(), m_heap.end(), Later());
    const uint64_t dropped = before - m_heap.size();
    m_purged += dropped;
    NS_LOG_DEBUG("purged " << dropped << " cancelled events, " << m_heap.size() << " left");
    return dropped;
}

bool
PurgingHeapScheduler::IsEmpty() const
{
    return m_heap.empty();
}

Scheduler::Event
PurgingHeapScheduler::PeekNext() const
{
    NS_ASSERT(!m_heap.empty());
    return m_heap.front();
}

Scheduler::Event
PurgingHeapScheduler::RemoveNext()
{
    NS_ASSERT(!m_heap.empty());
    ReleaseDropped();
    std::pop_heap(m_heap.begin(), m_heap.end(), Later());
    Event next = m_heap.back();
    m_heap.pop_back();
    return next;
}

void
PurgingHeapScheduler::Remove(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.key.m_uid);
    auto it = std::find_if(m_heap.begin(), m_heap.end(), [&ev](const Event& e) {
        return e.key.m_uid == ev.key.m_uid;
    });
    if (it == m_heap.end() && m_horizon.IsStrictlyPositive() &&
        ev.key.m_ts > static_cast<uint64_t>(m_horizon.GetTimeStep()))
    {
        // Dropped at insertion; the simulator gives back "our" reference after this call.
        ev.impl->Ref();
        return;
    }
    NS_ASSERT_MSG(it != m_heap.end(), "event to remove is not in the scheduler");
    *it = m_heap.back();
    m_heap.pop_back();
    std::make_heap(m_heap.begin(), m_heap.end(), Later());
}

std::size_t
PurgingHeapScheduler::GetSize() const
{
    return m_heap.size();
}

uint64_t
PurgingHeapScheduler::GetPurged() const
{
    return m_purged;
}

uint64_t
PurgingHeapScheduler::GetBeyondHorizon() const
{
    return m_beyondHorizon;
}

} // namespace ns3
