"""voip_cjm in NS-2.35: what NS-2 cannot run, the generated script, the raw tables against
hand-made trace lines and hand calculations, short NS-2 runs of each transport, the
baseline table."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from tests.ns2._support import needs_ns2
from transportlab.engine import execute, paths, published, verdicts
from transportlab.engine.fingerprint import module_closure
from transportlab.engine.params import ParameterError
from transportlab.engine.plan import plan
from transportlab.ns2 import runner, structure, traces
from transportlab.ns3 import ns2_tcp
from transportlab.studies import voip_cjm
from transportlab.studies.voip_cjm import ns2_baseline, ns2_scenario
from transportlab.studies.voip_cjm.parameters import end_time

SHORT = {"n_calls": 3, "duration": 3.0, "drain": 1.0}


def params(**overrides):
    return ns2_scenario.PARAMETERS.validate(overrides)


def simulate(values, seed=1, run=1):
    """The NS-2 run step and the study's own analysis, no cache."""
    raw = ns2_scenario.run(values, seed, run)
    return raw, voip_cjm.STUDY.analyse(raw, values)


# ----------------------------------------------------------------------------- no NS-2 needed


def test_run_step_imports_neither_analysis_nor_ns3_code():
    closure = set(module_closure(["transportlab.studies.voip_cjm.ns2_scenario"]))
    assert {"transportlab.ns2.runner", "transportlab.ns2.traces", "transportlab.ns2.tcl"} <= closure
    for other in ("models.playout", "models.emodel", "studies.voip_cjm.voice_quality",
                  "engine.stats", "engine.published", "engine.verdicts", "ns3.native",
                  "ns3.simulation", "ns3.recording", "ns3.helpers", "ns3.capabilities",
                  "studies.voip_cjm.voice_gateways", "studies.voip_cjm.analysis",
                  "studies.voip_cjm.scenario", "studies.voip_cjm.reproduction"):  # fmt: skip
        assert f"transportlab.{other}" not in closure


def test_agent_tcp_settings_are_the_ones_the_ns3_run_copies():
    """Written from ns3.ns2_tcp, the values the ns-3 run step sets (tests/ns2/test_defaults
    checks them against NS-2 itself)."""
    assert ns2_scenario.NS2_TCP_WINDOW_PACKETS == ns2_tcp.WINDOW == 20
    assert ns2_scenario.NS2_TCP_WINDOW_INIT == ns2_tcp.WINDOW_INIT == 2
    assert ns2_scenario.NS2_TCP_MIN_RTO_S == ns2_tcp.MIN_RTO_S == 0.2
    assert ns2_scenario.NS2_TCP_TICK_S == ns2_tcp.TICK_S == 0.01
    assert ns2_scenario.NS2_TCP_INITIAL_RTO_S == ns2_tcp.INITIAL_RTO_S == 3.0
    assert ns2_scenario.NS2_TCP_HEADER == ns2_tcp.HEADER_BYTES == 40


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"stack_preset": "modern"}, "stack_preset 'modern'"),
        ({"protocol": "tcp", "tcp_variant": "TcpCubic"}, "Agent/TCP is Tahoe"),
        ({"protocol": "sctp", "sctp_delivery": "unordered", "sctp_pr_lifetime_ms": 100.0},
         "no timed reliability"),
        ({"protocol": "sctp", "topology": "trunk", "connection": "shared"}, "no stream per call"),
        ({"voice_activity": "talkspurts"}, "talkspurts"),
        ({"cross_traffic": "tcp_bulk"}, "cross_traffic 'tcp_bulk'"),
        ({"protocol": "sctp", "mtu_bytes": 200}, "DATA chunk exceeds the MTU"),
    ],
)  # fmt: skip
def test_what_ns2_cannot_run_fails_before_anything_runs(overrides, message):
    with pytest.raises(ParameterError, match="NS-2.35 cannot run") as error:
        plan(ns2_baseline.STUDY_NS2, [overrides])
    assert message in str(error.value)
    voip_cjm.STUDY.parameters.validate(overrides)  # ns-3 takes them


def test_the_variant_study_runs_main_with_the_studys_analysis_and_comparison():
    study = ns2_baseline.STUDY_NS2
    assert study.name == "voip_cjm.ns2" and study.run is ns2_scenario.run
    assert [e.name for e in study.reproduction.experiments] == ["main"]
    assert study.reproduction.comparison is voip_cjm.STUDY.reproduction.comparison
    with pytest.raises(ValueError, match="topology must be one of"):
        ns2_baseline.ns2_results("dumbbell")


