"""SCTP fuzz campaign (issue 14): >= 10^6 forged, replayed and mutated packets into live
transfers, outside ``make test``.

    .venv/bin/python scripts/sctp_fuzz_campaign.py --packets 1000000 [--per-run 5000]

Runs ``tests/sctp/fuzz_engine.py`` (see its docstring for the packet kinds and what a
wrong outcome is) in batches of runs, each batch in a fresh subprocess so that a crash
(an NS_ASSERT, a segfault) is counted with its seed instead of ending the campaign.
Prints packets injected, runs, crashes and wrong outcomes (with seeds: rerun one with
``--seeds N``). Deterministic: the same seeds give the same packets.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def worker(seeds: list[int], per_run: int) -> None:
    sys.path.insert(0, str(ROOT))
    from tests.sctp.fuzz_engine import RunConfig, run_once

    for seed in seeds:
        print(json.dumps({"start": seed}), flush=True)
        result = run_once(RunConfig.draw(seed, per_run))
        print(json.dumps(result), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packets", type=int, default=1_000_000, help="total to inject")
    parser.add_argument("--per-run", type=int, default=5000, help="packets per simulation")
    parser.add_argument("--batch", type=int, default=25, help="runs per subprocess")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--seeds", type=int, nargs="*", help="rerun these seeds only")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.seeds or [], args.per_run)
        return 0
    n_runs = -(-args.packets // args.per_run)
    seeds = args.seeds or list(range(args.first_seed, args.first_seed + n_runs))
    packets = runs = 0
    crashes: list[int] = []
    wrong: list[dict] = []
    kinds: Counter = Counter()
    started = time.time()
    for i in range(0, len(seeds), args.batch):
        batch = seeds[i : i + args.batch]
        pending = list(batch)
        while pending:
            cmd = [sys.executable, __file__, "--worker", "--per-run", str(args.per_run)]
            proc = subprocess.run(
                [*cmd, "--seeds", *map(str, pending)], capture_output=True, text=True, cwd=ROOT
            )
            current = None
            for line in proc.stdout.splitlines():
                if not line.startswith("{"):
                    continue
                record = json.loads(line)
                if "start" in record:
                    current = record["start"]
                    continue
                current = None
                pending.remove(record["seed"])
                runs += 1
                packets += record["packets"]
                kinds.update(record["kinds"])
                if record["problems"]:
                    wrong.append(record)
            if proc.returncode != 0 or current is not None:
                crashed = current if current is not None else pending[0]
                crashes.append(crashed)
                print(f"CRASH seed {crashed} (exit {proc.returncode})", flush=True)
                print(proc.stderr[-2000:], flush=True)
                pending.remove(crashed)
                runs += 1
        rate = packets / max(1e-9, time.time() - started)
        print(
            f"{runs} runs, {packets} packets ({rate:.0f}/s), {len(crashes)} crashes, "
            f"{len(wrong)} wrong outcomes",
            flush=True,
        )
    print("\n== SCTP fuzz campaign ==")
    print(f"packets injected: {packets}")
    print(f"runs:             {runs}")
    print(f"crashes:          {len(crashes)} {crashes[:20]}")
    print(f"wrong outcomes:   {len(wrong)}")
    for record in wrong[:20]:
        print(f"  seed {record['seed']}: {record['problems']} {record['config']}")
    print("packets by kind:  " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    print(f"elapsed:          {time.time() - started:.0f} s")
    return 1 if crashes or wrong else 0


if __name__ == "__main__":
    sys.exit(main())
