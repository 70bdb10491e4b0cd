/*
 * What the SCTP test suites share: two nodes joined by one or two SimpleNetDevice links
 * (so that the sctp module's tests need only network and internet), and small
 * applications that send pattern messages and collect what arrives.
 */
#ifndef SCTP_TEST_NETWORK_H
#define SCTP_TEST_NETWORK_H

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/sctp-module.h"

#include <algorithm>
#include <string>
#include <vector>

namespace ns3
{
namespace sctptest
{

/**
 * Two nodes, \p links SimpleChannel links between them (10.<k+1>.0.0/24 each), with an
 * Ethernet MTU of 1500 bytes (a SimpleNetDevice's own default is 65535).
 */
class TwoNodes
{
  public:
    TwoNodes(uint32_t links, DataRate rate, Time delay)
    {
        nodes.Create(2);
        for (uint32_t k = 0; k < links; ++k)
        {
            Ptr<SimpleChannel> channel = CreateObject<SimpleChannel>();
            channel->SetAttribute("Delay", TimeValue(delay));
            NetDeviceContainer pair;
            for (uint32_t i = 0; i < 2; ++i)
            {
                Ptr<SimpleNetDevice> d = CreateObject<SimpleNetDevice>();
                d->SetAttribute("DataRate", DataRateValue(rate));
                d->SetAddress(Mac48Address::Allocate());
                d->SetMtu(1500);
                d->SetChannel(channel);
                nodes.Get(i)->AddDevice(d);
                pair.Add(d);
            }
            devices.push_back(pair);
        }
        InternetStackHelper().Install(nodes);
        SctpStackHelper().Install(nodes);
        Ipv4AddressHelper addresses;
        for (uint32_t k = 0; k < links; ++k)
        {
            std::string net = "10." + std::to_string(k + 1) + ".0.0";
            addresses.SetBase(Ipv4Address(net.c_str()), Ipv4Mask("255.255.255.0"));
            interfaces.push_back(addresses.Assign(devices[k]));
        }
    }

    Ipv4Address Address(uint32_t node, uint32_t link = 0) const
    {
        return interfaces[link].GetAddress(node);
    }

    Ptr<SctpSocket> Socket(uint32_t node) const
    {
        return DynamicCast<SctpSocket>(
            Socket::CreateSocket(nodes.Get(node), SctpSocketFactory::GetTypeId()));
    }

    NodeContainer nodes;
    std::vector<NetDeviceContainer> devices;
    std::vector<Ipv4InterfaceContainer> interfaces;
};

/**
 * The SCTP chunks of \p p, an IPv4 packet as a device's receive error model sees it:
 * false if it is not SCTP. \p chunks point into \p bytes.
 */
inline bool
SctpChunksOf(Ptr<const Packet> p, std::vector<uint8_t>& bytes, std::vector<SctpChunk>& chunks)
{
    Ptr<Packet> copy = p->Copy();
    Ipv4Header ip;
    if (copy->RemoveHeader(ip) == 0 || ip.GetProtocol() != 132)
    {
        return false;
    }
    bytes.resize(copy->GetSize());
    copy->CopyData(bytes.data(), bytes.size());
    chunks.clear();
    if (bytes.size() < SctpCommonHeader::SIZE)
    {
        return false;
    }
    SctpSplitChunks(bytes.data() + SctpCommonHeader::SIZE,
                    bytes.size() - SctpCommonHeader::SIZE,
                    chunks);
    return true;
}

/** A listening socket that accepts associations and reads every message. */
class Sink : public SimpleRefCount<Sink>
{
  public:
    void Listen(Ptr<SctpSocket> socket, uint16_t port)
    {
        listener = socket;
        socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        socket->SetAcceptCallback(MakeNullCallback<bool, Ptr<ns3::Socket>, const ns3::Address&>(),
                                  MakeCallback(&Sink::Accept, this));
        socket->Listen();
    }