def test_frames_and_send_times_repeat_ns2s_cbr_arithmetic():
    p = params(duration=900.0)
    assert ns2_scenario.frames_per_call(p) == 45_000  # 900 s / 20 ms, as ns-3's calls send
    assert ns2_scenario.frames_per_call(params(duration=1.0 + 1e-9)) == 51
    times = ns2_scenario.send_times(1.25, p)
    assert times[0] == 1.25 and len(times) == 45_000
    # NS-2 adds interval_ = (packetSize_ << 3) / rate_ to the clock, one write after another
    assert times[1] == 1.25 + 200 * 8 / 80_000.0
    assert times[-1] == pytest.approx(1.25 + 44_999 * 0.02, abs=1e-9)


def test_deliveries_in_order_stop_at_a_hole_unordered_at_arrival():
    arrivals = np.array([1.0, 1.3, 1.1, np.nan, 1.2])
    ordered = ns2_scenario.deliveries(arrivals, in_order=True)
    assert ordered[:3].tolist() == [1.0, 1.3, 1.3] and np.isnan(ordered[3:]).all()
    unordered = ns2_scenario.deliveries(arrivals, in_order=False)
    assert np.array_equal(unordered, arrivals, equal_nan=True)


def _trace(lines: str) -> pd.DataFrame:
    columns = ["time", "type", "size", "flags", "src_node", "src_port", "seq", "uid", "tsn"]
    return traces.read_wired(io.StringIO(lines), columns=columns)


def test_packets_from_hand_made_tcp_trace_lines():
    """Two calls on two hosts (nodes 2, 3 -> 4, 5). Call 0: the SYN (segment 0, 40 B),
    message 0 (segment 1), message 2 before message 1; call 1: message 0 only."""
    p = params(protocol="tcp", n_calls=2, duration=1.0)
    lines = _trace(
        "r 1.010 1 4 tcp 40 ------- 0 2.0 4.0 0 0\n"
        "r 1.050 1 4 tcp 212 ------- 0 2.0 4.0 1 3\n"
        "r 1.080 1 4 tcp 212 ------- 0 2.0 4.0 3 5\n"
        "r 1.095 1 4 tcp 212 ------- 0 2.0 4.0 2 6\n"
        "r 1.200 1 5 tcp 212 ------- 0 3.0 5.0 1 7\n"
    )
    agents = pd.DataFrame({"call": [0, 1], "node": [2, 3], "port": [0, 0]})
    packets = ns2_scenario._packets(lines, np.array([1.0, 1.1]), agents, p)
    sent = packets[packets["event"] == "sent"]
    assert len(sent) == 2 * 50 and set(sent["size"]) == {172}
    received = packets[packets["event"] == "received"].sort_values(["flow", "seq"])
    assert received[["flow", "seq"]].to_numpy().tolist() == [[0, 0], [0, 1], [0, 2], [1, 0]]
    assert received["time"].tolist() == [1.05, 1.095, 1.095, 1.2]
    assert received["delay"].to_numpy() == pytest.approx([0.05, 0.075, 0.055, 0.1])
    assert packets["time"].is_monotonic_increasing
    assert list(packets.columns) == ["event", "flow", "seq", "size", "time", "sent_time", "delay"]


def test_packets_from_hand_made_sctp_trace_lines():
    """A DATA chunk per line (TSN from 1), control chunks ignored; unordered delivery
    hands TSN 3 over at its arrival, ordered waits for TSN 2."""
    lines = _trace(
        "r 1.02 1 3 sctp 56 -------I 0 2.0 3.0 1 -1 4 65535 65535\n"
        "r 1.10 1 3 sctp 408 -------D 0 2.0 3.0 2 1 8 0 0\n"
        "r 1.10 1 3 sctp 408 -------D 0 2.0 3.0 2 3 8 0 2\n"
        "r 1.15 1 3 sctp 220 -------D 0 2.0 3.0 1 2 9 0 1\n"
    )
    agents = pd.DataFrame({"call": [0], "node": [2], "port": [0]})
    for delivery, times in (("ordered", [1.10, 1.15, 1.15]), ("unordered", [1.10, 1.15, 1.10])):
        p = params(protocol="sctp", sctp_delivery=delivery, n_calls=1, duration=1.0)
        packets = ns2_scenario._packets(lines, np.array([1.0]), agents, p)
        received = packets[packets["event"] == "received"].sort_values("seq")
        assert received["time"].tolist() == times, delivery


def test_an_unknown_sender_in_the_trace_is_an_error():
    lines = _trace("r 1.0 1 9 cbr 200 ------- 0 8.0 9.0 0 3\n")
    agents = pd.DataFrame({"call": [0], "node": [2], "port": [0]})
    with pytest.raises(RuntimeError, match="unknown agent"):
        ns2_scenario._packets(lines, np.array([1.0]), agents, params(n_calls=1, duration=1.0))


