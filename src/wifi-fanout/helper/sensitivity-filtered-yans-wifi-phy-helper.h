/*
 * A YansWifiPhyHelper that installs SensitivityFilteredYansWifiPhy.
 */
#ifndef SENSITIVITY_FILTERED_YANS_WIFI_PHY_HELPER_H
#define SENSITIVITY_FILTERED_YANS_WIFI_PHY_HELPER_H

#include "ns3/yans-wifi-helper.h"

namespace ns3
{

/**
 * \brief Creates SensitivityFilteredYansWifiPhy objects instead of YansWifiPhy ones.
 *
 * Used exactly like YansWifiPhyHelper (SetChannel, Set, SetErrorRateModel,
 * SetPreambleDetectionModel, pcap...): it is one, with the PHY's type changed.
 */
class SensitivityFilteredYansWifiPhyHelper : public YansWifiPhyHelper
{
  public:
    SensitivityFilteredYansWifiPhyHelper();
};

} // namespace ns3

#endif // SENSITIVITY_FILTERED_YANS_WIFI_PHY_HELPER_H
