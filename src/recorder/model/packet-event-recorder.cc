#include "packet-event-recorder.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PacketEventRecorder");
NS_OBJECT_ENSURE_REGISTERED(PacketEventRecorder);

TypeId
PacketEventRecorder::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PacketEventRecorder")
            .SetParent<Object>()
            .SetGroupName("Recorder")
            .AddConstructor<PacketEventRecorder>()
            .AddAttribute("Reserve",
                          "Number of events to reserve room for up front.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&PacketEventRecorder::m_reserve),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

PacketEventRecorder::PacketEventRecorder()
    : m_reserve(4096)
{
    NS_LOG_FUNCTION(this);
}

PacketEventRecorder::~PacketEventRecorder()
{
    NS_LOG_FUNCTION(this);
}

void
PacketEventRecorder::DoDispose()
{
    // Keep the recorded columns: Python usually reads them after Simulator::Destroy().
    Object::DoDispose();
}

bool
PacketEventRecorder::WatchSender(Ptr<Application> app, uint32_t flowId)
{
    NS_LOG_FUNCTION(this << app << flowId);
    if (m_kinds.capacity() < m_reserve)
    {
        m_kinds.reserve(m_reserve);
    }
    Callback<void, Ptr<const Packet>, const Address&, const Address&, const SeqTsSizeHeader&> cb(
        [this, flowId](Ptr<const Packet> p,
                       const Address& from,
                       const Address& to,
                       const SeqTsSizeHeader& h) { SentWithHeader(flowId, p, from, to, h); });
    return app->TraceConnectWithoutContext("TxWithSeqTsSize", cb);
}

bool
PacketEventRecorder::WatchReceiver(Ptr<Application> app, uint32_t flowId)
{
    NS_LOG_FUNCTION(this << app << flowId);
    Callback<void, Ptr<const Packet>, const Address&, const Address&, const SeqTsSizeHeader&> cb(
        [this, flowId](Ptr<const Packet> p,
                       const Address& from,
                       const Address& to,
                       const SeqTsSizeHeader& h) { ReceivedWithHeader(flowId, p, from, to, h); });
    return app->TraceConnectWithoutContext("RxWithSeqTsSize", cb);
}

void
PacketEventRecorder::Record(Kind kind, uint32_t flowId, uint64_t seq, uint32_t size, Time sent)
{
    m_kinds.push_back(kind);
    m_flows.push_back(flowId);
    m_seqs.push_back(seq);
    m_sizes.push_back(size);
    m_timesNs.push_back(Simulator::Now().GetNanoSeconds());
    m_sentNs.push_back(sent.IsNegative() ? -1 : sent.GetNanoSeconds());
}

void
PacketEventRecorder::SentWithHeader(uint32_t flowId,
                                    Ptr<const Packet> packet,
                                    const Address& /* from */,
                                    const Address& /* to */,
                                    const SeqTsSizeHeader& header)
{
    // BulkSend fires the trace before adding the header to the packet; the size in
    // the header is the application packet size for every application.
    Record(SENT, flowId, header.GetSeq(), static_cast<uint32_t>(header.GetSize()), header.GetTs());
}

void
PacketEventRecorder::ReceivedWithHeader(uint32_t flowId,
                                        Ptr<const Packet> packet,
                                        const Address& /* from */,
                                        const Address& /* to */,
                                        const SeqTsSizeHeader& header)
{
    // For stream sockets PacketSink reassembles the application's packets and reports
    // the size written in the header; that is the application packet size.
    Record(RECEIVED, flowId, header.GetSeq(), static_cast<uint32_t>(header.GetSize()), header.GetTs());
}

std::size_t
PacketEventRecorder::GetN() const
{
    return m_kinds.size();
}

void
PacketEventRecorder::Clear()
{
    m_kinds.clear();
    m_flows.clear();
    m_seqs.clear();
    m_sizes.clear();
    m_timesNs.clear();
    m_sentNs.clear();
}

const std::vector<uint8_t>&
PacketEventRecorder::GetKinds() const
{
    return m_kinds;
}

const std::vector<uint32_t>&
PacketEventRecorder::GetFlows() const
{
    return m_flows;
}

const std::vector<uint64_t>&
PacketEventRecorder::GetSeqs() const
{
    return m_seqs;
}

const std::vector<uint32_t>&
PacketEventRecorder::GetSizes() const
{
    return m_sizes;
}

const std::vector<int64_t>&
PacketEventRecorder::GetTimesNs() const
{
    return m_timesNs;
}

const std::vector<int64_t>&
PacketEventRecorder::GetSentNs() const
{
    return m_sentNs;
}

} // namespace ns3
