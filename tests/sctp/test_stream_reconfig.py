"""Stream reconfiguration (RFC 6525) as Python and the wire see it: RE-CONFIG (chunk type
130) listed in the Supported Extensions of INIT and INIT ACK only when both sockets'
ReconfigSupported is on (off by default), the socket API reached through cppyy, the
StreamReconfig trace, and tshark decoding the RE-CONFIG chunks of a real association
(every parameter type the model sends, with CRC32c "Good"). The procedures themselves
are tested by the C++ suite sctp-stream-reconfig."""

from __future__ import annotations

import gc

import pytest

from tests.sctp._support import make_pair, needs_tshark, tshark_fields
from tests.sctp.test_streams import setup as setup_pair
from transportlab.ns3.simulation import run_until, simulation

RE_CONFIG = 130
SUPPORTED_EXTENSIONS = 0x8008

_HELPERS = """
#include "ns3/sctp-socket.h"
#include "ns3/simulator.h"
#include <string>
#include <vector>
namespace reconfigtest {
using namespace ns3;
/** Stream reconfiguration requests at a simulated time (sockets act inside Run()). */
inline void ResetAt(double t, Ptr<SctpSocket> s, std::vector<uint16_t> streams, bool out, bool in) {
    Simulator::Schedule(Seconds(t) - Simulator::Now(), [s, streams, out, in]() {
        s->ResetStreams(streams, out, in);
    });
}
inline void AddAt(double t, Ptr<SctpSocket> s, uint16_t out, uint16_t in) {
    Simulator::Schedule(Seconds(t) - Simulator::Now(), [s, out, in]() { s->AddStreams(out, in); });
}
inline void AssocResetAt(double t, Ptr<SctpSocket> s) {
    Simulator::Schedule(Seconds(t) - Simulator::Now(), [s]() { s->ResetAssociation(); });
}
/** The StreamReconfig trace as "event type seq-offset result" lines. */
struct Log {
    std::vector<std::string> lines;
    std::vector<double> times;
    void Record(SctpReconfigEvent e, uint16_t type, uint32_t, uint32_t result) {
        times.push_back(Simulator::Now().GetSeconds());
        lines.push_back(SctpReconfigEventName(e) + " " + std::to_string(type) + " " +
                        std::to_string(result));
    }
    void Attach(Ptr<SctpSocket> s) {
        s->TraceConnectWithoutContext("StreamReconfig", MakeCallback(&Log::Record, this));
    }
};
}
"""
_defined = False


def _helpers():
    global _defined
    import cppyy

    from transportlab import ns  # noqa: F401  (loads our library)

    # once per process, also when this module is imported under a second name
    if not _defined and not hasattr(cppyy.gbl, "reconfigtest"):
        cppyy.cppdef(_HELPERS)
    _defined = True
    return cppyy.gbl.reconfigtest


