"""Brennan et al.'s lossy experiment (seed 002 section 3.5) with SCTP-PF (RFC 7829) off
and on, timed: the study's own ``lossy`` experiment (``multihoming_failover``), whose
points are single-homed, multi-homed with PF off and multi-homed with PF on (PFMR 0),
run through :class:`transportlab.engine.results.Results` in this process (nothing cached
is re-run unless ``--force``). Prints, per configuration, the seed's statistics (the
first lost DATA packet, the delivery stall it caused) against the published values, and
the wall and CPU time.

    .venv/bin/python benchmarks/sctp_pf_lossy.py [--runs 10] [--quick] [--force]
"""

from __future__ import annotations

import argparse
import os
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10, help="replications per configuration")
    parser.add_argument("--quick", action="store_true", help="8-s runs instead of 20 s")
    parser.add_argument("--force", action="store_true", help="re-run cached points")
    args = parser.parse_args()

    from transportlab.engine.results import Results  # noqa: PLC0415
    from transportlab.studies import get  # noqa: PLC0415

    study = get("multihoming_failover")
    results = Results(study, quick=args.quick, runs=args.runs, force=args.force)
    wall, cpu = time.perf_counter(), time.process_time()
    results["lossy"]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    table = results.table("lossy_brennan")
    print(table.round(2).to_string(index=False))
    print(
        f"{args.runs} runs x 3 configurations: {wall:.1f} s wall, {cpu:.1f} s CPU "
        f"(load average {os.getloadavg()[0]:.1f})"
    )


if __name__ == "__main__":
    main()
