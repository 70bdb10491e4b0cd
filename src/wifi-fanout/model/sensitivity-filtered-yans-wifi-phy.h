/*
 * A YansWifiPhy whose transmissions reach only the receivers that can sense them.
 *
 * ns-3's YansWifiChannel::Send schedules one arrival event (YansWifiChannel::Receive)
 * for every other PHY on the channel, whatever the distance. On arrival, Receive fires
 * the receiver's SignalArrival trace and then discards the signal if its power plus the
 * receiver's RxGain is below RxSensitivity + 10 log10(width / 20 MHz): such a signal is
 * never added to the interference helper and has no other effect. In a large network
 * many arrival events are of that kind (in the 56-node sensor field of seed 003, a frame
 * is below the sensitivity at about a third of the 55 other nodes).
 *
 * SensitivityFilteredYansWifiPhy makes that comparison at send time, with the same
 * operands and the same expression, and schedules no arrival event for the signals the
 * channel would discard. Everything else is done as YansWifiChannel does it, in the same
 * order: the loss and delay models are asked for every other PHY on the channel (so a
 * random loss model draws the same numbers), arrivals are scheduled in the channel's PHY
 * order with the receiver's node as context, and the arrival runs the stock code
 * (SignalArrival trace, threshold, StartReceivePreamble). Events that remain keep their
 * relative order, so a simulation gives the same results with fewer events.
 *
 * Conditions (all hold for the usual static scenarios): the receiver's RxGain,
 * RxSensitivity and channel do not change while a signal propagates (nanoseconds to
 * microseconds), and nothing needs the SignalArrival trace for signals below the
 * sensitivity (it is not fired for them). The attribute FilterBelowSensitivity = false
 * restores the stock YansWifiPhy behaviour.
 */
#ifndef SENSITIVITY_FILTERED_YANS_WIFI_PHY_H
#define SENSITIVITY_FILTERED_YANS_WIFI_PHY_H

#include "ns3/error-model.h"
#include "ns3/interference-helper.h"
#include "ns3/traced-callback.h"
#include "ns3/yans-wifi-phy.h"

#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

class YansWifiChannel;
class PropagationLossModel;
class PropagationDelayModel;

/**
 * \ingroup wifi
 * \brief Post-reception error model of SensitivityFilteredYansWifiPhy's Ns2Capture: corrupts
 * the frame whose reception NS-2's rules have lost, by a collision or because it is below
 * Ns2RxThreshold (the PHY answers the query).
 */
class Ns2CollisionErrorModel : public ErrorModel
{
  public:
    static TypeId GetTypeId();

    /** \param query returns true while the frame being received is a lost one (it is asked
     *  once per frame that ns-3's own model would have received) */
    void SetCollisionQuery(Callback<bool> query);

  private:
    bool DoCorrupt(Ptr<Packet> packet) override;
    void DoReset() override;

    Callback<bool> m_query; //!< asks the PHY
};

/**
 * \ingroup wifi
 * \brief YansWifiPhy that schedules no arrival event for signals below the receiver's
 * sensitivity.
 *
 * Install it with SensitivityFilteredYansWifiPhyHelper (a YansWifiPhyHelper that
 * creates this class); every PHY on the channel may be of either class.
 */
class SensitivityFilteredYansWifiPhy : public YansWifiPhy
{
  public:
    static TypeId GetTypeId();

    SensitivityFilteredYansWifiPhy();
    ~SensitivityFilteredYansWifiPhy() override;

    void StartTx(Ptr<const WifiPpdu> ppdu) override;

    /** Arrival events this PHY's transmissions scheduled (signal at or above sensitivity). */
    uint64_t GetArrivalsScheduled() const;
    /** Arrival events this PHY's transmissions did not schedule (signal below sensitivity). */
    uint64_t GetArrivalsSkipped() const;

    /** Receptions lost to NS-2's collision rule (attribute Ns2Capture). */
    uint64_t GetNs2Collisions() const;

