"""The wired best-effort study in NS-2.35: the generated script against seed 004's
Appendix A, the raw tables against the ns-3 run step's, hand calculations, replications,
the cache."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from tests.ns2._support import needs_ns2, seed_004_scripts
from transportlab.engine import execute, plan
from transportlab.engine.fingerprint import code_fingerprint, module_closure
from transportlab.engine.params import ParameterError
from transportlab.ns2 import runner, structure, traces
from transportlab.ns2.study import NS2, ns2_study
from transportlab.ns3.runtime import NS3
from transportlab.studies import wired_best_effort as wbe
from transportlab.studies.wired_best_effort import ns2_scenario


def params(**overrides):
    return ns2_scenario.PARAMETERS.validate(overrides)


def simulate(values, seed=1, run=1):
    """The NS-2 run step and the study's own analysis, no cache."""
    raw = ns2_scenario.run(values, seed, run)
    return raw, wbe.STUDY.analyse(raw, values)


# ----------------------------------------------------------------------------- no NS-2 needed


def test_run_step_imports_neither_analysis_nor_ns3_code():
    closure = set(module_closure(["transportlab.studies.wired_best_effort.ns2_scenario"]))
    assert {"transportlab.ns2.runner", "transportlab.ns2.traces", "transportlab.ns2.tcl"} <= closure
    for other in ("models.metrics", "engine.stats", "engine.published", "engine.verdicts",
                  "ns3.simulation", "ns3.recording", "engine.execute", "ns3.native",
                  "studies.wired_best_effort.analysis", "studies.wired_best_effort.scenario",
                  "studies.wired_best_effort.reproduction"):  # fmt: skip
        assert f"transportlab.{other}" not in closure


def test_points_match_the_ns3_run_steps():
    from transportlab.studies.wired_best_effort import scenario

    assert ns2_scenario.POINTS == scenario.POINTS


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"queue_discipline": "fq_codel"}, "queue_discipline 'fq_codel'"),
        ({"tcp_congestion": "TcpCubic"}, "Agent/TCP is Tahoe"),
        ({"tcp_sack": True}, "tcp_sack"),
        ({"tcp_delack_count": 2}, "TCPSink acknowledges every packet"),
        ({"tcp_initial_ssthresh": 0}, "tcp_initial_ssthresh"),
        ({"protocol": "sctp", "stack_preset": "rfc9260"}, "stack_preset 'rfc9260'"),
        ({"protocol": "sctp", "sctp_message_size": 1460}, "sctp_message_size > 1452"),
    ],
)
def test_what_ns2_cannot_run_fails_before_anything_runs(overrides, message):
    study = ns2_study(wbe.STUDY, ns2_scenario.run, ns2_scenario.PARAMETERS, ["main"])
    with pytest.raises(ParameterError, match="NS-2.35 cannot run") as error:
        plan.plan(study, [overrides])
    assert message in str(error.value)
    # the TCP settings of an SCTP point do not matter, and the ns-3 study still takes them
    wbe.STUDY.parameters.validate(overrides)


def test_the_variant_study_keeps_analysis_and_main_experiment():
    study = ns2_study(wbe.STUDY, ns2_scenario.run, ns2_scenario.PARAMETERS, ["main"])
    assert study.name == "wired_best_effort.ns2" and study.analyse is wbe.STUDY.analyse
    assert [e.name for e in study.reproduction.experiments] == ["main"]
    assert study.reproduction.comparison.__wrapped__ is wbe.STUDY.reproduction.comparison
    with pytest.raises(ValueError, match="not marked"):
        ns2_study(wbe.STUDY, wbe.STUDY.run)


@needs_ns2
def test_cache_key_holds_ns2_version_not_the_native_library(monkeypatch):
    study = ns2_study(wbe.STUDY, ns2_scenario.run, ns2_scenario.PARAMETERS, ["main"])
    assert study.runtime is NS2 and NS2.code_files() == []
    assert "ns3" not in NS2.versions() and NS2.versions() == runner.versions()
    before = code_fingerprint(study.run, runtime=study.runtime)
    assert before != code_fingerprint(study.run, runtime=NS3)
    monkeypatch.setattr(runner, "_versions", lambda path: (("ns2", "2.36"),))
    assert code_fingerprint(study.run, runtime=study.runtime) != before


