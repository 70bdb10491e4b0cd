"""Speed of one full run of the wired best-effort study (target: seconds after start-up).

Prints, per transport of the FTP flows (TCP, and SCTP when the model is built in),
the wall and CPU time of building the 22-node topology and of simulating the 1000 s,
the number of ns-3 events and the events per CPU second. Each configuration runs
``--repeat`` times in this one process (after one import of ns-3); the machine is
shared, so the CPU time and the event count are the steadier numbers.

    .venv/bin/python benchmarks/wired_run.py [--duration 1000] [--repeat 2]
"""

from __future__ import annotations

import argparse
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=1000.0)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()

    started = time.perf_counter()
    from transportlab import ns  # noqa: F401
    from transportlab.studies import wired_best_effort as study

    print(f"start-up (import ns-3 + transportlab): {time.perf_counter() - started:.2f} s wall")
    protocols = ["tcp"] + (["sctp"] if study.sctp_available() else [])
    print(f"{'protocol':8} {'packets':>7} {'build s':>8} {'run wall s':>10} {'run cpu s':>9} "
          f"{'events':>9} {'events/cpu s':>12}")  # fmt: skip
    for protocol in protocols:
        for record in (True, False):
            for _ in range(args.repeat):
                params = study.PARAMETERS.validate(
                    {"protocol": protocol, "duration": args.duration, "record_packets": record}
                )
                cpu = time.process_time()
                out = study.simulate(params, seed=1, run=1)
                cpu = time.process_time() - cpu
                row = out["run"].iloc[0]
                run_cpu = cpu - row["build_seconds"]  # building is single-threaded too
                print(
                    f"{protocol:8} {'yes' if record else 'no':>7} {row['build_seconds']:8.2f} "
                    f"{row['run_seconds']:10.2f} {run_cpu:9.2f} {row['events']:9d} "
                    f"{row['events'] / max(run_cpu, 1e-9):12.0f}"
                )
    if "sctp" not in protocols:
        print("sctp: not measured (the SCTP model is not built into this library)")


if __name__ == "__main__":
    main()
