/*
 * Congestion control and RTO (RFC 9260 sections 6.3.1, 7.2) and their replaceability:
 * the arithmetic of SctpRfc9260CongestionOps and SctpRtoEstimator against hand-computed
 * values, and a second, trivial congestion control installed by attribute (as a user
 * would install one of their own) whose behaviour differs as it is defined to.
 */
#include "sctp-test-network.h"

#include "ns3/test.h"

using namespace ns3;
using namespace ns3::sctptest;

namespace ns3
{

/**
 * \ingroup sctp-tests
 * A fixed congestion window: every destination's cwnd is Window bytes from the start
 * and stays so through acknowledgements, fast retransmits, timeouts and idle periods.
 */
class SctpFixedWindowCongestionOps : public SctpCongestionOps
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::SctpFixedWindowCongestionOps")
                .SetParent<SctpCongestionOps>()
                .SetGroupName("Sctp")
                .AddConstructor<SctpFixedWindowCongestionOps>()
                .AddAttribute("Window",
                              "The congestion window of every destination (bytes).",
                              UintegerValue(2936),
                              MakeUintegerAccessor(&SctpFixedWindowCongestionOps::m_window),
                              MakeUintegerChecker<uint32_t>(1));
        return tid;
    }

    std::string GetName() const override
    {
        return "SctpFixedWindowCongestionOps";
    }

    uint32_t GetInitialCwnd(const SctpPath&) const override
    {
        return m_window;
    }

    uint32_t GetInitialSsthresh(const SctpPath&, uint32_t peerRwnd) const override
    {
        return peerRwnd;
    }

    void BytesAcked(SctpPath&, uint32_t, bool, bool) override
    {
    }

    void FastRetransmit(SctpPath&) override
    {
    }

    void RetransmissionTimeout(SctpPath&) override
    {
    }

    void Idle(SctpPath&, Time) override
    {
    }

    Ptr<SctpCongestionOps> Fork() const override
    {
        return CopyObject<SctpFixedWindowCongestionOps>(this);
    }

  private:
    uint32_t m_window{2936};
};

NS_OBJECT_ENSURE_REGISTERED(SctpFixedWindowCongestionOps);

} // namespace ns3

namespace
{

/** cwnd of the client's primary path over a transfer. */
class CwndLog : public SimpleRefCount<CwndLog>
{
  public:
    void Record(uint32_t, uint32_t now)
    {
        values.push_back(now);
    }

    std::vector<uint32_t> values;
};

struct TransferResult
{
    std::string algorithm;
    std::vector<uint32_t> cwnd;
    Time done;
    uint32_t messages{0};
    uint32_t timeouts{0};
};

/** 500 messages of 1452 bytes over 10 Mb/s, 20 ms, with 2 % loss on the data path. */
TransferResult
Transfer(const std::string& congestionOps)
{
    if (!congestionOps.empty())
    {
        Config::SetDefault("ns3::SctpL4Protocol::CongestionOps",
                           TypeIdValue(TypeId::LookupByName(congestionOps)));
    }
    RngSeedManager::SetSeed(3);
    RngSeedManager::SetRun(1);
    TwoNodes net(1, DataRate("10Mbps"), MilliSeconds(20));
    Ptr<RateErrorModel> loss = CreateObject<RateErrorModel>();
    loss->SetAttribute("ErrorRate", DoubleValue(0.02));
    loss->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
    net.devices[0].Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(loss));
    Ptr<Sink> sink = Create<Sink>();
    sink->Listen(net.Socket(1), 9);
    Ptr<SctpSocket> client = net.Socket(0);
    Ptr<CwndLog> cwnd = Create<CwndLog>();
    client->TraceConnectWithoutContext("CongestionWindow", MakeCallback(&CwndLog::Record, cwnd));
    Ptr<Source> source = Create<Source>();
    source->StartAt(Seconds(1), client, InetSocketAddress(net.Address(1), 9), 500, 1452);
    Simulator::Stop(Seconds(60));
    Simulator::Run();
    TransferResult r;
    r.algorithm = client->GetCongestionOps()->GetName();
    r.cwnd = cwnd->values;
    r.done = sink->times.empty() ? Seconds(-1) : sink->times.back();
    r.messages = static_cast<uint32_t>(sink->sizes.size());
    r.timeouts = client->GetAssociation()->GetSender().GetTimeoutCount();
    Simulator::Destroy();
    Config::Reset();
    return r;
}

} // namespace

