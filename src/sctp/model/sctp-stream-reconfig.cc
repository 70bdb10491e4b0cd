/*
 * Stream reconfiguration (RFC 6525 section 5). See sctp-stream-reconfig.h.
 */
#include "sctp-stream-reconfig.h"

#include "sctp-association.h"
#include "sctp-path.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpStreamReconfig");

namespace
{
/** Result stored for a peer's Incoming SSN Reset Request that our Outgoing SSN Reset
 *  Request answered: its retransmission needs no Response parameter (5.2.3). */
constexpr uint32_t ANSWERED_BY_REQUEST = std::numeric_limits<uint32_t>::max();
} // namespace

std::string
SctpReconfigEventName(SctpReconfigEvent event)
{
    switch (event)
    {
    case SctpReconfigEvent::REQUEST_SENT:
        return "REQUEST_SENT";
    case SctpReconfigEvent::REQUEST_RETRANSMITTED:
        return "REQUEST_RETRANSMITTED";
    case SctpReconfigEvent::RESPONSE_RECEIVED:
        return "RESPONSE_RECEIVED";
    case SctpReconfigEvent::REQUEST_RECEIVED:
        return "REQUEST_RECEIVED";
    case SctpReconfigEvent::PERFORMED:
        return "PERFORMED";
    }
    return "UNKNOWN";
}

SctpStreamReconfig::SctpStreamReconfig(SctpAssociation& association)
    : m_association(association)
{
}

void
SctpStreamReconfig::Initialize(uint32_t localInitialTsn, uint32_t peerInitialTsn)
{
    Reset();
    m_nextRequestSeq = localInitialTsn;
    m_peerExpectedSeq = peerInitialTsn;
}

void
SctpStreamReconfig::Reset()
{
    CancelTimers();
    m_lastResults.clear();
    m_outstanding.clear();
    m_requestBytes.clear();
    m_retransmissions = 0;
    m_outgoingWaiting = false;
    m_outgoingWithIncoming = false;
    m_answersIncoming = false;
    m_resetStreams.clear();
    m_holding = false;
    m_held.clear();
    m_heldBytes = 0;
    m_deferred = false;
    m_deferredStreams.clear();
    m_performedTsnReset.clear();
    m_answerHasTsns = false;
}

void
SctpStreamReconfig::CancelTimers()
{
    Simulator::Cancel(m_timer);
}

void
SctpStreamReconfig::Announce(const SctpAssociationConfig& config, std::vector<SctpTlv>& parameters)
{
    if (!config.reconfigSupported)
    {
        return;
    }
    for (auto& p : parameters)
    {
        if (p.type == SctpTlv::SUPPORTED_EXTENSIONS)
        {
            p.value.push_back(SctpChunk::RE_CONFIG); // RFC 5061 4.2.7: one list
            return;
        }
    }
    parameters.push_back(SctpTlv::SupportedExtensions({SctpChunk::RE_CONFIG}));
}

bool
SctpStreamReconfig::IsAnnounced(const SctpInitChunk& init)
{
    const SctpTlv* extensions = init.Find(SctpTlv::SUPPORTED_EXTENSIONS);
    return extensions && extensions->ListsChunkType(SctpChunk::RE_CONFIG);
}

// ------------------------------------------------------------------ user requests (5.1)

Socket::SocketErrno
SctpStreamReconfig::RequestStreamReset(const std::vector<uint16_t>& streams,
                                       bool outgoing,
                                       bool incoming)
{
    NS_LOG_FUNCTION(this << streams.size() << outgoing << incoming);
    if (!m_association.IsReconfigNegotiated())
    {
        return Socket::ERROR_OPNOTSUPP;
    }
    if (m_association.GetState() != SCTP_ESTABLISHED)
    {
        return Socket::ERROR_NOTCONN;
    }
    if (!outgoing && !incoming)
    {
        return Socket::ERROR_INVAL;
    }
    if (HasOutstandingRequest())
    {
        return Socket::ERROR_AGAIN;
    }
    for (uint16_t s : streams)
    {
        if ((outgoing && s >= m_association.GetOutboundStreams()) ||
            (incoming && s >= m_association.GetInboundStreams()))
        {
            return Socket::ERROR_INVAL;
        }
    }
    if (!outgoing)
    {
        SendRequest({SctpReconfigParameter::IncomingReset(m_nextRequestSeq++, streams)});
        m_association.SendPending();
        return Socket::ERROR_NOTERROR;
    }
    // 5.1.2: the request goes once the data queued on the streams before it has TSNs,
    // so that its Sender's Last Assigned TSN covers all of it; what the user sends on
    // them from now on waits for the peer's answer and then starts again at SSN 0.
    m_outgoingWaiting = true;
    m_outgoingWithIncoming = incoming;
    m_answersIncoming = false;
    m_resetStreams = streams;
    m_holding = true;
    if (QueueWaitingRequest())
    {
        m_association.SendPending();
    }
    return Socket::ERROR_NOTERROR;
}

