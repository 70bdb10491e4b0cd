"""RFC 3261 transaction timers in ns3::SipClientTransaction / SipServerTransaction:
over UDP requests are retransmitted by Timer A (INVITE, T1 doubling) and Timer E
(non-INVITE, T1 doubling up to T2) and time out after 64*T1 (Timers B and F), which
counts as a failed call; over TCP the transaction layer never retransmits."""

from __future__ import annotations

import cppyy
import numpy as np
import pytest

from transportlab.ns3.simulation import run_until, simulation
from transportlab.studies.sip_over_sctp import testbed as sip

T1, T2 = 0.5, 4.0
CALL_START = 1.0


def proxy_device(testbed):
    return testbed.devices[2].Get(1)  # the proxy's end of its link to the router


def blackout(ns, testbed, start: float, stop: float | None):
    """Drop every packet arriving at the proxy from ``start`` to ``stop``."""
    model = ns.CreateObject[ns.RateErrorModel]()
    model.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
    model.SetAttribute("ErrorRate", ns.DoubleValue(1.0))
    model.Disable()
    ns.ScheduleErrorModelState(model, ns.Seconds(start), True)
    if stop is not None:
        ns.ScheduleErrorModelState(model, ns.Seconds(stop), False)
    proxy_device(testbed).SetAttribute("ReceiveErrorModel", ns.PointerValue(model))
    testbed.error_models.append(model)


def run(ns, transport, until, loss=None, drop_list=None, **options):
    with simulation(seed=1, run=1):
        testbed = sip.build_testbed(
            transport, 1, max_calls=1, record_messages=True, call_start=CALL_START, **options
        )
        if loss is not None:
            blackout(ns, testbed, *loss)
        if drop_list is not None:
            model = ns.CreateObject[ns.ReceiveListErrorModel]()
            packets = cppyy.gbl.std.list["unsigned int"]()
            for index in drop_list:
                packets.push_back(index)
            model.SetList(packets)
            proxy_device(testbed).SetAttribute("ReceiveErrorModel", ns.PointerValue(model))
            testbed.error_models.append(model)
        run_until(until)
        return (
            testbed.recorder.messages(),
            testbed.recorder.transactions(),
            testbed.recorder.calls(),
        )


def sent_times(messages, endpoint, kind):
    rows = messages[
        (messages["endpoint"] == endpoint)
        & (messages["direction"] == "sent")
        & (messages["kind"] == kind)
    ]
    return rows["time"].to_numpy()


def client(transactions, endpoint, method):
    rows = transactions[
        (transactions["endpoint"] == endpoint)
        & (transactions["role"] == "client")
        & (transactions["method"] == method)
    ]
    assert len(rows) == 1
    return rows.iloc[0]


def test_one_lost_invite_is_retransmitted_after_t1(ns):
    """ReceiveListErrorModel drops exactly the first INVITE at the proxy."""
    messages, _, _ = run(ns, "udp", 4.0)
    at_proxy = messages[(messages["endpoint"] == "proxy") & (messages["direction"] == "received")][
        "kind"
    ].tolist()
    invite_index = at_proxy.index("INVITE")  # UDP: one message, one packet
    messages, transactions, calls = run(ns, "udp", 4.0, drop_list=[invite_index])
    np.testing.assert_allclose(
        sent_times(messages, "host_a", "INVITE"), [CALL_START, CALL_START + T1]
    )
    invite = client(transactions, "host_a", "INVITE")
    assert invite["retransmissions"] == 1 and invite["status"] == 200
    assert T1 < invite["duration"] < T1 + 0.01
    assert calls[calls["side"] == "caller"]["bye_status"].tolist() == [200]


def test_timer_a_doubles_from_t1_until_the_invite_gets_through(ns):
    messages, transactions, _ = run(ns, "udp", 20.0, loss=(CALL_START, 9.0))
    # sends at 0, T1, 3 T1, 7 T1, 15 T1 (lost), 31 T1 (gets through)
    expected = CALL_START + T1 * np.array([0, 1, 3, 7, 15, 31])
    np.testing.assert_allclose(sent_times(messages, "host_a", "INVITE"), expected)
    invite = client(transactions, "host_a", "INVITE")
    assert invite["retransmissions"] == 5 and invite["status"] == 200