/** Slow start, congestion avoidance, the reductions and the idle decay of 7.2. */
class SctpRfc9260CongestionOpsTestCase : public TestCase
{
  public:
    SctpRfc9260CongestionOpsTestCase()
        : TestCase("RFC 9260 section 7.2 window arithmetic")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SctpRfc9260CongestionOps> cc = CreateObject<SctpRfc9260CongestionOps>();
        Ptr<SctpPath> path = CreateObject<SctpPath>();
        path->SetAddress(Ipv4Address("10.0.0.1"));
        path->SetMtu(1500, 20);
        uint32_t pmdcs = path->GetPmdcs();
        NS_TEST_ASSERT_MSG_EQ(pmdcs, 1468u, "1500 - 20 - 12");
        // 7.2.1: min(4 PMDCS, max(2 PMDCS, 4404)) = 4404 for IPv4; 4344 for IPv6.
        NS_TEST_EXPECT_MSG_EQ(cc->GetInitialCwnd(*path), 4404u, "IPv4 initial cwnd");
        Ptr<SctpPath> v6 = CreateObject<SctpPath>();
        v6->SetAddress(Ipv6Address("2001:db8::1"));
        v6->SetMtu(1500, 40);
        NS_TEST_EXPECT_MSG_EQ(cc->GetInitialCwnd(*v6), 4344u, "IPv6 initial cwnd");
        NS_TEST_EXPECT_MSG_EQ(cc->GetInitialSsthresh(*path, 65536), 65536u, "ssthresh = a_rwnd");
        // Slow start: at most one PMDCS per SACK, only with a full window, not in FR.
        path->InitializeCongestionControl(4 * pmdcs, 8 * pmdcs);
        cc->BytesAcked(*path, 3 * pmdcs, true, false);
        NS_TEST_EXPECT_MSG_EQ(path->GetCwnd(), 5 * pmdcs, "+1 PMDCS");
        cc->BytesAcked(*path, pmdcs, false, false);
        NS_TEST_EXPECT_MSG_EQ(path->GetCwnd(), 5 * pmdcs, "window not used: no growth");
        cc->BytesAcked(*path, pmdcs, true, true);
        NS_TEST_EXPECT_MSG_EQ(path->GetCwnd(), 5 * pmdcs, "in fast recovery: no growth");
        // Congestion avoidance: one PMDCS per window of acknowledged bytes.
        path->InitializeCongestionControl(10 * pmdcs, 5 * pmdcs);
        for (int i = 0; i < 9; ++i)
        {
            cc->BytesAcked(*path, pmdcs, true, false);
        }
        NS_TEST_EXPECT_MSG_EQ(path->GetCwnd(), 10 * pmdcs, "not yet a full window");
        cc->BytesAcked(*path, pmdcs, true, false);
        NS_TEST_EXPECT_MSG_EQ(path->GetCwnd(), 11 * pmdcs, "+1 PMDCS per window");
        NS_TEST_EXPECT_MSG_EQ(path->GetPartialBytesAcked(), 0u, "partial_bytes_acked - cwnd");
        for (int i = 0; i < 30; ++i)
        {
            cc->BytesAcked(*path, pmdcs, false, false);
        }
        NS_TEST_EXPECT_MSG_EQ(path->GetPartialBytesAcked(), 11 * pmdcs, "capped at cwnd");
        cc->FastRetransmit(*path);
        NS_TEST_EXPECT_MSG_EQ(path->GetSsthresh(), 11 * pmdcs / 2, "ssthresh = cwnd / 2");
        NS_TEST_EXPECT_MSG_EQ(path->GetCwnd(), 11 * pmdcs / 2, "cwnd = ssthresh");
        cc->RetransmissionTimeout(*path);
        NS_TEST_EXPECT_MSG_EQ(path->GetCwnd(), pmdcs, "timeout: 1 PMDCS");
        NS_TEST_EXPECT_MSG_EQ(path->GetSsthresh(), 4 * pmdcs, "max(cwnd / 2, 4 PMDCS)");
        // Idle decay: halved per RTO without data, not below 4 PMDCS; ssthresh = cwnd.
        path->InitializeCongestionControl(20 * pmdcs, 30 * pmdcs);
        path->InitializeRto(Seconds(1));
        path->SetLastSendTime(Seconds(10));
        cc->Idle(*path, Seconds(12.5));
        NS_TEST_EXPECT_MSG_EQ(path->GetSsthresh(), 20 * pmdcs, "cwnd before the decay");
        NS_TEST_EXPECT_MSG_EQ(path->GetCwnd(), 5 * pmdcs, "two RTOs: 20 -> 10 -> 5 PMDCS");
        cc->Idle(*path, Seconds(13.5));
        NS_TEST_EXPECT_MSG_EQ(path->GetCwnd(), 4 * pmdcs, "floor of 4 PMDCS");
    }
};

