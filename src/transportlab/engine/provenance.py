"""Provenance of a study's written results: one ``provenance.json`` beside them.

:meth:`transportlab.engine.results.Results.write` calls :func:`write_provenance` once,
after every result file is written. It records, for the study folder
``data/results[/quick]/<study>/``, what a reader needs to trust and regenerate each
file: the study, its parameters, the experiments with their runs and points, the
code fingerprint of the run step (the code part of the cache key), the commit, the
exact ``transportlab`` command that writes the same files again, and for every
output its path, kind, number of runs behind it and SHA-256. The book
(``make book``) shows it beside every figure and table; the SHA-256 tells it
whether a file was changed after its provenance was written.

The format (``"format": "transportlab-provenance/1"``, keys sorted, no time stamp,
so the same results give the same bytes)::

    {
      "format": "transportlab-provenance/1",
      "study": "wired_best_effort", "title": "...", "mode": "full",
      "command": "transportlab reproduce --study wired_best_effort",
      "parameters": {...},          # the validated base parameters of every experiment
      "overrides": {...},           # what the user changed (-p / a notebook's params)
      "runs_override": null, "seed": 1,
      "experiments": [{"name": "main", "description": "...", "runs": 10, "points": 4,
                       "simulations": 40, "deterministic": false, "available": true}],
      "code_fingerprint": "<sha256>", "ns3": "3.44.post0", "transportlab": "0.1.0",
      "commit": "<git sha or null>", "dirty": false,   # uncommitted code changes
      "outputs": [{"path": "figures/wired_best_effort/x.png", "kind": "figure",
                   "name": "x", "n_runs": 10, "sha256": "<sha256>"}, ...],
      "unknown": [], "note": ""
    }

An output may carry its own ``command`` (and ``commit``) where they differ from the
study's (a file written by another writer; provenance derived after the fact: the commit
that last changed the file). ``n_runs`` is an int, ``{"min": a, "max": b}`` when a
table's rows stand on different numbers of runs, or null when the file does not say (see
``experiments``). ``unknown`` lists fields that were not recorded (only in
provenance derived after the fact, e.g. by ``scripts/derive_provenance.py``).
Paths are relative to the project root, with ``/``.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import math
import shlex
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from transportlab.engine import paths
from transportlab.engine.files import write_text
from transportlab.engine.fingerprint import code_fingerprint

# ``results`` below is an engine.results.Results, which imports this module (Results.write
# ends with write_provenance): the type is not imported, to keep the layers acyclic.
Results = Any

__all__ = [
    "FORMAT",
    "PROVENANCE_FILE",
    "command_for",
    "experiments_of",
    "git_state",
    "n_runs_of_table",
    "output_record",
    "read_provenance",
    "record_output",
    "sha256_of",
    "write_provenance",
]

FORMAT = "transportlab-provenance/1"
PROVENANCE_FILE = "provenance.json"

# Paths whose changes are results, not code: a run that rewrites them is not "dirty".
_RESULT_PATHS = (":(exclude)data", ":(exclude)figures", ":(exclude)notebooks/*.ipynb")


def sha256_of(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, set | frozenset):
        return sorted(_jsonable(v) for v in value)
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)  # JSON has no inf/nan
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _command_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return json.dumps(_jsonable(value))
    return str(value)


def command_for(
    study: str,
    quick: bool,
    overrides: Mapping[str, Any] | None = None,
    runs: int | None = None,
) -> str:
    """The ``transportlab reproduce`` command that writes a study's files again."""
    words = ["transportlab", "reproduce", "--study", study]
    if quick:
        words.append("--quick")
    if runs is not None:
        words += ["--runs", str(runs)]
    for name, value in sorted((overrides or {}).items()):
        words += ["-p", f"{name}={_command_value(value)}"]
    return shlex.join(words)


def git_state(root: str | Path) -> tuple[str | None, bool | None]:
    """(commit checked out in ``root``, whether tracked code has uncommitted changes).

    Changes to result files (``data/``, ``figures/``, executed notebooks) do not count:
    writing results changes them. ``(None, None)`` outside a git checkout or without git.
    """
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True, text=True, check=True, timeout=30,
        ).stdout.strip()  # fmt: skip
        status = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no",
             "--", ".", *_RESULT_PATHS],
            capture_output=True, text=True, check=True, timeout=30,
        ).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None, None
    return commit or None, bool(status.strip())


def n_runs_of_table(path: str | Path) -> int | dict[str, int] | None:
    """The runs behind a CSV table, from its ``n_runs`` column (None if it has none)."""

    try:
        column = pd.read_csv(path, usecols=["n_runs"])["n_runs"]
    except (ValueError, pd.errors.EmptyDataError):
        return None
    values = pd.to_numeric(column, errors="coerce").dropna()
    if values.empty:
        return None
    low, high = int(values.min()), int(values.max())
    return low if low == high else {"min": low, "max": high}


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.resolve().as_posix()


def output_record(path: Path, root: Path, kind: str, n_runs: Any) -> dict[str, Any]:
    """One entry of ``outputs``: path (relative to ``root``), kind, name, runs, SHA-256."""
    return {
        "path": _relative(path, root),
        "kind": kind,
        "name": path.stem,
        "n_runs": n_runs,
        "sha256": sha256_of(path),
    }


