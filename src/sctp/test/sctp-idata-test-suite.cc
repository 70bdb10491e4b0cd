/*
 * I-DATA and I-FORWARD-TSN (RFC 8260 sections 2.1-2.3): the reassembly queue on
 * hand-built fragments, and associations that negotiated I-DATA: a small message of one
 * stream overtakes a large message of another that was queued first (interleaving),
 * reassembly under loss, unordered delivery, and a message abandoned by PR-SCTP skipped
 * with I-FORWARD-TSN. Each network case also runs with DATA where the outcome differs,
 * so that the case shows what I-DATA changes.
 */
#include "sctp-test-network.h"

#include "ns3/sctp-idata-reassembly-queue.h"
#include "ns3/sctp-stream-schedulers.h"
#include "ns3/sctp-tx-queue.h"
#include "ns3/test.h"

#include <map>
#include <set>
#include <tuple>

using namespace ns3;
using namespace ns3::sctptest;

namespace
{

/** The bytes of message \p index of \p size: a pattern that differs per message. */
std::vector<uint8_t>
Pattern(uint32_t index, uint32_t size)
{
    std::vector<uint8_t> bytes(size);
    for (uint32_t i = 0; i < size; ++i)
    {
        bytes[i] = static_cast<uint8_t>((i * 7 + index * 31 + i / 251) & 0xff);
    }
    return bytes;
}

/** An I-DATA chunk view over \p payload. */
SctpIDataChunk
Fragment(uint8_t flags,
         uint32_t tsn,
         uint16_t stream,
         uint32_t mid,
         uint32_t fsn,
         const std::vector<uint8_t>& payload,
         uint32_t begin,
         uint32_t length)
{
    SctpIDataChunk c;
    c.flags = flags;
    c.tsn = tsn;
    c.streamId = stream;
    c.mid = mid;
    if (flags & SctpIDataChunk::FLAG_B)
    {
        c.ppid = 99;
    }
    else
    {
        c.fsn = fsn;
    }
    c.payload = payload.data() + begin;
    c.payloadLength = static_cast<uint16_t>(length);
    return c;
}

std::vector<uint8_t>
Bytes(const SctpReceivedMessage& m)
{
    std::vector<uint8_t> b(m.data->GetSize());
    m.data->CopyData(b.data(), b.size());
    return b;
}

constexpr uint8_t B = SctpIDataChunk::FLAG_B;
constexpr uint8_t E = SctpIDataChunk::FLAG_E;
constexpr uint8_t U = SctpIDataChunk::FLAG_U;

} // namespace

/** SctpIDataReassemblyQueue on hand-built fragments. */
class SctpIDataReassemblyQueueTestCase : public TestCase
{
  public:
    SctpIDataReassemblyQueueTestCase()
        : TestCase("I-DATA reassembly by (stream, U, MID, FSN), ordered and unordered, skip")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<uint8_t> big = Pattern(1, 3000);
        std::vector<uint8_t> small = Pattern(2, 100);
        SctpIDataReassemblyQueue q;
        q.Initialize(4);
        std::deque<SctpReceivedMessage> out;
        // Stream 0 MID 0 in three fragments with stream 1's message between them (TSNs
        // interleaved), the middle fragment last: reassembly cannot rely on TSNs.
        NS_TEST_ASSERT_MSG_EQ(q.Add(Fragment(B, 10, 0, 0, 0, big, 0, 1000), out), true, "B");
        NS_TEST_ASSERT_MSG_EQ(q.Add(Fragment(B | E, 11, 1, 0, 0, small, 0, 100), out), true, "s1");
        NS_TEST_ASSERT_MSG_EQ(out.size(), 1u, "stream 1 delivered at once");
        NS_TEST_EXPECT_MSG_EQ(out[0].streamId, 1, "stream 1 first");
        NS_TEST_ASSERT_MSG_EQ(q.Add(Fragment(E, 13, 0, 0, 2, big, 2000, 1000), out), true, "E");
        NS_TEST_EXPECT_MSG_EQ(out.size(), 1u, "middle fragment missing");
        NS_TEST_EXPECT_MSG_EQ(q.GetBufferedBytes(), 2000u, "two fragments held");
        NS_TEST_EXPECT_MSG_EQ(q.Add(Fragment(E, 14, 0, 0, 2, big, 2000, 1000), out),
                              false,
                              "a second copy of FSN 2 contradicts");
        NS_TEST_ASSERT_MSG_EQ(q.Add(Fragment(0, 12, 0, 0, 1, big, 1000, 1000), out), true, "M");
        NS_TEST_ASSERT_MSG_EQ(out.size(), 2u, "stream 0 complete");
        NS_TEST_EXPECT_MSG_EQ((Bytes(out[1]) == big), true, "byte-identical");
        NS_TEST_EXPECT_MSG_EQ(out[1].ppid, 99u, "PPID of the first fragment");
        NS_TEST_EXPECT_MSG_EQ(out[1].tsn, 10u, "TSN of the first fragment");
        NS_TEST_EXPECT_MSG_EQ(q.GetBufferedBytes(), 0u, "nothing held");
        out.clear();

