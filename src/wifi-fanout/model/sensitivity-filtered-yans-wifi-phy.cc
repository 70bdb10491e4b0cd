#include "sensitivity-filtered-yans-wifi-phy.h"

#include "ns3/boolean.h"
#include "ns3/constant-position-mobility-model.h"
#include "ns3/double.h"
#include "ns3/interference-helper.h"
#include "ns3/wifi-phy-state-helper.h"
#include "ns3/log.h"
#include "ns3/mobility-model.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/propagation-delay-model.h"
#include "ns3/propagation-loss-model.h"
#include "ns3/simulator.h"
#include "ns3/wifi-net-device.h"
#include "ns3/wifi-ppdu.h"
#include "ns3/wifi-psdu.h"
#include "ns3/mac48-address.h"
#include "ns3/wifi-utils.h"
#include "ns3/yans-wifi-channel.h"

#include <cmath>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SensitivityFilteredYansWifiPhy");
NS_OBJECT_ENSURE_REGISTERED(SensitivityFilteredYansWifiPhy);
NS_OBJECT_ENSURE_REGISTERED(Ns2CollisionErrorModel);

namespace
{
/**
 * The culling distance NS-2 fixes for a channel (a static of WirelessChannel there),
 * aggregated to the YansWifiChannel so that it lives and dies with the channel.
 */
class Ns2CullingState : public Object
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::Ns2CullingState").SetParent<Object>().SetGroupName("Wifi");
        return tid;
    }

    double m_distance{-1.0}; //!< metres; negative until the first transmission
};
} // namespace

TypeId
Ns2CollisionErrorModel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::Ns2CollisionErrorModel")
                            .SetParent<ErrorModel>()
                            .SetGroupName("Wifi")
                            .AddConstructor<Ns2CollisionErrorModel>();
    return tid;
}

void
Ns2CollisionErrorModel::SetCollisionQuery(Callback<bool> query)
{
    m_query = query;
}

bool
Ns2CollisionErrorModel::DoCorrupt(Ptr<Packet> packet)
{
    return !m_query.IsNull() && m_query();
}

void
Ns2CollisionErrorModel::DoReset()
{
}