Socket::SocketErrno
SctpStreamReconfig::RequestSsnTsnReset()
{
    if (!m_association.IsReconfigNegotiated())
    {
        return Socket::ERROR_OPNOTSUPP;
    }
    if (m_association.GetState() != SCTP_ESTABLISHED)
    {
        return Socket::ERROR_NOTCONN;
    }
    // 5.1.4 renumbers both directions: the request goes only when none of our data is
    // queued or unacknowledged, and new messages wait for the answer.
    if (HasOutstandingRequest() || !m_association.GetSender().IsEmpty() || !m_held.empty())
    {
        return Socket::ERROR_AGAIN;
    }
    m_resetStreams.clear();
    m_holding = true;
    SendRequest({SctpReconfigParameter::SsnTsnReset(m_nextRequestSeq++)});
    m_association.SendPending();
    return Socket::ERROR_NOTERROR;
}

Socket::SocketErrno
SctpStreamReconfig::RequestAddStreams(uint16_t outgoing, uint16_t incoming)
{
    NS_LOG_FUNCTION(this << outgoing << incoming);
    if (!m_association.IsReconfigNegotiated())
    {
        return Socket::ERROR_OPNOTSUPP;
    }
    if (m_association.GetState() != SCTP_ESTABLISHED)
    {
        return Socket::ERROR_NOTCONN;
    }
    if (HasOutstandingRequest())
    {
        return Socket::ERROR_AGAIN;
    }
    // Stream numbers are 16 bits: at most 65535 streams each way (4.5, 4.6).
    if ((outgoing == 0 && incoming == 0) ||
        uint32_t(m_association.GetOutboundStreams()) + outgoing > 65535 ||
        uint32_t(m_association.GetInboundStreams()) + incoming > 65535)
    {
        return Socket::ERROR_INVAL;
    }
    std::vector<SctpReconfigParameter> parameters;
    if (outgoing > 0)
    {
        parameters.push_back(
            SctpReconfigParameter::AddOutgoingStreams(m_nextRequestSeq++, outgoing));
    }
    if (incoming > 0)
    {
        parameters.push_back(
            SctpReconfigParameter::AddIncomingStreams(m_nextRequestSeq++, incoming));
    }
    SendRequest(parameters);
    m_association.SendPending();
    return Socket::ERROR_NOTERROR;
}

bool
SctpStreamReconfig::HasOutstandingRequest() const
{
    return !m_outstanding.empty() || m_outgoingWaiting;
}

uint32_t
SctpStreamReconfig::GetNextRequestSequenceNumber() const
{
    return m_nextRequestSeq;
}

uint32_t
SctpStreamReconfig::GetRetransmissionCount() const
{
    return m_retransmissions;
}

// ------------------------------------------------------------------ sending side

bool
SctpStreamReconfig::IsHeldStream(uint16_t streamId) const
{
    return m_holding && (m_resetStreams.empty() ||
                         std::find(m_resetStreams.begin(), m_resetStreams.end(), streamId) !=
                             m_resetStreams.end());
}

bool
SctpStreamReconfig::HoldMessage(Ptr<SctpOutboundMessage> message)
{
    if (!IsHeldStream(message->streamId))
    {
        return false;
    }
    NS_LOG_LOGIC(this << " message on stream " << message->streamId
                      << " held until its reset is answered");
    m_heldBytes += static_cast<uint32_t>(message->data.size());
    m_held.push_back(message);
    return true;
}

uint32_t
SctpStreamReconfig::GetHeldBytes() const
{
    return m_heldBytes;
}

bool
SctpStreamReconfig::HasUnsentData(const std::vector<uint16_t>& streams) const
{
    for (const auto& m : m_association.GetSender().GetTxQueue().GetPending())
    {
        if (m->nextOffset < m->data.size() &&
            (streams.empty() ||
             std::find(streams.begin(), streams.end(), m->streamId) != streams.end()))
        {
            return true;
        }
    }
    return false;
}

