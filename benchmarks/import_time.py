"""Import time of ns-3: plain `from ns import ns` vs warm `from transportlab import ns`.

Each import runs in a fresh Python process, several times, from an empty folder
(the wheel's loader globs the working directory). "Warm" means the cling
precompiled header is already built (it is built first if missing). Prints the
median wall time and peak RSS of each, and the speed-up. Target: >= 5x.

    python benchmarks/import_time.py [--repeat N]

Timings depend on the machine's load: on a shared machine, repeat and look at
the spread (min-max) as well as the median.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

PLAIN = "from ns import ns; ns.Simulator.Now()"
FAST = "from transportlab import ns; ns.Simulator.Now(); ns.PacketEventRecorder"


def measure(code: str, env: dict[str, str], cwd: str) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak RSS (MB) of one fresh interpreter running ``code``."""
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        env=env,
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"{code!r} failed with exit code {process.returncode}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="processes per variant (3)")
    args = parser.parse_args()

    env = {k: v for k, v in os.environ.items() if k != "CLING_STANDARD_PCH"}
    env.pop("TRANSPORTLAB_NO_PCH", None)
    from transportlab.ns3 import native as _native

    wheel, include = _native.ns3_wheel_dir(), _native.native_dir() / "include"
    if _native.ensure_pch(wheel, include) is None:
        print("no precompiled header could be built: nothing to compare")
        return 1

    results, cpu = {}, {}
    with tempfile.TemporaryDirectory() as empty:
        for label, code in (("from ns import ns", PLAIN), ("from transportlab import ns", FAST)):
            runs = [measure(code, env, empty) for _ in range(args.repeat)]
            seconds = [r[0] for r in runs]
            results[label] = statistics.median(seconds)
            cpu[label] = statistics.median(r[1] for r in runs)
            print(
                f"{label:<28} wall median {results[label]:6.2f} s "
                f"(min {min(seconds):.2f}, max {max(seconds):.2f}, n={len(seconds)}), "
                f"CPU {cpu[label]:6.2f} s, peak RSS {statistics.median(r[2] for r in runs):4.0f} MB"
            )
    plain, fast = "from ns import ns", "from transportlab import ns"
    print(f"speed-up, wall time (medians): {results[plain] / results[fast]:.1f}x (target >= 5x)")
    print(
        f"speed-up, CPU time (medians):  {cpu[plain] / cpu[fast]:.1f}x "
        "(less sensitive to other processes on the machine)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
