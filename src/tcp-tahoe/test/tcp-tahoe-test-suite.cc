/*
 * TcpTahoe and TcpTahoeRecovery: NS-2's Agent/TCP window rules (slow start by one
 * segment per ACK, congestion avoidance by segment^2 / cwnd, ssthresh half the window in
 * whole segments but at least 2, and the window back to one segment on a loss).
 */
#include "ns3/tcp-socket-state.h"
#include "ns3/tcp-tahoe.h"
#include "ns3/test.h"

using namespace ns3;

class TcpTahoeWindowTestCase : public TestCase
{
  public:
    TcpTahoeWindowTestCase()
        : TestCase("NS-2 window arithmetic")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TcpSocketState> tcb = CreateObject<TcpSocketState>();
        tcb->m_segmentSize = 1000;
        tcb->m_cWnd = 2000;
        tcb->m_ssThresh = 4000;
        Ptr<TcpTahoe> tahoe = CreateObject<TcpTahoe>();
        NS_TEST_EXPECT_MSG_EQ(tahoe->GetName(), "TcpTahoe", "name");
        tahoe->IncreaseWindow(tcb, 1);
        NS_TEST_EXPECT_MSG_EQ(tcb->m_cWnd.Get(), 3000u, "slow start: +1 segment");
        tahoe->IncreaseWindow(tcb, 0);
        NS_TEST_EXPECT_MSG_EQ(tcb->m_cWnd.Get(), 3000u, "nothing acknowledged");
        tcb->m_cWnd = 4000;
        tahoe->IncreaseWindow(tcb, 1);
        NS_TEST_EXPECT_MSG_EQ(tcb->m_cWnd.Get(), 4250u, "congestion avoidance: 1000^2 / 4000");
        // 7.5 segments outstanding of a 10-segment window: ssthresh 3 segments.
        tcb->m_cWnd = 10000;
        tcb->m_lastAckedSeq = SequenceNumber32(1000);
        tcb->m_highTxMark = SequenceNumber32(8500);
        NS_TEST_EXPECT_MSG_EQ(tahoe->GetSsThresh(tcb, 7500), 3000u, "half of 7 segments");
        tcb->m_highTxMark = SequenceNumber32(2000);
        NS_TEST_EXPECT_MSG_EQ(tahoe->GetSsThresh(tcb, 1000), 2000u, "at least 2 segments");
        Ptr<TcpTahoeRecovery> recovery = CreateObject<TcpTahoeRecovery>();
        tcb->m_cWnd = 10000;
        recovery->EnterRecovery(tcb, 3, 7500, 0);
        NS_TEST_EXPECT_MSG_EQ(tcb->m_cWnd.Get(), 1000u, "one segment after a loss");
        NS_TEST_EXPECT_MSG_EQ((recovery->Fork() != nullptr), true, "forks");
    }
};

/** \ingroup tcp-tahoe-tests */
class TcpTahoeTestSuite : public TestSuite
{
  public:
    TcpTahoeTestSuite()
        : TestSuite("tcp-tahoe", Type::UNIT)
    {
        AddTestCase(new TcpTahoeWindowTestCase(), TestCase::Duration::QUICK);
    }
};

static TcpTahoeTestSuite g_tcpTahoeTestSuite;
