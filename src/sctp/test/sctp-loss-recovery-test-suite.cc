/*
 * Loss recovery (RFC 9260 sections 6.3, 7.2): a lost DATA chunk in a flow recovered by
 * fast retransmit (three miss indications, ssthresh = max(cwnd / 2, 4 PMDCS), no
 * timeout) and a loss without enough SACKs behind it recovered by T3-rtx (cwnd back to
 * one PMDCS, RTO doubled); every message delivered once and in order.
 */
#include "sctp-test-network.h"

#include "ns3/test.h"

using namespace ns3;
using namespace ns3::sctptest;

namespace
{

class Trace : public SimpleRefCount<Trace>
{
  public:
    void Retransmission(uint32_t tsn, bool fast)
    {
        tsns.push_back(tsn);
        fastFlags.push_back(fast);
        times.push_back(Simulator::Now());
    }

    void Cwnd(uint32_t, uint32_t now)
    {
        cwnd.push_back(now);
        cwndTimes.push_back(Simulator::Now());
    }

    void Ssthresh(uint32_t, uint32_t now)
    {
        ssthresh.push_back(now);
    }

    void Rto(Time, Time now)
    {
        rto.push_back(now);
    }

    /**
     * From the moment the association is up, every change of path 0's own cwnd. The
     * socket's CongestionWindow source follows the primary path once per received
     * packet, so a SACK that first grows cwnd (7.2.1) and then triggers the fast
     * retransmit shows there as one change.
     */
    void State(SctpState, SctpState now)
    {
        if (now != SCTP_ESTABLISHED || watching)
        {
            return;
        }
        watching = true;
        Ptr<SctpPath> path = socket->GetAssociation()->GetPathManager().GetPath(0);
        path->TraceConnectWithoutContext("CongestionWindow", MakeCallback(&Trace::PathCwnd, this));
    }

    void PathCwnd(uint32_t, uint32_t now)
    {
        pathCwnd.push_back(now);
        pathCwndTimes.push_back(Simulator::Now());
    }

    std::vector<uint32_t> tsns;
    std::vector<bool> fastFlags;
    std::vector<Time> times;
    std::vector<uint32_t> cwnd;
    std::vector<Time> cwndTimes;
    std::vector<uint32_t> ssthresh;
    std::vector<Time> rto;
    SctpSocket* socket{nullptr}; //!< not a Ptr: the socket holds this trace's callbacks
    bool watching{false};
    std::vector<uint32_t> pathCwnd;
    std::vector<Time> pathCwndTimes;
};

struct Outcome
{
    Ptr<Sink> sink;
    Ptr<SctpSocket> client;
    Ptr<Trace> trace;
};

Outcome
Transfer(std::vector<uint32_t> lostOffsets, uint32_t messages, double stop)
{
    TwoNodes net(1, DataRate("10Mbps"), MilliSeconds(20));
    Ptr<Dropper> dropper = CreateObject<Dropper>();
    dropper->dataOffsets = lostOffsets;
    net.devices[0].Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(dropper));
    Outcome run;
    run.sink = Create<Sink>();
    run.sink->Listen(net.Socket(1), 9);
    run.client = net.Socket(0);
    run.trace = Create<Trace>();
    run.client->TraceConnectWithoutContext("Retransmission",
                                           MakeCallback(&Trace::Retransmission, run.trace));
    run.client->TraceConnectWithoutContext("CongestionWindow", MakeCallback(&Trace::Cwnd, run.trace));
    run.client->TraceConnectWithoutContext("SlowStartThreshold",
                                           MakeCallback(&Trace::Ssthresh, run.trace));
    run.client->TraceConnectWithoutContext("RTO", MakeCallback(&Trace::Rto, run.trace));
    run.trace->socket = PeekPointer(run.client);
    run.client->TraceConnectWithoutContext("State", MakeCallback(&Trace::State, run.trace));
    Ptr<Source> source = Create<Source>();
    source->StartAt(Seconds(1), run.client, InetSocketAddress(net.Address(1), 9), messages, 1452);
    Simulator::Stop(Seconds(stop));
    Simulator::Run();
    return run;
}

} // namespace

/** One lost chunk in a long flow: fast retransmit, fast recovery, no timeout. */
class SctpFastRetransmitTestCase : public TestCase
{
  public:
    SctpFastRetransmitTestCase()
        : TestCase("a lost chunk is fast retransmitted")
    {
    }

