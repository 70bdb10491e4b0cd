/*
 * One destination transport address of an association (RFC 9260 sections 5.4, 6.3, 7,
 * 8.2, 8.3): congestion control state (cwnd, ssthresh, partial_bytes_acked, flight size),
 * the RTO estimator, the T3-rtx timer, reachability (active or inactive, error counter),
 * path verification (confirmed or not), heartbeat bookkeeping and the local (source)
 * address that packets to this destination leave from.
 */
#ifndef SCTP_PATH_H
#define SCTP_PATH_H

#include "ns3/address.h"
#include "ns3/net-device.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-value.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup sctp
 * \brief Per-destination state of an SCTP association.
 */
class SctpPath : public Object
{
  public:
    /** Reachability of the destination (RFC 9260 section 8.2, RFC 7829 section 3). */
    enum State : uint8_t
    {
        ACTIVE = 0,
        INACTIVE = 1,
        POTENTIALLY_FAILED = 2, //!< RFC 7829: errors above PFMR, not yet above PMR
    };

    /** Trace signature of the State source: old state, new state. */
    typedef void (*StateTracedCallback)(State oldState, State newState);

    static TypeId GetTypeId();
    SctpPath();
    ~SctpPath() override;

    /** Set the peer IP address (Ipv4Address or Ipv6Address converted to Address). */
    void SetAddress(const Address& address);
    const Address& GetAddress() const;
    /** Index of this path in its association's path list. */
    void SetIndex(uint32_t index);
    uint32_t GetIndex() const;

    /** Path MTU in bytes (IP header included) and the IP header size in use. */
    void SetMtu(uint32_t mtu, uint32_t ipHeaderSize);
    uint32_t GetMtu() const;
    /**
     * Path Maximum Data Chunk Size: the largest DATA chunk (header included) that fits
     * in one packet on this path, PMTU - IP header - SCTP common header. The unit of all
     * window arithmetic below (it equals NS-2's "MDS").
     */
    uint32_t GetPmdcs() const;

    uint32_t GetCwnd() const;
    uint32_t GetSsthresh() const;
    uint32_t GetPartialBytesAcked() const;
    uint32_t GetFlightSize() const;
    Time GetRto() const;
    Time GetSrtt() const;
    Time GetRttVar() const;
    uint32_t GetErrorCount() const;
    State GetState() const;

    /** Start of the association: cwnd and ssthresh as section 7.2.1 says (or as configured). */
    void InitializeCongestionControl(uint32_t initialCwnd, uint32_t initialSsthresh);
    /** RTO.Initial before any measurement (section 6.3.1 C1). */
    void InitializeRto(Time rtoInitial);

    /** \name Flight size accounting (bytes of DATA chunks outstanding on this path) */
    //!@{
    void AddFlight(uint32_t bytes);
    void RemoveFlight(uint32_t bytes);
    //!@}

    /**
     * A SACK newly acknowledged \p bytesAcked bytes sent to this destination
     * (sections 7.2.1 and 7.2.2).
     * \param fullyUtilized the flight size was at least cwnd before the SACK
     * \param inFastRecovery the association is in Fast Recovery
     */
    void OnBytesAcked(uint32_t bytesAcked, bool fullyUtilized, bool inFastRecovery);
    /** Fast retransmit on this destination (section 7.2.4): halve cwnd into ssthresh. */
    void OnFastRetransmit();
    /** T3-rtx expired (sections 6.3.3 E1/E2 and 7.2.3). */
    void OnRetransmissionTimeout(Time rtoMax);
    /**
     * Idle destination: cwnd = max(cwnd/2, 4*PMDCS) per RTO without data, ssthresh = cwnd
     * at the first adjustment (section 7.2.1).
     */
    void ApplyIdleDecay(Time now);

    /**
     * New RTT measurement R (section 6.3.1 C2/C3).
     */
    void OnRttSample(Time r, Time rtoMin, Time rtoMax, double alpha, double beta);

