/*
 * SctpAssociation, part 1: the state machine (RFC 9260 sections 4, 9), the primitives
 * the socket calls, the timers T1, T2 and T5, control chunks, the verification tag
 * rules (8.5) and the dispatch of received chunks. Set-up and collisions are in
 * sctp-association-setup.cc.
 */
#include "sctp-association.h"

#include "sctp-l4-protocol.h"
#include "sctp-socket.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpAssociation");
NS_OBJECT_ENSURE_REGISTERED(SctpAssociation);

std::string
SctpStateName(SctpState state)
{
    switch (state)
    {
    case SCTP_CLOSED:
        return "CLOSED";
    case SCTP_LISTEN:
        return "LISTEN";
    case SCTP_COOKIE_WAIT:
        return "COOKIE-WAIT";
    case SCTP_COOKIE_ECHOED:
        return "COOKIE-ECHOED";
    case SCTP_ESTABLISHED:
        return "ESTABLISHED";
    case SCTP_SHUTDOWN_PENDING:
        return "SHUTDOWN-PENDING";
    case SCTP_SHUTDOWN_SENT:
        return "SHUTDOWN-SENT";
    case SCTP_SHUTDOWN_RECEIVED:
        return "SHUTDOWN-RECEIVED";
    case SCTP_SHUTDOWN_ACK_SENT:
        return "SHUTDOWN-ACK-SENT";
    }
    return "UNKNOWN";
}

std::string
SctpPathEventName(SctpPathEvent event)
{
    switch (event)
    {
    case SctpPathEvent::AVAILABLE:
        return "AVAILABLE";
    case SctpPathEvent::UNREACHABLE:
        return "UNREACHABLE";
    case SctpPathEvent::CONFIRMED:
        return "CONFIRMED";
    case SctpPathEvent::MADE_PRIMARY:
        return "MADE_PRIMARY";
    case SctpPathEvent::DATA_PATH:
        return "DATA_PATH";
    case SctpPathEvent::POTENTIALLY_FAILED:
        return "POTENTIALLY_FAILED";
    }
    return "UNKNOWN";
}

TypeId
SctpAssociation::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpAssociation")
                            .SetParent<Object>()
                            .SetGroupName("Sctp")
                            .AddConstructor<SctpAssociation>();
    return tid;
}

SctpAssociation::SctpAssociation()
    : m_sender(*this),
      m_receiver(*this),
      m_pathManager(*this),
      m_reconfig(*this)
{
    NS_LOG_FUNCTION(this);
}

SctpAssociation::~SctpAssociation()
{
    NS_LOG_FUNCTION(this);
}

void
SctpAssociation::DoDispose()
{
    CancelAllTimers();
    m_pathManager.Dispose();
    m_congestionOps = nullptr;
    m_sctp = nullptr;
    m_socket = nullptr;
    Object::DoDispose();
}

void
SctpAssociation::SetSocket(SctpSocket* socket)
{
    m_socket = socket;
}

Ptr<SctpSocket>
SctpAssociation::GetSocket() const
{
    return m_socket;
}

void
SctpAssociation::SetSctp(Ptr<SctpL4Protocol> sctp)
{
    m_sctp = sctp;
}

void
SctpAssociation::SetCongestionOps(Ptr<SctpCongestionOps> algorithm)
{
    m_congestionOps = algorithm;
}

Ptr<SctpCongestionOps>
SctpAssociation::GetCongestionOps() const
{
    return m_congestionOps;
}

// ------------------------------------------------------------------ services for the parts

const SctpProtocolParameters&
SctpAssociation::GetParameters() const
{
    return m_socket->GetParameters();
}

const SctpAssociationConfig&
SctpAssociation::GetConfig() const
{
    return m_socket->GetConfig();
}

SctpAssociationTraces&
SctpAssociation::GetTraces()
{
    return m_socket->GetTraces();
}

Ptr<SctpL4Protocol>
SctpAssociation::GetSctp() const
{
    return m_sctp;
}

uint32_t
SctpAssociation::GetTxAvailable() const
{
    return m_socket->GetTxAvailable();
}

const Address&
SctpAssociation::GetBoundAddress() const
{
    return m_socket->GetBoundAddress();
}

Ptr<NetDevice>
SctpAssociation::GetBoundDevice() const
{
    return m_socket->GetBoundDevice();
}

std::vector<Address>
SctpAssociation::GetLocalAddresses() const
{
    return m_socket->GetLocalAddresses();
}

bool
SctpAssociation::IsProcessingPacket() const
{
    return m_processingPacket;
}

void
SctpAssociation::NotifyDataSent(uint32_t bytes)
{
    m_socket->NotifyDataSentUp(bytes);
}

void
SctpAssociation::NotifySpaceAvailable()
{
    if (IsAlive() && !m_closeRequested && !m_shutdownSend)
    {
        m_socket->NotifySpaceAvailable();
    }
}

bool
SctpAssociation::DeliverMessages(std::deque<SctpReceivedMessage>& messages)
{
    return m_socket->AcceptMessages(messages);
}

void
SctpAssociation::NotifyMessagesReady()
{
    m_socket->NotifyMessagesReady();
}

uint32_t
SctpAssociation::GetUnreadBytes() const
{
    return m_socket->GetRxAvailable();
}

// ------------------------------------------------------------------ state and inspection

SctpState
SctpAssociation::GetState() const
{
    return m_state;
}

bool
SctpAssociation::IsAlive() const
{
    return m_state != SCTP_CLOSED && m_state != SCTP_LISTEN;
}

bool
SctpAssociation::IsUp() const
{
    return IsAlive() && m_state != SCTP_COOKIE_WAIT && m_state != SCTP_COOKIE_ECHOED;
}

