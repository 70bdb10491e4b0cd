/*
 * The retransmission timeout of one destination (RFC 9260 section 6.3.1): SRTT and
 * RTTVAR from the RTT measurements, RTO = SRTT + 4 * RTTVAR bounded by RTO.Min and
 * RTO.Max, and the doubling of section 6.3.3 E2.
 */
#ifndef SCTP_RTO_ESTIMATOR_H
#define SCTP_RTO_ESTIMATOR_H

#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup sctp
 * \brief SRTT / RTTVAR / RTO of one destination (RFC 9260 section 6.3.1).
 *
 * A value class: SctpPath holds one and keeps the RTO it computes in its traced `RTO`.
 */
class SctpRtoEstimator
{
  public:
    /** C1: forget every measurement (the RTO is RTO.Initial until the next one). */
    void Reset();

    /**
     * A new RTT measurement \p r: C2 (the first) or C3 (RTTVAR first, with the old SRTT),
     * a zero RTTVAR replaced by the clock granularity, then C6 and C7.
     * \return the new RTO.
     */
    Time Update(Time r, Time rtoMin, Time rtoMax, double alpha, double beta);

    /** Section 6.3.3 E2 (and 8.3): \p rto doubled, at most \p rtoMax. */
    static Time BackOff(Time rto, Time rtoMax);

    bool HasMeasurement() const;
    Time GetSrtt() const;
    Time GetRttVar() const;

  private:
    Time m_srtt;
    Time m_rttVar;
    bool m_haveMeasurement{false};
};

} // namespace ns3

#endif /* SCTP_RTO_ESTIMATOR_H */
