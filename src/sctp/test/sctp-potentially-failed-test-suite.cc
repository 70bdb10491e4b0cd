/*
 * Failover between two destinations when the primary's link fails in both directions:
 * with SCTP-PF (RFC 7829, PotentiallyFailedMaxRetrans 0) the primary turns potentially
 * failed at the first T3-rtx expiry and new data moves at once; without it (RFC 9260
 * section 8.2, the default) the primary turns inactive only when its error counter
 * exceeds Path.Max.Retrans (5): at the 6th expiry, 1 + 2 + 4 + 8 + 16 + 32 = 63 s of
 * doubled RTOs after the first unacknowledged transmission.
 */
#include "sctp-test-network.h"

#include "ns3/test.h"

using namespace ns3;
using namespace ns3::sctptest;

namespace
{

class PathEvents : public SimpleRefCount<PathEvents>
{
  public:
    void Record(uint32_t path, SctpPathEvent event)
    {
        paths.push_back(path);
        events.push_back(event);
        times.push_back(Simulator::Now());
    }

    /** Time of the first \p event on \p path, or -1 s. */
    Time First(uint32_t path, SctpPathEvent event) const
    {
        for (std::size_t i = 0; i < events.size(); ++i)
        {
            if (paths[i] == path && events[i] == event)
            {
                return times[i];
            }
        }
        return Seconds(-1);
    }

    std::vector<uint32_t> paths;
    std::vector<SctpPathEvent> events;
    std::vector<Time> times;
};

struct Outcome
{
    Ptr<PathEvents> events;
    Ptr<Sink> sink;
    Time done;
};

const Time kFail = Seconds(3);
const uint32_t kMessages = 2000;

Outcome
Failover(uint32_t pfmr, double stop)
{
    Config::SetDefault("ns3::SctpSocket::PotentiallyFailedMaxRetrans", UintegerValue(pfmr));
    TwoNodes net(2, DataRate("10Mbps"), MilliSeconds(10));
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<Dropper> dead = CreateObject<Dropper>();
        dead->failAt = kFail;
        net.devices[0].Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(dead));
    }
    Outcome out;
    out.sink = Create<Sink>();
    out.sink->Listen(net.Socket(1), 9);
    Ptr<SctpSocket> client = net.Socket(0);
    out.events = Create<PathEvents>();
    client->TraceConnectWithoutContext("PathEvent", MakeCallback(&PathEvents::Record, out.events));
    Ptr<Source> source = Create<Source>();
    source->StartAt(Seconds(1), client, InetSocketAddress(net.Address(1, 0), 9), kMessages, 1452);
    Simulator::Stop(Seconds(stop));
    Simulator::Run();
    out.done = out.sink->times.empty() ? Seconds(-1) : out.sink->times.back();
    Config::Reset();
    return out;
}

} // namespace

/** PFMR 0: potentially failed at the first expiry, data on the alternate at once. */
class SctpPfOnTestCase : public TestCase
{
  public:
    SctpPfOnTestCase()
        : TestCase("SCTP-PF: the primary is potentially failed at the first T3-rtx expiry")
    {
    }

  private:
    void DoRun() override
    {
        Outcome o = Failover(0, 20);
        Time pf = o.events->First(0, SctpPathEvent::POTENTIALLY_FAILED);
        NS_TEST_ASSERT_MSG_GT(pf, kFail, "path 0 potentially failed after the failure");
        NS_TEST_EXPECT_MSG_LT(pf, kFail + Seconds(2.5), "at the first expiry (RTO about 1 s)");
        Time moved = o.events->First(1, SctpPathEvent::DATA_PATH);
        NS_TEST_EXPECT_MSG_EQ(moved, pf, "new data moves to path 1 at the same moment");
        NS_TEST_ASSERT_MSG_EQ(o.sink->sizes.size(), kMessages, "every message arrived");
        // In PF the primary is probed by HEARTBEATs (one per RTO) and turns inactive only
        // when its error counter exceeds Path.Max.Retrans, long after the data moved.
        Time inactive = o.events->First(0, SctpPathEvent::UNREACHABLE);
        NS_TEST_EXPECT_MSG_EQ((inactive == Seconds(-1) || inactive > o.done),
                              true,
                              "not yet inactive when the transfer ends (" << inactive.As(Time::S)
                                                                          << ")");
        NS_TEST_EXPECT_MSG_LT(o.done, kFail + Seconds(10), "within 10 s of the failure");
        Simulator::Destroy();
    }
};

/** The default (PF off): inactive at the 6th expiry, about 63 s after the failure. */
class SctpPfOffTestCase : public TestCase
{
  public:
    SctpPfOffTestCase()
        : TestCase("RFC 9260: the primary is inactive after Path.Max.Retrans + 1 expiries")
    {
    }

  private:
    void DoRun() override
    {
        Outcome o = Failover(65535, 90);
        NS_TEST_EXPECT_MSG_EQ(o.events->First(0, SctpPathEvent::POTENTIALLY_FAILED),
                              Seconds(-1),
                              "no PF state with PF off");
        Time inactive = o.events->First(0, SctpPathEvent::UNREACHABLE);
        NS_TEST_ASSERT_MSG_GT(inactive, kFail + Seconds(62), "1+2+4+8+16+32 s of RTOs");
        NS_TEST_EXPECT_MSG_LT(inactive, kFail + Seconds(65), "and not much later");
        NS_TEST_EXPECT_MSG_EQ(o.events->First(1, SctpPathEvent::DATA_PATH),
                              inactive,
                              "new data moves when the primary is inactive");
        NS_TEST_ASSERT_MSG_EQ(o.sink->sizes.size(), kMessages, "every message arrived");
        NS_TEST_EXPECT_MSG_GT(o.done, inactive, "the rest after the failover");
        Simulator::Destroy();
    }
};

/** \ingroup sctp-tests Path failure detection with and without SCTP-PF. */
class SctpPotentiallyFailedTestSuite : public TestSuite
{
  public:
    SctpPotentiallyFailedTestSuite()
        : TestSuite("sctp-potentially-failed", Type::SYSTEM)
    {
        AddTestCase(new SctpPfOnTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpPfOffTestCase(), TestCase::Duration::QUICK);
    }
};

static SctpPotentiallyFailedTestSuite g_sctpPotentiallyFailedTestSuite;