TypeId
SensitivityFilteredYansWifiPhy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SensitivityFilteredYansWifiPhy")
            .SetParent<YansWifiPhy>()
            .SetGroupName("Wifi")
            .AddConstructor<SensitivityFilteredYansWifiPhy>()
            .AddAttribute("FilterBelowSensitivity",
                          "Schedule no arrival event at receivers where the signal is below "
                          "their RxSensitivity (YansWifiChannel would discard it on arrival). "
                          "false: send through YansWifiChannel::Send like a YansWifiPhy.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SensitivityFilteredYansWifiPhy::m_filter),
                          MakeBooleanChecker())
            .AddAttribute("Ns2Capture",
                          "Apply NS-2's collision rule to the frame being received, from its "
                          "first bit (ns-2 Mac802_11::recv): a signal arriving during it, "
                          "also within ns-3's preamble detection window, makes both lost "
                          "unless the frame is at least CaptureThreshold stronger (then the "
                          "newcomer is lost alone, silently). The PHY keeps receiving what "
                          "ns-3 receives and reports a lost frame lost at its end through the "
                          "PostReceptionErrorModel, which this replaces at the first "
                          "collision. false: ns-3's rule (preamble detection and the frame's "
                          "SINR chunks decide).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&SensitivityFilteredYansWifiPhy::m_ns2Capture),
                          MakeBooleanChecker())
            .AddAttribute("CaptureThreshold",
                          "Power ratio (dB) by which the frame being received must exceed an "
                          "arriving signal to survive it, with Ns2Capture (NS-2's "
                          "Phy/WirelessPhy CPThresh_: 10).",
                          DoubleValue(10.0),
                          MakeDoubleAccessor(&SensitivityFilteredYansWifiPhy::m_captureThresholdDb),
                          MakeDoubleChecker<double>())
            .AddAttribute("Ns2RxThreshold",
                          "With Ns2Capture: received power (dBm, RxGain included) below which "
                          "a frame can be sensed but not decoded (NS-2's RXThresh_). NS-2's "
                          "WirelessPhy passes such a frame to Mac802_11 flagged as an error; "
                          "the MAC receives it to its end, so it blocks (and collides with) "
                          "frames arriving meanwhile. For the PHY to lock on such frames, "
                          "its preamble detection must accept them (MinimumRssi at or below "
                          "the sensitivity). The default (-1000 dBm) marks no frame "
                          "undecodable.",
                          DoubleValue(-1000.0),
                          MakeDoubleAccessor(&SensitivityFilteredYansWifiPhy::m_ns2RxThresholdDbm),
                          MakeDoubleChecker<double>())
            .AddAttribute("Ns2LockUndecodable",
                          "With Ns2Capture: NS-2's MAC holds a frame below Ns2RxThreshold it "
                          "senses as it holds a decodable one (ns-2 Mac802_11::recv sets "
                          "pktRx_ for every frame WirelessPhy::sendUp passes up), so a frame "
                          "arriving within its preamble detection window collides with it. "
                          "Set it together with a preamble detection that locks on such "
                          "frames (MinimumRssi at or below the sensitivity), which holds them "
                          "after the window. false: only frames at or above Ns2RxThreshold "
                          "hold the receiver during the window.",
                          BooleanValue(false),
                          MakeBooleanAccessor(
                              &SensitivityFilteredYansWifiPhy::m_ns2LockUndecodable),
                          MakeBooleanChecker())
            .AddAttribute("Ns2CarrierSenseCulling",
                          "Deliver a transmission only to the PHYs NS-2's WirelessChannel "
                          "delivers it to: those whose x and y both lie within D + 5 m of the "
                          "sender's (a square, getAffectedNodes), where D is fixed at the "
                          "first transmission on the channel as the distance at which that "
                          "first sender's signal falls to its sensing threshold "
                          "(calcHighestAntennaZ: distCST_ from the first transmitter's Pt_ and "
                          "CSThresh_). With nodes of different powers, a low-power first "
                          "sender keeps the others' frames from distant PHYs that would "
                          "sense them. Needs FilterBelowSensitivity.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&SensitivityFilteredYansWifiPhy::m_ns2Culling),
                          MakeBooleanChecker())
            .AddTraceSource("Ns2Collision",
                            "A reception lost to NS-2's collision rule (Ns2Capture).",
                            MakeTraceSourceAccessor(
                                &SensitivityFilteredYansWifiPhy::m_ns2CollisionTrace),
                            "ns3::SensitivityFilteredYansWifiPhy::CollisionTracedCallback")
            .AddTraceSource("Ns2CollisionDrop",
                            "A decodable frame lost to NS-2's collision rule (each frame "
                            "GetNs2CollisionDrops counts), and whether NS-2's trace shows it "
                            "(a COL line: addressed to this node, or broadcast data).",
                            MakeTraceSourceAccessor(
                                &SensitivityFilteredYansWifiPhy::m_ns2CollisionDropTrace),
                            "ns3::SensitivityFilteredYansWifiPhy::CollisionDropTracedCallback");
    return tid;
}

SensitivityFilteredYansWifiPhy::SensitivityFilteredYansWifiPhy()
    : m_filter(true),
      m_ns2Capture(false),
      m_captureThresholdDb(10.0),
      m_ns2RxThresholdDbm(-1000.0),
      m_collisions(0),
      m_undecodable(0),
      m_ns2LockUndecodable(false),
      m_ns2HeldPower(0.0),
      m_scheduled(0),
      m_skipped(0),
      m_ns2Culling(false),
      m_culled(0),
      m_ns2CollisionDrops(0)
{
    NS_LOG_FUNCTION(this);
}

