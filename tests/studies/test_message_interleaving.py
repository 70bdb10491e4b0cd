"""The message interleaving study (issue 29, notebook 07): parameters refused before
anything runs, the run step's closure, the message schedule and the latency metrics on
hand-built tables, libdatachannel's ratios, the experiments planned without running, and
short simulations: DATA with FCFS blocks the small messages behind a large one, TCP with
one connection per kind of message does not."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from transportlab.engine.fingerprint import module_closure
from transportlab.engine.params import ParameterError
from transportlab.engine.results import Results
from transportlab.ns3.capabilities import sctp_available
from transportlab.studies import get
from transportlab.studies.message_interleaving import STUDY, analysis, comparison, parameters
from transportlab.studies.message_interleaving.parameters import LARGE_STREAM, SMALL_STREAM

QUICK = STUDY.parameters.validate({}, quick=True)
needs_sctp = pytest.mark.skipif(not sctp_available(), reason="no SCTP model in this build")


# --------------------------------------------------------------------------- declaration


def test_the_registry_finds_the_study_by_its_name():
    assert get("message_interleaving") is STUDY
    assert STUDY.notebook == "07_message_interleaving.ipynb" and STUDY.seed_files == ()


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"transport": "quic"}, "is not one of"),
        ({"scheduler": "edf"}, "is not one of"),
        ({"large_size": 2_000_000}, "must be <= 1048576"),
        ({"large_size": 1000}, "must be >= 65536"),
        ({"small_size": 10}, "must be >= 20"),
        ({"large_load": 0.95, "small_size": 1400, "small_interval_ms": 1.0}, "must together"),
        ({"duration": 2.0, "warmup": 1.0}, "must exceed the first message"),
    ],
)
def test_bad_parameters_are_refused_before_anything_runs(values, message):
    with pytest.raises(ParameterError, match=message):
        STUDY.parameters.validate(values)


def test_the_run_step_imports_no_analysis_code():
    closure = module_closure([STUDY.run.__module__])
    assert "transportlab.studies.message_interleaving.parameters" in closure
    for analysing in ("analysis", "comparison", "reproduction"):
        assert f"transportlab.studies.message_interleaving.{analysing}" not in closure


# --------------------------------------------------------------------------- by hand


def test_the_message_schedule_by_hand():
    # 256 KiB at 80 % of 10 Mb/s: one every 2097152 / 8e6 = 0.262144 s; a small one every
    # 20 ms; from 1.5 s to 2.0 s (excluded): large at 1.5, 1.762144; small at 1.5 .. 1.98.
    values = STUDY.parameters.validate({"duration": 2.0, "warmup": 0.0})
    assert parameters.large_interval_seconds(values) == pytest.approx(0.262144)
    schedule = parameters.message_schedule(values)
    large = [m for m in schedule if m[2] == LARGE_STREAM]
    small = [m for m in schedule if m[2] == SMALL_STREAM]
    assert large == [(1.5, 262144, 0), (1.762144, 262144, 0)]
    assert len(small) == 25 and small[0] == (1.5, 100, 1) and small[-1][0] == pytest.approx(1.98)
    assert schedule[0] == (1.5, 262144, 0)  # at the same instant the large one goes first
    assert [t for t, _, _ in schedule] == sorted(t for t, _, _ in schedule)


def _deliveries():
    """Two large messages (seq 0, 3) and four small ones, delivered at hand-picked times."""
    messages = pd.DataFrame({
        "seq": [0, 1, 2, 3, 4, 5],
        "time": [1.5, 1.5, 1.52, 1.6, 1.62, 1.64],
        "size": [262144, 100, 100, 262144, 100, 100],
        "stream": [0, 1, 1, 0, 1, 1],
    })  # fmt: skip
    packets = pd.DataFrame({
        "event": ["sent"] * 6 + ["received"] * 5,
        "seq": [0, 1, 2, 3, 4, 5, 0, 1, 2, 4, 3],
        "time": [1.5, 1.5, 1.52, 1.6, 1.62, 1.64, 1.8, 1.85, 1.86, 1.65, 2.1],
    })  # fmt: skip
    return analysis.delivery_table(messages, packets)


def test_latency_and_blocking_on_a_hand_built_delivery_table():
    table = _deliveries()
    small = table[table["stream"] == SMALL_STREAM]
    # latencies 350, 340, 30 ms and one small message (seq 5) never delivered
    assert small["latency"].round(9).tolist()[:3] == [0.35, 0.34, 0.03]
    assert np.isnan(small["latency"].iloc[3])
    found = analysis.overtaking(table)
    # seq 1: large 0 (produced 1.5, pending) delivered at 1.8, before it (1.85): it did not
    # overtake. seq 2: the same. seq 4: large 3 pending, delivered at 2.1, after it
    # (1.65): it overtook. seq 5: exposed, never delivered.
    assert found["exposed"].tolist() == [1.0, 1.0, 1.0, 1.0]
    assert found["overtook"].tolist()[:3] == [0.0, 0.0, 1.0]
    assert np.isnan(found["overtook"].iloc[3])


def test_latency_percentiles_by_hand():
    # 10, 20, 30, 40 ms: mean 25; numpy's linear percentile: p50 = 25,
    # p95 = 30 + 0.85 * 10 = 38.5, p99 = 30 + 0.97 * 10 = 39.7; max 40; NaN left out.
    stats = analysis.latency_summary([0.01, 0.04, np.nan, 0.02, 0.03])
    assert stats == pytest.approx({
        "latency_mean_ms": 25.0, "latency_p50_ms": 25.0, "latency_p95_ms": 38.5,
        "latency_p99_ms": 39.7, "latency_max_ms": 40.0,
    })  # fmt: skip
    assert np.isnan(analysis.latency_summary([np.nan])["latency_mean_ms"])


def test_analyse_counts_only_the_window():
    table = _deliveries()
    raw = {
        "messages": table[["seq", "time", "size", "stream"]],
        "packets": pd.DataFrame({
            "event": ["received"] * 5, "seq": [0, 1, 2, 4, 3],
            "time": [1.8, 1.85, 1.86, 1.65, 2.1],
        }),  # fmt: skip
        "sender": pd.DataFrame([{"messages": 6, "written": 6, "send_errors": 0,
                                 "idata_negotiated": False}]),
        "chunks": pd.DataFrame({"chunk": ["DATA", "SACK"], "count": [400, 3]}),
    }  # fmt: skip
    params = dict(QUICK, warmup=0.1, duration=1.7)  # window [1.6, 1.7): seq 3, 4, 5
    summary = analysis.analyse(raw, params)["summary"].iloc[0]
    assert (summary["small_messages"], summary["small_delivered"]) == (2, 1)
    assert summary["latency_mean_ms"] == pytest.approx(30.0)
    assert summary["exposed_fraction"] == 1.0 and summary["overtook_fraction"] == 1.0
    assert (summary["large_messages"], summary["large_delivered"]) == (1, 1)
    assert summary["large_latency_mean_ms"] == pytest.approx(500.0)
    assert summary["data_chunks"] == 400


def test_published_ratios_and_ours_from_a_hand_made_table():
    ratios = comparison.published_ratios()
    assert ratios["latency_mean_ms"] == pytest.approx(583.9 / 96.6)  # "6.0x lower"
    assert ratios["latency_p95_ms"] == pytest.approx(1560.0 / 124.6)  # "12.5x lower"
    assert comparison.load_external()["url"].str.startswith("https://github.com/").all()
    latency = pd.DataFrame({
        "path": ["wired"] * 2, "scheduler": ["fcfs"] * 2,
        "transport": ["sctp-data", "sctp-idata"],
        "latency_mean_ms": [120.0, 20.0], "latency_p50_ms": [100.0, 20.0],
        "latency_p95_ms": [300.0, 30.0], "latency_max_ms": [400.0, 40.0], "n_runs": [2, 2],
    })  # fmt: skip
    rows = comparison.ratio_rows(latency).set_index("statistic")
    assert rows.at["latency_mean_ms", "ratio"] == pytest.approx(6.0)
    assert rows.at["latency_p95_ms", "ratio"] == pytest.approx(10.0)
    assert rows["n_runs"].tolist() == [2, 2, 2, 2]


# --------------------------------------------------------------------------- experiments


def test_the_experiments_are_planned_without_running():
    quick, full = Results(STUDY, quick=True), Results(STUDY)
    # wired: deterministic, one run; lossy: 10 runs (1 quick); sizes: 3 sizes x 3 transports
    assert [len(t) for t in quick.plan().values()] == [2 * 3 + 2, 2 * 3 + 2, 9]
    assert [len(t) for t in full.plan().values()] == [2 * 6 + 2, (2 * 6 + 2) * 10, 9]
    for name, error_rate in (("wired", 0.0), ("lossy", 0.001)):
        points = full.points(name)
        assert {p["scheduler"] for p in points} == set(parameters.SCHEDULERS)
        assert {p["error_rate"] for p in points} == {error_rate}
    assert {t.params["duration"] for t in quick.plan()["lossy"]} == {8.0}


def test_an_override_the_experiment_sets_itself_is_refused():
    with pytest.raises(ValueError, match="sets transport itself"):
        Results(STUDY, quick=True, params={"transport": "tcp-shared"})


# --------------------------------------------------------------------------- short simulations


@pytest.fixture(scope="module")
def simulate(simulations):
    return lambda **params: simulations(STUDY, STUDY.parameters.validate(params, quick=True))


@needs_sctp
def test_sctp_data_fcfs_blocks_the_small_messages_behind_a_large_one(simulate):
    summary = simulate(transport="sctp-data", scheduler="fcfs")["summary"].iloc[0]
    assert summary["small_delivered"] == summary["small_messages"] > 250
    assert summary["send_errors"] == 0 and summary["data_chunks"] > 1000
    # Most small messages are produced while a large one is pending, and none arrives
    # before it: DATA chunks keep a message's fragments together and FCFS the order.
    assert summary["exposed_fraction"] > 0.5
    assert summary["overtook_fraction"] == 0.0
    # Waiting for part of a 256 KiB message at 10 Mb/s (0.21 s) is far above the path's
    # one-way delay (~21 ms).
    assert summary["latency_mean_ms"] > 60


def test_tcp_per_stream_connections_do_not_block_the_small_messages(simulate):
    per_stream = simulate(transport="tcp-per-stream")["summary"].iloc[0]
    shared = simulate(transport="tcp-shared")["summary"].iloc[0]
    assert per_stream["small_delivered"] == per_stream["small_messages"] > 250
    # Its own connection: most small messages arrive before the large message pending
    # when they were produced (those produced near its end arrive after it).
    assert per_stream["exposed_fraction"] > 0.5 and per_stream["overtook_fraction"] > 0.5
    # One byte stream: a small message written after a large one waits for all of it.
    assert shared["exposed_fraction"] > 0.5 and shared["overtook_fraction"] == 0.0
    # Both share the bottleneck queue the large transfer fills; only the shared byte
    # stream adds the wait for the rest of the large message.
    assert shared["latency_mean_ms"] > per_stream["latency_mean_ms"] + 20
    assert shared["latency_p95_ms"] > 1.5 * per_stream["latency_p95_ms"]


@needs_sctp
@pytest.mark.parametrize("scheduler", ["rr", "priority"])
def test_with_data_no_scheduler_lets_a_small_message_overtake_on_a_lossless_path(
    simulate, scheduler
):
    # With DATA a message once started is finished first (consecutive TSNs), and the large
    # messages of stream 0 start in order: the oldest pending large message is in progress
    # or already sent, so on a lossless FIFO path it arrives first, whatever the scheduler.
    summary = simulate(transport="sctp-data", scheduler=scheduler)["summary"].iloc[0]
    assert summary["exposed_fraction"] > 0.5
    assert summary["overtook_fraction"] == 0.0


@needs_sctp
def test_idata_is_negotiated_and_a_replication_is_repeatable(simulate):
    first = simulate(transport="sctp-idata", scheduler="fcfs")
    assert bool(first["summary"].iloc[0]["idata_negotiated"])
    again = STUDY.simulate(STUDY.parameters.validate(
        {"transport": "sctp-idata", "scheduler": "fcfs"}, quick=True))  # fmt: skip
    pd.testing.assert_frame_equal(again["small"], first["small"])
    pd.testing.assert_frame_equal(again["summary"], first["summary"])