        // Ordered: MID 2 complete before MID 1 waits; an unordered message of the same
        // stream (its own MID sequence) passes.
        q.Add(Fragment(B | E, 20, 0, 2, 0, small, 0, 50), out);
        NS_TEST_EXPECT_MSG_EQ(out.size(), 0u, "MID 2 waits for MID 1");
        q.Add(Fragment(B | E | U, 21, 0, 0, 0, small, 0, 60), out);
        NS_TEST_ASSERT_MSG_EQ(out.size(), 1u, "unordered delivered at once");
        NS_TEST_EXPECT_MSG_EQ(out[0].unordered, true, "U");
        q.Add(Fragment(B | E, 22, 0, 1, 0, small, 0, 40), out);
        NS_TEST_ASSERT_MSG_EQ(out.size(), 3u, "MID 1 then MID 2");
        NS_TEST_EXPECT_MSG_EQ(out[1].mid, 1u, "MID 1");
        NS_TEST_EXPECT_MSG_EQ(out[2].mid, 2u, "MID 2");
        NS_TEST_EXPECT_MSG_EQ(q.GetNextMid(0), 3u, "next MID");
        out.clear();

        // I-FORWARD-TSN: ordered MID 3 partly received and abandoned, MID 4 complete and
        // waiting; an unordered message partly received and abandoned.
        q.Add(Fragment(B, 30, 0, 3, 0, big, 0, 1000), out);
        q.Add(Fragment(B | E, 31, 0, 4, 0, small, 0, 30), out);
        q.Add(Fragment(U | B, 32, 0, 7, 0, big, 0, 1000), out);
        NS_TEST_EXPECT_MSG_EQ(out.size(), 0u, "nothing deliverable");
        NS_TEST_EXPECT_MSG_EQ(q.GetPartialCount(), 2u, "two partial messages");
        q.Skip(0, false, 3, out);
        NS_TEST_ASSERT_MSG_EQ(out.size(), 1u, "MID 4 delivered after skipping MID 3");
        NS_TEST_EXPECT_MSG_EQ(out[0].mid, 4u, "MID 4");
        NS_TEST_EXPECT_MSG_EQ(q.GetPartialCount(), 1u, "the unordered one is still held");
        q.Skip(0, true, 7, out);
        NS_TEST_EXPECT_MSG_EQ(q.GetPartialCount(), 0u, "unordered MID 7 dropped");
        NS_TEST_EXPECT_MSG_EQ(q.GetBufferedBytes(), 0u, "nothing held");
        NS_TEST_EXPECT_MSG_EQ(q.Add(Fragment(E, 33, 0, 3, 1, big, 1000, 1000), out),
                              false,
                              "a late fragment of a skipped message is refused");
    }
};

/**
 * The sender's side on a hand-built queue: with I-DATA (SctpIDataChunkFormat and an
 * interleaving scheduler) the schedulers switch streams between chunks of a message, and
 * every chunk carries its message's MID and its FSN; with DATA they do not.
 */
class SctpIDataSchedulingTestCase : public TestCase
{
  public:
    SctpIDataSchedulingTestCase()
        : TestCase("I-DATA: schedulers interleave chunks, MIDs per stream and ordering, FSNs")
    {
    }

  private:
    /** (label, stream, size, unordered) */
    struct Message
    {
        char label;
        uint16_t stream;
        uint32_t size;
        bool unordered{false};
    };

    struct Queue
    {
        SctpTxQueue queue;
        std::map<const SctpOutboundMessage*, char> labels;

