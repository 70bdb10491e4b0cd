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


def test_pr_sctp_without_the_model_is_a_clear_error():
    if study.pr_sctp_available():
        pytest.skip("this build has PR-SCTP")
    with pytest.raises(RuntimeError, match="PR-SCTP"):
        study.simulate({**SHORT, "transport": "sctp", "sctp_pr_lifetime_ms": 100.0}, 1, 1)


def test_short_sctp_runs_ordered_and_unordered_deliver_every_frame():
    for delivery in ("ordered", "unordered"):
        tables = study.simulate({**SHORT, "transport": "sctp", "sctp_delivery": delivery}, 1, 1)
        summary = tables["summary"].set_index("policy")
        assert summary.loc["arrival", "network_loss_rate"] == 0
        assert summary.loc["arrival", "frames_per_s"] == pytest.approx(4 * 50)
        # a 172-byte message in a DATA chunk (16) in an SCTP packet (12) in IPv4 (20) = 220
        # bytes, +2 of PPP: call 0's fastest frame, as for UDP's 202 bytes
        sample = tables["sample"]
        fastest = (sample["arrival"] - sample["send"]).min() * 1e3
        assert fastest == pytest.approx(24.0 + 2 * 222 * 8 / 1e5 + 222 * 8 / 5e3, abs=1e-6)


def test_sctp_streams_keep_a_loss_on_one_call_from_delaying_the_others(monkeypatch):
    """One association for 8 calls: each call on its own stream vs all on stream 0.

    With one stream, a lost packet holds up the frames of every call sent after it until
    its retransmission arrives; with a stream per call only those of the calls it carried.
    (The two runs are not packet-for-packet identical: earlier delivery frees the receive
    window earlier.)
    """
    base = {**SHORT, "transport": "sctp", "topology": "trunk", "connection": "shared",
            "n_calls": 8, "link_loss_rate": 0.01, "duration_s": 5.0, "drain_s": 10.0}  # fmt: skip
    install = study._install_calls

    def one_stream(ns, net, p, recorder, stop):
        install(ns, net, p, recorder, stop)
        for i in range(net.senders.Get(0).GetNApplications()):
            net.senders.Get(0).GetApplication(i).SetAttribute(
                "SctpStreamPerCall", ns.BooleanValue(False)
            )

    def delays(raw):
        received = raw["packets"][raw["packets"]["event"] == "received"]
        return received.set_index(["flow", "seq"])["delay"].sort_index()

    per_call = delays(study.run_network(base))
    monkeypatch.setattr(study, "_install_calls", one_stream)
    single = delays(study.run_network(base))
    assert len(per_call) == len(single) == 8 * 250
    held_up = {
        name: int((d > 0.1).sum()) for name, d in (("per_call", per_call), ("single", single))
    }
    assert held_up["per_call"] < held_up["single"]
    assert per_call.mean() < single.mean()
