"""The voip_cjm study: parameters, cache key, analysis and comparison by hand, short runs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from transportlab.engine.fingerprint import module_closure
from transportlab.engine.params import ParameterError
from transportlab.models import emodel
from transportlab.studies import get
from transportlab.studies.voip_cjm import (
    STUDY,
    analysis,
    comparison,
    parameters,
    reproduction,
    scenario,
)

SHORT = {"n_calls": 4, "duration": 3.0, "drain": 1.0}


def params(**overrides):
    return parameters.PARAMETERS.validate(overrides)


# ----------------------------------------------------------------------------- pure Python


def test_registered_with_its_seed_notebook_and_steps():
    s = get("voip_cjm")
    assert s is STUDY
    assert s.seed_files == ("001_8dea97bcf2df26a4.txt",)
    assert s.notebook == "02_voip_cjm.ipynb"
    assert s.run is scenario.run and s.analyse is analysis.analyse
    assert [e.name for e in s.reproduction.experiments] == [
        "main", "loss", "cross_traffic", "trunk", "talkspurts", "load", "playout_models",
    ]  # fmt: skip
    assert s.reproduction.comparison is comparison.comparison
    assert set(s.reproduction.tables) >= {"summary"}


def test_the_run_step_imports_no_analysis():
    """Changing a playout model, the E-model or a metric must cost no simulation."""
    closure = set(module_closure(["transportlab.studies.voip_cjm.scenario"]))
    assert "transportlab.studies.voip_cjm.voice_gateways" in closure
    for analysis_module in (
        "transportlab.models.playout",
        "transportlab.models.emodel",
        "transportlab.models.metrics",
        "transportlab.engine.stats",
        "transportlab.engine.published",
        "transportlab.engine.verdicts",
        "transportlab.studies.voip_cjm.voice_quality",
        "transportlab.studies.voip_cjm.analysis",
        "transportlab.studies.voip_cjm.reproduction",
    ):
        assert analysis_module not in closure


def test_codec_choices_are_the_e_models():
    assert parameters.CODECS == tuple(emodel.CODECS)


def test_scenario_facts():
    p = params()
    # G.711, 20 ms: 160 bytes of speech + 12 (RTP-sized) = 172-byte messages
    assert parameters.voice_payload_bytes(p) == 172
    assert [parameters.ip_packet_bytes(p, x) for x in ("udp", "tcp", "sctp")] == [200, 212, 220]
    # 48 calls x 50 frames/s = the seed's 2400 packets/s
    assert p["n_calls"] * 1000 / p["frame_ms"] == 2400
    assert p["mtu_bytes"] == 576 and p["duration"] == 900
    assert parameters.PARAMETERS.validate({}, quick=True)["duration"] == 10
    delays = parameters.access_delays_ms(p)
    assert delays[0] == 2.0 and delays[-1] == 20.0 and len(set(delays)) == 48
    assert parameters.access_delays_ms({**p, "topology": "trunk"}) == [2.0] * 48
    assert [x.name for x in analysis.playout_policies(p)] == list(analysis.PLAYOUT_POLICIES)
    cjm = analysis.playout_policies(p)[-1]
    assert cjm.buffer_bytes == 2_880_000  # 100 chunks x 50 packets x 576 bytes
    variants = [x.name for x in analysis.playout_policies({**p, "playout_set": "variants"})]
    assert variants[:4] == ["fixed 80 ms", "fixed 130 ms", "adaptive", "adaptive +5 ms"]
    assert variants[4:] == ["cjm 1", "cjm 5", "cjm 10", "cjm 25", "cjm 50"]


def test_voice_link_rate_is_frames_times_ip_and_ppp_bytes():
    # 48 calls x 50 frames/s x (172 + 8 UDP + 20 IP + 2 PPP) bytes x 8 = 3.8784 Mb/s
    assert analysis.voice_link_rate_mbps(params()) == pytest.approx(3.8784)
    # SCTP: 12-byte common header + 16-byte DATA chunk header instead of UDP's 8
    assert analysis.voice_link_rate_mbps(params(protocol="sctp")) == pytest.approx(4.2624)
    assert analysis.voice_link_rate_mbps(params(n_calls=72)) == pytest.approx(3.8784 * 1.5)


def test_load_sweep_points_cross_the_link_capacity():
    full = reproduction.load_points(params())
    configs = {(p["protocol"], p.get("sctp_delivery")) for p in full}
    assert ("sctp", "unordered") not in configs and ("udp", None) in configs
    cross = sorted({p.get("cross_rate_mbps", 0.0) for p in full if "n_calls" not in p})
    assert cross == [0.0, 0.5, 1.0, 1.5, 2.0, 3.0]
    assert all(p.get("cross_traffic", "none") == "none" for p in full if "cross_rate_mbps" not in p)
    calls = sorted({p["n_calls"] for p in full if "n_calls" in p})
    assert calls == [56, 64, 72]
    # the largest loads are above the 5 Mb/s link for every transport
    assert analysis.voice_link_rate_mbps(params(n_calls=72)) > 5.0
    assert len(reproduction.quick_load_points(params())) == 2 * len(configs)


def test_hand_calculation():
    hand = analysis.hand_calculation(params())
    assert hand["message_bytes"] == 172 and hand["offered_frames_per_s"] == 2400
    # 2400 x 202 bytes (with PPP) x 8 / 5 Mb/s
    assert hand["link_load"]["udp"] == pytest.approx(2400 * 202 * 8 / 5e6)
    assert hand["propagation_ms"] == (24.0, 60.0)
    assert hand["fastest_udp_delay_ms"] == pytest.approx(24 + 2 * 1616 / 1e5 + 1616 / 5e3)
    assert hand["cjm_buffer_bytes"] == 2_880_000


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"protocl": "udp"}, "did you mean 'protocol'"),
        ({"transport": "udp"}, "unknown parameter 'transport'"),
        ({"protocol": "dccp"}, "not one of"),
        ({"n_calls": 0}, ">= 1"),
        ({"duration": "long"}, "expected float"),
        ({"access_delay_min_ms": 30.0}, "access_delay_max_ms must be >="),
        ({"mtu_bytes": 150}, "larger than mtu_bytes"),
        ({"protocol": "tcp", "connection": "shared"}, "needs topology = 'trunk'"),
        ({"protocol": "udp", "sctp_delivery": "unordered"}, "apply to protocol = 'sctp' only"),
        ({"cross_traffic": "udp_onoff", "cross_rate_mbps": 6.0}, "below bottleneck"),
        ({"cjm_start_chunks": 5, "cjm_buffer_chunks": 4}, "cannot exceed"),
        ({"playout_set": "all"}, "not one of"),
    ],
)
def test_bad_parameters_stop_before_anything_runs(values, message):
    with pytest.raises(ParameterError, match=message):
        STUDY.simulate(values, 1, 1)


def _raw() -> tuple[dict[str, pd.DataFrame], dict]:
    """Two calls of three 20 ms frames, sent from 2.0 s; call 1's middle frame is lost."""
    p = params(n_calls=2, duration=4.0, drain=1.0)
    rows = []
    for call in (0, 1):
        for seq in range(3):
            sent = 2.0 + 0.01 * call + 0.02 * seq
            rows.append(("sent", call, seq, 172, sent, sent))
            if (call, seq) != (1, 1):
                delay = 0.024 + 0.001 * seq  # call 0 starts at 24 ms of propagation
                rows.append(("received", call, seq, 172, sent + delay, sent))
    packets = pd.DataFrame(rows, columns=["event", "flow", "seq", "size", "time", "sent_time"])
    packets["delay"] = np.where(
        packets["event"] == "received", packets["time"] - packets["sent_time"], np.nan
    )
    counters = pd.DataFrame({"ip_packets_to_receivers": [10], "events": [1234]})
    return {"packets": packets, "counters": counters}, p


