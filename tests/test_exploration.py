"""Exploring never overwrites the committed results (issue 27 item 2).

``papermill notebooks/00_bottleneck_example.ipynb out.ipynb -p quick False -p runs 1 -y
"params: {queue_packets: 20}"`` rewrote four committed files (the comparison went from
``matches`` with 10 runs to ``differs`` with 1, and nothing recorded the parameters), and
quick mode did the same to ``data/results/quick/``. Now only ``transportlab reproduce`` of
a study's declared mode writes ``data/results``; everything else writes
``data/explore/<study>/<label>/`` with ``provenance.json`` (the parameters) beside it.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

import pytest

from transportlab import notebooks, studies
from transportlab.engine import paths
from transportlab.engine.results import Results

ROOT = Path(__file__).resolve().parents[1]
STUDY = studies.get("bottleneck_example")


def _relative(path: Path) -> str:
    return path.relative_to(paths.project_root()).as_posix()


def test_only_reproduce_of_a_declared_mode_writes_data_results():
    assert _relative(Results(STUDY, quick=True, publish=True).results_dir()) == (
        "data/results/quick/bottleneck_example"
    )
    assert _relative(Results(STUDY, quick=False, publish=True).figures_dir()) == (
        "figures/bottleneck_example"
    )
    # a notebook (no publish): its own folder, also in the declared modes
    assert _relative(Results(STUDY, quick=True).results_dir()) == (
        "data/explore/bottleneck_example/quick"
    )
    assert _relative(Results(STUDY, quick=False).figures_dir()) == (
        "data/explore/bottleneck_example/full/figures"
    )
    # reproduce with other parameters, runs or seed: an exploration, keyed by them
    for changed in ({"params": {"queue_packets": 20}}, {"runs": 1}, {"seed": 2}):
        results = Results(STUDY, quick=False, publish=True, **changed)
        assert not results.declared_mode()
        assert _relative(results.results_dir()).startswith("data/explore/bottleneck_example/full-")
        assert results.figures_dir() == results.results_dir() / "figures"


def test_the_exploration_folder_is_keyed_by_the_parameters():
    def label(**kwargs) -> str:
        return Results(STUDY, quick=False, **kwargs).exploration_label()

    assert label(params={"queue_packets": 20}) == label(params={"queue_packets": 20})
    labels = {
        label(params={"queue_packets": 20}),
        label(params={"queue_packets": 30}),
        label(params={"queue_packets": 20}, runs=1),
        label(runs=1),
    }
    assert len(labels) == 4
    # the declared number of runs is the declared mode
    declared_runs = STUDY.reproduction.experiment("main").replications(False)
    assert label(runs=declared_runs) == "full"


def _digests(*folders: Path) -> dict[str, str]:
    return {
        _relative(path): hashlib.sha256(path.read_bytes()).hexdigest()
        for folder in folders
        if folder.is_dir()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def _git_status(*paths_: str) -> str:
    return subprocess.run(
        ["git", "status", "--porcelain", "--", *paths_],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip


@pytest.mark.slow
def test_exploring_from_a_notebook_leaves_data_results_untouched(tmp_path):
    """The issue's papermill run (full mode, 1 run, queue_packets 20), through
    notebooks.execute as a user's papermill would."""
    watched = [
        paths.results_dir(),
        paths.figures_dir(),
    ]
    status, before = _git_status("data/results", "figures"), _digests(*watched)
    notebooks.execute(
        STUDY, quick=False, scheduler="serial", runs=1, params={"queue_packets": 20},
        output_dir=tmp_path,
    )  # fmt: skip
    assert _git_status("data/results", "figures") == status
    assert _digests(*watched) == before
    explored = Results(STUDY, quick=False, runs=1, params={"queue_packets": 20}).results_dir()
    provenance = json.loads((explored / "provenance.json").read_text())
    assert provenance["overrides"] == {"queue_packets": 20}
    assert provenance["runs_override"] == 1
    written = {Path(o["path"]).name for o in provenance["outputs"]}
    assert {"comparison.csv", "per_point.csv", "goodput_delay.png"} <= written
    assert (explored / "figures" / "goodput_delay.png").is_file()
