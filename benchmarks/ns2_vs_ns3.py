"""Wall time of the studies' scenarios in ns-3 against the same scenarios in NS-2.35.

Prints, per scenario, the wall time of one replication of each simulator's run step as
the sweep calls it (ns-3: the study's ``run``, building, simulating and collecting the
raw tables in this process; NS-2: the study's ``ns2_scenario.run``, writing the Tcl,
running ``ns`` and parsing its traces into the same tables) and the ratio ns-3 / NS-2.
Where a study's raw tables record the part spent inside the simulator (ns-3's
``Simulator::Run``; the ``ns`` process) it is printed too. Scenarios:

* ``wired``: the dumbbell of seeds 000/004 (FTP over TCP or SCTP, CBR/UDP cross traffic),
  ``--duration`` s;
* ``voip``: the 48 voice calls of seed 001 (homogeneous reading) over UDP, TCP and SCTP,
  ``--voip-duration`` s of voice;
* ``lossy``: seed 002 section 3.5's transfer under 15 % loss, single- and multi-homed
  SCTP, ``--lossy-duration`` s;
* ``wsn``: the sensor study's field (the declared placement: run 1's field and start
  times, the same in both), UDP, TCP and SCTP at the 1-s reporting interval,
  ``--wsn-duration`` s (the seed's 100 by default).

ns-3 is imported once before the first measurement (not counted). Every configuration
runs ``--repeat`` times, alternating the simulators, in this one process; the machine is
shared, so the load average is printed with the times.

    .venv/bin/python benchmarks/ns2_vs_ns3.py [--only wired,voip,lossy,wsn] [--repeat 1]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

SCENARIOS = ("wired", "voip", "lossy", "wsn")


def _run_seconds(raw) -> float:
    return float(raw["run"]["run_seconds"].iloc[0])


def _performance_seconds(raw) -> float:
    return float(raw["performance"]["wall_s"].iloc[0])


@dataclass
class Case:
    scenario: str
    label: str
    ns3_run: Callable
    ns3_params: Mapping[str, Any]
    ns2_run: Callable
    ns2_params: Mapping[str, Any]
    #: The seconds spent inside the simulator, from the raw tables (None: not recorded).
    inner: Callable | None = None


def cases(args) -> list[Case]:
    from transportlab.ns3.capabilities import sctp_available
    from transportlab.studies.multihoming_failover import STUDY as MH
    from transportlab.studies.multihoming_failover import ns2_scenario as mh_ns2
    from transportlab.studies.voip_cjm import STUDY as VOIP
    from transportlab.studies.voip_cjm import ns2_scenario as voip_ns2
    from transportlab.studies.wired_best_effort import STUDY as WIRED
    from transportlab.studies.wired_best_effort import ns2_scenario as wired_ns2
    from transportlab.studies.wsn_reporting_interval import STUDY as WSN
    from transportlab.studies.wsn_reporting_interval import ns2_scenario as wsn_ns2

    sctp = sctp_available()
    out = []
    if "wired" in args.only:
        for protocol in ["tcp"] + (["sctp"] if sctp else []):
            values = {"protocol": protocol, "duration": args.duration}
            out.append(Case("wired", protocol, WIRED.run, WIRED.parameters.validate(values),
                            wired_ns2.run, wired_ns2.PARAMETERS.validate(values),
                            inner=_run_seconds))  # fmt: skip
    if "voip" in args.only:
        for protocol in ["udp", "tcp"] + (["sctp"] if sctp else []):
            values = {"protocol": protocol, "duration": args.voip_duration}
            out.append(Case("voip", protocol, VOIP.run, VOIP.parameters.validate(values),
                            voip_ns2.run, voip_ns2.PARAMETERS.validate(values)))  # fmt: skip
    if "lossy" in args.only and sctp:
        for homing in ("single", "multi"):
            values = {"scenario": "lossy", "homing": homing, "duration": args.lossy_duration}
            out.append(Case("lossy", homing, MH.run, MH.parameters.validate(values),
                            mh_ns2.run, mh_ns2.PARAMETERS.validate(values)))  # fmt: skip
    if "wsn" in args.only:
        for protocol in ["udp", "tcp"] + (["sctp"] if sctp else []):
            values = {"protocol": protocol, "reporting_interval": 1.0,
                      "duration": args.wsn_duration}  # fmt: skip
            params = WSN.parameters.validate(values)
            out.append(Case("wsn", protocol, WSN.run, params, wsn_ns2.run,
                            wsn_ns2.PARAMETERS.validate(dict(params)),
                            inner=_performance_seconds))  # fmt: skip
    if not sctp:
        print("sctp cases: not measured (the SCTP model is not built into this library)")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(SCENARIOS), help="scenarios, comma-separated")
    parser.add_argument("--duration", type=float, default=1000.0, help="wired: simulated s")
    parser.add_argument("--voip-duration", type=float, default=60.0, help="voip: s of voice")
    parser.add_argument("--lossy-duration", type=float, default=20.0, help="lossy: simulated s")
    parser.add_argument("--wsn-duration", type=float, default=100.0, help="wsn: simulated s")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    args.only = set(args.only.split(","))
    unknown = args.only - set(SCENARIOS)
    if unknown:
        parser.error(f"unknown scenario(s) {sorted(unknown)}; choose from {', '.join(SCENARIOS)}")

    from transportlab import ns  # noqa: F401
    from transportlab.ns2 import runner

    print(f"NS-2 {runner.versions()}")
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    print(
        f"{'scenario':8} {'case':6} {'ns-3 run() s':>12} {'in Run() s':>10} {'NS-2 run() s':>12} "
        f"{'in ns s':>8} {'ratio ns-3/NS-2':>15}"
    )
    for case in cases(args):
        ns3_times, ns3_inner, ns2_times, ns2_inner = [], [], [], []
        for _ in range(args.repeat):
            start = time.perf_counter()
            raw = case.ns3_run(case.ns3_params, 1, 1)
            ns3_times.append(time.perf_counter() - start)
            if case.inner:
                ns3_inner.append(case.inner(raw))
            del raw
            start = time.perf_counter()
            raw = case.ns2_run(case.ns2_params, 1, 1)
            ns2_times.append(time.perf_counter() - start)
            if case.inner:
                ns2_inner.append(case.inner(raw))
            del raw
        ns3, ns2 = statistics.median(ns3_times), statistics.median(ns2_times)
        inner3 = f"{statistics.median(ns3_inner):10.2f}" if ns3_inner else f"{'-':>10}"
        inner2 = f"{statistics.median(ns2_inner):8.2f}" if ns2_inner else f"{'-':>8}"
        print(
            f"{case.scenario:8} {case.label:6} {ns3:12.2f} {inner3} {ns2:12.2f} {inner2} "
            f"{ns3 / ns2:15.2f}",
            flush=True,
        )
    print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
