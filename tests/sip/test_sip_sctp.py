"""SIP over SCTP (ns3::SipSctpTransport, RFC 4168): one SIP message per SCTP user
message, a stream per concurrent call, the association set-up of the seed's
registration in a pcap that tshark decodes, and no SIP-layer retransmissions."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from transportlab.ns3.capabilities import sctp_available
from transportlab.ns3.simulation import run_until, simulation
from transportlab.studies.sip_over_sctp import testbed as sip

pytestmark = pytest.mark.skipif(not sctp_available(), reason="SCTP module not in this build")

INIT, INIT_ACK, SACK, COOKIE_ECHO, COOKIE_ACK, DATA = 1, 2, 3, 10, 11, 0


def run(ns, n_pairs=1, until=4.0, **options):
    with simulation(seed=1, run=1):
        testbed = sip.build_testbed("sctp", n_pairs, record_messages=True, **options)
        run_until(until)
        delivered = {}
        for name, stack in (
            ("proxy", testbed.proxy_stack),
            ("host_a", testbed.stack_a),
            ("host_b", testbed.stack_b),
        ):
            transport = ns.DynamicCast[ns.SipStreamTransport](stack.GetTransport())
            sockets = [
                ns.DynamicCast[ns.SctpSocket](transport.GetConnectionSocket(i))
                for i in range(transport.GetConnectionCount())
            ]
            assert all(bool(s) for s in sockets), "SIP over SCTP must run on SCTP sockets"
            delivered[name] = sum(int(s.GetDeliveredBytes()) for s in sockets)
        return (
            testbed.recorder.messages(),
            testbed.recorder.calls(),
            testbed.recorder.transactions(),
            delivered,
        )


def test_one_sip_message_is_one_sctp_user_message(ns):
    messages, calls, _, delivered = run(ns, max_calls=1)
    received = messages[messages["direction"] == "received"]
    # SCTP hands over exactly the SIP bytes: no framing, no Content-Length needed
    for endpoint, total in delivered.items():
        assert total == received[received["endpoint"] == endpoint]["size"].sum()
    assert set(calls["bye_status"]) == {200}


def test_each_concurrent_call_has_its_own_stream(ns):
    messages, calls, _, _ = run(ns, n_pairs=4, max_calls=1, until=4.0)
    assert len(calls) == 8 and set(calls["bye_status"]) == {200}
    calls_traffic = messages[
        (messages["direction"] == "sent") & (messages["method"].isin(["INVITE", "ACK", "BYE"]))
    ]
    for _, association in calls_traffic.groupby(["endpoint", "connection"]):
        # all messages of a call go on one stream of the association ...
        assert (association.groupby("call_id")["stream"].nunique() == 1).all()
        # ... and the four simultaneous calls use four different streams
        streams = association.groupby("call_id")["stream"].first()
        assert streams.nunique() == association["call_id"].nunique() == 4
    # the receiving side sees the same stream numbers
    received = messages[messages["direction"] == "received"]
    sent = messages[messages["direction"] == "sent"]
    assert sorted(received["stream"]) == sorted(sent["stream"])


def test_rfc4168_single_unordered_mapping_puts_everything_on_stream_0(ns):
    kind = ns.SipSctpTransport.SINGLE_UNORDERED
    value = ns.EnumValue[ns.SipSctpTransport.StreamMapping](kind)
    messages, calls, _, _ = run(
        ns, n_pairs=2, max_calls=1, transport_attributes={"StreamMapping": value}
    )
    assert (messages["stream"] == 0).all()
    assert set(calls["bye_status"]) == {200}


def test_a_finished_call_gives_its_stream_back_on_every_side(ns):
    """One call at a time: each call takes the lowest free stream, and every element
    (caller, proxy, callee) frees it when the call ends, so all calls use stream 0.

    The callee used to release a key read from the call it had just erased (freed
    memory): under glibc its stream stayed taken and its next call moved to stream 1."""
    messages, calls, _, _ = run(ns, max_calls=3, until=10.0)
    assert len(calls) == 6 and set(calls["bye_status"]) == {200}
    sent = messages[messages["direction"] == "sent"]
    assert sent["call_id"].nunique() == 3 + 2  # three calls and the two registrations
    streams = sent.groupby(["endpoint", "call_id"], sort=False)["stream"].unique()
    assert set(sent["stream"]) == {0}, streams[streams.map(lambda s: list(s) != [0])]


@pytest.mark.parametrize("transport", ["udp", "sctp"])
def test_messages_larger_than_the_mtu_arrive_whole(ns, transport):
    """A 3.6 kB INVITE: IP fragmentation over UDP, DATA chunk fragmentation over SCTP."""
    with simulation(seed=1, run=1):
        testbed = sip.build_testbed(transport, 1, max_calls=1, record_messages=True)
        for agent in testbed.callers + testbed.callees:
            agent.SetAttribute("SdpCandidates", ns.UintegerValue(40))
        run_until(4.0)
        messages = testbed.recorder.messages()
        calls = testbed.recorder.calls()
    invite = messages[(messages["kind"] == "INVITE") & (messages["endpoint"] == "host_a")]
    assert invite["size"].iloc[0] > 2 * 1500  # three IP packets / DATA chunks
    assert set(calls["bye_status"]) == {200}
    received = messages[(messages["kind"] == "INVITE") & (messages["direction"] == "received")]
    assert len(received) == 2  # proxy and callee, each one whole message


def test_no_sip_retransmission_over_sctp(ns):
    """A 200 ms outage at the proxy: SCTP retransmits the lost DATA (T3-rtx), SIP never."""
    from test_sip_timers import blackout  # noqa: PLC0415

    with simulation(seed=1, run=1):
        testbed = sip.build_testbed("sctp", 1, max_calls=1, record_messages=True)
        blackout(ns, testbed, 1.0, 1.2)
        run_until(6.0)
        messages = testbed.recorder.messages()
        transactions = testbed.recorder.transactions()
    sent_invites = messages[
        (messages["endpoint"] == "host_a")
        & (messages["kind"] == "INVITE")
        & (messages["direction"] == "sent")
    ]
    assert len(sent_invites) == 1
    assert (transactions["retransmissions"] == 0).all()
    invite = transactions[
        (transactions["endpoint"] == "host_a") & (transactions["method"] == "INVITE")
    ].iloc[0]
    assert invite["status"] == 200 and invite["duration"] > 0.2


@pytest.mark.tshark
@pytest.mark.skipif(shutil.which("tshark") is None, reason="tshark not installed")
def test_registration_sets_up_two_associations_as_in_the_seed(ns, tmp_path):
    """Seed section 5.3.1: UA1 opens an association to the proxy's port 5060, the proxy
    opens a second one from its outbound port towards UA1; the REGISTER travels on the
    first, the 200 OK on the second. The pcap of the proxy's link, decoded by tshark."""
    with simulation(seed=1, run=1):
        sip.build_testbed("sctp", 1, max_calls=0, pcap_prefix=str(tmp_path / "proxy"))
        run_until(0.5)
    pcap = next(tmp_path.glob("proxy-*.pcap"))
    fields = [
        "ip.src",
        "ip.dst",
        "sctp.srcport",
        "sctp.dstport",
        "sctp.chunk_type",
        "sip.Method",
        "sip.Status-Code",
        "sctp.checksum.status",
        "_ws.malformed",
    ]
    command = [
        "tshark",
        "-r",
        str(pcap),
        "-o",
        "sctp.checksum:crc-32c",
        "-T",
        "fields",
        "-E",
        "occurrence=f",
    ] + [arg for f in fields for arg in ("-e", f)]
    rows = [
        line.split("\t")
        for line in subprocess.run(
            command, capture_output=True, text=True, check=True
        ).stdout.splitlines()
    ]
    ua1, proxy = "10.1.1.2", "10.1.3.2"
    rows = [r for r in rows if ua1 in (r[0], r[1])]
    assert all(r[7] == "1" and r[8] == "" for r in rows)  # good checksums, nothing malformed
    inbound = [
        (r[0], int(r[4]), r[5] or r[6])
        for r in rows
        if r[3] == "5060"
        and r[1] == proxy
        or r[2] == "5060"
        and r[0] == proxy
        and r[1] == ua1
        and r[3] != "5060"
    ]
    outbound = [(r[0], int(r[4]), r[5] or r[6]) for r in rows if r[2] == "5061" or r[3] == "5061"]
    # association 1, opened by UA1 towards the proxy's port 5060: handshake, then REGISTER
    assert [c for _, c, _ in inbound[:5]] == [INIT, INIT_ACK, COOKIE_ECHO, COOKIE_ACK, DATA]
    assert inbound[4] == (ua1, DATA, "REGISTER")
    # association 2, opened by the proxy from port 5061: handshake, then the 200 OK
    assert [c for _, c, _ in outbound[:5]] == [INIT, INIT_ACK, COOKIE_ECHO, COOKIE_ACK, DATA]
    assert outbound[0][0] == proxy and outbound[4] == (proxy, DATA, "200")
