"""Run NS-2 (``ns``, Debian's ``ns2`` 2.35) on a Tcl script in a temporary folder.

:func:`run_script` writes the script into a fresh temporary folder, runs ``ns`` there
with a timeout and yields an :class:`Ns2Run` (the folder, stdout, stderr, wall and CPU
time); the folder and everything the script wrote into it (traces) are deleted when
the ``with`` block ends, so parse the traces inside it (:mod:`transportlab.ns2.traces`).
A script that fails, or NS-2 that is missing or too slow, raises :class:`Ns2Error`
whose message is one line: what NS-2 said first.

Which ``ns``: ``$TRANSPORTLAB_NS2`` (a path or a command name), else ``ns`` on the
``PATH``. :func:`versions` names what a cached result depends on (NS-2's own version,
the Debian package's, or the executable's digest when it is not Debian's).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import resource
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "ENVIRONMENT_VARIABLE",
    "Ns2Error",
    "Ns2NotFoundError",
    "Ns2Run",
    "available",
    "executable",
    "ns2_run_step",
    "run_script",
    "versions",
]

ENVIRONMENT_VARIABLE = "TRANSPORTLAB_NS2"
DEFAULT_TIMEOUT = 3600.0
SCRIPT_NAME = "scenario.tcl"
INSTALL_HINT = "install Debian's ns2 (`make ns2`, or `apt-get install ns2`)"


class Ns2Error(RuntimeError):
    """NS-2 failed on a script; the message is one line."""


class Ns2NotFoundError(Ns2Error):
    """No NS-2 executable."""


def executable() -> str:
    """The path of the ``ns`` executable; :class:`Ns2NotFoundError` if there is none."""
    wanted = os.environ.get(ENVIRONMENT_VARIABLE) or "ns"
    found = shutil.which(wanted)
    if found is None:
        where = f"${ENVIRONMENT_VARIABLE}={wanted}" if wanted != "ns" else "`ns` on the PATH"
        raise Ns2NotFoundError(f"NS-2 not found ({where}): {INSTALL_HINT}")
    return found


def available() -> bool:
    """Whether an NS-2 executable can be found (tests that need it skip otherwise)."""
    try:
        executable()
    except Ns2NotFoundError:
        return False
    return True


@functools.cache
def _versions(path: str) -> tuple[tuple[str, str], ...]:
    found = {"ns2": _tcl_version(path)}
    package = _debian_package_version(path)
    if package:
        found["ns2-debian"] = package
    else:
        digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        found["ns2-executable"] = digest
    return tuple(sorted(found.items()))


def versions() -> dict[str, str]:
    """What an NS-2 result depends on besides the script: NS-2's version (``ns-version``)
    and the Debian package's (``dpkg-query``), or, for an ``ns`` that dpkg does not
    know, the SHA-256 of the executable. Part of the cache key of NS-2 run steps."""
    return dict(_versions(os.path.realpath(executable())))


def _tcl_version(path: str) -> str:
    with tempfile.TemporaryDirectory(prefix="transportlab-ns2-") as folder:
        script = Path(folder) / "version.tcl"
        script.write_text("puts [ns-version]\n")
        done = subprocess.run(
            [path, script.name], cwd=folder, capture_output=True, text=True, timeout=60
        )
    if done.returncode != 0:
        raise Ns2Error(f"{path} is not a working NS-2: {_first_error_line(done.stderr, '')}")
    return done.stdout.strip()


def _debian_package_version(path: str) -> str | None:
    """The version of the Debian package owning ``path``, if dpkg knows it."""
    if shutil.which("dpkg-query") is None:
        return None
    owner = subprocess.run(["dpkg-query", "-S", path], capture_output=True, text=True)
    if owner.returncode != 0 or ":" not in owner.stdout:
        return None
    package = owner.stdout.split(":", 1)[0].strip()
    version = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Version}", package], capture_output=True, text=True
    )
    return f"{package} {version.stdout.strip()}" if version.returncode == 0 else None


def ns2_run_step(function):
    """Mark a study's run step as one that runs NS-2, not ns-3.

    Sets ``function.simulator_versions`` = :func:`versions`:
    :func:`transportlab.ns2.study.ns2_study` accepts only a marked run step, and gives its
    study the runtime
    :data:`transportlab.ns2.study.NS2`, which puts NS-2's version into the cache key
    instead of the native library and the ns3 wheel.
    """
    function.simulator_versions = versions
    return function


@dataclass(frozen=True)
class Ns2Run:
    """A finished NS-2 run: its folder (deleted after the ``with`` block), what it printed,
    its wall time and the CPU time of the ``ns`` process (user + system)."""

    folder: Path
    stdout: str
    stderr: str
    wall_seconds: float
    cpu_seconds: float

    def path(self, name: str) -> Path:
        """A file the script wrote (relative names are relative to the run's folder)."""
        return self.folder / name


def _first_error_line(stderr: str, stdout: str) -> str:
    """The line that says what went wrong. Tcl errors while the script is read go to
    stderr, first line first; errors in scheduled events go to stdout as ``ns: ...``;
    NS-2's C++ code prints its own (``SCTP ERROR: ...``) before it exits."""
    errors = [line.strip() for line in stderr.splitlines() if line.strip()]
    if errors:
        return errors[0]
    printed = [line.strip() for line in stdout.splitlines() if line.strip()]
    for line in printed:
        if line.startswith("ns: ") or "ERROR" in line:
            return line
    return printed[-1] if printed else "no message"


def _child_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@contextlib.contextmanager
def run_script(
    script: str,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    name: str = SCRIPT_NAME,
    files: dict[str, str] | None = None,
) -> Iterator[Ns2Run]:
    """Run ``ns`` on the Tcl text ``script`` in a temporary folder; yield the finished run.

    ``files`` are further text files written beside the script (e.g. a movement file).
    Raises :class:`Ns2Error` (one line) when ``ns`` is missing, exits with a non-zero
    status or runs longer than ``timeout`` seconds (then it is killed). The folder and
    its traces are removed when the ``with`` block ends; nam output is never kept.
    """
    if not isinstance(script, str) or not script.strip():
        raise ValueError("script must be a non-empty Tcl text")
    if timeout <= 0:
        raise ValueError(f"timeout must be > 0 s, got {timeout}")
    program = executable()
    with tempfile.TemporaryDirectory(prefix="transportlab-ns2-") as temporary:
        folder = Path(temporary)
        (folder / name).write_text(script)
        for file_name, text in (files or {}).items():
            (folder / file_name).write_text(text)
        stdout_path, stderr_path = folder / ".stdout", folder / ".stderr"
        cpu_before = _child_cpu_seconds()
        started = time.perf_counter()
        with open(stdout_path, "w") as out, open(stderr_path, "w") as err:
            process = subprocess.Popen(
                [program, name], cwd=folder, stdout=out, stderr=err, stdin=subprocess.DEVNULL
            )
            try:
                returncode = process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                raise Ns2Error(f"NS-2 did not finish {name} within {timeout:g} s") from None
            except BaseException:
                process.kill()
                process.wait()
                raise
        wall = time.perf_counter() - started
        cpu = _child_cpu_seconds() - cpu_before
        stdout, stderr = stdout_path.read_text(), stderr_path.read_text()
        if returncode != 0:
            raise Ns2Error(
                f"NS-2 failed on {name} (exit status {returncode}): "
                f"{_first_error_line(stderr, stdout)}"
            )
        for nam in folder.glob("*.nam"):
            nam.unlink()  # never kept, even while the caller parses
        yield Ns2Run(folder, stdout, stderr, wall, cpu)