SensitivityFilteredYansWifiPhy::~SensitivityFilteredYansWifiPhy()
{
    NS_LOG_FUNCTION(this);
}

void
SensitivityFilteredYansWifiPhy::DoDispose()
{
    NS_LOG_FUNCTION(this);
    // The list holds references to the other PHYs (and to this one): break the cycles.
    m_channelPhys.clear();
    m_listedChannel = nullptr;
    m_ns2Held = nullptr;
    m_ns2Lost.clear();
    if (m_collisionErrorModel)
    {
        m_collisionErrorModel->SetCollisionQuery(MakeNullCallback<bool>());
        m_collisionErrorModel = nullptr;
    }
    YansWifiPhy::DoDispose();
}

uint64_t
SensitivityFilteredYansWifiPhy::GetArrivalsScheduled() const
{
    return m_scheduled;
}

uint64_t
SensitivityFilteredYansWifiPhy::GetArrivalsSkipped() const
{
    return m_skipped;
}

uint64_t
SensitivityFilteredYansWifiPhy::GetArrivalsCulled() const
{
    return m_culled;
}

double
SensitivityFilteredYansWifiPhy::GetNs2CullingDistance() const
{
    auto channel = DynamicCast<YansWifiChannel>(GetChannel());
    auto state = channel ? channel->GetObject<Ns2CullingState>() : nullptr;
    return state ? state->m_distance : -1.0;
}

double
SensitivityFilteredYansWifiPhy::Ns2CullingDistance(Ptr<YansWifiChannel> channel,
                                                   Ptr<const WifiPpdu> ppdu,
                                                   dBm_u txPower,
                                                   Ptr<PropagationLossModel> loss)
{
    auto state = channel->GetObject<Ns2CullingState>();
    if (!state)
    {
        state = CreateObject<Ns2CullingState>();
        channel->AggregateObject(state);
    }
    if (state->m_distance >= 0.0)
    {
        return state->m_distance;
    }
    // The distance at which the received power falls to the sender's own sensing
    // threshold, by bisection on the channel's loss model (NS-2 inverts its propagation
    // formula; both antennas at the sender's height, as NS-2 takes the highest antenna).
    const dBm_u threshold = SensitivityThreshold(this, ppdu);
    const double z = GetMobility()->GetPosition().z;
    auto from = CreateObject<ConstantPositionMobilityModel>();
    auto to = CreateObject<ConstantPositionMobilityModel>();
    from->SetPosition(Vector(0.0, 0.0, z));
    auto senses = [&](double d) {
        to->SetPosition(Vector(d, 0.0, z));
        return loss->CalcRxPower(txPower, from, to) >= threshold;
    };
    double low = 0.0;
    double high = 1.0;
    while (senses(high) && high < 1e9)
    {
        low = high;
        high *= 2.0;
    }
    for (int i = 0; i < 100; ++i)
    {
        const double middle = 0.5 * (low + high);
        (senses(middle) ? low : high) = middle;
    }
    state->m_distance = low;
    NS_LOG_INFO("NS-2 culling distance fixed by node " << GetDevice()->GetNode()->GetId()
                                                       << ": " << low << " m");
    return low;
}

dBm_u
SensitivityFilteredYansWifiPhy::SensitivityThreshold(Ptr<const YansWifiPhy> receiver,
                                                     Ptr<const WifiPpdu> ppdu)
{
    // The expression of YansWifiChannel::Receive (ns-3.44), operand for operand, so that
    // the decision taken here is bit for bit the one taken there.
    return receiver->GetRxSensitivity() + RatioToDb(ppdu->GetTxChannelWidth() / MHz_u{20});
}

uint64_t
SensitivityFilteredYansWifiPhy::GetNs2Collisions() const
{
    return m_collisions;
}

uint64_t
SensitivityFilteredYansWifiPhy::GetNs2CollisionDrops() const
{
    return m_ns2CollisionDrops;
}

