"""A SIP call through the proxy (C++ ns3::SipUserAgent, ns3::SipProxy, ns3::SipStack):
the message sequence and sizes of registration, call set-up and tear-down, the proxy's
registrar and routing, over UDP and TCP."""

from __future__ import annotations

import pytest

from transportlab.ns3.capabilities import sctp_available
from transportlab.ns3.recording import flow_monitor_frame
from transportlab.ns3.simulation import run_until, simulation
from transportlab.studies.sip_over_sctp import testbed as sip

CALLER_SEQUENCE = [
    ("sent", "REGISTER"),
    ("received", "200 REGISTER"),
    ("sent", "INVITE"),
    ("received", "100 INVITE"),
    ("received", "180 INVITE"),
    ("received", "200 INVITE"),
    ("sent", "ACK"),
    ("sent", "BYE"),
    ("received", "200 BYE"),
]
CALLEE_SEQUENCE = [
    ("sent", "REGISTER"),
    ("received", "200 REGISTER"),
    ("received", "INVITE"),
    ("sent", "180 INVITE"),
    ("sent", "200 INVITE"),
    ("received", "ACK"),
    ("received", "BYE"),
    ("sent", "200 BYE"),
]


def one_call(transport: str, until: float = 4.0, **options):
    with simulation(seed=1, run=1):
        testbed = sip.build_testbed(transport, 1, max_calls=1, record_messages=True, **options)
        run_until(until)
        recorder = testbed.recorder
        return {
            "messages": recorder.messages(),
            "transactions": recorder.transactions(),
            "calls": recorder.calls(),
            "registrations": recorder.registrations(),
            "bindings": int(testbed.proxy.GetLocationService().GetBindingCount()),
            "forwarded": {
                m: int(testbed.proxy.GetForwardedCount(m)) for m in ("INVITE", "ACK", "BYE")
            },
        }


TRANSPORTS = ["udp", "tcp"] + (["sctp"] if sctp_available() else [])
STREAM_TRANSPORTS = [t for t in TRANSPORTS if t != "udp"]


@pytest.fixture(scope="module", params=TRANSPORTS)
def call(request):
    return request.param, one_call(request.param)


def sequence(messages, endpoint):
    rows = messages[messages["endpoint"] == endpoint]
    return list(zip(rows["direction"], rows["kind"], strict=True))


def test_caller_and_callee_see_the_rfc3261_call_flow(call):
    _, result = call
    assert sequence(result["messages"], "host_a") == CALLER_SEQUENCE
    assert sequence(result["messages"], "host_b") == CALLEE_SEQUENCE


def test_proxy_relays_everything_but_100_trying(call):
    _, result = call
    proxy = result["messages"][result["messages"]["endpoint"] == "proxy"]
    received = proxy[proxy["direction"] == "received"]["kind"].tolist()
    sent = proxy[proxy["direction"] == "sent"]["kind"].tolist()
    assert sorted(received) == sorted(
        ["REGISTER", "REGISTER", "INVITE", "180 INVITE", "200 INVITE", "ACK", "BYE", "200 BYE"]
    )
    assert sorted(sent) == sorted(
        [
            "200 REGISTER",
            "200 REGISTER",
            "100 INVITE",
            "INVITE",
            "180 INVITE",
            "200 INVITE",
            "ACK",
            "BYE",
            "200 BYE",
        ]
    )
    assert result["forwarded"] == {"INVITE": 1, "ACK": 1, "BYE": 1}  # Record-Route at work


def test_message_sizes_are_those_of_real_sip_messages(call):
    transport, result = call
    messages = result["messages"]
    sent = messages[messages["direction"] == "sent"]
    size = {(row.endpoint, row.kind): row.size for row in sent.itertuples()}
    # The seed: "the average size of SIP messages is about 500 bytes".
    assert 350 <= size[("host_a", "REGISTER")] <= 600
    assert 600 <= size[("host_a", "INVITE")] <= 1000  # with its SDP offer
    assert 600 <= size[("host_b", "200 INVITE")] <= 1000  # with the SDP answer
    assert 200 <= size[("proxy", "100 INVITE")] <= 400
    assert 350 <= sent["size"].mean() <= 650
    # What one side sends is what the other receives, byte for byte.
    received = messages[messages["direction"] == "received"]
    assert sorted(sent["size"]) == sorted(received["size"])
    # The proxy adds exactly its Via and Record-Route to the INVITE it forwards, and
    # replaces the Request-URI (address of record) by the registered contact.
    proxy_ip = "10.1.3.2"
    via = f"Via: SIP/2.0/{transport.upper()} {proxy_ip}:5060;branch=z9hG4bK" + "0" * 16 + "\r\n"
    record_route = f"Record-Route: <sip:{proxy_ip}:5060;transport={transport};lr>\r\n"
    uri_growth = len(f"sip:b1@10.1.2.2:5060;transport={transport}") - len(
        "sip:b1@transportlab.test"
    )
    assert size[("proxy", "INVITE")] - size[("host_a", "INVITE")] == (
        len(via) + len(record_route) + uri_growth
    )


def test_every_transaction_succeeds_with_the_right_status(call):
    _, result = call
    tx = result["transactions"]
    assert (tx["status"] == 200).all() and (tx["retransmissions"] == 0).all()
    clients = tx[(tx["endpoint"] == "host_a") & (tx["role"] == "client")]
    assert sorted(clients["method"]) == ["BYE", "INVITE", "REGISTER"]
    invite = clients[clients["method"] == "INVITE"].iloc[0]
    assert invite["provisional"] < invite["end"]  # 100/180 before the 200


