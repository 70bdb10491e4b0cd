/*
 * Time spent by wifi PHYs in each of their states.
 */
#ifndef WIFI_STATE_TIMES_H
#define WIFI_STATE_TIMES_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/wifi-phy-state.h"

#include <vector>

namespace ns3
{

class WifiPhy;

/**
 * \brief Adds up, per watched PHY, the time spent in each WifiPhyState.
 *
 * Listens to WifiPhyStateHelper's "State" trace, which reports each period
 * (start, duration, state) when it ends. A radio energy model charges
 * power x time per state, so with these times any such model (NS-2's
 * WirelessPhy charging, a MICA2 mote, a swept idle power) is a sum computed
 * afterwards, without simulating again. The period still open when the run
 * stops is not reported by the trace: Finish() closes it, taking the state
 * the PHY is in at that time.
 */
class WifiStateTimes : public Object
{
  public:
    static TypeId GetTypeId();
    WifiStateTimes();
    ~WifiStateTimes() override;

    /** Watch \p phy as entry number GetN() (the order of the calls). \return true if connected */
    bool Watch(Ptr<WifiPhy> phy);
    /** Close every open period at the current time (call once, when the run has stopped). */
    void Finish();
    /** \return number of watched PHYs */
    uint32_t GetN() const;
    /** \return seconds PHY \p index spent in \p state (state as its integer value) */
    double GetSeconds(uint32_t index, uint32_t state) const;

    /** Number of WifiPhyState values counted (IDLE ... OFF). */
    static constexpr uint32_t N_STATES = 7;

  private:
    void Log(uint32_t index, Time start, Time duration, WifiPhyState state);

    std::vector<Ptr<WifiPhy>> m_phys;       //!< watched PHYs
    std::vector<std::vector<Time>> m_times; //!< [phy][state] accumulated time
    std::vector<Time> m_logged;             //!< [phy] end of the last reported period
};

} // namespace ns3

#endif /* WIFI_STATE_TIMES_H */