def test_analyse_a_hand_made_recording():
    raw, p = _raw()
    tables = analysis.analyse(raw, p)
    assert set(tables) == {"summary", "calls", "per_second", "sample", "cost"}
    summary = tables["summary"].set_index("policy")
    assert list(summary.index) == list(analysis.PLAYOUT_POLICIES)
    # 5 of 6 frames arrived, over 4 s of voice per call
    assert summary.loc["arrival", "frames_per_s"] == pytest.approx(5 / 4.0)
    assert summary.loc["arrival", "network_loss_rate"] == pytest.approx(1 / 6)
    # 10 IP packets carried 5 frames (e.g. 5 TCP ACK-less segments + the handshakes)
    assert summary.loc["arrival", "ip_packets_per_frame"] == pytest.approx(2.0)
    assert summary.loc["arrival", "ip_packets_per_s"] == pytest.approx(2.5)
    assert summary.loc["arrival", "delay_max_ms"] == pytest.approx(26.0)
    assert summary.loc["arrival", "delay_mean_ms"] == pytest.approx((24 + 25 + 26 + 24 + 26) / 5)
    # the fixed point (130 ms after sending) plays every received frame: Ta = 150 ms
    assert summary.loc["fixed", "late_loss_rate"] == 0
    assert summary.loc["fixed", "total_loss_rate"] == pytest.approx(1 / 6)
    assert summary.loc["fixed", "mouth_to_ear_ms"] == pytest.approx(150.0)
    calls = tables["calls"]
    # the second of two calls has the longest access links (20 ms each way)
    assert calls.loc[calls["call"] == 1, "propagation_ms"].unique().tolist() == [60.0]
    # per_second bins from the first send (2 s) to the end of the run (2 + 4 + 1 s)
    rate = tables["per_second"]
    assert rate["second"].tolist() == [2.0, 3.0, 4.0, 5.0, 6.0]
    assert rate["frames"].tolist() == [5, 0, 0, 0, 0]
    assert tables["cost"].to_dict("records") == [{"events": 1234, "recorded": 11}]
    sample = tables["sample"]
    assert sample["call"].eq(0).all() and len(sample) == 3
    assert {"slot_cjm", "played_fixed"} <= set(sample.columns)


