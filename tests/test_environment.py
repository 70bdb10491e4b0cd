"""The environment `make` builds: JupyterLab in it, `make lab`, and one consistent pinned set.

Issue 27: after `make test` or `make reproduce` there was no `jupyter-lab`, and `make lab`
installed it on first use, then stopped as root and took no arguments.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONSTRAINTS = ROOT / "requirements" / "constraints.txt"
# What `make` manages is the project's .venv; in another environment (conda, a hub) the
# package set is that environment's business and `make lab` would build a new .venv.
IN_PROJECT_VENV = Path(sys.prefix).resolve() == (ROOT / ".venv").resolve()
NOT_PINNED = {"pip", "setuptools", "wheel", "transportlab"}


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins() -> dict[str, str]:
    result = {}
    for line in CONSTRAINTS.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            result[_canonical(name)] = version
    return result


def test_jupyterlab_is_installed_at_its_pinned_version():
    executable = Path(sys.prefix) / "bin" / "jupyter-lab"
    assert executable.is_file(), f"{executable} is missing: JupyterLab is part of the install"
    result = subprocess.run(
        [str(executable), "--version"], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == pins()["jupyterlab"]


@pytest.mark.skipif(not IN_PROJECT_VENV, reason="checks the .venv that make builds")
def test_the_environment_holds_exactly_the_pinned_packages():
    installed = {
        _canonical(dist.metadata["Name"]): dist.version
        for dist in importlib.metadata.distributions()
        if _canonical(dist.metadata["Name"]) not in NOT_PINNED
    }
    pinned = pins()
    # `make test` installs the results book's packages (make book-deps) before pytest; a
    # .venv made by `make install` alone has every pin but theirs.
    book_installed = (ROOT / ".venv" / ".book-deps-installed").is_file()
    assert {
        name: installed.get(name)
        for name in pinned
        if installed.get(name) != pinned[name] and (book_installed or name in installed)
    } == {}
    assert sorted(set(installed) - set(pinned)) == [], "installed but not pinned"
    check = subprocess.run(
        [sys.executable, "-m", "pip", "check"], capture_output=True, text=True, timeout=300
    )
    assert check.returncode == 0, check.stdout + check.stderr


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.skipif(not IN_PROJECT_VENV, reason="`make lab` serves from the .venv that make builds")
@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_lab_starts_jupyterlab_with_the_given_arguments(tmp_path):
    """As root too (it adds --allow-root), with ARGS passed on to `jupyter lab`."""
    port, token = _free_port(), "transportlab-test"
    args = f"--no-browser --port {port} --ServerApp.port_retries=0 --IdentityProvider.token={token}"
    log = tmp_path / "lab.log"
    with log.open("w") as out:
        lab = subprocess.Popen(
            ["make", "--no-print-directory", "lab", f"ARGS={args}"],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        status, deadline = None, time.monotonic() + 180
        while status is None and time.monotonic() < deadline and lab.poll() is None:
            try:
                url = f"http://127.0.0.1:{port}/api/status?token={token}"
                with urllib.request.urlopen(url, timeout=5) as response:
                    status = json.loads(response.read())
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(1)
        assert status is not None, log.read_text()[-3000:]
        assert "started" in status
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/lab?token={token}", timeout=10) as r:
            assert r.status == 200 and b"JupyterLab" in r.read()
    finally:
        if lab.poll() is None:
            os.killpg(lab.pid, signal.SIGTERM)
            try:
                lab.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(lab.pid, signal.SIGKILL)
                lab.wait()
    command = next(line for line in log.read_text().splitlines() if "jupyter lab" in line)
    assert args in command
    assert ("--allow-root" in command) == (os.geteuid() == 0), command
