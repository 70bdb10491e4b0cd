"""ns3::PurgingHeapScheduler: same event order as ns-3's MapScheduler, bounded by live events."""

from __future__ import annotations

import pytest

HELPER = r"""
#include "ns3/purging-heap-scheduler.h"
#include "ns3/simulator.h"
#include "ns3/nstime.h"
#include <vector>
#include <string>

namespace tl_scheduler_test
{
std::vector<int> g_order;
void Mark(int i) { g_order.push_back(i); }

// n events at pseudo-random times (many share a timestamp), every k-th cancelled, some
// removed, one far beyond the horizon; returns the order in which the live ones ran.
std::vector<int> Run(const std::string& scheduler, int n, int cancelEvery, double horizon)
{
    g_order.clear();
    ns3::Simulator::Destroy();
    ns3::ObjectFactory factory(scheduler);
    if (horizon > 0)
    {
        factory.Set("Horizon", ns3::TimeValue(ns3::Seconds(horizon)));
    }
    ns3::Simulator::SetScheduler(factory);
    std::vector<ns3::EventId> ids;
    for (int i = 0; i < n; ++i)
    {
        ids.push_back(ns3::Simulator::Schedule(ns3::MicroSeconds((i * 7919) % 997), &Mark, i));
    }
    ns3::EventId late = ns3::Simulator::Schedule(ns3::Seconds(1000), &Mark, -1);
    for (int i = 0; i < n; i += cancelEvery)
    {
        ids[i].Cancel();
    }
    for (int i = 1; i < n; i += 101)
    {
        ns3::Simulator::Remove(ids[i]);
    }
    ns3::Simulator::Remove(late);  // dropped beyond the horizon: must be a clean no-op
    ns3::Simulator::Stop(ns3::MilliSeconds(2));
    ns3::Simulator::Run();
    ns3::Simulator::Destroy();
    return g_order;
}

// Scheduler used directly: insert events, cancel all but the newest, report the size.
std::size_t SizeAfterChurn(int n)
{
    auto s = ns3::CreateObject<ns3::PurgingHeapScheduler>();
    for (int i = 0; i < n; ++i)
    {
        ns3::EventImpl* impl = ns3::MakeEvent(&Mark, i);
        ns3::Scheduler::Event ev;
        ev.impl = impl;
        ev.key.m_ts = 1000000 + i;
        ev.key.m_uid = i + 10;
        ev.key.m_context = 0;
        s->Insert(ev);
        impl->Cancel();  // dead at once: nothing keeps it
    }
    std::size_t size = s->GetSize();
    while (!s->IsEmpty())
    {
        s->RemoveNext().impl->Unref();
    }
    return size;
}
} // namespace tl_scheduler_test
"""


@pytest.fixture(scope="module")
def helper():
    import cppyy

    from transportlab import ns  # noqa: F401

    cppyy.cppdef(HELPER)
    return cppyy.gbl.tl_scheduler_test


def test_live_events_run_in_the_same_order_as_with_map_scheduler(helper):
    reference = list(helper.Run("ns3::MapScheduler", 20000, 3, 0.0))
    purging = list(helper.Run("ns3::PurgingHeapScheduler", 20000, 3, 0.0))
    assert len(reference) == 20000 - len(range(0, 20000, 3)) - len(
        [i for i in range(1, 20000, 101) if i % 3 != 0]
    )
    assert purging == reference
    with_horizon = list(helper.Run("ns3::PurgingHeapScheduler", 20000, 3, 0.002))
    assert with_horizon == reference
    assert -1 not in with_horizon


def test_cancelled_events_do_not_accumulate(helper):
    # 100 000 dead events: the heap is purged whenever it doubles, so it never holds
    # more than twice the minimum purge size (4096) here.
    assert helper.SizeAfterChurn(100000) < 2 * 4096
