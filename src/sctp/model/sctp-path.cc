#include "sctp-path.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpPath");
NS_OBJECT_ENSURE_REGISTERED(SctpPath);

TypeId
SctpPath::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SctpPath")
            .SetParent<Object>()
            .SetGroupName("Sctp")
            .AddConstructor<SctpPath>()
            .AddTraceSource("CongestionWindow",
                            "The congestion window (bytes) of this destination",
                            MakeTraceSourceAccessor(&SctpPath::m_cwnd),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("SlowStartThreshold",
                            "The slow start threshold (bytes) of this destination",
                            MakeTraceSourceAccessor(&SctpPath::m_ssthresh),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("RTO",
                            "The retransmission timeout of this destination",
                            MakeTraceSourceAccessor(&SctpPath::m_rto),
                            "ns3::TracedValueCallback::Time")
            .AddTraceSource("RTT",
                            "The last RTT sample of this destination",
                            MakeTraceSourceAccessor(&SctpPath::m_lastRtt),
                            "ns3::TracedValueCallback::Time")
            .AddTraceSource("State",
                            "Reachability of this destination: ACTIVE, INACTIVE (8.2) or "
                            "POTENTIALLY_FAILED (RFC 7829)",
                            MakeTraceSourceAccessor(&SctpPath::m_stateTrace),
                            "ns3::SctpPath::StateTracedCallback");
    return tid;
}

SctpPath::SctpPath()
    : m_cwnd(0),
      m_ssthresh(0),
      m_rto(Seconds(1)),
      m_lastRtt(Time(0)),
      m_stateTrace(ACTIVE)
{
}

SctpPath::~SctpPath() = default;

void
SctpPath::DoDispose()
{
    Simulator::Cancel(m_t3Event);
    Simulator::Cancel(m_hbTimer);
    Simulator::Cancel(m_hbResponseTimer);
    m_sourceDevice = nullptr;
    Object::DoDispose();
}

void
SctpPath::SetAddress(const Address& address)
{
    m_address = address;
}

const Address&
SctpPath::GetAddress() const
{
    return m_address;
}

void
SctpPath::SetIndex(uint32_t index)
{
    m_index = index;
}

uint32_t
SctpPath::GetIndex() const
{
    return m_index;
}

void
SctpPath::SetMtu(uint32_t mtu, uint32_t ipHeaderSize)
{
    m_mtu = mtu;
    m_ipHeaderSize = ipHeaderSize;
}

uint32_t
SctpPath::GetMtu() const
{
    return m_mtu;
}

uint32_t
SctpPath::GetPmdcs() const
{
    return m_mtu - m_ipHeaderSize - 12;
}

uint32_t
SctpPath::GetCwnd() const
{
    return m_cwnd;
}

uint32_t
SctpPath::GetSsthresh() const
{
    return m_ssthresh;
}

uint32_t
SctpPath::GetPartialBytesAcked() const
{
    return m_partialBytesAcked;
}

uint32_t
SctpPath::GetFlightSize() const
{
    return m_flightSize;
}

Time
SctpPath::GetRto() const
{
    return m_rto;
}

Time
SctpPath::GetSrtt() const
{
    return m_srtt;
}

Time
SctpPath::GetRttVar() const
{
    return m_rttVar;
}

uint32_t
SctpPath::GetErrorCount() const
{
    return m_errorCount;
}

SctpPath::State
SctpPath::GetState() const
{
    return m_stateTrace;
}

void
SctpPath::InitializeCongestionControl(uint32_t initialCwnd, uint32_t initialSsthresh)
{
    m_cwnd = initialCwnd;
    m_ssthresh = initialSsthresh;
    m_partialBytesAcked = 0;
}

void
SctpPath::InitializeRto(Time rtoInitial)
{
    m_rto = rtoInitial;
    m_haveRttMeasurement = false;
}

void
SctpPath::AddFlight(uint32_t bytes)
{
    m_flightSize += bytes;
}

void
SctpPath::RemoveFlight(uint32_t bytes)
{
    m_flightSize = bytes > m_flightSize ? 0 : m_flightSize - bytes;
    if (m_flightSize == 0)
    {
        // Section 7.2.2: all data acknowledged resets partial_bytes_acked.
        m_partialBytesAcked = 0;
    }
}

void
SctpPath::OnBytesAcked(uint32_t bytesAcked, bool fullyUtilized, bool inFastRecovery)
{
    if (bytesAcked == 0)
    {
        return;
    }
    uint32_t pmdcs = GetPmdcs();
    if (m_cwnd <= m_ssthresh)
    {
        // Slow start (RFC 9260 7.2.1): grow only when the window is used and we are not
        // in Fast Recovery; by at most 1 PMDCS. RFC 4960 also required the SACK to
        // advance the cumulative TSN ack point; RFC 9260 dropped that condition, so
        // bytes newly acknowledged by gap blocks count too.
        if (fullyUtilized && !inFastRecovery)
        {
            m_cwnd = m_cwnd + std::min(bytesAcked, pmdcs);
        }
        return;
    }
    // Congestion avoidance (7.2.2): partial_bytes_acked counts every newly acknowledged
    // byte, by the cumulative TSN ack or by gap blocks (no cumulative-advance condition
    // in RFC 9260 either).
    m_partialBytesAcked += bytesAcked;
    if (m_partialBytesAcked >= m_cwnd && fullyUtilized)
    {
        m_partialBytesAcked -= m_cwnd;
        m_cwnd = m_cwnd + pmdcs;
    }
    else if (!fullyUtilized && m_partialBytesAcked > m_cwnd)
    {
        // RFC 9260 7.2.2: cap partial_bytes_acked at cwnd when the window is not full.
        m_partialBytesAcked = m_cwnd;
    }
}

void
SctpPath::OnFastRetransmit()
{
    uint32_t pmdcs = GetPmdcs();
    m_ssthresh = std::max(m_cwnd.Get() / 2, 4 * pmdcs);
    m_cwnd = m_ssthresh.Get();
    m_partialBytesAcked = 0;
}

void
SctpPath::OnRetransmissionTimeout(Time rtoMax)
{
    uint32_t pmdcs = GetPmdcs();
    m_ssthresh = std::max(m_cwnd.Get() / 2, 4 * pmdcs);
    m_cwnd = pmdcs;
    m_partialBytesAcked = 0;
    m_rto = std::min(m_rto.Get() * 2, rtoMax); // E2: back off the timer
    CancelRttMeasurement();
}

void
SctpPath::ApplyIdleDecay(Time now)
{
    if (m_flightSize > 0 || m_lastSendTime.IsZero() || m_rto.Get().IsZero())
    {
        return;
    }
    // Decay already applied in this idle period (this may be called several times before
    // the next DATA goes out) continues from where it stopped.
    bool first = m_idleDecayMark <= m_lastSendTime;
    Time from = first ? m_lastSendTime : m_idleDecayMark;
    uint32_t floor = 4 * GetPmdcs();
    while (now - from >= m_rto.Get() && m_cwnd > floor)
    {
        if (first)
        {
            // RFC 9260 7.2.1: at the first adjustment ssthresh is set to cwnd, taken here
            // before the halving, so that slow start regains the window the path had.
            m_ssthresh = m_cwnd.Get();
            first = false;
        }
        m_cwnd = std::max(m_cwnd.Get() / 2, floor);
        from += m_rto.Get();
    }
    if (!first)
    {
        m_idleDecayMark = from;
    }
}

void
SctpPath::OnRttSample(Time r, Time rtoMin, Time rtoMax, double alpha, double beta)
{
    m_lastRtt = r;
    if (!m_haveRttMeasurement)
    {
        // C2: first measurement.
        m_srtt = r;
        m_rttVar = r / 2;
        m_haveRttMeasurement = true;
    }
    else
    {
        // C3: RTTVAR first, with the old SRTT.
        Time diff = Abs(m_srtt - r);
        m_rttVar = Time::FromDouble((1.0 - beta) * m_rttVar.GetDouble() + beta * diff.GetDouble(),
                                    Time::GetResolution());
        m_srtt = Time::FromDouble((1.0 - alpha) * m_srtt.GetDouble() + alpha * r.GetDouble(),
                                  Time::GetResolution());
    }
    if (m_rttVar.IsZero())
    {
        m_rttVar = TimeStep(1); // clock granularity G
    }
    Time rto = m_srtt + 4 * m_rttVar;
    rto = std::max(rto, rtoMin); // C6
    rto = std::min(rto, rtoMax); // C7
    m_rto = rto;
}

bool
SctpPath::IsRttPending() const
{
    return m_rttPending;
}

uint32_t
SctpPath::GetRttTsn() const
{
    return m_rttTsn;
}

void
SctpPath::StartRttMeasurement(uint32_t tsn, Time now)
{
    m_rttPending = true;
    m_rttTsn = tsn;
    m_rttSendTime = now;
}

void
SctpPath::CancelRttMeasurement()
{
    m_rttPending = false;
}

Time
SctpPath::GetRttSendTime() const
{
    return m_rttSendTime;
}

void
SctpPath::IncrementErrorCount()
{
    ++m_errorCount;
}

void
SctpPath::ResetErrorCount()
{
    m_errorCount = 0;
}

void
SctpPath::SetState(State state)
{
    if (m_stateTrace.Get() != state)
    {
        if (m_stateTrace.Get() == ACTIVE)
        {
            m_lastActiveTime = Simulator::Now();
        }
        m_stateTrace = state;
    }
}

Time
SctpPath::GetLastActiveTime() const
{
    return m_lastActiveTime;
}

bool
SctpPath::IsConfirmed() const
{
    return m_confirmed;
}

void
SctpPath::SetConfirmed(bool confirmed)
{
    m_confirmed = confirmed;
}

void
SctpPath::SetSource(const Address& source, Ptr<NetDevice> device)
{
    m_source = source;
    m_sourceDevice = device;
}

const Address&
SctpPath::GetSourceAddress() const
{
    return m_source;
}

Ptr<NetDevice>
SctpPath::GetSourceDevice() const
{
    return m_sourceDevice;
}

EventId&
SctpPath::GetHeartbeatTimer()
{
    return m_hbTimer;
}

EventId&
SctpPath::GetHeartbeatResponseTimer()
{
    return m_hbResponseTimer;
}

bool
SctpPath::IsHeartbeatOutstanding() const
{
    return m_hbOutstanding;
}

uint64_t
SctpPath::GetHeartbeatNonce() const
{
    return m_hbNonce;
}

Time
SctpPath::GetHeartbeatSendTime() const
{
    return m_hbSendTime;
}

void
SctpPath::SetHeartbeatOutstanding(bool outstanding, uint64_t nonce, Time sendTime)
{
    m_hbOutstanding = outstanding;
    m_hbNonce = nonce;
    m_hbSendTime = sendTime;
}

Time
SctpPath::GetLastRttEligibleSend() const
{
    return m_lastRttEligibleSend;
}

void
SctpPath::SetLastRttEligibleSend(Time t)
{
    m_lastRttEligibleSend = t;
}

Time
SctpPath::GetHeartbeatAnchor() const
{
    return m_hbAnchor;
}

void
SctpPath::SetHeartbeatAnchor(Time t)
{
    m_hbAnchor = t;
}

void
SctpPath::BackOffRto(Time rtoMax)
{
    m_rto = std::min(m_rto.Get() * 2, rtoMax);
}

bool
SctpPath::IsT3Running() const
{
    return m_t3Running;
}

Time
SctpPath::GetT3Deadline() const
{
    return m_t3Deadline;
}

void
SctpPath::SetT3(bool running, Time deadline)
{
    m_t3Running = running;
    m_t3Deadline = deadline;
}

EventId&
SctpPath::GetT3Event()
{
    return m_t3Event;
}

void
SctpPath::SetLastSendTime(Time t)
{
    m_lastSendTime = t;
}

Time
SctpPath::GetLastSendTime() const
{
    return m_lastSendTime;
}

} // namespace ns3
