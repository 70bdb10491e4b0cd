"""Time, events and peak memory of one 100-s wsn_reporting_interval run, before and after.

Usage: python benchmarks/wsn_run.py [--protocol udp tcp] [--interval 1] [--duration 100]
       [--reception ns2|ns3|ns2_lock] [--repeat N] [--compare | --ab OPTION]
       [--option name=json ...] [--csv PATH]

Every variant runs in a fresh process (peak RSS is per process), one at a time, and the
variants of one protocol are interleaved ``--repeat`` times, so that load changes on the
shared machine hit them alike; the table prints every run, then the ratios of the best
(lowest) times of each variant against the ``before`` one.

Variants (the speed options of :class:`RunOptions`, the allocator and the ns-3 modules
loaded, as the local cluster's workers run: :mod:`transportlab.ns3.allocator`,
:mod:`transportlab.ns3.native`):

* ``after``: the study's defaults (ns-3's energy models off: the study's energy comes from
  the radio state times) in a process set up as a local-cluster worker is: jemalloc
  preloaded, only the ns-3 modules the studies use (``TRANSPORTLAB_NS3_MODULES=studies``);
* ``before``: what issue 13 measured: ns-3's energy models in every run (with the
  horizon), the system allocator (glibc), every ns-3 module;
* ``issue 6 before``: the purging scheduler only (stock YansWifiPhy and
  WifiRadioEnergyModel), glibc;
* with ``--compare``, also ``after`` with each speed option off in turn, and ``ns-3
  stock`` (ns-3's MapScheduler, YansWifiPhy and WifiRadioEnergyModel, glibc);
* with ``--ab OPTION`` instead of ``before``: ``after`` with that one option off (the
  ratios then measure that option alone; use ``--repeat`` 3 or more).

``--reception`` is the study's ``reception_model`` of every variant (default: the study's,
``ns2_lock`` since issue 25). NS-2's collision rule and its carrier-sense culling live in
the filtered PHY, so with ``ns2`` or ``ns2_lock`` the variants that run the stock
YansWifiPhy (``issue 6 before``, ``ns-3 stock``, ``filter_weak_signals`` off) are skipped;
``--reception ns3`` runs them all, with ns-3's reception and without the culling
(``carrier_sense_culling`` none), as before issues 13 and 25. Every other setting is the
study's declared one (since issue 25: 802.11 at 1 Mb/s, NS-2's retry counts, preloaded
neighbour caches).

Memory: the peak RSS of the child, and at the end of the run its anonymous memory (heap:
ns-3's objects, Python's) and its file-backed memory (the ns-3 libraries and cling's
precompiled header, mapped from files and shared by every worker process on a machine).

Every variant must give identical simulated results: the digest of the summary (without
the event count and of ns-3's energy models, a cross-check only), the packet counters,
the state-time energy per node and every delivered packet (delays) is printed and
compared with the ``after`` run; a difference is an error (exit status 1). ``--csv PATH``
also writes every run (one row each, with the date and the 1-minute load when it ended,
and the command) to a CSV, atomically; notebook 04 prints its section on speed from the
committed ``benchmarks/results/wsn_run.csv``. The machine is shared: the load average is printed
with every run; the event count is exact, the CPU time of ``Simulator::Run`` (``run cpu``)
is the least load-sensitive time.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shlex
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
r = w.simulate(params, seed=1, run=1, options=w.RunOptions(**options))
total, cpu_total = time.perf_counter() - t0, cpu() - c0
s = r["summary"].iloc[0]
perf = r["performance"].iloc[0]
def digest(frame):
    values = pd.util.hash_pandas_object(frame, index=False).values
    return hashlib.sha256(values.tobytes()).hexdigest()[:16]
out = {
    "wall_run_s": float(perf["wall_s"]),
    "cpu_run_s": float(perf["cpu_s"]),
    "wall_total_s": total,
    "cpu_total_s": cpu_total,
    "events": int(perf["events"]),
    "peak_rss_mb": float(perf["peak_rss_mb"]),
    "delivered": int(s["delivered"]),
    "energy_per_node_j": float(s["energy_per_node_j"]),
    # ns-3's own energy models (RunOptions.ns3_energy_models) are a cross-check, not a
    # result: the digest covers what is simulated and the study's state-time energy
    "results_digest": digest(r["summary"].drop(columns=["events", "mica2_model_energy_per_node_j"],
                                               errors="ignore"))
                      + digest(r["counts"]) + digest(r["energy_states"])
                      + digest(r.get("packets", pd.DataFrame({"x": []}))),
}
status = dict(line.split(":", 1) for line in open("/proc/self/status") if ":" in line)
out["anon_mb"] = int(status["RssAnon"].split()[0]) / 1024
out["file_mb"] = int(status["RssFile"].split()[0]) / 1024
print("RESULT " + json.dumps(out))
"""

