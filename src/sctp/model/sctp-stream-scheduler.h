/*
 * The order in which an SCTP sender takes user messages of its streams (RFC 8260
 * section 3 calls these stream schedulers). SctpTxQueue holds the messages that still
 * have bytes without a TSN in an SctpStreamScheduler and asks it which message the next
 * DATA chunk is cut from; a message stays where it is until its last chunk is cut, so
 * with DATA chunks (no interleaving) a scheduler decides between whole messages; with
 * I-DATA (SetInterleaving) it may switch streams between any two chunks.
 *
 * SctpFcfsStreamScheduler (first come, first served: RFC 8260 3.1, SCTP_SS_FCFS) is the
 * model's default. Round robin, round robin per packet, priority, fair capacity and
 * weighted fair queueing (RFC 8260 3.2-3.6) are in sctp-stream-schedulers.h; the socket's
 * StreamScheduler attribute chooses one. Every scheduler keeps a per-stream priority and
 * weight (RFC 8260 4.3.3's SCTP_STREAM_SCHEDULER_VALUE, split into the two values the
 * schedulers read); the ones that do not use them ignore them.
 */
#ifndef SCTP_STREAM_SCHEDULER_H
#define SCTP_STREAM_SCHEDULER_H

#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <map>
#include <vector>

namespace ns3
{

class SctpOutboundMessage;

/**
 * \ingroup sctp
 * \brief Chooses the message the next DATA chunk comes from (abstract).
 */
class SctpStreamScheduler : public Object
{
  public:
    static TypeId GetTypeId();
    ~SctpStreamScheduler() override;

    /** A message accepted by Send() (its stream is message->streamId). */
    virtual void Enqueue(Ptr<SctpOutboundMessage> message) = 0;
    /** The message the next chunk is cut from, or nullptr when nothing waits. */
    virtual Ptr<SctpOutboundMessage> Peek() const = 0;
    /**
     * A chunk was cut from \p message (the one Peek() returned); \p last: it was its
     * last chunk, the message leaves the scheduler.
     */
    virtual void ChunkCut(Ptr<SctpOutboundMessage> message, bool last) = 0;
    /** Remove \p message (PR-SCTP abandoned it). \return false if it was not queued. */
    virtual bool Remove(Ptr<SctpOutboundMessage> message) = 0;
    virtual bool IsEmpty() const = 0;
    /** Every queued message, in the order Send() accepted them (oldest first). */
    virtual std::vector<Ptr<SctpOutboundMessage>> GetMessages() const = 0;
    /** Forget every message (a new association); stream priorities and weights stay. */
    virtual void Clear() = 0;
    /**
     * The sender closed a packet that carries DATA cut from this scheduler's messages
     * (the round robin per packet scheduler changes streams here; others ignore it).
     */
    virtual void PacketDone();

    /**
     * I-DATA is in use (RFC 8260 2.1, 3): a message need not be finished before a
     * message of another stream is started, so the scheduler decides at every chunk,
     * not only between messages. Off (DATA) by default.
     */
    void SetInterleaving(bool interleaving);
    bool IsInterleaving() const;

    /** Priority of \p streamId: a lower value is served first (default 0). */
    void SetStreamPriority(uint16_t streamId, uint16_t priority);
    uint16_t GetStreamPriority(uint16_t streamId) const;
    /** Weight of \p streamId (>= 1, default 1): its share of the capacity under WFQ. */
    void SetStreamWeight(uint16_t streamId, uint16_t weight);
    uint16_t GetStreamWeight(uint16_t streamId) const;

  private:
    bool m_interleaving{false};
    std::map<uint16_t, uint16_t> m_priorities; //!< streams without an entry: 0
    std::map<uint16_t, uint16_t> m_weights;    //!< streams without an entry: 1
};

/**
 * \ingroup sctp
 * \brief First come, first served (RFC 8260 3.1): messages leave in the order they
 *        were sent, whatever their stream. The model's default.
 */
class SctpFcfsStreamScheduler : public SctpStreamScheduler
{
  public:
    static TypeId GetTypeId();
    SctpFcfsStreamScheduler();
    ~SctpFcfsStreamScheduler() override;

    void Enqueue(Ptr<SctpOutboundMessage> message) override;
    Ptr<SctpOutboundMessage> Peek() const override;
    void ChunkCut(Ptr<SctpOutboundMessage> message, bool last) override;
    bool Remove(Ptr<SctpOutboundMessage> message) override;
    bool IsEmpty() const override;
    std::vector<Ptr<SctpOutboundMessage>> GetMessages() const override;
    void Clear() override;

  private:
    std::deque<Ptr<SctpOutboundMessage>> m_queue;
};

} // namespace ns3

#endif /* SCTP_STREAM_SCHEDULER_H */