uint32_t
SctpAssociation::GetLocalVerificationTag() const
{
    return m_localTag;
}

uint32_t
SctpAssociation::GetPeerVerificationTag() const
{
    return m_peerTag;
}

uint16_t
SctpAssociation::GetLocalPort() const
{
    return m_localPort;
}

uint16_t
SctpAssociation::GetPeerPort() const
{
    return m_peerPort;
}

uint16_t
SctpAssociation::GetOutboundStreams() const
{
    return m_outStreams;
}

uint16_t
SctpAssociation::GetInboundStreams() const
{
    return m_inStreams;
}

bool
SctpAssociation::IsPrSctpActive() const
{
    return GetConfig().prSctpEnabled && m_peerForwardTsn;
}

bool
SctpAssociation::IsIDataNegotiated() const
{
    return GetConfig().iDataSupported && m_peerIData;
}

bool
SctpAssociation::IsReconfigNegotiated() const
{
    return GetConfig().reconfigSupported && m_peerReconfig;
}

SctpStreamReconfig&
SctpAssociation::GetStreamReconfig()
{
    return m_reconfig;
}

bool
SctpAssociation::IsClosing() const
{
    return m_shutdownSend || m_closeRequested;
}

uint32_t
SctpAssociation::GetRestartCount() const
{
    return m_restarts;
}

uint16_t
SctpAssociation::GetLastAbortCause() const
{
    return m_lastAbortCause;
}

SctpSender&
SctpAssociation::GetSender()
{
    return m_sender;
}

const SctpSender&
SctpAssociation::GetSender() const
{
    return m_sender;
}

SctpReceiver&
SctpAssociation::GetReceiver()
{
    return m_receiver;
}

const SctpReceiver&
SctpAssociation::GetReceiver() const
{
    return m_receiver;
}

SctpPathManager&
SctpAssociation::GetPathManager()
{
    return m_pathManager;
}

const SctpPathManager&
SctpAssociation::GetPathManager() const
{
    return m_pathManager;
}

std::string
SctpAssociation::CheckInvariants() const
{
    std::string problem = m_sender.CheckInvariants();
    if (problem.empty())
    {
        problem = m_pathManager.CheckInvariants();
    }
    if (problem.empty())
    {
        problem = m_receiver.CheckInvariants();
    }
    return problem;
}

// ------------------------------------------------------------------ primitives

void
SctpAssociation::Associate(const Address& peer, uint16_t peerPort)
{
    m_localPort = m_socket->GetLocalPort();
    m_peerPort = peerPort;
    m_peerConnectAddress = peer;
    NewAssociation(m_sctp->GenerateTag(), m_sctp->GenerateTsn());
    m_pathManager.SetupPaths({peer}, peer);
    m_sctp->RegisterAssociation(this, m_localPort, m_peerPort, peer);
    m_registered = true;
    m_t1Count = 0;
    m_t1Rto = GetParameters().rtoInitial;
    SetState(SCTP_COOKIE_WAIT);
    SendInit();
    StartT1();
}

void
SctpAssociation::Listen()
{
    m_localPort = m_socket->GetLocalPort();
    SetState(SCTP_LISTEN);
}

void
SctpAssociation::StopListening()
{
    SetState(SCTP_CLOSED);
}

int
SctpAssociation::Close()
{
    NS_LOG_FUNCTION(this << SctpStateName(m_state));
    switch (m_state)
    {
    case SCTP_CLOSED:
    case SCTP_LISTEN:
        return 0;
    case SCTP_COOKIE_WAIT:
        if (m_sender.IsEmpty())
        {
            // The peer holds no state yet and nothing waits: forget the association.
            DeleteAssociation(false, false);
            return 0;
        }
        m_closeRequested = true; // deliver the queued messages first, then shut down
        return 0;
    case SCTP_COOKIE_ECHOED:
        m_closeRequested = true; // shut down as soon as the COOKIE ACK arrives
        return 0;
    case SCTP_ESTABLISHED:
        m_closeRequested = true;
        SetState(SCTP_SHUTDOWN_PENDING);
        CheckShutdownProgress();
        return 0;
    default:
        m_closeRequested = true;
        return 0;
    }
}

void
SctpAssociation::ShutdownSend()
{
    m_shutdownSend = true;
    if (m_state == SCTP_ESTABLISHED)
    {
        SetState(SCTP_SHUTDOWN_PENDING);
        CheckShutdownProgress();
    }
    else if (m_state == SCTP_COOKIE_ECHOED)
    {
        m_closeRequested = true;
    }
}

bool
SctpAssociation::Abort()
{
    if (!IsAlive())
    {
        return false;
    }
    if (m_state != SCTP_COOKIE_WAIT)
    {
        SendAbort({SctpTlv::Cause(SctpTlv::USER_INITIATED_ABORT)});
    }
    m_lastAbortCause = SctpTlv::USER_INITIATED_ABORT;
    DeleteAssociation(false, false);
    return true;
}

