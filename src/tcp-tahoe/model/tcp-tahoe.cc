#include "tcp-tahoe.h"

#include "ns3/log.h"
#include "ns3/tcp-socket-state.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpTahoe");
NS_OBJECT_ENSURE_REGISTERED(TcpTahoe);
NS_OBJECT_ENSURE_REGISTERED(TcpTahoeRecovery);

// ----------------------------------------------------------------------------- TcpTahoe

TypeId
TcpTahoe::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TcpTahoe")
                            .SetParent<TcpCongestionOps>()
                            .SetGroupName("Internet")
                            .AddConstructor<TcpTahoe>();
    return tid;
}

TcpTahoe::TcpTahoe()
    : TcpCongestionOps()
{
    NS_LOG_FUNCTION(this);
}

TcpTahoe::TcpTahoe(const TcpTahoe& other)
    : TcpCongestionOps(other)
{
    NS_LOG_FUNCTION(this);
}

TcpTahoe::~TcpTahoe()
{
    NS_LOG_FUNCTION(this);
}

std::string
TcpTahoe::GetName() const
{
    return "TcpTahoe";
}

uint32_t
TcpTahoe::GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight)
{
    NS_LOG_FUNCTION(this << tcb << bytesInFlight);
    const uint32_t segment = tcb->m_segmentSize;
    const uint32_t outstanding = tcb->m_highTxMark.Get() - tcb->m_lastAckedSeq;
    const uint32_t window = std::min(tcb->m_cWnd.Get(), outstanding);
    // NS-2 counts the window in packets and truncates half of it to an integer.
    const uint32_t half = std::max<uint32_t>(window / segment / 2, 2);
    NS_LOG_DEBUG("window " << window << " B -> ssthresh " << half << " segments");
    return half * segment;
}

void
TcpTahoe::IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked)
{
    NS_LOG_FUNCTION(this << tcb << segmentsAcked);
    if (segmentsAcked == 0)
    {
        return;
    }
    const uint32_t segment = tcb->m_segmentSize;
    if (tcb->m_cWnd < tcb->m_ssThresh)
    {
        tcb->m_cWnd += segment;
    }
    else
    {
        const double adder = static_cast<double>(segment) * segment / tcb->m_cWnd.Get();
        tcb->m_cWnd += std::max<uint32_t>(1, static_cast<uint32_t>(adder));
    }
    NS_LOG_DEBUG("cwnd " << tcb->m_cWnd << " ssthresh " << tcb->m_ssThresh);
}

Ptr<TcpCongestionOps>
TcpTahoe::Fork()
{
    return CopyObject<TcpTahoe>(this);
}

// ----------------------------------------------------------------------------- TcpTahoeRecovery

TypeId
TcpTahoeRecovery::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TcpTahoeRecovery")
                            .SetParent<TcpRecoveryOps>()
                            .SetGroupName("Internet")
                            .AddConstructor<TcpTahoeRecovery>();
    return tid;
}

TcpTahoeRecovery::TcpTahoeRecovery()
    : TcpRecoveryOps(),
      m_cWnd(0)
{
    NS_LOG_FUNCTION(this);
}

TcpTahoeRecovery::TcpTahoeRecovery(const TcpTahoeRecovery& other)
    : TcpRecoveryOps(other),
      m_cWnd(other.m_cWnd)
{
    NS_LOG_FUNCTION(this);
}

TcpTahoeRecovery::~TcpTahoeRecovery()
{
    NS_LOG_FUNCTION(this);
}

std::string
TcpTahoeRecovery::GetName() const
{
    return "TcpTahoeRecovery";
}

void
TcpTahoeRecovery::SetWindow(Ptr<TcpSocketState> tcb, uint32_t bytes)
{
    m_cWnd = bytes;
    tcb->m_cWnd = bytes;
    tcb->m_cWndInfl = bytes;
}

void
TcpTahoeRecovery::EnterRecovery(Ptr<TcpSocketState> tcb,
                                uint32_t dupAckCount,
                                uint32_t unAckDataCount,
                                uint32_t deliveredBytes)
{
    NS_LOG_FUNCTION(this << tcb << dupAckCount << unAckDataCount << deliveredBytes);
    // ssthresh has been set by the congestion control (TcpTahoe::GetSsThresh).
    SetWindow(tcb, tcb->m_segmentSize);
}

void
TcpTahoeRecovery::DoRecovery(Ptr<TcpSocketState> tcb, uint32_t deliveredBytes, bool isDupAck)
{
    NS_LOG_FUNCTION(this << tcb << deliveredBytes << isDupAck);
    if (isDupAck || deliveredBytes == 0)
    {
        return; // no window inflation
    }
    // An ACK that advances: one more segment, as in slow start.
    SetWindow(tcb, m_cWnd + tcb->m_segmentSize);
}

void
TcpTahoeRecovery::ExitRecovery(Ptr<TcpSocketState> tcb)
{
    NS_LOG_FUNCTION(this << tcb);
    // The socket has just set cwnd to ssthresh; Tahoe keeps growing from where it is.
    SetWindow(tcb, m_cWnd);
}

Ptr<TcpRecoveryOps>
TcpTahoeRecovery::Fork()
{
    return CopyObject<TcpTahoeRecovery>(this);
}

} // namespace ns3
