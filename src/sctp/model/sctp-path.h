/*
 * One destination transport address of an association (RFC 9260 sections 5.4, 6.3, 7,
 * 8.2, 8.3): its congestion variables (cwnd, ssthresh, partial_bytes_acked, flight size;
 * the association's SctpCongestionOps changes them), its RTO (SctpRtoEstimator), its
 * timers (T3-rtx, HEARTBEAT and HEARTBEAT response, each calling back into the
 * association with the path index), reachability (active, potentially failed, inactive;
 * error counter), path verification (confirmed or not), heartbeat bookkeeping and the
 * local (source) address that packets to this destination leave from.
 */
#ifndef SCTP_PATH_H
#define SCTP_PATH_H

#include "sctp-rto-estimator.h"

#include "ns3/address.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/net-device.h"
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

    /**
     * \name Congestion variables (section 7.2). SctpCongestionOps changes them; the flight
     * size is the sender's accounting.
     */
    //!@{
    uint32_t GetCwnd() const;
    void SetCwnd(uint32_t cwnd);
    uint32_t GetSsthresh() const;
    void SetSsthresh(uint32_t ssthresh);
    uint32_t GetPartialBytesAcked() const;
    void SetPartialBytesAcked(uint32_t bytes);
    uint32_t GetFlightSize() const;
    /** Start of the association: cwnd and ssthresh (section 7.2.1, or as configured). */
    void InitializeCongestionControl(uint32_t initialCwnd, uint32_t initialSsthresh);
    void AddFlight(uint32_t bytes);
    /** Section 7.2.2: partial_bytes_acked is reset when the flight size reaches 0. */
    void RemoveFlight(uint32_t bytes);
    /** Time up to which an idle destination's cwnd decay was applied (7.2.1). */
    Time GetIdleDecayMark() const;
    void SetIdleDecayMark(Time t);
    //!@}

    /** \name Retransmission timeout (section 6.3.1) */
    //!@{
    Time GetRto() const;
    Time GetSrtt() const;
    Time GetRttVar() const;
    /** RTO.Initial before any measurement (section 6.3.1 C1). */
    void InitializeRto(Time rtoInitial);
    /** New RTT measurement R (section 6.3.1 C2/C3, C6, C7); also the `RTT` trace. */
    void OnRttSample(Time r, Time rtoMin, Time rtoMax, double alpha, double beta);
    /** Double the RTO, at most \p rtoMax (section 6.3.3 E2, unanswered HEARTBEAT 8.3). */
    void BackOffRto(Time rtoMax);
    //!@}

    uint32_t GetErrorCount() const;
    State GetState() const;

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
     * \name Timers. The path schedules its own events and calls back the association
     * with its index when one is due; the association decides what happens then.
     */
    //!@{
    /** T3-rtx expired: \p callback(index) (sections 6.3.2, 6.3.3). */
    void SetT3ExpiredCallback(Callback<void, uint32_t> callback);
    /** The HEARTBEAT timer (8.3, 5.4) and the HEARTBEAT response timer (one RTO). */
    void SetHeartbeatCallbacks(Callback<void, uint32_t> heartbeat,
                               Callback<void, uint32_t> response);
    /**
     * Start T3-rtx with the current RTO (rule R1) unless it runs; with \p restart
     * restart it (R3, 7.2.4 step 4). Moving the deadline of a running timer creates no
     * event: the event fires at the old time and re-arms itself (lazy rescheduling).
     */
    void StartT3(bool restart);
    /** Stop T3-rtx (R2): the pending event, if any, finds it stopped. */
    void StopT3();
    bool IsT3Running() const;
    Time GetT3Deadline() const;
    /** The HEARTBEAT timer fires after \p delay (a pending one is cancelled). */
    void ScheduleHeartbeat(Time delay);
    void CancelHeartbeat();
    /** The response timer of the HEARTBEAT just sent fires after \p delay. */
    void ScheduleHeartbeatResponse(Time delay);
    void CancelHeartbeatResponse();
    /** Cancel every event of this path and stop T3-rtx (association gone, paths replaced). */
    void CancelTimers();
    //!@}

    /** \name Heartbeat bookkeeping (section 8.3) */
    //!@{
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
    //!@}

    void SetLastSendTime(Time t);
    Time GetLastSendTime() const;

  protected:
    void DoDispose() override;

  private:
    void T3Event();
    void HeartbeatEvent();
    void HeartbeatResponseEvent();

    Address m_address;
    uint32_t m_index{0};
    uint32_t m_mtu{1500};
    uint32_t m_ipHeaderSize{20};

    TracedValue<uint32_t> m_cwnd;
    TracedValue<uint32_t> m_ssthresh;
    uint32_t m_partialBytesAcked{0};
    uint32_t m_flightSize{0};
    Time m_lastSendTime;
    Time m_idleDecayMark; //!< idle decay applied up to this time (if after m_lastSendTime)

    TracedValue<Time> m_rto;
    SctpRtoEstimator m_rtoEstimator;
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
    Callback<void, uint32_t> m_heartbeatCallback;
    Callback<void, uint32_t> m_heartbeatResponseCallback;
    bool m_hbOutstanding{false};
    uint64_t m_hbNonce{0};
    Time m_hbSendTime;
    Time m_lastRttEligibleSend;
    Time m_hbAnchor;

    bool m_t3Running{false};
    Time m_t3Deadline;
    EventId m_t3Event;
    Callback<void, uint32_t> m_t3ExpiredCallback;
};

} // namespace ns3

#endif /* SCTP_PATH_H */