def test_deliveries_are_in_order_and_stop_at_a_hole():
    """TCP segments 1, 2, 4 and 3 (late), 3 again, then 6: the sink application gets 1 and
    2 on arrival, 3 and 4 when 3 arrives, never 6 (5 is missing); CBR on arrival."""
    values = params(ftp_starts=[1.0], cbr_starts=[2.0])
    # Pairs 2 -> 4 (FTP) and 3 -> 5 (CBR).
    rows = [  # event time from to type size flags src dst seq uid tsn
        ("r", 1.0, 1, 4, "tcp", 1040, "-------", 2, 4, 1, 10, -1),
        ("r", 1.1, 1, 4, "tcp", 1040, "-------", 2, 4, 2, 11, -1),
        ("r", 1.2, 1, 4, "tcp", 1040, "-------", 2, 4, 4, 13, -1),
        ("r", 1.5, 1, 4, "tcp", 1040, "-------", 2, 4, 3, 20, -1),
        ("r", 1.6, 1, 4, "tcp", 1040, "-------", 2, 4, 3, 21, -1),
        ("r", 1.7, 1, 4, "tcp", 1040, "-------", 2, 4, 6, 22, -1),
        ("r", 1.05, 1, 4, "tcp", 40, "-------", 2, 4, 0, 9, -1),  # the SYN: no data
        ("r", 2.2, 1, 5, "cbr", 1000, "-------", 3, 5, 0, 30, -1),
        ("r", 2.3, 0, 2, "ack", 40, "-------", 4, 2, 4, 31, -1),  # not at the sink
    ]
    columns = ["event", "time", "from_node", "to_node", "type", "size", "flags", "src_node",
               "dst_node", "seq", "uid", "tsn"]  # fmt: skip
    lines = pd.DataFrame(rows, columns=columns)
    delivered = ns2_scenario._deliveries(lines, values, wbe.parameters.node_pairs(values))
    assert delivered["flow"].tolist() == [0, 0, 0, 0, 1]
    assert delivered["time"].tolist() == [1.0, 1.1, 1.5, 1.5, 2.2]
    assert delivered["bytes"].tolist() == [1000, 1000, 1000, 1000, 1000]


def test_windows_of_tcp_and_sctp_agents_in_bytes(tmp_path):
    path = tmp_path / "windows.tr"
    path.write_text(
        "0.00000  2  0  12  0  cwnd_ 1.000 \n"
        "10.04928  2  0  12  0  cwnd_ 3.500 \n"
        "10.04928  2  0  12  0  ssthresh_ 20\n"
        "time: 11.50000   saddr: 3  sport: 0  daddr: 13  dport: 0  cwnd: 4380 pba: 0 "
        "out: 0 ssthresh: 65536 peerRwnd: \xa0\n\n"
    )
    values = params(ftp_starts=[1.0, 2.0], cbr_starts=[])
    windows = ns2_scenario._windows(path, values, wbe.parameters.node_pairs(values))
    assert windows.to_numpy().tolist() == [
        ["0:cwnd", 0.0, 1000.0],
        ["0:cwnd", 10.04928, 3500.0],
        ["0:ssthresh", 10.04928, 20000.0],
        ["1:cwnd", 11.5, 4380.0],
        ["1:ssthresh", 11.5, 65536.0],
    ]


@needs_ns2
def test_script_writes_every_declared_setting():
    script = ns2_scenario.tcl_script(params(tcp_window=30, tcp_initial_ssthresh=10), 3, 2)
    assert "$defaultRNG seed 3" in script and "Queue/DropTail set limit_ 50" in script
    assert "$agent(0) set window_ 30" in script and "$agent(0) set max_ssthresh_ 10" in script
    assert "$app(5) set rate_ 0.01Mb" in script and "$app(5) set random_ 0" in script
    assert "$ns duplex-link $n(0) $n(1) 0.5Mb 100.0ms DropTail" in script
    assert ".nam" not in script and "namtrace" not in script
    sctp = ns2_scenario.tcl_script(params(protocol="sctp"), 1, 1)
    assert "$agent(0) set dataChunkSize_ 1468" in sctp and "show_sctphdr_ 1" in sctp