def test_registrar_stored_both_contacts(call):
    _, result = call
    assert result["bindings"] == 2
    assert (result["registrations"]["status"] == 200).all()


def test_call_records_of_both_sides(call):
    _, result = call
    calls = result["calls"].set_index("side")
    caller, callee = calls.loc["caller"], calls.loc["callee"]
    assert caller["invite_status"] == 200 and caller["bye_status"] == 200
    assert callee["invite_status"] == 200 and callee["bye_status"] == 200
    assert caller["call_id"] == callee["call_id"]
    # answer delay 0: the callee answers the instant the INVITE arrives
    assert caller["invite"] < callee["invite"] == callee["answered"] < caller["answered"]
    assert caller["bye_sent"] < callee["bye_sent"] < caller["bye_done"]
    assert caller["bye_sent"] == pytest.approx(caller["answered"] + 1.0)  # CallDuration


def test_udp_call_setup_takes_the_round_trips_it_should():
    # One-way delay host -> proxy = 2 links of 100 us + transmission; the INVITE
    # crosses A->P->B, the 200 OK B->P->A: set-up = 4 one-way delays exactly.
    result = one_call("udp")
    messages = result["messages"]
    hops = {}
    for kind in ("INVITE", "200 INVITE"):
        rows = messages[messages["kind"] == kind].sort_values("time")
        hops[kind] = rows["time"].diff().dropna().tolist()
    tx = result["transactions"]
    invite = tx[(tx.endpoint == "host_a") & (tx.method == "INVITE")].iloc[0]
    # sum of the four hop delays of the INVITE and of the 200 OK (sent/received pairs)
    assert invite["duration"] == pytest.approx(
        sum(hops["INVITE"]) + sum(hops["200 INVITE"]), abs=1e-9
    )
    assert invite["duration"] < 2e-3


def test_answer_delay_and_rejected_calls():
    result = one_call("udp", until=6.0, answer_delay=2.5)
    calls = result["calls"].set_index("side")
    assert calls.loc["callee", "callee_answer_delay"] == pytest.approx(2.5)
    assert calls.loc["callee", "answered"] - calls.loc["callee", "ringing"] == pytest.approx(2.5)


def test_unknown_callee_gets_404_from_the_proxy(ns):
    with simulation(seed=1, run=1):
        testbed = sip.build_testbed("udp", 1, max_calls=1, record_messages=True)
        testbed.callers[0].SetAttribute("CallTo", ns.StringValue("nobody"))
        run_until(3.0)
        calls = testbed.recorder.calls()
        messages = testbed.recorder.messages()
    assert calls["invite_status"].tolist() == [404]
    host_a = messages[messages["endpoint"] == "host_a"]["kind"].tolist()
    # 404 is a non-2xx final response: the INVITE client transaction acknowledges it.
    assert host_a[-3:] == ["100 INVITE", "404 INVITE", "ACK"]


def test_callee_rejecting_busy_is_acknowledged_hop_by_hop(ns):
    with simulation(seed=1, run=1):
        testbed = sip.build_testbed("udp", 1, max_calls=1, record_messages=True)
        testbed.callees[0].SetAttribute("AnswerCode", ns.UintegerValue(486))
        run_until(3.0)
        messages = testbed.recorder.messages()
        calls = testbed.recorder.calls()
    acks = messages[(messages["kind"] == "ACK") & (messages["direction"] == "sent")]
    assert sorted(acks["endpoint"]) == ["host_a", "proxy"]  # each ICT ACKs its own hop
    assert set(calls["invite_status"]) == {486}


@pytest.mark.parametrize("transport", STREAM_TRANSPORTS)
@pytest.mark.parametrize("layout, expected", [("seed", 4), ("shared", 2)])
def test_connection_layouts(ns, transport, layout, expected):
    """seed: the proxy sends from port 5061, one connection per host and direction;
    shared: RFC 3261 connection reuse with the RFC 5923 alias, one per host pair."""
    with simulation(seed=1, run=1):
        testbed = sip.build_testbed(transport, 2, max_calls=1, layout=layout, record_messages=True)
        run_until(4.0)
        messages = testbed.recorder.messages()
        opened = sum(
            int(s.GetTransport().GetOpenedConnectionCount())
            for s in (testbed.proxy_stack, testbed.stack_a, testbed.stack_b)
        )
    assert opened == expected
    calls = testbed.recorder.calls()
    assert (calls["bye_status"] == 200).all() and len(calls) == 4
    assert messages["connection"].gt(0).all()


def test_tcp_framing_across_segment_boundaries(ns):
    """Tiny TCP segments split every message over several segments: framing by
    Content-Length must still deliver each message whole, once."""
    with simulation(seed=1, run=1):
        testbed = sip.build_testbed("tcp", 1, max_calls=1, record_messages=True)
        ns.Config.SetDefault("ns3::TcpSocket::SegmentSize", ns.UintegerValue(97))
        flows = ns.FlowMonitorHelper()
        monitor = flows.InstallAll()
        run_until(4.0)
        messages = testbed.recorder.messages()
        per_flow = flow_monitor_frame(monitor, flows)
    sip_bytes = messages[messages["direction"] == "sent"]["size"].sum()
    # at most 97 payload bytes per segment: many more segments than messages
    assert per_flow["tx_packets"].sum() > sip_bytes / 97
    assert sequence(messages, "host_a") == CALLER_SEQUENCE
    assert sequence(messages, "host_b") == CALLEE_SEQUENCE
