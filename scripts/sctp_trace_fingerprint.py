"""Fingerprints of SCTP chunk traces under the model's defaults, to show that a change of
the SCTP library keeps default behaviour bit-identical (issue 14: SCTP-PF and presets are
off by default). Run it with two builds and compare the printed hashes:

    .venv/bin/python scripts/sctp_trace_fingerprint.py

Scenarios: issue 14's multi-homed failover without PF (120 s) and with a repair at 8 s,
and a single-homed transfer over links losing 2 % of packets whose receiver stops reading
for 3 s (zero window probing).
"""

from __future__ import annotations

import gc
import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _hash(frame) -> str:
    return hashlib.sha256(frame.to_csv(index=False).encode()).hexdigest()[:16]


def lossy_zero_window():
    from tests.sctp._support import cxx, make_pair
    from transportlab.ns3.sctp_recording import SctpRecorder
    from transportlab.ns3.simulation import run_until, simulation

    with simulation(seed=3, run=2) as ns:
        c = cxx()
        pair = make_pair("10Mbps", "5ms")
        for k in range(2):
            em = ns.CreateObject[ns.RateErrorModel]()
            em.SetAttribute("ErrorRate", ns.DoubleValue(0.02))
            em.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
            pair.devices.Get(k).SetAttribute("ReceiveErrorModel", ns.PointerValue(em))
        recorder = SctpRecorder()
        recorder.watch_node(pair.nodes.Get(0), 0)
        recorder.watch_node(pair.nodes.Get(1), 1)
        server = pair.socket(1)
        server.SetAttribute("RcvBufSize", ns.UintegerValue(20000))
        server.Bind(ns.InetSocketAddress(ns.Ipv4Address.GetAny(), 5000).ConvertTo())
        collector = c.Collector()
        collector.Listen(server)
        collector.HoldUntil(3.0)
        client = pair.socket(0)
        sender = c.Sender()
        sender.socket = client
        sender.ConnectAt(0.05, pair.endpoint(1, 5000))
        for i in range(1500):
            sender.At(0.2 + 0.002 * i, 1400, i % 2, False, i)
        run_until(30.0)
        out = (_hash(recorder.chunks()), _hash(recorder.delivered()), int(collector.Count()))
        del pair, recorder, server, collector, client, sender
    gc.collect()
    return out


def main() -> None:
    from tests.sctp.test_potentially_failed import run_failover

    for name, kwargs in (
        ("failover, PF off", dict(pfmr=None, stop=120.0)),
        ("failover, PF off, repair 8 s", dict(pfmr=None, repair=8.0, stop=30.0)),
    ):
        r = run_failover(**kwargs)
        print(
            f"{name}: chunks {_hash(r['chunks'])} paths {_hash(r['paths'])} "
            f"done {r['done_at']:.6f} bytes {r['bytes']}"
        )
    chunks, delivered, count = lossy_zero_window()
    print(f"lossy, zero window: chunks {chunks} delivered {delivered} messages {count}")


if __name__ == "__main__":
    main()
