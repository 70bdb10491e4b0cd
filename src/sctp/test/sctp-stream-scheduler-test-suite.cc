/*
 * The stream schedulers of RFC 8260 section 3, each on a hand-built queue: messages are
 * queued in a known order into an SctpTxQueue with the scheduler, every chunk is cut as
 * the sender cuts them, and the order of the chunks' messages is compared with the order
 * the scheduler defines, worked out by hand in each test's comment.
 */
#include "ns3/sctp-stream-schedulers.h"
#include "ns3/sctp-tx-queue.h"
#include "ns3/test.h"

#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** One message of a hand-built queue: label, stream, size in bytes. */
struct QueuedMessage
{
    std::string label;
    uint16_t stream;
    uint32_t size;
};

/** Queue \p messages (in this order) in a queue of 4 streams using \p scheduler. */
class SchedulerBench
{
  public:
    SchedulerBench(Ptr<SctpStreamScheduler> scheduler, const std::vector<QueuedMessage>& messages)
    {
        m_queue.SetScheduler(scheduler);
        m_queue.Initialize(1000, 4);
        for (const auto& q : messages)
        {
            auto m = Create<SctpOutboundMessage>();
            m->streamId = q.stream;
            m->data.assign(q.size, 0);
            m_labels[PeekPointer(m)] = q.label;
            m_messages[q.label] = m;
            m_queue.Enqueue(m);
        }
    }

    /**
     * Cut up to \p count chunks of at most \p maxPayload bytes, closing a packet every
     * \p chunksPerPacket chunks (0: never); \return the chunks' labels, space-separated.
     */
    std::string Cut(uint32_t count = 1000, uint32_t maxPayload = 1452, uint32_t chunksPerPacket = 0)
    {
        std::string order;
        uint32_t inPacket = 0;
        for (uint32_t i = 0; i < count && m_queue.HasUnsentData(); ++i)
        {
            const SctpTxChunk& c = m_queue.NextChunk(maxPayload);
            order += (order.empty() ? "" : " ") + m_labels.at(PeekPointer(c.message));
            if (chunksPerPacket > 0 && ++inPacket == chunksPerPacket)
            {
                m_queue.PacketDone();
                inPacket = 0;
            }
        }
        return order;
    }

    SctpTxQueue& GetQueue()
    {
        return m_queue;
    }

    Ptr<SctpOutboundMessage> Get(const std::string& label) const
    {
        return m_messages.at(label);
    }

    std::string Labels(const std::vector<Ptr<SctpOutboundMessage>>& messages) const
    {
        std::string labels;
        for (const auto& m : messages)
        {
            labels += (labels.empty() ? "" : " ") + m_labels.at(PeekPointer(m));
        }
        return labels;
    }

  private:
    SctpTxQueue m_queue;
    std::map<const SctpOutboundMessage*, std::string> m_labels;
    std::map<std::string, Ptr<SctpOutboundMessage>> m_messages;
};

/** a1 is 2500 bytes (three chunks of at most 1000), the rest 100 bytes each. */
const std::vector<QueuedMessage> kThreeStreams = {{"a1", 0, 2500},
                                                  {"a2", 0, 100},
                                                  {"a3", 0, 100},
                                                  {"b1", 1, 100},
                                                  {"b2", 1, 100},
                                                  {"c1", 2, 100}};

} // namespace

/** FCFS (3.1): the order of Send(), whatever the stream. */
class SctpFcfsSchedulerTestCase : public TestCase
{
  public:
    SctpFcfsSchedulerTestCase()
        : TestCase("first come, first served: the order of Send()")
    {
    }

  private:
    void DoRun() override
    {
        SchedulerBench bench(CreateObject<SctpFcfsStreamScheduler>(), kThreeStreams);
        NS_TEST_EXPECT_MSG_EQ(bench.Cut(1000, 1000),
                              "a1 a1 a1 a2 a3 b1 b2 c1",
                              "messages leave as they were sent");
    }
};

/**
 * Round robin (3.2): one message per stream in turn. Streams 0, 1, 2 give a1 (its three
 * chunks together: DATA fragments need consecutive TSNs), b1, c1; then a2, b2 (stream 2
 * is empty); then a3.
 */
class SctpRoundRobinSchedulerTestCase : public TestCase
{
  public:
    SctpRoundRobinSchedulerTestCase()
        : TestCase("round robin: one message per stream in turn, fragments together")
    {
    }

