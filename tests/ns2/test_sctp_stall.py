"""NS-2.35's Agent/SCTP fed by a CBR stalls after its first message when the SACK for
everything outstanding arrives before the next message (docs/ns2-notes.md explains why:
``SctpAgent::sendmsg`` only sends while ``eSendNewDataChunks`` is set, and only a SACK
sets it). Two nodes, 1 Mb/s, 10 ms: the RTT of a 304-byte DATA packet and its SACK is
22.8 ms."""

from __future__ import annotations

import pytest

from tests.ns2._support import NS2
from transportlab.ns2 import traces
from transportlab.ns2.runner import run_script

pytestmark = NS2

SCRIPT = """
set ns [new Simulator]
Trace set show_sctphdr_ 1
set trace [open out.tr w]
$ns trace-all $trace
set a [$ns node]
set b [$ns node]
$ns duplex-link $a $b 1Mb 10ms DropTail
set sender [new Agent/SCTP]
set receiver [new Agent/SCTP]
$receiver set useDelayedSacks_ DELAYED
$ns attach-agent $a $sender
$ns attach-agent $b $receiver
$ns connect $sender $receiver
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $sender
$cbr set packetSize_ 256
$cbr set interval_ INTERVAL
$ns at 1.0 "$cbr start"
$ns at 100.0 "$ns flush-trace; close $trace; exit 0"
$ns run
"""


def _chunks(interval: float, delayed_sacks: int):
    script = SCRIPT.replace("INTERVAL", repr(interval)).replace("DELAYED", str(delayed_sacks))
    with run_script(script) as done:
        lines = traces.read_wired(
            done.path("out.tr"), where=lambda c: (c["event"] == "+") & (c["from_node"] == 0)
        )
    kind = lines["flags"].astype(str).str[-1]
    return lines[kind == "D"], lines[kind == "H"]


@pytest.mark.parametrize(
    ("interval", "delayed_sacks", "keeps_sending"),
    [
        (0.01, 1, True),  # a delayed SACK (every 2nd packet or 200 ms) finds messages waiting
        (0.05, 1, True),
        (0.1, 1, False),  # TSN 1 is SACKed at once (RFC 4960 6.2), 22.8 ms later: empty buffer
        (1.0, 1, False),
        (0.02, 0, True),  # every DATA SACKed at once: interval < RTT keeps the flag set ...
        (0.025, 0, False),  # ... interval > RTT stalls
    ],
)
def test_sctp_fed_by_cbr_stalls_when_the_last_sack_finds_no_message(
    interval, delayed_sacks, keeps_sending
):
    data, heartbeats = _chunks(interval, delayed_sacks)
    messages = int(99.0 / interval) + 1
    if keeps_sending:
        assert data["time"].max() > 99.0 and len(data) >= 0.97 * messages  # some in flight
    else:
        assert data["time"].max() < 2.0 and len(data) <= 10  # then nothing for 98 s
        # the association is alive: it still sends heartbeats, never the queued messages
        assert (heartbeats["time"] > 30.0).any()
    assert data["tsn"].is_monotonic_increasing and data["tsn"].iloc[0] == 1


def test_bulk_transfer_does_not_stall():
    """Application/FTP (an infinite source: SendMuch always has data) keeps sending."""
    script = SCRIPT.replace("Application/Traffic/CBR", "Application/FTP")
    script = script.replace("$cbr set packetSize_ 256\n", "").replace(
        "$cbr set interval_ INTERVAL\n", ""
    )
    script = script.replace("DELAYED", "1")
    with run_script(script) as done:
        lines = traces.read_wired(
            done.path("out.tr"), where=lambda c: (c["event"] == "+") & (c["from_node"] == 0)
        )
    data = lines[lines["flags"].astype(str).str.endswith("D")]
    assert data["time"].max() > 99.0 and len(data) > 2000
