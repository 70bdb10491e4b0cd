"""The ``transportlab`` command.

::

    transportlab list [--study NAME ...]
    transportlab reproduce [--quick] [--study NAME ...] [--scheduler ADDRESS]
                           [--output DIR] [--runs N] [-p name=value ...]
    transportlab sweep --study NAME [--grid name=v1,v2 ...] [-p name=value ...]
                       [--runs N] [--seed S] [--quick] [--scheduler ADDRESS|serial|local]
                       [--workers N] [--output DIR] [--dry-run]

Every argument is checked (study names, parameter names, types and values)
before anything runs; problems exit with status 2 and a message naming them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from transportlab import __version__, paths
from transportlab.files import write_csv
from transportlab.params import Param, ParameterError
from transportlab.studies import Study, all_studies

SUMMARY_COLUMNS = [
    "study", "source", "protocol", "metric", "row", "unit", "published", "reproduced",
    "n_runs", "ratio", "verdict",
]  # fmt: skip


class UsageError(Exception):
    """Bad command-line input; reported before anything runs (exit status 2)."""


# --------------------------------------------------------------------------- values

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def parse_value(param: Param, text: str) -> Any:
    """Convert the command-line text of one value to the parameter's kind.

    bool: true/false, yes/no, on/off, 1/0. list: a JSON list, or comma-separated
    elements of the declared element kind. Raises ParameterError on bad text.
    """
    if param.kind is list:
        if text.strip().startswith("["):
            try:
                value = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ParameterError(f"{param.name}: {text!r} is not a JSON list ({exc})") from exc
            return value
        kind = param.element_kind or str
        return [_scalar(param.name, kind, item.strip()) for item in text.split(",") if item.strip()]
    return _scalar(param.name, param.kind, text)


def _scalar(name: str, kind: type, text: str) -> Any:
    try:
        if kind is bool:
            lowered = text.strip().lower()
            if lowered in _TRUE | _FALSE:
                return lowered in _TRUE
            raise ValueError
        if kind is int:
            return int(text)
        if kind is float:
            return float(text)
    except ValueError:
        raise ParameterError(f"{name}: expected {kind.__name__}, got {text!r}") from None
    return text


def _split_assignment(text: str, option: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise UsageError(f"{option} expects name=value, got {text!r}")
    return name.strip(), value


def parse_assignments(study: Study, assignments: Sequence[str]) -> tuple[dict[str, Any], list[str]]:
    """``-p name=value`` options of one study: (typed values, problems).

    Unknown names are kept as text so that validation reports them with a
    suggestion; values that cannot be converted are left out and reported.
    """
    values: dict[str, Any] = {}
    problems = []
    for text in assignments:
        name, raw = _split_assignment(text, "-p")
        param = study.parameters.params.get(name)
        try:
            values[name] = parse_value(param, raw) if param else raw
        except ParameterError as exc:
            problems.append(str(exc))
    return values, problems


def parse_grid(study: Study, axes: Sequence[str]) -> dict[str, list[Any]]:
    """``--grid name=v1,v2`` options as typed value lists (a JSON list for list parameters)."""
    grid: dict[str, list[Any]] = {}
    for text in axes:
        name, raw = _split_assignment(text, "--grid")
        param = study.parameters.params.get(name)
        if param is None:
            study.validate({name: None})  # raises with the "did you mean" hint
        if name in grid:
            raise UsageError(f"--grid {name} given twice")
        if param.kind is list:
            values = json.loads(raw) if raw.strip().startswith("[") else None
            if not isinstance(values, list) or not all(isinstance(v, list) for v in values):
                raise UsageError(f"--grid {name}: a list parameter takes a JSON list of lists")
        else:
            values = [parse_value(param, item.strip()) for item in raw.split(",")]
        grid[name] = values
    return grid


# --------------------------------------------------------------------------- studies


def select_studies(names: Sequence[str] | None) -> list[Study]:
    studies = all_studies()
    if not names:
        return list(studies.values())
    unknown = [n for n in names if n not in studies]
    if unknown:
        raise UsageError(
            f"unknown study {', '.join(map(repr, unknown))}; known studies: "
            f"{', '.join(studies) or '(none)'}"
        )
    return [studies[n] for n in dict.fromkeys(names)]


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return json.dumps(value) if isinstance(value, list) else str(value)


def describe_study(study: Study, width: int = 100) -> str:
    """The text `transportlab list` prints for one study."""
    lines = [f"{study.name} — {study.title}"]
    lines.append(f"  notebook: notebooks/{study.notebook}")
    if study.seed_files:
        lines.append(f"  seeds: {', '.join(study.seed_files)}")
    table = study.parameters.describe()
    if table.empty:
        lines.append("  (no parameters)")
        return "\n".join(lines)
    rows = []
    for _, p in table.iterrows():
        unit = f" {p['unit']}" if p["unit"] else ""
        quick = (
            ""
            if _format_value(p["quick"]) == _format_value(p["default"])
            else (f"  quick: {_format_value(p['quick'])}")
        )
        allowed = f"  allowed: {p['allowed']}" if p["allowed"] else ""
        rows.append(
            (
                p["name"],
                p["type"],
                f"{_format_value(p['default'])}{unit}{quick}{allowed}",
                p["help"],
            )
        )
    name_w = max(len(r[0]) for r in rows)
    type_w = max(len(r[1]) for r in rows)
    for name, kind, values, help_text in rows:
        head = f"  {name:<{name_w}}  {kind:<{type_w}}  "
        lines.append(head + f"default: {values}")
        indent = " " * len(head)
        lines += textwrap.wrap(
            help_text, width=width, initial_indent=indent, subsequent_indent=indent
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------- summary


def collect_summary(quick: bool) -> pd.DataFrame:
    """Every registered study's ``comparison.csv`` (quick or full mode) in one table."""
    frames = []
    for name in all_studies():
        path = paths.results_dir(name, quick) / "comparison.csv"
        if path.is_file():
            frame = pd.read_csv(path, keep_default_na=False, na_values=[""])
            if "study" not in frame:
                frame.insert(0, "study", name)
            frames.append(frame)
    if not frames:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    return pd.concat(frames, ignore_index=True)