  private:
    void DoRun() override
    {
        SchedulerBench bench(CreateObject<SctpRoundRobinStreamScheduler>(), kThreeStreams);
        NS_TEST_EXPECT_MSG_EQ(bench.Cut(1000, 1000), "a1 a1 a1 b1 c1 a2 b2 a3", "round robin");
        // SSNs stay per stream in the order of Send (the scheduler changes only the TSNs).
        NS_TEST_EXPECT_MSG_EQ(bench.Get("a3")->ssn, 2, "a3 is stream 0's third message");
        NS_TEST_EXPECT_MSG_EQ(bench.Get("b2")->ssn, 1, "b2 is stream 1's second message");
        NS_TEST_EXPECT_MSG_EQ(bench.Get("c1")->firstTsn, 1004u, "c1 got the fifth TSN");

        // Two busy streams alternate, the lower-numbered one first.
        SchedulerBench again(CreateObject<SctpRoundRobinStreamScheduler>(),
                             {{"a1", 0, 100}, {"a2", 0, 100}, {"a3", 0, 100}, {"d1", 3, 100}});
        NS_TEST_EXPECT_MSG_EQ(again.Cut(), "a1 d1 a2 a3", "streams 0 and 3 alternate");
    }
};

/**
 * Round robin per packet (3.3), packets of two chunks: stream 0 fills the first packet
 * (a1 a2), stream 1 the second (b1 b2), stream 2 the third (c1, and as it has no more,
 * a3 from the next stream, stream 0). Plain round robin gives a1 b1 c1 a2 b2 a3.
 */
class SctpRoundRobinPacketSchedulerTestCase : public TestCase
{
  public:
    SctpRoundRobinPacketSchedulerTestCase()
        : TestCase("round robin per packet: streams change between packets")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<QueuedMessage> small = {{"a1", 0, 100},
                                            {"a2", 0, 100},
                                            {"a3", 0, 100},
                                            {"b1", 1, 100},
                                            {"b2", 1, 100},
                                            {"c1", 2, 100}};
        SchedulerBench perPacket(CreateObject<SctpRoundRobinPacketStreamScheduler>(), small);
        NS_TEST_EXPECT_MSG_EQ(perPacket.Cut(1000, 1452, 2),
                              "a1 a2 b1 b2 c1 a3",
                              "one stream per packet while it has messages");
        SchedulerBench perMessage(CreateObject<SctpRoundRobinStreamScheduler>(), small);
        NS_TEST_EXPECT_MSG_EQ(perMessage.Cut(1000, 1452, 2),
                              "a1 b1 c1 a2 b2 a3",
                              "round robin per message ignores packets");
        // Without packet boundaries the packet's stream is kept as long as it has data.
        SchedulerBench noBoundary(CreateObject<SctpRoundRobinPacketStreamScheduler>(), small);
        NS_TEST_EXPECT_MSG_EQ(noBoundary.Cut(), "a1 a2 a3 b1 b2 c1", "one long packet");
    }
};

/**
 * Priority (3.4): stream 0 priority 2, stream 1 priority 1, streams 2 and 3 priority 0.
 * Streams 2 and 3 share in round robin (c1 d1 c2), then stream 1, then stream 0. When
 * stream 0's priority becomes 0 after three messages, its messages overtake stream 1's.
 */
class SctpPrioritySchedulerTestCase : public TestCase
{
  public:
    SctpPrioritySchedulerTestCase()
        : TestCase("priority: lowest value first, round robin among equals")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<QueuedMessage> messages = {{"a1", 0, 100},
                                               {"a2", 0, 100},
                                               {"b1", 1, 100},
                                               {"b2", 1, 100},
                                               {"c1", 2, 100},
                                               {"c2", 2, 100},
                                               {"d1", 3, 100}};
        auto make = []() {
            Ptr<SctpStreamScheduler> s = CreateObject<SctpPriorityStreamScheduler>();
            s->SetStreamPriority(0, 2);
            s->SetStreamPriority(1, 1);
            s->SetStreamPriority(2, 0);
            s->SetStreamPriority(3, 0);
            return s;
        };
        SchedulerBench fixed(make(), messages);
        NS_TEST_EXPECT_MSG_EQ(fixed.Cut(), "c1 d1 c2 b1 b2 a1 a2", "strict priorities");

