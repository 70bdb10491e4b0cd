#include "sctp-validation.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/sctp-chunk.h"
#include "ns3/sctp-message-tag.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpValidation");
NS_OBJECT_ENSURE_REGISTERED(SctpDropErrorModel);
NS_OBJECT_ENSURE_REGISTERED(SctpValidationFlow);

// ------------------------------------------------------------------ SctpDropErrorModel

TypeId
SctpDropErrorModel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpDropErrorModel")
                            .SetParent<ErrorModel>()
                            .SetGroupName("Sctp")
                            .AddConstructor<SctpDropErrorModel>();
    return tid;
}

SctpDropErrorModel::SctpDropErrorModel() = default;

void
SctpDropErrorModel::AddPacket(uint32_t number)
{
    m_packets.insert(number);
}

void
SctpDropErrorModel::AddTsn(uint32_t relativeTsn, uint32_t times)
{
    m_tsnDropsLeft[relativeTsn] += times;
}

void
SctpDropErrorModel::SetRandomLoss(double rate, uint64_t seed)
{
    m_lossRate = rate;
    m_lossSeed = seed;
}

uint32_t
SctpDropErrorModel::GetPacketCount() const
{
    return m_count;
}

std::vector<uint32_t>
SctpDropErrorModel::GetDropNumbers() const
{
    return m_dropNumbers;
}

std::vector<int64_t>
SctpDropErrorModel::GetDropTimesNs() const
{
    return m_dropTimes;
}

std::vector<uint8_t>
SctpDropErrorModel::GetDropReasons() const
{
    return m_dropReasons;
}

namespace
{
uint64_t
SplitMix64(uint64_t& s)
{
    uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint32_t
Read32(const uint8_t* p)
{
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
}
} // namespace

bool
SctpDropErrorModel::RandomLoss(double rate, uint64_t seed, uint64_t relativeTsn, uint64_t transmission)
{
    if (rate <= 0)
    {
        return false;
    }
    uint64_t key = relativeTsn * 1024 + std::min<uint64_t>(transmission, 1023);
    uint64_t s = seed * 0x100000001b3ULL + key;
    double u = double(SplitMix64(s) >> 11) * (1.0 / 9007199254740992.0);
    return u < rate;
}

bool
SctpDropErrorModel::DoCorrupt(Ptr<Packet> p)
{
    uint32_t number = ++m_count;
    // The point-to-point device calls the model before removing its PPP header.
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    size_t off = 0;
    if (bytes.size() >= 2 && bytes[0] == 0x00 && bytes[1] == 0x21)
    {
        off = 2;
    }
    bool tsnDrop = false;
    int64_t firstTsn = -1;
    if (bytes.size() >= off + 20 && (bytes[off] >> 4) == 4 && bytes[off + 9] == 132)
    {
        off += (bytes[off] & 0x0f) * 4u;
        off += 12; // SCTP common header
        while (off + 4 <= bytes.size())
        {
            uint8_t type = bytes[off];
            size_t len = (size_t(bytes[off + 2]) << 8) | bytes[off + 3];
            if (len < 4 || off + len > bytes.size())
            {
                break;
            }
            // DATA (RFC 9260 3.3.1) and I-DATA (RFC 8260 2.1) both carry their TSN in the
            // first word after the chunk header; their headers are 16 and 20 bytes long.
            bool userData = (type == SctpChunk::DATA && len >= SctpDataChunk::HEADER_SIZE) ||
                            (type == SctpChunk::I_DATA && len >= SctpIDataChunk::HEADER_SIZE);
            if (userData)
            {
                uint32_t tsn = Read32(&bytes[off + 4]);
                if (!m_haveBase)
                {
                    m_haveBase = true;
                    m_tsnBase = tsn;
                }
                if (firstTsn < 0)
                {
                    firstTsn = tsn - m_tsnBase;
                }
                auto it = m_tsnDropsLeft.find(tsn - m_tsnBase);
                if (it != m_tsnDropsLeft.end() && it->second > 0)
                {
                    --it->second;
                    tsnDrop = true;
                }
            }
            off += (len + 3) & ~size_t(3);
        }
    }
    int reason = -1;
    if (m_packets.count(number))
    {
        reason = 0;
    }
    else if (tsnDrop)
    {
        reason = 1;
    }
    else if (firstTsn >= 0 &&
             RandomLoss(m_lossRate, m_lossSeed, firstTsn, m_arrivals[uint32_t(firstTsn)]++))
    {
        reason = 2;
    }
    if (reason < 0)
    {
        return false;
    }
    m_dropNumbers.push_back(number);
    m_dropTimes.push_back(Simulator::Now().GetNanoSeconds());
    m_dropReasons.push_back(static_cast<uint8_t>(reason));
    return true;
}

void
SctpDropErrorModel::DoReset()
{
}

// ------------------------------------------------------------------ SctpValidationFlow

TypeId
SctpValidationFlow::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpValidationFlow")
                            .SetParent<Object>()
                            .SetGroupName("Sctp")
                            .AddConstructor<SctpValidationFlow>();
    return tid;
}