    void Accept(Ptr<ns3::Socket> socket, const ns3::Address&)
    {
        accepted.push_back(DynamicCast<SctpSocket>(socket));
        socket->SetRecvCallback(MakeCallback(&Sink::Read, this));
        if (!onAccept.IsNull())
        {
            onAccept(accepted.back());
        }
    }

    void Read(Ptr<ns3::Socket> socket)
    {
        while (Ptr<Packet> p = socket->Recv())
        {
            bytes += p->GetSize();
            sizes.push_back(p->GetSize());
            times.push_back(Simulator::Now());
            SctpReceiveInfoTag tag;
            p->PeekPacketTag(tag);
            tsns.push_back(tag.tsn);
            streams.push_back(tag.streamId);
            ssns.push_back(tag.ssn);
            uint8_t b[4] = {0, 0, 0, 0};
            p->CopyData(b, 4);
            firstWords.push_back((uint32_t(b[0]) << 24) | (uint32_t(b[1]) << 16) |
                                 (uint32_t(b[2]) << 8) | b[3]);
        }
    }

    /** SSNs of the messages received on \p stream, in order. */
    std::vector<uint16_t> Ssns(uint16_t stream) const
    {
        std::vector<uint16_t> out;
        for (std::size_t i = 0; i < streams.size(); ++i)
        {
            if (streams[i] == stream)
            {
                out.push_back(ssns[i]);
            }
        }
        return out;
    }

    /** First words of the messages received on \p stream, in order. */
    std::vector<uint32_t> FirstWords(uint16_t stream) const
    {
        std::vector<uint32_t> out;
        for (std::size_t i = 0; i < streams.size(); ++i)
        {
            if (streams[i] == stream)
            {
                out.push_back(firstWords[i]);
            }
        }
        return out;
    }

    Ptr<SctpSocket> listener;
    std::vector<Ptr<SctpSocket>> accepted;
    Callback<void, Ptr<SctpSocket>> onAccept; //!< called for each accepted socket, if set
    uint64_t bytes{0};
    std::vector<uint32_t> sizes;
    std::vector<uint32_t> tsns;
    std::vector<uint16_t> streams;
    std::vector<uint16_t> ssns;     //!< with I-DATA: the MID's low 16 bits
    std::vector<uint32_t> firstWords; //!< each message's first 4 bytes, big-endian
    std::vector<Time> times;
};

/** Connects and keeps the send buffer full with \p count messages of \p size bytes. */
class Source : public SimpleRefCount<Source>
{
  public:
    void Start(Ptr<SctpSocket> s, ns3::Address peer, uint32_t messageCount, uint32_t messageSize)
    {
        socket = s;
        count = messageCount;
        size = messageSize;
        socket->SetConnectCallback(MakeCallback(&Source::Connected, this),
                                   MakeNullCallback<void, Ptr<ns3::Socket>>());
        socket->SetSendCallback(MakeCallback(&Source::Space, this));
        socket->Connect(peer);
    }

    /** Start(...) at simulation time \p at (sockets send only once the simulator runs). */
    void StartAt(Time at,
                 Ptr<SctpSocket> s,
                 ns3::Address peer,
                 uint32_t messageCount,
                 uint32_t messageSize)
    {
        Simulator::Schedule(at,
                            &Source::Start,
                            Ptr<Source>(this),
                            s,
                            peer,
                            messageCount,
                            messageSize);
    }

    void Connected(Ptr<ns3::Socket>)
    {
        connectedAt = Simulator::Now();
        Fill();
    }

    void Space(Ptr<ns3::Socket>, uint32_t)
    {
        Fill();
    }

    void Fill()
    {
        while (sent < count && socket->GetTxAvailable() >= size)
        {
            if (socket->Send(Create<Packet>(size)) < 0)
            {
                break;
            }
            ++sent;
        }
        if (sent == count && closeWhenDone && !closed)
        {
            closed = true;
            socket->Close();
        }
    }

