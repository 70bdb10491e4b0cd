"""usrsctp-oracle: deterministic, refuses bad input, and its link model does what it says."""

from __future__ import annotations

import subprocess

import pytest

from tests.validation.conftest import needs_oracle
from transportlab.studies.sctp_validation import stacks

pytestmark = needs_oracle


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(stacks.oracle_path()), *args], capture_output=True, text=True, check=False
    )


def test_same_seed_same_trace_byte_for_byte():
    sc = stacks.Scenario(name="det", loss_rate=0.03, loss_seed=5, total_bytes=200_000)
    first = _run(*sc.oracle_args(seed=7))
    second = _run(*sc.oracle_args(seed=7))
    assert first.returncode == 0
    assert first.stdout == second.stdout
    assert len(first.stdout.splitlines()) > 500


def test_the_seed_only_changes_random_bytes_not_timing():
    sc = stacks.Scenario(name="det", drop_tsns=((30, 1),), total_bytes=100_000)
    a, b = stacks.run_oracle(sc, seed=1), stacks.run_oracle(sc, seed=2)
    assert a.completion_s == b.completion_s


@pytest.mark.parametrize(
    ("arg", "message"),
    [
        ("nonsense=1", "unknown key"),
        ("rate_bps=abc", "rate_bps"),
        ("drop_tsns=3:0", "drop_tsns"),
        ("loss_rate=0.9", "loss_rate"),
        ("noequals", "key=value"),
    ],
)
def test_bad_arguments_fail_with_a_message(arg, message):
    r = _run(arg)
    assert r.returncode == 2
    assert message in r.stderr


def test_no_loss_transfer_takes_what_the_link_allows():
    sc = stacks.Scenario(name="ideal", rate_mbps=10, delay_ms=10, total_bytes=1_452_000)
    t = stacks.run_oracle(sc)
    assert t.delivered == sc.total_bytes
    assert t.data.kind.eq("new").all() and len(t.data) == 1000
    # 1000 frames of 1502 B at 10 Mb/s take 1.2 s; handshake and slow start add a little
    assert 1.2016 < t.completion_s < 1.6
    frames = t.packets[(t.packets.event == "pkt_tx") & (t.packets.dir == "fwd")]
    assert frames.value.max() == 1502  # 1452 B of data + 16 + 12 + IPv4 20 + PPP 2


def test_drop_list_by_tsn_and_by_packet():
    by_tsn = stacks.run_oracle(stacks.Scenario(name="t", drop_tsns=((10, 2),), total_bytes=100_000))
    drops = by_tsn.packets[by_tsn.packets.event == "pkt_drop"]
    assert list(drops.tsn) == [10, 10] and set(drops.kind) == {"tsn"}
    assert by_tsn.data[by_tsn.data.kind != "new"].tsn.tolist() == [10, 10]
    by_packet = stacks.run_oracle(stacks.Scenario(name="p", drop_packets=(5,), total_bytes=100_000))
    drops = by_packet.packets[by_packet.packets.event == "pkt_drop"]
    assert list(drops.kind) == ["list"]
    assert list(drops.tsn) == [2]  # INIT, COOKIE ECHO, then DATA TSN 0, 1, 2


def test_random_loss_drops_the_tsns_python_predicts():
    sc = stacks.Scenario(name="r", loss_rate=0.05, loss_seed=3, total_bytes=200_000)
    t = stacks.run_oracle(sc)
    drops = t.packets[(t.packets.event == "pkt_drop") & (t.packets.kind == "random")]
    first_time = drops.drop_duplicates("tsn")
    sent = int(t.data.tsn.max()) + 1
    assert sorted(first_time.tsn) == stacks.random_loss_tsns(0.05, 3, sent)


def test_a_full_queue_drops():
    sc = stacks.Scenario(name="q", queue_packets=5, rate_mbps=2, total_bytes=300_000)
    t = stacks.run_oracle(sc)
    assert (t.drops.reason == "queue").sum() > 0
    assert t.delivered == sc.total_bytes