def run(client_on: bool | None, server_on: bool | None, pcap=None):
    """Messages on stream 1 around an outgoing + incoming reset of stream 1 at 1 s, then
    one more outgoing and incoming stream at 2 s, an SSN/TSN reset at 3 s. ``None`` leaves
    the attribute alone. Returns (negotiated at client, at server, request result, client
    trace, delivered, client outbound streams)."""
    import cppyy

    h = _helpers()
    with simulation(seed=1, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        server, client, collector, sender = setup_pair(ns, pair, n_streams=3)
        for sock, on in ((client, client_on), (server, server_on)):
            if on is not None:
                sock.SetAttribute("ReconfigSupported", ns.BooleanValue(on))
        log = h.Log()
        log.Attach(client)
        if pcap is not None:
            pair.p2p.EnablePcap(str(pcap), pair.devices.Get(0), True)
        for k in range(3):
            sender.At(0.5 + 0.1 * k, 500, 1, False, k)
        streams = cppyy.gbl.std.vector["unsigned short"]([1])
        h.ResetAt(1.0, client, streams, True, True)
        for k in range(3, 5):
            sender.At(1.0, 500, 1, False, k)
        h.AddAt(2.0, client, 1, 1)
        h.AssocResetAt(3.0, client)  # everything is acknowledged by then
        run_until(4.0)
        accepted = ns.DynamicCast[ns.SctpSocket](collector.accepted[0])
        result = (
            bool(client.GetAssociation().IsReconfigNegotiated()),
            bool(accepted.GetAssociation().IsReconfigNegotiated()),
            int(client.GetErrno()),
            [str(line) for line in log.lines],
            int(collector.Count()),
            int(client.GetAssociation().GetOutboundStreams()),
        )
        del pair, server, client, collector, sender, accepted, log
    gc.collect()
    return result


@pytest.mark.parametrize(
    ("client_on", "server_on", "negotiated"),
    [(None, None, False), (True, True, True), (True, False, False), (False, True, False)],
)
def test_negotiated_only_when_both_announce(client_on, server_on, negotiated):
    client, server, _, lines, delivered, outbound = run(client_on, server_on)
    assert (client, server) == (negotiated, negotiated)
    assert delivered == 5  # every message arrives either way
    if negotiated:
        assert "RESPONSE_RECEIVED 13 1" in lines  # outgoing reset: Success - Performed
        assert "REQUEST_RECEIVED 13 1" in lines  # the server's answer to our incoming one
        assert "RESPONSE_RECEIVED 17 1" in lines  # one more outgoing stream
        assert "RESPONSE_RECEIVED 15 1" in lines  # SSN/TSN reset performed
        assert outbound == 4
    else:
        assert lines == []  # refused before anything was sent
        assert outbound == 3


@needs_tshark
def test_tshark_decodes_re_config(tmp_path):
    run(None, None, pcap=tmp_path / "default")
    rows = tshark_fields(
        tmp_path / "default-0-0.pcap", "sctp.chunk_type", "sctp.supported_chunk_type"
    )
    assert not any(str(RE_CONFIG) in r[0].split(",") or r[1] for r in rows)

    run(True, True, pcap=tmp_path / "reconfig")
    pcap = tmp_path / "reconfig-0-0.pcap"
    init = tshark_fields(pcap, "sctp.chunk_type", "sctp.supported_chunk_type")
    supported = {r[0].split(",")[0]: r[1] for r in init if r[0].split(",")[0] in ("1", "2")}
    assert supported == {"1": str(RE_CONFIG), "2": str(RE_CONFIG)}

    rows = tshark_fields(
        pcap,
        "sctp.chunk_type",
        "sctp.parameter_type",
        "sctp.parameter_reconfig_request_sequence_number",
        "sctp.parameter_reconfig_response_result",
        "sctp.parameter_reconfig_sid",
        "sctp.checksum.status",
        "_ws.malformed",
        "_ws.expert",
    )
    reconfig = [r for r in rows if str(RE_CONFIG) in r[0].split(",")]
    assert reconfig, "no RE-CONFIG chunk in the capture"
    parameter_types = {int(p, 0) for r in reconfig for p in r[1].split(",") if p}
    # outgoing, incoming and SSN/TSN reset, responses, add outgoing and incoming streams
    assert {13, 14, 15, 16, 17, 18} <= parameter_types
    results = {int(x) for r in reconfig for x in r[3].split(",") if x}
    assert 1 in results  # Success - Performed
    streams = {int(x, 0) for r in reconfig for x in r[4].split(",") if x}
    assert streams == {1}
    assert {r[5] for r in rows} == {"1"}  # CRC32c good in every frame
    assert all(r[6] == "" and r[7] == "" for r in reconfig)  # not malformed, no expert info
    # The answer to the SSN/TSN reset carries both new TSNs (4.4): the client's next TSN
    # is 2^31 past what the server had acknowledged.
    frames = tshark_fields(
        pcap, "sctp.data_tsn_raw", "sctp.parameter_receivers_next_tsn", "sctp.chunk_type"
    )
    data_tsns, answers = [], []
    for data, receivers_next, _ in frames:
        data_tsns += [int(t) for t in data.split(",") if t]
        if receivers_next:
            answers.append((int(receivers_next), max(data_tsns)))
    assert len(answers) == 1
    receivers_next, last_data = answers[0]
    assert receivers_next == (last_data + 1 + 2**31) % 2**32

    # On the wire, stream 1's SSNs start again at 0 after the reset.
    data = tshark_fields(pcap, "sctp.data_sid", "sctp.data_ssn", extra=("-Y", "sctp.data_sid"))
    ssns = [
        int(ssn)
        for sids, ssn_list in data
        for sid, ssn in zip(sids.split(","), ssn_list.split(","), strict=True)
        if int(sid, 0) == 1
    ]
    assert ssns == [0, 1, 2, 0, 1]
