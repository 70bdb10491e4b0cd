/*
 * An event scheduler that forgets cancelled events.
 *
 * ns-3's schedulers keep a cancelled event (EventId::Cancel, Simulator::Cancel)
 * until its time comes; only then is it popped and skipped. Models that
 * reschedule a far-future event on every state change therefore fill the
 * scheduler: WifiRadioEnergyModel schedules, at every PHY state change, the
 * moment its battery would run out in the new state (remaining energy /
 * (current x voltage): days of simulated time for a sensor battery) and cancels
 * the previous one. In a 56-node 802.11 network that is millions of dead events
 * per simulated minute, held in a std::map (MapScheduler, the default) until
 * the end of the run: memory grows linearly and every insertion gets slower.
 *
 * PurgingHeapScheduler is a binary heap ordered exactly like every ns-3
 * scheduler (timestamp, then uid), so live events run in the same order as
 * with MapScheduler. Whenever the heap has doubled since the last purge, it
 * drops the events that have been cancelled (amortised O(1) per insertion).
 *
 * A second source of dead events: WifiRadioEnergyModel also leaves some of
 * those "battery empty" events uncancelled (about one in six in a 56-node
 * network), days of simulated time ahead. With the Horizon attribute set to the
 * time the run stops, events due after it are not kept at all: they could only
 * run after the end of the simulation.
 *
 * Nothing that is simulated up to the horizon changes; Simulator::GetEventCount()
 * counts fewer events because purged cancelled events are never popped.
 */
#ifndef PURGING_HEAP_SCHEDULER_H
#define PURGING_HEAP_SCHEDULER_H

#include "ns3/nstime.h"
#include "ns3/scheduler.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \brief Binary-heap scheduler that periodically drops cancelled events.
 *
 * Use it with
 * `Simulator::SetScheduler(ObjectFactory("ns3::PurgingHeapScheduler"))` or
 * `GlobalValue::Bind("SchedulerType", StringValue("ns3::PurgingHeapScheduler"))`.
 */
class PurgingHeapScheduler : public Scheduler
{
  public:
    static TypeId GetTypeId();

    PurgingHeapScheduler();
    ~PurgingHeapScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /** Drop every cancelled event now. \return number of events dropped. */
    uint64_t Purge();
    /** Events held (live and cancelled-but-not-yet-purged). */
    std::size_t GetSize() const;
    /** Cancelled events dropped so far. */
    uint64_t GetPurged() const;
    /** Events not kept because they were due after the horizon. */
    uint64_t GetBeyondHorizon() const;

  private:
    /** Give back the references of events dropped beyond the horizon. */
    void ReleaseDropped();

    std::vector<Event> m_heap;    //!< min-heap on (timestamp, uid)
    std::vector<EventImpl*> m_dropped; //!< beyond-horizon events whose reference is still ours
    Time m_horizon;               //!< events due later are not kept (attribute; 0 = keep all)
    uint64_t m_beyondHorizon;     //!< events not kept because they were due after the horizon
    std::size_t m_purgeAtSize;    //!< purge when the heap reaches this size
    uint32_t m_minimumPurgeSize;  //!< never purge below this size (attribute)
    uint64_t m_purged;            //!< cancelled events dropped
};

} // namespace ns3

#endif // PURGING_HEAP_SCHEDULER_H
