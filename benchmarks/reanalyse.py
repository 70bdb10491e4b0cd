"""What the run/analyse split saves: regenerating a study's results from the cache.

Runs ``Results.write()`` of one study three times in this process, each on a fresh
``Results``: cold (every simulation runs and is cached), warm (everything is read from
the cache and analysed again: what a changed metric, comparison or figure costs), and
forced (``force=True``: every simulation runs again, what a changed scenario costs).
Prints the wall times and the ratio warm / forced (the cold run also pays one-time
costs: cppyy's first instantiations, matplotlib's font cache). The results cache is a temporary
folder, so nothing of the project's cache is touched; the written files go to the
project's quick-mode folders.

    python benchmarks/reanalyse.py [--study NAME] [--full]

Quick mode by default (``--full``: the full-mode experiments, which take long).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time


def timed(study: str, quick: bool, force: bool) -> tuple[float, int]:
    from transportlab.engine.results import Results  # noqa: PLC0415
    from transportlab.studies import get  # noqa: PLC0415

    results = Results(get(study), quick=quick, force=force, progress=False)
    simulations = sum(len(tasks) for tasks in results.plan().values())
    start = time.perf_counter()
    results.write()
    return time.perf_counter() - start, simulations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--study", default="bottleneck_example")
    parser.add_argument("--full", action="store_true", help="full mode instead of quick mode")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="transportlab-bench-cache-") as cache:
        os.environ["TRANSPORTLAB_RESULTS_CACHE"] = cache
        from transportlab import ns  # noqa: F401, PLC0415 - ns-3 import outside the timings

        cold, simulations = timed(args.study, not args.full, force=False)
        warm, _ = timed(args.study, not args.full, force=False)
        forced, _ = timed(args.study, not args.full, force=True)
    mode = "full" if args.full else "quick"
    print(f"{args.study} ({mode} mode, {simulations} simulations), Results.write():")
    print(f"  cold (simulate + analyse):     {cold:8.2f} s")
    print(f"  warm (cache + analyse):        {warm:8.2f} s")
    print(f"  forced (simulate + analyse):   {forced:8.2f} s")
    print(f"  warm / forced = {warm / forced:.3f}  (what a changed metric costs of a rerun)")


if __name__ == "__main__":
    main()
