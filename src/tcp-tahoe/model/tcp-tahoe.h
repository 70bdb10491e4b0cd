/*
 * NS-2's default TCP sender, Agent/TCP ("Tahoe"), as an ns-3 congestion control
 * (TcpTahoe) and loss recovery (TcpTahoeRecovery) pair.
 */
#ifndef TCP_TAHOE_H
#define TCP_TAHOE_H

#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-recovery-ops.h"

namespace ns3
{

/**
 * \brief The window rules of NS-2's Agent/TCP (tcp.cc, ns-2.35).
 *
 * - Growth per ACK, whatever it acknowledges (NS-2's opencwnd()): one segment
 *   in slow start (cwnd < ssthresh), segment^2 / cwnd in congestion avoidance
 *   (windowOption_ 1, increase_num_ 1). ns-3's NewReno instead grows by the
 *   number of segments an ACK covers, which differs after a cumulative ACK.
 * - On a loss (three duplicate ACKs or a timeout) ssthresh is half the window
 *   in whole segments, at least two (slowdown(CLOSE_SSTHRESH_HALF):
 *   ssthresh_ = int(window() / 2), window() = min(cwnd_, wnd_)). The socket
 *   state does not hold the peer's window, so window() is taken as
 *   min(cwnd, data outstanding), which are equal for a sender limited by its
 *   window (a bulk transfer).
 *
 * Use it with TcpTahoeRecovery, which restarts from one segment after a fast
 * retransmit (Tahoe has no fast recovery).
 */
class TcpTahoe : public TcpCongestionOps
{
  public:
    static TypeId GetTypeId();
    TcpTahoe();
    TcpTahoe(const TcpTahoe& other);
    ~TcpTahoe() override;

    std::string GetName() const override;
    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override;
    void IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked) override;
    Ptr<TcpCongestionOps> Fork() override;
};

/**
 * \brief Tahoe's answer to three duplicate ACKs: retransmit, then slow start from one segment.
 *
 * NS-2's Agent/TCP (dupack_action, "tahoe_action") sets cwnd to 1 and ssthresh
 * to half the window, retransmits the first unacknowledged packet and resumes
 * sending from there (go-back-N) as the window grows by one per new ACK; it
 * neither inflates the window on further duplicate ACKs nor sends new data
 * until the retransmission is acknowledged.
 *
 * As an ns-3 recovery algorithm: on entering recovery the window becomes one
 * segment (the socket then retransmits the head); duplicate ACKs change
 * nothing; each ACK that advances during recovery adds one segment (slow
 * start); at the end of recovery the window keeps the value it reached
 * instead of ssthresh. What ns-3's socket still does its own way: after a
 * partial ACK it retransmits only the next missing segment (NewReno, RFC 6582)
 * where Tahoe goes back N and may resend segments the receiver already holds,
 * so with several losses in one window Tahoe sends more duplicates.
 */
class TcpTahoeRecovery : public TcpRecoveryOps
{
  public:
    static TypeId GetTypeId();
    TcpTahoeRecovery();
    TcpTahoeRecovery(const TcpTahoeRecovery& other);
    ~TcpTahoeRecovery() override;

    std::string GetName() const override;
    void EnterRecovery(Ptr<TcpSocketState> tcb,
                       uint32_t dupAckCount,
                       uint32_t unAckDataCount,
                       uint32_t deliveredBytes) override;
    void DoRecovery(Ptr<TcpSocketState> tcb, uint32_t deliveredBytes, bool isDupAck) override;
    void ExitRecovery(Ptr<TcpSocketState> tcb) override;
    Ptr<TcpRecoveryOps> Fork() override;

  private:
    void SetWindow(Ptr<TcpSocketState> tcb, uint32_t bytes);

    /** The window during recovery: the socket overwrites cwnd with ssthresh before
     * ExitRecovery, which puts this value back. */
    uint32_t m_cWnd;
};

} // namespace ns3

#endif // TCP_TAHOE_H
