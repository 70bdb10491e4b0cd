"""Speed of one full run of the wired best-effort study (target: seconds after start-up).

Prints, per transport of the FTP flows (TCP, and SCTP when the model is built in), the
wall time of building the 22-node topology, the wall and CPU time of simulating the
1000 s (``Simulator::Run`` in 1-s steps), the CPU time of the whole run step
(``scenario.run``: building, simulating, collecting the raw tables), the CPU time of
the analysis (``analysis.analyse``: the AWK and standard metrics of every flow), the
number of ns-3 events and the events per CPU second. Each configuration
runs ``--repeat`` times in this one process, after one import of ns-3. The machine is
shared, so the CPU times and the event count are the steadier numbers; the load
average is printed with them.

    .venv/bin/python benchmarks/wired_run.py [--duration 1000] [--repeat 2]
"""

from __future__ import annotations

import argparse
import os
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=1000.0)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()

    started = time.perf_counter()
    from transportlab import ns  # noqa: F401
    from transportlab.ns3.capabilities import sctp_available
    from transportlab.studies.wired_best_effort import STUDY

    print(f"start-up (import ns-3 + transportlab): {time.perf_counter() - started:.2f} s wall")
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    protocols = ["tcp"] + (["sctp"] if sctp_available() else [])
    header = (
        f"{'protocol':8} {'build wall s':>12} {'run wall s':>10} {'run cpu s':>9} "
        f"{'run() cpu s':>11} {'analyse() cpu s':>15} {'events':>9} {'events/cpu s':>12}"
    )
    print(header)
    for protocol in protocols:
        params = STUDY.parameters.validate({"protocol": protocol, "duration": args.duration})
        for _ in range(args.repeat):
            cpu = time.process_time()
            raw = STUDY.run(params, 1, 1)
            run_cpu = time.process_time() - cpu
            STUDY.analyse(raw, params)
            analyse_cpu = time.process_time() - cpu - run_cpu
            row = raw["run"].iloc[0]
            events = int(row["events"])
            print(
                f"{protocol:8} {row['build_seconds']:12.2f} {row['run_seconds']:10.2f} "
                f"{row['run_cpu_seconds']:9.2f} {run_cpu:11.2f} {analyse_cpu:15.2f} "
                f"{events:9d} {events / row['run_cpu_seconds']:12.0f}"
            )
    if "sctp" not in protocols:
        print("sctp: not measured (the SCTP model is not built into this library)")


if __name__ == "__main__":
    main()
