/*
 * PurgingHeapScheduler runs the live events in the order ns-3's MapScheduler does
 * (timestamp, then insertion), never runs cancelled ones, and keeps none due after its
 * horizon.
 */
#include "ns3/core-module.h"
#include "ns3/purging-heap-scheduler.h"
#include "ns3/test.h"

#include <vector>

using namespace ns3;

namespace
{

std::vector<int> g_order;

void
Mark(int i)
{
    g_order.push_back(i);
}

/** 2000 events at pseudo-random times (many share one), every third cancelled, one late. */
std::vector<int>
Simulate(const std::string& scheduler, double horizon)
{
    g_order.clear();
    ObjectFactory factory(scheduler);
    if (horizon > 0)
    {
        factory.Set("Horizon", TimeValue(Seconds(horizon)));
    }
    Simulator::SetScheduler(factory);
    std::vector<EventId> ids;
    for (int i = 0; i < 2000; ++i)
    {
        ids.push_back(Simulator::Schedule(MicroSeconds((i * 7919) % 997), &Mark, i));
    }
    EventId late = Simulator::Schedule(Seconds(1000), &Mark, -1);
    for (std::size_t i = 0; i < ids.size(); i += 3)
    {
        ids[i].Cancel();
    }
    // Beyond the horizon the late event was never kept: removing it must be a no-op.
    // (ns-3's simulator counts every scheduled event until it is run or removed, and
    // checks at the end of Run() that an empty queue has none left: an event dropped
    // beyond the horizon, Simulator::Stop's own included, must not be left counted.)
    Simulator::Remove(late);
    Simulator::Stop(Seconds(2));
    Simulator::Run();
    Simulator::Destroy();
    return g_order;
}

} // namespace

class PurgingHeapSchedulerOrderTestCase : public TestCase
{
  public:
    PurgingHeapSchedulerOrderTestCase()
        : TestCase("same event order as MapScheduler, cancelled events skipped")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<int> map = Simulate("ns3::MapScheduler", 0);
        std::vector<int> purging = Simulate("ns3::PurgingHeapScheduler", 0);
        std::vector<int> horizon = Simulate("ns3::PurgingHeapScheduler", 5);
        NS_TEST_ASSERT_MSG_EQ(purging.size(), map.size(), "as many events ran");
        NS_TEST_EXPECT_MSG_EQ((purging == map), true, "in the same order");
        NS_TEST_EXPECT_MSG_EQ(map.size(), 2000u - 667u, "the live events");
        NS_TEST_EXPECT_MSG_EQ((horizon == map), true, "a horizon changes nothing before it");
        for (int i : map)
        {
            NS_TEST_ASSERT_MSG_NE(i % 3, 0, "a cancelled event ran");
        }
    }
};

/** \ingroup scheduler-tests */
class PurgingHeapSchedulerTestSuite : public TestSuite
{
  public:
    PurgingHeapSchedulerTestSuite()
        : TestSuite("scheduler-purging-heap", Type::UNIT)
    {
        AddTestCase(new PurgingHeapSchedulerOrderTestCase(), TestCase::Duration::QUICK);
    }
};

static PurgingHeapSchedulerTestSuite g_purgingHeapSchedulerTestSuite;