#: RunOptions of the study before this benchmark's optimisations (issue 6, first part)
BEFORE = {
    "purge_cancelled_events": True,
    "filter_weak_signals": False,
    "ns3_energy_models": True,
    "energy_horizon": False,
}
#: (allocator, ns-3 modules) of a local-cluster simulation worker (transportlab.ns3.runtime) and
#: of a process before issue 13: the system allocator, every ns-3 module
WORKER = ("jemalloc", "studies")
BEFORE_SETUP = ("system", "all")
#: RunOptions when issue 13 was filed: ns-3's energy models ran in every run
ISSUE_13_BEFORE = {"ns3_energy_models": True}
#: ns-3 as it comes: MapScheduler, YansWifiPhy, WifiRadioEnergyModel
STOCK = {**BEFORE, "purge_cancelled_events": False}


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def measure(params: dict, options: dict, setup: tuple[str, str]) -> dict:
    from transportlab.ns3.allocator import preload_environ  # noqa: PLC0415
    from transportlab.ns3.native import MODULES_VARIABLE  # noqa: PLC0415

    malloc, modules = setup
    env = preload_environ(malloc)
    if malloc == "system":
        env.pop("LD_PRELOAD", None)
    env[MODULES_VARIABLE] = modules
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(params), json.dumps(options)],
        capture_output=True,
        text=True,
        env=env,
    )
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT ") :])
    raise RuntimeError(f"benchmark child failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")


