#include "sensitivity-filtered-yans-wifi-phy-helper.h"

namespace ns3
{

SensitivityFilteredYansWifiPhyHelper::SensitivityFilteredYansWifiPhyHelper()
{
    // YansWifiPhyHelper::Create makes its PHY with this factory (as a YansWifiPhy, which
    // the subclass is); attributes set on the helper apply to the subclass alike.
    for (auto& factory : m_phys)
    {
        factory.SetTypeId("ns3::SensitivityFilteredYansWifiPhy");
    }
}

} // namespace ns3
