"""Shared scenario builders and C++ test helpers for the SCTP tests.

Python callables cannot be ns-3 callbacks, so the message source and sink used by the
tests are small C++ classes compiled by cling (``cppyy.cppdef``) once per process.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

_CXX_FILE = Path(__file__).with_name("sctp_test_helpers.h")

_defined = False


def cxx():
    """The ``sctptest`` C++ namespace (compiled on first use)."""
    global _defined
    import cppyy

    from transportlab import ns  # noqa: F401  (loads ns-3 and our library)

    if not _defined:
        cppyy.cppdef(_CXX_FILE.read_text())
        _defined = True
    return cppyy.gbl.sctptest


def pattern(seed: int, size: int) -> bytes:
    return bytes(((seed * 31 + k * 7) & 0xFF) for k in range(size))


@dataclass
class Pair:
    """Two nodes joined by one point-to-point link, with IPv4 and SCTP."""

    nodes: object
    devices: object
    interfaces: object
    p2p: object

    def address(self, i: int):
        return self.interfaces.GetAddress(i)

    def sctp(self, i: int):
        ns = _ns()
        return self.nodes.Get(i).GetObject[ns.SctpL4Protocol]()

    def socket(self, i: int):
        ns = _ns()
        s = ns.Socket.CreateSocket(
            self.nodes.Get(i), ns.TypeId.LookupByName("ns3::SctpSocketFactory")
        )
        return ns.DynamicCast[ns.SctpSocket](s)

    def endpoint(self, i: int, port: int):
        ns = _ns()
        return ns.InetSocketAddress(self.address(i), port).ConvertTo()

    def drop_received(self, node: int, packet_numbers: list[int]):
        """Drop the listed packets (1 = first) arriving at ``node``'s device."""
        ns = _ns()
        em = ns.CreateObject[ns.ReceiveListErrorModel]()
        import cppyy

        lst = cppyy.gbl.std.list["unsigned int"]()
        for n in packet_numbers:
            lst.push_back(int(n))
        em.SetList(lst)
        self.devices.Get(node).SetAttribute("ReceiveErrorModel", ns.PointerValue(em))
        return em


def _ns():
    from transportlab import ns

    return ns


def make_pair(rate: str = "10Mbps", delay: str = "10ms", mtu: int = 1500, queue: str = "100p"):
    ns = _ns()
    nodes = ns.NodeContainer()
    nodes.Create(2)
    p2p = ns.PointToPointHelper()
    p2p.SetDeviceAttribute("DataRate", ns.StringValue(rate))
    p2p.SetDeviceAttribute("Mtu", ns.UintegerValue(mtu))
    p2p.SetChannelAttribute("Delay", ns.StringValue(delay))
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", ns.StringValue(queue))
    devices = p2p.Install(nodes)
    ns.InternetStackHelper().Install(nodes)
    ns.SctpStackHelper().Install(nodes)
    addresses = ns.Ipv4AddressHelper()
    addresses.SetBase(ns.Ipv4Address("10.1.1.0"), ns.Ipv4Mask("255.255.255.0"))
    interfaces = addresses.Assign(devices)
    return Pair(nodes, devices, interfaces, p2p)


# ---------------------------------------------------------------- tshark

TSHARK = shutil.which("tshark")
needs_tshark = pytest.mark.skipif(TSHARK is None, reason="tshark is not installed (make tshark)")


def tshark_fields(pcap: Path, *fields: str, extra: tuple[str, ...] = ()) -> list[list[str]]:
    """Rows of the requested fields, one per frame (SCTP checksum verification on)."""
    cmd = [TSHARK, "-r", str(pcap), "-o", "sctp.checksum:crc-32c", *extra, "-T", "fields"]
    for f in fields:
        cmd += ["-e", f]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return [line.split("\t") for line in out.splitlines()]


def chunk_sequence(pcap: Path) -> list[str]:
    """Chunk type names of all frames in order (bundled chunks joined by '+')."""
    names = {
        "0": "DATA",
        "1": "INIT",
        "2": "INIT_ACK",
        "3": "SACK",
        "4": "HEARTBEAT",
        "5": "HEARTBEAT_ACK",
        "6": "ABORT",
        "7": "SHUTDOWN",
        "8": "SHUTDOWN_ACK",
        "9": "ERROR",
        "10": "COOKIE_ECHO",
        "11": "COOKIE_ACK",
        "14": "SHUTDOWN_COMPLETE",
    }
    rows = tshark_fields(pcap, "sctp.chunk_type")
    return ["+".join(names.get(t, t) for t in row[0].split(",")) for row in rows if row[0]]


def assert_pcap_clean(pcap: Path) -> int:
    """Every SCTP frame has a good CRC32c and no malformed or expert error; returns frames."""
    rows = tshark_fields(
        pcap, "frame.number", "sctp.checksum.status", "_ws.malformed", "_ws.expert.severity"
    )
    assert rows, f"no frames in {pcap}"
    for number, status, malformed, severity in rows:
        assert status == "1", f"frame {number}: checksum status {status!r}"
        assert malformed == "", f"frame {number}: malformed"
        # 8388608 = error; notes about retransmissions (2097152) and warnings are fine
        assert "8388608" not in severity.split(","), f"frame {number}: expert error"
    return len(rows)


# ---------------------------------------------------------------- raw packets


def chunk(chunk_type: int, flags: int, value: bytes) -> bytes:
    """One chunk with its 4-byte header and padding."""
    import struct

    raw = struct.pack("!BBH", chunk_type, flags, 4 + len(value)) + value
    return raw + bytes((-len(raw)) % 4)


def packet(src_port: int, dst_port: int, tag: int, *chunks: bytes) -> bytearray:
    """An SCTP packet with a zero checksum (the injector fixes it on request)."""
    import struct

    return bytearray(struct.pack("!HHII", src_port, dst_port, tag, 0) + b"".join(chunks))


def init_chunk(
    tag: int,
    tsn: int = 1,
    rwnd: int = 65536,
    os_: int = 1,
    mis: int = 1,
    params: bytes = b"",
    chunk_type: int = 1,
) -> bytes:
    import struct

    return chunk(chunk_type, 0, struct.pack("!IIHHI", tag, rwnd, os_, mis, tsn) + params)


def data_chunk(tsn: int, payload: bytes, sid: int = 0, ssn: int = 0, flags: int = 3) -> bytes:
    import struct

    return chunk(0, flags, struct.pack("!IHHI", tsn, sid, ssn, 0) + payload)


def injector(pair, node: int = 1):
    ns = _ns()
    inj = ns.CreateObject[ns.SctpPacketInjector]()
    inj.SetProtocol(pair.sctp(node))
    return inj
