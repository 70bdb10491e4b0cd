"""The wired best-effort dumbbell (seeds 000/004): topology, queue semantics, hand calculations,
analysis on hand-made raw tables, the reproduction's experiments and comparison."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from transportlab import cli
from transportlab.engine import execute, plan, verdicts
from transportlab.engine.params import ParameterError
from transportlab.ns3.capabilities import sctp_available
from transportlab.ns3.topology import dumbbell
from transportlab.studies import get
from transportlab.studies import wired_best_effort as wbe
from transportlab.studies.wired_best_effort import (
    analysis,
    comparison,
    parameters,
    reproduction,
    scenario,
)


def params(**overrides):
    return parameters.PARAMETERS.validate(overrides)


def simulate(values, seed=1, run=1):
    """Run and analyse one replication in this process (no cache)."""
    return wbe.STUDY.simulate(values, seed=seed, run=run)


# ----------------------------------------------------------------------------- pure Python


def test_registered_with_its_seeds():
    study = get("wired_best_effort")
    assert study.seed_files == ("000_efd8d8b62659a846.txt", "004_c8175ad9bda103cf.txt")
    assert study.run is scenario.run and study.analyse is analysis.analyse
    assert study.reproduction is reproduction.REPRODUCTION
    assert study.notebook == "01_wired_best_effort.ipynb"
    assert study.output_parameters == ("pcap_prefix",)


def test_run_step_imports_no_analysis_code():
    from transportlab.engine.fingerprint import module_closure

    closure = set(module_closure(["transportlab.studies.wired_best_effort.scenario"]))
    assert "transportlab.ns3.topology.dumbbell" in closure
    for analysing in ("metrics", "stats", "published", "studies.wired_best_effort.analysis",
                      "studies.wired_best_effort.reproduction"):  # fmt: skip
        assert f"transportlab.{analysing}" not in closure


def test_node_pairs_follow_the_ns2_script():
    pairs = parameters.node_pairs(params())
    assert parameters.node_count(params()) == 22
    assert list(pairs["source"]) == list(range(2, 12))
    assert list(pairs["sink"]) == list(range(12, 22))
    assert list(pairs["application"]) == ["ftp"] * 5 + ["cbr"] * 5
    assert list(pairs["transport"]) == ["tcp"] * 5 + ["udp"] * 5
    assert list(pairs["script_start"]) == [10, 15, 15, 20, 20, 30, 35, 30, 40, 50]
    assert pairs["pair"].iloc[0] == "nodes 2-12" and pairs["pair"].iloc[-1] == "nodes 11-21"
    sctp = parameters.node_pairs(params(protocol="sctp", ftp_starts=[1.0], cbr_starts=[2.0, 3.0]))
    assert list(sctp["transport"]) == ["sctp", "udp", "udp"]
    assert list(sctp["source"]) == [2, 3, 4] and list(sctp["sink"]) == [5, 6, 7]


def test_packet_sizes_against_ns2():
    sizes = analysis.packet_sizes(params()).set_index("packet")
    # NS-2: 1000 B + 40 B header; ns-3: 20 B IP + 20 B TCP, no options, + 2 B PPP.
    assert sizes.loc["TCP data", "ns2"] == 1040 and sizes.loc["TCP data", "ns3_ip"] == 1040
    assert sizes.loc["TCP data", "ns3_wire"] == 1042
    assert sizes.loc["TCP ACK", "ns2"] == 40 and sizes.loc["TCP ACK", "ns3_wire"] == 42
    # NS-2's UDP adds no header at all.
    assert sizes.loc["UDP CBR", "ns2"] == 1000 and sizes.loc["UDP CBR", "ns3_wire"] == 1030
    assert sizes.loc["UDP CBR", "ns3_wire / ns2"] == pytest.approx(1.03)
    # NS-2.35 SCTP: 1452 B of data + 16 B chunk header + 12 B common header + 20 B IP.
    assert sizes.loc["SCTP DATA", "ns2"] == 1500
    assert sizes.loc["TCP data", "transmission_ms"] == pytest.approx(1042 * 8 / 500)
    with_timestamps = analysis.packet_sizes(params(tcp_timestamps=True)).set_index("packet")
    assert with_timestamps.loc["TCP data", "ns3_ip"] == 1052


def test_queue_layout_keeps_ns2_limit():
    assert parameters.queue_layout(params()) == {
        "queue_disc": 0,
        "device": 49,
        "in_transmission": 1,
    }
    for discipline in ("fifo", "fq_codel"):
        layout = parameters.queue_layout(params(queue_discipline=discipline))
        assert layout == {"queue_disc": 48, "device": 1, "in_transmission": 1}
    assert sum(parameters.queue_layout(params(queue_packets=10)).values()) == 10
    assert dumbbell.queue_layout(50) == {"queue_disc": 0, "device": 49, "in_transmission": 1}
    with pytest.raises(ValueError, match="not one of"):
        dumbbell.queue_layout(50, "red")


def test_cbr_interval_is_ns2s():
    assert parameters.cbr_interval(params()) == pytest.approx(0.8)


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"bottleneck_rate": 0.5}, "unknown parameter 'bottleneck_rate'"),
        ({"protocol": "dccp"}, "not one of"),
        ({"queue_packets": 50.5}, "expected int"),
        ({"queue_limit": 50}, "unknown parameter 'queue_limit'"),
        ({"duration": 0}, "must be > 0"),
        ({"ftp_starts": [10.0, 2000.0]}, "must be before the end"),
        ({"ftp_starts": [], "cbr_starts": []}, "no flows"),
        ({"tcp_window": 80}, "exceeds 65535 B without tcp_window_scaling"),
        ({"queue_packets": 2, "queue_discipline": "fifo"}, "too small for fifo"),
        ({"pcap_prefix": "/nonexistent/dir/wired"}, "pcap_prefix: the folder of pcap_prefix"),
        ({"sample_interval": 5.0, "duration": 2.0}, "exceeds duration"),
        ({"cbr_starts": "30"}, "cbr_starts: expected"),
    ],
)
def test_bad_parameters_fail_before_anything_runs(overrides, message):
    with pytest.raises(ParameterError, match=message):
        parameters.PARAMETERS.validate(overrides)


def test_missing_pcap_folder_is_a_parameter_error_before_anything_runs(
    tmp_path, monkeypatch, capsys
):
    def must_not_run(*args, **kwargs):
        raise AssertionError("simulated despite a bad pcap_prefix")

    monkeypatch.setattr(execute, "_execute", must_not_run)
    with pytest.raises(ParameterError, match="does not exist"):
        plan.plan(wbe.STUDY, [{"pcap_prefix": "/nonexistent/dir/wired"}], quick=True)
    argv = ["sweep", "--study", "wired_best_effort", "--quick", "--output", str(tmp_path / "out"),
            "-p", "pcap_prefix=/nonexistent/dir/wired"]  # fmt: skip
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "/nonexistent/dir" in err and "does not exist" in err
    # An existing folder is fine, and a point writing pcaps always runs (never cached).
    values = params(pcap_prefix=str(tmp_path / "wired"))
    assert wbe.STUDY.writes_files(values) and not wbe.STUDY.writes_files(params())


def test_presets_are_valid_parameter_sets():
    for name, preset in reproduction.PRESETS.items():
        values = parameters.PARAMETERS.validate(preset)
        assert all(values[k] == v for k, v in preset.items()), name
    assert reproduction.PRESETS["modern_aqm"]["queue_discipline"] == "fq_codel"


def test_quick_mode_is_shorter():
    assert (
        parameters.PARAMETERS.defaults(quick=True)["duration"]
        < parameters.PARAMETERS.defaults()["duration"]
    )


# ----------------------------------------------------------------------------- ns-3


def test_topology_facts():
    from transportlab.ns3.simulation import simulation

    values = params()
    pairs = parameters.node_pairs(values)
    with simulation() as ns:
        net = scenario._build_dumbbell(ns, values, pairs)
        assert net.nodes.GetN() == 22
        degrees = [net.nodes.Get(i).GetNDevices() for i in range(22)]
        # Every node also has a loopback device.
        assert degrees[:2] == [12, 12] and set(degrees[2:]) == {2}

        def rate_and_delay(device):
            p2p = ns.DynamicCast[ns.PointToPointNetDevice](device)
            rate = ns.DataRateValue()
            p2p.GetAttribute("DataRate", rate)
            delay = ns.TimeValue()
            p2p.GetChannel().GetAttribute("Delay", delay)
            return rate.Get().GetBitRate(), delay.Get().GetSeconds()

        assert rate_and_delay(net.bottleneck) == (500_000, 0.1)
        assert rate_and_delay(net.bottleneck_reverse) == (500_000, 0.1)
        for flow in range(10):
            assert rate_and_delay(net.source_devices[flow]) == (1_000_000, 0.01)
            assert rate_and_delay(net.sink_devices[flow]) == (1_000_000, 0.03)
        layer = net.nodes.Get(0).GetObject[ns.TrafficControlLayer]()
        for device in [net.bottleneck, *net.source_devices.values()]:
            queue = ns.DynamicCast[ns.PointToPointNetDevice](device).GetQueue()
            assert queue.GetMaxSize().GetValue() == 49
        assert not layer.GetRootQueueDiscOnDevice(net.bottleneck)


def _burst(discipline: str) -> dict[str, pd.DataFrame]:
    # 60 CBR sources send one packet each at the same instant, then nothing for 1.6 s:
    # 60 packets reach router 0 together over identical access links.
    return simulate(
        params(
            duration=4.0,
            ftp_starts=[],
            cbr_starts=[1.0] * 60,
            cbr_rate_mbps=0.005,
            start_jitter_ms=0.0,
            queue_discipline=discipline,
            sample_interval=1.0,
            record_packets=True,
        ),
        seed=1,
        run=1,
    )


def test_droptail_holds_49_waiting_plus_one_in_transmission():
    out = _burst("droptail")
    packets = out["packets"]
    per_burst = packets.assign(burst=(packets["time"] > 2.5).astype(int))
    counts = per_burst.groupby(["burst", "point"], observed=False).size().unstack()
    assert list(counts["sent"]) == [60, 60]
    assert list(counts["bottleneck"]) == [50, 50]
    assert list(counts["dropped"]) == [10, 10]
    assert list(counts["received"]) == [50, 50]
    queue = out["series"].query("metric == 'queue_max_packets'")
    assert queue["flow"].eq(-1).all() and queue["value"].max() == 49
    # The burst drains one packet per transmission time: 1030 B at 0.5 Mb/s.
    sent_on_link = np.diff(packets.loc[packets["point"] == "bottleneck", "time"].to_numpy()[:50])
    assert sent_on_link == pytest.approx(np.full(49, 1030 * 8 / 500_000))


def test_fifo_queue_disc_holds_the_same_buffer_but_wakes_late():
    # Through the traffic-control layer (queue disc 48 + device 1 + 1 in transmission) the
    # queue disc is woken in a separate event, so a simultaneous burst gets one packet less.
    out = _burst("fifo")
    packets = out["packets"]
    first = packets[packets["time"] < 2.5]
    assert (first["point"] == "bottleneck").sum() == 49
    assert (first["point"] == "dropped").sum() == 11
    queue = out["series"].query("metric == 'queue_max_packets'")
    assert queue["value"].max() == 48


def test_one_tcp_flow_fills_the_bottleneck():
    values = params(
        duration=40.0, ftp_starts=[1.0], cbr_starts=[], start_jitter_ms=0.0, record_packets=True
    )
    out = simulate(values)
    goodput = out["series"].query("metric == 'goodput_kbps'")
    steady = goodput[(goodput["time"] > 10) & (goodput["time"] <= 40)]
    measured = steady["value"].mean() * 1e3
    # A 20-segment window (20 x 8336 bits per 0.315-s RTT > 500 kb/s) keeps the link busy
    # without loss; each 1042-byte frame carries 1000 bytes of data.
    assert measured == pytest.approx(500_000 * 1000 / 1042, rel=0.005)
    assert out["flows"]["data_dropped"].iloc[0] == 0
    assert out["run"]["bottleneck_utilisation"].iloc[0] > 0.95
    # Slow start up to ssthresh = window_ = 20 segments, then congestion avoidance with the
    # window limited by the receiver's 20 segments: no loss, ssthresh never changes.
    series = out["series"]
    ssthresh = series[(series["metric"] == "ssthresh_bytes") & (series["time"] >= 2)]
    assert (ssthresh["value"] == 20_000).all()
    cwnd = series[(series["metric"] == "cwnd_bytes") & (series["time"] >= 10)]
    assert (cwnd["value"] >= 20_000).all()


def test_cbr_flow_matches_hand_calculation():
    values = params(
        duration=20.5, ftp_starts=[], cbr_starts=[1.0], start_jitter_ms=0.0, record_packets=True
    )
    out = simulate(values)
    packets = out["packets"]
    sent = packets[packets["point"] == "sent"]
    received = packets[packets["point"] == "received"]
    # NS-2's CBR: first packet at the start, then one every 1000 * 8 / 10 000 = 0.8 s.
    expected_times = 1.0 + 0.8 * np.arange(math.floor(19.5 / 0.8) + 1)
    assert sent["time"].to_numpy() == pytest.approx(expected_times)
    assert set(sent["size"]) == {1028}  # 1000 B payload + 8 UDP + 20 IP
    # Store and forward over three links of an empty network.
    wire_bits = 1030 * 8
    delay = wire_bits / 1e6 + 0.01 + wire_bits / 5e5 + 0.1 + wire_bits / 1e6 + 0.03
    assert received["time"].to_numpy() - sent["time"].to_numpy() == pytest.approx(delay, abs=1e-9)
    flow = out["flows"].iloc[0]
    assert flow["rx_bytes"] == 1000 * len(expected_times)
    # Constant delay: no jitter in any definition; the AWK "delay" is the 0.8-s gap of the
    # packet closing each window (two packets per 1-s window), its e2eDelay the path delay.
    assert flow["delay_ms"] == pytest.approx(delay * 1e3)
    assert flow["awk_e2e_delay_ms"] == pytest.approx(delay * 1e3)
    assert flow["awk_jitter_ms"] == pytest.approx(0, abs=1e-9)
    assert flow["rfc3550_jitter_ms"] == pytest.approx(0, abs=1e-9)
    assert flow["ipdv_ms"] == pytest.approx(0, abs=1e-9)
    assert flow["awk_delay_s"] == pytest.approx(0.8)
    # 1028-byte datagrams count as 1000 bytes. The script's clock starts at the first trace
    # event (the first send, 1.0 s): the first window closes with the third packet
    # (3000 B over 1.77296 s), the next 11 with every second one (2000 B over 1.6 s).
    first_window = 3000 / (2 * 0.8 + delay) * 8 / 1000
    assert flow["awk_throughput_kbps"] == pytest.approx((first_window + 11 * 10.0) / 12)
    assert flow["loss_ratio"] == 0


@pytest.mark.slow
def test_same_run_is_identical_and_runs_differ():
    values = params(duration=60.0, record_packets=True)
    first = simulate(values)
    again = simulate(values)
    other = simulate(values, run=2)
    pd.testing.assert_frame_equal(first["packets"], again["packets"])
    pd.testing.assert_frame_equal(first["flows"], again["flows"])
    assert not np.array_equal(first["flows"]["start"], other["flows"]["start"])
    starts = other["flows"]["start"] - other["flows"]["script_start"]
    assert ((starts >= 0) & (starts < 0.1)).all()
    exact = simulate(dict(values, start_jitter_ms=0.0), run=3)
    assert list(exact["flows"]["start"]) == list(exact["flows"]["script_start"])


def test_one_sctp_flow_fills_the_bottleneck_with_full_packets():
    if not sctp_available():
        pytest.skip("the SCTP model is not built in")
    values = params(
        protocol="sctp",
        duration=40.0,
        ftp_starts=[1.0],
        cbr_starts=[],
        start_jitter_ms=0.0,
        record_packets=True,
    )
    out = simulate(values)
    packets = out["packets"]
    data = packets[(packets["point"] == "sent") & (packets["size"] > 200)]
    # NS-2.35 preset: 1452 data bytes + 16 (DATA chunk) + 12 (common header) + 20 (IP).
    assert set(data["size"]) == {1500}
    series = out["series"]
    goodput = series[(series["metric"] == "goodput_kbps") & (series["time"] > 10)]
    # A 64-kB receive window keeps the 0.5 Mb/s link busy; 1452 of every 1502 bytes are data.
    assert goodput["value"].mean() == pytest.approx(500 * 1452 / 1502, rel=0.005)
    assert out["flows"]["data_dropped"].iloc[0] == 0
    assert series[series["metric"] == "cwnd_bytes"]["value"].max() > 4380


def test_sctp_needs_the_sctp_model():
    if sctp_available():
        pytest.skip("the SCTP model is built in")
    with pytest.raises(RuntimeError, match="SCTP model"):
        simulate(params(protocol="sctp", duration=5.0, ftp_starts=[1.0], cbr_starts=[]))


# ----------------------------------------------------------------------------- analysis helpers


def test_step_series_means_peaks_and_last_values():
    # 0 until 0.5 s, 4 until 1.5 s, 2 after; intervals [0, 1), [1, 2), [2, 3).
    mean, peak, last = analysis._step_series(
        np.array([0.5, 1.5]), np.array([4.0, 2.0]), np.array([1.0, 2.0, 3.0])
    )
    assert mean == pytest.approx([2.0, 3.0, 2.0])
    assert list(peak) == [4.0, 4.0, 2.0]
    assert list(last) == [4.0, 2.0, 2.0]


def test_packet_records_number_each_flows_data_packets_in_sending_order():
    packets = pd.DataFrame(
        {
            "point": pd.Categorical(
                ["sent", "sent", "sent", "sent", "received", "received", "dropped"],
                categories=["sent", "bottleneck", "dropped", "received"],
            ),
            "flow": [0, 1, 0, 0, 0, 1, 0],
            "packet": [0, 1, 2, 3, 0, 1, 3],
            "size": [40, 1040, 1040, 1040, 40, 1040, 1040],
            "time": [1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.35],
        }
    )
    records = analysis.packet_records(packets, pkt=1000)
    sent = records[records["event"] == "sent"].sort_values("packet")
    assert list(sent["packet"]) == [1, 2, 3]  # the 40-byte packet is left out
    assert list(sent["seq"]) == [0, 0, 1]  # per flow
    received = records[records["event"] == "received"]
    assert list(received["packet"]) == [1]
    assert received["delay"].iloc[0] == pytest.approx(0.4)
    assert received["sent_time"].iloc[0] == pytest.approx(1.1)


def _flows_table():
    rows = []
    for protocol, base in (("tcp", 90.0), ("sctp", 60.0)):
        for run in (1, 2):
            for flow in range(6):
                rows.append({
                    "protocol": protocol, "run": run, "flow": flow,
                    "pair": f"nodes {2 + flow}-{8 + flow}",
                    "application": "ftp" if flow < 5 else "cbr",
                    "awk_throughput_kbps": base + flow + run, "awk_jitter_ms": 10.0 + run,
                    "awk_delay_s": 0.5, "awk_e2e_delay_ms": 800.0 + flow,
                })  # fmt: skip
    return pd.DataFrame(rows)


def test_per_pair_summary_gives_student_intervals():
    summary = analysis.per_pair_summary(_flows_table(), metrics=["awk_jitter_ms"])
    row = summary[(summary["protocol"] == "tcp") & (summary["flow"] == 0)].iloc[0]
    # Values 11 and 12: mean 11.5, half width t(0.975, 1) * 0.5 = 6.353.
    assert row["mean"] == 11.5 and row["n_runs"] == 2
    assert row["ci_high"] - row["mean"] == pytest.approx(12.706 * 0.5, rel=1e-3)


def test_reproduced_values_shape_and_delay_readings():
    flows = _flows_table()
    printed = comparison.reproduced_values(flows, delay="printed")
    assert set(printed["protocol"]) == {"TCP", "SCTP"}
    delay = printed[printed["metric"] == "awk_delay"]
    assert set(delay["unit"]) == {"s"}
    # Five FTP pairs + their mean, per run and protocol; CBR pairs are not published.
    assert len(delay) == 2 * 2 * 6
    assert "nodes 7-13" not in set(printed["row"])
    assert "all pairs (mean)" not in set(printed.loc[printed["metric"] == "awk_throughput", "row"])
    e2e = comparison.reproduced_values(flows, delay="e2e")
    mean = e2e[(e2e["metric"] == "awk_delay") & (e2e["row"] == "all pairs (mean)")]
    assert set(mean["unit"]) == {"ms"} and set(mean["value"]) == {802.0}
    with pytest.raises(ValueError, match="printed' or 'e2e"):
        comparison.reproduced_values(flows, delay="mean")


def _raw_one_cbr_flow(**overrides):
    """Hand-made raw tables of ``scenario.run``: one CBR flow of four 1028-byte packets.

    Sent at 1.0, 1.8, 2.6, 3.4 s; the third is dropped at router 0, the others
    cross the bottleneck and arrive 0.2, 0.3 and 0.25 s after they were sent.
    """
    values = params(duration=5.0, ftp_starts=[], cbr_starts=[1.0], start_jitter_ms=0.0,
                    sample_interval=1.0, **overrides)  # fmt: skip
    flows = parameters.node_pairs(values).assign(start=[1.0], rx_bytes=[3000])
    point = pd.Categorical(
        ["sent", "bottleneck", "received", "sent", "bottleneck", "received", "sent", "dropped",
         "sent", "bottleneck", "received"],
        categories=scenario.POINTS,
    )  # fmt: skip
    packets = pd.DataFrame({
        "point": point,
        "flow": 0,
        "packet": [0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 3],
        "size": 1028,
        "time": [1.0, 1.05, 1.2, 1.8, 1.85, 2.1, 2.6, 2.61, 3.4, 3.45, 3.65],
    }).sort_values("time", kind="mergesort", ignore_index=True)  # fmt: skip
    goodput = pd.DataFrame({"flow": 0, "time": [1.0, 2.0, 3.0, 4.0, 5.0],
                            "bytes": [0, 1000, 1000, 0, 1000]})  # fmt: skip
    queue = pd.DataFrame({"series": ["device", "device"], "time": [1.05, 1.07],
                          "value": [1.0, 0.0]})  # fmt: skip
    windows = pd.DataFrame(columns=["series", "time", "value"])
    run_row = pd.DataFrame([{"events": 123, "build_seconds": 0.1, "run_seconds": 0.2,
                             "run_cpu_seconds": 0.2}])  # fmt: skip
    raw = {"flows": flows, "packets": packets, "goodput": goodput, "queue": queue,
           "windows": windows, "run": run_row}  # fmt: skip
    return raw, values


def test_analyse_hand_made_raw_tables():
    raw, values = _raw_one_cbr_flow(record_packets=True)
    tables = analysis.analyse(raw, values)
    flow = tables["flows"].iloc[0]
    # 3000 application bytes over the 4 s from the start to the end.
    assert flow["goodput_kbps"] == pytest.approx(3000 * 8 / 4.0 / 1e3)
    assert (flow["data_sent"], flow["data_received"], flow["data_dropped"]) == (4, 3, 1)
    assert flow["loss_ratio"] == 0.25
    assert flow["delay_ms"] == pytest.approx((200 + 300 + 250) / 3)
    # RFC 3393 IPDV of packets consecutive in sending order: only the first two (0.3 - 0.2 s);
    # the fourth packet's predecessor was dropped.
    assert flow["ipdv_ms"] == pytest.approx(100)
    run = tables["run"].iloc[0]
    # Three 1028-byte datagrams + 2 bytes PPP each on 0.5 Mb/s over the 4 s since the start.
    assert run["bottleneck_utilisation"] == pytest.approx(3 * 1030 * 8 / (500_000 * 4.0))
    assert run["bottleneck_drops"] == 1 and run["events"] == 123
    assert np.isnan(run["jain_goodput"])  # no FTP flow
    series = tables["series"]
    goodput = series[series["metric"] == "goodput_kbps"]["value"].to_numpy()
    assert goodput == pytest.approx([0, 8, 8, 0, 8])
    queue = series[series["metric"] == "queue_mean_packets"]["value"].to_numpy()
    assert queue == pytest.approx([0, 0.02, 0, 0, 0])
    pd.testing.assert_frame_equal(tables["packets"], raw["packets"])
    # Without the options neither the series nor the packets come back.
    quiet = analysis.analyse(*_raw_one_cbr_flow(record_series=False))
    assert set(quiet) == {"flows", "run"}


def _ftp_flows_table():
    """A sweep's ``flows`` table: five FTP pairs per protocol and run, like experiment main."""
    rows = []
    for protocol, base in (("tcp", 90.0), ("sctp", 60.0)):
        for run in (1, 2, 3):
            for flow in range(5):
                rows.append({
                    "protocol": protocol, "run": run, "flow": flow,
                    "pair": f"nodes {2 + flow}-{12 + flow}", "application": "ftp",
                    "awk_throughput_kbps": base + run, "awk_jitter_ms": 10.0 + flow,
                    "awk_delay_s": 0.5, "awk_e2e_delay_ms": 700.0 + 10 * run + flow,
                })  # fmt: skip
    return pd.DataFrame(rows)