void
SctpValidationFlow::Setup(Ptr<Node> client,
                          Ptr<Node> server,
                          Ipv4Address serverAddress,
                          uint16_t port,
                          uint32_t messageSize,
                          uint64_t totalBytes,
                          uint16_t streams,
                          double startSeconds)
{
    m_client = client;
    m_server = server;
    m_serverAddress = serverAddress;
    m_port = port;
    m_messageSize = messageSize;
    m_totalBytes = totalBytes;
    m_streams = std::max<uint16_t>(streams, 1);
    Simulator::Schedule(Seconds(startSeconds), &SctpValidationFlow::Start, this);
}

void
SctpValidationFlow::Start()
{
    TypeId factory = TypeId::LookupByName("ns3::SctpSocketFactory");
    m_listener = Socket::CreateSocket(m_server, factory);
    m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
    m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&SctpValidationFlow::OnAccept, this));
    m_listener->Listen();

    m_clientSocket = DynamicCast<SctpSocket>(Socket::CreateSocket(m_client, factory));
    NS_ABORT_MSG_IF(!m_clientSocket, "not an SCTP socket");
    m_clientSocket->TraceConnectWithoutContext(
        "CongestionWindow",
        MakeCallback(&SctpValidationFlow::OnCwnd, this));
    m_clientSocket->TraceConnectWithoutContext(
        "SlowStartThreshold",
        MakeCallback(&SctpValidationFlow::OnSsthresh, this));
    m_clientSocket->TraceConnectWithoutContext("RTO",
                                               MakeCallback(&SctpValidationFlow::OnRto, this));
    m_clientSocket->TraceConnectWithoutContext("RTT",
                                               MakeCallback(&SctpValidationFlow::OnRtt, this));
    m_clientSocket->TraceConnectWithoutContext("PeerRwnd",
                                               MakeCallback(&SctpValidationFlow::OnRwnd, this));
    m_clientSocket->TraceConnectWithoutContext(
        "TxChunk",
        MakeCallback(&SctpValidationFlow::OnTxChunk, this));
    m_clientSocket->TraceConnectWithoutContext(
        "Retransmission",
        MakeCallback(&SctpValidationFlow::OnRetransmission, this));
    m_clientSocket->SetConnectCallback(MakeCallback(&SctpValidationFlow::OnConnected, this),
                                       MakeCallback(&SctpValidationFlow::OnConnectFailed, this));
    m_clientSocket->SetSendCallback(MakeCallback(&SctpValidationFlow::OnSendSpace, this));
    m_clientSocket->Bind();
    m_clientSocket->Connect(InetSocketAddress(m_serverAddress, m_port));
}

void
SctpValidationFlow::OnConnected(Ptr<Socket>)
{
    m_connected = true;
    m_established = Simulator::Now().GetNanoSeconds();
    Write();
}

void
SctpValidationFlow::OnConnectFailed(Ptr<Socket>)
{
    NS_LOG_WARN("validation flow: association set-up failed");
}

void
SctpValidationFlow::OnSendSpace(Ptr<Socket>, uint32_t)
{
    if (m_connected)
    {
        Write();
    }
}

void
SctpValidationFlow::Write()
{
    while (m_written < m_totalBytes)
    {
        uint32_t size =
            static_cast<uint32_t>(std::min<uint64_t>(m_messageSize, m_totalBytes - m_written));
        if (m_clientSocket->GetTxAvailable() < size)
        {
            return;
        }
        Ptr<Packet> p = Create<Packet>(size);
        SctpSendInfoTag tag(static_cast<uint16_t>(m_messages % m_streams), 0, false);
        p->AddPacketTag(tag);
        if (m_clientSocket->Send(p, 0) != static_cast<int>(size))
        {
            return;
        }
        m_written += size;
        ++m_messages;
    }
}

void
SctpValidationFlow::OnAccept(Ptr<Socket> s, const Address&)
{
    m_accepted.push_back(s);
    s->SetRecvCallback(MakeCallback(&SctpValidationFlow::OnRecv, this));
}

void
SctpValidationFlow::OnRecv(Ptr<Socket> s)
{
    while (Ptr<Packet> p = s->Recv())
    {
        m_delivered += p->GetSize();
        m_deliverTimes.push_back(Simulator::Now().GetNanoSeconds());
        m_deliverSizes.push_back(p->GetSize());
        if (m_completion < 0 && m_delivered >= m_totalBytes)
        {
            m_completion = Simulator::Now().GetNanoSeconds();
        }
    }
}

