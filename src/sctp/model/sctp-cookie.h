/*
 * The State Cookie (RFC 9260 sections 5.1.3 and 5.1.5): everything the passive side
 * needs to create the association from a COOKIE ECHO, protected by HMAC-SHA-256
 * (RFC 2104, FIPS 180-4) under a secret key held by the endpoint.
 */
#ifndef SCTP_COOKIE_H
#define SCTP_COOKIE_H

#include "ns3/address.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ns3
{

/** \ingroup sctp \brief SHA-256 of a byte string (FIPS 180-4). */
std::array<uint8_t, 32> SctpSha256(const uint8_t* data, std::size_t length);

/** \ingroup sctp \brief HMAC-SHA-256 (RFC 2104). */
std::array<uint8_t, 32> SctpHmacSha256(const std::vector<uint8_t>& key,
                                       const uint8_t* data,
                                       std::size_t length);

/**
 * \ingroup sctp
 * \brief Contents of a State Cookie: the TCB summary of section 5.1.3 plus tie-tags.
 */
class SctpCookie
{
  public:
    static constexpr uint32_t MAC_SIZE = 32;

    int64_t creationTimeNs{0};  //!< when the INIT ACK was sent
    uint32_t lifetimeMs{60000}; //!< Valid.Cookie.Life (plus any Cookie Preservative)
    uint32_t localTag{0};       //!< the Initiate Tag of our INIT ACK
    uint32_t peerTag{0};        //!< the Initiate Tag of the peer's INIT
    uint32_t localInitialTsn{0};
    uint32_t peerInitialTsn{0};
    uint32_t peerRwnd{0};
    uint16_t outboundStreams{0}; //!< negotiated: min(our OS, peer MIS)
    uint16_t inboundStreams{0};  //!< negotiated: min(peer OS, our MIS)
    uint32_t localTieTag{0};     //!< our tag in the association that existed (5.2.2)
    uint32_t peerTieTag{0};      //!< the peer's tag in that association
    uint16_t localPort{0};
    uint16_t peerPort{0};
    bool peerForwardTsn{false}; //!< the peer supports PR-SCTP (RFC 3758)
    bool peerIData{false};      //!< the peer lists I-DATA in Supported Extensions (RFC 8260)
    bool peerReconfig{false};   //!< the peer lists RE-CONFIG in Supported Extensions (RFC 6525)
    /** Peer transport addresses (IP only): the INIT's source first, then its list. */
    std::vector<Address> peerAddresses;

    /** Serialize and append the MAC computed with \p key. */
    std::vector<uint8_t> Seal(const std::vector<uint8_t>& key) const;

    /**
     * Verify the MAC with \p key and parse.
     * \return false if the cookie is malformed or its MAC does not match.
     */
    bool Open(const std::vector<uint8_t>& key, const std::vector<uint8_t>& sealed);

    /** \return how long ago the cookie expired, or zero/negative if still valid. */
    Time GetStaleness(Time now) const;
};

} // namespace ns3

#endif /* SCTP_COOKIE_H */
