/*
 * SIP transactions, calls, registrations and messages recorded in C++ and
 * handed to Python as columns (Python callables cannot be ns-3 callbacks, and
 * a Python call per message would dominate the run time).
 */
#ifndef SIP_RECORDER_H
#define SIP_RECORDER_H

#include "ns3/object.h"
#include "ns3/sip-call-record.h"
#include "ns3/sip-stack.h"
#include "ns3/sip-transaction-record.h"
#include "ns3/sip-transport.h"
#include "ns3/sip-user-agent.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup sip
 * \brief Collects SIP events into column vectors.
 *
 * Four tables, each identified by a user-chosen element id (the "endpoint"):
 *  - transactions: one row per transaction outcome (SipStack TransactionEnd);
 *  - calls: one row per call end (SipUserAgent CallEnd), caller and callee;
 *  - registrations: one row per REGISTER outcome (SipUserAgent Registered);
 *  - messages: one row per message sent or received (SipTransport Tx/Rx).
 *
 * Methods are stored as codes: see MethodCode().
 */
class SipRecorder : public Object
{
  public:
    static TypeId GetTypeId();
    SipRecorder();
    ~SipRecorder() override;

    /** 0 REGISTER, 1 INVITE, 2 ACK, 3 BYE, 4 CANCEL, 5 OPTIONS, 255 other. */
    static uint8_t MethodCode(const std::string& method);

    bool WatchStack(Ptr<SipStack> stack, uint32_t endpoint);
    bool WatchUserAgent(Ptr<SipUserAgent> agent, uint32_t endpoint);
    bool WatchTransport(Ptr<SipTransport> transport, uint32_t endpoint);

    // transactions
    std::size_t GetTransactionCount() const;
    const std::vector<uint32_t>& GetTxEndpoints() const;
    const std::vector<uint8_t>& GetTxClient() const;
    const std::vector<uint8_t>& GetTxMethods() const;
    const std::vector<int32_t>& GetTxStatus() const;
    const std::vector<int64_t>& GetTxStartNs() const;
    const std::vector<int64_t>& GetTxProvisionalNs() const;
    const std::vector<int64_t>& GetTxEndNs() const;
    const std::vector<uint32_t>& GetTxRetransmissions() const;
    const std::vector<uint8_t>& GetTxReliable() const;
    /** Call-ID of transaction \p i. */
    std::string GetTxCallId(std::size_t i) const;

    // calls
    std::size_t GetCallCount() const;
    const std::vector<uint32_t>& GetCallEndpoints() const;
    const std::vector<uint8_t>& GetCallCaller() const;
    const std::vector<uint32_t>& GetCallNumbers() const;
    /** Time columns in ns (-1: did not happen): see SipCallRecord. */
    const std::vector<int64_t>& GetCallTimes(uint32_t column) const;
    const std::vector<int32_t>& GetCallInviteStatus() const;
    const std::vector<int32_t>& GetCallByeStatus() const;
    const std::vector<uint32_t>& GetCallOkRetransmissions() const;
    std::string GetCallId(std::size_t i) const;

    // registrations
    const std::vector<uint32_t>& GetRegEndpoints() const;
    const std::vector<int32_t>& GetRegStatus() const;
    const std::vector<int64_t>& GetRegEndNs() const;
    const std::vector<int64_t>& GetRegDurationNs() const;

    // messages
    std::size_t GetMessageCount() const;
    const std::vector<uint32_t>& GetMsgEndpoints() const;
    const std::vector<uint8_t>& GetMsgReceived() const;
    const std::vector<uint8_t>& GetMsgMethods() const;
    /** Status code of responses, 0 for requests. */
    const std::vector<uint16_t>& GetMsgStatus() const;
    const std::vector<uint32_t>& GetMsgSizes() const;
    const std::vector<int64_t>& GetMsgTimesNs() const;
    const std::vector<uint16_t>& GetMsgStreams() const;
    const std::vector<uint64_t>& GetMsgConnections() const;
    const std::vector<uint32_t>& GetMsgPeers() const;
    /** Call-ID of message \p i. */
    std::string GetMsgCallId(std::size_t i) const;

    /** Number of time columns of the call table (inviteSent ... answerDelay). */
    static constexpr uint32_t CALL_TIME_COLUMNS = 8;

  private:
    void TransactionEnded(uint32_t endpoint, const SipTransactionRecord& record);
    void CallEnded(uint32_t endpoint, const SipCallRecord& record);
    void Registered(uint32_t endpoint, int32_t status, Time duration);
    void Message(uint32_t endpoint, bool received, Ptr<const SipMessage> message,
                 const SipTransportEvent& event);

    std::vector<uint32_t> m_txEndpoint;
    std::vector<uint8_t> m_txClient;
    std::vector<uint8_t> m_txMethod;
    std::vector<int32_t> m_txStatus;
    std::vector<int64_t> m_txStart;
    std::vector<int64_t> m_txProvisional;
    std::vector<int64_t> m_txEnd;
    std::vector<uint32_t> m_txRetransmissions;
    std::vector<uint8_t> m_txReliable;
    std::vector<std::string> m_txCallId;

    std::vector<uint32_t> m_callEndpoint;
    std::vector<uint8_t> m_callCaller;
    std::vector<uint32_t> m_callNumber;
    std::vector<int64_t> m_callTimes[CALL_TIME_COLUMNS];
    std::vector<int32_t> m_callInviteStatus;
    std::vector<int32_t> m_callByeStatus;
    std::vector<uint32_t> m_callOkRetransmissions;
    std::vector<std::string> m_callId;

    std::vector<uint32_t> m_regEndpoint;
    std::vector<int32_t> m_regStatus;
    std::vector<int64_t> m_regEnd;
    std::vector<int64_t> m_regDuration;

    std::vector<uint32_t> m_msgEndpoint;
    std::vector<uint8_t> m_msgReceived;
    std::vector<uint8_t> m_msgMethod;
    std::vector<uint16_t> m_msgStatus;
    std::vector<uint32_t> m_msgSize;
    std::vector<int64_t> m_msgTime;
    std::vector<uint16_t> m_msgStream;
    std::vector<uint64_t> m_msgConnection;
    std::vector<uint32_t> m_msgPeer;
    std::vector<std::string> m_msgCallId;
};

} // namespace ns3

#endif // SIP_RECORDER_H
