#include "horizon-wifi-radio-energy-model.h"

#include "ns3/basic-energy-source.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/wifi-tx-current-model.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HorizonWifiRadioEnergyModel");
NS_OBJECT_ENSURE_REGISTERED(HorizonWifiRadioEnergyModel);

TypeId
HorizonWifiRadioEnergyModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HorizonWifiRadioEnergyModel")
            .SetParent<WifiRadioEnergyModel>()
            .SetGroupName("Energy")
            .AddConstructor<HorizonWifiRadioEnergyModel>()
            .AddAttribute("Horizon",
                          "The time the simulation stops. While the battery provably cannot "
                          "run out before it, the 'battery empty' event is not rescheduled "
                          "when the energy source changes (it could never run). Zero: behave "
                          "exactly like WifiRadioEnergyModel.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&HorizonWifiRadioEnergyModel::m_horizon),
                          MakeTimeChecker(Time(0)));
    return tid;
}

HorizonWifiRadioEnergyModel::HorizonWifiRadioEnergyModel()
    : m_horizon(0),
      m_depletionSeen(false),
      m_energySource(nullptr),
      m_bound(Bound::UNKNOWN),
      m_skipped(0),
      m_deferred(0)
{
    NS_LOG_FUNCTION(this);
}

HorizonWifiRadioEnergyModel::~HorizonWifiRadioEnergyModel()
{
    NS_LOG_FUNCTION(this);
}

void
HorizonWifiRadioEnergyModel::SetEnergySource(const Ptr<energy::EnergySource> source)
{
    NS_LOG_FUNCTION(this << source);
    m_energySource = PeekPointer(source);
    m_bound = Bound::UNKNOWN;
    WifiRadioEnergyModel::SetEnergySource(source);
}

uint64_t
HorizonWifiRadioEnergyModel::GetSkippedReschedules() const
{
    return m_skipped;
}

uint64_t
HorizonWifiRadioEnergyModel::GetDeferredReschedules() const
{
    return m_deferred;
}

bool
HorizonWifiRadioEnergyModel::CannotRunOutBeforeHorizon()
{
    if (m_depletionSeen)
    {
        return false;
    }
    if (m_bound == Bound::UNKNOWN)
    {
        m_bound = ComputeBound() ? Bound::HOLDS : Bound::FAILS;
    }
    return m_bound == Bound::HOLDS;
}

bool
HorizonWifiRadioEnergyModel::ComputeBound()
{
    NS_LOG_FUNCTION(this);
    if (m_horizon.IsZero() || !m_energySource)
    {
        return false;
    }
    PointerValue txCurrentModel;
    GetAttribute("TxCurrentModel", txCurrentModel);
    if (txCurrentModel.Get<WifiTxCurrentModel>())
    {
        return false; // the TX current follows the TX power: no fixed maximum
    }
    // The depletion rule the bound relies on is BasicEnergySource's.
    auto basic = dynamic_cast<energy::BasicEnergySource*>(m_energySource);
    if (!basic)
    {
        return false;
    }
    DoubleValue lowBatteryThreshold;
    basic->GetAttribute("BasicEnergyLowBatteryThreshold", lowBatteryThreshold);
    const double maxCurrent = std::max({GetIdleCurrentA(),
                                        GetCcaBusyCurrentA(),
                                        GetTxCurrentA(),
                                        GetRxCurrentA(),
                                        GetSwitchingCurrentA(),
                                        GetSleepCurrentA()});
    const double power = maxCurrent * basic->GetSupplyVoltage();
    if (!(power > 0.0))
    {
        return false;
    }
    // Earliest moment a "battery empty" event scheduled before depletion can be due.
    const double earliestEmptyS = lowBatteryThreshold.Get() * basic->GetInitialEnergy() / power;
    NS_LOG_DEBUG("battery empty at the earliest after " << earliestEmptyS << " s, horizon "
                                                         << m_horizon.As(Time::S));
    return earliestEmptyS > 2.0 * m_horizon.GetSeconds();
}

void
HorizonWifiRadioEnergyModel::HandleEnergyChanged()
{
    NS_LOG_FUNCTION(this);
    if (CannotRunOutBeforeHorizon())
    {
        ++m_skipped;
        return;
    }
    ++m_deferred;
    WifiRadioEnergyModel::HandleEnergyChanged();
}

void
HorizonWifiRadioEnergyModel::HandleEnergyDepletion()
{
    NS_LOG_FUNCTION(this);
    // From now on the bound no longer holds: behave like the parent for the rest of the run.
    m_depletionSeen = true;
    WifiRadioEnergyModel::HandleEnergyDepletion();
}

} // namespace ns3