Socket::SocketErrno
SctpAssociation::Send(Ptr<SctpOutboundMessage> message)
{
    uint32_t size = static_cast<uint32_t>(message->data.size());
    uint32_t peerBuffer = m_sender.GetPeerInitialRwnd();
    if (m_state == SCTP_ESTABLISHED && peerBuffer > 0 && size > peerBuffer)
    {
        // The peer could never reassemble it (no partial delivery, section 6.9): it would
        // fill the peer's window for good and the association would die of timeouts.
        NS_LOG_WARN(this << " Send: a " << size << "-byte message exceeds the peer's receive "
                         << "buffer (a_rwnd " << peerBuffer << "): refused");
        return Socket::ERROR_MSGSIZE;
    }
    if (size > GetTxAvailable() &&
        !(message->prPolicy == SctpPrPolicy::PRIORITY && m_state == SCTP_ESTABLISHED &&
          IsPrSctpActive() && m_sender.MakeRoomByPriority(size, message->prValue)))
    {
        return Socket::ERROR_MSGSIZE;
    }
    uint16_t streams = m_state == SCTP_ESTABLISHED ? m_outStreams : GetConfig().outboundStreams;
    if (message->streamId >= streams)
    {
        return Socket::ERROR_INVAL;
    }
    message->enqueueTime = Simulator::Now();
    if (m_reconfig.HoldMessage(message))
    {
        return Socket::ERROR_NOTERROR; // its stream is being reset (RFC 6525 5.1.2)
    }
    m_sender.Enqueue(message);
    if (m_state == SCTP_ESTABLISHED && !m_processingPacket)
    {
        // Inside packet processing (an application answering a callback) the packet's
        // own SendPending at the end bundles this message with the SACK.
        SendPending();
    }
    return Socket::ERROR_NOTERROR;
}

void
SctpAssociation::SendPending()
{
    m_sender.SendPending();
    if (m_reconfig.QueueWaitingRequest())
    {
        m_sender.SendPending(); // an outgoing SSN reset whose streams just drained
    }
}

void
SctpAssociation::OnWindowUpdate()
{
    if (IsAlive() && m_state != SCTP_COOKIE_WAIT && m_state != SCTP_COOKIE_ECHOED)
    {
        m_receiver.RequestSack();
        SendPending();
    }
}

bool
SctpAssociation::SetPrimaryPath(const Address& peer)
{
    int32_t index = m_pathManager.FindPath(peer);
    if (index < 0)
    {
        return false;
    }
    m_pathManager.MakePrimary(static_cast<uint32_t>(index));
    if (IsAlive())
    {
        m_pathManager.SelectDataPath();
    }
    return true;
}

bool
SctpAssociation::RequestHeartbeat(uint32_t index)
{
    if (index >= m_pathManager.GetNPaths() || !IsAlive() || m_state == SCTP_COOKIE_WAIT ||
        m_state == SCTP_COOKIE_ECHOED)
    {
        return false;
    }
    m_pathManager.RequestHeartbeat(index);
    return true;
}

// ------------------------------------------------------------------ association life

void
SctpAssociation::SetState(SctpState state)
{
    if (m_state != state)
    {
        NS_LOG_INFO(this << " " << SctpStateName(m_state) << " -> " << SctpStateName(state));
        m_state = state;
        GetTraces().state = state;
        if (state == SCTP_SHUTDOWN_SENT || state == SCTP_SHUTDOWN_ACK_SENT)
        {
            m_pathManager.StopHeartbeats(); // section 8.3
        }
    }
}

void
SctpAssociation::NewAssociation(uint32_t localTag, uint32_t localInitialTsn)
{
    m_localTag = localTag;
    m_peerTag = 0;
    m_localTieTag = 0;
    m_peerTieTag = 0;
    m_localInitialTsn = localInitialTsn;
    // Each association gets its own scheduler (RFC 8260 3), as it gets its own queue.
    m_sender.SetStreamScheduler(m_socket->CreateStreamScheduler());
    m_sender.Initialize(localInitialTsn, GetConfig().outboundStreams);
    m_assocErrorCount = 0;
    m_outStreams = GetConfig().outboundStreams;
    m_inStreams = GetConfig().maxInboundStreams;
    m_controlChunks.clear();
    m_cookieEcho.clear();
    m_closeRequested = false;
    m_shutdownSend = false;
}

void
SctpAssociation::InitializeTransfer(uint32_t peerInitialTsn,
                                    uint32_t peerRwnd,
                                    uint16_t outboundStreams,
                                    uint16_t inboundStreams)
{
    m_receiver.Initialize(peerInitialTsn, inboundStreams);
    m_sender.SetPeerInitialWindow(peerRwnd);
    // RFC 8260 2.2: both ends announced I-DATA, so user data goes in I-DATA both ways.
    m_sender.SetIData(IsIDataNegotiated());
    m_receiver.SetIData(IsIDataNegotiated());
    m_outStreams = outboundStreams;
    m_inStreams = inboundStreams;
    if (!m_congestionOps)
    {
        m_congestionOps = CreateObject<SctpRfc9260CongestionOps>();
    }
    m_pathManager.InitializeCongestionControl(*m_congestionOps, peerRwnd);
    m_pathManager.UpdatePrimaryTraces();
    m_reconfig.Initialize(m_localInitialTsn, peerInitialTsn);
}

void
SctpAssociation::CancelAllTimers()
{
    Simulator::Cancel(m_t1Event);
    Simulator::Cancel(m_t2Event);
    Simulator::Cancel(m_t5Event);
    m_receiver.CancelTimers();
    if (m_socket)
    {
        m_socket->CancelWindowUpdate();
    }
    m_pathManager.CancelTimers();
    m_reconfig.CancelTimers();
}

void
SctpAssociation::DeleteAssociation(bool notifyNormal, bool notifyError)
{
    NS_LOG_FUNCTION(this << notifyNormal << notifyError);
    Ptr<SctpAssociation> self = this;
    Ptr<SctpSocket> socket = m_socket;
    CancelAllTimers();
    if (m_sctp)
    {
        m_sctp->UnregisterAssociation(this);
    }
    socket->ReleaseEndpoint();
    m_registered = false;
    SctpState old = m_state;
    SetState(SCTP_CLOSED);
    // Outstanding data is gone with the association; keep flight sizes consistent.
    m_sender.Reset();
    m_controlChunks.clear();
    if (old == SCTP_COOKIE_WAIT || old == SCTP_COOKIE_ECHOED)
    {
        if (notifyNormal || notifyError)
        {
            socket->NotifyAssociationFailed();
        }
        return;
    }
    if (notifyNormal || notifyError)
    {
        socket->NotifyAssociationClosed(notifyNormal);
    }
}

