// C++ helpers for the SCTP tests, compiled by cling (cppyy.cppdef) on first use.
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/internet-module.h"
#include "ns3/sctp-module.h"
#include <vector>
#include <string>

namespace sctptest {
using namespace ns3;

inline uint8_t PatternByte(uint32_t seed, uint32_t k) { return static_cast<uint8_t>((seed * 31u + k * 7u) & 0xFF); }

/** Accepts associations on a listening socket and records every message it reads. */
class Collector : public SimpleRefCount<Collector> {
  public:
    std::vector<std::vector<uint8_t>> data;
    std::vector<uint16_t> sids;
    std::vector<uint16_t> ssns;
    std::vector<uint32_t> tsns;
    std::vector<double> times;
    std::vector<Ptr<Socket>> accepted;
    uint32_t normalCloses{0};
    uint32_t errorCloses{0};

    void Listen(Ptr<Socket> s) {
        s->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                             MakeCallback(&Collector::OnAccept, this));
        s->SetCloseCallbacks(MakeCallback(&Collector::OnNormalClose, this),
                             MakeCallback(&Collector::OnErrorClose, this));
        s->Listen();
    }
    /** Read messages from a connected socket too (both directions). */
    void Attach(Ptr<Socket> s) { s->SetRecvCallback(MakeCallback(&Collector::OnRecv, this)); }
    void OnAccept(Ptr<Socket> s, const Address&) {
        accepted.push_back(s);
        s->SetRecvCallback(MakeCallback(&Collector::OnRecv, this));
        s->SetCloseCallbacks(MakeCallback(&Collector::OnNormalClose, this),
                             MakeCallback(&Collector::OnErrorClose, this));
    }
    void OnNormalClose(Ptr<Socket>) { ++normalCloses; }
    void OnErrorClose(Ptr<Socket>) { ++errorCloses; }
    /** Leave messages unread in the socket until time t (receiver window tests). */
    void HoldUntil(double t) {
        holdUntil = t;
        Simulator::Schedule(Seconds(t) - Simulator::Now(), &Collector::Drain, this);
    }
    void Drain() { for (auto& s : accepted) OnRecv(s); }
    double holdUntil{0};
    void OnRecv(Ptr<Socket> s) {
        if (Simulator::Now().GetSeconds() < holdUntil) return;
        while (Ptr<Packet> p = s->Recv()) {
            std::vector<uint8_t> bytes(p->GetSize());
            p->CopyData(bytes.data(), bytes.size());
            SctpReceiveInfoTag tag;
            p->PeekPacketTag(tag);
            data.push_back(std::move(bytes));
            sids.push_back(tag.streamId);
            ssns.push_back(tag.ssn);
            tsns.push_back(tag.tsn);
            times.push_back(Simulator::Now().GetSeconds());
        }
    }
    size_t Count() const { return data.size(); }
    uint32_t Size(size_t i) const { return static_cast<uint32_t>(data[i].size()); }
    uint64_t TotalBytes() const { uint64_t t = 0; for (auto& d : data) t += d.size(); return t; }
    /** true if message i is the pattern Sender writes with this seed. */
    bool Matches(size_t i, uint32_t seed) const {
        for (uint32_t k = 0; k < data[i].size(); ++k)
            if (data[i][k] != PatternByte(seed, k)) return false;
        return true;
    }
    uint32_t FirstSeed(size_t i) const { return data[i].empty() ? 0 : data[i][0]; }
};