def _outputs(results: Results, written: Iterable[Path], root: Path) -> list[dict[str, Any]]:
    figure_runs = getattr(results, "figure_runs", {})
    outputs = []
    for path in map(Path, written):
        if path.suffix == ".png":
            runs = figure_runs.get(path.stem)
            outputs += [
                output_record(p, root, "figure", runs)
                for p in (path, path.with_suffix(".svg"))
                if p.is_file()
            ]
        elif path.name == "comparison.csv":
            outputs.append(output_record(path, root, "comparison", n_runs_of_table(path)))
            tolerance = path.with_name("comparison-tolerance.json")
            if tolerance.is_file():
                outputs.append(output_record(tolerance, root, "tolerance", None))
        elif path.name == "qualitative.csv":
            outputs.append(output_record(path, root, "qualitative", None))
        else:
            outputs.append(output_record(path, root, "table", n_runs_of_table(path)))
    return sorted(outputs, key=lambda o: o["path"])


def experiments_of(results: Results) -> list[dict[str, Any]]:
    """Each experiment of ``results``: runs, points and simulations in its mode."""
    described = []
    for experiment in results.experiments:
        available = experiment.is_available()
        run = results.available(experiment.name)  # in this build and selected
        points = len(results.points(experiment.name)) if run else None
        runs = results.runs(experiment.name)
        record = {
            "name": experiment.name,
            "description": experiment.description,
            "runs": runs,
            "points": points,
            "simulations": points * runs if points is not None else None,
            "deterministic": experiment.deterministic,
            "available": available,
        }
        if results.selected is not None:  # `reproduce --experiment`: which ones ran
            record["selected"] = experiment.name in results.selected
        described.append(record)
    return described


def package_version() -> str:
    """transportlab's installed version (``pyproject.toml``)."""
    return importlib.metadata.version("transportlab")


def provenance_of(results: Results, written: Iterable[Path]) -> dict[str, Any]:
    """The provenance document of ``results`` after ``results.write()`` wrote ``written``."""

    root = paths.project_root()
    study = results.study
    commit, dirty = git_state(root)
    note = ""
    if results.seed != 1:
        note = f"ns-3 RngSeed {results.seed}: `transportlab reproduce` always uses seed 1"
    return {
        "format": FORMAT,
        "study": study.name,
        "title": study.title,
        "mode": "quick" if results.quick else "full",
        "command": command_for(study.name, results.quick, results.overrides, results.runs_override),
        "parameters": _jsonable(results.params),
        "overrides": _jsonable(results.overrides),
        "runs_override": results.runs_override,
        "seed": results.seed,
        "experiments": experiments_of(results),
        "code_fingerprint": code_fingerprint(study.run, runtime=study.runtime),
        "ns3": study.runtime.versions().get("ns3"),
        "transportlab": package_version(),
        "commit": commit,
        "dirty": dirty,
        "outputs": _outputs(results, written, root),
        "unknown": [],
        "note": note,
    }


def dumps(document: Mapping[str, Any]) -> str:
    return json.dumps(_jsonable(document), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def write_provenance(results: Results, written: Iterable[Path], keep: bool = False) -> Path:
    """Write ``provenance.json`` into the study's results folder (atomically). With
    ``keep``, the outputs an earlier provenance.json there lists (and that still exist)
    stay listed: a figure saved on its own (the Explorer's) does not drop the tables
    ``results.write()`` wrote into the same folder (same parameters, same folder)."""
    document = provenance_of(results, written)
    folder = results.results_dir()
    previous = read_provenance(folder) if keep else None
    if previous:
        root = paths.project_root()
        new = {output["path"] for output in document["outputs"]}
        kept = [
            output
            for output in previous.get("outputs", [])
            if output["path"] not in new and (root / output["path"]).is_file()
        ]
        document["outputs"] = sorted(kept + document["outputs"], key=lambda o: o["path"])
    return write_text(folder / PROVENANCE_FILE, dumps(document))


#: how ``written_by`` begins for a file that a change of its study's code left as it was
NOT_RERUN = "not re-run"


def tables_not_rerun(folder: str | Path) -> list[str]:
    """The result tables of a results folder that its ``provenance.json`` says were not
    re-run after the code that wrote them changed (``written_by`` beginning
    :data:`NOT_RERUN`), sorted; none without a provenance file."""
    document = read_provenance(folder) or {}
    return sorted(
        output["name"]
        for output in document.get("outputs", [])
        if output.get("kind") == "table" and str(output.get("written_by", "")).startswith(NOT_RERUN)
    )


def record_output(path: str | Path, command: str, kind: str = "table") -> Path | None:
    """List ``path``, written by ``command`` (a study module of its own, e.g. a
    ``python -m ...`` line), in the ``provenance.json`` of its folder, replacing an
    earlier entry of the same path (atomically): kind, runs (a table's ``n_runs``),
    SHA-256, the command, and the commit checked out and whether its code had uncommitted
    changes when it was written. Return the provenance file, or None when the folder has
    none (the next ``transportlab reproduce`` or ``scripts/derive_provenance.py`` writes
    one that lists the file)."""
    path = Path(path)
    document = read_provenance(path.parent)
    if document is None:
        return None
    root = paths.project_root()
    runs = n_runs_of_table(path) if kind == "table" else None
    commit, dirty = git_state(root)
    record = output_record(path, root, kind, runs) | {
        "command": command, "commit": commit, "dirty": dirty,
    }  # fmt: skip
    kept = [o for o in document.get("outputs", []) if o["path"] != record["path"]]
    document["outputs"] = sorted([*kept, record], key=lambda o: o["path"])
    return write_text(path.parent / PROVENANCE_FILE, dumps(document))


def read_provenance(folder: str | Path) -> dict[str, Any] | None:
    """The provenance document of a results folder, or None if it has none."""
    path = Path(folder) / PROVENANCE_FILE
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))
