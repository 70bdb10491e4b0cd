/*
 * Congestion control of an SCTP association, replaceable as ns-3's TCP congestion
 * control is (TcpCongestionOps): SctpL4Protocol's `CongestionOps` attribute names the
 * TypeId every association of the node gets (a fork of it), and
 * SctpSocket::SetCongestionOps sets another one on one socket.
 *
 * An SctpCongestionOps keeps no per-destination state: it acts on the congestion
 * variables of the SctpPath it is given (cwnd, ssthresh, partial_bytes_acked, flight
 * size), the way TcpCongestionOps acts on TcpSocketState. The association calls it at
 * the events of RFC 9260 section 7.2; everything else (which chunks are lost, when fast
 * recovery starts and ends, the RTO) stays with the sender.
 */
#ifndef SCTP_CONGESTION_OPS_H
#define SCTP_CONGESTION_OPS_H

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>

namespace ns3
{

class SctpPath;

/**
 * \ingroup sctp
 * \brief The congestion control algorithm of an SCTP association (abstract).
 */
class SctpCongestionOps : public Object
{
  public:
    static TypeId GetTypeId();
    ~SctpCongestionOps() override;

    /** \return the name of the algorithm, e.g. "SctpRfc9260CongestionOps". */
    virtual std::string GetName() const = 0;

    /**
     * The cwnd a destination starts with (section 7.2.1), unless the socket's
     * `InitialCwnd` attribute sets one.
     */
    virtual uint32_t GetInitialCwnd(const SctpPath& path) const = 0;
    /**
     * The ssthresh a destination starts with, given the peer's a_rwnd (section 7.2.1),
     * unless the socket's `InitialSsthresh` attribute sets one.
     */
    virtual uint32_t GetInitialSsthresh(const SctpPath& path, uint32_t peerRwnd) const = 0;

    /**
     * A SACK newly acknowledged \p bytesAcked bytes of DATA credited to \p path
     * (sections 7.2.1 and 7.2.2).
     * \param fullyUtilized the flight size of the destination was at least its cwnd (less
     *        one PMDCS) before the SACK
     * \param inFastRecovery the association was in Fast Recovery when the SACK arrived
     */
    virtual void BytesAcked(SctpPath& path,
                            uint32_t bytesAcked,
                            bool fullyUtilized,
                            bool inFastRecovery) = 0;
    /** A fast retransmit on \p path starts Fast Recovery (sections 7.2.3, 7.2.4). */
    virtual void FastRetransmit(SctpPath& path) = 0;
    /** The T3-rtx timer of \p path (or T2-shutdown) expired (section 7.2.3). */
    virtual void RetransmissionTimeout(SctpPath& path) = 0;
    /**
     * New data is about to go to \p path, which has nothing in flight: the window decay
     * of an idle destination (section 7.2.1), up to \p now.
     */
    virtual void Idle(SctpPath& path, Time now) = 0;

    /** A copy for a new association (a listening socket's accepted ones). */
    virtual Ptr<SctpCongestionOps> Fork() const = 0;
};

/**
 * \ingroup sctp
 * \brief RFC 9260 section 7.2: slow start, congestion avoidance with
 *        partial_bytes_acked, the reductions after a fast retransmit and a timeout, and
 *        the decay of an idle destination's window. The model's default.
 */
class SctpRfc9260CongestionOps : public SctpCongestionOps
{
  public:
    static TypeId GetTypeId();
    SctpRfc9260CongestionOps();
    ~SctpRfc9260CongestionOps() override;

    std::string GetName() const override;
    uint32_t GetInitialCwnd(const SctpPath& path) const override;
    uint32_t GetInitialSsthresh(const SctpPath& path, uint32_t peerRwnd) const override;
    void BytesAcked(SctpPath& path,
                    uint32_t bytesAcked,
                    bool fullyUtilized,
                    bool inFastRecovery) override;
    void FastRetransmit(SctpPath& path) override;
    void RetransmissionTimeout(SctpPath& path) override;
    void Idle(SctpPath& path, Time now) override;
    Ptr<SctpCongestionOps> Fork() const override;
};

} // namespace ns3

#endif /* SCTP_CONGESTION_OPS_H */