uint64_t
SensitivityFilteredYansWifiPhy::GetNs2UndecodableReceptions() const
{
    return m_undecodable;
}

void
SensitivityFilteredYansWifiPhy::InstallNs2ErrorModel()
{
    if (m_collisionErrorModel)
    {
        return;
    }
    // The PHY keeps receiving until the frame's end, as NS-2's MAC stays in RECV; the
    // post-reception error model then reports the frame as lost.
    m_collisionErrorModel = CreateObject<Ns2CollisionErrorModel>();
    m_collisionErrorModel->SetCollisionQuery(
        MakeCallback(&SensitivityFilteredYansWifiPhy::CurrentReceptionLost, this));
    SetPostReceptionErrorModel(m_collisionErrorModel);
}

bool
SensitivityFilteredYansWifiPhy::Ns2HeldReference(Ptr<const WifiPpdu>& ppdu,
                                                 Watt_u& power,
                                                 Time& end) const
{
    const Time now = Simulator::Now();
    if (m_ns2Held && m_ns2HeldEnd > now)
    {
        // NS-2 holds pktRx_ from its first bit (mac-802_11.cc:1598-1610). ns-3 holds it too
        // while its preamble is being detected (the first 4 us, no current event yet) and
        // while it is ns-3's current reception; after a collision NS-2 stays in MAC_COLL
        // until its end (mac-802_11.cc:1653-1657) whatever ns-3 does with it.
        const bool detecting = m_currentPreambleEvents.count(
                                   {m_ns2Held->GetUid(), m_ns2Held->GetPreamble()}) > 0;
        const bool receiving = m_currentEvent && m_currentEvent->GetPpdu() == m_ns2Held;
        if (detecting || receiving || IsNs2Lost(m_ns2Held))
        {
            ppdu = m_ns2Held;
            power = m_ns2HeldPower;
            end = m_ns2HeldEnd;
            return true;
        }
    }
    if (m_currentEvent && m_currentEvent->GetEndTime() > now)
    {
        ppdu = m_currentEvent->GetPpdu();
        power = m_currentEvent->GetRxPower();
        end = m_currentEvent->GetEndTime();
        return true;
    }
    return false;
}

void
SensitivityFilteredYansWifiPhy::MarkNs2Lost(Ptr<const WifiPpdu> ppdu, Time end)
{
    m_ns2Lost[ppdu] = end;
}

bool
SensitivityFilteredYansWifiPhy::IsNs2Lost(Ptr<const WifiPpdu> ppdu) const
{
    return m_ns2Lost.count(ppdu) > 0;
}