        Queue(Ptr<SctpStreamScheduler> scheduler, bool iData)
        {
            queue.SetScheduler(scheduler);
            queue.Initialize(1000, 4);
            if (iData)
            {
                queue.SetDataFormat(Create<SctpIDataChunkFormat>());
            }
            scheduler->SetInterleaving(queue.GetDataFormat()->AllowsInterleaving());
        }

        void Add(const Message& m)
        {
            auto msg = Create<SctpOutboundMessage>();
            msg->streamId = m.stream;
            msg->data.assign(m.size, 0);
            msg->unordered = m.unordered;
            labels[PeekPointer(msg)] = m.label;
            queue.Enqueue(msg);
        }

        /** Cut up to \p count chunks of at most 1000 bytes; their labels. */
        std::string Cut(uint32_t count = 100)
        {
            std::string order;
            for (uint32_t i = 0; i < count && queue.HasUnsentData(); ++i)
            {
                order += labels.at(PeekPointer(queue.NextChunk(1000).message));
            }
            return order;
        }
    };

    void DoRun() override
    {
        // A: 3 chunks on stream 0; B: 1 and C: 2 chunks on stream 1; D: 1 on stream 2.
        std::vector<Message> messages{{'A', 0, 3000},
                                      {'B', 1, 1000},
                                      {'C', 1, 1500},
                                      {'D', 2, 500}};
        for (bool iData : {false, true})
        {
            Queue q(CreateObject<SctpRoundRobinStreamScheduler>(), iData);
            for (const auto& m : messages)
            {
                q.Add(m);
            }
            // Round robin over streams 0, 1, 2: per chunk with I-DATA, per message with
            // DATA (the last stream served is the last message's).
            NS_TEST_EXPECT_MSG_EQ(q.Cut(), iData ? "ABDACAC" : "AAABDCC", "round robin");
        }
        {
            Queue q(CreateObject<SctpRoundRobinStreamScheduler>(), true);
            for (const auto& m : messages)
            {
                q.Add(m);
            }
            q.Add({'E', 1, 100, true}); // unordered: stream 1's own unordered MID 0
            q.Cut();
            std::map<char, std::vector<uint32_t>> fsns;
            std::map<char, uint32_t> mids;
            uint32_t expectedTsn = 1000;
            for (const auto& c : q.queue.GetOutstanding())
            {
                char label = q.labels.at(PeekPointer(c.message));
                fsns[label].push_back(c.fsn);
                mids[label] = c.message->mid;
                NS_TEST_EXPECT_MSG_EQ(c.tsn, expectedTsn++, "TSNs count every chunk");
                uint32_t wire = (20u + c.length + 3u) & ~3u; // I-DATA header: 20 bytes
                NS_TEST_EXPECT_MSG_EQ(c.GetWireSize(), wire, "I-DATA wire size");
            }
            NS_TEST_EXPECT_MSG_EQ((fsns['A'] == std::vector<uint32_t>{0, 1, 2}), true, "FSN");
            NS_TEST_EXPECT_MSG_EQ((fsns['C'] == std::vector<uint32_t>{0, 1}), true, "FSN");
            NS_TEST_EXPECT_MSG_EQ(mids['A'], 0u, "stream 0 MID 0");
            NS_TEST_EXPECT_MSG_EQ(mids['B'], 0u, "stream 1 ordered MID 0");
            NS_TEST_EXPECT_MSG_EQ(mids['C'], 1u, "stream 1 ordered MID 1");
            NS_TEST_EXPECT_MSG_EQ(mids['E'], 0u, "stream 1 unordered MID 0 (own counter)");
            NS_TEST_EXPECT_MSG_EQ(mids['D'], 0u, "stream 2 MID 0");
        }
        for (bool iData : {false, true})
        {
            // Priority: A (stream 0, priority 1) has started when B arrives on stream 1
            // (priority 0): with I-DATA B goes before A's remaining chunks.
            Ptr<SctpPriorityStreamScheduler> prio = CreateObject<SctpPriorityStreamScheduler>();
            prio->SetStreamPriority(0, 1);
            Queue q(prio, iData);
            q.Add({'A', 0, 3000});
            std::string order = q.Cut(1);
            q.Add({'B', 1, 1000});
            order += q.Cut();
            NS_TEST_EXPECT_MSG_EQ(order, iData ? "ABAA" : "AAAB", "priority preempts");
        }
    }
};