/** SRTT, RTTVAR and RTO after C2 and C3, bounded by C6 and C7; E2's back-off. */
class SctpRtoEstimatorTestCase : public TestCase
{
  public:
    SctpRtoEstimatorTestCase()
        : TestCase("RFC 9260 section 6.3.1 RTO")
    {
    }

  private:
    void DoRun() override
    {
        SctpRtoEstimator e;
        Time rto = e.Update(MilliSeconds(100), MilliSeconds(10), Seconds(60), 0.125, 0.25);
        NS_TEST_EXPECT_MSG_EQ(e.GetSrtt(), MilliSeconds(100), "C2: SRTT = R");
        NS_TEST_EXPECT_MSG_EQ(e.GetRttVar(), MilliSeconds(50), "C2: RTTVAR = R / 2");
        NS_TEST_EXPECT_MSG_EQ(rto, MilliSeconds(300), "SRTT + 4 RTTVAR");
        rto = e.Update(MilliSeconds(200), MilliSeconds(10), Seconds(60), 0.125, 0.25);
        NS_TEST_EXPECT_MSG_EQ(e.GetRttVar(), MicroSeconds(62500), "C3: 3/4 * 50 + 1/4 * 100");
        NS_TEST_EXPECT_MSG_EQ(e.GetSrtt(), MicroSeconds(112500), "C3: 7/8 * 100 + 1/8 * 200");
        NS_TEST_EXPECT_MSG_EQ(rto, MicroSeconds(112500 + 4 * 62500), "RTO");
        rto = e.Update(MilliSeconds(1), Seconds(1), Seconds(60), 0.125, 0.25);
        NS_TEST_EXPECT_MSG_EQ(rto, Seconds(1), "C6: at least RTO.Min");
        NS_TEST_EXPECT_MSG_EQ(SctpRtoEstimator::BackOff(Seconds(1), Seconds(60)), Seconds(2), "E2");
        NS_TEST_EXPECT_MSG_EQ(SctpRtoEstimator::BackOff(Seconds(2), Seconds(3)), Seconds(3), "C7");
        e.Reset();
        NS_TEST_EXPECT_MSG_EQ(e.HasMeasurement(), false, "C1 again");
    }
};

/** The second algorithm, chosen by attribute, keeps its window where RFC 9260's moves. */
class SctpCongestionOpsByAttributeTestCase : public TestCase
{
  public:
    SctpCongestionOpsByAttributeTestCase()
        : TestCase("a fixed-window congestion control installed by attribute")
    {
    }

