"""COOKIE ECHO from addresses the association does not know (RFC 9260 section 5.2.4).

Issue 14 (High): a COOKIE ECHO reaching the listening socket from an unknown address
built a second association whose registration overwrote the live association's lookup
entry. Two attacks, each on a live 30-message transfer between the client C (10.1.1.1,
port ``CPORT``) and the server S (10.1.1.2, port ``PORT``):

* off-path: before the client connects, an INIT from the attacker's own address X with
  the client's port, listing C; the attacker keeps the cookie of S's INIT ACK and echoes
  it from X once the transfer runs (well within Valid.Cookie.Life);
* replay: the client's real COOKIE ECHO (and the DATA packets it sent) replayed from
  another address Y.

Expected: the live association keeps its entries, the cookie goes through the existing
association's 5.2.4 table (no case matches the attacker's tags: silently discarded; a
replay is case D: nothing new), no second association, every message exactly once.
"""

from __future__ import annotations

import gc
import struct

import cppyy
import pytest

from tests.sctp._support import chunk, cxx, injector, make_pair, packet
from tests.sctp.test_streams import identify
from transportlab.ns3.simulation import simulation

PORT = 5000
CPORT = 40000
N = 30
ATTACKER = "10.1.1.77"
REPLAYER = "10.1.1.88"

_CAPTURE = """
#include "ns3/internet-module.h"
namespace sctpsec {
using namespace ns3;
/** Every SCTP packet an Ipv4L3Protocol sends: destination and SCTP bytes. */
class Capture : public SimpleRefCount<Capture> {
  public:
    std::vector<std::vector<uint8_t>> packets;
    std::vector<uint32_t> destinations;
    void Attach(Ptr<Node> node) {
        node->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Tx", MakeCallback(&Capture::OnTx, this));
    }
    void OnTx(Ptr<const Packet> p, Ptr<Ipv4>, uint32_t) {
        Ptr<Packet> copy = p->Copy();
        Ipv4Header ip;
        copy->RemoveHeader(ip);
        if (ip.GetProtocol() != 132) return;
        std::vector<uint8_t> bytes(copy->GetSize());
        copy->CopyData(bytes.data(), bytes.size());
        packets.push_back(bytes);
        destinations.push_back(ip.GetDestination().Get());
    }
    size_t Count() const { return packets.size(); }
    const std::vector<uint8_t>& Get(size_t i) const { return packets[i]; }
};
}
"""


def _capture():
    cxx()
    # Once per process, even if pytest imports this module under two names.
    if not hasattr(cppyy.gbl, "sctpsec"):
        cppyy.cppdef(_CAPTURE)
    return cppyy.gbl.sctpsec.Capture()


def _chunks(raw: bytes):
    """(type, flags, value) of each chunk of an SCTP packet."""
    out, pos = [], 12
    while pos + 4 <= len(raw):
        kind, flags, length = struct.unpack_from("!BBH", raw, pos)
        if length < 4:
            break
        out.append((kind, flags, raw[pos + 4 : pos + length]))
        pos += length + (-length) % 4
    return out


def _raw(capture, i: int) -> bytes:
    return bytes(ord(b) if isinstance(b, str) else int(b) for b in capture.Get(i))


def _ipv4(ns, text: str):
    return ns.Ipv4Address(text)


def _inject(ns, inj, at: float, raw: bytes, source: str, destination) -> None:
    buffer = bytearray(raw)
    inj.Schedule(ns.Seconds(at), buffer, len(buffer), _ipv4(ns, source), destination, True)


def _run_to(ns, t: float) -> None:
    ns.Simulator.Stop(ns.Seconds(t) - ns.Simulator.Now())
    ns.Simulator.Run()


def _live_transfer(ns, pair):
    c = cxx()
    server = pair.socket(1)
    server.Bind(ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT).ConvertTo())
    collector = c.Collector()
    collector.Listen(server)
    client = pair.socket(0)
    assert client.Bind(ns.InetSocketAddress(pair.address(0), CPORT).ConvertTo()) == 0
    sender = c.Sender()
    sender.socket = client
    sender.ConnectAt(0.2, pair.endpoint(1, PORT))
    for i in range(N):
        sender.At(0.5 + 0.05 * i, 600, 0, False, i)
    return server, client, collector, sender


