/*
 * TracedValueRecorder: a TracedValue's changes as (series, time, value) columns, and a
 * Config path that matches nothing reported as such.
 */
#include "ns3/core-module.h"
#include "ns3/test.h"
#include "ns3/traced-value-recorder.h"

using namespace ns3;

namespace
{

/** An object with a traced counter. */
class Counter : public Object
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RecorderTestCounter")
                                .SetParent<Object>()
                                .AddConstructor<Counter>()
                                .AddTraceSource("Value",
                                                "the count",
                                                MakeTraceSourceAccessor(&Counter::m_value),
                                                "ns3::TracedValueCallback::Uint32");
        return tid;
    }

    void Set(uint32_t v)
    {
        m_value = v;
    }

  private:
    TracedValue<uint32_t> m_value{0};
};

} // namespace

class TracedValueRecorderTestCase : public TestCase
{
  public:
    TracedValueRecorderTestCase()
        : TestCase("traced values as columns")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Counter> counter = CreateObject<Counter>();
        Ptr<TracedValueRecorder> recorder = CreateObject<TracedValueRecorder>();
        NS_TEST_ASSERT_MSG_EQ(recorder->Watch(counter, "Value", TracedValueRecorder::UINT32, 7),
                              true,
                              "connected");
        Simulator::Schedule(Seconds(1), &Counter::Set, counter, 5u);
        Simulator::Schedule(Seconds(2), &Counter::Set, counter, 5u); // no change: no record
        Simulator::Schedule(Seconds(3), &Counter::Set, counter, 9u);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(recorder->GetN(), 2u, "two changes");
        NS_TEST_EXPECT_MSG_EQ(recorder->GetSeries()[1], 7u, "series");
        NS_TEST_EXPECT_MSG_EQ(recorder->GetTimesNs()[1], Seconds(3).GetNanoSeconds(), "time");
        NS_TEST_EXPECT_MSG_EQ(recorder->GetValues()[0], 5.0, "first value");
        NS_TEST_EXPECT_MSG_EQ(recorder->GetValues()[1], 9.0, "second value");
        NS_TEST_EXPECT_MSG_EQ(
            recorder->WatchPath("/NodeList/42/Nothing", TracedValueRecorder::UINT32, 1),
            false,
            "a path that matches nothing");
        Simulator::Destroy();
    }
};

/** \ingroup recorder-tests */
class RecorderTestSuite : public TestSuite
{
  public:
    RecorderTestSuite()
        : TestSuite("recorder", Type::UNIT)
    {
        AddTestCase(new TracedValueRecorderTestCase(), TestCase::Duration::QUICK);
    }
};

static RecorderTestSuite g_recorderTestSuite;