  private:
    void DoRun() override
    {
        Outcome run = Transfer({20}, 200, 10);
        Ptr<SctpAssociation> a = run.client->GetAssociation();
        const SctpSender& sender = a->GetSender();
        NS_TEST_EXPECT_MSG_EQ(sender.GetFastRetransmitCount(), 1u, "one fast retransmit");
        NS_TEST_EXPECT_MSG_EQ(sender.GetTimeoutCount(), 0u, "no timeout");
        NS_TEST_ASSERT_MSG_EQ(run.trace->tsns.size(), 1u, "one retransmission");
        NS_TEST_EXPECT_MSG_EQ(run.trace->fastFlags[0], true, "a fast one");
        NS_TEST_ASSERT_MSG_EQ(run.sink->sizes.size(), 200u, "every message");
        uint32_t first = run.sink->tsns[0];
        NS_TEST_EXPECT_MSG_EQ(run.trace->tsns[0], first + 20, "the lost TSN");
        for (std::size_t i = 0; i < run.sink->tsns.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(run.sink->tsns[i], first + i, "in order, once: " << i);
        }
        // 7.2.3: at the fast retransmit, ssthresh = max(cwnd / 2, 4 PMDCS) and cwnd = ssthresh.
        uint32_t pmdcs = a->GetPathManager().GetPath(0)->GetPmdcs();
        NS_TEST_EXPECT_MSG_EQ(pmdcs, 1468u, "1500 - 20 - 12");
        // The path's cwnd just before the reduction and the reduced one: the last change
        // up to the retransmission's instant that is a decrease.
        uint32_t before = 0;
        uint32_t after = 0;
        const auto& cwnd = run.trace->pathCwnd;
        for (std::size_t i = 1; i < cwnd.size(); ++i)
        {
            if (run.trace->pathCwndTimes[i] == run.trace->times[0] && cwnd[i] < cwnd[i - 1])
            {
                before = cwnd[i - 1];
                after = cwnd[i];
                break;
            }
        }
        NS_TEST_ASSERT_MSG_NE(after, 0u, "cwnd reduced at the fast retransmit");
        NS_TEST_EXPECT_MSG_EQ(after, std::max(before / 2, 4 * pmdcs), "halved, at least 4 PMDCS");
        NS_TEST_EXPECT_MSG_EQ(run.client->CheckInvariants(), "", "bookkeeping");
        Simulator::Destroy();
    }
};

/** A loss with too few SACKs behind it: T3-rtx expires, cwnd = 1 PMDCS, RTO doubled. */
class SctpTimeoutTestCase : public TestCase
{
  public:
    SctpTimeoutTestCase()
        : TestCase("a loss without enough SACKs is recovered by T3-rtx")
    {
    }

  private:
    void DoRun() override
    {
        Outcome run = Transfer({1}, 3, 10);
        Ptr<SctpAssociation> a = run.client->GetAssociation();
        NS_TEST_EXPECT_MSG_EQ(a->GetSender().GetTimeoutCount(), 1u, "one T3-rtx expiry");
        NS_TEST_EXPECT_MSG_EQ(a->GetSender().GetFastRetransmitCount(), 0u, "one miss indication only");
        NS_TEST_ASSERT_MSG_EQ(run.trace->tsns.size(), 1u, "one retransmission");
        NS_TEST_EXPECT_MSG_EQ(run.trace->fastFlags[0], false, "after a timeout");
        NS_TEST_EXPECT_MSG_EQ(run.sink->sizes.size(), 3u, "every message");
        // The first RTT sample (about 40 ms) sets the RTO to RTO.Min (1 s); the expiry
        // doubles it (6.3.3 E2) and brings cwnd to one PMDCS (7.2.3).
        bool doubled = false;
        for (Time rto : run.trace->rto)
        {
            doubled = doubled || rto == Seconds(2);
        }
        NS_TEST_EXPECT_MSG_EQ(doubled, true, "RTO doubled to 2 s");
        bool onePmdcs = false;
        for (uint32_t c : run.trace->cwnd)
        {
            onePmdcs = onePmdcs || c == 1468;
        }
        NS_TEST_EXPECT_MSG_EQ(onePmdcs, true, "cwnd = 1 PMDCS after the timeout");
        NS_TEST_EXPECT_MSG_GT(run.trace->times[0], Seconds(1.9), "not before the RTO");
        Simulator::Destroy();
    }
};

/** \ingroup sctp-tests Fast retransmit and T3-rtx recovery. */
class SctpLossRecoveryTestSuite : public TestSuite
{
  public:
    SctpLossRecoveryTestSuite()
        : TestSuite("sctp-loss-recovery", Type::SYSTEM)
    {
        AddTestCase(new SctpFastRetransmitTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpTimeoutTestCase(), TestCase::Duration::QUICK);
    }
};

static SctpLossRecoveryTestSuite g_sctpLossRecoveryTestSuite;