def test_analysed_columns_do_not_clash_with_parameters():
    raw, p = _raw()
    for name, table in analysis.analyse(raw, p).items():
        clash = set(table.columns) & set(p)
        assert not clash, f"{name}: {clash}"


class _FakeResults:
    """What comparison.comparison reads: results["main"]["summary"]."""

    study = STUDY

    def __init__(self, summary: pd.DataFrame) -> None:
        self.summary = summary

    def __getitem__(self, name):
        assert name == "main"
        return {"summary": self.summary}


def test_comparison_rows_come_from_reproduction_comparison():
    rows = []
    for protocol, delivery in (("udp", "ordered"), ("tcp", "ordered"), ("sctp", "ordered")):
        for run, (frames, delay_max, jitter) in enumerate(
            [(2400.0, 60.0, 0.001), (2400.0, 62.0, 0.003)], start=1
        ):
            for policy in analysis.PLAYOUT_POLICIES:
                rows.append({
                    "protocol": protocol, "sctp_delivery": delivery, "sctp_pr_lifetime_ms": 0.0,
                    "connection": "per_call", "run": run, "policy": policy,
                    "frames_per_s": frames, "delay_max_ms": delay_max + (protocol == "tcp"),
                    "before_jitter_ms": jitter,
                })  # fmt: skip
    table = comparison.comparison(_FakeResults(pd.DataFrame(rows))).set_index(
        ["protocol", "metric"]
    )
    assert len(table) == 6  # UDP has no published value; the ITU-T limits are not results
    rate = table.loc[("SCTP", "packets_received_per_second")]
    # SCTP's 2400 packets/s is an input (48 calls x 50 packets/s), never a match.
    assert (rate["reproduced"], rate["n_runs"], rate["verdict"]) == (2400.0, 2, "input")
    # Two runs of a stochastic model get no verdict.
    assert table.loc[("TCP", "packets_received_per_second"), "verdict"] == "too-few-runs"
    # TCP's maximum delay (61 and 63 ms) above SCTP's (60, 62), as published (180 > 150)
    assert table.loc[("TCP", "delay_max"), "reproduced"] == pytest.approx(62.0)
    assert table.loc[("TCP", "delay_max"), "verdict"] == "too-few-runs"
    assert table.loc[("SCTP", "jitter"), "reproduced"] == pytest.approx(0.002)
    assert table.loc[("SCTP", "jitter"), "verdict"] == "too-few-runs"


def test_experiment_points_in_quick_and_full_mode():
    quick = parameters.PARAMETERS.validate({}, quick=True)
    full = parameters.PARAMETERS.validate({})
    experiments = {e.name: e for e in STUDY.reproduction.experiments}

    def points(name, mode):
        return experiments[name].point_list(quick if mode == "quick" else full, mode == "quick")

    assert points("main", "full")[:2] == [{"protocol": "udp"}, {"protocol": "tcp"}]
    assert points("main", "quick") == points("main", "full")  # 15 min or 10 s: the base
    # section 5 sends for one minute in full mode, for the quick-mode 10 s otherwise
    for name in ("loss", "cross_traffic", "trunk", "talkspurts", "load", "playout_models"):
        assert {p["duration"] for p in points(name, "full")} == {60.0}
        assert all("duration" not in p for p in points(name, "quick"))
    assert {p["loss_rate"] for p in points("loss", "full")} == {0.01, 0.03}
    assert {p["loss_rate"] for p in points("loss", "quick")} == {0.02}
    models = points("playout_models", "quick")
    assert [p["protocol"] for p in models] == ["udp", "tcp"]
    assert {p["playout_set"] for p in models} == {"variants"}
    assert reproduction.PLAYOUT_MODELS.runs == reproduction.PLAYOUT_MODELS.quick_runs == 1
    assert (reproduction.MAIN.runs, reproduction.MAIN.quick_runs) == (5, 2)
    for mode, base in (("quick", quick), ("full", full)):
        for name in experiments:
            for point in points(name, mode):
                parameters.PARAMETERS.validate({**base, **point}, quick=mode == "quick")


# ----------------------------------------------------------------------------- ns-3