bool
SctpAssociation::CountAssociationError()
{
    ++m_assocErrorCount;
    if (m_assocErrorCount > GetParameters().associationMaxRetrans)
    {
        NS_LOG_INFO(this << " Association.Max.Retrans exceeded: the peer is unreachable");
        SendAbort({SctpTlv::ProtocolViolation("Association.Max.Retrans exceeded")});
        DeleteAssociation(false, true);
        return false;
    }
    return true;
}

void
SctpAssociation::ResetAssociationErrors()
{
    m_assocErrorCount = 0;
}

// ------------------------------------------------------------------ sending control

void
SctpAssociation::SendControlTo(uint32_t verificationTag,
                               const std::vector<uint8_t>& chunks,
                               const Address& destination,
                               const Address& source,
                               Ptr<NetDevice> device)
{
    SendControlFrom(m_localPort, m_peerPort, verificationTag, chunks, destination, source, device);
}

void
SctpAssociation::SendControlFrom(uint16_t localPort,
                                 uint16_t peerPort,
                                 uint32_t verificationTag,
                                 const std::vector<uint8_t>& chunks,
                                 const Address& destination,
                                 const Address& source,
                                 Ptr<NetDevice> device)
{
    m_txBuffer.clear();
    SctpByteWriter w(m_txBuffer);
    SctpCommonHeader h;
    h.sourcePort = localPort;
    h.destinationPort = peerPort;
    h.verificationTag = verificationTag;
    h.Serialize(w);
    w.WriteBytes(chunks.data(), chunks.size());
    SctpAssociationTraces& traces = GetTraces();
    if (!traces.txChunk.IsEmpty())
    {
        std::vector<SctpChunk> views;
        SctpSplitChunks(chunks.data(), chunks.size(), views);
        for (const auto& v : views)
        {
            traces.txChunk(v.type, v.flags, v.length, 0);
        }
    }
    m_sctp->SendPacket(m_txBuffer, source, destination, device ? device : GetBoundDevice());
}

void
SctpAssociation::SendControl(uint32_t verificationTag, const std::vector<uint8_t>& chunks)
{
    if (m_pathManager.IsEmpty())
    {
        return;
    }
    // Before the association is up only the primary (the address given to Connect, or
    // the INIT's source) is known to work; afterwards control goes where data goes.
    bool up = m_state != SCTP_COOKIE_WAIT && m_state != SCTP_COOKIE_ECHOED;
    SctpPath& path = m_pathManager.At(up ? m_pathManager.SelectDataPath()
                                         : m_pathManager.GetPrimaryPathIndex());
    m_txBuffer.clear();
    SctpByteWriter w(m_txBuffer);
    SctpCommonHeader h;
    h.sourcePort = m_localPort;
    h.destinationPort = m_peerPort;
    h.verificationTag = verificationTag;
    h.Serialize(w);
    w.WriteBytes(chunks.data(), chunks.size());
    SctpAssociationTraces& traces = GetTraces();
    if (!traces.txChunk.IsEmpty() || !traces.chunkPath.IsEmpty())
    {
        std::vector<SctpChunk> views;
        SctpSplitChunks(chunks.data(), chunks.size(), views);
        for (const auto& v : views)
        {
            traces.txChunk(v.type, v.flags, v.length, 0);
            traces.chunkPath(v.type, 0, path.GetIndex(), false);
        }
    }
    m_pathManager.SendOnPath(path, m_txBuffer);
}

void
SctpAssociation::QueueControlChunk(const std::vector<uint8_t>& chunkBytes)
{
    m_controlChunks.insert(m_controlChunks.end(), chunkBytes.begin(), chunkBytes.end());
}

bool
SctpAssociation::HasLeadingChunks() const
{
    return !m_controlChunks.empty() || m_receiver.IsSackNeeded();
}

bool
SctpAssociation::WriteLeadingChunks(SctpByteWriter& w, SctpPath& path)
{
    // Control chunks lead the packet (section 6.10), then the SACK.
    bool reply = HasLeadingChunks();
    SctpAssociationTraces& traces = GetTraces();
    if (!m_controlChunks.empty())
    {
        w.WriteBytes(m_controlChunks.data(), m_controlChunks.size());
        if (!traces.txChunk.IsEmpty() || !traces.chunkPath.IsEmpty())
        {
            std::vector<SctpChunk> views;
            SctpSplitChunks(m_controlChunks.data(), m_controlChunks.size(), views);
            for (const auto& v : views)
            {
                traces.txChunk(v.type, v.flags, v.length, 0);
                traces.chunkPath(v.type, 0, path.GetIndex(), false);
            }
        }
        m_controlChunks.clear();
    }
    if (m_receiver.IsSackNeeded())
    {
        uint32_t room = m_pathManager.IsEmpty()
                            ? 1400
                            : m_pathManager.At(m_pathManager.ReplyPath()).GetPmdcs();
        m_receiver.BuildSack(w, room);
        traces.chunkPath(SctpChunk::SACK, 0, path.GetIndex(), false);
    }
    return reply;
}

