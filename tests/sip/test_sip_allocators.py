"""A SIP simulation gives the same tables, bit for bit, whatever the process's allocator.

Local Dask workers preload jemalloc (:mod:`transportlab.ns3.allocator`) while a serial
run keeps glibc's malloc, so a model that reads freed memory gives results that depend
on where they were computed: SipUserAgent::FinishCall once released the SCTP stream of
a call through a reference into the call it had just erased (glibc's free overwrites
the start of the Call-ID, jemalloc's leaves it), and the calls_under_loss tables of
glibc and jemalloc differed. Each allocator runs in its own fresh process. glibc with
its per-thread cache off and MALLOC_PERTURB_ fills every block it frees, so a read of
freed memory shows (as a crash or other tables) even where jemalloc is not installed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from transportlab.ns3 import allocator
from transportlab.ns3.capabilities import sctp_available

pytestmark = [
    pytest.mark.skipif(not sctp_available(), reason="SCTP module not in this build"),
    pytest.mark.slow,  # fresh processes (~10 s each), as the other fresh-process checks
]

# One caller and one callee over SCTP, two calls one after the other (each call's stream
# is freed when it ends and taken again by the next), every SIP message recorded.
SIMULATION = """
import hashlib, json
from transportlab.ns3.simulation import run_until, simulation
from transportlab.studies.sip_over_sctp import testbed as sip
with simulation(seed=1, run=1):
    testbed = sip.build_testbed("sctp", 1, max_calls=2, record_messages=True)
    run_until(7.0)
    tables = {
        "messages": testbed.recorder.messages(),
        "calls": testbed.recorder.calls(),
        "transactions": testbed.recorder.transactions(),
    }
print(json.dumps({n: hashlib.sha256(t.to_csv().encode()).hexdigest() for n, t in tables.items()}))
"""
ALLOCATOR_VARIABLES = ("LD_PRELOAD", "MALLOC_PERTURB_", "GLIBC_TUNABLES", "MALLOC_CONF")
#: glibc filling freed blocks: without the thread cache (tcache), whose blocks it skips
GLIBC_POISONING_FREE = {"GLIBC_TUNABLES": "glibc.malloc.tcache_count=0", "MALLOC_PERTURB_": "165"}


def _digests(extra_environ: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ALLOCATOR_VARIABLES}
    env.update(extra_environ)
    done = subprocess.run(
        [sys.executable, "-c", SIMULATION],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    # A crash report lists the model's frames (cppyy's gdb trace) first: show those.
    frames = [line[:160] for line in done.stderr.splitlines() if "ns3::" in line][:6]
    assert done.returncode == 0, (
        f"the simulation died with {extra_environ or 'glibc'} (exit {done.returncode}): "
        + ("\n".join(frames) or done.stderr[-2000:])
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def glibc_digests() -> dict[str, str]:
    return _digests({})


def test_glibc_with_freed_memory_overwritten_gives_the_same_tables(glibc_digests):
    assert _digests(GLIBC_POISONING_FREE) == glibc_digests


def test_jemalloc_gives_the_same_tables_as_glibc(glibc_digests):
    jemalloc = allocator.preload_library("jemalloc")
    if jemalloc is None:
        pytest.skip("jemalloc is not installed (Debian: libjemalloc2)")
    assert _digests({"LD_PRELOAD": jemalloc}) == glibc_digests