bool
SctpStreamReconfig::QueueWaitingRequest()
{
    if (!m_outgoingWaiting || HasUnsentData(m_resetStreams))
    {
        return false;
    }
    m_outgoingWaiting = false;
    // 4.1: the Response Sequence Number is the Incoming request this one answers, or
    // else the peer's next expected sequence number minus one.
    uint32_t responseSeq = m_answersIncoming ? m_answeredSeq : m_peerExpectedSeq - 1;
    uint32_t lastTsn = m_association.GetSender().GetNextTsn() - 1;
    std::vector<SctpReconfigParameter> parameters{
        SctpReconfigParameter::OutgoingReset(m_nextRequestSeq++,
                                             responseSeq,
                                             lastTsn,
                                             m_resetStreams)};
    if (m_outgoingWithIncoming)
    {
        parameters.push_back(
            SctpReconfigParameter::IncomingReset(m_nextRequestSeq++, m_resetStreams));
    }
    SendRequest(parameters);
    return true;
}

void
SctpStreamReconfig::SendRequest(const std::vector<SctpReconfigParameter>& parameters)
{
    SctpReconfigChunk chunk;
    chunk.parameters = parameters;
    m_requestBytes = chunk.ToBytes();
    m_outstanding = parameters;
    m_association.QueueControlChunk(m_requestBytes);
    for (const auto& p : parameters)
    {
        NS_LOG_INFO(this << " request " << SctpReconfigParameter::TypeName(p.type) << " seq "
                         << p.sequenceNumber);
        m_association.GetTraces().reconfig(SctpReconfigEvent::REQUEST_SENT,
                                           p.type,
                                           p.sequenceNumber,
                                           0);
    }
    // 5.1.1: the request is retransmitted after an RTO of the destination it goes to
    // (the primary path's) until a response arrives, backed off like T3-rtx.
    Ptr<SctpPath> primary = m_association.GetPathManager().GetPrimaryPath();
    m_timeout = primary ? primary->GetRto() : m_association.GetParameters().rtoInitial;
    StartTimer();
}

void
SctpStreamReconfig::StartTimer()
{
    Simulator::Cancel(m_timer);
    m_timer = Simulator::Schedule(m_timeout, &SctpStreamReconfig::OnTimer, this);
}

void
SctpStreamReconfig::OnTimer()
{
    if (m_outstanding.empty() || !m_association.IsUp())
    {
        return;
    }
    // An unanswered request counts against Association.Max.Retrans like any other
    // retransmission (RFC 9260 8.1); the association may end here.
    if (!m_association.CountAssociationError())
    {
        return;
    }
    ++m_retransmissions;
    m_timeout = std::min(2 * m_timeout, m_association.GetParameters().rtoMax);
    m_association.QueueControlChunk(m_requestBytes);
    for (const auto& p : m_outstanding)
    {
        NS_LOG_INFO(this << " retransmitting request seq " << p.sequenceNumber);
        m_association.GetTraces().reconfig(SctpReconfigEvent::REQUEST_RETRANSMITTED,
                                           p.type,
                                           p.sequenceNumber,
                                           0);
    }
    StartTimer();
    m_association.SendPending();
}

