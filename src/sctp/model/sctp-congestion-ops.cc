#include "sctp-congestion-ops.h"

#include "sctp-path.h"

#include "ns3/ipv6-address.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpCongestionOps");
NS_OBJECT_ENSURE_REGISTERED(SctpCongestionOps);
NS_OBJECT_ENSURE_REGISTERED(SctpRfc9260CongestionOps);

TypeId
SctpCongestionOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpCongestionOps").SetParent<Object>().SetGroupName("Sctp");
    return tid;
}

SctpCongestionOps::~SctpCongestionOps() = default;

TypeId
SctpRfc9260CongestionOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpRfc9260CongestionOps")
                            .SetParent<SctpCongestionOps>()
                            .SetGroupName("Sctp")
                            .AddConstructor<SctpRfc9260CongestionOps>();
    return tid;
}

SctpRfc9260CongestionOps::SctpRfc9260CongestionOps() = default;

SctpRfc9260CongestionOps::~SctpRfc9260CongestionOps() = default;

std::string
SctpRfc9260CongestionOps::GetName() const
{
    return "SctpRfc9260CongestionOps";
}

uint32_t
SctpRfc9260CongestionOps::GetInitialCwnd(const SctpPath& path) const
{
    // RFC 9260 7.2.1: min(4 * MTU, max(2 * MTU, 4404)) to an IPv4 destination and 4344
    // instead of 4404 to an IPv6 one (three full-sized DATA chunks: 1468 / 1448 bytes of
    // SCTP packet in a 1500-byte IPv4 / IPv6 packet).
    uint32_t pmdcs = path.GetPmdcs();
    uint32_t threeChunks = Ipv6Address::IsMatchingType(path.GetAddress()) ? 4344u : 4404u;
    return std::min(4 * pmdcs, std::max(2 * pmdcs, threeChunks));
}

uint32_t
SctpRfc9260CongestionOps::GetInitialSsthresh(const SctpPath& path, uint32_t peerRwnd) const
{
    // 7.2.1: "arbitrarily high (e.g., the size of the receiver advertised window)".
    return std::max(peerRwnd, 1u);
}

void
SctpRfc9260CongestionOps::BytesAcked(SctpPath& path,
                                     uint32_t bytesAcked,
                                     bool fullyUtilized,
                                     bool inFastRecovery)
{
    if (bytesAcked == 0)
    {
        return;
    }
    uint32_t pmdcs = path.GetPmdcs();
    uint32_t cwnd = path.GetCwnd();
    if (cwnd <= path.GetSsthresh())
    {
        // Slow start (RFC 9260 7.2.1): grow only when the window is used and we are not
        // in Fast Recovery; by at most 1 PMDCS. RFC 4960 also required the SACK to
        // advance the cumulative TSN ack point; RFC 9260 dropped that condition, so
        // bytes newly acknowledged by gap blocks count too.
        if (fullyUtilized && !inFastRecovery)
        {
            path.SetCwnd(cwnd + std::min(bytesAcked, pmdcs));
        }
        return;
    }
    // Congestion avoidance (7.2.2): partial_bytes_acked counts every newly acknowledged
    // byte, by the cumulative TSN ack or by gap blocks (no cumulative-advance condition
    // in RFC 9260 either).
    uint32_t pba = path.GetPartialBytesAcked() + bytesAcked;
    if (pba >= cwnd && fullyUtilized)
    {
        path.SetPartialBytesAcked(pba - cwnd);
        path.SetCwnd(cwnd + pmdcs);
    }
    else if (!fullyUtilized && pba > cwnd)
    {
        // RFC 9260 7.2.2: cap partial_bytes_acked at cwnd when the window is not full.
        path.SetPartialBytesAcked(cwnd);
    }
    else
    {
        path.SetPartialBytesAcked(pba);
    }
}

void
SctpRfc9260CongestionOps::FastRetransmit(SctpPath& path)
{
    // 7.2.3: ssthresh = max(cwnd / 2, 4 * PMDCS), cwnd = ssthresh.
    uint32_t ssthresh = std::max(path.GetCwnd() / 2, 4 * path.GetPmdcs());
    path.SetSsthresh(ssthresh);
    path.SetCwnd(ssthresh);
    path.SetPartialBytesAcked(0);
}

void
SctpRfc9260CongestionOps::RetransmissionTimeout(SctpPath& path)
{
    // 7.2.3: ssthresh = max(cwnd / 2, 4 * PMDCS), cwnd = 1 PMDCS.
    uint32_t pmdcs = path.GetPmdcs();
    path.SetSsthresh(std::max(path.GetCwnd() / 2, 4 * pmdcs));
    path.SetCwnd(pmdcs);
    path.SetPartialBytesAcked(0);
}

void
SctpRfc9260CongestionOps::Idle(SctpPath& path, Time now)
{
    Time rto = path.GetRto();
    Time lastSend = path.GetLastSendTime();
    if (path.GetFlightSize() > 0 || lastSend.IsZero() || rto.IsZero())
    {
        return;
    }
    // 7.2.1: cwnd = max(cwnd / 2, 4 * PMDCS) per RTO without data. Decay already applied
    // in this idle period (this may be called several times before the next DATA goes
    // out) continues from where it stopped.
    bool first = path.GetIdleDecayMark() <= lastSend;
    Time from = first ? lastSend : path.GetIdleDecayMark();
    uint32_t floor = 4 * path.GetPmdcs();
    while (now - from >= rto && path.GetCwnd() > floor)
    {
        if (first)
        {
            // RFC 9260 7.2.1: at the first adjustment ssthresh is set to cwnd, taken here
            // before the halving, so that slow start regains the window the path had.
            path.SetSsthresh(path.GetCwnd());
            first = false;
        }
        path.SetCwnd(std::max(path.GetCwnd() / 2, floor));
        from += rto;
    }
    if (!first)
    {
        path.SetIdleDecayMark(from);
    }
}

Ptr<SctpCongestionOps>
SctpRfc9260CongestionOps::Fork() const
{
    return CopyObject<SctpRfc9260CongestionOps>(this);
}

} // namespace ns3
