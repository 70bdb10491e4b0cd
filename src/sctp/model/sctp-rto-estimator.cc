#include "sctp-rto-estimator.h"

#include <algorithm>

namespace ns3
{

void
SctpRtoEstimator::Reset()
{
    m_haveMeasurement = false;
}

Time
SctpRtoEstimator::Update(Time r, Time rtoMin, Time rtoMax, double alpha, double beta)
{
    if (!m_haveMeasurement)
    {
        // C2: first measurement.
        m_srtt = r;
        m_rttVar = r / 2;
        m_haveMeasurement = true;
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
    return rto;
}

Time
SctpRtoEstimator::BackOff(Time rto, Time rtoMax)
{
    return std::min(rto * 2, rtoMax);
}

bool
SctpRtoEstimator::HasMeasurement() const
{
    return m_haveMeasurement;
}

Time
SctpRtoEstimator::GetSrtt() const
{
    return m_srtt;
}

Time
SctpRtoEstimator::GetRttVar() const
{
    return m_rttVar;
}

} // namespace ns3