# ----------------------------------------------------------------------------- against seed 004


def _seed_scripts():
    scripts = seed_004_scripts()
    if scripts is None:
        pytest.skip("seed texts not found (set TRANSPORTLAB_SEEDS to the folder of the seeds)")
    return scripts


def _link_table(described: structure.Structure) -> pd.DataFrame:
    """Links with their queue's bound variables, by (src, dst)."""
    queues = described.variables.pivot(index="object", columns="variable", values="value")
    table = described.links.merge(queues, left_on="queue_object", right_index=True)
    return table.drop(columns="queue_object").sort_values(["src", "dst"]).reset_index(drop=True)


def _objects_with_settings(described: structure.Structure, kind: str) -> pd.DataFrame:
    """Agents or applications with every bound variable, one row each, by node and class
    (the Tcl object names differ between two scripts and are left out)."""
    table = getattr(described, kind)
    settings = described.variables.pivot(index="object", columns="variable", values="value")
    merged = table.merge(settings, left_on="object", right_index=True, how="left")
    label = "agent" if kind == "agents" else "application"
    merged = merged.drop(columns=["object"] + (["agent"] if kind == "applications" else []))
    return merged.sort_values(["node", label]).reset_index(drop=True)


@needs_ns2
@pytest.mark.parametrize("protocol", ["tcp", "sctp"])
def test_generated_script_builds_what_seed_004_builds(protocol):
    """Links (ends, rate, delay, queue and every queue variable), agents (node, class,
    peer, every bound variable), applications (node, class, every bound variable),
    start times and the end: equal. The seed declares the bottleneck twice ($n0 $n1 and
    $n1 $n0); NS-2 keeps the second pair of simplex links, ours declares it once."""
    seed = structure.describe(_seed_scripts()[protocol])
    ours = structure.describe(ns2_scenario.tcl_script(params(protocol=protocol,
                                                             start_jitter_ms=0.0)))  # fmt: skip
    assert seed.nodes == ours.nodes == 22
    pd.testing.assert_frame_equal(_link_table(seed), _link_table(ours))
    assert len(ours.links) == 42 and set(ours.links["queue"]) == {"Queue/DropTail"}
    agents_seed, agents_ours = (_objects_with_settings(s, "agents") for s in (seed, ours))
    pd.testing.assert_frame_equal(
        agents_seed.drop(columns=["agent_addr_", "dst_addr_"]),
        agents_ours.drop(columns=["agent_addr_", "dst_addr_"]),
    )  # the addresses are node ids: equal too, checked through node and peer_node
    assert (agents_seed["peer_node"] == agents_ours["peer_node"]).all()
    expected = {"Agent/UDP": 5, "Agent/Null": 5}
    expected.update({"Agent/TCP": 5, "Agent/TCPSink": 5} if protocol == "tcp" else
                    {"Agent/SCTP": 10})  # fmt: skip
    assert agents_ours["agent"].value_counts().to_dict() == expected
    pd.testing.assert_frame_equal(
        _objects_with_settings(seed, "applications"), _objects_with_settings(ours, "applications")
    )
    schedule = ["time", "node", "application", "command"]
    pd.testing.assert_frame_equal(
        seed.schedule[schedule].sort_values(["time", "node"]).reset_index(drop=True),
        ours.schedule[schedule].sort_values(["time", "node"]).reset_index(drop=True),
    )
    assert ours.schedule["time"].max() == 1000.0


# Prepended to seed 004's script (not changing it): events scheduled after STOP run at
# STOP, so its `finish` (at 1000 s) ends the run early; its `exec nam ...` (the viewer)
# does nothing.
_STOP_EARLY = """
rename exec tl_exec
proc exec {args} {
    if {[lindex $args 0] eq "nam"} { return }
    uplevel 1 [list tl_exec {*}$args]
}
Simulator instproc tl_at_original args [Simulator info instbody at]
Simulator instproc at {time args} {
    if {$time > STOP} { set time STOP }
    eval [list $self tl_at_original $time] $args
}
"""


