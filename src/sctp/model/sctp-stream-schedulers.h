/*
 * The stream schedulers of RFC 8260 section 3 besides first come, first served: round
 * robin (3.2), round robin per packet (3.3), priority (3.4), fair capacity (3.5) and
 * weighted fair queueing (3.6). Each keeps one queue per outgoing stream
 * (SctpStreamQueuesScheduler) and differs only in which stream's head message goes next.
 *
 * With DATA chunks the fragments of a message need consecutive TSNs (RFC 9260 6.9), so a
 * message, once its first chunk is cut, is finished before any other is started: every
 * decision below is taken between messages ("only at message boundaries", RFC 8260 3).
 * With I-DATA (RFC 8260 2.1; SctpStreamScheduler::SetInterleaving) a started message
 * keeps its stream's head and the stream is chosen again for every chunk: round robin
 * and priority pass the turn after each chunk, round robin per packet after each packet,
 * and fair queueing lets a head with a smaller finish tag go before a started message.
 */
#ifndef SCTP_STREAM_SCHEDULERS_H
#define SCTP_STREAM_SCHEDULERS_H

#include "sctp-stream-scheduler.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup sctp
 * \brief A stream scheduler with one FIFO queue per outgoing stream (abstract): the
 *        subclass chooses the stream, this class keeps the queues, the message in
 *        progress and the order in which Send() accepted the messages.
 */
class SctpStreamQueuesScheduler : public SctpStreamScheduler
{
  public:
    static TypeId GetTypeId();
    ~SctpStreamQueuesScheduler() override;

    void Enqueue(Ptr<SctpOutboundMessage> message) override;
    Ptr<SctpOutboundMessage> Peek() const override;
    void ChunkCut(Ptr<SctpOutboundMessage> message, bool last) override;
    bool Remove(Ptr<SctpOutboundMessage> message) override;
    bool IsEmpty() const override;
    std::vector<Ptr<SctpOutboundMessage>> GetMessages() const override;
    void Clear() override;

  protected:
    /** The stream whose head message starts next (called only with a stream queued). */
    virtual uint16_t SelectStream() const = 0;
    /** \p streamId has a new head message (a message arrived on an empty stream, or
     * the previous head left). */
    virtual void HeadChanged(uint16_t streamId);
    /** A chunk of \p message was cut (before MessageSent when it was the last). */
    virtual void ChunkTaken(Ptr<SctpOutboundMessage> message);
    /** The last chunk of \p message was cut; it has left its stream's queue. */
    virtual void MessageSent(Ptr<SctpOutboundMessage> message);
    /** Forget the scheduling state (a new association). */
    virtual void DoClear();

    /**
     * The first stream with queued messages after \p after in increasing stream number,
     * wrapping around (the lowest if \p after is empty), among those \p accept takes.
     */
    uint16_t NextStreamAfter(std::optional<uint16_t> after,
                             const std::function<bool(uint16_t)>& accept = nullptr) const;
    /** Streams that have queued messages, in increasing stream number. */
    std::vector<uint16_t> GetActiveStreams() const;
    bool HasMessages(uint16_t streamId) const;
    Ptr<SctpOutboundMessage> GetHead(uint16_t streamId) const;
    /** Position of \p streamId's head message in the order of Send() (ties). */
    uint64_t GetHeadArrival(uint16_t streamId) const;

  private:
    struct Entry
    {
        Ptr<SctpOutboundMessage> message;
        uint64_t arrival;
    };

    std::map<uint16_t, std::deque<Entry>> m_streams; //!< only streams with messages
    Ptr<SctpOutboundMessage> m_inProgress;           //!< chunks cut, last one not yet
    uint64_t m_arrivals{0};
};

/**
 * \ingroup sctp
 * \brief Round robin (RFC 8260 3.2, SCTP_SS_RR): one message per stream in turn,
 *        cycling over the streams that have messages in increasing stream number.
 */
class SctpRoundRobinStreamScheduler : public SctpStreamQueuesScheduler
{
  public:
    static TypeId GetTypeId();

  protected:
    uint16_t SelectStream() const override;
    void ChunkTaken(Ptr<SctpOutboundMessage> message) override;
    void MessageSent(Ptr<SctpOutboundMessage> message) override;
    void DoClear() override;

  private:
    std::optional<uint16_t> m_lastServed;
};

/**
 * \ingroup sctp
 * \brief Round robin per packet (RFC 8260 3.3, SCTP_SS_RR_PKT): the stream changes only
 *        between packets. The stream chosen for a packet fills it with its messages; when
 *        it has none left the packet takes the next stream's (a packet is not sent half
 *        empty), and the next packet starts with the stream after the packet's last one.
 */
class SctpRoundRobinPacketStreamScheduler : public SctpStreamQueuesScheduler
{
  public:
    static TypeId GetTypeId();
    void PacketDone() override;

  protected:
    uint16_t SelectStream() const override;
    void ChunkTaken(Ptr<SctpOutboundMessage> message) override;
    void DoClear() override;

  private:
    std::optional<uint16_t> m_lastServed;   //!< the last stream of the previous packet
    std::optional<uint16_t> m_packetStream; //!< the stream of the packet being built
};

/**
 * \ingroup sctp
 * \brief Priority (RFC 8260 3.4, SCTP_SS_PRIO): the streams with the lowest priority
 *        value that have messages are served first; streams of equal priority share
 *        in round robin (as Linux and usrsctp do).
 */
class SctpPriorityStreamScheduler : public SctpStreamQueuesScheduler
{
  public:
    static TypeId GetTypeId();

  protected:
    uint16_t SelectStream() const override;
    void ChunkTaken(Ptr<SctpOutboundMessage> message) override;
    void MessageSent(Ptr<SctpOutboundMessage> message) override;
    void DoClear() override;

  private:
    std::optional<uint16_t> m_lastServed;
};

/**
 * \ingroup sctp
 * \brief Weighted fair queueing (RFC 8260 3.6, SCTP_SS_WFQ) as self-clocked fair
 *        queueing over messages: a stream's head message gets the finish tag
 *        max(its previous tag, V) + bytes / weight, the smallest tag goes first (ties:
 *        the message Send() accepted first) and V becomes the tag of the message sent.
 *        Over time each busy stream gets capacity in proportion to its weight.
 */
class SctpWfqStreamScheduler : public SctpStreamQueuesScheduler
{
  public:
    static TypeId GetTypeId();

  protected:
    uint16_t SelectStream() const override;
    void HeadChanged(uint16_t streamId) override;
    void MessageSent(Ptr<SctpOutboundMessage> message) override;
    void DoClear() override;
    /** The weight the tags use (the stream's weight here). */
    virtual double GetShare(uint16_t streamId) const;

  private:
    double m_virtualTime{0};
    std::map<uint16_t, double> m_headTag; //!< finish tag of each stream's head message
    std::map<uint16_t, double> m_lastTag; //!< last tag given to each stream
};

/**
 * \ingroup sctp
 * \brief Fair capacity (RFC 8260 3.5, SCTP_SS_FC / usrsctp's fair bandwidth): weighted
 *        fair queueing with every stream's weight 1, so busy streams get equal bytes.
 */
class SctpFairCapacityStreamScheduler : public SctpWfqStreamScheduler
{
  public:
    static TypeId GetTypeId();

  protected:
    double GetShare(uint16_t streamId) const override;
};

} // namespace ns3

#endif /* SCTP_STREAM_SCHEDULERS_H */