def _outcome(ns, pair, collector, client, created):
    try:
        order = identify(collector, range(N))
    except AssertionError:
        order = None
    return {
        "order": order,
        "accepted": int(len(collector.accepted)),
        "client_state": int(client.GetState()),
        "server_state": int(ns.DynamicCast[ns.SctpSocket](collector.accepted[0]).GetState()),
        "created": created,
    }


def run_off_path_attack():
    with simulation(seed=1, run=1) as ns:
        pair = make_pair("10Mbps", "5ms")
        server, client, collector, sender = _live_transfer(ns, pair)
        capture = _capture()
        capture.Attach(pair.nodes.Get(1))
        inj = injector(pair, 1)
        s_addr = pair.address(1)
        # INIT from the attacker's address X with the client's port, listing C.
        c_param = struct.pack("!HH4s", 5, 8, bytes(map(int, "10.1.1.1".split("."))))
        init = chunk(1, 0, struct.pack("!IIHHI", 0x1234567, 65536, 1, 1, 777) + c_param)
        _inject(ns, inj, 0.05, bytes(packet(CPORT, PORT, 0, init)), ATTACKER, s_addr)
        _run_to(ns, 0.1)
        cookie, s_tag = None, None
        for i in range(int(capture.Count())):
            raw = _raw(capture, i)
            for kind, _flags, value in _chunks(raw):
                if kind == 2:
                    s_tag = struct.unpack_from("!I", value, 0)[0]
                    pos = 16
                    while pos + 4 <= len(value):
                        ptype, plen = struct.unpack_from("!HH", value, pos)
                        if ptype == 7:
                            cookie = value[pos + 4 : pos + plen]
                        pos += plen + (-plen) % 4
        assert cookie is not None, "the server answered the forged INIT with an INIT ACK"
        echo = packet(CPORT, PORT, s_tag, chunk(10, 0, cookie))
        _inject(ns, inj, 1.0, bytes(echo), ATTACKER, s_addr)
        _run_to(ns, 8.0)
        result = _outcome(ns, pair, collector, client, None)
        del pair, server, client, collector, sender, capture, inj
    gc.collect()
    return result


def run_replay_attack(with_data: bool):
    with simulation(seed=1, run=1) as ns:
        pair = make_pair("10Mbps", "5ms")
        server, client, collector, sender = _live_transfer(ns, pair)
        capture = _capture()
        capture.Attach(pair.nodes.Get(0))  # what the client sends
        inj = injector(pair, 1)
        _run_to(ns, 1.2)  # established, some DATA sent
        echo, data = None, []
        for i in range(int(capture.Count())):
            raw = _raw(capture, i)
            kinds = [k for k, _f, _v in _chunks(raw)]
            if kinds and kinds[0] == 10 and echo is None:
                echo = raw
            elif kinds and kinds[0] == 0:
                data.append(raw)
        assert echo is not None and data
        s_addr = pair.address(1)
        _inject(ns, inj, 1.3, echo, REPLAYER, s_addr)
        if with_data:
            # The COOKIE ECHO with the DATA chunks of a real packet bundled behind it.
            bundled = echo + data[0][12:]
            _inject(ns, inj, 1.4, bundled, REPLAYER, s_addr)
            for k, raw in enumerate(data):
                _inject(ns, inj, 1.5 + 0.01 * k, raw, REPLAYER, s_addr)
        _run_to(ns, 8.0)
        result = _outcome(ns, pair, collector, client, None)
        del pair, server, client, collector, sender, capture, inj
    gc.collect()
    return result


def _assert_untouched(result) -> None:
    assert result["accepted"] == 1, "a second association was created"
    assert result["order"] == list(range(N)), result["order"]
    assert result["client_state"] == 4 and result["server_state"] == 4


def test_off_path_cookie_from_an_unknown_address_changes_nothing():
    _assert_untouched(run_off_path_attack())


@pytest.mark.parametrize("with_data", [False, True])
def test_replayed_cookie_echo_from_another_address_delivers_nothing_twice(with_data):
    _assert_untouched(run_replay_attack(with_data))
