"""The NS-2 runner: a real NS-2 run of tiny scripts, parsed, against hand-computed values."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from tests.ns2._support import NS2, cbr_over_udp, two_wireless_nodes
from transportlab.ns2 import runner, tcl, traces
from transportlab.ns2.runner import Ns2Error, Ns2NotFoundError, run_script

pytestmark = NS2

# Two nodes, 1 Mb/s and 10 ms; a CBR of 1000-byte packets every 0.5 s from 1 s; the run
# ends at 2.2 s. NS-2's UDP adds no header, so a packet is 8 ms on the link and arrives
# 18 ms after it was sent: at 1.018, 1.518 and 2.018 s.
WIRED = f"""\
set ns [new Simulator]
set trace [open out.tr w]
$ns trace-all $trace
set a [$ns node]
set b [$ns node]
$ns duplex-link $a $b 1Mb 10ms DropTail
{cbr_over_udp(1000, "interval_ 0.5")}
$ns at 1.0 "$cbr start"
$ns at 2.2 "$ns flush-trace; close $trace; exit 0"
puts "built"
$ns run
"""


def test_wired_run_parsed_against_hand_computed_events():
    with run_script(WIRED, timeout=60) as done:
        assert done.stdout.strip() == "built"
        assert done.path("out.tr").is_file() and done.wall_seconds > 0
        frame = traces.read_wired(done.path("out.tr"))
        folder = done.folder
    assert not folder.exists()  # the run's folder goes with the block
    expected = pd.DataFrame({
        "event": ["+", "-", "r"] * 3,
        "time": [1.0, 1.0, 1.018, 1.5, 1.5, 1.518, 2.0, 2.0, 2.018],
        "uid": [0, 0, 0, 1, 1, 1, 2, 2, 2],
        "seq": [0, 0, 0, 1, 1, 1, 2, 2, 2],
    })  # fmt: skip
    got = frame[["event", "time", "uid", "seq"]].assign(event=frame["event"].astype(str))
    pd.testing.assert_frame_equal(got, expected, check_exact=False, atol=1e-9)
    assert set(frame["type"].astype(str)) == {"cbr"} and set(frame["size"]) == {1000}
    assert set(zip(frame["from_node"], frame["to_node"], strict=True)) == {(0, 1)}


def test_replications_seed_the_rng():
    draws = {}
    for seed, run in ((1, 1), (1, 1), (1, 2), (2, 1)):
        script = tcl.seed_rng(seed, run) + "puts [$defaultRNG uniform 0 1]\n"
        with run_script(script) as done:
            draws.setdefault((seed, run), []).append(float(done.stdout))
    assert draws[(1, 1)][0] == draws[(1, 1)][1]  # same seed and run: the same numbers
    values = [draws[(1, 1)][0], draws[(1, 2)][0], draws[(2, 1)][0]]
    assert len(set(values)) == 3 and all(0 < v < 1 for v in values)


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("set x [nosuchcommand]\n", r'invalid command name "nosuchcommand"'),
        ('set ns [new Simulator]\n$ns at 0.5 "oops"\n$ns at 1 "exit 0"\n$ns run\n',
         r'^NS-2 failed on scenario.tcl \(exit status 1\): ns: oops: invalid command name'),
        ("set s [new Agent/NoSuchAgent]\n", r"NoSuchAgent"),
    ],
)  # fmt: skip
def test_errors_are_one_line(script, message):
    with pytest.raises(Ns2Error, match=message) as error:
        with run_script(script):
            pass
    assert "\n" not in str(error.value)


def test_timeout_kills_ns():
    with pytest.raises(Ns2Error, match=r"did not finish scenario.tcl within 1 s"):
        with run_script("while {1} {}\n", timeout=1):
            pass


def test_missing_ns(monkeypatch):
    monkeypatch.setenv(runner.ENVIRONMENT_VARIABLE, "/nonexistent/ns")
    assert not runner.available()
    with pytest.raises(Ns2NotFoundError, match="NS-2 not found .*apt-get install ns2"):
        with run_script("puts hello\n"):
            pass


def test_nam_output_is_never_kept():
    script = (
        "set ns [new Simulator]\nset nf [open out.nam w]\n$ns namtrace-all $nf\n"
        "set a [$ns node]\nset b [$ns node]\n$ns duplex-link $a $b 1Mb 10ms DropTail\n"
        '$ns at 0.1 "$ns flush-trace; close $nf; exit 0"\n$ns run\n'
    )
    with run_script(script) as done:
        assert not list(done.folder.glob("*.nam"))


def test_versions_name_ns2_and_its_package():
    versions = runner.versions()
    assert versions["ns2"] == "2.35"
    assert "ns2-debian" in versions or "ns2-executable" in versions
    if "ns2-debian" in versions:
        assert re.match(r"ns2 2\.35", versions["ns2-debian"])


def test_bad_arguments_fail_before_ns_runs():
    with pytest.raises(ValueError, match="non-empty"):
        with run_script("  "):
            pass
    with pytest.raises(ValueError, match="timeout"):
        with run_script("puts x\n", timeout=0):
            pass


# Two 802.11 nodes 90 m apart under AODV; CBR of 256 bytes every 0.5 s from 1 s to 2.9 s:
# four reports at 1.0, 1.5, 2.0, 2.5 s. The new trace format (use-newtrace).
WIRELESS = two_wireless_nodes(
    trace="out.tr", end='$ns at 2.9 "$ns flush-trace; close $trace; exit 0"'
)


def test_wireless_run_new_trace_format():
    with run_script(WIRELESS, timeout=60) as done:
        agent = traces.read_wireless(
            done.path("out.tr"), where=lambda chunk: chunk["level"] == "AGT"
        )
        everything = traces.read_wireless(done.path("out.tr"))
    sent = agent[agent["event"] == "s"].set_index("uid")
    received = agent[agent["event"] == "r"].set_index("uid")
    assert sent["time"].tolist() == pytest.approx([1.0, 1.5, 2.0, 2.5])
    assert sent["node"].tolist() == [0] * 4 and received["node"].tolist() == [1] * 4
    assert sorted(received.index) == sorted(sent.index)
    delay = received["time"] - sent["time"].reindex(received.index)
    # the first report waits for AODV's route and ARP; every one takes a few ms at 1 Mb/s
    assert (delay > 0.002).all() and (delay < 0.1).all()
    assert set(sent["size"]) == {256} and set(received["size"]) == {276}  # + 20 B IP header
    assert {"AGT", "RTR", "MAC"} <= set(everything["level"].astype(str))
    assert "AODV" in set(everything["type"].astype(str))
