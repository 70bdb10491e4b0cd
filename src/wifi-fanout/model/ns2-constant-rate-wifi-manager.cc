#include "ns2-constant-rate-wifi-manager.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"
#include "ns3/wifi-mpdu.h"
#include "ns3/wifi-psdu.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Ns2ConstantRateWifiManager");
NS_OBJECT_ENSURE_REGISTERED(Ns2ConstantRateWifiManager);

TypeId
Ns2ConstantRateWifiManager::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Ns2ConstantRateWifiManager")
            .SetParent<ConstantRateWifiManager>()
            .SetGroupName("Wifi")
            .AddConstructor<Ns2ConstantRateWifiManager>()
            .AddAttribute("ShortRetryLimit",
                          "RTS frames sent without a CTS in a row after which the frame is "
                          "given up (NS-2's Mac/802_11 ShortRetryLimit_).",
                          UintegerValue(7),
                          MakeUintegerAccessor(&Ns2ConstantRateWifiManager::m_shortRetryLimit),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("LongRetryLimit",
                          "DATA frames (longer than the RTS threshold) sent without an ACK "
                          "in a row after which the frame is given up (NS-2's Mac/802_11 "
                          "LongRetryLimit_).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&Ns2ConstantRateWifiManager::m_longRetryLimit),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

Ns2ConstantRateWifiManager::Ns2ConstantRateWifiManager()
    : m_shortRetryLimit(7),
      m_longRetryLimit(4),
      m_ssrc(0),
      m_slrc(0),
      m_lastFailureRts(false),
      m_shortDrops(0),
      m_longDrops(0)
{
    NS_LOG_FUNCTION(this);
}

Ns2ConstantRateWifiManager::~Ns2ConstantRateWifiManager()
{
    NS_LOG_FUNCTION(this);
}

uint64_t
Ns2ConstantRateWifiManager::GetShortRetryDrops() const
{
    return m_shortDrops;
}

uint64_t
Ns2ConstantRateWifiManager::GetLongRetryDrops() const
{
    return m_longDrops;
}

void
Ns2ConstantRateWifiManager::DoReportRtsFailed(WifiRemoteStation* station)
{
    NS_LOG_FUNCTION(this << station);
    m_lastFailureRts = true;
}

void
Ns2ConstantRateWifiManager::DoReportDataFailed(WifiRemoteStation* station)
{
    NS_LOG_FUNCTION(this << station);
    m_lastFailureRts = false;
}

void
Ns2ConstantRateWifiManager::DoReportRtsOk(WifiRemoteStation* station,
                                          double ctsSnr,
                                          WifiMode ctsMode,
                                          double rtsSnr)
{
    NS_LOG_FUNCTION(this << station << ctsSnr << ctsMode << rtsSnr);
    m_ssrc = 0; // Mac802_11::recvCTS
}

void
Ns2ConstantRateWifiManager::DoReportDataOk(WifiRemoteStation* station,
                                           double ackSnr,
                                           WifiMode ackMode,
                                           double dataSnr,
                                           MHz_u dataChannelWidth,
                                           uint8_t dataNss)
{
    NS_LOG_FUNCTION(this << station << ackSnr << ackMode << dataSnr << dataChannelWidth
                         << +dataNss);
    m_slrc = 0; // Mac802_11::recvACK, for a frame longer than RTSThreshold_
}

void
Ns2ConstantRateWifiManager::DoIncrementRetryCountOnTxFailure(WifiRemoteStation* station,
                                                             Ptr<WifiPsdu> psdu)
{
    NS_LOG_FUNCTION(this << station << *psdu);
    // ns-3's MPDU retry count, as the base class keeps it for a non-QoS frame (it no
    // longer decides a drop here)
    if (!psdu->GetHeader(0).IsQosData())
    {
        psdu->IncrementRetryCount();
    }
    if (m_lastFailureRts)
    {
        ++m_ssrc; // Mac802_11::RetransmitRTS
    }
    else
    {
        ++m_slrc; // Mac802_11::RetransmitDATA
    }
}

std::list<Ptr<WifiMpdu>>
Ns2ConstantRateWifiManager::DoGetMpdusToDropOnTxFailure(WifiRemoteStation* station,
                                                        Ptr<WifiPsdu> psdu)
{
    NS_LOG_FUNCTION(this << station << *psdu);
    std::list<Ptr<WifiMpdu>> dropped;
    if (m_lastFailureRts ? m_ssrc < m_shortRetryLimit : m_slrc < m_longRetryLimit)
    {
        return dropped;
    }
    // NS-2 resets only the counter that reached its limit
    if (m_lastFailureRts)
    {
        m_ssrc = 0;
        ++m_shortDrops;
    }
    else
    {
        m_slrc = 0;
        ++m_longDrops;
    }
    for (const auto& mpdu : *PeekPointer(psdu))
    {
        dropped.push_back(mpdu);
    }
    NS_LOG_DEBUG("frame given up: " << (m_lastFailureRts ? "ssrc" : "slrc") << " at its limit");
    return dropped;
}

} // namespace ns3