void
SctpAssociation::SendAbortOnly(uint32_t tag,
                               bool tBit,
                               const std::vector<SctpTlv>& causes,
                               uint16_t localPort,
                               uint16_t peerPort,
                               const Address& destination,
                               const Address& source)
{
    std::vector<uint8_t> chunk;
    SctpByteWriter w(chunk);
    SctpErrorChunk abort;
    abort.type = SctpChunk::ABORT;
    abort.flags = tBit ? SctpChunk::FLAG_T : 0;
    abort.causes = causes;
    abort.Serialize(w);
    SendControlFrom(localPort, peerPort, tag, chunk, destination, source, nullptr);
    if (!causes.empty())
    {
        m_lastAbortCause = causes[0].type;
    }
}

void
SctpAssociation::SendAbort(const std::vector<SctpTlv>& causes)
{
    if (m_pathManager.IsEmpty())
    {
        return;
    }
    std::vector<uint8_t> chunk;
    SctpByteWriter w(chunk);
    SctpErrorChunk abort;
    abort.type = SctpChunk::ABORT;
    abort.flags = 0;
    abort.causes = causes;
    abort.Serialize(w);
    SendControl(m_peerTag, chunk);
    if (!causes.empty())
    {
        m_lastAbortCause = causes[0].type;
    }
}

void
SctpAssociation::SendError(const std::vector<SctpTlv>& causes)
{
    std::vector<uint8_t> chunk;
    SctpByteWriter w(chunk);
    SctpErrorChunk error;
    error.type = SctpChunk::ERROR;
    // The ERROR chunk must fit in one packet (and its 16-bit length): causes that do not
    // fit are left out, and a first cause alone too large (an unrecognized chunk copied
    // whole) is cut to the space left, 4-byte aligned.
    std::size_t limit = 1200;
    if (!m_pathManager.IsEmpty())
    {
        limit = m_pathManager.At(m_pathManager.ReplyPath()).GetPmdcs();
    }
    std::size_t used = 4; // chunk header
    for (const auto& cause : causes)
    {
        std::size_t size = 4 + ((cause.value.size() + 3) & ~std::size_t(3));
        if (used + size <= limit)
        {
            error.causes.push_back(cause);
            used += size;
        }
        else if (error.causes.empty() && limit >= used + 8)
        {
            SctpTlv cut = cause;
            cut.value.resize((limit - used - 4) & ~std::size_t(3));
            error.causes.push_back(std::move(cut));
            used = limit;
        }
    }
    if (error.causes.empty())
    {
        return;
    }
    error.Serialize(w);
    QueueControlChunk(chunk);
}

void
SctpAssociation::ProtocolViolation(const std::string& what)
{
    NS_LOG_INFO(this << " protocol violation: " << what);
    SendAbort({SctpTlv::ProtocolViolation(what)});
    DeleteAssociation(false, true);
}

std::vector<SctpTlv>
SctpAssociation::LocalAddressParameters() const
{
    // Section 5.1.2: list our addresses when we use several (bound to the any-address
    // on a multi-homed node, or to a list); a single address is implied by the packet's
    // source address.
    std::vector<SctpTlv> out;
    std::vector<Address> local = GetLocalAddresses();
    if (local.size() < 2)
    {
        return out;
    }
    for (const auto& a : local)
    {
        if (Ipv4Address::IsMatchingType(a))
        {
            out.push_back(SctpTlv::Ipv4Address(Ipv4Address::ConvertFrom(a)));
        }
        else
        {
            out.push_back(SctpTlv::Ipv6Address(Ipv6Address::ConvertFrom(a)));
        }
    }
    return out;
}

void
SctpAssociation::SendInit()
{
    const SctpAssociationConfig& config = GetConfig();
    SctpInitChunk init;
    init.type = SctpChunk::INIT;
    init.initiateTag = m_localTag;
    init.aRwnd = config.rcvBufSize;
    init.outboundStreams = config.outboundStreams;
    init.inboundStreams = config.maxInboundStreams;
    init.initialTsn = m_localInitialTsn;
    init.parameters = LocalAddressParameters();
    if (m_cookiePreservativeMs > 0)
    {
        init.parameters.push_back(SctpTlv::CookiePreservative(m_cookiePreservativeMs));
    }
    bool ipv6 = m_socket->IsIpv6();
    init.parameters.push_back(SctpTlv::SupportedAddressTypes(!ipv6, ipv6));
    if (config.prSctpEnabled)
    {
        init.parameters.emplace_back(SctpTlv::FORWARD_TSN_SUPPORTED, std::vector<uint8_t>());
    }
    if (config.iDataSupported)
    {
        init.parameters.push_back(SctpTlv::SupportedExtensions({SctpChunk::I_DATA}));
    }
    SctpStreamReconfig::Announce(config, init.parameters);
    std::vector<uint8_t> chunk;
    SctpByteWriter w(chunk);
    init.Serialize(w);
    SendControl(0, chunk);
}

void
SctpAssociation::SendCookieEcho()
{
    std::vector<uint8_t> chunk;
    SctpByteWriter w(chunk);
    SctpChunk::SerializeRaw(w, SctpChunk::COOKIE_ECHO, 0, m_cookieEcho.data(), m_cookieEcho.size());
    // Errors about the INIT ACK (unrecognized parameters) are bundled after the cookie.
    chunk.insert(chunk.end(), m_controlChunks.begin(), m_controlChunks.end());
    m_controlChunks.clear();
    SendControl(m_peerTag, chunk);
}

void
SctpAssociation::SendShutdown()
{
    std::vector<uint8_t> chunk;
    SctpByteWriter w(chunk);
    SctpTsnChunk shutdown;
    shutdown.type = SctpChunk::SHUTDOWN;
    shutdown.tsn = m_receiver.GetCumulativeTsn();
    shutdown.Serialize(w);
    SendControl(m_peerTag, chunk);
}