bool
SensitivityFilteredYansWifiPhy::ApplyNs2CollisionRule(Ptr<const WifiPpdu> arriving,
                                                      dBm_u arrivingPower)
{
    if (!m_ns2Capture)
    {
        return false;
    }
    NS_LOG_FUNCTION(this << arriving << arrivingPower);
    const Time now = Simulator::Now();
    for (auto it = m_ns2Lost.begin(); it != m_ns2Lost.end();)
    {
        it = it->second < now ? m_ns2Lost.erase(it) : std::next(it);
    }
    if (arrivingPower < dBm_u{m_ns2RxThresholdDbm})
    {
        // The PHY may lock on this frame: it must then be reported lost at its end.
        InstallNs2ErrorModel();
    }
    Ptr<const WifiPpdu> held;
    Watt_u heldPower{0.0};
    Time heldEnd;
    if (!Ns2HeldReference(held, heldPower, heldEnd))
    {
        return false; // NS-2's MAC is idle (MAC_IDLE): the newcomer becomes pktRx_
    }
    const Time arrivingEnd = now + arriving->GetTxDuration();
    // NS-2 compares the two received powers once, when the newcomer arrives
    // (mac-802_11.cc:1617, pktRx_->txinfo_.RxPr / p->txinfo_.RxPr >= CPThresh).
    const dB_u margin = RatioToDb(heldPower / DbmToW(arrivingPower));
    if (margin >= m_captureThresholdDb)
    {
        // Mac802_11::capture (mac-802_11.cc:549-557) frees the newcomer without a trace
        // line; ns-3 drops it too (RXING, or within the preamble detection window as the
        // weaker preamble), but if it ever received it, it is lost.
        NS_LOG_DEBUG("NS-2 capture: margin " << margin << " dB >= " << m_captureThresholdDb);
        MarkNs2Lost(arriving, arrivingEnd);
        return true;
    }
    NS_LOG_DEBUG("NS-2 collision: margin " << margin << " dB < " << m_captureThresholdDb
                                           << (m_currentEvent ? "" : " (preamble detection)"));
    // Mac802_11::collision (mac-802_11.cc:560-590) discards one of the two with a COL line
    // now and the other at its end (recv_timer in MAC_COLL, mac-802_11.cc:1653); discard()
    // frees a frame flagged as an error (below RXThresh_) without one.
    if (arrivingPower >= dBm_u{m_ns2RxThresholdDbm})
    {
        NotifyNs2CollisionDrop(arriving);
    }
    MarkNs2Lost(arriving, arrivingEnd);
    if (!IsNs2Lost(held))
    {
        if (WToDbm(heldPower) >= dBm_u{m_ns2RxThresholdDbm})
        {
            NotifyNs2CollisionDrop(held);
        }
        ++m_collisions;
        m_ns2CollisionTrace(held, margin);
        MarkNs2Lost(held, heldEnd);
    }
    InstallNs2ErrorModel();
    // NS-2 keeps as pktRx_ the frame that lasts longer (txtime(p) > mhRecv_.expire()).
    if (arrivingEnd > heldEnd)
    {
        m_ns2Held = arriving;
        m_ns2HeldPower = DbmToW(arrivingPower);
        m_ns2HeldEnd = arrivingEnd;
    }
    else if (held != m_ns2Held)
    {
        m_ns2Held = held;
        m_ns2HeldPower = heldPower;
        m_ns2HeldEnd = heldEnd;
    }
    return true;
}

void
SensitivityFilteredYansWifiPhy::HoldNs2Reception(Ptr<const WifiPpdu> arriving,
                                                 dBm_u arrivingPower)
{
    if (!m_ns2Capture)
    {
        return;
    }
    // ns-3 started detecting its preamble (the PHY was idle or sensing energy only): this
    // is the frame NS-2's idle MAC starts receiving (mac-802_11.cc:1598-1610). A frame
    // below RXThresh_ holds the receiver only under the lock.
    const bool detecting =
        m_currentPreambleEvents.count({arriving->GetUid(), arriving->GetPreamble()}) > 0;
    if (!detecting ||
        (arrivingPower < dBm_u{m_ns2RxThresholdDbm} && !m_ns2LockUndecodable))
    {
        return;
    }
    m_ns2Held = arriving;
    m_ns2HeldPower = DbmToW(arrivingPower);
    m_ns2HeldEnd = Simulator::Now() + arriving->GetTxDuration();
}

void
SensitivityFilteredYansWifiPhy::NotifyNs2CollisionDrop(Ptr<const WifiPpdu> ppdu)
{
    ++m_ns2CollisionDrops;
    if (!m_ns2CollisionDropTrace.IsEmpty())
    {
        m_ns2CollisionDropTrace(ppdu, Ns2TracesDiscard(ppdu));
    }
}