/** Sends pattern messages on a socket at scheduled times. */
class Sender : public SimpleRefCount<Sender> {
  public:
    Ptr<Socket> socket;
    uint32_t sent{0};
    uint32_t failed{0};
    std::vector<double> sendTimes;
    void At(double t, uint32_t size, uint16_t sid, bool unordered, uint32_t seed) {
        Simulator::Schedule(Seconds(t) - Simulator::Now(), &Sender::DoSend, this, size, sid, unordered, seed);
    }
    void DoSend(uint32_t size, uint16_t sid, bool unordered, uint32_t seed) {
        std::vector<uint8_t> bytes(size);
        for (uint32_t k = 0; k < size; ++k) bytes[k] = PatternByte(seed, k);
        Ptr<Packet> p = Create<Packet>(bytes.data(), size);
        SctpSendInfoTag tag(sid, 0, unordered);
        p->AddPacketTag(tag);
        if (socket->Send(p) == static_cast<int>(size)) { ++sent; sendTimes.push_back(Simulator::Now().GetSeconds()); }
        else ++failed;
    }
    /** A message with a PR-SCTP policy (0 NONE, 1 TTL ms, 2 RTX count, 3 PRIORITY). */
    void AtPr(double t, uint32_t size, uint16_t sid, bool unordered, uint32_t seed, uint8_t policy, uint32_t value) {
        Simulator::Schedule(Seconds(t) - Simulator::Now(), &Sender::DoSendPr, this, size, sid, unordered, seed, policy, value);
    }
    void DoSendPr(uint32_t size, uint16_t sid, bool unordered, uint32_t seed, uint8_t policy, uint32_t value) {
        std::vector<uint8_t> bytes(size);
        for (uint32_t k = 0; k < size; ++k) bytes[k] = PatternByte(seed, k);
        Ptr<Packet> p = Create<Packet>(bytes.data(), size);
        SctpSendInfoTag tag(sid, 0, unordered);
        tag.SetPrPolicy(static_cast<SctpPrPolicy>(policy), value);
        p->AddPacketTag(tag);
        if (socket->Send(p) == static_cast<int>(size)) { ++sent; sendTimes.push_back(Simulator::Now().GetSeconds()); }
        else ++failed;
    }
    void CloseAt(double t) { Simulator::Schedule(Seconds(t) - Simulator::Now(), &Sender::DoClose, this); }
    void DoClose() { socket->Close(); }
    void AbortAt(double t) { Simulator::Schedule(Seconds(t) - Simulator::Now(), &Sender::DoAbort, this); }
    void DoAbort() { DynamicCast<SctpSocket>(socket)->Abort(); }
    void ConnectAt(double t, Address a) { Simulator::Schedule(Seconds(t) - Simulator::Now(), &Sender::DoConnect, this, a); }
    void DoConnect(Address a) { socket->Connect(a); }
};

/** Records the State trace of a socket. */
class StateLog : public SimpleRefCount<StateLog> {
  public:
    std::vector<int> states;
    std::vector<double> times;
    void Watch(Ptr<SctpSocket> s) {
        s->TraceConnectWithoutContext("State", MakeCallback(&StateLog::OnState, this));
    }
    void OnState(SctpState, SctpState now) { states.push_back(now); times.push_back(Simulator::Now().GetSeconds()); }
};

/** Records the Retransmission trace of a socket: TSN, fast or not, time. */
class RetransmissionLog : public SimpleRefCount<RetransmissionLog> {
  public:
    std::vector<uint32_t> tsns;
    std::vector<bool> fast;
    std::vector<double> times;
    void Watch(Ptr<SctpSocket> s) {
        s->TraceConnectWithoutContext("Retransmission", MakeCallback(&RetransmissionLog::On, this));
    }
    void On(uint32_t tsn, bool f) { tsns.push_back(tsn); fast.push_back(f); times.push_back(Simulator::Now().GetSeconds()); }
    size_t Count() const { return tsns.size(); }
    uint32_t Tsn(size_t i) const { return tsns[i]; }
    bool Fast(size_t i) const { return fast[i]; }
    double Time(size_t i) const { return times[i]; }
};

/** Schedules a function on a socket later (crash simulation for restart tests). */
inline void ScheduleRemove(double t, Ptr<SctpL4Protocol> l4, Ptr<SctpSocket> s) {
    Simulator::Schedule(Seconds(t) - Simulator::Now(), &SctpL4Protocol::RemoveSocket, l4, s);
}
}  // namespace sctptest