void
SctpAssociation::SendShutdownAck()
{
    std::vector<uint8_t> chunk;
    SctpByteWriter w(chunk);
    SctpChunk::SerializeEmpty(w, SctpChunk::SHUTDOWN_ACK);
    SendControl(m_peerTag, chunk);
}

void
SctpAssociation::SendShutdownComplete(bool tBit)
{
    std::vector<uint8_t> chunk;
    SctpByteWriter w(chunk);
    SctpChunk::SerializeEmpty(w, SctpChunk::SHUTDOWN_COMPLETE, tBit ? SctpChunk::FLAG_T : 0);
    SendControl(tBit ? m_localTag : m_peerTag, chunk);
}

// ------------------------------------------------------------------ timers T1, T2, T5

void
SctpAssociation::StartT1()
{
    Simulator::Cancel(m_t1Event);
    m_t1Event = Simulator::Schedule(m_t1Rto, &SctpAssociation::OnT1Expired, this);
}

void
SctpAssociation::OnT1Expired()
{
    ++m_t1Count;
    if (m_t1Count > GetParameters().maxInitRetransmits)
    {
        NS_LOG_INFO(this << " Max.Init.Retransmits exceeded in " << SctpStateName(m_state));
        DeleteAssociation(false, true);
        return;
    }
    m_t1Rto = std::min(m_t1Rto * 2, GetParameters().rtoMax);
    if (m_state == SCTP_COOKIE_WAIT)
    {
        SendInit();
    }
    else if (m_state == SCTP_COOKIE_ECHOED)
    {
        SendCookieEcho();
    }
    else
    {
        return;
    }
    StartT1();
}

void
SctpAssociation::StartT2()
{
    Simulator::Cancel(m_t2Event);
    m_t2Rto = m_pathManager.IsEmpty()
                  ? GetParameters().rtoInitial
                  : m_pathManager.At(m_pathManager.GetDataPathIndex()).GetRto();
    m_t2Event = Simulator::Schedule(m_t2Rto, &SctpAssociation::OnT2Expired, this);
}

void
SctpAssociation::OnT2Expired()
{
    if (!CountAssociationError())
    {
        return;
    }
    // Section 9.2: an error on the destination; the SHUTDOWN (ACK) is sent again, to an
    // alternate destination if this one became inactive.
    SctpPath& path = m_pathManager.At(m_pathManager.GetDataPathIndex());
    m_pathManager.RecordPathError(path);
    m_sender.BackOff(path);
    m_pathManager.UpdatePrimaryTraces();
    if (m_state == SCTP_SHUTDOWN_SENT)
    {
        SendShutdown();
    }
    else if (m_state == SCTP_SHUTDOWN_ACK_SENT)
    {
        SendShutdownAck();
    }
    else
    {
        return;
    }
    StartT2();
}

void
SctpAssociation::OnT5Expired()
{
    // T5-shutdown-guard (section 9.2): give up on a graceful shutdown.
    if (m_state == SCTP_SHUTDOWN_SENT || m_state == SCTP_SHUTDOWN_ACK_SENT)
    {
        SendAbort({});
        DeleteAssociation(false, true);
    }
}

void
SctpAssociation::CheckShutdownProgress()
{
    if (!m_sender.IsEmpty())
    {
        return;
    }
    if (m_state == SCTP_SHUTDOWN_PENDING)
    {
        SetState(SCTP_SHUTDOWN_SENT);
        SendShutdown();
        StartT2();
        Simulator::Cancel(m_t5Event);
        m_t5Event =
            Simulator::Schedule(5 * GetParameters().rtoMax, &SctpAssociation::OnT5Expired, this);
    }
    else if (m_state == SCTP_SHUTDOWN_RECEIVED)
    {
        SetState(SCTP_SHUTDOWN_ACK_SENT);
        SendShutdownAck();
        StartT2();
    }
}

// ------------------------------------------------------------------ packet processing

void
SctpAssociation::ReceivePacket(const SctpCommonHeader& header,
                               const std::vector<SctpChunk>& chunks,
                               const Address& source,
                               const Address& destination)
{
    // An ABORT may release the last reference elsewhere, to the socket too.
    Ptr<SctpAssociation> self = this;
    Ptr<SctpSocket> socket = m_socket;
    SctpAssociationTraces& traces = GetTraces();
    if (m_state == SCTP_LISTEN)
    {
        if (chunks[0].type == SctpChunk::INIT)
        {
            traces.rxChunk(chunks[0].type, chunks[0].flags, chunks[0].length, 0);
            HandleInit(header, chunks[0], source, destination);
        }
        else if (chunks[0].type == SctpChunk::COOKIE_ECHO)
        {
            traces.rxChunk(chunks[0].type, chunks[0].flags, chunks[0].length, 0);
            Ptr<SctpAssociation> association =
                HandleCookieEcho(header, chunks[0], source, destination);
            if (association)
            {
                association->ProcessChunks(header, chunks, 1, source, destination);
            }
        }
        return;
    }
    if (!IsAlive())
    {
        return;
    }
    if (!CheckVerificationTag(header, chunks, source, destination))
    {
        NS_LOG_LOGIC(this << " verification tag " << header.verificationTag << " rejected");
        return;
    }
    ProcessChunks(header, chunks, 0, source, destination);
}