def write_summary(summary: pd.DataFrame, quick: bool) -> Path:
    return write_csv(summary, paths.results_dir(quick=quick) / "summary.csv")


def _format_number(value: object) -> str:
    """A number to four significant digits; a published value as printed ("~7", ">3")."""
    if isinstance(value, str):
        return value
    if pd.isna(value):
        return ""
    return f"{value:.4g}"


def format_summary(summary: pd.DataFrame) -> str:
    if summary.empty:
        return "no comparison rows"
    shown = summary[[c for c in SUMMARY_COLUMNS if c in summary.columns]].copy()
    for column in ("published", "reproduced", "ratio"):
        if column in shown:
            shown[column] = shown[column].map(_format_number)
    counts = summary.groupby("study")["verdict"].value_counts().unstack(fill_value=0)
    return shown.to_string(index=False) + "\n\n" + counts.to_string()


# --------------------------------------------------------------------------- commands


def cmd_list(args: argparse.Namespace) -> int:
    studies = select_studies(args.study)
    if not studies:
        print("no studies found")
        return 0
    print("\n\n".join(describe_study(s) for s in studies))
    return 0


def _validated_overrides(
    studies: Sequence[Study], assignments: Sequence[str], quick: bool
) -> dict[str, dict[str, Any]]:
    overrides, messages = {}, []
    for study in studies:
        values, problems = parse_assignments(study, assignments)
        try:
            study.validate(values, quick=quick)
        except ParameterError as exc:
            problems += [line.strip()[2:] for line in str(exc).splitlines()[1:]]
        if problems:
            messages.append(f"{study.name}: invalid parameters:\n  - " + "\n  - ".join(problems))
        overrides[study.name] = values
    if messages:
        raise UsageError("\n".join(messages))
    return overrides


def cmd_reproduce(args: argparse.Namespace) -> int:
    from transportlab import notebooks  # noqa: PLC0415
    from transportlab import sweep as sweeps  # noqa: PLC0415

    studies = select_studies(args.study)
    if not studies:
        raise UsageError("no studies to reproduce")
    overrides = _validated_overrides(studies, args.param, args.quick)
    for study in studies:
        notebooks.notebook_path(study)  # every notebook exists before the first one runs
    kernel = notebooks.ensure_kernel()

    failures = []
    with contextlib.ExitStack() as stack:
        scheduler = args.scheduler
        if scheduler is None and not args.quick and len(studies) > 0:
            # One local cluster for all notebooks: its workers keep ns-3 imported.
            client = stack.enter_context(sweeps.local_cluster(args.workers))
            scheduler = client.scheduler.address
            print(
                f"local Dask cluster: {scheduler} ({len(client.scheduler_info()['workers'])} "
                "workers)"
            )
        for study in studies:
            print(
                f"== {study.name}: notebooks/{study.notebook} ({'quick' if args.quick else 'full'}"
                " mode)",
                flush=True,
            )
            # A failed run must not leave the previous comparison in the summary.
            stale = paths.results_dir(study.name, args.quick) / "comparison.csv"
            stale.unlink(missing_ok=True)
            try:
                out = notebooks.execute(
                    study,
                    quick=args.quick,
                    scheduler=scheduler,
                    params=overrides[study.name],
                    runs=args.runs,
                    output_dir=args.output,
                    kernel_name=kernel,
                )
                print(f"   executed: {out}")
            except notebooks.NotebookError as exc:
                failures.append(study.name)
                print(f"   FAILED: {exc}\n   see {exc.notebook}", file=sys.stderr)
    summary = collect_summary(args.quick)
    path = write_summary(summary, args.quick)
    print(f"\n== summary of all comparison rows ({path})")
    print(format_summary(summary))
    if failures:
        print(f"\nfailed: {', '.join(failures)}", file=sys.stderr)
        return 1
    return 0


