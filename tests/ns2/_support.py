"""What the NS-2 tests share: the marker that skips them where NS-2 is missing, the seeds."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from transportlab.ns2 import runner

_SKIP_WITHOUT_NS2 = pytest.mark.skipif(
    not runner.available(), reason="NS-2 (`ns`) is not installed: make ns2 / apt-get install ns2"
)
#: ``pytestmark`` of modules whose tests all run NS-2: marked ``ns2`` and skipped, with
#: the reason, where ``ns`` is missing (``make test`` installs Debian's ns2 where it may:
#: scripts/ensure-ns2.sh).
NS2 = [pytest.mark.ns2, _SKIP_WITHOUT_NS2]


def needs_ns2(test):
    """The same for one test."""
    return pytest.mark.ns2(_SKIP_WITHOUT_NS2(test))


SEED_004 = "004_c8175ad9bda103cf.txt"


def seeds_dir() -> Path | None:
    """The seed texts: $TRANSPORTLAB_SEEDS, or a ``shared/seeds`` folder beside a parent."""
    if os.environ.get("TRANSPORTLAB_SEEDS"):
        return Path(os.environ["TRANSPORTLAB_SEEDS"])
    for folder in Path(__file__).resolve().parents:
        if (folder / "shared" / "seeds" / SEED_004).is_file():
            return folder / "shared" / "seeds"
    return None


def seed_004_scripts() -> dict[str, str] | None:
    """The two Tcl scripts of seed 004's Appendix A (``sctp``, ``tcp``), read from the seed
    text at test time (never copied into the repository), or None without the seeds.

    The extracted text keeps the scripts' code blocks; the page breaks of the PDF only
    split them into several blocks, which are joined in order.
    """
    folder = seeds_dir()
    if folder is None or not (folder / SEED_004).is_file():
        return None
    text = (folder / SEED_004).read_text()
    start = text.index("APPENDIX A: NS-2 Code\n\n1.0")
    end = text.index("APPENDIX B: Performance Metrics Code\n\n1.0")
    appendix = text[start:end]
    middle = appendix.index("2.0. TCP Topology")
    scripts = {}
    for name, part in (("sctp", appendix[:middle]), ("tcp", appendix[middle:])):
        blocks = re.findall(r"```\n(.*?)```", part, re.S)
        scripts[name] = "\n".join(blocks)
    return scripts


def two_wireless_nodes(trace: str | None, end: str, node_config: str = "") -> str:
    """A Tcl script of two 802.11 nodes 90 m apart under AODV (LL, a PriQueue of 50, omni
    antenna, two-ray ground, WirelessPhy) and a CBR of 256-byte packets every 0.5 s from
    the first node to the second, started at 1 s; ``end`` is the Tcl after that (stopping
    the CBR, ending the run). The tests that need a small wireless run share it, so what
    they rely on (positions, timing, packet size) is written once.

    ``trace``: the trace file (new format; agent, router and MAC levels on), or None for
    a run that is read from its stdout (levels off, the trace into /dev/null).
    ``node_config``: further ``node-config`` options (e.g. the energy model).
    """
    if trace:
        header, traced = f"$ns use-newtrace\nset trace [open {trace} w]", "ON"
    else:
        header, traced = "set trace [open /dev/null w]", "OFF"
    options = f" \\\n    {node_config}" if node_config else ""
    return f"""\
set ns [new Simulator]
{header}
$ns trace-all $trace
set topo [new Topography]
$topo load_flatgrid 200 200
create-god 2
$ns node-config -adhocRouting AODV -llType LL -macType Mac/802_11 \\
    -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \\
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \\
    -channel [new Channel/WirelessChannel] -topoInstance $topo \\
    -agentTrace {traced} -routerTrace {traced} -macTrace {traced} -movementTrace OFF{options}
set a [$ns node]
set b [$ns node]
$a set X_ 10.0; $a set Y_ 10.0; $a set Z_ 0.0
$b set X_ 100.0; $b set Y_ 10.0; $b set Z_ 0.0
{cbr_over_udp(256, "interval_ 0.5")}
$ns at 1.0 "$cbr start"
{end}
$ns run
"""


def cbr_over_udp(packet_size: int, pacing: str) -> str:
    """Tcl of a CBR application over UDP from node ``$a`` to a null agent on ``$b``, the
    flow the small NS-2 scripts of these tests send; ``pacing`` is its ``interval_`` or
    ``rate_`` setting (e.g. ``"interval_ 0.5"``). Started by the script (``$cbr start``)."""
    return f"""\
set udp [new Agent/UDP]
$ns attach-agent $a $udp
set null [new Agent/Null]
$ns attach-agent $b $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$cbr set packetSize_ {packet_size}
$cbr set {pacing}"""