@needs_ns2
@pytest.mark.parametrize(("protocol", "trace_name"), [("tcp", "newtcpudp.tr"),
                                                      ("sctp", "sctpudp.tr")])  # fmt: skip
def test_generated_script_gives_the_seed_scripts_trace(protocol, trace_name):
    """200 s of both scripts in NS-2: on the links ours traces, every line of the seed
    script's trace (time, nodes, type, size, addresses, uid) is in ours, in order."""
    stop = 200
    seed_script = _STOP_EARLY.replace("STOP", str(stop)) + _seed_scripts()[protocol]
    columns = ["event", "time", "from_node", "to_node", "type", "size", "src_node", "dst_node",
               "uid"]  # fmt: skip
    with runner.run_script(seed_script) as done:
        seed = traces.read_wired(done.path(trace_name), columns=columns)
    values = params(protocol=protocol, start_jitter_ms=0.0, duration=float(stop))
    with runner.run_script(ns2_scenario.tcl_script(values)) as done:
        ours = traces.read_wired(done.path(ns2_scenario.TRACE_FILE), columns=columns)
    ours = ours.drop_duplicates().reset_index(drop=True)  # SCTP: a line per chunk
    traced = set(zip(ours["from_node"], ours["to_node"], strict=True))
    on_ours = [link in traced for link in zip(seed["from_node"], seed["to_node"], strict=True)]
    seed = seed[on_ours].drop_duplicates().reset_index(drop=True)
    assert len(seed) > 50_000
    pd.testing.assert_frame_equal(seed.astype(str), ours.astype(str))


# ----------------------------------------------------------------------------- NS-2 runs


@needs_ns2
def test_raw_tables_are_the_ns3_run_steps():
    """The same tables, columns and dtypes as ``scenario.run`` (ns-3) on a short point;
    only ``run.events`` is NaN (NS-2 counts no events)."""
    values = params(duration=60.0, record_packets=True)
    ns2_raw = ns2_scenario.run(values, 1, 1)
    ns3_raw = wbe.STUDY.run(wbe.STUDY.parameters.validate(dict(values)), 1, 1)
    assert list(ns2_raw) == list(ns3_raw)
    for name in ns3_raw:
        assert list(ns2_raw[name].columns) == list(ns3_raw[name].columns), name
        ns3_types = ns3_raw[name].dtypes.astype(str).to_dict()
        ns2_types = ns2_raw[name].dtypes.astype(str).to_dict()
        if name == "run":
            assert ns2_types.pop("events") == "float64" and ns3_types.pop("events") == "int64"
        assert ns2_types == ns3_types, name
    assert list(ns2_raw["packets"]["point"].cat.categories) == ns2_scenario.POINTS
    # both analyse alike: the same metrics columns
    assert list(wbe.STUDY.analyse(ns2_raw, values)["flows"].columns) == list(
        wbe.STUDY.analyse(ns3_raw, values)["flows"].columns
    )


@needs_ns2
def test_cbr_flow_matches_hand_calculation():
    """One CBR flow in NS-2: first packet at 1.0 s, then one every 0.8 s; NS-2's UDP adds
    no header, so 1000 bytes cross three empty links store-and-forward."""
    values = params(duration=20.5, ftp_starts=[], cbr_starts=[1.0], start_jitter_ms=0.0,
                    record_packets=True)  # fmt: skip
    raw, out = simulate(values)
    packets = raw["packets"]
    sent, received = (packets[packets["point"] == p] for p in ("sent", "received"))
    expected_times = 1.0 + 0.8 * np.arange(math.floor(19.5 / 0.8) + 1)
    assert sent["time"].to_numpy() == pytest.approx(expected_times)
    assert set(sent["size"]) == {1000}
    delay = 8000 / 1e6 + 0.01 + 8000 / 5e5 + 0.1 + 8000 / 1e6 + 0.03
    assert received["time"].to_numpy() - sent["time"].to_numpy() == pytest.approx(delay, abs=2e-6)
    assert (received["packet"].to_numpy() == sent["packet"].to_numpy()).all()  # NS-2 uids
    flow = out["flows"].iloc[0]
    assert flow["rx_bytes"] == 1000 * len(expected_times)
    assert flow["awk_e2e_delay_ms"] == pytest.approx(delay * 1e3, abs=2e-3)
    assert flow["awk_jitter_ms"] == pytest.approx(0, abs=2e-3)
    first_window = 3000 / (2 * 0.8 + delay) * 8 / 1000
    assert flow["awk_throughput_kbps"] == pytest.approx((first_window + 11 * 10.0) / 12, rel=1e-5)
    assert flow["loss_ratio"] == 0
    # the bottleneck queue: each packet enqueued and sent at once (1 then 0 waiting)
    queue = raw["queue"]
    assert queue["value"].tolist() == [1.0, 0.0] * len(expected_times)
    goodput = raw["goodput"]
    assert goodput["bytes"].sum() == flow["rx_bytes"] and len(goodput) == 21