def test_timer_b_times_out_after_64_t1_and_the_call_fails(ns):
    messages, transactions, calls = run(ns, "udp", 40.0, loss=(CALL_START, None))
    expected = CALL_START + T1 * np.array([0, 1, 3, 7, 15, 31, 63])
    np.testing.assert_allclose(sent_times(messages, "host_a", "INVITE"), expected)
    invite = client(transactions, "host_a", "INVITE")
    assert invite["outcome"] == "timeout" and invite["status"] == 0
    assert invite["duration"] == pytest.approx(64 * T1)
    caller = calls[calls["side"] == "caller"].iloc[0]
    assert caller["invite_status"] == 0 and np.isnan(caller["answered"])


def test_timer_e_caps_at_t2_and_timer_f_fails_the_bye(ns):
    # the call is set up at ~1.001 s, BYE at ~2.001 s; from 1.5 s on the proxy is cut off
    messages, transactions, calls = run(ns, "udp", 40.0, loss=(CALL_START + 0.5, None))
    bye_times = sent_times(messages, "host_a", "BYE")
    intervals = np.diff(bye_times)
    # E: T1, 2 T1, 4 T1, then T2 (= 8 T1) until F = 64 T1
    np.testing.assert_allclose(intervals, [T1, 2 * T1, 4 * T1] + [T2] * 7)
    bye = client(transactions, "host_a", "BYE")
    assert bye["outcome"] == "timeout" and bye["duration"] == pytest.approx(64 * T1)
    assert bye["retransmissions"] == 10
    assert calls[calls["side"] == "caller"]["bye_status"].tolist() == [0]


def test_tcp_never_retransmits_at_the_sip_layer(ns):
    """The same 200 ms outage: UDP SIP retransmits the INVITE after T1, TCP SIP sends it
    once and TCP recovers the segment."""
    udp_messages, udp_tx, _ = run(ns, "udp", 6.0, loss=(CALL_START, CALL_START + 0.2))
    tcp_messages, tcp_tx, tcp_calls = run(ns, "tcp", 6.0, loss=(CALL_START, CALL_START + 0.2))
    assert len(sent_times(udp_messages, "host_a", "INVITE")) == 2
    assert client(udp_tx, "host_a", "INVITE")["retransmissions"] == 1
    assert len(sent_times(tcp_messages, "host_a", "INVITE")) == 1
    invite = client(tcp_tx, "host_a", "INVITE")
    assert invite["retransmissions"] == 0 and invite["status"] == 200
    assert invite["duration"] > 0.2  # waited for TCP's own retransmission
    assert (tcp_tx["retransmissions"] == 0).all()
    assert tcp_calls[tcp_calls["side"] == "caller"]["bye_status"].tolist() == [200]


def test_tcp_invite_times_out_by_timer_b_without_retransmissions(ns):
    messages, transactions, calls = run(ns, "tcp", 40.0, loss=(CALL_START, None))
    assert len(sent_times(messages, "host_a", "INVITE")) == 1
    invite = client(transactions, "host_a", "INVITE")
    assert invite["outcome"] == "timeout" and invite["retransmissions"] == 0
    assert invite["duration"] == pytest.approx(64 * T1)
    assert calls[calls["side"] == "caller"]["invite_status"].tolist() == [0]


def test_lost_200_ok_is_retransmitted_by_the_callee_and_acked_again(ns):
    """A 2xx to INVITE is retransmitted by the UAS core (RFC 3261 13.3.1.4) until the ACK
    arrives, and each retransmission reaching the caller is acknowledged again."""
    messages, _, _ = run(ns, "udp", 4.0)
    at_proxy = messages[(messages["endpoint"] == "proxy") & (messages["direction"] == "received")][
        "kind"
    ].tolist()
    ok_index = at_proxy.index("200 INVITE")
    messages, transactions, calls = run(ns, "udp", 6.0, drop_list=[ok_index])
    ok_times = sent_times(messages, "host_b", "200 INVITE")
    assert len(ok_times) == 2 and ok_times[1] - ok_times[0] == pytest.approx(T1)
    callee = calls[calls["side"] == "callee"].iloc[0]
    assert callee["ok_retransmissions"] == 1 and callee["bye_status"] == 200
