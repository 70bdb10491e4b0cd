/*
 * Per-packet application events recorded in C++ and handed to Python in bulk.
 *
 * Python callables cannot be ns-3 callbacks (cppyy cannot turn them into
 * ns3::Callback), and calling into Python once per packet would dominate the
 * run time anyway. So the trace sinks live here, append to column vectors,
 * and Python reads the columns once after Simulator::Run().
 */
#ifndef PACKET_EVENT_RECORDER_H
#define PACKET_EVENT_RECORDER_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/seq-ts-size-header.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Records application-level send and receive events as columns.
 *
 * One row per event: kind (0 = sent by the application, 1 = received by the
 * application), flow id (chosen by the user), sequence number, size in bytes,
 * event time and, for receptions, the send time carried in the packet's
 * SeqTsSizeHeader.
 *
 * Sources: any application with a "TxWithSeqTsSize" trace source (OnOff,
 * BulkSend) and any with "RxWithSeqTsSize" (PacketSink). Set the
 * application's EnableSeqTsSizeHeader attribute to true on both ends.
 */
class PacketEventRecorder : public Object
{
  public:
    /** Event kinds as stored in the Kind column. */
    enum Kind : uint8_t
    {
        SENT = 0,
        RECEIVED = 1,
    };

    static TypeId GetTypeId();
    PacketEventRecorder();
    ~PacketEventRecorder() override;

    /**
     * Record every packet \p app sends, under \p flowId.
     * \return false if the application has no TxWithSeqTsSize trace source.
     */
    bool WatchSender(Ptr<Application> app, uint32_t flowId);

    /**
     * Record every packet \p app receives, under \p flowId.
     * \return false if the application has no RxWithSeqTsSize trace source.
     */
    bool WatchReceiver(Ptr<Application> app, uint32_t flowId);

    /** Append one event (for C++ applications that record directly). */
    void Record(Kind kind, uint32_t flowId, uint64_t seq, uint32_t size, Time sent);

    /** \return number of recorded events. */
    std::size_t GetN() const;

    /** Forget all recorded events (watched sources stay connected). */
    void Clear();

    // Column accessors; all have GetN() elements.
    const std::vector<uint8_t>& GetKinds() const;
    const std::vector<uint32_t>& GetFlows() const;
    const std::vector<uint64_t>& GetSeqs() const;
    const std::vector<uint32_t>& GetSizes() const;
    /** Event times in nanoseconds. */
    const std::vector<int64_t>& GetTimesNs() const;
    /** Send time from the SeqTsSizeHeader in nanoseconds (-1 for sent events without one). */
    const std::vector<int64_t>& GetSentNs() const;

  protected:
    void DoDispose() override;

  private:
    void SentWithHeader(uint32_t flowId,
                        Ptr<const Packet> packet,
                        const Address& from,
                        const Address& to,
                        const SeqTsSizeHeader& header);
    void ReceivedWithHeader(uint32_t flowId,
                            Ptr<const Packet> packet,
                            const Address& from,
                            const Address& to,
                            const SeqTsSizeHeader& header);

    std::vector<uint8_t> m_kinds;
    std::vector<uint32_t> m_flows;
    std::vector<uint64_t> m_seqs;
    std::vector<uint32_t> m_sizes;
    std::vector<int64_t> m_timesNs;
    std::vector<int64_t> m_sentNs;
    uint32_t m_reserve; //!< initial capacity of the columns (attribute)
};

} // namespace ns3

#endif // PACKET_EVENT_RECORDER_H