  private:
    void DoRun() override
    {
        TransferResult rfc = Transfer("");
        TransferResult fixed = Transfer("ns3::SctpFixedWindowCongestionOps");
        NS_TEST_EXPECT_MSG_EQ(rfc.algorithm, "SctpRfc9260CongestionOps", "the default");
        NS_TEST_EXPECT_MSG_EQ(fixed.algorithm, "SctpFixedWindowCongestionOps", "the attribute's");
        NS_TEST_ASSERT_MSG_EQ(rfc.messages, 500u, "RFC 9260: every message");
        NS_TEST_ASSERT_MSG_EQ(fixed.messages, 500u, "fixed window: every message");
        // Fixed window: the cwnd is 2936 bytes from the start and never changes, through
        // the losses too (the trace fires only on a change: one value).
        NS_TEST_ASSERT_MSG_EQ(fixed.cwnd.size(), 1u, "one cwnd value");
        NS_TEST_EXPECT_MSG_EQ(fixed.cwnd[0], 2936u, "the Window attribute");
        // RFC 9260: starts at 4404, grows in slow start and falls after losses.
        NS_TEST_ASSERT_MSG_GT(rfc.cwnd.size(), 10u, "the window moves");
        NS_TEST_EXPECT_MSG_EQ(rfc.cwnd[0], 4404u, "RFC 9260 initial window");
        uint32_t highest = *std::max_element(rfc.cwnd.begin(), rfc.cwnd.end());
        NS_TEST_EXPECT_MSG_GT(highest, 4 * 4404u, "grows well beyond the start");
        bool fell = false;
        for (std::size_t i = 1; i < rfc.cwnd.size(); ++i)
        {
            fell = fell || rfc.cwnd[i] < rfc.cwnd[i - 1];
        }
        NS_TEST_EXPECT_MSG_EQ(fell, true, "and falls after a loss");
        // Two full-sized chunks per round trip (about 42 ms) move 726 kB in about 10 s,
        // far slower than a window that opens.
        NS_TEST_EXPECT_MSG_GT(fixed.done - Seconds(1), Seconds(9), "window-limited");
        NS_TEST_EXPECT_MSG_GT(fixed.done - Seconds(1), 3 * (rfc.done - Seconds(1)), "slower");
    }
};

/**
 * RFC 9260 7.2.2 (UtilizationAtCwnd): the cwnd grows only when the flight size before the
 * SACK was at least the cwnd. A transfer limited by the receiver's 8192-byte window
 * (five chunks of 1452 bytes, 5 x 1468 = 7340 bytes with their headers, fit in it; six,
 * 8712, do not) from a cwnd of 4380 bytes (NS-2.35's): the cwnd grows by one PMDCS
 * (1468) per SACK while it is used, to 4380 + 3 x 1468 = 8784, which the flight of 7340
 * no longer reaches. By default (less than one PMDCS free counts as used) 7340 + 1468 >
 * 8784 grows it once more, to 10252; with UtilizationAtCwnd it stays at 8784.
 */
class SctpUtilizationAtCwndTestCase : public TestCase
{
  public:
    explicit SctpUtilizationAtCwndTestCase(bool atCwnd)
        : TestCase(atCwnd ? "a receiver-window-limited flight: cwnd stops at 8784 "
                            "(UtilizationAtCwnd true)"
                          : "a receiver-window-limited flight: cwnd grows to 10252 "
                            "(UtilizationAtCwnd false)"),
          m_atCwnd(atCwnd)
    {
    }

  private:
    void DoRun() override
    {
        TwoNodes net(1, DataRate("10Mbps"), MilliSeconds(20));
        Ptr<Sink> sink = Create<Sink>();
        Ptr<SctpSocket> server = net.Socket(1);
        server->SetAttribute("RcvBufSize", UintegerValue(8192));
        sink->Listen(server, 9);
        Ptr<SctpSocket> client = net.Socket(0);
        client->SetAttribute("InitialCwnd", UintegerValue(4380));
        client->SetAttribute("UtilizationAtCwnd", BooleanValue(m_atCwnd));
        Ptr<CwndLog> cwnd = Create<CwndLog>();
        client->TraceConnectWithoutContext("CongestionWindow",
                                           MakeCallback(&CwndLog::Record, cwnd));
        Ptr<Source> source = Create<Source>();
        source->StartAt(Seconds(1), client, InetSocketAddress(net.Address(1), 9), 100, 1452);
        Simulator::Stop(Seconds(30));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(sink->sizes.size(), 100u, "every message");
        NS_TEST_ASSERT_MSG_GT(cwnd->values.size(), 0u, "the cwnd traced");
        uint32_t highest = *std::max_element(cwnd->values.begin(), cwnd->values.end());
        NS_TEST_EXPECT_MSG_EQ(highest, m_atCwnd ? 8784u : 10252u, "the largest cwnd");
        NS_TEST_EXPECT_MSG_EQ(cwnd->values.back(), highest, "no loss: it never falls");
        Simulator::Destroy();
    }

