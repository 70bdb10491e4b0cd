"""One-off: provenance.json for full-mode results written before Results.write recorded it.

    .venv/bin/python scripts/derive_provenance.py [--study NAME ...]

`transportlab reproduce` writes ``data/results/<study>/provenance.json`` with every result
(:mod:`transportlab.engine.provenance`). The committed full-mode results predate it, and
writing them again needs their simulations (hours: the results cache is not committed).
This script writes the provenance that can be known without simulating, and names what
cannot:

* known: the study, the command that writes the files again (an output written by a study
  module of its own, e.g. ``studies/wired_best_effort/ns2_baseline.py``, names that
  module's command), each file's SHA-256, its
  runs (a table's ``n_runs`` column; a figure's "n = N runs" label, kept as text in its
  SVG) and the commit that last changed it (``commit`` per output: "committed in");
* as the code declares them at the commit this script runs at (``derived_by``): the
  full-mode parameters and the experiments with their runs and points (the committed
  results were written by ``transportlab reproduce`` in full mode, without overrides);
* unknown (listed in ``unknown``): the code fingerprint of the run step, the commit
  checked out when the files were written and whether its code had uncommitted changes,
  and the ns3 and transportlab versions of that run.

The next ``transportlab reproduce --study <study>`` replaces the file with a recorded one.
"""

from __future__ import annotations

import argparse
import importlib
import re
import subprocess
import sys
from pathlib import Path

from transportlab import studies
from transportlab.engine import paths, provenance
from transportlab.engine.files import write_text
from transportlab.engine.results import Results

UNKNOWN = ["code_fingerprint", "commit", "dirty", "ns3", "transportlab"]


def git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(paths.project_root()), *args],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip


def figure_runs(svg: Path) -> int | None:
    match = re.search(r"<!-- n = (\d+) runs? -->", svg.read_text(encoding="utf-8"))
    return int(match.group(1)) if match else None


def own_writer(study: str, stem: str) -> str | None:
    """The command of a study module that writes ``<stem>.csv``/``.png`` itself, run as a
    script, or None: a module named ``<stem>`` (e.g. ``studies/wired_best_effort/
    ns2_baseline.py``), one whose ``OUTPUTS`` names the stem (e.g. voip_cjm's
    ``ns2_baseline`` also writes ``ns2_network.csv``), or one whose name and ``_`` begin
    the stem (``ns2_baseline_counts.csv``: ``ns2_baseline.py``); its ``COMMAND_ARGS``, if
    any, are the options the committed files were written with."""
    folder = Path(studies.__file__).parent / study
    # Each runnable module imported once, by its name: both rules below look at the same ones.
    scripts = {
        path.stem: importlib.import_module(f"transportlab.studies.{study}.{path.stem}")
        for path in sorted(folder.glob("*.py"))
        if '__name__ == "__main__"' in path.read_text(encoding="utf-8")
    }

    def command(module) -> str:
        return " ".join(["python", "-m", module.__name__, *getattr(module, "COMMAND_ARGS", ())])

    for name, module in scripts.items():
        if stem == name or stem in getattr(module, "OUTPUTS", ()):
            return command(module)
    # The longest name first: ``ns2_baseline_counts`` belongs to ``ns2_baseline``, not ``ns2``.
    for name in sorted(scripts, key=lambda name: -len(name)):
        if stem.startswith(name + "_"):
            return command(scripts[name])
    return None


def parse_written_by(values: list[str]) -> dict[str, str]:
    """``STEM[,STEM...]=TEXT`` options -> {stem: text}."""
    written_by = {}
    for value in values:
        stems, sep, text = value.partition("=")
        if not sep or not stems or not text:
            raise SystemExit(f"--written-by needs STEM[,STEM...]=TEXT, got {value!r}")
        written_by.update(dict.fromkeys(stems.split(","), text))
    return written_by


def runs_columns(path: Path) -> int | dict | None:
    """Runs from ``n_runs`` or, failing that, every ``*_runs`` column (min-max)."""
    import pandas as pd  # noqa: PLC0415

    runs = provenance.n_runs_of_table(path)
    if runs is not None:
        return runs
    frame = pd.read_csv(path)
    values = pd.concat([frame[c] for c in frame.columns if c.endswith("_runs")] or [pd.Series()])
    values = pd.to_numeric(values, errors="coerce").dropna()
    if values.empty:
        return None
    low, high = int(values.min()), int(values.max())
    return low if low == high else {"min": low, "max": high}