void
SctpStreamReconfig::Answered(uint32_t sequenceNumber, uint32_t result)
{
    auto it = std::find_if(m_outstanding.begin(),
                           m_outstanding.end(),
                           [sequenceNumber](const SctpReconfigParameter& p) {
                               return p.sequenceNumber == sequenceNumber;
                           });
    if (it == m_outstanding.end())
    {
        NS_LOG_LOGIC(this << " response to no outstanding request (seq " << sequenceNumber
                          << "): ignored");
        return;
    }
    SctpReconfigParameter request = *it;
    NS_LOG_INFO(this << " " << SctpReconfigParameter::TypeName(request.type) << " seq "
                     << sequenceNumber << ": " << SctpReconfigParameter::ResultName(result));
    m_association.GetTraces().reconfig(SctpReconfigEvent::RESPONSE_RECEIVED,
                                       request.type,
                                       sequenceNumber,
                                       result);
    // An answer proves the peer alive: the expiries of this request's timer so far do
    // not count towards Association.Max.Retrans any more (as a SACK's, RFC 9260 8.1).
    m_association.ResetAssociationErrors();
    if (result == SctpReconfigParameter::IN_PROGRESS)
    {
        // 5.2.2: the peer deferred the reset; it answers again once performed, and the
        // timer keeps the request alive meanwhile.
        return;
    }
    m_outstanding.erase(it);
    if (m_outstanding.empty())
    {
        Simulator::Cancel(m_timer);
    }
    bool performed = result == SctpReconfigParameter::SUCCESS_PERFORMED ||
                     result == SctpReconfigParameter::SUCCESS_NOTHING_TO_DO;
    SctpTxQueue& txQueue = m_association.GetSender().GetTxQueue();
    switch (request.type)
    {
    case SctpTlv::OUTGOING_SSN_RESET_REQUEST:
        if (performed)
        {
            // 5.1.2: the streams start again at SSN 0; the messages held meanwhile are
            // the first ones sent with the new numbers.
            for (uint16_t s = 0; s < txQueue.GetOutboundStreams(); ++s)
            {
                if (request.streams.empty() ||
                    std::find(request.streams.begin(), request.streams.end(), s) !=
                        request.streams.end())
                {
                    txQueue.ResetSsn(s);
                }
            }
        }
        ReleaseHeld();
        break;
    case SctpTlv::SSN_TSN_RESET_REQUEST:
        if (result == SctpReconfigParameter::SUCCESS_PERFORMED && m_answerHasTsns)
        {
            // 5.2.4 G1-G5 seen from the requester (as Linux and usrsctp do): the peer
            // sends from its Sender's Next TSN on, we from its Receiver's Next TSN; every
            // SSN starts again at 0.
            // No delayed SACK of the old numbering may follow.
            m_association.GetReceiver().CancelTimers();
            m_association.GetReceiver().Initialize(m_answerSenderNextTsn,
                                                   m_association.GetInboundStreams());
            m_association.GetSender().Initialize(m_answerReceiverNextTsn,
                                                 m_association.GetOutboundStreams());
        }
        ReleaseHeld();
        break;
    case SctpTlv::ADD_OUTGOING_STREAMS_REQUEST:
        if (performed)
        {
            txQueue.AddStreams(request.newStreams); // 5.1.5
            m_association.m_outStreams += request.newStreams;
        }
        break;
    default:
        // Incoming SSN reset and Add Incoming Streams: the peer's own request follows
        // (5.2.3, 5.2.6).
        break;
    }
}

void
SctpStreamReconfig::ReleaseHeld()
{
    m_holding = false;
    std::deque<Ptr<SctpOutboundMessage>> held;
    held.swap(m_held);
    m_heldBytes = 0;
    for (auto& m : held)
    {
        m_association.GetSender().Enqueue(m);
    }
}

// ------------------------------------------------------------------ receiving side (5.2)

void
SctpStreamReconfig::HandleChunk(const SctpChunk& chunk)
{
    SctpReconfigChunk reconfig;
    if (!reconfig.Deserialize(chunk))
    {
        NS_LOG_LOGIC(this << " malformed RE-CONFIG chunk dropped");
        return;
    }
    std::vector<SctpReconfigParameter> responses;
    for (const auto& p : reconfig.parameters)
    {
        if (!p.IsRequest())
        {
            m_answerHasTsns = p.hasNextTsns;
            m_answerSenderNextTsn = p.senderNextTsn;
            m_answerReceiverNextTsn = p.receiverNextTsn;
            Answered(p.sequenceNumber, p.result);
            continue;
        }
        SctpReconfigParameter response;
        if (HandleRequest(p, response))
        {
            responses.push_back(response);
        }
    }
    if (!responses.empty())
    {
        SendResponses(responses);
    }
    if (QueueWaitingRequest())
    {
        return; // the association's SendPending at the end of the packet sends it
    }
}

