"""Binder (binder/): an image that builds next to repo2docker's server, within its memory.

Issue 27: postBuild pinned jupyterlab 4.6.6 over repo2docker's notebook 7.4.7 (which needs
jupyterlab<4.5), and ninja ran cores + 2 compile jobs of up to ~400 MB inside a 4 GiB
build. Checked here without Docker or network: the constraints postBuild installs with,
computed for repo2docker's Python 3.11 server packages (scripts/repo2docker-server-py3.11
.txt), the compile jobs scripts/build-jobs.sh allows, and the README's account of
binder/. scripts/check_binder_build.sh replays the whole build (slow; see the README).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"
SERVER = SCRIPTS / "repo2docker-server-py3.11.txt"
POST_BUILD = (ROOT / "binder" / "postBuild").read_text()


def _pins(text: str) -> dict[str, str]:
    pins = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version
    return pins


def _binder_constraints(*argv: str) -> dict[str, str]:
    done = subprocess.run(
        [sys.executable, str(SCRIPTS / "binder_constraints.py"), *argv],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return _pins(done.stdout)


def test_the_constraints_keep_every_server_package_of_repo2docker_at_its_version():
    server = _pins(SERVER.read_text())
    ours = _pins((ROOT / "requirements" / "constraints.txt").read_text())
    constraints = _binder_constraints("--installed", str(SERVER))
    assert {name: constraints.get(name) for name in server} == server
    # the packages the server does not have get our pins
    assert {name: constraints[name] for name in ours if name not in server} == {
        name: version for name, version in ours.items() if name not in server
    }
    assert constraints["jupyterlab"] == "4.4.9" and constraints["notebook"] == "7.4.7"
    assert constraints["ns3"] == "3.44.post0"


def test_the_constraints_of_this_environment_pin_what_is_installed():
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "list", "--format=freeze", "--exclude-editable"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    constraints = _binder_constraints()
    for name, version in _pins(installed).items():
        if name not in {"pip", "setuptools", "wheel"}:
            assert constraints[name] == version, name


def test_post_build_installs_with_those_constraints_and_leaves_jupyterlab_to_the_server():
    install = re.search(
        r"python scripts/binder_constraints\.py > \"\$constraints\"\n"
        r"python -m pip install [^\n]*-c \"\$constraints\"[^\n]*\\\n([^\n]*)",
        POST_BUILD,
    )
    assert install, "postBuild must install with scripts/binder_constraints.py's output"
    assert "project_requirements.py test)" in install.group(1)
    assert "lab" not in install.group(1)  # the server's own jupyterlab stays
    assert "-c requirements/constraints.txt" not in POST_BUILD
    assert re.search(r"^python -m pip check$", POST_BUILD, flags=re.M)


@pytest.mark.parametrize(
    ("memory_mb", "cores", "jobs"),
    [(4096, 16, 6), (4096, 2, 2), (8192, 64, 14), (1024, 8, 1), (1500, 8, 1), (2048, 8, 2)],
)
def test_compile_jobs_fit_the_build_memory(memory_mb, cores, jobs):
    env = dict(os.environ, BUILD_MEMORY_MB=str(memory_mb), BUILD_CORES=str(cores))
    done = subprocess.run(
        ["bash", str(SCRIPTS / "build-jobs.sh")], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == jobs
    # ~410 MB for the largest translation unit, at most 512 MB each, 1 GiB left over
    assert jobs == 1 or jobs * 512 + 1024 <= memory_mb


def test_post_build_bounds_the_compile_jobs_before_compiling():
    bound = POST_BUILD.index("CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(bash")
    assert "export" in POST_BUILD[bound - 10 : bound]
    assert bound < POST_BUILD.index("--no-build-isolation --no-deps -e .")


def test_the_readme_lists_the_packages_of_apt_txt():
    packages = (ROOT / "binder" / "apt.txt").read_text().split()
    readme = (ROOT / "README.md").read_text()
    listed = re.search(r"`apt\.txt` \(([^)]*)\)", readme)
    assert listed, "the README says what binder/apt.txt installs"
    assert [p.strip() for p in listed.group(1).split(",")] == packages