/** (stream, unordered, MID, FSN) of an I-DATA chunk. */
using ChunkKey = std::tuple<uint16_t, bool, uint32_t, uint32_t>;

/**
 * Drops the first copy of DATA or I-DATA chunks chosen by their TSN's offset from the
 * first TSN, or of I-DATA chunks chosen by (stream, U, MID, FSN): the packet carrying
 * one is lost.
 */
class ChunkDropper : public ErrorModel
{
  public:
    std::set<uint32_t> offsets;
    std::set<ChunkKey> keys;
    uint32_t dropped{0};

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        std::vector<uint8_t> bytes;
        std::vector<SctpChunk> chunks;
        if (!SctpChunksOf(p, bytes, chunks))
        {
            return false;
        }
        bool drop = false;
        for (const auto& c : chunks)
        {
            if ((c.type != SctpChunk::DATA && c.type != SctpChunk::I_DATA) || c.valueLength < 4)
            {
                continue;
            }
            // The TSN is the first word of both formats.
            uint32_t tsn = (uint32_t(c.value[0]) << 24) | (uint32_t(c.value[1]) << 16) |
                           (uint32_t(c.value[2]) << 8) | c.value[3];
            if (!m_haveFirst)
            {
                m_first = tsn;
                m_haveFirst = true;
            }
            uint32_t offset = tsn - m_first;
            if (!m_seen.insert(offset).second)
            {
                continue; // a retransmission
            }
            drop = drop || offsets.count(offset) > 0;
            SctpIDataChunk idata;
            if (c.type == SctpChunk::I_DATA && idata.Deserialize(c))
            {
                bool unordered = (idata.flags & SctpIDataChunk::FLAG_U) != 0;
                uint32_t fsn = (idata.flags & SctpIDataChunk::FLAG_B) ? 0 : idata.fsn;
                drop = drop || keys.count({idata.streamId, unordered, idata.mid, fsn}) > 0;
            }
        }
        dropped += drop ? 1 : 0;
        return drop;
    }

    void DoReset() override
    {
    }

    bool m_haveFirst{false};
    uint32_t m_first{0};
    std::set<uint32_t> m_seen;
};

/** A message to send: stream, size, unordered, PR-SCTP policy. */
struct Outgoing
{
    uint16_t stream;
    uint32_t size;
    bool unordered{false};
    SctpPrPolicy policy{SctpPrPolicy::NONE};
    uint32_t prValue{0};
};

/** A received message. */
struct Incoming
{
    uint16_t stream;
    uint32_t index; //!< from the pattern's first bytes (found by matching)
    std::vector<uint8_t> bytes;
    Time at;
};

