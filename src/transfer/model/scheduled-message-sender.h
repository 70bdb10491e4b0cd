/*
 * Messages of given sizes, handed to one transport at given times, on given SCTP
 * streams: the application of the message interleaving study (small periodic messages
 * sharing an association or a connection with large ones). Each message starts with a
 * SeqTsSizeHeader (sequence = message number, timestamp = the time the application
 * produced it, size = the whole message), so ns-3's PacketSink with
 * EnableSeqTsSizeHeader reports every message when the transport has delivered all
 * of it, over SCTP (one message per Recv) and TCP (a byte stream) alike.
 */
#ifndef SCHEDULED_MESSAGE_SENDER_H
#define SCHEDULED_MESSAGE_SENDER_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/nstime.h"
#include "ns3/seq-ts-size-header.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup transfer
 * \brief Sends the messages added with AddMessage() to Remote at their times.
 *
 * A message the socket cannot take yet waits in the application, in the order the
 * messages were produced (its latency counts the wait). With WholeMessages (SCTP) a
 * message goes in one Send once the send buffer has room for all of it; without
 * (TCP) its bytes are written as the buffer frees (a byte stream keeps no
 * boundaries). With ConnectionPerStream each stream gets its own socket (TCP: one
 * connection per stream); otherwise one socket carries every stream, and an SCTP
 * socket puts each message on its stream (SctpSendInfoTag, ordered).
 *
 * The TxWithSeqTsSize trace fires when a message is produced (its scheduled time).
 */
class ScheduledMessageSender : public Application
{
  public:
    static TypeId GetTypeId();
    ScheduledMessageSender();
    ~ScheduledMessageSender() override;

    /**
     * Schedule a message of \p size bytes (SeqTsSizeHeader included, so at least its
     * 20 bytes) on \p stream at \p at after the application starts. Messages are
     * numbered 0, 1, ... in the order they are added (their sequence numbers).
     */
    void AddMessage(Time at, uint32_t size, uint16_t stream);
    /** Messages added. */
    uint32_t GetMessageCount() const;
    /** Messages handed whole to a socket (the last byte written). */
    uint32_t GetMessagesWritten() const;
    /** Send() calls a socket refused (it had announced room: a model error if > 0). */
    uint32_t GetSendErrors() const;
    /**
     * The socket of stream \p stream (the one shared socket without
     * ConnectionPerStream), once the application has started; nullptr before. For
     * settings only a socket has, such as an SCTP socket's stream priorities.
     */
    Ptr<Socket> GetSocket(uint16_t stream) const;

  protected:
    void DoDispose() override;

  private:
    struct Pending
    {
        uint32_t seq;
        uint32_t size;
        uint16_t stream;
        SeqTsSizeHeader header;
        uint32_t written{0}; //!< bytes already written (byte streams only)
    };

    struct Link
    {
        Ptr<Socket> socket;
        bool connected{false};
        std::deque<Pending> queue;
    };

    struct Planned
    {
        Time at;
        uint32_t size;
        uint16_t stream;
    };

    void StartApplication() override;
    void StopApplication() override;
    void Produce(uint32_t seq);
    void Connected(Ptr<Socket> socket);
    void ConnectFailed(Ptr<Socket> socket);
    void SendSpace(Ptr<Socket> socket, uint32_t available);
    Link& LinkOf(uint16_t stream);
    void Fill(Link& link);
    Ptr<Packet> Bytes(const Pending& message, uint32_t from, uint32_t length) const;

    Address m_remote;
    std::string m_socketFactory;
    bool m_wholeMessages;
    bool m_connectionPerStream;
    uint32_t m_streams;
    std::vector<Planned> m_plan;
    std::vector<EventId> m_events;
    std::vector<Link> m_links;
    uint32_t m_written;
    uint32_t m_sendErrors;
    TracedCallback<Ptr<const Packet>, const Address&, const Address&, const SeqTsSizeHeader&>
        m_txTrace;
};

} // namespace ns3

#endif // SCHEDULED_MESSAGE_SENDER_H