bool
SctpAssociation::CheckVerificationTag(const SctpCommonHeader& header,
                                      const std::vector<SctpChunk>& chunks,
                                      const Address& source,
                                      const Address& destination)
{
    uint8_t first = chunks[0].type;
    switch (first)
    {
    case SctpChunk::INIT:
        return true; // tag 0, checked by SctpL4Protocol; collisions per section 5.2
    case SctpChunk::ABORT:
    case SctpChunk::SHUTDOWN_COMPLETE: {
        // Section 8.5.1 B and C: the T bit says which tag the packet carries.
        bool reflected = (chunks[0].flags & SctpChunk::FLAG_T) != 0;
        if (reflected)
        {
            return m_peerTag != 0 && header.verificationTag == m_peerTag;
        }
        return header.verificationTag == m_localTag;
    }
    case SctpChunk::COOKIE_ECHO:
        return true; // section 8.5.1 D: checked against the cookie (5.2.4)
    case SctpChunk::SHUTDOWN_ACK:
        if (m_state == SCTP_COOKIE_WAIT || m_state == SCTP_COOKIE_ECHOED)
        {
            // Section 8.5.1 E: treat as out of the blue: SHUTDOWN COMPLETE, T bit set.
            std::vector<uint8_t> chunk;
            SctpByteWriter w(chunk);
            SctpChunk::SerializeEmpty(w, SctpChunk::SHUTDOWN_COMPLETE, SctpChunk::FLAG_T);
            SendControlTo(header.verificationTag, chunk, source, destination);
            return false;
        }
        return header.verificationTag == m_localTag;
    default:
        return header.verificationTag == m_localTag;
    }
}

void
SctpAssociation::ProcessChunks(const SctpCommonHeader& header,
                               const std::vector<SctpChunk>& chunks,
                               std::size_t first,
                               const Address& source,
                               const Address& destination)
{
    Ptr<SctpAssociation> self = this;
    Ptr<SctpSocket> socket = m_socket;
    SctpAssociationTraces& traces = GetTraces();
    bool hadData = false;
    bool immediateSack = false;
    bool newData = false;
    std::vector<SctpTlv> unrecognized;
    int32_t sourcePath = m_pathManager.GetNPaths() > 1 ? m_pathManager.FindPath(source) : 0;
    m_processingPacket = true;
    for (std::size_t i = first; i < chunks.size(); ++i)
    {
        const SctpChunk& c = chunks[i];
        if (!IsAlive())
        {
            break;
        }
        if (c.type != SctpChunk::DATA && c.type != SctpChunk::I_DATA)
        {
            traces.rxChunk(c.type, c.flags, c.length, 0);
        }
        bool keepGoing = true;
        switch (c.type)
        {
        case SctpChunk::DATA:
            hadData = true;
            keepGoing = m_receiver.HandleData(c, immediateSack, newData);
            break;
        case SctpChunk::I_DATA:
            hadData = true;
            keepGoing = m_receiver.HandleIData(c, immediateSack, newData); // RFC 8260 2.1
            break;
        case SctpChunk::I_FORWARD_TSN:
            if (GetConfig().prSctpEnabled && IsIDataNegotiated())
            {
                bool sack = false;
                m_receiver.HandleIForwardTsn(c, sack); // RFC 8260 2.3
                if (sack)
                {
                    m_receiver.RequestSack();
                }
            }
            else
            {
                keepGoing = HandleUnknownChunk(c, unrecognized);
            }
            break;
        case SctpChunk::INIT:
            HandleInit(header, c, source, destination);
            break;
        case SctpChunk::INIT_ACK:
            keepGoing = HandleInitAck(c, source);
            break;
        case SctpChunk::SACK:
            m_sender.HandleSack(c);
            break;
        case SctpChunk::HEARTBEAT:
            HandleHeartbeat(c, source, destination);
            break;
        case SctpChunk::HEARTBEAT_ACK:
            m_pathManager.HandleHeartbeatAck(c, source);
            break;
        case SctpChunk::FORWARD_TSN:
            if (GetConfig().prSctpEnabled)
            {
                bool sack = false;
                m_receiver.HandleForwardTsn(c, sack);
                if (sack)
                {
                    m_receiver.RequestSack();
                }
            }
            else
            {
                keepGoing = HandleUnknownChunk(c, unrecognized); // RFC 3758 3.3.1
            }
            break;
        case SctpChunk::ABORT:
            // Section 8.5.1 B also for a bundled ABORT: with the T bit the packet must
            // carry the peer's tag, without it ours; otherwise the ABORT is discarded.
            if (header.verificationTag ==
                ((c.flags & SctpChunk::FLAG_T) ? m_peerTag : m_localTag))
            {
                HandleAbort(c);
            }
            keepGoing = false;
            break;
        case SctpChunk::SHUTDOWN:
            HandleShutdown(c);
            break;
        case SctpChunk::SHUTDOWN_ACK:
            HandleShutdownAck(header);
            break;
        case SctpChunk::ERROR:
            HandleError(c);
            break;
        case SctpChunk::COOKIE_ECHO:
            if (!HandleCookieEcho(header, c, source, destination))
            {
                keepGoing = false; // a rejected cookie: the rest of the packet goes too
            }
            break;
        case SctpChunk::COOKIE_ACK:
            HandleCookieAck();
            break;
        case SctpChunk::SHUTDOWN_COMPLETE:
            HandleShutdownComplete();
            keepGoing = false;
            break;
        case SctpChunk::RE_CONFIG:
            if (GetConfig().reconfigSupported)
            {
                m_reconfig.HandleChunk(c);
            }
            else
            {
                keepGoing = HandleUnknownChunk(c, unrecognized);
            }
            break;
        case SctpChunk::ECNE:
        case SctpChunk::CWR:
            // ECN (appendix A) is not negotiated: we never send the ECN-Capable
            // parameter, so a conforming peer never sends these. Skip them.
            break;
        default:
            keepGoing = HandleUnknownChunk(c, unrecognized);
            break;
        }
        if (!keepGoing)
        {
            break;
        }
    }
    m_processingPacket = false;
    if (!IsAlive())
    {
        return;
    }
    if (!unrecognized.empty())
    {
        SendError(unrecognized);
    }
    if (hadData)
    {
        // SACKs go back where the DATA came from, from the address it came to (6.4).
        m_pathManager.RecordDataArrival(sourcePath, destination);
        m_receiver.AfterDataPacket(newData, immediateSack);
        m_reconfig.AfterDataPacket();
    }
    SendPending();
}