class FakeResults:
    """What the reproduction functions read of a :class:`~transportlab.engine.results.Results`."""

    study = wbe.STUDY

    def __init__(self, flows):
        self.tables = {"main": {"flows": flows}}

    def __getitem__(self, name):
        return self.tables[name]

    def comparison(self):
        return comparison.comparison(self)


def test_comparison_rows_come_from_reproduction_comparison():
    results = FakeResults(_ftp_flows_table())
    table = comparison.comparison(results)
    expected = verdicts.compare(
        wbe.STUDY, comparison.reproduced_values(_ftp_flows_table(), delay="e2e")
    )
    pd.testing.assert_frame_equal(table, expected)
    assert set(table["n_runs"]) == {3}
    # Table 4.7: TCP's mean delay over the pairs is 700 + 20 + 2 = 722 ms against 1269.56.
    row = table[(table["source"] == "Table 4.7") & (table["protocol"] == "TCP")
                & (table["metric"] == "awk_delay")].iloc[0]  # fmt: skip
    assert row["unit"] == "ms" and row["reproduced"] == pytest.approx(722.0)
    assert row["verdict"] == "differs"
    # Every published row of both seeds that has a reproduction.
    assert len(table) == 64 and set(table["seed_file"]) == set(wbe.STUDY.seed_files)
    printed = comparison.comparison_printed(results)
    delay = printed[printed["metric"] == "awk_delay"]
    assert set(delay["reproduced"]) == {500.0}  # 0.5 s, in the published ms
    readings = comparison.delay_readings(results)
    assert len(readings) == (table["metric"] == "awk_delay").sum()
    assert list(readings["printed"]) == list(delay["reproduced"])
    counts = comparison.verdict_counts(results)
    assert counts.loc["e2eDelay reading (comparison.csv)"].to_numpy().sum() == len(table)


