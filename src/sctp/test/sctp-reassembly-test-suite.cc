/*
 * Reassembly and ordered delivery (RFC 9260 sections 6.5, 6.6, 6.9) and the stream
 * skips of FORWARD TSN (RFC 3758 3.6), on SctpReassemblyQueue.
 */
#include "ns3/sctp-chunk.h"
#include "ns3/sctp-header.h"
#include "ns3/sctp-reassembly-queue.h"
#include "ns3/test.h"

#include <deque>
#include <memory>
#include <vector>

using namespace ns3;

namespace
{

/** DATA chunks built on the wire and parsed back (their payload points into the bytes). */
class Chunks
{
  public:
    const SctpDataChunk& Add(uint32_t tsn,
                             uint16_t sid,
                             uint16_t ssn,
                             uint8_t flags,
                             const std::vector<uint8_t>& payload)
    {
        auto bytes = std::make_unique<std::vector<uint8_t>>();
        SctpByteWriter w(*bytes);
        SctpDataChunk::SerializeHeader(w,
                                       flags,
                                       tsn,
                                       sid,
                                       ssn,
                                       0,
                                       static_cast<uint16_t>(payload.size()));
        w.WriteBytes(payload.data(), payload.size());
        w.PadTo4();
        std::vector<SctpChunk> views;
        SctpSplitChunks(bytes->data(), bytes->size(), views);
        SctpDataChunk data;
        data.Deserialize(views.at(0));
        m_bytes.push_back(std::move(bytes));
        m_chunks.push_back(data);
        return m_chunks.back();
    }

  private:
    std::vector<std::unique_ptr<std::vector<uint8_t>>> m_bytes;
    std::deque<SctpDataChunk> m_chunks;
};

std::vector<uint8_t>
Payload(uint8_t first, uint32_t size)
{
    std::vector<uint8_t> p(size);
    for (uint32_t i = 0; i < size; ++i)
    {
        p[i] = static_cast<uint8_t>(first + i);
    }
    return p;
}

std::vector<uint8_t>
Bytes(const SctpReceivedMessage& m)
{
    std::vector<uint8_t> out(m.data->GetSize());
    m.data->CopyData(out.data(), out.size());
    return out;
}

constexpr uint8_t B = SctpDataChunk::FLAG_B;
constexpr uint8_t E = SctpDataChunk::FLAG_E;
constexpr uint8_t U = SctpDataChunk::FLAG_U;

} // namespace

/** Fragments in any order make one message; ordered streams wait; unordered do not. */
class SctpReassemblyOrderTestCase : public TestCase
{
  public:
    SctpReassemblyOrderTestCase()
        : TestCase("fragments in any order, ordered and unordered delivery")
    {
    }

  private:
    void DoRun() override
    {
        SctpReassemblyQueue queue;
        queue.Initialize(2);
        Chunks c;
        std::deque<SctpReceivedMessage> out;
        std::vector<uint8_t> big = Payload(1, 3000);
        std::vector<uint8_t> first(big.begin(), big.begin() + 1000);
        std::vector<uint8_t> middle(big.begin() + 1000, big.begin() + 2000);
        std::vector<uint8_t> last(big.begin() + 2000, big.end());
        // Stream 0: SSN 1 (one chunk, TSN 13) arrives before SSN 0 (TSNs 10-12, shuffled).
        NS_TEST_ASSERT_MSG_EQ(queue.Add(c.Add(13, 0, 1, B | E, Payload(9, 10)), out), true, "");
        NS_TEST_EXPECT_MSG_EQ(out.size(), 0u, "SSN 1 waits for SSN 0");
        NS_TEST_ASSERT_MSG_EQ(queue.Add(c.Add(12, 0, 0, E, last), out), true, "last fragment");
        NS_TEST_ASSERT_MSG_EQ(queue.Add(c.Add(10, 0, 0, B, first), out), true, "first fragment");
        NS_TEST_EXPECT_MSG_EQ(out.size(), 0u, "the middle fragment is missing");
        NS_TEST_EXPECT_MSG_EQ(queue.GetBufferedBytes(), 3000u - 1000u + 10u, "held bytes");
        // An unordered message on stream 1 does not wait for anything.
        NS_TEST_ASSERT_MSG_EQ(queue.Add(c.Add(14, 1, 0, B | E | U, Payload(7, 5)), out), true, "");
        NS_TEST_ASSERT_MSG_EQ(out.size(), 1u, "unordered delivered at once");
        NS_TEST_EXPECT_MSG_EQ(out[0].unordered, true, "U flag kept");
        NS_TEST_EXPECT_MSG_EQ(out[0].streamId, 1, "stream 1");
        out.clear();
        NS_TEST_ASSERT_MSG_EQ(queue.Add(c.Add(11, 0, 0, 0, middle), out), true, "middle fragment");
        NS_TEST_ASSERT_MSG_EQ(out.size(), 2u, "SSN 0 complete, then SSN 1");
        NS_TEST_EXPECT_MSG_EQ(out[0].ssn, 0, "SSN 0 first");
        NS_TEST_EXPECT_MSG_EQ(out[0].tsn, 10u, "TSN of the first fragment");
        NS_TEST_EXPECT_MSG_EQ((Bytes(out[0]) == big), true, "the message whole and in order");
        NS_TEST_EXPECT_MSG_EQ(out[1].ssn, 1, "then SSN 1");
        NS_TEST_EXPECT_MSG_EQ(queue.GetBufferedBytes(), 0u, "nothing held");
        NS_TEST_EXPECT_MSG_EQ(queue.GetNextSsn(0), 2, "next SSN on stream 0");
    }
};

/** FORWARD TSN: abandoned fragments dropped, skipped SSNs release what waited. */
class SctpReassemblySkipTestCase : public TestCase
{
  public:
    SctpReassemblySkipTestCase()
        : TestCase("FORWARD TSN skips fragments and stream sequence numbers")
    {
    }

  private:
    void DoRun() override
    {
        SctpReassemblyQueue queue;
        queue.Initialize(1);
        Chunks c;
        std::deque<SctpReceivedMessage> out;
        // SSN 0 was abandoned after its first fragment (TSN 20) arrived; SSN 1 is complete.
        queue.Add(c.Add(20, 0, 0, B, Payload(1, 100)), out);
        queue.Add(c.Add(22, 0, 1, B | E, Payload(2, 50)), out);
        NS_TEST_EXPECT_MSG_EQ(out.size(), 0u, "SSN 1 waits behind SSN 0");
        queue.SkipTo(21, out);
        NS_TEST_EXPECT_MSG_EQ(queue.GetBufferedBytes(), 50u, "the abandoned fragment is gone");
        queue.SkipStream(0, 0, out);
        NS_TEST_ASSERT_MSG_EQ(out.size(), 1u, "SSN 1 delivered once SSN 0 is skipped");
        NS_TEST_EXPECT_MSG_EQ(out[0].ssn, 1, "SSN 1");
        NS_TEST_EXPECT_MSG_EQ(queue.GetNextSsn(0), 2, "the stream continues after it");
    }
};

/** \ingroup sctp-tests Reassembly and ordered delivery. */
class SctpReassemblyTestSuite : public TestSuite
{
  public:
    SctpReassemblyTestSuite()
        : TestSuite("sctp-reassembly", Type::UNIT)
    {
        AddTestCase(new SctpReassemblyOrderTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpReassemblySkipTestCase(), TestCase::Duration::QUICK);
    }
};

static SctpReassemblyTestSuite g_sctpReassemblyTestSuite;