    /**
     * The decodable frames lost to NS-2's collision rule at this PHY: with Ns2Capture,
     * each frame at or above Ns2RxThreshold lost to the rule, the one being received and
     * every newcomer that collides with it (NS-2 frees a frame below RXThresh_ without a
     * trace line). NS-2 writes a COL line for those of them addressed to this node or
     * broadcast (Mac802_11::discard), not for overheard unicast frames for another node:
     * the Ns2CollisionDrop trace tells them apart.
     */
    uint64_t GetNs2CollisionDrops() const;

    /**
     * With Ns2CarrierSenseCulling: the culling distance of this PHY's channel (m), fixed
     * at the first transmission on the channel; negative before it (or without culling).
     */
    double GetNs2CullingDistance() const;

    /** Arrival events this PHY's transmissions did not schedule because of the culling. */
    uint64_t GetArrivalsCulled() const;

    /**
     * Frames below Ns2RxThreshold that this PHY received to their end and reported lost
     * (NS-2's receiver locked on a frame it can sense but not decode). Counted only where
     * ns-3's own SINR model would have received the frame (the PHY asks its
     * post-reception error model only then): a weak frame that also collided with a
     * stronger one is a collision, not counted here.
     */
    uint64_t GetNs2UndecodableReceptions() const;

    /**
     * TracedCallback signature for Ns2Collision.
     * \param ppdu the PPDU whose reception was lost
     * \param margin its power over the arriving signal's (dB), below CaptureThreshold
     */
    typedef void (*CollisionTracedCallback)(Ptr<const WifiPpdu> ppdu, double margin);

    /**
     * TracedCallback signature for Ns2CollisionDrop: one decodable frame lost to NS-2's
     * collision rule, each one counted by GetNs2CollisionDrops.
     * \param ppdu the frame
     * \param ns2Traces whether NS-2.35 writes a COL line for it: Mac802_11::discard()
     *        (mac/mac-802_11.cc) traces a received frame only if it is addressed to this
     *        node (RA), or a broadcast data frame; it frees a unicast frame addressed to
     *        another node (an overheard RTS, CTS, ACK or DATA) without a line
     */
    typedef void (*CollisionDropTracedCallback)(Ptr<const WifiPpdu> ppdu, bool ns2Traces);

    /**
     * The threshold YansWifiChannel::Receive compares the received power (plus RxGain)
     * with: RxSensitivity normalised to the PPDU's width.
     */
    static dBm_u SensitivityThreshold(Ptr<const YansWifiPhy> receiver,
                                      Ptr<const WifiPpdu> ppdu);

  protected:
    void DoDispose() override;

  private:
    /**
     * Deliver \p ppdu to every PHY on the channel where it is at or above the sensitivity,
     * as YansWifiChannel::Send does for all of them.
     * \return false if the channel's PHYs could not be listed (then nothing was sent).
     */
    bool SendToSensingPhys(Ptr<const WifiPpdu> ppdu, dBm_u txPower);

    /** (Re)build the list of the channel's PHYs in the channel's order. */
    bool ListChannelPhys(Ptr<YansWifiChannel> channel);

    /**
     * With Ns2Capture, before the arrival of \p arriving reaches ns-3's receive chain:
     * NS-2's Mac802_11::recv on a busy receiver. If NS-2's MAC is receiving a frame (the
     * one it holds as pktRx_, see Ns2HeldReference), the newcomer is captured (freed
     * silently) if that frame is at least CaptureThreshold stronger; otherwise both are
     * lost (Mac802_11::collision) and the longer-lasting one is held on.
     * \return whether NS-2's MAC was receiving a frame (the newcomer was judged)
     */
    bool ApplyNs2CollisionRule(Ptr<const WifiPpdu> arriving, dBm_u arrivingPower);

    /**
     * With Ns2Capture, after ns-3's StartReceivePreamble for a newcomer NS-2's MAC met
     * idle: hold it as NS-2's pktRx_ if ns-3 started detecting its preamble and it is
     * decodable (or Ns2LockUndecodable).
     */
    void HoldNs2Reception(Ptr<const WifiPpdu> arriving, dBm_u arrivingPower);

