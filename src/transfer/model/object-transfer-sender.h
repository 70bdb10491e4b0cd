/*
 * Several object transfers at once over one or several connections, the
 * head-of-line blocking experiment of Rajamani et al. (cited by seed 002,
 * section 3.4): the objects' records are interleaved round robin on a shared
 * connection, or each object has its own connection, or (SCTP) its own stream.
 */
#ifndef OBJECT_TRANSFER_SENDER_H
#define OBJECT_TRANSFER_SENDER_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/socket.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup transfer
 * \brief Sends Objects objects of ObjectSize bytes to Remote, in records of at most
 * RecordSize bytes (header included), one Send per record.
 *
 * With Connections = 1 all objects share one connection (association) and their
 * records alternate round robin; with Connections = Objects each object has its
 * own. With StreamPerObject (SCTP) object i goes on stream i, else on stream 0.
 * Without Interleave the objects of a connection are written one after the other
 * (as an HTTP/1.1 server answers pipelined requests); with it, their records
 * alternate round robin. Records are written whenever the socket has room for a
 * whole one.
 */
class ObjectTransferSender : public Application
{
  public:
    static TypeId GetTypeId();
    ObjectTransferSender();
    ~ObjectTransferSender() override;

    /** Bytes handed to sockets so far. */
    uint64_t GetBytesSent() const;

  protected:
    void DoDispose() override;

  private:
    struct Link
    {
        Ptr<Socket> socket;
        bool connected{false};
        std::vector<uint32_t> objects; //!< objects sent on this connection
        std::size_t next{0};           //!< round-robin position
    };

    void StartApplication() override;
    void StopApplication() override;
    void Connected(Ptr<Socket> socket);
    void ConnectFailed(Ptr<Socket> socket);
    void SendSpace(Ptr<Socket> socket, uint32_t available);
    void Fill(Link& link);

    Address m_remote;
    std::string m_socketFactory;
    uint32_t m_objects;
    uint32_t m_objectSize;
    uint32_t m_recordSize;
    uint32_t m_connections;
    bool m_streamPerObject;
    bool m_interleave;
    std::vector<Link> m_links;
    std::vector<uint32_t> m_sentOfObject;
    uint64_t m_bytesSent;
};

} // namespace ns3

#endif // OBJECT_TRANSFER_SENDER_H
