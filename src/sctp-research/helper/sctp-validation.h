// Validation against usrsctp (tools/usrsctp-oracle, transportlab.studies.sctp_validation): an error
// model that drops chosen packets, chosen TSNs or random packets exactly as the oracle's
// link model does, and a bulk-transfer flow that records what the validation compares.
#ifndef SCTP_VALIDATION_H
#define SCTP_VALIDATION_H

#include "ns3/error-model.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/sctp-socket.h"
#include "ns3/socket.h"

#include <cstdint>
#include <map>
#include <set>
#include <vector>

namespace ns3
{

/**
 * Receive error model for the forward link of a validation scenario. Packets are
 * numbered from 1 in the order they reach the device (the INIT is packet 1). A packet
 * is dropped when its number is listed, when it carries a DATA or I-DATA chunk whose TSN
 * relative to the first such TSN seen is listed and still has drops left, or (packets
 * with DATA or I-DATA only) when the random loss hash of (seed, relative TSN of the first
 * such chunk, how many times that TSN arrived before) is below the loss rate: the
 * oracle's function, so both stacks lose the same transmissions of the same data.
 */
class SctpDropErrorModel : public ErrorModel
{
  public:
    static TypeId GetTypeId();
    SctpDropErrorModel();

    void AddPacket(uint32_t number);
    void AddTsn(uint32_t relativeTsn, uint32_t times);
    void SetRandomLoss(double rate, uint64_t seed);

    uint32_t GetPacketCount() const;
    /** Dropped packets: number, time (ns), reason (0 list, 1 TSN, 2 random). */
    std::vector<uint32_t> GetDropNumbers() const;
    std::vector<int64_t> GetDropTimesNs() const;
    std::vector<uint8_t> GetDropReasons() const;

    /** The oracle's random loss decision for a transmission of a relative TSN. */
    static bool RandomLoss(double rate, uint64_t seed, uint64_t relativeTsn, uint64_t transmission);

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    uint32_t m_count{0};
    std::set<uint32_t> m_packets;
    std::map<uint32_t, uint32_t> m_tsnDropsLeft;
    std::map<uint32_t, uint32_t> m_arrivals; // relative TSN -> packets it led so far
    double m_lossRate{0};
    uint64_t m_lossSeed{1};
    bool m_haveBase{false};
    uint32_t m_tsnBase{0};
    std::vector<uint32_t> m_dropNumbers;
    std::vector<int64_t> m_dropTimes;
    std::vector<uint8_t> m_dropReasons;
};

/**
 * One SCTP bulk transfer from `client` to `server`: messages of `messageSize` bytes,
 * round-robin over `streams` streams, `totalBytes` in all, written as soon as the
 * association is up and whenever the send buffer has room. Records the client socket's
 * cwnd, ssthresh, RTO and RTT, its DATA chunks (new and retransmitted, with the kind),
 * and the receiver's deliveries, as column vectors.
 */
class SctpValidationFlow : public Object
{
  public:
    static TypeId GetTypeId();

    void Setup(Ptr<Node> client,
               Ptr<Node> server,
               Ipv4Address serverAddress,
               uint16_t port,
               uint32_t messageSize,
               uint64_t totalBytes,
               uint16_t streams,
               double startSeconds);

    /** Record packets the device's queue drops (transmit side of the forward link). */
    void WatchQueue(Ptr<NetDevice> device);
    std::vector<int64_t> GetQueueDropTimesNs() const;

    uint64_t GetDelivered() const;
    /** Completion time in ns (last byte delivered), -1 while incomplete. */
    int64_t GetCompletionNs() const;
    int64_t GetEstablishedNs() const;
    Ptr<SctpSocket> GetClientSocket() const;

    /** Series: 0 cwnd, 1 ssthresh, 2 RTO (ms), 3 RTT (ms), 4 peer rwnd. */
    std::vector<int64_t> GetSeriesTimesNs() const;
    std::vector<uint8_t> GetSeriesNames() const;
    std::vector<double> GetSeriesValues() const;
    /** DATA chunks sent: time, TSN, payload length, kind (0 new, 1 fast, 2 timeout). */
    std::vector<int64_t> GetDataTimesNs() const;
    std::vector<uint32_t> GetDataTsns() const;
    std::vector<uint32_t> GetDataLengths() const;
    std::vector<uint8_t> GetDataKinds() const;
    std::vector<int64_t> GetDeliverTimesNs() const;
    std::vector<uint32_t> GetDeliverSizes() const;

  protected:
    void DoDispose() override;

  private:
    void Start();
    void OnConnected(Ptr<Socket> s);
    void OnConnectFailed(Ptr<Socket> s);
    void OnSendSpace(Ptr<Socket> s, uint32_t available);
    void Write();
    void OnAccept(Ptr<Socket> s, const Address& from);
    void OnRecv(Ptr<Socket> s);
    void Record(uint8_t name, double value);
    void OnCwnd(uint32_t, uint32_t v);
    void OnSsthresh(uint32_t, uint32_t v);
    void OnRto(Time, Time v);
    void OnRtt(Time, Time v);
    void OnRwnd(uint32_t, uint32_t v);
    void OnTxChunk(uint8_t type, uint8_t flags, uint16_t length, uint32_t tsn);
    void OnRetransmission(uint32_t tsn, bool fast);
    void OnQueueDrop(Ptr<const Packet> p);

    Ptr<Node> m_client;
    Ptr<Node> m_server;
    Ipv4Address m_serverAddress;
    uint16_t m_port{0};
    uint32_t m_messageSize{0};
    uint64_t m_totalBytes{0};
    uint16_t m_streams{1};
    Ptr<SctpSocket> m_clientSocket;
    Ptr<Socket> m_listener;
    std::vector<Ptr<Socket>> m_accepted;
    uint64_t m_written{0};
    uint64_t m_messages{0};
    uint64_t m_delivered{0};
    int64_t m_completion{-1};
    int64_t m_established{-1};
    bool m_connected{false};
    bool m_haveSent{false};
    uint32_t m_highestTsn{0};
    std::map<uint32_t, uint8_t> m_rtxKind; // TSN -> kind of its pending retransmission

    std::vector<int64_t> m_seriesTimes;
    std::vector<uint8_t> m_seriesNames;
    std::vector<double> m_seriesValues;
    std::vector<int64_t> m_dataTimes;
    std::vector<uint32_t> m_dataTsns;
    std::vector<uint32_t> m_dataLengths;
    std::vector<uint8_t> m_dataKinds;
    std::vector<int64_t> m_deliverTimes;
    std::vector<uint32_t> m_deliverSizes;
    std::vector<int64_t> m_queueDrops;
};

} // namespace ns3

#endif // SCTP_VALIDATION_H