    /**
     * The frame NS-2's MAC is receiving, to judge a newcomer against: the held pktRx_
     * while ns-3 is still detecting its preamble, is receiving it, or it was lost to the
     * rule (NS-2 stays in MAC_COLL until its end); otherwise ns-3's current reception.
     * \return false if there is none (NS-2's MAC is idle)
     */
    bool Ns2HeldReference(Ptr<const WifiPpdu>& ppdu, Watt_u& power, Time& end) const;

    /** Mark \p ppdu lost to the rule until \p end (the error model reports it lost). */
    void MarkNs2Lost(Ptr<const WifiPpdu> ppdu, Time end);

    /** Whether \p ppdu is marked lost to the rule. */
    bool IsNs2Lost(Ptr<const WifiPpdu> ppdu) const;

    /** Count a decodable frame lost to the rule and fire Ns2CollisionDrop. */
    void NotifyNs2CollisionDrop(Ptr<const WifiPpdu> ppdu);

    /** Whether NS-2's Mac802_11::discard() writes a trace line for the received \p ppdu. */
    bool Ns2TracesDiscard(Ptr<const WifiPpdu> ppdu) const;

    /**
     * NS-2's culling distance of the channel (WirelessChannel::calcHighestAntennaZ): at the
     * first transmission on the channel, the distance at which that transmitter's signal
     * falls to its own sensing threshold (NS-2: the transmitter's CSThresh_ and Pt_);
     * kept for the channel's life (an object aggregated to the channel).
     */
    double Ns2CullingDistance(Ptr<YansWifiChannel> channel,
                              Ptr<const WifiPpdu> ppdu,
                              dBm_u txPower,
                              Ptr<PropagationLossModel> loss);

    /** Install the error model that reports NS-2's lost receptions (once). */
    void InstallNs2ErrorModel();

    /**
     * Whether the frame being received is lost under NS-2's rules: it collided, or it is
     * below Ns2RxThreshold (then it is counted as an undecodable reception).
     */
    bool CurrentReceptionLost();

    /** The arrival of a signal: what YansWifiChannel::Receive does. */
    static void Arrive(Ptr<YansWifiPhy> receiver, Ptr<const WifiPpdu> ppdu, dBm_u rxPower);

    bool m_filter;                           //!< attribute FilterBelowSensitivity
    bool m_ns2Capture;                       //!< attribute Ns2Capture
    double m_captureThresholdDb;             //!< attribute CaptureThreshold (dB)
    double m_ns2RxThresholdDbm;              //!< attribute Ns2RxThreshold (dBm)
    uint64_t m_collisions;                   //!< receptions lost to the NS-2 rule
    uint64_t m_undecodable;                  //!< frames below Ns2RxThreshold received
    TracedCallback<Ptr<const WifiPpdu>, double> m_ns2CollisionTrace; //!< Ns2Collision
    TracedCallback<Ptr<const WifiPpdu>, bool> m_ns2CollisionDropTrace; //!< Ns2CollisionDrop
    bool m_ns2LockUndecodable;               //!< attribute Ns2LockUndecodable
    Ptr<const WifiPpdu> m_ns2Held;           //!< the frame NS-2's MAC holds (pktRx_), if any
    Watt_u m_ns2HeldPower;                   //!< its received power
    Time m_ns2HeldEnd;                       //!< its end
    std::map<Ptr<const WifiPpdu>, Time> m_ns2Lost; //!< frames lost to the rule, to their end
    Ptr<Ns2CollisionErrorModel> m_collisionErrorModel; //!< reports it lost at its end
    Ptr<YansWifiChannel> m_listedChannel;    //!< channel whose PHYs m_channelPhys lists
    std::vector<Ptr<YansWifiPhy>> m_channelPhys; //!< the channel's PHYs, in its order
    uint64_t m_scheduled;                    //!< arrival events scheduled
    uint64_t m_skipped;                      //!< arrival events not scheduled
    bool m_ns2Culling;                       //!< attribute Ns2CarrierSenseCulling
    uint64_t m_culled;                       //!< arrivals not scheduled by the culling
    uint64_t m_ns2CollisionDrops;            //!< frames NS-2 would trace as COL drops
};

} // namespace ns3

#endif // SENSITIVITY_FILTERED_YANS_WIFI_PHY_H