def test_short_udp_run_delivers_every_frame_at_the_propagation_delay():
    tables = STUDY.simulate({**SHORT, "protocol": "udp"}, seed=1, run=1)
    summary = tables["summary"].set_index("policy")
    calls = tables["calls"]
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
    tcp = {**SHORT, "protocol": "tcp", "loss_rate": 0.05, "drain": 10.0}
    tables = STUDY.simulate(tcp, seed=1, run=1)
    summary = tables["summary"].set_index("policy")
    # TCP recovers every loss (given time to drain): nothing missing, but retransmitted
    # frames and those behind them come late
    assert summary.loc["arrival", "network_loss_rate"] == 0
    assert summary.loc["fixed", "late_loss_rate"] > 0
    assert summary.loc["arrival", "delay_max_ms"] > 130.0
    udp = STUDY.simulate({**SHORT, "protocol": "udp", "loss_rate": 0.05}, seed=1, run=1)
    lost = udp["summary"].set_index("policy").loc["arrival", "network_loss_rate"]
    assert 0.01 < lost < 0.12


def test_tcp_is_ns2_tahoe_by_default_and_the_variant_takes_effect():
    assert params()["tcp_variant"] == "TcpTahoe"  # NS-2's default Agent/TCP
    lossy = {**SHORT, "protocol": "tcp", "loss_rate": 0.05, "drain": 10.0}
    tahoe = scenario.run(params(**lossy), 1, 1)["packets"]
    newreno = scenario.run(params(**lossy, tcp_variant="TcpNewReno"), 1, 1)["packets"]
    # the same losses recovered differently: Tahoe slow-starts from one segment after
    # a fast retransmit, NewReno halves its window, so the arrival times differ
    assert len(tahoe) == len(newreno)
    assert not tahoe["time"].equals(newreno["time"])


def test_same_seed_and_run_are_identical_other_runs_differ():
    p = params(**SHORT)
    a, b, c = scenario.run(p, 1, 1), scenario.run(p, 1, 1), scenario.run(p, 1, 2)
    pd.testing.assert_frame_equal(a["packets"], b["packets"])
    pd.testing.assert_frame_equal(a["counters"], b["counters"])
    assert not a["packets"]["time"].equals(c["packets"]["time"])  # other call start times


def test_the_sweep_runner_takes_its_tables(tmp_path):
    from transportlab.engine import execute

    tables = execute.run(
        STUDY, [SHORT], runs=1, quick=True, scheduler="serial", cache=tmp_path, progress=False
    )
    assert tables["summary"]["n_calls"].eq(4).all()
    assert set(tables["summary"]["policy"]) == set(analysis.PLAYOUT_POLICIES)
    # the cache holds the run step's raw tables (loaded here, not simulated again)
    raw = execute.run(STUDY, [SHORT], runs=1, quick=True, cache=tmp_path, progress=False,
                      analyse=False)  # fmt: skip
    assert set(raw) == {"packets", "counters"}


def test_pr_sctp_without_the_model_is_a_clear_error():
    from transportlab.ns3.capabilities import pr_sctp_available

    if pr_sctp_available():
        pytest.skip("this build has PR-SCTP")
    with pytest.raises(RuntimeError, match="PR-SCTP"):
        STUDY.simulate({**SHORT, "protocol": "sctp", "sctp_pr_lifetime_ms": 100.0}, 1, 1)


def test_short_sctp_runs_ordered_and_unordered_deliver_every_frame():
    for delivery in ("ordered", "unordered"):
        tables = STUDY.simulate({**SHORT, "protocol": "sctp", "sctp_delivery": delivery}, 1, 1)
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
    base = params(**{**SHORT, "protocol": "sctp", "topology": "trunk", "connection": "shared",
                     "n_calls": 8, "loss_rate": 0.01, "duration": 5.0, "drain": 10.0})  # fmt: skip
    install = scenario._install_calls

    def one_stream(ns, net, p, recorder, stop):
        install(ns, net, p, recorder, stop)
        for i in range(net.senders.Get(0).GetNApplications()):
            net.senders.Get(0).GetApplication(i).SetAttribute(
                "SctpStreamPerCall", ns.BooleanValue(False)
            )

    def delays(raw):
        received = raw["packets"][raw["packets"]["event"] == "received"]
        return received.set_index(["flow", "seq"])["delay"].sort_index()

    per_call = delays(scenario.run(base, 1, 1))
    monkeypatch.setattr(scenario, "_install_calls", one_stream)
    single = delays(scenario.run(base, 1, 1))
    assert len(per_call) == len(single) == 8 * 250
    held_up = {
        name: int((d > 0.1).sum()) for name, d in (("per_call", per_call), ("single", single))
    }
    assert held_up["per_call"] < held_up["single"]
    assert per_call.mean() < single.mean()