        Ptr<SctpStreamScheduler> s = make();
        SchedulerBench changed(s, messages);
        NS_TEST_EXPECT_MSG_EQ(changed.Cut(3), "c1 d1 c2", "the priority-0 streams");
        s->SetStreamPriority(0, 0);
        NS_TEST_EXPECT_MSG_EQ(changed.Cut(), "a1 a2 b1 b2", "stream 0 raised above stream 1");

        SchedulerBench unset(CreateObject<SctpPriorityStreamScheduler>(), messages);
        NS_TEST_EXPECT_MSG_EQ(unset.Cut(),
                              "a1 b1 c1 d1 a2 b2 c2",
                              "every stream at the default priority 0: round robin");
    }
};

/**
 * Fair capacity (3.5): stream 0 has three 1000-byte messages, stream 1 eight 250-byte
 * ones (all queued at once, stream 0's first). Finish tags (bytes, V the tag of the last
 * message sent): a1 1000; b1 250, b2 500, b3 750, b4 1000 (tie with a1: a1 was sent
 * first); a2 2000; b5 1250 ... b8 2000 (tie with a2: a2 first); a3 3000. So stream 1
 * sends four messages (1000 bytes) for each of stream 0's.
 */
class SctpFairCapacitySchedulerTestCase : public TestCase
{
  public:
    SctpFairCapacitySchedulerTestCase()
        : TestCase("fair capacity: equal bytes per stream")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<QueuedMessage> messages = {{"a1", 0, 1000}, {"a2", 0, 1000}, {"a3", 0, 1000}};
        for (int i = 1; i <= 8; ++i)
        {
            messages.push_back({"b" + std::to_string(i), 1, 250});
        }
        SchedulerBench fc(CreateObject<SctpFairCapacityStreamScheduler>(), messages);
        NS_TEST_EXPECT_MSG_EQ(fc.Cut(),
                              "b1 b2 b3 a1 b4 b5 b6 b7 a2 b8 a3",
                              "1000 bytes of each stream in turn");
        SchedulerBench rr(CreateObject<SctpRoundRobinStreamScheduler>(), messages);
        NS_TEST_EXPECT_MSG_EQ(rr.Cut(),
                              "a1 b1 a2 b2 a3 b3 b4 b5 b6 b7 b8",
                              "round robin counts messages, not bytes");
        // Fair capacity ignores weights.
        Ptr<SctpStreamScheduler> weighted = CreateObject<SctpFairCapacityStreamScheduler>();
        weighted->SetStreamWeight(0, 4);
        SchedulerBench ignoring(weighted, messages);
        NS_TEST_EXPECT_MSG_EQ(ignoring.Cut(),
                              "b1 b2 b3 a1 b4 b5 b6 b7 a2 b8 a3",
                              "weights do not change fair capacity");
    }
};

/**
 * Weighted fair queueing (3.6): six 300-byte messages on stream 1 (queued first) and six
 * on stream 0, stream 0 with weight 3 and stream 1 with weight 1. Tags: a1 100, a2 200,
 * b1 300 (tie with a3 300: b1 was queued first), a3 300, a4 400, a5 500, b2 600 (tie with
 * a6: b2 first), a6 600, then b3 to b6: three of stream 0's messages per one of stream 1.
 */
class SctpWfqSchedulerTestCase : public TestCase
{
  public:
    SctpWfqSchedulerTestCase()
        : TestCase("weighted fair queueing: bytes in proportion to the weights")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<QueuedMessage> messages;
        for (int i = 1; i <= 6; ++i)
        {
            messages.push_back({"b" + std::to_string(i), 1, 300});
        }
        for (int i = 1; i <= 6; ++i)
        {
            messages.push_back({"a" + std::to_string(i), 0, 300});
        }
        Ptr<SctpStreamScheduler> wfq = CreateObject<SctpWfqStreamScheduler>();
        wfq->SetStreamWeight(0, 3);
        NS_TEST_EXPECT_MSG_EQ(wfq->GetStreamWeight(1), 1, "default weight");
        SchedulerBench weighted(wfq, messages);
        NS_TEST_EXPECT_MSG_EQ(weighted.Cut(),
                              "a1 a2 b1 a3 a4 a5 b2 a6 b3 b4 b5 b6",
                              "weights 3:1");
        SchedulerBench equal(CreateObject<SctpWfqStreamScheduler>(), messages);
        NS_TEST_EXPECT_MSG_EQ(equal.Cut(),
                              "b1 a1 b2 a2 b3 a3 b4 a4 b5 a5 b6 a6",
                              "equal weights alternate equal-sized messages");
    }
};

