/*
 * NS-2.35's Mac802_11 retry rule on ns-3's ConstantRateWifiManager: two retry counts
 * (RTS and DATA failures) with NS-2's limits, instead of ns-3's one count per frame.
 */

#ifndef NS2_CONSTANT_RATE_WIFI_MANAGER_H
#define NS2_CONSTANT_RATE_WIFI_MANAGER_H

#include "ns3/constant-rate-wifi-manager.h"

#include <cstdint>
#include <list>

namespace ns3
{

/**
 * \ingroup wifi
 * \brief ConstantRateWifiManager that gives up a frame as NS-2.35's Mac802_11 does.
 *
 * ns-3.44 keeps one retry count per MPDU, raised by every failed RTS and every missing
 * ACK, and drops the MPDU when it reaches WifiMac::FrameRetryLimit (7). NS-2's MAC keeps
 * two counters per station (mac-802_11.cc): the short retry count ssrc_, raised by each
 * RTS without CTS and reset when a CTS arrives (RetransmitRTS, recvCTS), and the long
 * retry count slrc_, raised by each DATA frame longer than RTSThreshold_ without ACK and
 * reset when an ACK arrives (RetransmitDATA, recvACK). A frame is given up when ssrc_
 * reaches ShortRetryLimit_ (7; then ssrc_ is reset, slrc_ is not) or slrc_ reaches
 * LongRetryLimit_ (4; then slrc_ is reset): after a CTS, the DATA frame gets up to four
 * attempts, each one behind up to seven RTS. This manager keeps those two counters and
 * takes the drop decision with them (DoGetMpdusToDropOnTxFailure, the hook through
 * which Minstrel decides as well); ns-3's own MPDU retry count still runs (the Retry
 * flag) but no longer drops. As in the sensor study, every unicast frame must be
 * protected by RTS/CTS (RtsCtsThreshold 0, NS-2's RTSThreshold_ 0): a DATA failure then
 * always counts as a long frame's.
 */
class Ns2ConstantRateWifiManager : public ConstantRateWifiManager
{
  public:
    static TypeId GetTypeId();

    Ns2ConstantRateWifiManager();
    ~Ns2ConstantRateWifiManager() override;

    /** Frames given up because ssrc reached ShortRetryLimit. */
    uint64_t GetShortRetryDrops() const;
    /** Frames given up because slrc reached LongRetryLimit. */
    uint64_t GetLongRetryDrops() const;

  private:
    void DoReportRtsFailed(WifiRemoteStation* station) override;
    void DoReportDataFailed(WifiRemoteStation* station) override;
    void DoReportRtsOk(WifiRemoteStation* station,
                       double ctsSnr,
                       WifiMode ctsMode,
                       double rtsSnr) override;
    void DoReportDataOk(WifiRemoteStation* station,
                        double ackSnr,
                        WifiMode ackMode,
                        double dataSnr,
                        MHz_u dataChannelWidth,
                        uint8_t dataNss) override;
    void DoIncrementRetryCountOnTxFailure(WifiRemoteStation* station,
                                          Ptr<WifiPsdu> psdu) override;
    std::list<Ptr<WifiMpdu>> DoGetMpdusToDropOnTxFailure(WifiRemoteStation* station,
                                                         Ptr<WifiPsdu> psdu) override;

    uint32_t m_shortRetryLimit; //!< attribute ShortRetryLimit (NS-2's ShortRetryLimit_)
    uint32_t m_longRetryLimit;  //!< attribute LongRetryLimit (NS-2's LongRetryLimit_)
    uint32_t m_ssrc;            //!< NS-2's ssrc_: RTS failures since the last CTS
    uint32_t m_slrc;            //!< NS-2's slrc_: DATA failures since the last ACK
    bool m_lastFailureRts;      //!< whether the failure being handled is an RTS's
    uint64_t m_shortDrops;      //!< frames given up by ssrc
    uint64_t m_longDrops;       //!< frames given up by slrc
};

} // namespace ns3

#endif // NS2_CONSTANT_RATE_WIFI_MANAGER_H