    /** \name RTT measurement in progress (one per round trip, Karn's algorithm) */
    //!@{
    bool IsRttPending() const;
    uint32_t GetRttTsn() const;
    void StartRttMeasurement(uint32_t tsn, Time now);
    void CancelRttMeasurement();
    Time GetRttSendTime() const;
    //!@}

    /** \name Error counting (section 8.2) */
    //!@{
    void IncrementErrorCount();
    void ResetErrorCount();
    void SetState(State state);
    /** When the destination last left the ACTIVE state (RFC 7829 section 3: ties among
     * PF destinations go to the most recently active one). */
    Time GetLastActiveTime() const;
    //!@}

    /**
     * \name Path verification (section 5.4): an address learned from INIT or INIT ACK is
     * UNCONFIRMED until a HEARTBEAT with a nonce sent to it is acknowledged.
     */
    //!@{
    bool IsConfirmed() const;
    void SetConfirmed(bool confirmed);
    //!@}

    /**
     * \name Source address (RFC 9260 section 6.4.1: source-destination pairs). Invalid
     * address = the route decides (a single-homed endpoint); otherwise packets to this
     * destination leave from this address through \p device.
     */
    //!@{
    void SetSource(const Address& source, Ptr<NetDevice> device);
    const Address& GetSourceAddress() const;
    Ptr<NetDevice> GetSourceDevice() const;
    //!@}

    /**
     * \name Heartbeat bookkeeping (section 8.3); the association owns the timers' logic.
     */
    //!@{
    EventId& GetHeartbeatTimer();
    EventId& GetHeartbeatResponseTimer();
    bool IsHeartbeatOutstanding() const;
    uint64_t GetHeartbeatNonce() const;
    Time GetHeartbeatSendTime() const;
    void SetHeartbeatOutstanding(bool outstanding, uint64_t nonce, Time sendTime);
    /** Time of the last chunk sent here that could measure the RTT (new DATA, HEARTBEAT). */
    Time GetLastRttEligibleSend() const;
    void SetLastRttEligibleSend(Time t);
    /** Start of the current heartbeat period (the timer is re-armed lazily). */
    Time GetHeartbeatAnchor() const;
    void SetHeartbeatAnchor(Time t);
    /** Back off the RTO without touching the congestion window (unanswered HEARTBEAT). */
    void BackOffRto(Time rtoMax);
    //!@}

    /** \name T3-rtx timer bookkeeping; the association schedules the event lazily */
    //!@{
    bool IsT3Running() const;
    Time GetT3Deadline() const;
    void SetT3(bool running, Time deadline);
    EventId& GetT3Event();
    //!@}

    void SetLastSendTime(Time t);
    Time GetLastSendTime() const;

  protected:
    void DoDispose() override;

  private:
    Address m_address;
    uint32_t m_index{0};
    uint32_t m_mtu{1500};
    uint32_t m_ipHeaderSize{20};

    TracedValue<uint32_t> m_cwnd;
    TracedValue<uint32_t> m_ssthresh;
    uint32_t m_partialBytesAcked{0};
    uint32_t m_flightSize{0};

    TracedValue<Time> m_rto;
    Time m_srtt;
    Time m_rttVar;
    bool m_haveRttMeasurement{false};
    TracedValue<Time> m_lastRtt;

    bool m_rttPending{false};
    uint32_t m_rttTsn{0};
    Time m_rttSendTime;

    uint32_t m_errorCount{0};
    TracedValue<State> m_stateTrace;
    Time m_lastActiveTime;
    bool m_confirmed{true};

    Address m_source;
    Ptr<NetDevice> m_sourceDevice;

    EventId m_hbTimer;
    EventId m_hbResponseTimer;
    bool m_hbOutstanding{false};
    uint64_t m_hbNonce{0};
    Time m_hbSendTime;
    Time m_lastRttEligibleSend;
    Time m_hbAnchor;

    bool m_t3Running{false};
    Time m_t3Deadline;
    EventId m_t3Event;
    Time m_lastSendTime;
    Time m_idleDecayMark; //!< idle decay applied up to this time (if after m_lastSendTime)
};

} // namespace ns3

#endif /* SCTP_PATH_H */