/** One association over a 10 Mb/s link, every message sent at once when it is up. */
class IDataRun : public SimpleRefCount<IDataRun>
{
  public:
    IDataRun(bool iData,
             std::string scheduler,
             std::vector<Outgoing> messages,
             std::set<uint32_t> lost,
             std::set<ChunkKey> lostChunks = {},
             bool prSctp = false)
        : m_messages(std::move(messages))
    {
        TwoNodes net(1, DataRate("10Mbps"), MilliSeconds(10));
        Ptr<ChunkDropper> dropper = CreateObject<ChunkDropper>();
        dropper->offsets = lost;
        dropper->keys = lostChunks;
        net.devices[0].Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(dropper));
        Ptr<SctpSocket> server = net.Socket(1);
        Ptr<SctpSocket> client = net.Socket(0);
        for (auto s : {server, client})
        {
            s->SetAttribute("IDataSupported", BooleanValue(iData));
            s->SetAttribute("SndBufSize", UintegerValue(1 << 20));
            s->SetAttribute("RcvBufSize", UintegerValue(1 << 20));
            s->SetAttribute("PrSctpEnabled", BooleanValue(prSctp));
        }
        client->SetAttribute("StreamScheduler", StringValue(scheduler));
        client->TraceConnectWithoutContext("TxChunk", MakeCallback(&IDataRun::Tx, this));
        server->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        server->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&IDataRun::Accept, this));
        server->Listen();
        client->SetConnectCallback(MakeCallback(&IDataRun::Connected, this),
                                   MakeNullCallback<void, Ptr<Socket>>());
        m_client = client;
        Simulator::Schedule(Seconds(0.1), [client, &net]() {
            client->Connect(InetSocketAddress(net.Address(1), 9));
        });
        Simulator::Stop(Seconds(20));
        Simulator::Run();
        dropped = dropper->dropped;
        retransmissions = m_client->GetAssociation()->GetSender().GetRetransmittedChunkCount();
        if (m_accepted)
        {
            const SctpReceiver& r = m_accepted->GetAssociation()->GetReceiver();
            forwardTsnReceived = r.GetForwardTsnReceivedCount();
            heldAtEnd = r.GetIDataReassemblyQueue().GetBufferedBytes() +
                        r.GetReassemblyQueue().GetBufferedBytes();
        }
        m_client = nullptr;
        m_accepted = nullptr;
        Simulator::Destroy();
    }

    /** Index of the first received message of \p stream, or -1. */
    int FirstOf(uint16_t stream) const
    {
        for (std::size_t i = 0; i < received.size(); ++i)
        {
            if (received[i].stream == stream)
            {
                return static_cast<int>(i);
            }
        }
        return -1;
    }

    /** "" if every message except \p abandoned arrived byte-identical, once, and the
     * ordered ones of each stream in the order sent; else what is wrong. */
    std::string Check(std::set<uint32_t> abandoned = {}) const
    {
        std::map<uint16_t, uint32_t> lastOrdered;
        std::set<uint32_t> seen;
        for (const auto& r : received)
        {
            if (r.index >= m_messages.size())
            {
                return "a message matching none sent";
            }
            if (!seen.insert(r.index).second)
            {
                return "message " + std::to_string(r.index) + " delivered twice";
            }
            const Outgoing& o = m_messages[r.index];
            if (o.stream != r.stream)
            {
                return "message " + std::to_string(r.index) + " on the wrong stream";
            }
            if (!o.unordered)
            {
                auto it = lastOrdered.find(o.stream);
                if (it != lastOrdered.end() && it->second > r.index)
                {
                    return "stream " + std::to_string(o.stream) + " out of order";
                }
                lastOrdered[o.stream] = r.index;
            }
        }
        for (uint32_t i = 0; i < m_messages.size(); ++i)
        {
            if (seen.count(i) == 0 && abandoned.count(i) == 0)
            {
                return "message " + std::to_string(i) + " missing";
            }
            if (seen.count(i) > 0 && abandoned.count(i) > 0)
            {
                return "abandoned message " + std::to_string(i) + " delivered";
            }
        }
        return "";
    }

    std::vector<Incoming> received;
    std::vector<uint8_t> txTypes;
    uint32_t dropped{0};
    uint32_t retransmissions{0};
    uint32_t forwardTsnReceived{0};
    uint32_t heldAtEnd{0};

  private:
    void Tx(uint8_t type, uint8_t, uint16_t, uint32_t)
    {
        txTypes.push_back(type);
    }

    void Connected(Ptr<Socket> socket)
    {
        for (uint32_t i = 0; i < m_messages.size(); ++i)
        {
            const Outgoing& o = m_messages[i];
            std::vector<uint8_t> bytes = Pattern(i, o.size);
            Ptr<Packet> p = Create<Packet>(bytes.data(), o.size);
            SctpSendInfoTag tag(o.stream, 0, o.unordered);
            tag.prPolicy = o.policy;
            tag.prValue = o.prValue;
            p->AddPacketTag(tag);
            int sent = socket->Send(p);
            NS_ABORT_MSG_IF(sent < 0, "Send refused message " << i);
        }
    }

    void Accept(Ptr<Socket> socket, const Address&)
    {
        m_accepted = DynamicCast<SctpSocket>(socket);
        socket->SetRecvCallback(MakeCallback(&IDataRun::Read, this));
    }

    void Read(Ptr<Socket> socket)
    {
        while (Ptr<Packet> p = socket->Recv())
        {
            SctpReceiveInfoTag tag;
            p->PeekPacketTag(tag);
            Incoming in;
            in.stream = tag.streamId;
            in.bytes.resize(p->GetSize());
            p->CopyData(in.bytes.data(), in.bytes.size());
            in.at = Simulator::Now();
            in.index = static_cast<uint32_t>(m_messages.size());
            for (uint32_t i = 0; i < m_messages.size(); ++i)
            {
                if (m_messages[i].size == in.bytes.size() &&
                    Pattern(i, m_messages[i].size) == in.bytes)
                {
                    in.index = i;
                    break;
                }
            }
            received.push_back(std::move(in));
        }
    }

    std::vector<Outgoing> m_messages;
    Ptr<SctpSocket> m_client;
    Ptr<SctpSocket> m_accepted;
};