bool
SensitivityFilteredYansWifiPhy::Ns2TracesDiscard(Ptr<const WifiPpdu> ppdu) const
{
    // Mac802_11::discard (ns-2.35 mac/mac-802_11.cc): an RTS whose transmitter is this
    // node (never a received one), or an RTS, CTS or ACK whose receiver address is; a data
    // frame whose receiver or transmitter address is this node, or that is broadcast (not
    // to the DS); a management frame addressed here. Every other frame is freed untraced.
    auto psdu = ppdu->GetPsdu();
    auto device = GetDevice();
    if (!psdu || psdu->GetNMpdus() == 0 || !device)
    {
        return true;
    }
    const WifiMacHeader& header = psdu->GetHeader(0);
    const Mac48Address self = Mac48Address::ConvertFrom(device->GetAddress());
    if (header.GetAddr1() == self)
    {
        return true;
    }
    if (header.IsData())
    {
        return header.GetAddr1().IsBroadcast() && !header.IsToDs();
    }
    return false;
}

bool
SensitivityFilteredYansWifiPhy::CurrentReceptionLost()
{
    if (!m_currentEvent)
    {
        return false;
    }
    if (WToDbm(m_currentEvent->GetRxPower()) < dBm_u{m_ns2RxThresholdDbm})
    {
        ++m_undecodable;
        return true;
    }
    return IsNs2Lost(m_currentEvent->GetPpdu());
}

void
SensitivityFilteredYansWifiPhy::StartTx(Ptr<const WifiPpdu> ppdu)
{
    NS_LOG_FUNCTION(this << ppdu);
    if (!m_filter)
    {
        NS_ABORT_MSG_IF(m_ns2Culling, "Ns2CarrierSenseCulling needs FilterBelowSensitivity");
        YansWifiPhy::StartTx(ppdu);
        return;
    }
    // As YansWifiPhy::StartTx: the transmission trace, then the channel.
    m_signalTransmissionCb(ppdu, ppdu->GetTxVector());
    const dBm_u txPower = GetTxPowerForTransmission(ppdu) + GetTxGain();
    if (!SendToSensingPhys(ppdu, txPower))
    {
        NS_LOG_WARN("cannot list the PHYs of the channel; sending through YansWifiChannel");
        auto channel = DynamicCast<YansWifiChannel>(GetChannel());
        NS_ABORT_MSG_UNLESS(channel, "SensitivityFilteredYansWifiPhy needs a YansWifiChannel");
        channel->Send(this, ppdu, txPower);
    }
}

bool
SensitivityFilteredYansWifiPhy::ListChannelPhys(Ptr<YansWifiChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    m_channelPhys.clear();
    m_listedChannel = nullptr;
    // YansWifiChannel::GetDevice(i) is the device of its i-th PHY; find that PHY among the
    // device's PHYs (the k-th PHY of the device on this channel for its k-th appearance).
    std::map<Ptr<NetDevice>, std::size_t> seen;
    for (std::size_t i = 0; i < channel->GetNDevices(); ++i)
    {
        auto device = DynamicCast<WifiNetDevice>(channel->GetDevice(i));
        if (!device)
        {
            return false; // a PHY without a device yet: try again at the next transmission
        }
        std::size_t wanted = seen[device]++;
        Ptr<YansWifiPhy> found;
        for (const auto& phy : device->GetPhys())
        {
            auto yans = DynamicCast<YansWifiPhy>(phy);
            if (yans && yans->GetChannel() == channel && wanted-- == 0)
            {
                found = yans;
                break;
            }
        }
        if (!found)
        {
            return false;
        }
        m_channelPhys.push_back(found);
    }
    m_listedChannel = channel;
    return true;
}

