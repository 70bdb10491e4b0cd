#include "horizon-wifi-radio-energy-model-helper.h"

#include "ns3/abort.h"
#include "ns3/horizon-wifi-radio-energy-model.h"
#include "ns3/wifi-net-device.h"
#include "ns3/wifi-phy.h"

namespace ns3
{

HorizonWifiRadioEnergyModelHelper::HorizonWifiRadioEnergyModelHelper()
{
    m_radioEnergy.SetTypeId("ns3::HorizonWifiRadioEnergyModel");
}

HorizonWifiRadioEnergyModelHelper::~HorizonWifiRadioEnergyModelHelper()
{
}

void
HorizonWifiRadioEnergyModelHelper::Set(std::string name, const AttributeValue& v)
{
    m_radioEnergy.Set(name, v);
}

Ptr<energy::DeviceEnergyModel>
HorizonWifiRadioEnergyModelHelper::DoInstall(Ptr<NetDevice> device,
                                             Ptr<energy::EnergySource> source) const
{
    NS_ABORT_MSG_UNLESS(device && source, "a device and an energy source are needed");
    auto wifiDevice = DynamicCast<WifiNetDevice>(device);
    NS_ABORT_MSG_UNLESS(wifiDevice, "NetDevice type is not WifiNetDevice");
    auto model = m_radioEnergy.Create<HorizonWifiRadioEnergyModel>();
    // The order of WifiRadioEnergyModelHelper::DoInstall (ns-3.44): it decides the order
    // of the events the model schedules while it is set up.
    Ptr<WifiPhy> wifiPhy = wifiDevice->GetPhy();
    wifiPhy->SetWifiRadioEnergyModel(model);
    model->SetEnergyDepletionCallback(MakeCallback(&WifiPhy::SetOffMode, wifiPhy));
    model->SetEnergyRechargedCallback(MakeCallback(&WifiPhy::ResumeFromOff, wifiPhy));
    source->AppendDeviceEnergyModel(model);
    model->SetEnergySource(source);
    wifiPhy->RegisterListener(model->GetPhyListener());
    return model;
}

} // namespace ns3