bool
SctpStreamReconfig::HandleRequest(const SctpReconfigParameter& request,
                                  SctpReconfigParameter& response)
{
    uint32_t result;
    bool respond = true;
    if (request.sequenceNumber == m_peerExpectedSeq)
    {
        result = ProcessRequest(request, respond);
        ++m_peerExpectedSeq;
        m_lastResults[request.sequenceNumber] = respond ? result : ANSWERED_BY_REQUEST;
        m_lastResults.erase(request.sequenceNumber - 2); // 5.2.1 keeps two
    }
    else if (auto it = m_lastResults.find(request.sequenceNumber); it != m_lastResults.end())
    {
        // 5.2.1: a retransmission of one of the last two requests gets the same answer,
        // but an SSN/TSN reset that waited for our data to be acknowledged is tried again.
        if (it->second == SctpReconfigParameter::IN_PROGRESS &&
            request.type == SctpTlv::SSN_TSN_RESET_REQUEST)
        {
            it->second = ProcessRequest(request, respond);
        }
        result = it->second;
        respond = result != ANSWERED_BY_REQUEST;
        NS_LOG_LOGIC(this << " retransmitted request seq " << request.sequenceNumber);
    }
    else
    {
        result = SctpReconfigParameter::ERROR_BAD_SEQUENCE_NUMBER;
    }
    m_association.GetTraces().reconfig(SctpReconfigEvent::REQUEST_RECEIVED,
                                       request.type,
                                       request.sequenceNumber,
                                       respond ? result
                                               : SctpReconfigParameter::SUCCESS_PERFORMED);
    if (respond)
    {
        response = SctpReconfigParameter::Response(request.sequenceNumber, result);
        if (request.type == SctpTlv::SSN_TSN_RESET_REQUEST &&
            result == SctpReconfigParameter::SUCCESS_PERFORMED)
        {
            // 4.4: the answer to an SSN/TSN reset carries both new TSNs.
            response.hasNextTsns = true;
            response.senderNextTsn = m_tsnResetSenderNext;
            response.receiverNextTsn = m_tsnResetReceiverNext;
        }
    }
    return respond;
}

uint32_t
SctpStreamReconfig::ProcessRequest(const SctpReconfigParameter& request, bool& respond)
{
    respond = true;
    uint16_t inbound = m_association.GetInboundStreams();
    uint16_t outbound = m_association.GetOutboundStreams();
    switch (request.type)
    {
    case SctpTlv::OUTGOING_SSN_RESET_REQUEST: {
        // 5.2.2 E1: it may answer our Incoming SSN Reset Request.
        for (const auto& p : std::vector<SctpReconfigParameter>(m_outstanding))
        {
            if (p.type == SctpTlv::INCOMING_SSN_RESET_REQUEST &&
                p.sequenceNumber == request.responseSequenceNumber)
            {
                Answered(p.sequenceNumber, SctpReconfigParameter::SUCCESS_PERFORMED);
            }
        }
        for (uint16_t s : request.streams)
        {
            if (s >= inbound)
            {
                return SctpReconfigParameter::DENIED;
            }
        }
        uint32_t cumTsn = m_association.GetReceiver().GetCumulativeTsn();
        if (SctpTsnLe(request.lastAssignedTsn, cumTsn))
        {
            ResetIncoming(request.streams); // E3
            return SctpReconfigParameter::SUCCESS_PERFORMED;
        }
        if (m_deferred)
        {
            return SctpReconfigParameter::ERROR_REQUEST_ALREADY_IN_PROGRESS;
        }
        // E2: data up to the Sender's Last Assigned TSN is still missing: the reset
        // waits for the cumulative TSN to reach it (AfterDataPacket).
        m_deferred = true;
        m_deferredSeq = request.sequenceNumber;
        m_deferredTsn = request.lastAssignedTsn;
        m_deferredStreams = request.streams;
        return SctpReconfigParameter::IN_PROGRESS;
    }
    case SctpTlv::INCOMING_SSN_RESET_REQUEST:
        // 5.2.3: answered by an Outgoing SSN Reset Request of ours for those streams.
        for (uint16_t s : request.streams)
        {
            if (s >= outbound)
            {
                return SctpReconfigParameter::DENIED;
            }
        }
        if (HasOutstandingRequest())
        {
            return SctpReconfigParameter::ERROR_REQUEST_ALREADY_IN_PROGRESS;
        }
        m_outgoingWaiting = true;
        m_outgoingWithIncoming = false;
        m_answersIncoming = true;
        m_answeredSeq = request.sequenceNumber;
        m_resetStreams = request.streams;
        m_holding = true;
        respond = false;
        return SctpReconfigParameter::SUCCESS_PERFORMED;
    case SctpTlv::SSN_TSN_RESET_REQUEST: {
        if (m_performedTsnReset.count(request.sequenceNumber))
        {
            return SctpReconfigParameter::SUCCESS_PERFORMED; // already done, same TSNs
        }
        // Our own data must be acknowledged first (as Linux does): "In progress" until
        // then, and the peer's retransmission tries again.
        if (!m_association.GetSender().IsEmpty() || HasOutstandingRequest())
        {
            return SctpReconfigParameter::IN_PROGRESS;
        }
        // 5.2.4 G1: the peer's next TSN is the smallest we have not acknowledged plus
        // 2^31; G2: ours is the next we would have sent; G3, G4: as if a SACK and a
        // FORWARD TSN up to those had arrived (nothing is outstanding either way);
        // G5: every SSN starts again at 0.
        SctpReceiver& receiver = m_association.GetReceiver();
        m_tsnResetReceiverNext = receiver.GetCumulativeTsn() + 1 + (1u << 31);
        m_tsnResetSenderNext = m_association.GetSender().GetNextTsn();
        receiver.CancelTimers(); // no delayed SACK of the old numbering may follow
        receiver.Initialize(m_tsnResetReceiverNext, inbound);
        m_association.GetSender().Initialize(m_tsnResetSenderNext, outbound);
        m_performedTsnReset.insert(request.sequenceNumber);
        return SctpReconfigParameter::SUCCESS_PERFORMED;
    }
    case SctpTlv::ADD_OUTGOING_STREAMS_REQUEST:
        // 5.2.5: the peer adds outgoing streams, so we add incoming ones.
        if (uint32_t(inbound) + request.newStreams > 65535)
        {
            return SctpReconfigParameter::DENIED;
        }
        m_association.GetReceiver().AddInboundStreams(request.newStreams);
        m_association.m_inStreams += request.newStreams;
        return SctpReconfigParameter::SUCCESS_PERFORMED;
    case SctpTlv::ADD_INCOMING_STREAMS_REQUEST:
        // 5.2.6: we add outgoing streams with an Add Outgoing Streams Request of ours.
        if (uint32_t(outbound) + request.newStreams > 65535)
        {
            return SctpReconfigParameter::DENIED;
        }
        if (HasOutstandingRequest())
        {
            return SctpReconfigParameter::ERROR_REQUEST_ALREADY_IN_PROGRESS;
        }
        SendRequest(
            {SctpReconfigParameter::AddOutgoingStreams(m_nextRequestSeq++, request.newStreams)});
        return SctpReconfigParameter::SUCCESS_PERFORMED;
    default:
        return SctpReconfigParameter::DENIED;
    }
}

