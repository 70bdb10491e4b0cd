/*
 * Test and fuzzing support: deliver hand-made SCTP packets to a node's SCTP stack at
 * chosen simulation times, as if IP had received them, and check the invariants of
 * watched associations after each one. Used by the hypothesis fuzzer
 * (tests/sctp/test_fuzz.py); harmless in normal simulations (nothing runs unless
 * packets are scheduled).
 */
#ifndef SCTP_PACKET_INJECTOR_H
#define SCTP_PACKET_INJECTOR_H

#include "ns3/address.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/sctp-l4-protocol.h"
#include "ns3/sctp-socket.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup sctp
 * \brief Schedules raw SCTP packets into an SctpL4Protocol.
 */
class SctpPacketInjector : public Object
{
  public:
    static TypeId GetTypeId();
    SctpPacketInjector();

    /** The protocol that receives the packets (usually the victim node's). */
    void SetProtocol(Ptr<SctpL4Protocol> sctp);

    /**
     * Deliver \p length bytes (common header first) at time \p at, from \p source to
     * \p destination. With \p fixChecksum the CRC32c is recomputed first, so the packet
     * passes the checksum test and reaches the chunk parsers.
     */
    void Schedule(Time at,
                  const uint8_t* data,
                  uint32_t length,
                  Ipv4Address source,
                  Ipv4Address destination,
                  bool fixChecksum);

    /** Check \p socket's invariants after every injected packet. */
    void Watch(Ptr<SctpSocket> socket);
    /** Watch every socket of the protocol at the time of each injection. */
    void WatchAll(bool all);

    uint32_t GetInjectedCount() const;
    /** The first invariant violation seen ("" if none). */
    std::string GetFirstViolation() const;

    /** CRC32c as SCTP uses it (for building packets in tests). */
    static uint32_t Crc32c(const uint8_t* data, uint32_t length);
    /** Recompute the checksum of an SCTP packet in place. */
    static void FixChecksum(uint8_t* data, uint32_t length);

  protected:
    void DoDispose() override;

  private:
    void Deliver(uint32_t index);
    void Check();

    struct Pending
    {
        std::vector<uint8_t> bytes;
        Ipv4Address source;
        Ipv4Address destination;
    };

    Ptr<SctpL4Protocol> m_sctp;
    std::vector<Pending> m_packets;
    std::vector<Ptr<SctpSocket>> m_watched;
    bool m_watchAll{false};
    uint32_t m_injected{0};
    std::string m_firstViolation;
};

} // namespace ns3

#endif /* SCTP_PACKET_INJECTOR_H */
