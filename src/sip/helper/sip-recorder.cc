#include "sip-recorder.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SipRecorder");

NS_OBJECT_ENSURE_REGISTERED(SipRecorder);

TypeId
SipRecorder::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SipRecorder")
                            .SetParent<Object>()
                            .SetGroupName("Sip")
                            .AddConstructor<SipRecorder>();
    return tid;
}

SipRecorder::SipRecorder() = default;

SipRecorder::~SipRecorder() = default;

uint8_t
SipRecorder::MethodCode(const std::string& method)
{
    static const char* methods[] = {"REGISTER", "INVITE", "ACK", "BYE", "CANCEL", "OPTIONS"};
    for (uint8_t i = 0; i < 6; ++i)
    {
        if (method == methods[i])
        {
            return i;
        }
    }
    return 255;
}

bool
SipRecorder::WatchStack(Ptr<SipStack> stack, uint32_t endpoint)
{
    Callback<void, const SipTransactionRecord&> cb(
        [this, endpoint](const SipTransactionRecord& r) { TransactionEnded(endpoint, r); });
    return stack->TraceConnectWithoutContext("TransactionEnd", cb);
}

bool
SipRecorder::WatchUserAgent(Ptr<SipUserAgent> agent, uint32_t endpoint)
{
    Callback<void, const SipCallRecord&> calls(
        [this, endpoint](const SipCallRecord& r) { CallEnded(endpoint, r); });
    Callback<void, int32_t, Time> registered(
        [this, endpoint](int32_t status, Time duration) { Registered(endpoint, status, duration); });
    return agent->TraceConnectWithoutContext("CallEnd", calls) &&
           agent->TraceConnectWithoutContext("Registered", registered);
}

bool
SipRecorder::WatchTransport(Ptr<SipTransport> transport, uint32_t endpoint)
{
    Callback<void, Ptr<const SipMessage>, const SipTransportEvent&> tx(
        [this, endpoint](Ptr<const SipMessage> m, const SipTransportEvent& e) {
            Message(endpoint, false, m, e);
        });
    Callback<void, Ptr<const SipMessage>, const SipTransportEvent&> rx(
        [this, endpoint](Ptr<const SipMessage> m, const SipTransportEvent& e) {
            Message(endpoint, true, m, e);
        });
    return transport->TraceConnectWithoutContext("Tx", tx) &&
           transport->TraceConnectWithoutContext("Rx", rx);
}

void
SipRecorder::TransactionEnded(uint32_t endpoint, const SipTransactionRecord& r)
{
    m_txEndpoint.push_back(endpoint);
    m_txClient.push_back(r.client ? 1 : 0);
    m_txMethod.push_back(MethodCode(r.method));
    m_txStatus.push_back(r.status);
    m_txStart.push_back(r.start.GetNanoSeconds());
    m_txProvisional.push_back(r.firstProvisional.GetNanoSeconds());
    m_txEnd.push_back(r.end.GetNanoSeconds());
    m_txRetransmissions.push_back(r.retransmissions);
    m_txReliable.push_back(r.reliable ? 1 : 0);
    m_txCallId.push_back(r.callId);
}

void
SipRecorder::CallEnded(uint32_t endpoint, const SipCallRecord& r)
{
    m_callEndpoint.push_back(endpoint);
    m_callCaller.push_back(r.caller ? 1 : 0);
    m_callNumber.push_back(r.callNumber);
    const Time times[CALL_TIME_COLUMNS] = {r.inviteSent,
                                           r.trying,
                                           r.ringing,
                                           r.answered,
                                           r.ackSent,
                                           r.byeSent,
                                           r.byeDone,
                                           r.answerDelay};
    for (uint32_t i = 0; i < CALL_TIME_COLUMNS; ++i)
    {
        m_callTimes[i].push_back(times[i].GetNanoSeconds());
    }
    m_callInviteStatus.push_back(r.inviteStatus);
    m_callByeStatus.push_back(r.byeStatus);
    m_callOkRetransmissions.push_back(r.okRetransmissions);
    m_callId.push_back(r.callId);
}

void
SipRecorder::Registered(uint32_t endpoint, int32_t status, Time duration)
{
    m_regEndpoint.push_back(endpoint);
    m_regStatus.push_back(status);
    m_regEnd.push_back(Simulator::Now().GetNanoSeconds());
    m_regDuration.push_back(duration.GetNanoSeconds());
}

