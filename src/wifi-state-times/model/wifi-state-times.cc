#include "wifi-state-times.h"

#include "ns3/callback.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/wifi-phy-state-helper.h"
#include "ns3/wifi-phy.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WifiStateTimes");
NS_OBJECT_ENSURE_REGISTERED(WifiStateTimes);

TypeId
WifiStateTimes::GetTypeId()
{
    static TypeId tid = TypeId("ns3::WifiStateTimes")
                            .SetParent<Object>()
                            .SetGroupName("Wifi")
                            .AddConstructor<WifiStateTimes>();
    return tid;
}

WifiStateTimes::WifiStateTimes()
{
    NS_LOG_FUNCTION(this);
}

WifiStateTimes::~WifiStateTimes()
{
    NS_LOG_FUNCTION(this);
}

bool
WifiStateTimes::Watch(Ptr<WifiPhy> phy)
{
    NS_LOG_FUNCTION(this << phy);
    uint32_t index = m_phys.size();
    m_phys.push_back(phy);
    m_times.emplace_back(N_STATES, Time(0));
    m_logged.push_back(Simulator::Now());
    Callback<void, Time, Time, WifiPhyState> cb(
        [this, index](Time start, Time duration, WifiPhyState state) {
            Log(index, start, duration, state);
        });
    return phy->GetState()->TraceConnectWithoutContext("State", cb);
}

void
WifiStateTimes::Log(uint32_t index, Time start, Time duration, WifiPhyState state)
{
    auto s = static_cast<uint32_t>(state);
    NS_ASSERT(s < N_STATES);
    m_times[index][s] += duration;
    m_logged[index] = std::max(m_logged[index], start + duration);
}

void
WifiStateTimes::Finish()
{
    NS_LOG_FUNCTION(this);
    Time now = Simulator::Now();
    for (uint32_t i = 0; i < m_phys.size(); ++i)
    {
        if (now > m_logged[i])
        {
            // The trace reports a period when it ends; the current one is still open.
            auto s = static_cast<uint32_t>(m_phys[i]->GetState()->GetState());
            m_times[i][std::min(s, N_STATES - 1)] += now - m_logged[i];
            m_logged[i] = now;
        }
    }
}

uint32_t
WifiStateTimes::GetN() const
{
    return m_phys.size();
}

double
WifiStateTimes::GetSeconds(uint32_t index, uint32_t state) const
{
    NS_ASSERT(index < m_phys.size() && state < N_STATES);
    return m_times[index][state].GetSeconds();
}

} // namespace ns3
