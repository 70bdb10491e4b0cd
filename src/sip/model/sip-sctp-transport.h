/*
 * SIP over SCTP (RFC 4168): each SIP message is one SCTP user message (SCTP
 * fragments it into DATA chunks if it exceeds the path MTU, and may bundle
 * several small ones into one packet); Content-Length is not needed for
 * framing. Which stream a message goes on is a policy (RFC 4168 section 5.1).
 */
#ifndef SIP_SCTP_TRANSPORT_H
#define SIP_SCTP_TRANSPORT_H

#include "sip-stream-transport.h"

namespace ns3
{

/**
 * \ingroup sip
 * \brief SCTP transport for SIP, one association per peer (see SipStreamTransport
 * for how associations are chosen and shared).
 *
 * StreamMapping:
 *  - PerCall (default): every concurrent call (Call-ID) gets its own outbound
 *    stream of the association, ordered delivery within it; a loss then only
 *    delays the messages of that call (no head-of-line blocking between calls).
 *    The stream is freed when the call ends; with more concurrent calls than
 *    streams, the least recently used stream is shared.
 *  - SingleUnordered: RFC 4168 section 5.1's simplest use, every message on
 *    stream 0 with the U bit set (no ordering, hence no head-of-line blocking).
 *  - SingleOrdered: every message on stream 0, in order (what a plain
 *    sendmsg() without stream information does, e.g. in the seed's plugin).
 */
class SipSctpTransport : public SipStreamTransport
{
  public:
    enum StreamMapping
    {
        PER_CALL,
        SINGLE_UNORDERED,
        SINGLE_ORDERED,
    };

    static TypeId GetTypeId();
    SipSctpTransport();
    ~SipSctpTransport() override;

    std::string GetProtocolName() const override;
    void ReleaseStreamKey(const std::string& key) override;

  protected:
    /** Always SCTP sockets with message boundaries, whatever the inherited attributes say. */
    void NotifyConstructionCompleted() override;
    void ConfigureSocket(Ptr<Socket> socket) override;
    Ptr<Packet> MakePacket(const std::string& text,
                           Connection& connection,
                           const SipDestination& destination,
                           uint16_t& stream) override;
    uint16_t GetReceivedStream(Ptr<Packet> packet) const override;

  private:
    uint16_t StreamFor(Connection& connection, const std::string& key);

    uint16_t m_streams;
    StreamMapping m_mapping;
    uint32_t m_ppid;
};

} // namespace ns3

#endif // SIP_SCTP_TRANSPORT_H
