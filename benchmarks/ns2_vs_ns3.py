"""Wall time of a study's scenario in ns-3 against the same scenario in NS-2.35.

Two scenarios (``--scenario``, default both):

* ``wired``: the wired study's dumbbell, per transport of the FTP flows (TCP, and SCTP
  when the model is built in), ``--duration`` seconds (default 1000);
* ``wsn``: the sensor study's field (the declared placement: run 1's field and start
  times, the same in both), UDP, TCP and SCTP at the 1-s reporting interval,
  ``--wsn-duration`` seconds (default 100, the seed's).

Printed per configuration: the wall time of one replication of each simulator's run step
as the sweep calls it (ns-3: the study's ``run``, building, simulating and collecting the
raw tables in this process; NS-2: ``ns2_scenario.run``, writing the Tcl, running ``ns``
and parsing its trace into the same tables), the part spent inside the simulator (ns-3's
``Simulator::Run``; the ``ns`` process), and the ratio ns-3 / NS-2 of the run steps. ns-3
is imported once before the first measurement (not counted). Every configuration runs
``--repeat`` times, alternating the simulators, in this one process; the machine is
shared, so the load average is printed with the times, and the CPU times of the
simulators (ns-3's ``Simulator::Run``, the ``ns`` process) are the least load-sensitive.

    .venv/bin/python benchmarks/ns2_vs_ns3.py [--scenario wired wsn] [--repeat 1]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time


def _row(label, ns3_times, ns3_inner, ns3_cpu, ns2_times, ns2_inner, ns2_cpu) -> None:
    ns3, ns2 = statistics.median(ns3_times), statistics.median(ns2_times)
    cpu = (f"{statistics.median(ns3_cpu):8.2f} {statistics.median(ns2_cpu):8.2f}"
           if ns3_cpu and ns2_cpu else f"{'':8} {'':8}")  # fmt: skip
    print(
        f"{label:14} {ns3:12.2f} {statistics.median(ns3_inner):10.2f} {ns2:12.2f} "
        f"{statistics.median(ns2_inner):8.2f} {cpu} {ns3 / ns2:15.2f}",
        flush=True,
    )


def wired(duration: float, repeat: int) -> None:
    from transportlab.ns3.capabilities import sctp_available
    from transportlab.studies.wired_best_effort import STUDY, ns2_scenario

    for protocol in ["tcp"] + (["sctp"] if sctp_available() else []):
        params = STUDY.parameters.validate({"protocol": protocol, "duration": duration})
        ns2_params = ns2_scenario.PARAMETERS.validate(dict(params))
        times = ([], [], [], [], [], [])
        for _ in range(repeat):
            start = time.perf_counter()
            raw = STUDY.run(params, 1, 1)
            times[0].append(time.perf_counter() - start)
            times[1].append(float(raw["run"]["run_seconds"].iloc[0]))
            start = time.perf_counter()
            raw = ns2_scenario.run(ns2_params, 1, 1)
            times[3].append(time.perf_counter() - start)
            times[4].append(float(raw["run"]["run_seconds"].iloc[0]))
            times[5].append(float(raw["run"]["run_cpu_seconds"].iloc[0]))
        _row(f"wired {protocol}", times[0], times[1], [], times[3], times[4], [])
    if not sctp_available():
        print("wired sctp: not measured (the SCTP model is not built into this library)")


def wsn(duration: float, repeat: int) -> None:
    from transportlab.ns3.capabilities import sctp_available
    from transportlab.studies.wsn_reporting_interval import STUDY, ns2_scenario

    for protocol in ["udp", "tcp"] + (["sctp"] if sctp_available() else []):
        params = STUDY.parameters.validate(
            {"protocol": protocol, "reporting_interval": 1.0, "duration": duration}
        )
        ns2_params = ns2_scenario.PARAMETERS.validate(dict(params))
        times = ([], [], [], [], [], [])
        for _ in range(repeat):
            start = time.perf_counter()
            raw = STUDY.run(params, 1, 1)
            times[0].append(time.perf_counter() - start)
            times[1].append(float(raw["performance"]["wall_s"].iloc[0]))
            times[2].append(float(raw["performance"]["cpu_s"].iloc[0]))
            start = time.perf_counter()
            raw = ns2_scenario.run(ns2_params, 1, 1)
            times[3].append(time.perf_counter() - start)
            times[4].append(float(raw["performance"]["wall_s"].iloc[0]))
            times[5].append(float(raw["performance"]["cpu_s"].iloc[0]))
        _row(f"wsn {protocol}", *times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", nargs="+", choices=("wired", "wsn"),
                        default=["wired", "wsn"])  # fmt: skip
    parser.add_argument("--duration", type=float, default=1000.0, help="wired run (s)")
    parser.add_argument("--wsn-duration", type=float, default=100.0, help="sensor run (s)")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()

    from transportlab import ns  # noqa: F401
    from transportlab.ns2 import runner

    print(f"NS-2 {runner.versions()}")
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    print(
        f"{'scenario':14} {'ns-3 run() s':>12} {'in Run() s':>10} {'NS-2 run() s':>12} "
        f"{'in ns s':>8} {'ns-3 cpu':>8} {'ns cpu':>8} {'ratio ns-3/NS-2':>15}"
    )
    if "wired" in args.scenario:
        wired(args.duration, args.repeat)
    if "wsn" in args.scenario:
        wsn(args.wsn_duration, args.repeat)
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
