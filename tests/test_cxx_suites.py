"""The C++ ns-3 TestSuites of our modules (``src/<module>/test/``) and the SCTP example.

``transportlab-test-runner`` is ns-3's TestRunner over ``libtransportlab-tests.so``; each
suite runs in its own process (ns-3's runner refuses to run several at once with its
default options) and one pytest test per suite reports it. The suites test the C++
classes directly; the pytest suites under ``tests/sctp`` keep testing what Python sees.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from transportlab.ns3 import native


def _program(name: str):
    return native.native_dir() / "bin" / name


RUNNER = _program("transportlab-test-runner")


def _suites() -> list[str]:
    if not RUNNER.is_file():
        return []
    listing = subprocess.run([str(RUNNER), "--list"], capture_output=True, text=True,
                             check=True, timeout=120)  # fmt: skip
    return listing.stdout.split()


SUITES = _suites()


def _run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(RUNNER), *args], capture_output=True, text=True,
                          timeout=timeout)  # fmt: skip


def test_every_module_has_a_suite():
    assert RUNNER.is_file(), f"{RUNNER} is not built (make install)"
    modules = native.native_modules(native.native_dir() / "include")
    assert "sctp" in modules and "sctp-research" in modules
    for module in modules:
        assert any(s == module or s.startswith(module + "-") for s in SUITES), module
    sctp = {s for s in SUITES if s.startswith("sctp-") and s != "sctp-research"}
    assert {
        "sctp-wire",
        "sctp-tsn-map",
        "sctp-reassembly",
        "sctp-handshake",
        "sctp-loss-recovery",
        "sctp-potentially-failed",
        "sctp-congestion-ops",
        "sctp-stream-scheduler",
        "sctp-stream-reconfig",
    } <= sctp


@pytest.mark.parametrize("suite", SUITES)
def test_suite_passes(suite):
    result = _run(f"--suite={suite}", "--verbose")
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    assert report.startswith(f"PASS {suite}"), report
    assert "FAIL" not in report, report


def test_a_failing_suite_fails_the_runner():
    result = _run("--with-failing-suite", "--suite=transportlab-failing-suite")
    assert result.returncode != 0
    assert result.stdout.startswith("FAIL transportlab-failing-suite")
    # and it exists only when asked for
    assert "transportlab-failing-suite" not in SUITES


def test_cxx_example_transfers_and_recovers():
    example = _program("sctp-bulk-send")
    assert example.is_file(), f"{example} is not built (make install)"
    result = subprocess.run([str(example), "--maxBytes=500000", "--errorRate=0.01"],
                            capture_output=True, text=True, timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr
    delivered = re.search(r"delivered (\d+) bytes", result.stdout)
    counters = re.search(r"fast retransmits (\d+), timeouts (\d+)", result.stdout)
    assert delivered and int(delivered.group(1)) == 500000, result.stdout
    assert counters and int(counters.group(1)) + int(counters.group(2)) > 0, result.stdout
    assert "SctpRfc9260CongestionOps" in result.stdout