bool
SensitivityFilteredYansWifiPhy::SendToSensingPhys(Ptr<const WifiPpdu> ppdu, dBm_u txPower)
{
    NS_LOG_FUNCTION(this << ppdu << txPower);
    auto channel = DynamicCast<YansWifiChannel>(GetChannel());
    if (!channel)
    {
        return false;
    }
    if (channel != m_listedChannel || channel->GetNDevices() != m_channelPhys.size())
    {
        if (!ListChannelPhys(channel))
        {
            return false;
        }
    }
    // The models are read at every transmission, as the channel uses its current ones.
    PointerValue lossValue;
    PointerValue delayValue;
    channel->GetAttribute("PropagationLossModel", lossValue);
    channel->GetAttribute("PropagationDelayModel", delayValue);
    auto loss = lossValue.Get<PropagationLossModel>();
    auto delayModel = delayValue.Get<PropagationDelayModel>();
    NS_ABORT_MSG_UNLESS(loss && delayModel, "YansWifiChannel without loss or delay model");

    Ptr<MobilityModel> senderMobility = GetMobility();
    NS_ASSERT(senderMobility);
    const uint8_t channelNumber = GetChannelNumber();
    // NS-2's square: x and y within the culling distance + 5 m ("safety") of the sender's.
    const double culling =
        m_ns2Culling ? Ns2CullingDistance(channel, ppdu, txPower, loss) + 5.0 : -1.0;
    const Vector here = senderMobility->GetPosition();
    for (const auto& receiver : m_channelPhys)
    {
        if (PeekPointer(receiver) == this)
        {
            continue;
        }
        // From here on what YansWifiChannel::Send does for each receiver, in its order.
        if (receiver->GetChannelNumber() != channelNumber)
        {
            continue;
        }
        Ptr<MobilityModel> receiverMobility = receiver->GetMobility()->GetObject<MobilityModel>();
        if (culling >= 0.0)
        {
            const Vector there = receiverMobility->GetPosition();
            if (std::abs(there.x - here.x) > culling || std::abs(there.y - here.y) > culling)
            {
                ++m_culled;
                continue;
            }
        }
        const Time delay = delayModel->GetDelay(senderMobility, receiverMobility);
        const dBm_u rxPower = loss->CalcRxPower(txPower, senderMobility, receiverMobility);
        if (rxPower + receiver->GetRxGain() < SensitivityThreshold(receiver, ppdu))
        {
            // YansWifiChannel::Receive would return at once (after the SignalArrival trace).
            ++m_skipped;
            continue;
        }
        ++m_scheduled;
        Ptr<WifiNetDevice> device = receiver->GetDevice();
        const uint32_t dstNode = device ? device->GetNode()->GetId() : 0xffffffff;
        Simulator::ScheduleWithContext(dstNode,
                                       delay,
                                       &SensitivityFilteredYansWifiPhy::Arrive,
                                       receiver,
                                       ppdu,
                                       rxPower);
    }
    return true;
}

void
SensitivityFilteredYansWifiPhy::Arrive(Ptr<YansWifiPhy> receiver,
                                       Ptr<const WifiPpdu> ppdu,
                                       dBm_u rxPower)
{
    NS_LOG_FUNCTION(receiver << ppdu << rxPower);
    // What YansWifiChannel::Receive does (ns-3.44).
    const dBm_u totalRxPower = rxPower + receiver->GetRxGain();
    receiver->TraceSignalArrival(ppdu, totalRxPower, ppdu->GetTxDuration());
    if (totalRxPower < SensitivityThreshold(receiver, ppdu))
    {
        NS_LOG_INFO("Received signal too weak to process: " << rxPower << " dBm");
        return;
    }
    auto filtered = DynamicCast<SensitivityFilteredYansWifiPhy>(receiver);
    const bool judged = filtered && filtered->ApplyNs2CollisionRule(ppdu, totalRxPower);
    RxPowerWattPerChannelBand rxPowerW;
    // YANS has one band; the key is the dummy band of YansWifiPhy::GetBand.
    rxPowerW.insert({{{{0, 0}}, {{Hz_u{0}, Hz_u{0}}}}, DbmToW(totalRxPower)});
    receiver->StartReceivePreamble(ppdu, rxPowerW, ppdu->GetTxDuration());
    if (filtered && !judged)
    {
        filtered->HoldNs2Reception(ppdu, totalRxPower);
    }
}

} // namespace ns3
