"""Simulation cost of the SIP model: eight call pairs through the proxy, per transport.

Runs the multi-session scenario of the sip_over_sctp study (8 caller/callee pairs
calling back to back, 10 % loss at the router) for the same simulated time over
UDP, TCP and SCTP, and prints per protocol the wall time of ``Simulator::Run``,
the events executed, the completed calls, the wall time per simulated second and
per completed call, and the cost relative to UDP, all from one run. The SIP
elements are C++, so the cost is that of ns-3 events, not of Python.

    python benchmarks/sip_calls.py [--window SECONDS] [--repeat N]

Timings depend on the machine's load (the project machine is shared): repeat
and compare the spread; the event counts do not depend on it.
"""

from __future__ import annotations

import argparse
import statistics
import time


def measure(protocol: str, window: float) -> tuple[float, int, int]:
    from transportlab.ns3.simulation import simulation  # noqa: PLC0415
    from transportlab.studies.sip_over_sctp import testbed as sip  # noqa: PLC0415

    with simulation(seed=1, run=1) as ns:
        testbed = sip.build_testbed(protocol, 8, loss_rate=0.1, loss_start=1.0, setup_timeout=32.0)
        ns.Simulator.Stop(ns.Seconds(1.0 + window))
        start = time.perf_counter()
        ns.Simulator.Run()
        wall = time.perf_counter() - start
        events = int(ns.Simulator.GetEventCount())
        calls = testbed.recorder.calls()
    callers = calls[calls["side"] == "caller"]
    completed = int(((callers["invite_status"] == 200) & (callers["bye_status"] == 200)).sum())
    return wall, events, completed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--window", type=float, default=120.0, help="simulated seconds")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from transportlab.ns3.capabilities import sctp_available  # noqa: PLC0415

    protocols = ["udp", "tcp"] + (["sctp"] if sctp_available() else [])
    measure("udp", 1.0)  # warm up: import ns-3, load the library
    results = {}
    for protocol in protocols:
        walls, events, completed = [], 0, 0
        for _ in range(args.repeat):
            wall, events, completed = measure(protocol, args.window)
            walls.append(wall)
        results[protocol] = (statistics.median(walls), min(walls), max(walls), events, completed)
    udp_wall = results["udp"][0]
    print(f"8 call pairs, 10 % loss, {args.window:g} s simulated, median of {args.repeat}")
    print(
        f"{'protocol':>9} {'wall s':>8} {'(min-max)':>15} {'events':>9} {'calls':>6} "
        f"{'ms/sim s':>9} {'ms/call':>8} {'vs UDP':>7}"
    )
    for protocol, (wall, low, high, events, completed) in results.items():
        per_call = 1e3 * wall / completed if completed else float("nan")
        print(
            f"{protocol:>9} {wall:8.3f} {f'({low:.3f}-{high:.3f})':>15} {events:9d} "
            f"{completed:6d} {1e3 * wall / args.window:9.2f} {per_call:8.3f} "
            f"{wall / udp_wall:7.2f}"
        )


if __name__ == "__main__":
    main()