bool
SctpAssociation::HandleUnknownChunk(const SctpChunk& chunk, std::vector<SctpTlv>& report)
{
    // Section 3.2: the two high-order bits of the type say what to do.
    uint8_t action = chunk.type >> 6;
    if (action == 1 || action == 3)
    {
        std::vector<uint8_t> raw;
        SctpByteWriter w(raw);
        w.WriteU8(chunk.type);
        w.WriteU8(chunk.flags);
        w.WriteU16(chunk.length);
        w.WriteBytes(chunk.value, chunk.valueLength);
        report.emplace_back(SctpTlv::UNRECOGNIZED_CHUNK_TYPE, std::move(raw));
    }
    return action >= 2;
}

// ------------------------------------------------------------------ ABORT, SHUTDOWN, ERROR

void
SctpAssociation::HandleAbort(const SctpChunk& chunk)
{
    SctpErrorChunk abort;
    abort.Deserialize(chunk);
    m_lastAbortCause = abort.causes.empty() ? 0 : abort.causes[0].type;
    NS_LOG_INFO(this << " ABORT received"
                     << (abort.causes.empty() ? std::string()
                                              : ": " + SctpTlv::CauseName(abort.causes[0].type)));
    DeleteAssociation(false, true);
}

void
SctpAssociation::HandleShutdown(const SctpChunk& chunk)
{
    SctpTsnChunk shutdown;
    if (!shutdown.Deserialize(chunk))
    {
        return;
    }
    switch (m_state)
    {
    case SCTP_ESTABLISHED:
    case SCTP_SHUTDOWN_PENDING:
    case SCTP_SHUTDOWN_RECEIVED:
        m_sender.ProcessCumulativeAck(shutdown.tsn);
        if (!IsAlive())
        {
            return;
        }
        if (m_state != SCTP_SHUTDOWN_RECEIVED)
        {
            SetState(SCTP_SHUTDOWN_RECEIVED);
        }
        CheckShutdownProgress();
        break;
    case SCTP_SHUTDOWN_SENT:
        // Both ends shut down: answer at once (section 9.2).
        SetState(SCTP_SHUTDOWN_ACK_SENT);
        SendShutdownAck();
        StartT2();
        break;
    default:
        break;
    }
}

void
SctpAssociation::HandleShutdownAck(const SctpCommonHeader& header)
{
    if (m_state != SCTP_SHUTDOWN_SENT && m_state != SCTP_SHUTDOWN_ACK_SENT)
    {
        return;
    }
    SendShutdownComplete(false);
    DeleteAssociation(true, false);
}

void
SctpAssociation::HandleShutdownComplete()
{
    if (m_state != SCTP_SHUTDOWN_ACK_SENT)
    {
        return;
    }
    DeleteAssociation(true, false);
}

void
SctpAssociation::HandleError(const SctpChunk& chunk)
{
    SctpErrorChunk error;
    error.Deserialize(chunk);
    for (const auto& cause : error.causes)
    {
        NS_LOG_INFO(this << " ERROR received: " << SctpTlv::CauseName(cause.type));
        if (cause.type == SctpTlv::STALE_COOKIE_ERROR && m_state == SCTP_COOKIE_ECHOED)
        {
            // Section 5.2.6: start over, asking for a longer cookie life.
            ++m_t1Count;
            if (m_t1Count > GetParameters().maxInitRetransmits)
            {
                DeleteAssociation(false, true);
                return;
            }
            uint32_t stalenessUs = 0;
            if (cause.value.size() >= 4)
            {
                SctpByteReader r(cause.value.data(), 4);
                stalenessUs = r.ReadU32();
            }
            if (GetConfig().cookiePreservative)
            {
                m_cookiePreservativeMs = std::max<uint32_t>(1, stalenessUs / 1000 * 2);
            }
            m_peerTag = 0;
            m_cookieEcho.clear();
            SetState(SCTP_COOKIE_WAIT);
            SendInit();
            StartT1();
            return;
        }
    }
}

void
SctpAssociation::HandleHeartbeat(const SctpChunk& chunk,
                                 const Address& source,
                                 const Address& destination)
{
    SctpHeartbeatChunk hb;
    if (!hb.Deserialize(chunk))
    {
        return;
    }
    // Section 8.3: echo the Heartbeat Information back in a HEARTBEAT ACK.
    hb.type = SctpChunk::HEARTBEAT_ACK;
    std::vector<uint8_t> bytes;
    SctpByteWriter w(bytes);
    hb.Serialize(w);
    // Section 6.4: the reply goes to where the HEARTBEAT came from; a multi-homed
    // endpoint sends it from the address the HEARTBEAT was sent to, through its
    // interface, so that it answers for that very path.
    int32_t index = m_pathManager.GetNPaths() > 1 ? m_pathManager.FindPath(source) : 0;
    GetTraces().chunkPath(SctpChunk::HEARTBEAT_ACK, 0, index < 0 ? 0 : index, false);
    if (m_pathManager.IsLocallyMultihomed() && m_sctp->IsLocalAddress(destination))
    {
        SendControlTo(m_peerTag,
                      bytes,
                      source,
                      destination,
                      m_pathManager.DeviceForLocalAddress(destination));
        return;
    }
    SendControlTo(m_peerTag, bytes, source, GetBoundAddress());
}

} // namespace ns3