void
SipRecorder::Message(uint32_t endpoint,
                     bool received,
                     Ptr<const SipMessage> message,
                     const SipTransportEvent& event)
{
    m_msgEndpoint.push_back(endpoint);
    m_msgReceived.push_back(received ? 1 : 0);
    m_msgMethod.push_back(MethodCode(message->GetMethod()));
    m_msgStatus.push_back(message->IsResponse() ? message->GetStatusCode() : 0);
    m_msgSize.push_back(event.size);
    m_msgTime.push_back(Simulator::Now().GetNanoSeconds());
    m_msgStream.push_back(event.stream);
    m_msgConnection.push_back(event.connection);
    m_msgPeer.push_back(event.peer.Get());
    m_msgCallId.push_back(message->GetCallId());
}

std::size_t
SipRecorder::GetTransactionCount() const
{
    return m_txEndpoint.size();
}

const std::vector<uint32_t>&
SipRecorder::GetTxEndpoints() const
{
    return m_txEndpoint;
}

const std::vector<uint8_t>&
SipRecorder::GetTxClient() const
{
    return m_txClient;
}

const std::vector<uint8_t>&
SipRecorder::GetTxMethods() const
{
    return m_txMethod;
}

const std::vector<int32_t>&
SipRecorder::GetTxStatus() const
{
    return m_txStatus;
}

const std::vector<int64_t>&
SipRecorder::GetTxStartNs() const
{
    return m_txStart;
}

const std::vector<int64_t>&
SipRecorder::GetTxProvisionalNs() const
{
    return m_txProvisional;
}

const std::vector<int64_t>&
SipRecorder::GetTxEndNs() const
{
    return m_txEnd;
}

const std::vector<uint32_t>&
SipRecorder::GetTxRetransmissions() const
{
    return m_txRetransmissions;
}

const std::vector<uint8_t>&
SipRecorder::GetTxReliable() const
{
    return m_txReliable;
}

std::string
SipRecorder::GetTxCallId(std::size_t i) const
{
    return i < m_txCallId.size() ? m_txCallId[i] : "";
}

std::size_t
SipRecorder::GetCallCount() const
{
    return m_callEndpoint.size();
}

const std::vector<uint32_t>&
SipRecorder::GetCallEndpoints() const
{
    return m_callEndpoint;
}

const std::vector<uint8_t>&
SipRecorder::GetCallCaller() const
{
    return m_callCaller;
}

const std::vector<uint32_t>&
SipRecorder::GetCallNumbers() const
{
    return m_callNumber;
}

const std::vector<int64_t>&
SipRecorder::GetCallTimes(uint32_t column) const
{
    return m_callTimes[column < CALL_TIME_COLUMNS ? column : 0];
}

const std::vector<int32_t>&
SipRecorder::GetCallInviteStatus() const
{
    return m_callInviteStatus;
}

const std::vector<int32_t>&
SipRecorder::GetCallByeStatus() const
{
    return m_callByeStatus;
}

const std::vector<uint32_t>&
SipRecorder::GetCallOkRetransmissions() const
{
    return m_callOkRetransmissions;
}

std::string
SipRecorder::GetCallId(std::size_t i) const
{
    return i < m_callId.size() ? m_callId[i] : "";
}

const std::vector<uint32_t>&
SipRecorder::GetRegEndpoints() const
{
    return m_regEndpoint;
}

const std::vector<int32_t>&
SipRecorder::GetRegStatus() const
{
    return m_regStatus;
}

const std::vector<int64_t>&
SipRecorder::GetRegEndNs() const
{
    return m_regEnd;
}

const std::vector<int64_t>&
SipRecorder::GetRegDurationNs() const
{
    return m_regDuration;
}

std::size_t
SipRecorder::GetMessageCount() const
{
    return m_msgEndpoint.size();
}

const std::vector<uint32_t>&
SipRecorder::GetMsgEndpoints() const
{
    return m_msgEndpoint;
}

const std::vector<uint8_t>&
SipRecorder::GetMsgReceived() const
{
    return m_msgReceived;
}

const std::vector<uint8_t>&
SipRecorder::GetMsgMethods() const
{
    return m_msgMethod;
}

const std::vector<uint16_t>&
SipRecorder::GetMsgStatus() const
{
    return m_msgStatus;
}

const std::vector<uint32_t>&
SipRecorder::GetMsgSizes() const
{
    return m_msgSize;
}

const std::vector<int64_t>&
SipRecorder::GetMsgTimesNs() const
{
    return m_msgTime;
}

const std::vector<uint16_t>&
SipRecorder::GetMsgStreams() const
{
    return m_msgStream;
}

const std::vector<uint64_t>&
SipRecorder::GetMsgConnections() const
{
    return m_msgConnection;
}

const std::vector<uint32_t>&
SipRecorder::GetMsgPeers() const
{
    return m_msgPeer;
}

std::string
SipRecorder::GetMsgCallId(std::size_t i) const
{
    return i < m_msgCallId.size() ? m_msgCallId[i] : "";
}

} // namespace ns3
