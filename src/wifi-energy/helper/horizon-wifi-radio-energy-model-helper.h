/*
 * Installs HorizonWifiRadioEnergyModel on wifi devices, wired exactly as
 * WifiRadioEnergyModelHelper wires a WifiRadioEnergyModel (whose factory is private).
 */
#ifndef HORIZON_WIFI_RADIO_ENERGY_MODEL_HELPER_H
#define HORIZON_WIFI_RADIO_ENERGY_MODEL_HELPER_H

#include "ns3/energy-model-helper.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

/**
 * \ingroup energy
 * \brief Like WifiRadioEnergyModelHelper, for HorizonWifiRadioEnergyModel.
 *
 * Same steps in the same order (the PHY's energy model, depletion callback
 * WifiPhy::SetOffMode, recharged callback WifiPhy::ResumeFromOff, the source's model
 * list, the energy source, the PHY listener). Set() takes the attributes of
 * WifiRadioEnergyModel and Horizon. No TX current model (the Horizon bound needs a
 * fixed TX current).
 */
class HorizonWifiRadioEnergyModelHelper : public DeviceEnergyModelHelper
{
  public:
    HorizonWifiRadioEnergyModelHelper();
    ~HorizonWifiRadioEnergyModelHelper() override;

    void Set(std::string name, const AttributeValue& v) override;

  private:
    Ptr<energy::DeviceEnergyModel> DoInstall(Ptr<NetDevice> device,
                                             Ptr<energy::EnergySource> source) const override;

    ObjectFactory m_radioEnergy; //!< creates the models
};

} // namespace ns3

#endif // HORIZON_WIFI_RADIO_ENERGY_MODEL_HELPER_H
