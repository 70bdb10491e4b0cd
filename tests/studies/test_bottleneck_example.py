"""The bottleneck example, the template study, and the template of a study's tests.

A new study copies this file with the study: its parameters refused before anything
runs, its run step importing no analysis code, its hand calculation and analysis checked
against numbers worked out by hand, its comparison built from a hand-made table, its
experiments planned without running, and a few short simulations shared by the tests
that read them (the ``simulate`` fixture: each distinct point runs once per module).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from transportlab.engine.fingerprint import module_closure
from transportlab.engine.params import ParameterError
from transportlab.engine.results import Results
from transportlab.engine.stats import confidence_interval
from transportlab.engine.verdicts import COMPARISON_COLUMNS
from transportlab.studies import get
from transportlab.studies.bottleneck_example import STUDY, analysis, comparison, parameters

QUICK = STUDY.parameters.validate({}, quick=True)


# --------------------------------------------------------------------------- declaration


def test_the_registry_finds_the_study_by_its_name():
    assert get("bottleneck_example") is STUDY
    assert STUDY.notebook == "00_bottleneck_example.ipynb" and STUDY.seed_files == ()


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"protocl": "tcp"}, "did you mean 'protocol'"),
        ({"protocol": "sctp"}, "is not one of"),
        ({"error_rate": 0.9}, "must be <= 0.5"),
        ({"duration": 1.5, "warmup": 1.0}, "must exceed the application start"),
        ({"packet_size": 10}, "must be >= 20"),
    ],
)
def test_bad_parameters_are_refused_before_anything_runs(values, message):
    with pytest.raises(ParameterError, match=message):
        STUDY.parameters.validate(values)


def test_the_run_step_imports_no_analysis_code():
    closure = module_closure([STUDY.run.__module__])
    assert "transportlab.studies.bottleneck_example.parameters" in closure
    for analysing in ("analysis", "comparison", "reproduction"):
        assert f"transportlab.studies.bottleneck_example.{analysing}" not in closure


# --------------------------------------------------------------------------- hand calculation


def test_wire_bytes_and_the_udp_delay_by_hand():
    # 1000 bytes + UDP 8 + IPv4 20 + PPP 2 = 1030 bytes = 8240 bits on each link.
    assert parameters.wire_bytes(QUICK) == 1030
    # 8240 bit at 10 Mb/s + 2 ms, then at 1 Mb/s + 20 ms: 0.824 + 2 + 8.24 + 20 ms.
    assert analysis.expected_udp_delay(QUICK) == pytest.approx(31.064e-3, abs=1e-12)


def test_expected_goodput_by_hand():
    # UDP below capacity: 0.5 Mb/s sent, 1 % lost.
    assert analysis.udp_below_capacity(QUICK)
    lossy = dict(QUICK, error_rate=0.01)
    assert analysis.expected_goodput(lossy) == pytest.approx(0.5e6 * 0.99)
    # TCP fills the 1 Mb/s bottleneck with 1000 of every 1000 + 32 + 20 + 2 bytes.
    assert analysis.expected_goodput(dict(QUICK, protocol="tcp")) == pytest.approx(
        1e6 * 1000 / 1054
    )


def _packets(delays: dict[int, float | None]) -> pd.DataFrame:
    """Sent at 2.0, 2.1, ... s (one per seq); received after ``delay`` or never (None)."""
    rows = []
    for seq, delay in delays.items():
        sent = 2.0 + seq / 10
        rows.append({"event": "sent", "flow": 1, "seq": seq, "size": 1000, "time": sent,
                     "sent_time": np.nan, "delay": np.nan})  # fmt: skip
        if delay is not None:
            rows.append({"event": "received", "flow": 1, "seq": seq, "size": 1000,
                         "time": sent + delay, "sent_time": sent, "delay": delay})  # fmt: skip
    return pd.DataFrame(rows)


def _flows(tx: int, rx: int) -> pd.DataFrame:
    return pd.DataFrame(
        {"destination_port": [parameters.SINK_PORT, 49153], "tx_packets": [tx, 3],
         "rx_packets": [rx, 3]}
    )  # fmt: skip


def test_one_replication_analysed_by_hand():
    # Four packets, the third lost: 3 x 1000 bytes received in (2 s, 6 s] = 6000 bit/s.
    packets = _packets({0: 0.03, 1: 0.05, 2: None, 3: 0.04})
    tables = analysis.analyse({"packets": packets, "flows": _flows(4, 3)}, QUICK)
    summary = tables["summary"].iloc[0]
    assert summary["goodput_bps"] == pytest.approx(3 * 8000 / 4.0)
    assert summary["delay_mean_s"] == pytest.approx(0.04)
    assert (summary["delay_min_s"], summary["delay_max_s"]) == (0.03, 0.05)
    assert summary["loss_ratio"] == 0.25
    assert summary["ip_loss_ratio"] == 0.25  # the data flow only, not the reverse one
    assert (summary["packets_sent"], summary["packets_received"]) == (4, 3)
    # RFC 3550: J += (|D| - J) / 16 over 0.02 then -0.01: 0.00125, then 0.00180
    assert summary["jitter_rfc3550_s"] == pytest.approx(0.00125 + (0.01 - 0.00125) / 16)
    tcp = analysis.analyse({"packets": packets, "flows": _flows(4, 3)}, dict(QUICK, protocol="tcp"))
    assert math.isnan(tcp["summary"].iloc[0]["loss_ratio"])  # TCP retransmits


# --------------------------------------------------------------------------- comparison


class FakeResults:
    """What ``comparison.comparison`` reads of a Results: the study, its parameters and the
    analysed tables of experiment ``main``."""

    study = STUDY

    def __init__(self, summary: pd.DataFrame) -> None:
        self.params, self.tables = QUICK, {"main": {"summary": summary}}

    def __getitem__(self, name):
        return self.tables[name]


def test_comparison_rows_from_a_hand_made_summary():
    hand_delay = analysis.expected_udp_delay(QUICK)
    udp = {"protocol": "udp", "error_rate": 0.0, "goodput_bps": 0.5e6,
           "delay_mean_s": hand_delay, "jitter_rfc3550_s": 0.0, "loss_ratio": 0.0,
           "packets_sent": 1000}  # fmt: skip
    summary = pd.DataFrame(
        [
            udp,
            dict(udp, goodput_bps=0.49e6, delay_mean_s=hand_delay + 1e-3),  # a slower run
            {"protocol": "tcp", "error_rate": 0.0, "goodput_bps": 0.9e6, "packets_sent": 500},
            {"protocol": "tcp", "error_rate": 0.0, "goodput_bps": 0.9e6, "packets_sent": 500},
        ]
    )
    table = comparison.comparison(FakeResults(summary))
    assert list(table.columns) == list(COMPARISON_COLUMNS)
    assert set(table["study"]) == {"bottleneck_example"}
    rows = table.set_index(["protocol", "metric"])
    delay = rows.loc[("UDP", "one-way delay")]
    mean, low, high, _ = confidence_interval([hand_delay * 1e3, hand_delay * 1e3 + 1])
    assert (delay["reproduced"], delay["ci_low"], delay["ci_high"]) == (mean, low, high)
    assert delay["verdict"] == "differs"  # 0.5 ms off: the delay must match to 1 ns
    goodput = rows.loc[("UDP", "goodput")]  # 495 kb/s against 500: within 1 %
    assert (goodput["reproduced"], goodput["verdict"]) == (pytest.approx(495.0), "matches")
    # TCP: 900 kb/s against 1000 x 1000 / 1054 = 948.8 kb/s, more than 1 % below
    assert rows.loc[("TCP", "goodput"), "verdict"] == "differs"
    assert rows.loc[("TCP", "goodput"), "n_runs"] == 2


# --------------------------------------------------------------------------- experiments


def test_the_experiment_is_planned_without_running():
    quick, full = Results(STUDY, quick=True), Results(STUDY)
    assert {p["protocol"] for p in quick.points("main")} == {"udp", "tcp"}
    assert [len(tasks) for tasks in quick.plan().values()] == [4 * 2]  # 4 points x 2 runs
    assert [len(tasks) for tasks in full.plan().values()] == [4 * 10]
    assert {t.params["duration"] for t in quick.plan()["main"]} == {6.0}


def test_an_override_the_experiment_sets_itself_is_refused():
    with pytest.raises(ValueError, match="sets protocol itself"):
        Results(STUDY, quick=True, params={"protocol": "tcp"})


# --------------------------------------------------------------------------- short simulations


@pytest.fixture(scope="module")
def simulate(simulations):
    """One quick replication per distinct point, simulated once for the tests of this module
    (``simulations``, tests/conftest.py)."""
    return lambda **params: simulations(STUDY, STUDY.parameters.validate(params, quick=True))


def test_udp_delays_are_the_hand_calculation_to_the_nanosecond(simulate):
    delays = simulate(protocol="udp")["packets"]["delay"].dropna()
    assert len(delays) > 100
    assert (delays.round(9) == round(analysis.expected_udp_delay(QUICK), 9)).all()


def test_udp_and_tcp_goodput_are_the_hand_calculation(simulate):
    for protocol in ("udp", "tcp"):
        goodput = simulate(protocol=protocol)["summary"].iloc[0]["goodput_bps"]
        expected = analysis.expected_goodput(dict(QUICK, protocol=protocol))
        assert goodput == pytest.approx(expected, rel=0.01), protocol


def test_a_replication_is_bit_identical_when_repeated(simulate):
    first = simulate(protocol="udp")
    again = STUDY.simulate(STUDY.parameters.validate({"protocol": "udp"}, quick=True))  # not shared
    pd.testing.assert_frame_equal(again["packets"], first["packets"])
    pd.testing.assert_frame_equal(again["summary"], first["summary"])
