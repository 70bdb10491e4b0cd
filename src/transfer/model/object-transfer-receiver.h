/*
 * Receiving the objects of ObjectTransferSender and timing each one.
 */
#ifndef OBJECT_TRANSFER_RECEIVER_H
#define OBJECT_TRANSFER_RECEIVER_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup transfer
 * \brief Accepts connections on Port and counts the bytes of each object as the
 * transport delivers them to the application; an object is complete when all
 * ObjectSize bytes have arrived. Records every record's delivery (object, offset,
 * send and delivery time) for head-of-line delay statistics.
 */
class ObjectTransferReceiver : public Application
{
  public:
    /** Signature of the ObjectComplete trace: object id, completion time. */
    typedef void (*CompleteTracedCallback)(uint32_t object, Time when);

    static TypeId GetTypeId();
    ObjectTransferReceiver();
    ~ObjectTransferReceiver() override;

    /** Completion time of each object in ns, -1 if not complete. */
    const std::vector<int64_t>& GetCompletionNs() const;
    uint32_t GetCompletedCount() const;
    // one row per record delivered to the application
    const std::vector<uint32_t>& GetRecordObjects() const;
    const std::vector<uint32_t>& GetRecordOffsets() const;
    const std::vector<int64_t>& GetRecordSentNs() const;
    const std::vector<int64_t>& GetRecordDeliveredNs() const;
    /** SCTP stream of the packet that completed each record (-1 over TCP). */
    const std::vector<int32_t>& GetRecordStreams() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void Accept(Ptr<Socket> socket, const Address& from);
    void Read(Ptr<Socket> socket);
    void Parse(std::vector<uint8_t>& buffer, int32_t stream);

    std::string m_socketFactory;
    uint16_t m_port;
    uint32_t m_objects;
    uint32_t m_objectSize;
    uint32_t m_inboundStreams;
    bool m_stopWhenComplete;
    Ptr<Socket> m_listener;
    std::vector<Ptr<Socket>> m_accepted;
    std::map<Ptr<Socket>, std::vector<uint8_t>> m_buffers;
    std::vector<uint64_t> m_received;
    std::vector<int64_t> m_completion;
    uint32_t m_completed;
    std::vector<uint32_t> m_recordObject;
    std::vector<uint32_t> m_recordOffset;
    std::vector<int64_t> m_recordSent;
    std::vector<int64_t> m_recordDelivered;
    std::vector<int32_t> m_recordStream;
    TracedCallback<uint32_t, Time> m_completeTrace;
};

} // namespace ns3

#endif // OBJECT_TRANSFER_RECEIVER_H