@needs_ns2
def test_one_tcp_flow_fills_the_bottleneck():
    values = params(duration=40.0, ftp_starts=[1.0], cbr_starts=[], start_jitter_ms=0.0)
    raw, out = simulate(values)
    flow = out["flows"].iloc[0]
    # 500 kb/s of 1040-byte packets carrying 1000 bytes, less the start-up
    assert 0.85 * 500 * 1000 / 1040 < flow["goodput_kbps"] < 500 * 1000 / 1040
    assert flow["rx_bytes"] == raw["goodput"]["bytes"].sum()
    windows = raw["windows"]
    # window_ 20 limits the flight size below the 49 + 1 packets the path holds: no loss,
    # so cwnd_ only grows (NS-2 lets it grow past window_: it sends min(cwnd_, window_))
    cwnd = windows[windows["series"] == "0:cwnd"]["value"]
    assert cwnd.is_monotonic_increasing and cwnd.max() > 20_000
    assert out["run"]["bottleneck_drops"].iloc[0] == 0
    ssthresh = windows[windows["series"] == "0:ssthresh"]["value"]
    assert set(ssthresh) == {20_000}  # Agent/TCP starts ssthresh_ at window_


@needs_ns2
def test_one_sctp_flow_full_packets_and_tsn_delivery():
    values = params(protocol="sctp", duration=40.0, ftp_starts=[1.0], cbr_starts=[],
                    start_jitter_ms=0.0, record_packets=True)  # fmt: skip
    raw, out = simulate(values)
    packets = raw["packets"]
    data = packets[(packets["point"] == "sent") & (packets["size"] > 100)]
    assert set(data["size"]) == {1500}  # 1452 B of data + 16 + 12 + 20
    flow = out["flows"].iloc[0]
    assert flow["rx_bytes"] % 1452 == 0
    assert 0.85 * 500 * 1452 / 1500 < flow["goodput_kbps"] < 500 * 1452 / 1500
    assert raw["windows"]["series"].str.startswith("0:").all()


@needs_ns2
def test_same_run_is_identical_and_runs_differ():
    values = params(duration=60.0, record_packets=True)
    first, _ = simulate(values)
    again, _ = simulate(values)
    other, _ = simulate(values, run=2)
    for name in ("flows", "packets", "goodput", "queue", "windows"):
        pd.testing.assert_frame_equal(first[name], again[name])
    assert not np.array_equal(first["flows"]["start"], other["flows"]["start"])
    jitter = other["flows"]["start"] - other["flows"]["script_start"]
    assert ((jitter >= 0) & (jitter < 0.1)).all()
    sctp, _ = simulate(dict(values, protocol="sctp"))
    assert (sctp["flows"]["start"] == first["flows"]["start"]).all()  # same draws per (seed, run)
    exact, _ = simulate(dict(values, start_jitter_ms=0.0), run=3)
    assert list(exact["flows"]["start"]) == list(exact["flows"]["script_start"])