def cmd_sweep(args: argparse.Namespace) -> int:
    from transportlab import sweep as sweeps  # noqa: PLC0415

    (study,) = select_studies([args.study])
    fixed = _validated_overrides([study], args.param, args.quick)[study.name]
    try:
        axes = parse_grid(study, args.grid)
    except ParameterError as exc:
        raise UsageError(str(exc)) from exc
    points = [dict(fixed, **point) for point in sweeps.grid(**axes)] if axes else [fixed]
    try:
        tasks = sweeps.plan(study, points, runs=args.runs, seed=args.seed, quick=args.quick)
    except (ParameterError, ValueError) as exc:
        raise UsageError(str(exc)) from exc
    cached = sweeps.cached_count(tasks)
    print(
        f"{study.name}: {len(points)} points x {args.runs} runs = {len(tasks)} simulations, "
        f"{cached} cached, {len(tasks) - cached} to run"
    )
    if args.dry_run:
        return 0
    tables = sweeps.run(
        study,
        points,
        runs=args.runs,
        seed=args.seed,
        quick=args.quick,
        scheduler=args.scheduler,
        n_workers=args.workers,
    )
    output = (
        Path(args.output)
        if args.output
        else (paths.project_root() / "output" / "sweeps" / study.name)
    )
    for name, frame in tables.items():
        write_csv(frame, output / f"{name}.csv")
        print(f"  {name}: {len(frame)} rows -> {output / f'{name}.csv'}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="transportlab",
        description="Reproducible SCTP/TCP/UDP studies with ns-3.",
    )
    parser.add_argument("--version", action="version", version=f"transportlab {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    listing = commands.add_parser("list", help="studies and their parameters")
    listing.add_argument("--study", nargs="+", metavar="NAME", help="only these studies")
    listing.set_defaults(handler=cmd_list)

    param_help = "study parameter, e.g. -p duration=50 (repeatable; `transportlab list` shows them)"
    reproduce = commands.add_parser(
        "reproduce", help="run the study notebooks (papermill), write figures and a summary"
    )
    reproduce.add_argument(
        "--quick", action="store_true", help="quick mode: short runs, few replications (minutes)"
    )
    reproduce.add_argument("--study", nargs="+", metavar="NAME", help="only these studies")
    reproduce.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="Dask scheduler address (default: in-process when --quick, else a local cluster)",
    )
    reproduce.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="worker processes of the local cluster (default: one per core)",
    )
    reproduce.add_argument(
        "--output",
        metavar="DIR",
        help="folder for the executed notebooks (default: output[/quick])",
    )
    reproduce.add_argument(
        "--runs",
        type=int,
        metavar="N",
        help="replications per point (default: each notebook's own)",
    )
    reproduce.add_argument(
        "-p", "--param", action="append", default=[], metavar="NAME=VALUE", help=param_help
    )
    reproduce.set_defaults(handler=cmd_reproduce)

    sweep = commands.add_parser("sweep", help="run one study over a grid of points x runs")
    sweep.add_argument("--study", required=True, metavar="NAME")
    sweep.add_argument(
        "--grid",
        action="append",
        default=[],
        metavar="NAME=V1,V2",
        help="a grid axis (repeatable; the points are their product)",
    )
    sweep.add_argument(
        "-p", "--param", action="append", default=[], metavar="NAME=VALUE", help=param_help
    )
    sweep.add_argument(
        "--runs",
        type=int,
        default=1,
        metavar="N",
        help="replications per point: ns-3 RngRun 1..N (default 1)",
    )
    sweep.add_argument("--seed", type=int, default=1, help="ns-3 RngSeed (default 1)")
    sweep.add_argument("--quick", action="store_true", help="quick-mode parameter defaults")
    sweep.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="serial, local, or a Dask scheduler address "
        "(default: serial with --quick, else local)",
    )
    sweep.add_argument("--workers", type=int, metavar="N", help="local cluster size")
    sweep.add_argument(
        "--output",
        metavar="DIR",
        help="folder for one CSV per table (default: output/sweeps/<study>)",
    )
    sweep.add_argument(
        "--dry-run", action="store_true", help="only count the simulations to run and those cached"
    )
    sweep.set_defaults(handler=cmd_sweep)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    for option in ("runs", "workers"):
        value = getattr(args, option, None)
        if value is not None and value < 1:
            parser.error(f"--{option} must be >= 1")
    try:
        return args.handler(args)
    except UsageError as exc:
        parser.exit(2, f"transportlab {args.command}: error: {exc}\n")
    except ParameterError as exc:
        parser.exit(2, f"transportlab {args.command}: error: {exc}\n")
    except KeyboardInterrupt:
        print("\ninterrupted; finished simulations are cached", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