/**
 * What every per-stream scheduler shares: GetMessages in the order of Send (PR-SCTP's
 * priority policy reads it), removal of a queued message and of a message in progress
 * (PR-SCTP abandoning it), Clear, and an idle stream restarting at the current virtual
 * time under WFQ.
 */
class SctpStreamQueuesTestCase : public TestCase
{
  public:
    SctpStreamQueuesTestCase()
        : TestCase("per-stream queues: pending order, removal, clear")
    {
    }

  private:
    void DoRun() override
    {
        SchedulerBench bench(CreateObject<SctpRoundRobinStreamScheduler>(), kThreeStreams);
        SctpTxQueue& q = bench.GetQueue();
        NS_TEST_EXPECT_MSG_EQ(bench.Labels(q.GetPending()),
                              "a1 a2 a3 b1 b2 c1",
                              "pending messages in the order of Send");
        NS_TEST_EXPECT_MSG_EQ(bench.Cut(1, 1000), "a1", "a1's first chunk");
        NS_TEST_EXPECT_MSG_EQ(q.DropUnsent(bench.Get("a1")), 1500u, "a1's unsent bytes");
        NS_TEST_EXPECT_MSG_EQ(q.DropUnsent(bench.Get("b2")), 100u, "b2 before it was sent");
        NS_TEST_EXPECT_MSG_EQ(q.DropUnsent(bench.Get("b2")), 0u, "b2 is gone");
        NS_TEST_EXPECT_MSG_EQ(bench.Labels(q.GetPending()), "a2 a3 b1 c1", "left");
        NS_TEST_EXPECT_MSG_EQ(bench.Cut(), "b1 c1 a2 a3", "round robin goes on after a1");
        NS_TEST_EXPECT_MSG_EQ(q.HasUnsentData(), false, "all sent");

        SchedulerBench cleared(CreateObject<SctpWfqStreamScheduler>(), kThreeStreams);
        cleared.GetQueue().Initialize(5000, 4);
        NS_TEST_EXPECT_MSG_EQ(cleared.GetQueue().HasUnsentData(), false, "a new association");

        // Stream 1 idle while stream 0 sends 3000 bytes: it does not get 3000 bytes of
        // credit (its tag starts at the current virtual time).
        Ptr<SctpStreamScheduler> wfq = CreateObject<SctpFairCapacityStreamScheduler>();
        SchedulerBench idle(wfq,
                            {{"a1", 0, 1000}, {"a2", 0, 1000}, {"a3", 0, 1000}, {"a4", 0, 1000}});
        NS_TEST_EXPECT_MSG_EQ(idle.Cut(3), "a1 a2 a3", "stream 0 alone");
        for (int i = 1; i <= 3; ++i)
        {
            auto m = Create<SctpOutboundMessage>();
            m->streamId = 1;
            m->data.assign(1000, 0);
            idle.GetQueue().Enqueue(m);
        }
        std::string rest;
        while (idle.GetQueue().HasUnsentData())
        {
            const SctpTxChunk& c = idle.GetQueue().NextChunk(1452);
            rest += std::to_string(c.message->streamId);
        }
        NS_TEST_EXPECT_MSG_EQ(rest, "0111", "a4 (tag 4000) ties stream 1's first and was first");
    }
};

/** \ingroup sctp-tests The stream schedulers of RFC 8260 section 3. */
class SctpStreamSchedulerTestSuite : public TestSuite
{
  public:
    SctpStreamSchedulerTestSuite()
        : TestSuite("sctp-stream-scheduler", Type::UNIT)
    {
        AddTestCase(new SctpFcfsSchedulerTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpRoundRobinSchedulerTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpRoundRobinPacketSchedulerTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpPrioritySchedulerTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpFairCapacitySchedulerTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpWfqSchedulerTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpStreamQueuesTestCase(), TestCase::Duration::QUICK);
    }
};

static SctpStreamSchedulerTestSuite g_sctpStreamSchedulerTestSuite;