/** A 100-byte message on stream 1 overtakes a 200 KB message on stream 0 queued first. */
class SctpIDataInterleavingTestCase : public TestCase
{
  public:
    SctpIDataInterleavingTestCase()
        : TestCase("I-DATA interleaves a small message between fragments of a large one")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<Outgoing> messages{{0, 200000}, {1, 100}};
        const std::string rr = "ns3::SctpRoundRobinStreamScheduler";
        Ptr<IDataRun> idata = Create<IDataRun>(true, rr, messages, std::set<uint32_t>{});
        NS_TEST_ASSERT_MSG_EQ(idata->Check(), "", "every message intact");
        NS_TEST_EXPECT_MSG_EQ(idata->FirstOf(1), 0, "stream 1 delivered first with I-DATA");
        NS_TEST_EXPECT_MSG_EQ(idata->FirstOf(0), 1, "stream 0 second");
        NS_TEST_EXPECT_MSG_GT(idata->received[1].at - idata->received[0].at,
                              MilliSeconds(100),
                              "long before the large message completes");
        std::set<uint8_t> types(idata->txTypes.begin(), idata->txTypes.end());
        NS_TEST_EXPECT_MSG_EQ(types.count(SctpChunk::I_DATA), 1u, "I-DATA sent");
        NS_TEST_EXPECT_MSG_EQ(types.count(SctpChunk::DATA), 0u, "no DATA sent (RFC 8260 2.2)");

        // The same with DATA: the large message's fragments need consecutive TSNs, so
        // the small one waits for all of them.
        Ptr<IDataRun> data = Create<IDataRun>(false, rr, messages, std::set<uint32_t>{});
        NS_TEST_ASSERT_MSG_EQ(data->Check(), "", "every message intact (DATA)");
        NS_TEST_EXPECT_MSG_EQ(data->FirstOf(0), 0, "stream 0 first with DATA");
        NS_TEST_EXPECT_MSG_EQ(data->FirstOf(1), 1, "stream 1 after it with DATA");
    }
};

/** Loss of chosen I-DATA chunks on three streams, ordered and unordered. */
class SctpIDataLossTestCase : public TestCase
{
  public:
    SctpIDataLossTestCase()
        : TestCase("I-DATA reassembly under loss: every message byte-identical, in order")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<Outgoing> messages;
        for (uint32_t k = 0; k < 4; ++k)
        {
            messages.push_back({0, 20000});          // ordered, fragmented
            for (uint32_t j = 0; j < 4; ++j)
            {
                messages.push_back({1, 300 + 17 * j}); // small, ordered
            }
            messages.push_back({2, 5000 + 11 * k, true}); // unordered, fragmented
        }
        std::set<uint32_t> lost{2, 3, 9, 20, 21, 22, 40, 57, 58};
        Ptr<IDataRun> run =
            Create<IDataRun>(true, "ns3::SctpRoundRobinStreamScheduler", messages, lost);
        NS_TEST_EXPECT_MSG_EQ(run->dropped, lost.size(), "every chosen chunk was lost once");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(run->retransmissions,
                                    static_cast<uint32_t>(lost.size()),
                                    "and retransmitted");
        NS_TEST_EXPECT_MSG_EQ(run->Check(), "", "every message intact, ordered ones in order");
        NS_TEST_EXPECT_MSG_EQ(run->received.size(), messages.size(), "all delivered");
        NS_TEST_EXPECT_MSG_EQ(run->heldAtEnd, 0u, "nothing left in reassembly");
        NS_TEST_EXPECT_MSG_LT(run->FirstOf(1),
                              run->FirstOf(0),
                              "interleaved: stream 1 overtook the first 20 KB message");
        std::set<uint8_t> types(run->txTypes.begin(), run->txTypes.end());
        NS_TEST_EXPECT_MSG_EQ(types.count(SctpChunk::DATA), 0u, "retransmitted as I-DATA");
    }
};

/** An unordered message passes an ordered one of the same stream held by a loss. */
class SctpIDataUnorderedTestCase : public TestCase
{
  public:
    SctpIDataUnorderedTestCase()
        : TestCase("I-DATA unordered messages are delivered as soon as complete")
    {
    }

