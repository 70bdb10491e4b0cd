/*
 * The receiving gateway of VoiceTrunkSource: takes voice messages from any socket type
 * and records, per call, which frame arrived when.
 */
#ifndef VOICE_TRUNK_SINK_H
#define VOICE_TRUNK_SINK_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/packet-event-recorder.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <list>
#include <map>

namespace ns3
{

class Packet;

/**
 * \ingroup voice
 * \brief Receives voice messages of FrameSize bytes (VoiceFrameHeader first).
 *
 * Listens on Local with the Protocol's sockets and accepts every connection or
 * association. Bytes from a socket are cut into FrameSize pieces, so the sink works
 * on byte streams (TCP) as on message sockets (UDP, SCTP, where every message is
 * one frame). Every frame is recorded as received under its call id.
 */
class VoiceTrunkSink : public Application
{
  public:
    static TypeId GetTypeId();
    VoiceTrunkSink();
    ~VoiceTrunkSink() override;

    /** Signature of the Rx trace: packet, call id, sequence number, one-way delay. */
    typedef void (*RxTracedCallback)(Ptr<const Packet> packet,
                                     uint16_t call,
                                     uint32_t seq,
                                     Time delay);

    /** \return frames received so far. */
    uint64_t GetFramesReceived() const;
    /** \return frames whose header could not be read. */
    uint64_t GetBadFrames() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    void HandleAccept(Ptr<Socket> socket, const Address& from);
    void HandleRead(Ptr<Socket> socket);
    void Deliver(Ptr<Packet> frame);

    Address m_local;
    TypeId m_protocol;
    uint32_t m_frameSize;
    Ptr<PacketEventRecorder> m_recorder;

    Ptr<Socket> m_listener;
    std::list<Ptr<Socket>> m_accepted;
    std::map<Ptr<Socket>, Ptr<Packet>> m_pending; //!< bytes of an incomplete frame, per socket
    uint64_t m_framesReceived;
    uint64_t m_badFrames;

    TracedCallback<Ptr<const Packet>, uint16_t, uint32_t, Time> m_rxTrace;
};

} // namespace ns3

#endif /* VOICE_TRUNK_SINK_H */
