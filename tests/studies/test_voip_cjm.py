"""The voip_cjm study: scenario facts, short runs, determinism, parameter errors."""

from __future__ import annotations

import pandas as pd
import pytest

from transportlab.params import ParameterError
from transportlab.studies import get
from transportlab.studies import voip_cjm as study

SHORT = {"n_calls": 4, "duration_s": 3.0, "drain_s": 1.0}


def test_registered_with_its_seed_and_notebook():
    s = get("voip_cjm")
    assert s.seed_files == ("001_8dea97bcf2df26a4.txt",)
    assert s.notebook == "02_voip_cjm.ipynb"
    assert s.simulate is study.simulate


def test_scenario_facts():
    p = study.PARAMETERS.validate({})
    # G.711, 20 ms: 160 bytes of speech + 12 (RTP-sized) = 172-byte messages
    assert study.voice_payload_bytes(p) == 172
    # 48 calls x 50 frames/s = the seed's 2400 packets/s
    assert p["n_calls"] * 1000 / p["frame_ms"] == 2400
    assert p["mtu_bytes"] == 576 and p["duration_s"] == 900
    delays = study.access_delays_ms(p)
    assert delays[0] == 2.0 and delays[-1] == 20.0 and len(set(delays)) == 48
    assert study.access_delays_ms({**p, "topology": "trunk"}) == [2.0] * 48
    assert [x.name for x in study.playout_policies(p)] == list(study.PLAYOUT_POLICIES)
    cjm = study.playout_policies(p)[-1]
    assert cjm.buffer_bytes == 2_880_000  # 100 chunks x 50 packets x 576 bytes


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"transprt": "udp"}, "did you mean 'transport'"),
        ({"transport": "dccp"}, "not one of"),
        ({"n_calls": 0}, ">= 1"),
        ({"duration_s": "long"}, "expected float"),
        ({"access_delay_min_ms": 30.0}, "access_delay_max_ms must be >="),
        ({"mtu_bytes": 150}, "larger than mtu_bytes"),
        ({"transport": "tcp", "connection": "shared"}, "needs topology = 'trunk'"),
        ({"transport": "udp", "sctp_delivery": "unordered"}, "apply to transport = 'sctp' only"),
        ({"cross_traffic": "udp_onoff", "cross_rate_mbps": 6.0}, "below bottleneck"),
        ({"cjm_start_chunks": 5, "cjm_buffer_chunks": 4}, "cannot exceed"),
    ],
)
def test_bad_parameters_stop_before_anything_runs(values, message):
    with pytest.raises(ParameterError, match=message):
        study.simulate(values, 1, 1)


def test_short_udp_run_delivers_every_frame_at_the_propagation_delay():
    tables = study.simulate({**SHORT, "transport": "udp"}, seed=1, run=1)
    summary = tables["summary"].set_index("policy")
    calls = tables["calls"]
    assert set(tables) == {"summary", "calls", "per_second", "sample", "cost"}
    assert summary.loc["arrival", "network_loss_rate"] == 0
    assert summary.loc["arrival", "frames_per_s"] == pytest.approx(4 * 50, abs=2)
    assert summary.loc["arrival", "ip_packets_per_frame"] == pytest.approx(1.0)
    # call 0: access links 2 ms each, shared link 20 ms; a 200-byte IP packet (+2 bytes of
    # PPP) serialised twice at 100 Mb/s and once at 5 Mb/s
    first = calls[(calls["call"] == 0) & (calls["policy"] == "arrival")].iloc[0]
    expected = 24.0 + 2 * 202 * 8 / 100e6 * 1e3 + 202 * 8 / 5e6 * 1e3
    assert first["propagation_ms"] == 24.0
    assert tables["sample"]["arrival"].sub(tables["sample"]["send"]).min() * 1e3 == pytest.approx(
        expected, abs=1e-6
    )
    # the fixed playout point (130 ms) is after every arrival; CJM waits for 50 frames
    assert summary.loc["fixed", "late_loss_rate"] == 0
    assert summary.loc["cjm", "playout_delay_mean_ms"] > 50 * 20
    assert summary.loc["fixed", "R"] == pytest.approx(89.54, abs=0.01)  # Ta = 150 ms, no loss


def test_short_tcp_run_and_random_loss():
    tcp = {**SHORT, "transport": "tcp", "link_loss_rate": 0.05, "drain_s": 10.0}
    tables = study.simulate(tcp, seed=1, run=1)
    summary = tables["summary"].set_index("policy")
    # TCP recovers every loss (given time to drain): nothing missing, but retransmitted
    # frames and those behind them come late
    assert summary.loc["arrival", "network_loss_rate"] == 0
    assert summary.loc["fixed", "late_loss_rate"] > 0
    assert summary.loc["arrival", "delay_max_ms"] > 130.0
    udp = study.simulate({**SHORT, "transport": "udp", "link_loss_rate": 0.05}, seed=1, run=1)
    lost = udp["summary"].set_index("policy").loc["arrival", "network_loss_rate"]
    assert 0.01 < lost < 0.12


def test_same_seed_and_run_are_identical_other_runs_differ():
    a = study.simulate(SHORT, seed=1, run=1)
    b = study.simulate(SHORT, seed=1, run=1)
    c = study.simulate(SHORT, seed=1, run=2)
    for name in ("summary", "calls", "per_second", "sample"):
        pd.testing.assert_frame_equal(a[name], b[name])
    assert not a["sample"]["send"].equals(c["sample"]["send"])  # other call start times


def test_the_sweep_runner_takes_its_tables():
    from transportlab import sweep

    tables = sweep.run(
        study.STUDY, [SHORT], runs=1, quick=True, scheduler="serial", cache=False, progress=False
    )
    assert tables["summary"]["n_calls"].eq(4).all()
    assert set(tables["summary"]["policy"]) == set(study.PLAYOUT_POLICIES)


def test_sctp_without_the_model_is_a_clear_error():
    if study.sctp_available():
        pytest.skip("this build has the SCTP model")
    with pytest.raises(RuntimeError, match="SCTP model"):
        study.simulate({**SHORT, "transport": "sctp"}, 1, 1)


@pytest.mark.parametrize("ns2", [True, False])
def test_tcp_sockets_get_the_ns2_defaults_or_ns3s(ns2):
    from transportlab.simulation import simulation

    p = study.PARAMETERS.validate({"transport": "tcp", "ns2_defaults": ns2})
    with simulation() as ns:
        study._configure_transport(ns, p)
        node = ns.CreateObject[ns.Node]()
        ns.InternetStackHelper().Install(node)
        socket = ns.Socket.CreateSocket(node, ns.TcpSocketFactory.GetTypeId())

        def attribute(name, value):
            socket.GetAttribute(name, value)
            return value

        assert attribute("SegmentSize", ns.UintegerValue()).Get() == 536  # 576-byte packets
        assert not attribute("Timestamp", ns.BooleanValue()).Get()
        min_rto = attribute("MinRto", ns.TimeValue()).Get().GetMilliSeconds()
        assert min_rto == (200 if ns2 else 1000)
        assert attribute("Sack", ns.BooleanValue()).Get() == (not ns2)
        assert attribute("InitialCwnd", ns.UintegerValue()).Get() == (2 if ns2 else 10)
        assert attribute("DelAckCount", ns.UintegerValue()).Get() == (1 if ns2 else 2)