def test_steady_delay_max_leaves_out_the_first_seconds():
    per_second = pd.DataFrame({
        "protocol": "tcp", "sctp_delivery": "ordered", "sctp_pr_lifetime_ms": 0.0,
        "connection": "per_call", "run": 1, "second": [1.0, 2.0, 5.0, 6.0],
        "delay_max_ms": [300.0, 80.0, 61.0, 62.0],
    })  # fmt: skip
    steady = ns2_baseline.steady_delay_max(per_second, after=5.0)
    assert steady.to_dict("records") == [
        {"configuration": "TCP", "run": 1, "steady_delay_max_ms": 62.0}
    ]


def _comparison(rows, tolerance=None):
    columns = ["seed_file", "source", "protocol", "metric", "row", "unit", "kind", "published",
               "reproduced", "ci_low", "ci_high", "n_runs", "ratio", "verdict", "note"]  # fmt: skip
    frame = pd.DataFrame(rows, columns=columns)
    frame.attrs["tolerance"] = tolerance or {
        "default": 0.2, "per_metric": {"packets_received_per_second": 0.05}
    }  # fmt: skip
    return frame


def test_baseline_has_both_readings_and_the_trunk_lacks_the_homogeneous_row():
    seed = "001_8dea97bcf2df26a4.txt"
    rows = lambda rate, delay: [  # noqa: E731
        (seed, "Fig. 3", "TCP", "packets_received_per_second", ns2_baseline.HOMOGENEOUS_ROW,
         "packets/s", "value", "2200", rate, rate, rate, 5, rate / 2200, "differs", ""),
        (seed, "Fig. 4", "TCP", "delay_max", "15-minute voice transfer", "ms", "value", "180",
         delay, delay - 1, delay + 1, 5, delay / 180, "differs", ""),
    ]  # fmt: skip
    ns2 = {t: _comparison(rows(2400.0, 300.0)) for t in ns2_baseline.TOPOLOGIES}
    ns3 = {t: _comparison(rows(2390.0, 61.0)) for t in ns2_baseline.TOPOLOGIES}
    table = ns2_baseline.baseline(ns2, ns3)
    assert table["topology"].tolist() == ["homogeneous", "homogeneous", "trunk"]
    assert table["ns3_within_tolerance_of_ns2"].tolist() == [True, False, False]
    counts = ns2_baseline.counts(table)
    total = counts[counts["topology"] == "all"].iloc[0]
    assert (total["rows"], total["with_ns2"], total["ns3_within_tolerance_of_ns2"]) == (3, 3, 1)


# ----------------------------------------------------------------------------- NS-2 runs


@needs_ns2
@pytest.mark.parametrize("topology", ["homogeneous", "trunk"])
def test_generated_script_builds_the_studys_network(topology):
    p = params(protocol="tcp", topology=topology, n_calls=3)
    built = structure.describe(ns2_scenario.tcl_script(p, 1, 1))
    hosts = 3 if topology == "homogeneous" else 1
    assert built.nodes == 2 + 2 * hosts
    links = built.links.set_index(["src", "dst"])
    assert links.loc[(0, 1), "bandwidth"] == 5e6 and links.loc[(0, 1), "delay"] == 0.02
    delays = sorted(links.loc[(0, h), "delay"] for h in range(2, 2 + hosts))
    assert delays == ([0.002, 0.011, 0.02] if topology == "homogeneous" else [0.002])
    assert (built.links["queue"] == "Queue/DropTail").all()
    assert set(built.variables[built.variables["variable"] == "limit_"]["value"]) == {"50"}
    assert built.agents["agent"].value_counts().to_dict() == {"Agent/TCP": 3, "Agent/TCPSink": 3}
    apps = built.settings(built.applications["object"]).T
    assert set(apps["packetSize_"]) == {"172"} and set(apps["maxpkts_"]) == {"45000"}
    assert set(apps["rate_"]) == {"68800"} and set(apps["random_"]) == {"0"}
    tcp = built.settings(built.agents[built.agents["agent"] == "Agent/TCP"]["object"]).T
    assert set(tcp["window_"]) == {"20"} and set(tcp["windowInit_"]) == {"2"}
    assert set(tcp["packetSize_"]) == {"172"} and set(tcp["syn_"]) == {"1"}
    starts = built.schedule[built.schedule["command"] == "start"]["time"]
    assert len(starts) == 3 and ((starts >= 1.0) & (starts < 2.0)).all()
    assert built.schedule["time"].max() == end_time(p)