void
SctpStreamReconfig::ResetIncoming(const std::vector<uint16_t>& streams)
{
    // 5.2.2 E3: the streams named (all if none) expect sequence number 0 again, the
    // SSN of DATA or, with I-DATA negotiated, the MID (RFC 8260 2.3.2).
    SctpReceiver& receiver = m_association.GetReceiver();
    uint16_t inbound = m_association.GetInboundStreams();
    for (uint16_t s = 0; s < inbound; ++s)
    {
        if (streams.empty() || std::find(streams.begin(), streams.end(), s) != streams.end())
        {
            receiver.ResetInboundStream(s);
        }
    }
}

void
SctpStreamReconfig::SendResponses(const std::vector<SctpReconfigParameter>& responses)
{
    // 3.1: a RE-CONFIG chunk carries at most two responses.
    for (std::size_t i = 0; i < responses.size(); i += 2)
    {
        SctpReconfigChunk chunk;
        chunk.parameters.assign(responses.begin() + i,
                                responses.begin() + std::min(i + 2, responses.size()));
        m_association.QueueControlChunk(chunk.ToBytes());
    }
}

void
SctpStreamReconfig::AfterDataPacket()
{
    if (!m_deferred ||
        !SctpTsnLe(m_deferredTsn, m_association.GetReceiver().GetCumulativeTsn()))
    {
        return;
    }
    m_deferred = false;
    ResetIncoming(m_deferredStreams);
    NS_LOG_INFO(this << " deferred reset seq " << m_deferredSeq << " performed");
    m_association.GetTraces().reconfig(SctpReconfigEvent::PERFORMED,
                                       SctpTlv::OUTGOING_SSN_RESET_REQUEST,
                                       m_deferredSeq,
                                       SctpReconfigParameter::SUCCESS_PERFORMED);
    if (m_lastResults.count(m_deferredSeq))
    {
        m_lastResults[m_deferredSeq] = SctpReconfigParameter::SUCCESS_PERFORMED;
    }
    // The peer was told "In progress": tell it the reset is done rather than make it
    // wait for its retransmission timer (usrsctp does the same).
    SendResponses({SctpReconfigParameter::Response(m_deferredSeq,
                                                   SctpReconfigParameter::SUCCESS_PERFORMED)});
}

} // namespace ns3