def test_experiments_quick_plan_without_running():
    from transportlab.engine.results import Results

    results = Results(wbe.STUDY, quick=True, progress=False)
    plan = results.plan()
    n = len(reproduction.protocols())
    expected = {"main": 2 * n, "detail": n, "tcp_variants": len(reproduction.TCP_VARIANTS),
                "modern": 2 * n}  # fmt: skip
    if sctp_available():
        expected["sctp_packet_size"] = len(reproduction.SCTP_MESSAGE_SIZES)
    assert {name: len(tasks) for name, tasks in plan.items()} == expected
    assert all(t.params["duration"] == 300.0 for tasks in plan.values() for t in tasks)
    assert not any(t.params["record_series"] for t in plan["main"])
    assert all(t.params["record_packets"] for t in plan["detail"])
    modern = {(t.params["queue_discipline"], t.params["tcp_congestion"]) for t in plan["modern"]}
    assert modern == {("droptail", "TcpCubic"), ("fq_codel", "TcpCubic")}
    full = Results(wbe.STUDY, progress=False)
    assert [full.runs(e.name) for e in full.experiments] == [10, 1, 5, 5, 5]
    assert full.params["duration"] == 1000.0


def test_full_queue_delay_bound():
    values = params()
    # 140 ms propagation + 1042-byte frame on 1, 0.5, 1 Mb/s + 49 frames on 0.5 Mb/s.
    expected = 0.14 + 1042 * 8 * (1 / 1e6 + 1 / 5e5 + 1 / 1e6) + 49 * 1042 * 8 / 5e5
    assert analysis.expected_queueing_delay(values, 1040) == pytest.approx(expected)