    bool m_atCwnd;
};

/** cwnd values traced before the first change of ssthresh (the first fast retransmit). */
class CwndBeforeFastRtx : public SimpleRefCount<CwndBeforeFastRtx>
{
  public:
    void Cwnd(uint32_t, uint32_t now)
    {
        if (!reduced)
        {
            values.push_back(now);
        }
    }

    void Ssthresh(uint32_t before, uint32_t now)
    {
        reduced = reduced || (before > 0 && now < before); // not its first value
    }

    std::vector<uint32_t> values;
    bool reduced{false};
};

/**
 * CwndGrowthOnCumAckOnly (RFC 4960 7.2.1, NS-2.35's AdjustCwnd): the first DATA chunk is
 * lost, so every SACK until its fast retransmit leaves the cumulative TSN ack where it was
 * and only adds a gap block. From a cwnd of 4380 bytes (three chunks of 1468 bytes, a
 * flight of 4404), two such SACKs grow the cwnd by one PMDCS each, to 5848 and 7316, by
 * default (RFC 9260 7.2.1 counts bytes newly acknowledged by gap blocks); with the
 * attribute the cwnd stays at 4380. The fast retransmit then sets it to
 * max(cwnd / 2, 4 x 1468) = 5872 in both.
 */
class SctpCwndGrowthOnCumAckOnlyTestCase : public TestCase
{
  public:
    explicit SctpCwndGrowthOnCumAckOnlyTestCase(bool cumAckOnly)
        : TestCase(cumAckOnly ? "gap-block-only SACKs leave the cwnd at 4380 "
                                "(CwndGrowthOnCumAckOnly true)"
                              : "gap-block-only SACKs grow the cwnd to 5848, 7316 "
                                "(CwndGrowthOnCumAckOnly false)"),
          m_cumAckOnly(cumAckOnly)
    {
    }

  private:
    void DoRun() override
    {
        TwoNodes net(1, DataRate("10Mbps"), MilliSeconds(20));
        Ptr<Dropper> dropper = CreateObject<Dropper>();
        dropper->dataOffsets = {0};
        net.devices[0].Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(dropper));
        Ptr<Sink> sink = Create<Sink>();
        sink->Listen(net.Socket(1), 9);
        Ptr<SctpSocket> client = net.Socket(0);
        client->SetAttribute("InitialCwnd", UintegerValue(4380));
        client->SetAttribute("CwndGrowthOnCumAckOnly", BooleanValue(m_cumAckOnly));
        Ptr<CwndBeforeFastRtx> log = Create<CwndBeforeFastRtx>();
        client->TraceConnectWithoutContext("CongestionWindow",
                                           MakeCallback(&CwndBeforeFastRtx::Cwnd, log));
        client->TraceConnectWithoutContext("SlowStartThreshold",
                                           MakeCallback(&CwndBeforeFastRtx::Ssthresh, log));
        Ptr<Source> source = Create<Source>();
        source->StartAt(Seconds(1), client, InetSocketAddress(net.Address(1), 9), 20, 1452);
        Simulator::Stop(Seconds(30));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(sink->sizes.size(), 20u, "every message");
        NS_TEST_ASSERT_MSG_EQ(dropper->dropped, 1u, "the first DATA lost");
        NS_TEST_ASSERT_MSG_EQ(log->reduced, true, "a fast retransmit");
        // The fast retransmit's cwnd is traced before its ssthresh: the last value.
        std::vector<uint32_t> expected{4380, 5848, 7316, 5872};
        if (m_cumAckOnly)
        {
            expected = {4380, 5872};
        }
        NS_TEST_ASSERT_MSG_EQ(log->values.size(), expected.size(), "cwnd changes");
        for (std::size_t k = 0; k < expected.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(log->values[k], expected[k], "cwnd value " << k);
        }
        Simulator::Destroy();
    }

    bool m_cumAckOnly;
};

/** SctpProtocolParameters' and SctpAssociationConfig's defaults are the attributes'. */
class SctpParameterDefaultsTestCase : public TestCase
{
  public:
    SctpParameterDefaultsTestCase()
        : TestCase("value objects default to the socket attributes' defaults")
    {
    }

