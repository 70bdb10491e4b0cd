/*
 * Voice calls multiplexed on one socket: a VoIP gateway that sends the frames of many
 * calls over one UDP socket, one TCP connection or one SCTP association.
 */
#ifndef VOICE_TRUNK_SOURCE_H
#define VOICE_TRUNK_SOURCE_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/packet-event-recorder.h"
#include "ns3/random-variable-stream.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup voice
 * \brief Sends the voice frames of Calls calls over one socket.
 *
 * Every call produces one message of PayloadSize bytes every FrameInterval while it
 * talks; talkspurts and silences last OnTime and OffTime seconds (defaults: talk
 * forever, i.e. continuous speech without silence suppression). Each message starts
 * with a VoiceFrameHeader (call, sequence number, send time). Calls start at
 * independent uniform random offsets within StartSpread once the socket is connected,
 * and each lasts CallDuration (0: until the application stops).
 *
 * Over SCTP every message carries an SctpSendInfoTag: stream = the call's index on this
 * source when SctpStreamPerCall is set (else 0), unordered delivery when SctpUnordered
 * is set, and PR-SCTP timed reliability when SctpLifetime is positive.
 *
 * Every frame handed to the socket is recorded as sent (in the Recorder, if set, and
 * by the Tx trace), also when the socket refuses it (a full send buffer): such frames
 * are lost, as a real gateway would lose them.
 */
class VoiceTrunkSource : public Application
{
  public:
    static TypeId GetTypeId();
    VoiceTrunkSource();

    /** Signature of the Tx trace: packet, call id, sequence number. */
    typedef void (*TxTracedCallback)(Ptr<const Packet> packet, uint16_t call, uint32_t seq);
    ~VoiceTrunkSource() override;

    /** \return frames created so far. */
    uint64_t GetFramesSent() const;
    /** \return frames the socket refused. */
    uint64_t GetSendFailures() const;
    /** \return the socket (null before the application starts). */
    Ptr<Socket> GetSocket() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    void ConnectionSucceeded(Ptr<Socket> socket);
    void ConnectionFailed(Ptr<Socket> socket);
    void StartCall(uint32_t index);
    void StartTalkspurt(uint32_t index);
    void SendFrame(uint32_t index);
    /** Add the per-message SCTP metadata (stream, ordering, lifetime) to \p packet. */
    void TagForSctp(Ptr<Packet> packet, uint32_t index) const;

    /** State of one call. */
    struct Call
    {
        uint32_t seq{0};
        Time talkspurtEnd;
        Time callEnd;
        EventId next;
    };

    Address m_remote;
    TypeId m_protocol;
    uint32_t m_calls;
    uint32_t m_firstCall;
    uint32_t m_payloadSize;
    Time m_frameInterval;
    Time m_startSpread;
    Time m_callDuration;
    Ptr<RandomVariableStream> m_onTime;
    Ptr<RandomVariableStream> m_offTime;
    Ptr<UniformRandomVariable> m_startOffset;
    Ptr<PacketEventRecorder> m_recorder;
    bool m_sctpStreamPerCall;
    bool m_sctpUnordered;
    Time m_sctpLifetime;
    bool m_sctp; //!< Protocol is SCTP (messages get an SctpSendInfoTag)

    Ptr<Socket> m_socket;
    bool m_connected;
    std::vector<Call> m_state;
    uint64_t m_framesSent;
    uint64_t m_sendFailures;

    /** A frame was created: packet, call id, sequence number. */
    TracedCallback<Ptr<const Packet>, uint16_t, uint32_t> m_txTrace;
};

} // namespace ns3

#endif /* VOICE_TRUNK_SOURCE_H */
