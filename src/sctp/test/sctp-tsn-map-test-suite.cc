/*
 * The receiver's TSN map (RFC 9260 sections 6.2, 6.7): cumulative TSN, gap ack blocks,
 * duplicates, the TSN wrap-around, the window limit and FORWARD TSN's jump (RFC 3758).
 */
#include "ns3/sctp-tsn-map.h"
#include "ns3/test.h"

#include <utility>
#include <vector>

using namespace ns3;

/** Gap blocks as offsets from the cumulative TSN, and their closing. */
class SctpTsnMapGapsTestCase : public TestCase
{
  public:
    SctpTsnMapGapsTestCase()
        : TestCase("cumulative TSN, gap ack blocks and duplicates")
    {
    }

  private:
    void DoRun() override
    {
        SctpTsnMap m;
        m.Initialize(100); // the peer's Initial TSN: cumulative TSN 99
        NS_TEST_ASSERT_MSG_EQ(m.GetCumulativeTsn(), 99u, "Initial TSN - 1");
        for (uint32_t tsn : {100u, 101u, 103u, 104u, 107u})
        {
            NS_TEST_ASSERT_MSG_EQ(m.Check(tsn), SctpTsnMap::NEW, "TSN " << tsn << " is new");
            m.Mark(tsn);
        }
        NS_TEST_EXPECT_MSG_EQ(m.GetCumulativeTsn(), 101u, "advances over 100, 101");
        NS_TEST_EXPECT_MSG_EQ(m.GetHighestTsn(), 107u, "highest received");
        NS_TEST_EXPECT_MSG_EQ(m.HasGaps(), true, "gaps at 102, 105, 106");
        std::vector<std::pair<uint16_t, uint16_t>> blocks;
        m.GetGapBlocks(blocks, 256);
        NS_TEST_ASSERT_MSG_EQ(blocks.size(), 2u, "two gap blocks");
        NS_TEST_EXPECT_MSG_EQ(blocks[0].first, 2, "103 = cum + 2");
        NS_TEST_EXPECT_MSG_EQ(blocks[0].second, 3, "104 = cum + 3");
        NS_TEST_EXPECT_MSG_EQ(blocks[1].first, 6, "107 = cum + 6");
        NS_TEST_EXPECT_MSG_EQ(blocks[1].second, 6, "one TSN");
        m.GetGapBlocks(blocks, 1);
        NS_TEST_EXPECT_MSG_EQ(blocks.size(), 1u, "at most maxBlocks blocks");
        NS_TEST_EXPECT_MSG_EQ(m.Check(101), SctpTsnMap::DUPLICATE, "below the cumulative TSN");
        NS_TEST_EXPECT_MSG_EQ(m.Check(104), SctpTsnMap::DUPLICATE, "received above it");
        m.AddDuplicate(104);
        m.AddDuplicate(101);
        NS_TEST_EXPECT_MSG_EQ(m.GetDuplicates().size(), 2u, "duplicates to report");
        m.ClearDuplicates();
        NS_TEST_EXPECT_MSG_EQ(m.GetDuplicates().size(), 0u, "reported once");
        m.Mark(102);
        NS_TEST_EXPECT_MSG_EQ(m.GetCumulativeTsn(), 104u, "the gap closed: over 103, 104");
        m.Mark(105);
        m.Mark(106);
        NS_TEST_EXPECT_MSG_EQ(m.GetCumulativeTsn(), 107u, "all received");
        NS_TEST_EXPECT_MSG_EQ(m.HasGaps(), false, "no gaps left");
    }
};

/** Serial number arithmetic across 2^32 (RFC 9260 section 1.6). */
class SctpTsnMapWrapTestCase : public TestCase
{
  public:
    SctpTsnMapWrapTestCase()
        : TestCase("TSN wrap-around")
    {
    }

  private:
    void DoRun() override
    {
        SctpTsnMap m;
        m.Initialize(0xFFFFFFFE);
        for (uint32_t tsn : {0xFFFFFFFEu, 0xFFFFFFFFu, 1u, 2u})
        {
            NS_TEST_ASSERT_MSG_EQ(m.Check(tsn), SctpTsnMap::NEW, "new across the wrap");
            m.Mark(tsn);
        }
        NS_TEST_EXPECT_MSG_EQ(m.GetCumulativeTsn(), 0xFFFFFFFFu, "stops before the hole at 0");
        NS_TEST_EXPECT_MSG_EQ(m.GetHighestTsn(), 2u, "highest after the wrap");
        std::vector<std::pair<uint16_t, uint16_t>> blocks;
        m.GetGapBlocks(blocks, 256);
        NS_TEST_ASSERT_MSG_EQ(blocks.size(), 1u, "one block");
        NS_TEST_EXPECT_MSG_EQ(blocks[0].first, 2, "1 = 0xFFFFFFFF + 2");
        m.Mark(0);
        NS_TEST_EXPECT_MSG_EQ(m.GetCumulativeTsn(), 2u, "closed across the wrap");
        NS_TEST_EXPECT_MSG_EQ(m.Check(0xFFFFFFFE), SctpTsnMap::DUPLICATE, "old TSN");
    }
};

/** TSNs too far above the cumulative TSN, and FORWARD TSN's jump. */
class SctpTsnMapWindowTestCase : public TestCase
{
  public:
    SctpTsnMapWindowTestCase()
        : TestCase("window limit and FORWARD TSN")
    {
    }

  private:
    void DoRun() override
    {
        SctpTsnMap m(1000);
        m.Initialize(1);
        NS_TEST_EXPECT_MSG_EQ(m.Check(1000), SctpTsnMap::NEW, "within the window");
        NS_TEST_EXPECT_MSG_EQ(m.Check(1002), SctpTsnMap::TOO_FAR, "beyond the window");
        m.Mark(5);
        m.Mark(6);
        m.ForwardTo(3); // RFC 3758 3.6: 1..3 skipped; 4 is still missing
        NS_TEST_EXPECT_MSG_EQ(m.GetCumulativeTsn(), 3u, "forwarded to 3");
        m.ForwardTo(4);
        NS_TEST_EXPECT_MSG_EQ(m.GetCumulativeTsn(), 6u, "forwarded to 4, then over 5 and 6");
        NS_TEST_EXPECT_MSG_EQ(m.HasGaps(), false, "nothing above");
    }
};

/** \ingroup sctp-tests The data receiver's TSN bookkeeping. */
class SctpTsnMapTestSuite : public TestSuite
{
  public:
    SctpTsnMapTestSuite()
        : TestSuite("sctp-tsn-map", Type::UNIT)
    {
        AddTestCase(new SctpTsnMapGapsTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpTsnMapWrapTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpTsnMapWindowTestCase(), TestCase::Duration::QUICK);
    }
};

static SctpTsnMapTestSuite g_sctpTsnMapTestSuite;
