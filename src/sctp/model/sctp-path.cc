#include "sctp-path.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"


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
    CancelTimers();
    m_t3ExpiredCallback.Nullify();
    m_heartbeatCallback.Nullify();
    m_heartbeatResponseCallback.Nullify();
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

void
SctpPath::SetCwnd(uint32_t cwnd)
{
    m_cwnd = cwnd;
}

void
SctpPath::SetSsthresh(uint32_t ssthresh)
{
    m_ssthresh = ssthresh;
}

void
SctpPath::SetPartialBytesAcked(uint32_t bytes)
{
    m_partialBytesAcked = bytes;
}

Time
SctpPath::GetIdleDecayMark() const
{
    return m_idleDecayMark;
}

void
SctpPath::SetIdleDecayMark(Time t)
{
    m_idleDecayMark = t;
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
    return m_rtoEstimator.GetSrtt();
}

Time
SctpPath::GetRttVar() const
{
    return m_rtoEstimator.GetRttVar();
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
    m_rtoEstimator.Reset();
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
SctpPath::OnRttSample(Time r, Time rtoMin, Time rtoMax, double alpha, double beta)
{
    m_lastRtt = r;
    m_rto = m_rtoEstimator.Update(r, rtoMin, rtoMax, alpha, beta);
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
    m_rto = SctpRtoEstimator::BackOff(m_rto.Get(), rtoMax);
}

// ------------------------------------------------------------------ timers

void
SctpPath::SetT3ExpiredCallback(Callback<void, uint32_t> callback)
{
    m_t3ExpiredCallback = callback;
}

void
SctpPath::SetHeartbeatCallbacks(Callback<void, uint32_t> heartbeat,
                                Callback<void, uint32_t> response)
{
    m_heartbeatCallback = heartbeat;
    m_heartbeatResponseCallback = response;
}

void
SctpPath::StartT3(bool restart)
{
    if (m_t3Running && !restart)
    {
        return;
    }
    Time rto = m_rto;
    m_t3Running = true;
    m_t3Deadline = Simulator::Now() + rto;
    // The event is rescheduled lazily: restarting a running timer only moves the
    // deadline; the event re-arms itself when it fires early (no event per SACK).
    if (m_t3Event.IsPending())
    {
        if (Simulator::GetDelayLeft(m_t3Event) <= rto)
        {
            return;
        }
        Simulator::Cancel(m_t3Event);
    }
    m_t3Event = Simulator::Schedule(rto, &SctpPath::T3Event, this);
}

void
SctpPath::StopT3()
{
    m_t3Running = false;
}

void
SctpPath::T3Event()
{
    if (!m_t3Running)
    {
        return;
    }
    Time now = Simulator::Now();
    if (now < m_t3Deadline)
    {
        m_t3Event = Simulator::Schedule(m_t3Deadline - now, &SctpPath::T3Event, this);
        return;
    }
    m_t3Running = false;
    m_t3Deadline = now;
    m_t3ExpiredCallback(m_index);
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
SctpPath::ScheduleHeartbeat(Time delay)
{
    Simulator::Cancel(m_hbTimer);
    m_hbTimer = Simulator::Schedule(delay, &SctpPath::HeartbeatEvent, this);
}

void
SctpPath::CancelHeartbeat()
{
    Simulator::Cancel(m_hbTimer);
}

void
SctpPath::HeartbeatEvent()
{
    m_heartbeatCallback(m_index);
}

void
SctpPath::ScheduleHeartbeatResponse(Time delay)
{
    Simulator::Cancel(m_hbResponseTimer);
    m_hbResponseTimer = Simulator::Schedule(delay, &SctpPath::HeartbeatResponseEvent, this);
}

void
SctpPath::CancelHeartbeatResponse()
{
    Simulator::Cancel(m_hbResponseTimer);
}

void
SctpPath::HeartbeatResponseEvent()
{
    m_heartbeatResponseCallback(m_index);
}

void
SctpPath::CancelTimers()
{
    Simulator::Cancel(m_t3Event);
    m_t3Running = false;
    m_t3Deadline = Time(0);
    Simulator::Cancel(m_hbTimer);
    Simulator::Cancel(m_hbResponseTimer);
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