@needs_ns2
def test_sweep_caches_ns2_runs(tmp_path, monkeypatch):
    study = ns2_study(wbe.STUDY, ns2_scenario.run, ns2_scenario.PARAMETERS, ["main"])
    point = [{"duration": 60.0, "record_series": False}]
    first = execute.run(study, point, runs=2, cache=tmp_path, scheduler="serial", progress=False)
    assert len(list((tmp_path / "wired_best_effort.ns2").glob("*.pkl"))) == 2

    def no_simulation(*args, **kwargs):
        raise AssertionError("ran NS-2 although the result is cached")

    monkeypatch.setattr(ns2_scenario, "run_script", no_simulation)
    again = execute.run(study, point, runs=2, cache=tmp_path, scheduler="serial", progress=False)
    pd.testing.assert_frame_equal(first["flows"], again["flows"])
    assert set(first["flows"]["run"]) == {1, 2}


# ----------------------------------------------------------------------------- baseline table


def _comparison(rows, tolerance=0.2):
    columns = ["seed_file", "source", "protocol", "metric", "row", "unit", "kind", "published",
               "reproduced", "ci_low", "ci_high", "n_runs", "ratio", "verdict", "note"]  # fmt: skip
    frame = pd.DataFrame(rows, columns=columns)
    frame.attrs["tolerance"] = {"default": tolerance, "per_metric": {"awk_jitter": 0.1}}
    return frame


def test_baseline_table_puts_both_simulators_beside_each_published_row():
    from transportlab.studies.wired_best_effort import ns2_baseline

    key = ("004_c8175ad9bda103cf.txt", "Table 4.6", "TCP")
    ns2 = _comparison([
        (*key, "awk_throughput", "nodes 2-12", "kbps", "value", "94.3721", 90.0, 88.0, 92.0, 10,
         90.0 / 94.3721, "matches", "within 20%"),
        (*key, "awk_jitter", "nodes 2-12", "ms", "value", "~12.8", 16.0, 15.0, 17.0, 10,
         16.0 / 12.8, "differs", "x"),
    ])  # fmt: skip
    ns3 = _comparison([
        (*key, "awk_throughput", "nodes 2-12", "kbps", "value", "94.3721", 110.0, 100.0, 120.0,
         10, 110.0 / 94.3721, "matches", ""),
        (*key, "awk_jitter", "nodes 2-12", "ms", "value", "~12.8", 17.7, 17.0, 18.0, 9,
         17.7 / 12.8, "differs", ""),
    ])  # fmt: skip
    table = ns2_baseline.baseline_table(ns2, ns3)
    assert table["ns2"].tolist() == [90.0, 16.0] and table["ns3"].tolist() == [110.0, 17.7]
    assert table["published_over_ns2"].tolist() == pytest.approx([94.3721 / 90, 12.8 / 16])
    assert table["ns3_over_ns2"].tolist() == pytest.approx([110 / 90, 17.7 / 16])
    # |110 - 90| = 20 > 0.2 * 90 = 18; |17.7 - 16| = 1.7 > 0.1 * 16 (the jitter's tolerance)
    assert table["ns3_within_tolerance_of_ns2"].tolist() == [False, False]
    assert table["tolerance"].tolist() == [0.2, 0.1]
    assert table[["ns2_runs", "ns3_runs"]].to_numpy().tolist() == [[10, 10], [10, 9]]
    counts = ns2_baseline.baseline_counts(table)
    total = counts[counts["protocol"] == "all"].iloc[0]
    assert (total["rows"], total["paper_matches_ns2"], total["paper_matches_ns3"]) == (2, 1, 1)
    assert total["ns3_within_tolerance_of_ns2"] == 0


def test_committed_baseline_is_complete():
    """The committed full-mode table: every published row with both columns."""
    from transportlab.engine import paths, published, verdicts

    table = pd.read_csv(paths.results_dir("wired_best_effort") / "ns2_baseline.csv")
    rows = published.load(wbe.STUDY)
    assert len(table) == (rows["kind"] != "reference").sum()
    assert table["ns2"].notna().all() and table["ns3"].notna().all()
    assert (table["ns2_runs"] == 10).all() and (table["ns3_runs"] == 10).all()
    assert set(table["paper_vs_ns2"]) <= set(verdicts.VERDICTS)