    Ptr<SctpSocket> socket;
    uint32_t count{0};
    uint32_t size{0};
    uint32_t sent{0};
    bool closeWhenDone{false};
    bool closed{false};
    Time connectedAt;
};

/** Records the chunk types a socket sends (TxChunk) with their times. */
class ChunkLog : public SimpleRefCount<ChunkLog>
{
  public:
    /** Every socket created on \p node from now on, \p who in the log ('c', 's'). */
    void WatchNode(Ptr<Node> node, char who)
    {
        node->GetObject<SctpL4Protocol>()->TraceConnectWithoutContext(
            "SocketCreated",
            MakeBoundCallback(&ChunkLog::Created, this, who));
    }

    static void Created(ChunkLog* log, char who, Ptr<SctpSocket> socket)
    {
        socket->TraceConnectWithoutContext("TxChunk",
                                           MakeBoundCallback(&ChunkLog::Chunk, log, who));
    }

    static void Chunk(ChunkLog* log, char who, uint8_t type, uint8_t, uint16_t, uint32_t)
    {
        log->types.push_back(type);
        log->senders.push_back(who);
        log->times.push_back(Simulator::Now());
    }

    /** Control chunk names in order, e.g. "c:INIT" ("s:" for the server). */
    std::vector<std::string> Control() const
    {
        std::vector<std::string> out;
        for (std::size_t i = 0; i < types.size(); ++i)
        {
            if (types[i] != SctpChunk::DATA && types[i] != SctpChunk::SACK)
            {
                out.push_back(std::string(1, senders[i]) + ":" + SctpChunk::TypeName(types[i]));
            }
        }
        return out;
    }

    std::vector<uint8_t> types;
    std::vector<char> senders;
    std::vector<Time> times;
};

/** The TSN of a DATA or I-DATA chunk (the first word of both); false for other chunks. */
inline bool
UserDataTsn(const SctpChunk& c, uint32_t& tsn)
{
    SctpDataChunk data;
    SctpIDataChunk iData;
    if (c.type == SctpChunk::DATA && data.Deserialize(c))
    {
        tsn = data.tsn;
        return true;
    }
    if (c.type == SctpChunk::I_DATA && iData.Deserialize(c))
    {
        tsn = iData.tsn;
        return true;
    }
    return false;
}

/**
 * A receive error model for the tests: drops the first transmission of chosen DATA or
 * I-DATA chunks (by their TSN's offset from the first TSN seen) and, from a given time on,
 * every packet (a link that failed).
 */
class Dropper : public ErrorModel
{
  public:
    std::vector<uint32_t> dataOffsets; //!< offsets of the TSNs whose first copy is lost
    Time failAt{Seconds(1e9)};         //!< from then on everything is lost
    uint32_t dropped{0};

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        if (Simulator::Now() >= failAt)
        {
            ++dropped;
            return true;
        }
        std::vector<uint8_t> bytes;
        std::vector<SctpChunk> chunks;
        if (!SctpChunksOf(p, bytes, chunks))
        {
            return false;
        }
        bool drop = false;
        for (const auto& c : chunks)
        {
            uint32_t tsn = 0;
            if (!UserDataTsn(c, tsn))
            {
                continue;
            }
            if (!m_haveFirst)
            {
                m_first = tsn;
                m_haveFirst = true;
            }
            uint32_t offset = tsn - m_first;
            if (std::find(m_seen.begin(), m_seen.end(), offset) != m_seen.end())
            {
                continue; // a retransmission
            }
            m_seen.push_back(offset);
            drop = drop || std::find(dataOffsets.begin(), dataOffsets.end(), offset) !=
                               dataOffsets.end();
        }
        dropped += drop ? 1 : 0;
        return drop;
    }

    void DoReset() override
    {
    }

    bool m_haveFirst{false};
    uint32_t m_first{0};
    std::vector<uint32_t> m_seen;
};

} // namespace sctptest
} // namespace ns3

#endif /* SCTP_TEST_NETWORK_H */
