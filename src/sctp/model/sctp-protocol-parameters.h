/*
 * The configuration of an SCTP association as value objects: the protocol parameters of
 * RFC 9260 section 16 (and RFC 7829's two) and the local choices of this model
 * (buffers, streams, SACK policy, multi-homing policy, PR-SCTP). SctpSocket keeps one
 * of each, sets their fields from its attributes and hands them to its association,
 * which reads them through a const reference (an attribute changed while the
 * association runs takes effect at once, as before the split).
 */
#ifndef SCTP_PROTOCOL_PARAMETERS_H
#define SCTP_PROTOCOL_PARAMETERS_H

#include "ns3/address.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup sctp
 * \brief Where retransmissions go when the peer has several addresses (NS-2 rtxToAlt_).
 */
enum class SctpRtxToAlt : uint8_t
{
    SAME = 0,              //!< always to the destination the chunk was sent to
    ALTERNATE = 1,         //!< timeouts and fast retransmissions to an alternate (NS-2 default)
    TIMEOUT_ALTERNATE = 2, //!< timeouts to an alternate, fast retransmissions to the same
};

/** \ingroup sctp \brief Destination of new data when every destination is inactive. */
enum class SctpDormantAction : uint8_t
{
    HOP = 0,       //!< move to the next destination at every timeout (NS-2 default)
    PRIMARY = 1,   //!< keep sending to the primary path
    LAST_USED = 2, //!< keep the destination last used
};

/** \ingroup sctp \brief Which associations send HEARTBEATs on idle destinations (8.3). */
enum class SctpHeartbeatMode : uint8_t
{
    OFF = 0,        //!< never (paths are then taken as confirmed)
    MULTIHOMED = 1, //!< associations whose peer has more than one address
    ALL = 2,        //!< every association (RFC 9260 default behaviour)
};

/**
 * \ingroup sctp
 * \brief The protocol parameters of RFC 9260 section 16, with its recommended values,
 *        and RFC 7829's PotentiallyFailed.Max.Retrans and Primary.Switchover.Max.Retrans.
 *
 * The defaults here equal the SctpSocket attributes' (a test checks it).
 */
struct SctpProtocolParameters
{
    Time rtoInitial{Seconds(1)};          //!< RTO.Initial
    Time rtoMin{Seconds(1)};              //!< RTO.Min
    Time rtoMax{Seconds(60)};             //!< RTO.Max
    uint32_t maxBurst{4};                 //!< Max.Burst (0 = unlimited)
    double rtoAlpha{0.125};               //!< RTO.Alpha
    double rtoBeta{0.25};                 //!< RTO.Beta
    Time validCookieLife{Seconds(60)};    //!< Valid.Cookie.Life
    uint32_t associationMaxRetrans{10};   //!< Association.Max.Retrans
    uint32_t pathMaxRetrans{5};           //!< Path.Max.Retrans
    uint32_t maxInitRetransmits{8};       //!< Max.Init.Retransmits
    Time hbInterval{Seconds(30)};         //!< HB.interval
    uint32_t hbMaxBurst{1};               //!< HB.Max.Burst
    uint32_t potentiallyFailedMaxRetrans{65535}; //!< RFC 7829 PFMR (>= PMR: SCTP-PF off)
    uint32_t primarySwitchoverMaxRetrans{65535}; //!< RFC 7829 section 5 PSMR

    /** RFC 7829 section 3: SCTP-PF is on when PFMR < Path.Max.Retrans. */
    bool IsPotentiallyFailedEnabled() const
    {
        return potentiallyFailedMaxRetrans < pathMaxRetrans;
    }
};

/**
 * \ingroup sctp
 * \brief What else an association takes from its socket's attributes: buffer and stream
 *        sizes, the SACK and fast retransmit policy, the congestion window's start, the
 *        segment and path MTU, the multi-homing policy and PR-SCTP.
 */
struct SctpAssociationConfig
{
    uint32_t rcvBufSize{131072};       //!< receive buffer, the initial a_rwnd
    uint16_t outboundStreams{10};      //!< OS requested in INIT / INIT ACK
    uint16_t maxInboundStreams{10};    //!< MIS accepted
    Time sackDelay{MilliSeconds(200)}; //!< delayed SACK timeout
    uint32_t sackFrequency{2};         //!< packets with DATA before an immediate SACK
    bool immediateFirstSack{false};    //!< SACK the first DATA at once (RFC 9260 5.1)
    bool utilizationAtCwnd{false};     //!< cwnd fully utilized only at flight >= cwnd (7.2.2)
    bool cwndGrowthOnCumAckOnly{false}; //!< cwnd grows only on a cum-ack advance (RFC 4960)
    uint32_t fastRtxTrigger{3};        //!< miss indications before fast retransmit
    uint32_t initialCwnd{0};           //!< 0: the congestion control's (RFC 9260 7.2.1)
    uint32_t initialSsthresh{0};       //!< 0: the congestion control's (the peer's a_rwnd)
    uint32_t maxSegment{0};            //!< largest user data per DATA chunk (0: the PMTU's)
    uint32_t mtu{0};                   //!< path MTU (0: the outgoing interface's)
    bool cookiePreservative{true};     //!< ask for a longer cookie life (5.2.6)
    Address primaryAddress;            //!< peer address to make primary (empty: none)
    SctpHeartbeatMode heartbeatMode{SctpHeartbeatMode::MULTIHOMED};
    SctpRtxToAlt rtxToAlt{SctpRtxToAlt::TIMEOUT_ALTERNATE};
    SctpDormantAction dormantAction{SctpDormantAction::PRIMARY};
    bool returnToPrimary{true};        //!< new data back to the primary once it answers
    int32_t changePrimaryThresh{-1};   //!< NS-2 changePrimaryThresh_ (-1: never)
    bool sourceAddressFailover{true};  //!< another source address after a T3-rtx (6.4.1)
    bool prSctpEnabled{true};          //!< announce and use PR-SCTP (RFC 3758)
    bool iDataSupported{false};        //!< announce I-DATA (RFC 8260; negotiation only)
    bool reconfigSupported{false};     //!< announce and use RE-CONFIG (RFC 6525)
};

} // namespace ns3

#endif /* SCTP_PROTOCOL_PARAMETERS_H */
