"""Every command of the README works as written (issue 27 item 4).

In a fresh clone, the README's papermill example failed twice (``output folder output
doesn't exist``, then ``experiment 'main' sets protocol itself``). This test reads every
fenced ``sh`` and ``python`` block of the README and runs each command in a folder that
holds what a clone holds (the tracked files, no ``output/``, no results, no cache) with
this environment's ``.venv``. A command that is too expensive or needs what a test cannot
have is listed in ``SKIPPED`` with the reason, or in ``DRY_RUN`` (run with ``--dry-run``,
which parses, validates and plans it); a new README command that is in neither list is
run, so it must work.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

#: Commands (a prefix of the command as written) not run here, and why.
SKIPPED = {
    "make reproduce": "every study in quick mode (tens of minutes on 2 cores); its command, "
    "`transportlab reproduce --quick`, is run below for one study",
    "make test": "the test suite itself",
    "make book": "installs Sphinx and npm packages and builds the site; tests/test_book.py "
    "builds it and opens every page",
    "python3 -m http.server": "a web server that runs until it is stopped",
    ".venv/bin/python -m pytest": "the test suite itself",
    ".venv/bin/transportlab sweep --study wired_best_effort --grid protocol=sctp,tcp --runs 5 "
    "--scheduler tcp://host:8786": "needs a Dask scheduler at a real host ('host' stands for "
    "one); the same sweep on a local cluster is run as a dry run",
}
#: Commands run with --dry-run appended, and why.
DRY_RUN = {
    ".venv/bin/transportlab sweep --study wired_best_effort --grid protocol=sctp,tcp "
    "--grid queue_packets=20,50,100": "30 full-mode runs of 1000 simulated seconds (several "
    "CPU-minutes)",
}


def readme_blocks(text: str) -> list[tuple[str, str]]:
    """(language, source) of every fenced block."""
    return [
        (m.group(1), m.group(2))
        for m in re.finditer(r"^```(\w*)\n(.*?)^```", text, flags=re.S | re.M)
    ]


def shell_commands(source: str) -> list[str]:
    """The commands of a shell block: continuation lines joined, comment lines dropped."""
    commands, current = [], ""
    for line in source.splitlines():
        if not current and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            current += line.rstrip()[:-1].strip() + " "
            continue
        commands.append(current + line.strip())
        current = ""
    return commands


def _normalised(command: str) -> str:
    """The command without its trailing comment, single-spaced."""
    return " ".join(command.split(" #", 1)[0].split())


def _skip_reason(command: str) -> str | None:
    words = _normalised(command)
    return next((why for prefix, why in SKIPPED.items() if words.startswith(prefix)), None)


def _dry_run(command: str) -> bool:
    return any(_normalised(command).startswith(prefix) for prefix in DRY_RUN)


BLOCKS = readme_blocks(README.read_text())
SHELL = [c for lang, source in BLOCKS if lang in ("sh", "bash") for c in shell_commands(source)]
PYTHON = [source for lang, source in BLOCKS if lang == "python"]


def test_the_readme_has_commands_and_every_block_is_sh_or_python():
    assert SHELL and PYTHON
    assert {lang for lang, _ in BLOCKS} <= {"sh", "bash", "python", "text", ""}


def test_the_papermill_example_is_among_the_commands_run():
    """The issue's failing example is not skipped."""
    papermill = [c for c in SHELL if "papermill" in c]
    assert papermill and not any(_skip_reason(c) for c in papermill)


def test_every_skip_names_a_command_the_readme_has():
    for prefix in [*SKIPPED, *DRY_RUN]:
        assert any(_normalised(c).startswith(prefix) for c in SHELL), f"stale entry: {prefix}"


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """The tracked files as they are in the working tree, and this environment's .venv."""
    folder = tmp_path_factory.mktemp("clone")
    tracked = (
        subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, tracked):
        source = ROOT / name
        if source.is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, folder / name)
    (folder / ".venv").symlink_to(Path(sys.prefix))
    assert not (folder / "output").exists() and not (folder / "data" / "cache").exists()
    return folder


def _environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRANSPORTLAB_")}
    # the PCH cache is not the project's: keep it (a fresh clone on this machine has it)
    if "TRANSPORTLAB_CACHE" in os.environ:
        env["TRANSPORTLAB_CACHE"] = os.environ["TRANSPORTLAB_CACHE"]
    return env


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_the_readme_shell_commands_work_in_a_fresh_clone(clone):
    failed, ran = [], []
    for command in SHELL:
        if _skip_reason(command):
            continue
        run = command + (" --dry-run" if _dry_run(command) else "")
        result = subprocess.run(
            ["bash", "-c", run], cwd=clone, env=_environment(), capture_output=True,
            text=True, timeout=900,
        )  # fmt: skip
        ran.append(run)
        if result.returncode != 0:
            failed.append(f"{run}\n  exit {result.returncode}: {result.stderr.strip()[-600:]}")
    assert not failed, "README commands that fail in a fresh clone:\n" + "\n".join(failed)
    assert len(ran) >= 6
    # what they promise to write is there
    quick = clone / "data" / "results" / "quick" / "bottleneck_example"
    assert (quick / "comparison.csv").is_file() and (quick / "provenance.json").is_file()
    assert (clone / "output" / "quick" / "bottleneck_example.ipynb").is_file()
    assert (clone / "output" / "example.ipynb").is_file()
    explored = list((clone / "data" / "explore" / "bottleneck_example").glob("quick-*"))
    assert len(explored) == 1
    provenance = json.loads((explored[0] / "provenance.json").read_text())
    assert provenance["overrides"] == {"duration": 10.0, "queue_packets": 20}
    assert provenance["runs_override"] == 3


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(PYTHON)))
def test_the_readme_python_examples_run(clone, index):
    result = subprocess.run(
        [str(clone / ".venv" / "bin" / "python"), "-c", PYTHON[index]], cwd=clone,
        env=_environment(), capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    if "SCTP bytes received" in PYTHON[index]:
        assert result.stdout.strip().endswith("SCTP bytes received: 100000")


def _planned_simulations(quick: bool) -> dict[str, int]:
    from transportlab import studies
    from transportlab.engine.plan import simulation_count
    from transportlab.engine.results import Results

    counts = {}
    for name in studies.names():
        results = Results(studies.get(name), quick=quick)
        counts[name] = sum(simulation_count(tasks) for tasks in results.plan().values())
    return counts


def test_the_simulation_counts_the_readme_states_are_the_plans():
    """The README says how many simulations `make reproduce` (quick) and full mode run,
    and the sensor study's share: they must be what `transportlab reproduce --dry-run`
    plans (they went stale once: 233/2057/940 after new experiments)."""
    text = " ".join(README.read_text(encoding="utf-8").split())
    quick, full = _planned_simulations(quick=True), _planned_simulations(quick=False)
    stated_quick = re.search(r"quick mode\* \((\d+) short simulations", text)
    stated_full = re.search(r"reproduce`: (\d+) simulations on a local Dask cluster", text)
    stated_wsn = re.search(r"the sensor study's (\d+) ", text)
    assert stated_quick and stated_full and stated_wsn, "the README no longer states the counts"
    assert int(stated_quick.group(1)) == sum(quick.values())
    assert int(stated_full.group(1)) == sum(full.values())
    assert int(stated_wsn.group(1)) == full["wsn_reporting_interval"]
