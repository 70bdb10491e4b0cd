"""One call on the wire: a pcap of the proxy's link, decoded by tshark (seed Figure 5.5).

The seed captured its registration with Ethereal on the proxy host. Here the
``message_flow`` point of a protocol runs once more with ``pcap_prefix`` set (such
a point always runs: a cached result writes no pcap), into a temporary folder, and
tshark decodes the trace. tshark is an external tool: without it
:func:`decode` raises :class:`TsharkNotFoundError` with a one-line message, and
:func:`missing` says so before anything runs.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pandas as pd

from transportlab.engine import execute
from transportlab.ns3.capabilities import sctp_available
from transportlab.studies.sip_over_sctp.parameters import FIRST_CALL_AT, REGISTER_AT

HOST_A = "10.1.1.2"  # host A (user agent a1) in the testbed of .testbed
FIELDS = ("frame.time_relative", "ip.src", "sctp.srcport", "ip.dst", "sctp.dstport", "_ws.col.Info")
COLUMNS = ("t (s)", "from", "port", "to", "port ", "tshark")
NO_TSHARK = "decoding the trace needs tshark (Debian/Ubuntu: apt install tshark)"


class TsharkNotFoundError(RuntimeError):
    """tshark (Wireshark's command-line decoder) is not installed."""


def missing(protocol: str = "sctp") -> str | None:
    """Why the decoded trace of ``protocol`` cannot be shown here, or None."""
    if protocol == "sctp" and not sctp_available():
        return "the SCTP trace needs the SCTP model, which this build lacks"
    if shutil.which("tshark") is None:
        return NO_TSHARK
    return None


def capture(results, folder: str | Path, protocol: str = "sctp") -> Path:
    """Run the one-call point of ``protocol`` writing a pcap of the proxy's link into
    ``folder``; return the pcap's path."""
    folder = Path(folder)
    points = [p for p in results.points("message_flow") if p["protocol"] == protocol]
    if not points:
        raise RuntimeError(f"the message_flow experiment has no {protocol} point to capture")
    point = dict(points[0], pcap_prefix=str(folder / "proxy"))
    # In this process (the pcap is written where the simulation runs), not cached.
    execute.run(
        results.study, [point], runs=1, seed=results.seed, quick=results.quick,
        scheduler="serial", cache=False, analyse=False, progress=False,
    )  # fmt: skip
    pcaps = sorted(folder.glob("proxy-*.pcap"))
    if not pcaps:
        raise RuntimeError(f"the simulation wrote no pcap into {folder}")
    return pcaps[0]


def decode(pcap: str | Path) -> pd.DataFrame:
    """Every frame of ``pcap`` as tshark shows it: time, addresses, SCTP ports, summary."""
    tshark = shutil.which("tshark")
    if tshark is None:
        raise TsharkNotFoundError(NO_TSHARK)
    command = [tshark, "-r", str(pcap), "-o", "sctp.checksum:crc-32c", "-T", "fields"]
    command += [argument for field in FIELDS for argument in ("-e", field)]
    decoded = subprocess.run(command, capture_output=True, text=True, check=False)
    if decoded.returncode != 0:
        reason = (decoded.stderr.strip().splitlines() or ["no message"])[0]
        raise RuntimeError(f"tshark could not decode {pcap}: {reason}")
    rows = [line.split("\t") for line in decoded.stdout.splitlines()]
    return pd.DataFrame(rows, columns=list(COLUMNS))


def registration_on_the_wire(results, protocol: str = "sctp") -> pd.DataFrame:
    """The frames between host A and the proxy until the call starts: a1's registration,
    with the connection or association set-ups before it (seed Figure 5.5)."""
    reason = missing(protocol)
    if reason:
        raise TsharkNotFoundError(reason) if reason == NO_TSHARK else RuntimeError(reason)
    with tempfile.TemporaryDirectory(prefix="transportlab-sip-pcap-") as folder:
        frames = decode(capture(results, folder, protocol))
    host_a = frames[(frames["from"] == HOST_A) | (frames["to"] == HOST_A)]
    # Frame times count from the first frame, which is a1's first packet at REGISTER_AT.
    before_call = host_a["t (s)"].astype(float) < FIRST_CALL_AT - REGISTER_AT
    return host_a[before_call].reset_index(drop=True)