def derive(
    name: str, head: str, written_by: dict[str, str] | None = None, note: str | None = None
) -> tuple[dict | None, list[str]]:
    """(provenance document of ``name``'s committed full-mode files, files left out).

    ``written_by`` (stem -> text) says per output what wrote it where that is not the
    plain ``transportlab reproduce`` of the code at this commit (a partial re-run, or a
    file kept from older code), ``note`` is added to the document's note."""
    study = studies.get(name)
    results_dir, figures_dir = paths.results_dir(name), paths.figures_dir(name)
    if not results_dir.is_dir() or not any(results_dir.glob("*.csv")):
        return None, []
    root = paths.project_root()
    reproduction = study.reproduction
    declared_tables = {"comparison"} if reproduction.comparison else set()
    declared_tables |= set(reproduction.tables)
    outputs, left_out = [], []
    for path in sorted(results_dir.iterdir()):
        if path.suffix == ".csv" and path.stem in declared_tables:
            kind = "comparison" if path.stem == "comparison" else "table"
            outputs.append(
                provenance.output_record(path, root, kind, provenance.n_runs_of_table(path))
            )
        elif path.name == "comparison-tolerance.json" and reproduction.comparison:
            outputs.append(provenance.output_record(path, root, "tolerance", None))
        elif path.name == "qualitative.csv" and reproduction.comparison:
            outputs.append(provenance.output_record(path, root, "qualitative", None))
        elif path.suffix == ".csv" and (command := own_writer(name, path.stem)):
            record = provenance.output_record(path, root, "table", runs_columns(path))
            outputs.append(record | {"command": command})
        elif path.name not in ("README.md", provenance.PROVENANCE_FILE):
            left_out.append(str(path.relative_to(root)))
    for path in sorted(figures_dir.glob("*")) if figures_dir.is_dir() else []:
        svg = path.with_suffix(".svg")
        runs = figure_runs(svg) if svg.is_file() else None
        if path.suffix in (".png", ".svg") and path.stem in reproduction.figures:
            outputs.append(provenance.output_record(path, root, "figure", runs))
        elif path.suffix in (".png", ".svg") and (command := own_writer(name, path.stem)):
            record = provenance.output_record(path, root, "figure", runs)
            outputs.append(record | {"command": command})
        else:
            left_out.append(str(path.relative_to(root)))
    for output in outputs:
        output["commit"] = git("log", "-1", "--format=%H", "--", output["path"]) or None
        stem = Path(output["path"]).stem
        if written_by and stem in written_by:
            output["written_by"] = written_by[stem]
    results = Results(study, quick=False, progress=False)
    document = {
        "format": provenance.FORMAT,
        "study": name,
        "title": study.title,
        "mode": "full",
        "command": provenance.command_for(name, quick=False),
        "parameters": results.params,
        "overrides": {},
        "runs_override": None,
        "seed": results.seed,
        "experiments": provenance.experiments_of(results),
        "code_fingerprint": None,
        "ns3": None,
        "transportlab": None,
        "commit": None,
        "dirty": None,
        "outputs": outputs,
        "unknown": UNKNOWN,
        "derived_by": f"scripts/derive_provenance.py at {head[:12]}",
        "note": (
            "Derived after the fact from the committed files: each output's commit is the one "
            "that last changed it; parameters and experiments are those the code declares at "
            f"{head[:12]} in full mode without overrides (how transportlab reproduce wrote them)."
            + (f" {note}" if note else "")
        ),
    }
    return document, left_out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--study", nargs="+", default=None, help="only these studies")
    parser.add_argument(
        "--force", action="store_true", help="replace a provenance.json that Results.write recorded"
    )
    parser.add_argument(
        "--written-by", action="append", default=[], metavar="STEM[,STEM...]=TEXT",
        help="what wrote these outputs, where not the plain reproduce of this commit (repeatable)",
    )  # fmt: skip
    parser.add_argument("--note", help="added to the document's note")
    args = parser.parse_args(argv)
    written_by = parse_written_by(args.written_by)
    head = git("rev-parse", "HEAD")
    for name in args.study or studies.names():
        existing = provenance.read_provenance(paths.results_dir(name))
        if existing and not existing.get("unknown") and not args.force:
            print(f"{name}: keeps its recorded provenance.json (--force replaces it)")
            continue
        document, left_out = derive(name, head, written_by, args.note)
        if document is None:
            print(f"{name}: no committed full-mode results")
            continue
        path = write_text(
            paths.results_dir(name) / provenance.PROVENANCE_FILE, provenance.dumps(document)
        )
        relative = path.relative_to(paths.project_root())
        print(f"{name}: {len(document['outputs'])} outputs -> {relative}")
        for item in left_out:
            print(f"   not declared by the study, left out: {item}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