@pytest.mark.tshark
def test_bottleneck_pcap_decodes_and_agrees_with_the_recorder(tmp_path):
    import shutil
    import subprocess

    if shutil.which("tshark") is None:
        pytest.skip("tshark is not installed (make tshark)")
    values = params(
        duration=6.0,
        ftp_starts=[1.0],
        cbr_starts=[1.5],
        start_jitter_ms=0.0,
        record_packets=True,
        pcap_prefix=str(tmp_path / "bottleneck"),
    )
    out = simulate(values)
    (pcap,) = tmp_path.glob("bottleneck-0-*.pcap")
    fields = subprocess.run(
        ["tshark", "-r", str(pcap), "-o", "ip.check_checksum:TRUE", "-o",
         "tcp.check_checksum:TRUE", "-T", "fields", "-e", "frame.len", "-e", "ip.proto",
         "-e", "tcp.len", "-e", "udp.length", "-e", "_ws.expert.severity", "-e", "ip.dst"],
        capture_output=True, text=True, check=True,
    ).stdout.split("\n")  # fmt: skip
    both_ways = [line.split("\t") for line in fields if line]
    # The trace holds both directions; data goes to the sinks, ACKs come back from them.
    sinks = {r[5] for r in both_ways if r[2] not in ("", "0") or r[1] == "17"}
    rows = [r for r in both_ways if r[5] in sinks]
    assert len(rows) < len(both_ways)
    packets = out["packets"]
    on_link = packets[packets["point"] == "bottleneck"]
    # Every frame the bottleneck sent is in the trace (PPP header included in frame.len).
    assert len(rows) == len(on_link)
    assert sorted(int(r[0]) for r in rows) == sorted(on_link["size"] + 2)
    tcp_data = [r for r in rows if r[1] == "6" and r[2] not in ("", "0")]
    assert tcp_data and {int(r[2]) for r in tcp_data} == {1000}
    udp = [r for r in rows if r[1] == "17"]
    assert udp and {int(r[3]) for r in udp} == {1008}  # 1000 B payload + 8 B header
    # Real checksums: no malformed packets or checksum errors (expert severity "error").
    assert not [r for r in both_ways if r[4] in ("error", "8388608")]
