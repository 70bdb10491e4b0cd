"""Wall time, events, events/s and peak memory of one 100-s wsn_reporting_interval run.

Usage: python benchmarks/wsn_run.py [--protocol udp tcp] [--interval 1] [--duration 100]
       [--compare]

Each run happens in a fresh process (peak RSS is per process), one at a time. With
``--compare`` every speed option of :class:`RunOptions` is also turned off in turn
and the script checks that the simulated results (delivered packets, their delays,
energy per node, packet counters, event count) are identical with and without it:
an optimisation must not change what is simulated.

The machine is shared: the load average is printed with every measurement, and the
event count (deterministic) is the load-independent measure of work.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

CHILD = r"""
import hashlib, json, resource, sys, time
import pandas as pd
from transportlab.studies import wsn_reporting_interval as w
params, options = json.loads(sys.argv[1]), json.loads(sys.argv[2])
def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
t0, c0 = time.perf_counter(), cpu()
r = w.run_scenario(params, seed=1, run=1, options=w.RunOptions(**options))
total, cpu_total = time.perf_counter() - t0, cpu() - c0
s = r["summary"].iloc[0]
def digest(frame):
    values = pd.util.hash_pandas_object(frame, index=False).values
    return hashlib.sha256(values.tobytes()).hexdigest()[:16]
out = {
    "wall_run_s": float(r["performance"]["wall_s"].iloc[0]),
    "wall_total_s": total,
    "cpu_total_s": cpu_total,
    "events": int(r["performance"]["events"].iloc[0]),
    "peak_rss_mb": float(r["performance"]["peak_rss_mb"].iloc[0]),
    "delivered": int(s["delivered"]),
    "energy_per_node_j": float(s["energy_per_node_j"]),
    "results_digest": digest(r["summary"].drop(columns=["events"])) + digest(r["counts"])
                      + digest(r["energy"]) + digest(r.get("packets", pd.DataFrame({"x": []}))),
}
print("RESULT " + json.dumps(out))
"""


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def measure(params: dict, options: dict) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(params), json.dumps(options)],
        capture_output=True,
        text=True,
    )
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT ") :])
    raise RuntimeError(f"benchmark child failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--protocol", nargs="+", default=["udp", "tcp"])
    parser.add_argument("--interval", type=float, default=1.0)
    parser.add_argument("--duration", type=float, default=100.0)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument(
        "--compare",
        action="store_true",
        help="also run with each speed option off and check identical results",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        help="extra RunOptions as name=json, e.g. fast_energy=false",
    )
    args = parser.parse_args()
    base_options = {}
    for item in args.option:
        name, value = item.split("=", 1)
        base_options[name] = json.loads(value)
    print(f"# {os.cpu_count()} cores; times are wall-clock on a shared machine, events are exact")
    print(
        f"{'protocol':8} {'variant':30} {'run s':>7} {'total s':>7} {'cpu s':>7} "
        f"{'events':>10} {'events/s':>9} {'peak MB':>8} {'delivered':>9} {'J/node':>7}"
        f"  load(1/5/15)  digest"
    )
    failures = 0
    for protocol in args.protocol:
        params = {
            "protocol": protocol,
            "reporting_interval": args.interval,
            "duration": args.duration,
        }
        variants = [("optimised", dict(base_options))]
        if args.compare:
            from transportlab.studies.wsn_reporting_interval import RunOptions  # noqa: PLC0415

            for name, default in RunOptions().__dict__.items():
                if isinstance(default, bool) and name != "record_packets":
                    variants.append((f"{name}={not default}", {**base_options, name: not default}))
        reference = None
        for label, options in variants:
            for _ in range(args.repeat):
                before = load()
                r = measure(params, options)
                print(
                    f"{protocol:8} {label:30} {r['wall_run_s']:7.1f} {r['wall_total_s']:7.1f} "
                    f"{r['cpu_total_s']:7.1f} {r['events']:10d} "
                    f"{r['events'] / r['wall_run_s']:9.0f} "
                    f"{r['peak_rss_mb']:8.0f} {r['delivered']:9d} {r['energy_per_node_j']:7.3f}"
                    f"  {before}  {r['results_digest']}",
                    flush=True,
                )
                if reference is None:
                    reference = r["results_digest"]
                elif r["results_digest"] != reference:
                    print(f"  !! results differ from the optimised run ({label})")
                    failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