  private:
    void DoRun() override
    {
        // A late fragment (FSN 19 of about 21) of the ordered 30 KB message is lost: the
        // unordered messages sent after it on the same stream (one fragmented) arrive
        // before its retransmission and are delivered at once; an ordered one waits for
        // MID 0.
        std::vector<Outgoing> messages{{0, 30000}, {0, 200, true}, {0, 4000, true}, {0, 100}};
        Ptr<IDataRun> run = Create<IDataRun>(true,
                                             "ns3::SctpFcfsStreamScheduler",
                                             messages,
                                             std::set<uint32_t>{},
                                             std::set<ChunkKey>{{0, false, 0, 19}});
        NS_TEST_EXPECT_MSG_EQ(run->dropped, 1u, "the fragment was lost");
        NS_TEST_ASSERT_MSG_EQ(run->Check(), "", "every message intact");
        NS_TEST_ASSERT_MSG_EQ(run->received.size(), 4u, "all delivered");
        NS_TEST_EXPECT_MSG_EQ(run->received[0].index, 1u, "unordered 200 B first");
        NS_TEST_EXPECT_MSG_EQ(run->received[1].index, 2u, "unordered 4000 B second");
        NS_TEST_EXPECT_MSG_EQ(run->received[2].index, 0u, "then the ordered ones");
        NS_TEST_EXPECT_MSG_EQ(run->received[3].index, 3u, "in MID order");
    }
};

/** PR-SCTP with I-DATA: a message abandoned after a loss is skipped by I-FORWARD-TSN. */
class SctpIForwardTsnTestCase : public TestCase
{
  public:
    SctpIForwardTsnTestCase()
        : TestCase("I-FORWARD-TSN skips a message abandoned by PR-SCTP")
    {
    }

  private:
    void DoRun() override
    {
        // Message 0 (stream 0, 10 KB, no retransmission allowed) loses its second
        // fragment; the others are reliable. Round robin interleaves stream 1's messages
        // with message 0's fragments, so TSNs of delivered messages lie between the
        // abandoned message's: only its MID can tell the receiver what to drop.
        std::vector<Outgoing> messages{{0, 10000, false, SctpPrPolicy::RTX, 0},
                                       {1, 500},
                                       {1, 600},
                                       {1, 700},
                                       {0, 800},
                                       {2, 3000, true, SctpPrPolicy::RTX, 0},
                                       {2, 100, true}};
        // The second fragments (FSN 1) of message 0 (ordered MID 0 of stream 0) and of
        // message 5 (unordered MID 0 of stream 2) are lost.
        Ptr<IDataRun> run = Create<IDataRun>(true,
                                             "ns3::SctpRoundRobinStreamScheduler",
                                             messages,
                                             std::set<uint32_t>{},
                                             std::set<ChunkKey>{{0, false, 0, 1}, {2, true, 0, 1}},
                                             true);
        NS_TEST_EXPECT_MSG_EQ(run->dropped, 2u, "both fragments were lost");
        NS_TEST_EXPECT_MSG_EQ(run->Check({0, 5}), "", "all but the abandoned ones, in order");
        NS_TEST_EXPECT_MSG_EQ(run->received.size(), messages.size() - 2, "five delivered");
        std::set<uint8_t> types(run->txTypes.begin(), run->txTypes.end());
        NS_TEST_EXPECT_MSG_EQ(types.count(SctpChunk::I_FORWARD_TSN), 1u, "I-FORWARD-TSN sent");
        NS_TEST_EXPECT_MSG_EQ(types.count(SctpChunk::FORWARD_TSN), 0u, "no FORWARD TSN");
        NS_TEST_EXPECT_MSG_GT(run->forwardTsnReceived, 0u, "the receiver took it");
        NS_TEST_EXPECT_MSG_EQ(run->heldAtEnd, 0u, "the abandoned fragments were dropped");
    }
};

class SctpIDataTestSuite : public TestSuite
{
  public:
    SctpIDataTestSuite()
        : TestSuite("sctp-idata", Type::SYSTEM)
    {
        AddTestCase(new SctpIDataReassemblyQueueTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpIDataSchedulingTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpIDataInterleavingTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpIDataLossTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpIDataUnorderedTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpIForwardTsnTestCase(), TestCase::Duration::QUICK);
    }
};

static SctpIDataTestSuite g_sctpIDataTestSuite;
