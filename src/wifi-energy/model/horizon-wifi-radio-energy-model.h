/*
 * A WifiRadioEnergyModel that does not reschedule "battery empty" events that cannot
 * happen before the end of the run.
 *
 * WifiRadioEnergyModel keeps one event pending: the moment its battery would be empty
 * in the current PHY state (remaining energy / (current x voltage)). It reschedules it
 * whenever the energy source reports a change (HandleEnergyChanged), and the source
 * reports one at every PHY state change, every periodic update and every energy check
 * before a transmission. In the 56-node 802.11 sensor field of wsn_reporting_interval
 * that cascade (a nested source update, a cancel, a new event that can never run) is 7 %
 * of a run's CPU samples (perf, UDP at a 1-s interval).
 *
 * HorizonWifiRadioEnergyModel skips the rescheduling while the battery provably
 * cannot run out before Horizon (the time the run stops), and behaves exactly like its
 * parent otherwise. The proof: a BasicEnergySource declares itself depleted (and calls
 * HandleEnergyDepletion) as soon as its remaining energy falls to LowBatteryThreshold x
 * initial energy. Until then every "battery empty" event, pending or new, lies at
 * t + remaining / (I x V) > LowBatteryThreshold x initial / (Imax x V) with Imax this
 * model's largest state current. When that bound exceeds the horizon (with a factor-2
 * margin for rounding) no such event can run before the end, so whether it is
 * rescheduled changes nothing; the events that do run keep their relative order, and the
 * energy arithmetic (ChangeState, the source's updates) is the parent's, call for call,
 * so results are bit-identical. After a depletion, with another energy source type, a
 * TX current model (variable TX current) or Horizon = 0 it defers to the parent.
 *
 * Assumption (true for ns-3's BasicEnergySource without harvesters): the remaining
 * energy never increases while not depleted. A source with an energy harvester must not
 * use a Horizon.
 */
#ifndef HORIZON_WIFI_RADIO_ENERGY_MODEL_H
#define HORIZON_WIFI_RADIO_ENERGY_MODEL_H

#include "ns3/nstime.h"
#include "ns3/wifi-radio-energy-model.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup energy
 * \brief WifiRadioEnergyModel without the rescheduling of "battery empty" events that
 * cannot run before Horizon.
 *
 * Install with HorizonWifiRadioEnergyModelHelper.
 */
class HorizonWifiRadioEnergyModel : public WifiRadioEnergyModel
{
  public:
    static TypeId GetTypeId();

    HorizonWifiRadioEnergyModel();
    ~HorizonWifiRadioEnergyModel() override;

    void SetEnergySource(const Ptr<energy::EnergySource> source) override;
    void HandleEnergyChanged() override;
    void HandleEnergyDepletion() override;

    /** Times HandleEnergyChanged skipped the rescheduling. */
    uint64_t GetSkippedReschedules() const;
    /** Times HandleEnergyChanged deferred to WifiRadioEnergyModel. */
    uint64_t GetDeferredReschedules() const;

    /**
     * Whether the battery cannot run out before Horizon (see the file comment): false
     * after a depletion; otherwise decided once, at the first call after SetEnergySource,
     * from the attributes then in force (Horizon, currents, the source's initial energy,
     * voltage and LowBatteryThreshold).
     */
    bool CannotRunOutBeforeHorizon();

  private:
    /** The bound of the file comment, from the attributes; false if it does not apply. */
    bool ComputeBound();

    /** Whether the bound has been computed, and its result. */
    enum class Bound
    {
        UNKNOWN,
        HOLDS,
        FAILS
    };

    Time m_horizon;                      //!< attribute Horizon
    //! The source (the parent's pointer is private). Not owned: the parent holds it, and
    //! only the source itself calls HandleEnergyChanged.
    energy::EnergySource* m_energySource;
    bool m_depletionSeen;                //!< HandleEnergyDepletion was called
    Bound m_bound;                       //!< the bound, computed at first use
    uint64_t m_skipped;                  //!< reschedules skipped
    uint64_t m_deferred;                 //!< reschedules left to the parent
};

} // namespace ns3

#endif // HORIZON_WIFI_RADIO_ENERGY_MODEL_H
