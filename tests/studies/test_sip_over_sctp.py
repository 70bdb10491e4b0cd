"""The sip_over_sctp study: parameters, short runs of each experiment, determinism."""

from __future__ import annotations

import pandas as pd
import pytest

from transportlab.params import ParameterError
from transportlab.studies import get
from transportlab.studies import sip_over_sctp as study

STUDY = get("sip_over_sctp")


def simulate(run: int = 1, **params):
    return STUDY.simulate(STUDY.validate(params, quick=True), 1, run)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"experimnt": "hol"}, "did you mean 'experiment'"),
        ({"experiment": "ttcp"}, "is not one of"),
        ({"loss_rate": 1.5}, "must be <= 0.9"),
        ({"loss_rate": "10%"}, "expected float"),
        ({"n_pairs": 0}, "must be >= 1"),
        ({"message_size": 2.5}, "expected int"),
        ({"experiment": "throughput", "throughput_duration": 0.4}, "must be > 0.5"),
    ],
)
def test_bad_parameters_are_refused_before_running(params, message):
    with pytest.raises(ParameterError, match=message):
        STUDY.validate(params)


def test_sctp_needs_the_sctp_module():
    if study.sctp_available():
        STUDY.validate({"transport": "sctp"})
    else:
        with pytest.raises(ParameterError, match="SCTP is not available"):
            STUDY.validate({"transport": "sctp"})


def test_registered_and_has_a_version_tied_to_the_testbed_code():
    assert STUDY.notebook == "03_sip_over_sctp.ipynb"
    assert STUDY.seed_files == ("002_8ca3fd7f92b4e1a6.txt",)
    assert STUDY.version.startswith("sip-")


@pytest.mark.parametrize("transport", ["udp", "tcp"])
def test_throughput_reaches_the_wire_bound(transport):
    summary = simulate(
        experiment="throughput", transport=transport, message_size=1000, throughput_duration=1.0
    )["summary"].iloc[0]
    assert summary["goodput_mbps"] <= summary["wire_bound_mbps"] * 1.001
    assert summary["goodput_mbps"] >= summary["wire_bound_mbps"] * 0.95


def test_wire_bound_hand_values():
    # 1000 B over UDP: 1000 / (1000 + 8 + 20 + 2) of 100 Mb/s
    assert study.wire_bound_bps("udp", 1000, 100e6) == pytest.approx(100e6 * 1000 / 1030)
    # 3000 B over UDP: 3008 B datagram in 3 fragments, each with IP + PPP headers
    assert study.wire_bound_bps("udp", 3000, 100e6) == pytest.approx(100e6 * 3000 / (3008 + 3 * 22))
    # SCTP bundles three 460-byte messages (476-byte chunks) per 1500-byte packet
    assert study.wire_bound_bps("sctp", 460, 100e6) == pytest.approx(
        100e6 * 3 * 460 / (22 + 12 + 3 * 476)
    )


def test_single_session_udp_and_tcp():
    udp = simulate(experiment="single_session", transport="udp")["summary"].iloc[0]
    tcp = simulate(experiment="single_session", transport="tcp")["summary"].iloc[0]
    for row in (udp, tcp):
        assert row["invite_status"] == 200 and row["bye_status"] == 200
        assert row["call_setup_with_answer_s"] == pytest.approx(
            row["call_setup_s"] + STUDY.parameters.defaults()["answer_delay"]
        )
    # UDP: one round trip; a warm registration costs the same on TCP
    assert udp["registration_ms"] == pytest.approx(udp["registration_warm_ms"])
    assert tcp["registration_warm_ms"] == pytest.approx(udp["registration_ms"], rel=0.05)
    # seed layout: two TCP handshakes (UA->proxy, then proxy:5061->UA) before the 200 OK,
    # each a round trip of small packets over two 100 us links: ~4 x 100 us
    link_delay_ms = STUDY.parameters.defaults()["link_delay_us"] / 1e3
    handshakes = tcp["registration_ms"] - udp["registration_ms"]
    assert handshakes == pytest.approx(2 * 4 * link_delay_ms, rel=0.1)


def test_processing_delay_adds_to_the_transaction_times():
    base = simulate(experiment="single_session")["summary"].iloc[0]
    slow = simulate(experiment="single_session", proxy_processing_ms=3.0, agent_processing_ms=1.0)[
        "summary"
    ].iloc[0]
    # REGISTER: proxy handles the request (3 ms), the UA the response (1 ms)
    assert slow["registration_ms"] == pytest.approx(base["registration_ms"] + 4.0, abs=0.01)


def test_multi_session_is_deterministic_and_loss_hurts():
    a = simulate(experiment="multi_session", loss_rate=0.1, window=20.0, n_pairs=4)
    b = simulate(experiment="multi_session", loss_rate=0.1, window=20.0, n_pairs=4)
    pd.testing.assert_frame_equal(a["calls"], b["calls"])
    other = simulate(2, experiment="multi_session", loss_rate=0.1, window=20.0, n_pairs=4)
    assert not a["calls"].equals(other["calls"])  # another RngRun, other losses
    clean = simulate(experiment="multi_session", loss_rate=0.0, window=20.0, n_pairs=4)
    assert clean["summary"]["failed_calls"].iloc[0] == 0
    assert a["summary"]["completed_calls"].iloc[0] < clean["summary"]["completed_calls"].iloc[0]


def test_hol_tcp_configurations_complete_every_object():
    for config in ("tcp-one", "tcp-per-object"):
        result = simulate(experiment="hol", hol_config=config, loss_rate=0.01, object_size=20_000)
        assert result["summary"]["completed"].iloc[0] == 8
        assert result["objects"]["completion_s"].notna().all()


@pytest.mark.skipif(not study.sctp_available(), reason="SCTP module not in this build")
def test_hol_sctp_streams_carry_one_transfer_each():
    streams = simulate(
        experiment="hol", hol_config="sctp-streams", loss_rate=0.02, object_size=20_000
    )
    one = simulate(
        experiment="hol", hol_config="sctp-one-stream", loss_rate=0.02, object_size=20_000
    )
    for result in (streams, one):
        assert result["summary"]["completed"].iloc[0] == 8
    by_object = streams["records"].groupby("object")["stream"].unique()
    assert all(list(s) == [o] for o, s in by_object.items())
    assert set(one["records"]["stream"]) == {0}
    # one stream: records are delivered in the order they were written
    ordered = one["records"]
    assert (ordered["delivered"].diff().dropna() >= 0).all()


@pytest.mark.skipif(not study.sctp_available(), reason="SCTP module not in this build")
def test_sip_over_sctp_single_session_sets_up_two_associations_first():
    udp = simulate(experiment="single_session", transport="udp")["summary"].iloc[0]
    sctp = simulate(experiment="single_session", transport="sctp")["summary"].iloc[0]
    shared = simulate(experiment="single_session", transport="sctp", layout="shared")[
        "summary"
    ].iloc[0]
    # an association set-up is two round trips (INIT/INIT ACK, COOKIE ECHO/COOKIE ACK)
    link_delay_ms = STUDY.parameters.defaults()["link_delay_us"] / 1e3
    set_up = 2 * 4 * link_delay_ms
    assert sctp["registration_ms"] - udp["registration_ms"] == pytest.approx(2 * set_up, rel=0.1)
    assert shared["registration_ms"] - udp["registration_ms"] == pytest.approx(set_up, rel=0.15)
    assert sctp["registration_warm_ms"] == pytest.approx(udp["registration_ms"], rel=0.05)