void
SctpValidationFlow::Record(uint8_t name, double value)
{
    m_seriesTimes.push_back(Simulator::Now().GetNanoSeconds());
    m_seriesNames.push_back(name);
    m_seriesValues.push_back(value);
}

void
SctpValidationFlow::OnCwnd(uint32_t, uint32_t v)
{
    Record(0, v);
}

void
SctpValidationFlow::OnSsthresh(uint32_t, uint32_t v)
{
    Record(1, v);
}

void
SctpValidationFlow::OnRto(Time, Time v)
{
    Record(2, v.GetSeconds() * 1000.0);
}

void
SctpValidationFlow::OnRtt(Time, Time v)
{
    Record(3, v.GetSeconds() * 1000.0);
}

void
SctpValidationFlow::OnRwnd(uint32_t, uint32_t v)
{
    Record(4, v);
}

void
SctpValidationFlow::OnRetransmission(uint32_t tsn, bool fast)
{
    m_rtxKind[tsn] = fast ? 1 : 2;
}

void
SctpValidationFlow::OnTxChunk(uint8_t type, uint8_t, uint16_t length, uint32_t tsn)
{
    if (type != SctpChunk::DATA)
    {
        return;
    }
    uint8_t kind = 0;
    auto it = m_rtxKind.find(tsn);
    if (it != m_rtxKind.end())
    {
        kind = it->second;
        m_rtxKind.erase(it);
    }
    m_dataTimes.push_back(Simulator::Now().GetNanoSeconds());
    m_dataTsns.push_back(tsn);
    m_dataLengths.push_back(length >= 16 ? length - 16u : 0u);
    m_dataKinds.push_back(kind);
}

void
SctpValidationFlow::WatchQueue(Ptr<NetDevice> device)
{
    Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(device);
    NS_ABORT_MSG_IF(!p2p, "WatchQueue needs a PointToPointNetDevice");
    bool ok = p2p->GetQueue()->TraceConnectWithoutContext(
        "Drop",
        MakeCallback(&SctpValidationFlow::OnQueueDrop, this));
    // With flow control and no queue disc, the traffic control layer drops what the
    // stopped (full) device queue cannot take: those are queue drops too.
    Ptr<TrafficControlLayer> tc = device->GetNode()->GetObject<TrafficControlLayer>();
    if (tc)
    {
        ok = tc->TraceConnectWithoutContext("TcDrop",
                                            MakeCallback(&SctpValidationFlow::OnQueueDrop, this)) &&
             ok;
    }
    NS_ABORT_MSG_IF(!ok, "could not connect to the queue drop trace sources");
}

void
SctpValidationFlow::OnQueueDrop(Ptr<const Packet>)
{
    m_queueDrops.push_back(Simulator::Now().GetNanoSeconds());
}

std::vector<int64_t>
SctpValidationFlow::GetQueueDropTimesNs() const
{
    return m_queueDrops;
}

uint64_t
SctpValidationFlow::GetDelivered() const
{
    return m_delivered;
}

int64_t
SctpValidationFlow::GetCompletionNs() const
{
    return m_completion;
}

int64_t
SctpValidationFlow::GetEstablishedNs() const
{
    return m_established;
}

Ptr<SctpSocket>
SctpValidationFlow::GetClientSocket() const
{
    return m_clientSocket;
}

std::vector<int64_t>
SctpValidationFlow::GetSeriesTimesNs() const
{
    return m_seriesTimes;
}

std::vector<uint8_t>
SctpValidationFlow::GetSeriesNames() const
{
    return m_seriesNames;
}

std::vector<double>
SctpValidationFlow::GetSeriesValues() const
{
    return m_seriesValues;
}

std::vector<int64_t>
SctpValidationFlow::GetDataTimesNs() const
{
    return m_dataTimes;
}

std::vector<uint32_t>
SctpValidationFlow::GetDataTsns() const
{
    return m_dataTsns;
}

std::vector<uint32_t>
SctpValidationFlow::GetDataLengths() const
{
    return m_dataLengths;
}

std::vector<uint8_t>
SctpValidationFlow::GetDataKinds() const
{
    return m_dataKinds;
}

std::vector<int64_t>
SctpValidationFlow::GetDeliverTimesNs() const
{
    return m_deliverTimes;
}

std::vector<uint32_t>
SctpValidationFlow::GetDeliverSizes() const
{
    return m_deliverSizes;
}

void
SctpValidationFlow::DoDispose()
{
    m_clientSocket = nullptr;
    m_listener = nullptr;
    m_accepted.clear();
    m_client = nullptr;
    m_server = nullptr;
    Object::DoDispose();
}

} // namespace ns3
