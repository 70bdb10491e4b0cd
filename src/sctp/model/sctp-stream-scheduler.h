/*
 * The order in which an SCTP sender takes user messages of its streams (RFC 8260
 * section 3 calls these stream schedulers). SctpTxQueue holds the messages that still
 * have bytes without a TSN in an SctpStreamScheduler and asks it which message the next
 * DATA chunk is cut from; a message stays where it is until its last chunk is cut, so
 * with DATA chunks (no interleaving) a scheduler decides between whole messages.
 *
 * SctpFcfsStreamScheduler (first come, first served: RFC 8260 3.1, SCTP_SS_FCFS) is the
 * model's scheduler. Round robin, priority or weighted fair queueing (RFC 8260 3.2-3.6)
 * are further subclasses; with I-DATA (RFC 8260 2.1) a scheduler may also switch
 * between messages after any chunk, which ChunkCut() tells it about.
 */
#ifndef SCTP_STREAM_SCHEDULER_H
#define SCTP_STREAM_SCHEDULER_H

#include "ns3/object.h"
#include "ns3/ptr.h"

#include <deque>
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
    /** Forget every message (a new association). */
    virtual void Clear() = 0;
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