  private:
    template <typename V, typename T>
    T Default(const std::string& name)
    {
        TypeId::AttributeInformation info;
        bool found = SctpSocket::GetTypeId().LookupAttributeByName(name, &info);
        NS_ABORT_MSG_UNLESS(found, "no attribute " << name);
        Ptr<const V> v = DynamicCast<const V>(info.initialValue);
        return static_cast<T>(v->Get());
    }

    void DoRun() override
    {
        SctpProtocolParameters p;
        NS_TEST_EXPECT_MSG_EQ(p.rtoInitial, (Default<TimeValue, Time>("RtoInitial")), "RTO.Initial");
        NS_TEST_EXPECT_MSG_EQ(p.rtoMin, (Default<TimeValue, Time>("RtoMin")), "RTO.Min");
        NS_TEST_EXPECT_MSG_EQ(p.rtoMax, (Default<TimeValue, Time>("RtoMax")), "RTO.Max");
        NS_TEST_EXPECT_MSG_EQ(p.rtoAlpha, (Default<DoubleValue, double>("RtoAlpha")), "Alpha");
        NS_TEST_EXPECT_MSG_EQ(p.rtoBeta, (Default<DoubleValue, double>("RtoBeta")), "Beta");
        NS_TEST_EXPECT_MSG_EQ(p.maxBurst, (Default<UintegerValue, uint32_t>("MaxBurst")), "");
        NS_TEST_EXPECT_MSG_EQ(p.validCookieLife,
                              (Default<TimeValue, Time>("ValidCookieLife")),
                              "Valid.Cookie.Life");
        NS_TEST_EXPECT_MSG_EQ(p.associationMaxRetrans,
                              (Default<UintegerValue, uint32_t>("AssociationMaxRetrans")),
                              "Association.Max.Retrans");
        NS_TEST_EXPECT_MSG_EQ(p.pathMaxRetrans,
                              (Default<UintegerValue, uint32_t>("PathMaxRetrans")),
                              "Path.Max.Retrans");
        NS_TEST_EXPECT_MSG_EQ(p.maxInitRetransmits,
                              (Default<UintegerValue, uint32_t>("MaxInitRetransmits")),
                              "Max.Init.Retransmits");
        NS_TEST_EXPECT_MSG_EQ(p.hbInterval, (Default<TimeValue, Time>("HbInterval")), "HB.interval");
        NS_TEST_EXPECT_MSG_EQ(p.hbMaxBurst, (Default<UintegerValue, uint32_t>("HbMaxBurst")), "");
        NS_TEST_EXPECT_MSG_EQ(p.potentiallyFailedMaxRetrans,
                              (Default<UintegerValue, uint32_t>("PotentiallyFailedMaxRetrans")),
                              "PFMR");
        NS_TEST_EXPECT_MSG_EQ(p.primarySwitchoverMaxRetrans,
                              (Default<UintegerValue, uint32_t>("PrimarySwitchoverMaxRetrans")),
                              "PSMR");
        NS_TEST_EXPECT_MSG_EQ(p.IsPotentiallyFailedEnabled(), false, "SCTP-PF off by default");
        SctpAssociationConfig c;
        NS_TEST_EXPECT_MSG_EQ(c.rcvBufSize, (Default<UintegerValue, uint32_t>("RcvBufSize")), "");
        NS_TEST_EXPECT_MSG_EQ(c.outboundStreams,
                              (Default<UintegerValue, uint16_t>("OutboundStreams")),
                              "OS");
        NS_TEST_EXPECT_MSG_EQ(c.maxInboundStreams,
                              (Default<UintegerValue, uint16_t>("MaxInboundStreams")),
                              "MIS");
        NS_TEST_EXPECT_MSG_EQ(c.sackDelay, (Default<TimeValue, Time>("SackDelay")), "SACK delay");
        NS_TEST_EXPECT_MSG_EQ(c.sackFrequency,
                              (Default<UintegerValue, uint32_t>("SackFrequency")),
                              "SACK frequency");
        NS_TEST_EXPECT_MSG_EQ(c.fastRtxTrigger,
                              (Default<UintegerValue, uint32_t>("FastRtxTrigger")),
                              "FastRtxTrigger");
        NS_TEST_EXPECT_MSG_EQ(c.utilizationAtCwnd,
                              (Default<BooleanValue, bool>("UtilizationAtCwnd")),
                              "UtilizationAtCwnd");
        NS_TEST_EXPECT_MSG_EQ(c.cwndGrowthOnCumAckOnly,
                              (Default<BooleanValue, bool>("CwndGrowthOnCumAckOnly")),
                              "CwndGrowthOnCumAckOnly");
        NS_TEST_EXPECT_MSG_EQ(c.changePrimaryThresh,
                              (Default<IntegerValue, int32_t>("ChangePrimaryThresh")),
                              "ChangePrimaryThresh");
        // Setting an attribute lands in the value object the association reads.
        Ptr<SctpSocket> socket = CreateObject<SctpSocket>();
        socket->SetAttribute("RtoMin", TimeValue(MilliSeconds(200)));
        socket->SetAttribute("FastRtxTrigger", UintegerValue(4));
        TimeValue rtoMin;
        socket->GetAttribute("RtoMin", rtoMin);
        NS_TEST_EXPECT_MSG_EQ(rtoMin.Get(), MilliSeconds(200), "read back");
        NS_TEST_EXPECT_MSG_EQ(socket->GetAssociation()->GetParameters().rtoMin,
                              MilliSeconds(200),
                              "the association sees it");
        NS_TEST_EXPECT_MSG_EQ(socket->GetAssociation()->GetConfig().fastRtxTrigger,
                              4u,
                              "and the other settings too");
        socket->Dispose();
    }
};

