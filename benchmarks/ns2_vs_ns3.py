"""Wall time of the wired study's scenario in ns-3 against the same scenario in NS-2.35.

Prints, per transport of the FTP flows (TCP, and SCTP when the model is built in), the
wall time of one replication of each simulator's run step as the sweep calls it (ns-3:
``scenario.run``, building, simulating and collecting the raw tables in this process;
NS-2: ``ns2_scenario.run``, writing the Tcl, running ``ns`` and parsing its traces into
the same tables), the part of it spent inside the simulator (ns-3's
``Simulator::Run``; the ``ns`` process), and the ratio ns-3 / NS-2 of the run steps.
ns-3 is imported once before the first measurement (not counted). Every configuration
runs ``--repeat`` times, alternating the simulators, in this one process; the machine is
shared, so the load average is printed with the times.

    .venv/bin/python benchmarks/ns2_vs_ns3.py [--duration 1000] [--repeat 1]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=1000.0)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()

    from transportlab import ns  # noqa: F401
    from transportlab.ns2 import runner
    from transportlab.ns3.capabilities import sctp_available
    from transportlab.studies.wired_best_effort import STUDY, ns2_scenario

    print(f"NS-2 {runner.versions()}")
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    protocols = ["tcp"] + (["sctp"] if sctp_available() else [])
    print(
        f"{'protocol':8} {'ns-3 run() s':>12} {'in Run() s':>10} {'NS-2 run() s':>12} "
        f"{'in ns s':>8} {'ratio ns-3/NS-2':>15}"
    )
    for protocol in protocols:
        params = STUDY.validate({"protocol": protocol, "duration": args.duration})
        ns2_params = ns2_scenario.PARAMETERS.validate(dict(params))
        ns3_times, ns3_inner, ns2_times, ns2_inner = [], [], [], []
        for _ in range(args.repeat):
            start = time.perf_counter()
            raw = STUDY.run(params, 1, 1)
            ns3_times.append(time.perf_counter() - start)
            ns3_inner.append(float(raw["run"]["run_seconds"].iloc[0]))
            start = time.perf_counter()
            raw = ns2_scenario.run(ns2_params, 1, 1)
            ns2_times.append(time.perf_counter() - start)
            ns2_inner.append(float(raw["run"]["run_seconds"].iloc[0]))
        ns3, ns2 = statistics.median(ns3_times), statistics.median(ns2_times)
        print(
            f"{protocol:8} {ns3:12.2f} {statistics.median(ns3_inner):10.2f} {ns2:12.2f} "
            f"{statistics.median(ns2_inner):8.2f} {ns3 / ns2:15.2f}"
        )
    if "sctp" not in protocols:
        print("sctp: not measured (the SCTP model is not built into this library)")


if __name__ == "__main__":
    main()