@needs_ns2
def test_sctp_agents_take_the_links_mtu_and_the_delivery():
    p = params(protocol="sctp", sctp_delivery="unordered", n_calls=2)
    built = structure.describe(ns2_scenario.tcl_script(p))
    sctp = built.settings(built.agents["object"]).T
    assert set(sctp["mtu_"]) == {"576"} and set(sctp["dataChunkSize_"]) == {"188"}
    assert set(sctp["initialRwnd_"]) == {"65536"}
    senders = built.settings(built.agents[built.agents["node"].isin([2, 3])]["object"]).T
    assert set(senders["unordered_"]) == {"1"}  # the sender sets the U bit


@needs_ns2
def test_raw_tables_are_the_ns3_run_steps():
    """The same tables, columns and dtypes as ``scenario.run`` (ns-3), plus NS-2's own
    ``ns2_call0``; ``counters.events`` is NaN (NS-2 counts no events)."""
    values = params(protocol="sctp", **SHORT)
    ns2_raw = ns2_scenario.run(values, 1, 1)
    ns3_raw = voip_cjm.STUDY.run(voip_cjm.STUDY.parameters.validate(dict(values)), 1, 1)
    assert set(ns2_raw) == set(ns3_raw) | {"ns2_call0"}
    for name in ns3_raw:
        assert list(ns2_raw[name].columns) == list(ns3_raw[name].columns), name
        ns3_types = ns3_raw[name].dtypes.astype(str).to_dict()
        ns2_types = ns2_raw[name].dtypes.astype(str).to_dict()
        if name == "counters":
            assert ns2_types.pop("events") == "float64" and ns3_types.pop("events") == "int64"
        assert ns2_types == ns3_types, name
    ns2_out, ns3_out = (voip_cjm.STUDY.analyse(raw, values) for raw in (ns2_raw, ns3_raw))
    assert list(ns2_out["summary"].columns) == list(ns3_out["summary"].columns)


@needs_ns2
def test_udp_frames_leave_when_written_and_arrive_after_the_propagation_delay():
    """The computed write times are NS-2's (its trace prints 1-us times); every frame of
    call 0 arrives 2 x 2 ms + 20 ms + 200 B store-and-forward on three links later."""
    values = params(protocol="udp", **SHORT)
    raw, out = simulate(values)
    call0 = raw["ns2_call0"]
    packets = raw["packets"]
    sent = packets[(packets["event"] == "sent") & (packets["flow"] == 0)]
    traced = call0[call0["event"] == "data_sent"].sort_values("seq")
    assert len(traced) == len(sent) == 150
    assert np.abs(traced["time"].to_numpy() - sent["time"].to_numpy()).max() <= 0.5e-6 + 1e-12
    received = packets[(packets["event"] == "received") & (packets["flow"] == 0)]
    bits = 200 * 8
    delay = 0.002 * 2 + 0.020 + 2 * bits / 100e6 + bits / 5e6
    assert received["delay"].to_numpy() == pytest.approx(delay, abs=1e-6)
    summary = out["summary"].set_index("policy").loc["arrival"]
    assert summary["frames_per_s"] == 3 * 150 / 3.0
    assert raw["counters"]["ip_packets_to_receivers"].iloc[0] == 450


@needs_ns2
def test_tcp_opens_with_the_first_message_then_carries_each_in_its_own_segment():
    values = params(protocol="tcp", **SHORT)
    raw, _ = simulate(values)
    call0 = raw["ns2_call0"]
    data = call0[call0["event"] == "data_sent"]
    packets = raw["packets"]
    first_write = packets[(packets["event"] == "sent") & (packets["flow"] == 0)]["time"].min()
    rtt = 2 * (0.002 * 2 + 0.020)
    # the modelled SYN and its ACK take a round trip before message 0 leaves
    assert data["time"].min() == pytest.approx(first_write + rtt, abs=2e-3)
    assert sorted(data["seq"]) == list(range(150))  # one segment per message
    # 150 frames of 3 calls and one SYN each reached the receivers
    assert raw["counters"]["ip_packets_to_receivers"].iloc[0] == 3 * 151


@needs_ns2
def test_sctp_sends_a_callers_messages_only_when_a_sack_arrives():
    """NS-2.35's Agent/SCTP fed by a CBR (docs/ns2-notes.md): after the association is
    up, DATA leaves the sender only at the instants a SACK reaches it."""
    values = params(protocol="sctp", **dict(SHORT, duration=5.0))
    raw, out = simulate(values)
    call0 = raw["ns2_call0"]
    data = call0[call0["event"] == "data_sent"]
    sacks = call0[call0["event"] == "ack_received"]["time"].to_numpy()
    first_burst = data["time"].min()
    later = data[data["time"] > first_burst]
    assert len(later) > 100 and np.isin(later["time"].to_numpy(), sacks).all()
    jitter = out["summary"].set_index("policy").loc["arrival", "before_jitter_ms"]
    assert jitter > 5.0  # ns-3's SCTP sends on write: microseconds