def variants(compare: bool, extra: dict, ab: str | None = None) -> list[tuple[str, dict, str]]:
    """(label, RunOptions, (allocator, ns-3 modules)) of every variant."""
    from transportlab.studies.wsn_reporting_interval import RunOptions  # noqa: PLC0415

    speed = {
        name: default
        for name, default in RunOptions().__dict__.items()
        if isinstance(default, bool) and name != "checksums"
    }
    unknown = set(BEFORE) - set(speed)
    if unknown:
        raise SystemExit(f"RunOptions has no {sorted(unknown)}")
    if ab is not None:
        if ab not in speed:
            raise SystemExit(f"--ab: {ab!r} is not a speed option ({sorted(speed)})")
        return [
            ("after", {**extra}, WORKER),
            ("before", {**extra, ab: not speed[ab]}, WORKER),
        ]
    chosen = [
        ("after", {**extra}, WORKER),
        # issue 13's starting point: ns-3's energy models in every run, the system allocator
        ("before", {**ISSUE_13_BEFORE, **extra}, BEFORE_SETUP),
        # issue 6's starting point: the purging scheduler only, the system allocator
        ("issue 6 before", {**BEFORE, **extra}, BEFORE_SETUP),
    ]
    if compare:
        for name, default in speed.items():
            chosen.append((f"after, {name}={not default}", {**extra, name: not default}, WORKER))
        chosen.append(("ns-3 stock", {**STOCK, **extra}, BEFORE_SETUP))
    return chosen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--protocol", nargs="+", default=["udp"])
    parser.add_argument("--interval", type=float, default=1.0)
    parser.add_argument("--duration", type=float, default=100.0)
    parser.add_argument(
        "--reception",
        choices=("ns2", "ns3", "ns2_lock"),
        default=None,
        help="the study's reception_model for every variant (default: the study's, ns2_lock "
        "since issue 25)",
    )
    parser.add_argument("--repeat", type=int, default=1, help="interleaved runs per variant")
    parser.add_argument(
        "--compare",
        action="store_true",
        help="also each speed option off in turn, and ns-3 stock (all off)",
    )
    parser.add_argument(
        "--ab",
        metavar="OPTION",
        help="compare `after` with `after` without this one speed option (as `before`)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        help="extra RunOptions for every variant as name=json, e.g. checksums=true",
    )
    parser.add_argument("--csv", metavar="PATH", help="also write every run to this CSV")
    args = parser.parse_args()
    command = shlex.join(["python", "benchmarks/wsn_run.py", *sys.argv[1:]])
    rows: list[dict] = []
    extra = {}
    for item in args.option:
        name, value = item.split("=", 1)
        extra[name] = json.loads(value)
    print(f"# {os.cpu_count()} cores; times are from a shared machine, events are exact")
    print(
        f"{'protocol':8} {'variant':38} {'run s':>6} {'run cpu':>7} {'total s':>7} "
        f"{'events':>10} {'events/s':>9} {'peak MB':>7} {'anon':>5} {'file':>5} {'deliv.':>6} "
        f"{'J/node':>6}"
        f"  load(1/5/15)    digest"
    )
    failures = 0
    for protocol in args.protocol:
        params = {"protocol": protocol, "reporting_interval": args.interval,
                  "duration": args.duration}  # fmt: skip
        if args.reception is not None:
            params["reception_model"] = args.reception
        if args.reception == "ns3":
            params["carrier_sense_culling"] = "none"
        runs: dict[str, list[dict]] = {}
        chosen = variants(args.compare, extra, args.ab)
        if args.reception != "ns3":
            stock_phy = [v for v in chosen if v[1].get("filter_weak_signals") is False]
            for label, _, _ in stock_phy:
                print(f"# skipped {label!r}: the stock PHY has no NS-2 collision rule or culling")
            chosen = [v for v in chosen if v not in stock_phy]
        reference = None
        for _ in range(args.repeat):
            for label, options, setup in chosen:
                before = load()
                r = measure(params, options, setup)
                runs.setdefault(label, []).append(r)
                rows.append({
                    "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
                    "protocol": protocol, "variant": label, "interval_s": args.interval,
                    "duration_s": args.duration, "load_1min": os.getloadavg()[0],
                    "cores": os.cpu_count(), **r, "command": command,
                })  # fmt: skip
                print(
                    f"{protocol:8} {label:38} {r['wall_run_s']:6.1f} {r['cpu_run_s']:7.1f} "
                    f"{r['wall_total_s']:7.1f} {r['events']:10d} "
                    f"{r['events'] / r['cpu_run_s']:9.0f} {r['peak_rss_mb']:7.0f} "
                    f"{r['anon_mb']:5.0f} {r['file_mb']:5.0f} "
                    f"{r['delivered']:6d} {r['energy_per_node_j']:6.3f}"
                    f"  {before:14}  {r['results_digest'][:32]}",
                    flush=True,
                )
                if reference is None:
                    reference = r["results_digest"]
                elif r["results_digest"] != reference:
                    print(f"  !! simulated results differ from the first run ({label})")
                    failures += 1
        if "before" not in runs:
            print(f"# {protocol}: no `before` variant ran (skipped above); no ratios")
            continue
        base = runs["before"]
        print(f"# {protocol}: best of {args.repeat} per variant, ratio before / variant")
        if args.ab:
            print(f"#   (before = after with {args.ab} off)")
        for label, results in runs.items():
            best = {
                key: min(r[key] for r in results)
                for key in (
                    "wall_run_s",
                    "cpu_run_s",
                    "wall_total_s",
                    "peak_rss_mb",
                    "anon_mb",
                    "file_mb",
                )
            }
            base_best = {key: min(r[key] for r in base) for key in best}
            print(
                f"#   {label:38} run cpu {best['cpu_run_s']:6.1f} s "
                f"(x{base_best['cpu_run_s'] / best['cpu_run_s']:.2f}), "
                f"run wall {best['wall_run_s']:6.1f} s "
                f"(x{base_best['wall_run_s'] / best['wall_run_s']:.2f}), "
                f"total wall {best['wall_total_s']:6.1f} s "
                f"(x{base_best['wall_total_s'] / best['wall_total_s']:.2f}), "
                f"events {results[0]['events']} "
                f"(x{base[0]['events'] / results[0]['events']:.2f}), "
                f"peak {best['peak_rss_mb']:.0f} MB (at the end: {best['anon_mb']:.0f} MB "
                f"anonymous, {best['file_mb']:.0f} MB file-backed)"
            )
    print("# simulated results identical in every run" if not failures else "# RESULTS DIFFER")
    if args.csv and rows:
        import pandas as pd  # noqa: PLC0415

        from transportlab.engine.files import write_csv  # noqa: PLC0415

        print(f"# wrote {write_csv(pd.DataFrame(rows), args.csv)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