/** First come, first served: the sender takes messages in Send() order, any stream. */
class SctpStreamSchedulerTestCase : public TestCase
{
  public:
    SctpStreamSchedulerTestCase()
        : TestCase("first-come first-served stream scheduler")
    {
    }

  private:
    void DoRun() override
    {
        SctpTxQueue queue;
        queue.Initialize(100, 3);
        for (uint16_t sid : {2, 0, 2, 1})
        {
            auto m = Create<SctpOutboundMessage>();
            m->streamId = sid;
            m->data.assign(sid == 0 ? 2500 : 100, 0);
            queue.Enqueue(m);
        }
        std::vector<uint16_t> streams;
        std::vector<uint16_t> ssns;
        while (queue.HasUnsentData())
        {
            SctpTxChunk& c = queue.NextChunk(1000);
            streams.push_back(c.message->streamId);
            ssns.push_back(c.message->ssn);
        }
        std::vector<uint16_t> expected = {2, 0, 0, 0, 2, 1}; // stream 0's message in 3 chunks
        NS_TEST_ASSERT_MSG_EQ(streams.size(), expected.size(), "six chunks");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(streams[i], expected[i], "chunk " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(ssns[4], 1, "second message of stream 2: SSN 1");
        NS_TEST_EXPECT_MSG_EQ(queue.GetOutstanding().front().tsn, 100u, "TSNs from the initial");
        NS_TEST_EXPECT_MSG_EQ(queue.GetScheduler()->GetInstanceTypeId().GetName(),
                              "ns3::SctpFcfsStreamScheduler",
                              "the default scheduler");
    }
};

/** \ingroup sctp-tests Congestion control, RTO and the configuration objects. */
class SctpCongestionOpsTestSuite : public TestSuite
{
  public:
    SctpCongestionOpsTestSuite()
        : TestSuite("sctp-congestion-ops", Type::UNIT)
    {
        AddTestCase(new SctpRfc9260CongestionOpsTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpRtoEstimatorTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpParameterDefaultsTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpStreamSchedulerTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpCongestionOpsByAttributeTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpUtilizationAtCwndTestCase(false), TestCase::Duration::QUICK);
        AddTestCase(new SctpUtilizationAtCwndTestCase(true), TestCase::Duration::QUICK);
        AddTestCase(new SctpCwndGrowthOnCumAckOnlyTestCase(false), TestCase::Duration::QUICK);
        AddTestCase(new SctpCwndGrowthOnCumAckOnlyTestCase(true), TestCase::Duration::QUICK);
    }
};

static SctpCongestionOpsTestSuite g_sctpCongestionOpsTestSuite;