@needs_ns2
def test_an_sctp_association_cannot_be_opened_without_a_message():
    """Why NS-2's calls open their association with their first message (ns-3's start on
    an open one): Agent/SCTP has no connect, and a 0-byte write crashes NS-2.35."""
    script = "\n".join([
        "set ns [new Simulator]",
        "set n0 [$ns node]", "set n1 [$ns node]",
        "$ns duplex-link $n0 $n1 1Mb 10ms DropTail",
        "set a [new Agent/SCTP]", "set b [new Agent/SCTP]",
        "$ns attach-agent $n0 $a", "$ns attach-agent $n1 $b", "$ns connect $a $b",
        "set app [new Application]", "$app attach-agent $a",
        '$ns at 1.0 "$app send 0"', '$ns at 2.0 "exit 0"', "$ns run",
    ])  # fmt: skip
    with pytest.raises(runner.Ns2Error, match="exit status -11"):
        with runner.run_script(script):
            pass


@needs_ns2
def test_same_run_is_identical_runs_differ_and_transports_start_alike():
    values = params(protocol="udp", **SHORT)
    first, _ = simulate(values)
    again, _ = simulate(values)
    other, _ = simulate(values, run=2)
    pd.testing.assert_frame_equal(first["packets"], again["packets"])
    starts = lambda raw: raw["packets"].groupby("flow")["sent_time"].min().to_numpy()  # noqa: E731
    assert not np.array_equal(starts(first), starts(other))
    assert ((starts(other) >= 1.0) & (starts(other) < 2.0)).all()
    sctp, _ = simulate(dict(values, protocol="sctp"))
    assert np.array_equal(starts(sctp), starts(first))


@needs_ns2
def test_random_loss_on_the_shared_link():
    values = params(protocol="udp", loss_rate=0.1, **dict(SHORT, duration=10.0))
    _, out = simulate(values)
    lost = out["summary"].set_index("policy").loc["arrival", "network_loss_rate"]
    assert 0.06 < lost < 0.14  # 1500 frames, 10 % each


@needs_ns2
def test_sweep_caches_ns2_runs(tmp_path, monkeypatch):
    point = [dict(SHORT, protocol="udp")]
    first = execute.run(ns2_baseline.STUDY_NS2, point, runs=2, cache=tmp_path, scheduler="serial",
                      progress=False)  # fmt: skip
    assert len(list((tmp_path / "voip_cjm.ns2").glob("*.pkl"))) == 2

    def no_simulation(*args, **kwargs):
        raise AssertionError("ran NS-2 although the result is cached")

    monkeypatch.setattr(ns2_scenario, "run_script", no_simulation)
    again = execute.run(ns2_baseline.STUDY_NS2, point, runs=2, cache=tmp_path, scheduler="serial",
                      progress=False)  # fmt: skip
    pd.testing.assert_frame_equal(first["summary"], again["summary"])
    assert "ns2_call0" in first


def test_committed_baseline_is_complete():
    """The committed full-mode table: every published row of each reading it holds, both
    columns, runs enough for a verdict, ns-3's from the committed comparison."""
    table = pd.read_csv(paths.results_dir("voip_cjm") / "ns2_baseline.csv")
    rows = published.load(voip_cjm.STUDY)
    rows = rows[rows["kind"] != "reference"]
    homogeneous = table[table["topology"] == "homogeneous"]
    assert len(homogeneous) == len(rows)
    assert set(table["topology"]) <= set(ns2_baseline.TOPOLOGIES)
    trunk = table[table["topology"] == "trunk"]
    if len(trunk):
        assert len(trunk) == (rows["row"] != ns2_baseline.HOMOGENEOUS_ROW).sum()
        assert (trunk["ns2_runs"] == trunk["ns3_runs"]).all()
    assert table["ns2"].notna().all() and table["ns3"].notna().all()
    assert (table["ns2_runs"] >= verdicts.MIN_RUNS).all()
    committed = pd.read_csv(paths.results_dir("voip_cjm") / "comparison.csv")
    assert set(homogeneous["ns3_runs"]) == set(committed["n_runs"])
    assert set(table["paper_vs_ns2"]) <= set(verdicts.VERDICTS)
