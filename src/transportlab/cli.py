"""The ``transportlab`` command.

::

    transportlab list [--study NAME ...]
    transportlab reproduce [--quick] [--study NAME ...] [--scheduler ADDRESS] [--workers N]
                           [--runs N] [--experiment NAME ...] [-p name=value ...]
                           [--force] [--dry-run] [--notebook [--output DIR]]
    transportlab sweep --study NAME [--grid name=v1,v2 ...] [-p name=value ...]
                       [--runs N] [--seed S] [--quick] [--scheduler ADDRESS|serial|local]
                       [--workers N] [--output DIR] [--overwrite] [--force] [--dry-run]

Every argument is checked (study names, parameter names, types and values, output
folders, the scheduler) before anything runs; problems exit with status 2 and a
one-line message naming them, and no result file is touched.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import re
import sys
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from transportlab import __version__, notebooks, studies
from transportlab.engine import execute, paths
from transportlab.engine.cache import cached_count
from transportlab.engine.files import OutputError, check_writable_folder, write_csv, write_text
from transportlab.engine.params import Param, ParameterError
from transportlab.engine.plan import grid, plan, simulation_count
from transportlab.engine.results import ExperimentUnavailableError, Results
from transportlab.engine.study import Study
from transportlab.summary import collect_summary, format_brief, write_summary

__all__ = ["main"]


class UsageError(Exception):
    """Bad command-line input; reported before anything runs (exit status 2)."""


# --------------------------------------------------------------------------- values

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def parse_value(param: Param, text: str) -> Any:
    """Convert the command-line text of one value to the parameter's kind.

    bool: true/false, yes/no, on/off, 1/0. list: a JSON list, or comma-separated
    elements of the declared element kind; a lone value without a comma (``-p
    ftp_starts=5``) is refused: it reads like a count or a scalar setting, but would
    mean a list of one element. Raises ParameterError on bad text.
    """
    if param.kind is list:
        if text.strip() and "," not in text and not text.strip().startswith("["):
            value = text.strip()
            example = ",".join(_format_value(v) for v in param.default) or "a,b"
            unit = f", in {param.unit}" if param.unit else ""
            raise ParameterError(
                f"{param.name}: {value!r} is one value, but {param.name} is a list "
                f"({param.help}{unit}); give every element, comma-separated (default "
                f"{param.name}={example}), or a list of one element as {param.name}=[{value}]"
            )
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
    axes_values: dict[str, list[Any]] = {}
    for text in axes:
        name, raw = _split_assignment(text, "--grid")
        param = study.parameters.params.get(name)
        if param is None:
            study.parameters.validate({name: None})  # raises with the "did you mean" hint
        if name in axes_values:
            raise UsageError(f"--grid {name} given twice")
        if param.kind is list:
            values = json.loads(raw) if raw.strip().startswith("[") else None
            if not isinstance(values, list) or not all(isinstance(v, list) for v in values):
                raise UsageError(f"--grid {name}: a list parameter takes a JSON list of lists")
        else:
            values = [parse_value(param, item.strip()) for item in raw.split(",")]
        axes_values[name] = values
    return axes_values


# --------------------------------------------------------------------------- studies


def select_studies(names: Sequence[str] | None) -> list[Study]:
    """The studies named on the command line (every study if none): the registry lookups."""
    if not names:
        return list(studies.all_studies().values())
    found, unknown = [], []
    for name in dict.fromkeys(names):
        try:
            found.append(studies.get(name))
        except KeyError:
            unknown.append(name)
    if unknown:
        raise UsageError(
            f"unknown study {', '.join(map(repr, unknown))}; known studies: "
            f"{', '.join(studies.names()) or '(none)'}"
        )
    return found


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
    if study.reproduction.experiments:
        described = ", ".join(
            f"{e.name} ({e.replications(False)} runs, quick {e.replications(True)})"
            for e in study.reproduction.experiments
        )
        lines += textwrap.wrap(
            f"experiments: {described}", width=width, initial_indent="  ",
            subsequent_indent="    ",
        )  # fmt: skip
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


# --------------------------------------------------------------------------- commands


def cmd_list(args: argparse.Namespace) -> int:
    selected = select_studies(args.study)
    if not selected:
        print("no studies found")
        return 0
    print("\n\n".join(describe_study(s) for s in selected))
    return 0


def _parsed_overrides(
    selected: Sequence[Study], assignments: Sequence[str]
) -> tuple[dict[str, dict[str, Any]], dict[str, list[str]]]:
    """``-p`` values typed for each study, and the values that could not be converted."""
    overrides, problems = {}, {}
    for study in selected:
        overrides[study.name], problems[study.name] = parse_assignments(study, assignments)
    return overrides, problems


def _invalid(study: Study, problems: Sequence[str], exc: ParameterError | None) -> str:
    """One study's parameter problems as the message ``transportlab`` prints."""
    if exc is not None:
        problems = [*problems, *(line.strip()[2:] for line in str(exc).splitlines()[1:])]
    return f"{study.name}: invalid parameters:\n  - " + "\n  - ".join(problems)


def _study_plan(results: Results) -> tuple[int, int]:
    """(simulations, of which cached) of every available experiment of ``results``."""
    total = cached = 0
    for tasks in results.plan().values():
        total += simulation_count(tasks)
        cached += 0 if results.force else cached_count(tasks)
    return total, cached


def _duration(seconds: float) -> str:
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m{secs:02d}s" if hours else f"{minutes}m{secs:02d}s"


def _results(
    selected: Sequence[Study], args: argparse.Namespace
) -> tuple[dict[str, Results], dict[str, dict[str, Any]]]:
    """A :class:`Results` per study: the ``-p`` overrides validated (once) and every
    experiment planned (once, the plan the run and ``--dry-run`` use), or a UsageError
    naming every problem of every study."""
    overrides, problems = _parsed_overrides(selected, args.param)
    made, messages = {}, []
    for study in selected:
        try:
            made[study.name] = Results(
                study, quick=args.quick, params=overrides[study.name], runs=args.runs,
                experiments=args.experiment, force=args.force, publish=True,
            )  # fmt: skip
        except ParameterError as exc:
            messages.append(_invalid(study, problems[study.name], exc))
            continue
        except ValueError as exc:
            named = str(exc).startswith(f"{study.name}:")
            raise UsageError(str(exc) if named else f"{study.name}: {exc}") from None
        if problems[study.name]:
            messages.append(_invalid(study, problems[study.name], None))
    if messages:
        raise UsageError("\n".join(messages))
    return made, overrides


def cmd_reproduce(args: argparse.Namespace) -> int:
    selected = select_studies(args.study)
    if not selected:
        raise UsageError("no studies to reproduce")
    if args.output and not args.notebook:
        raise UsageError("--output is the folder of executed notebooks: use it with --notebook")
    if args.experiment is not None and len(selected) != 1:
        raise UsageError("--experiment names experiments of one study: give it one --study")
    if args.experiment is not None and args.notebook:
        raise UsageError("--experiment runs part of a study; a notebook runs all of it: "
                         "leave out --notebook")  # fmt: skip
    made, overrides = _results(selected, args)
    try:
        scheduler = execute.check_scheduler(args.scheduler)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    # Check every output before the first simulation.
    for results in made.values():
        check_writable_folder(results.results_dir(), "results folder")
        check_writable_folder(results.figures_dir(), "figures folder")
    kernel = None
    if args.notebook:
        for study in selected:
            notebooks.notebook_path(study)
            check_writable_folder(
                notebooks.output_path(study, args.quick, args.output).parent, "notebook folder"
            )
        kernel = notebooks.ensure_kernel()
    plans = {name: (results, *_study_plan(results)) for name, results in made.items()}
    total = sum(p[1] for p in plans.values())
    to_run = sum(p[1] - p[2] for p in plans.values())
    mode = "quick" if args.quick else "full"
    print(f"reproduce ({mode} mode): {len(selected)} studies, {total} simulations, "
          f"{total - to_run} cached, {to_run} to run", flush=True)  # fmt: skip
    if args.dry_run:
        for name, (_, n, cached) in plans.items():
            print(f"  {name}: {n} simulations, {cached} cached, {n - cached} to run")
        return 0

    failures = []
    started, done = time.monotonic(), 0
    with contextlib.ExitStack() as stack:
        if scheduler is None and not args.quick and to_run:
            # One local cluster for all studies: its workers keep ns-3 imported.
            client = stack.enter_context(execute.local_cluster(args.workers, for_studies=selected))
            scheduler = client.scheduler.address
            print(f"local Dask cluster: {scheduler} "
                  f"({len(client.scheduler_info()['workers'])} workers)")  # fmt: skip
        for index, study in enumerate(selected, 1):
            results, n, cached = plans[study.name]
            results.scheduler = scheduler
            elapsed = time.monotonic() - started
            eta = (
                f", about {_duration(elapsed / done * (to_run - done))} left"
                if done and to_run > done
                else ""
            )
            print(f"== [{index}/{len(selected)}] {study.name}: {n} simulations, {cached} cached, "
                  f"{n - cached} to run{eta}", flush=True)  # fmt: skip
            try:
                if args.notebook:
                    out = notebooks.execute(
                        study, quick=args.quick, scheduler=scheduler,
                        params=overrides[study.name], runs=args.runs, output_dir=args.output,
                        kernel_name=kernel, publish=True,
                    )  # fmt: skip
                    print(f"   notebook: {out}")
                else:
                    for path in results.write():
                        print(f"   wrote {_relative(path)}")
                if not results.declared_mode():
                    print(f"   other parameters or runs than the study's declared {mode} mode: "
                          f"written to {_relative(results.results_dir())}, data/results "
                          "untouched")  # fmt: skip
            except ExperimentUnavailableError as exc:
                print(f"   skipped: {exc}", flush=True)
            except Exception as exc:  # noqa: BLE001 - report, keep the other studies going
                failures.append(study.name)
                where = f"; see {exc.notebook}" if hasattr(exc, "notebook") else ""
                message = (
                    str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                )
                print(f"   FAILED: {message}{where} (the previous results are kept)",
                      file=sys.stderr)  # fmt: skip
            done += n - cached
    took = _duration(time.monotonic() - started)
    if any(results.declared_mode() for results in made.values()):
        summary = collect_summary(args.quick)
        write_summary(summary, args.quick)
        print(f"\n== summary ({took})")
        print(format_brief(summary, args.quick))
    else:
        print(f"\n== done ({took}); data/results and its summary untouched (other "
              "parameters or runs than the declared mode)")  # fmt: skip
    if failures:
        print(f"\nfailed: {', '.join(failures)}", file=sys.stderr)
        return 1
    return 0


def _relative(path: Path) -> str:
    with contextlib.suppress(ValueError, FileNotFoundError):
        return str(Path(path).resolve().relative_to(paths.project_root()))
    return str(path)


SWEEP_MANIFEST = "sweep.json"
SWEEP_POINTS = "points.csv"


def _claim_output(output: Path, manifest: dict[str, Any], overwrite: bool) -> None:
    """Make ``output`` this sweep's folder; refuse another sweep's folder unless ``overwrite``."""
    check_writable_folder(output, "sweep output folder")
    existing = output / SWEEP_MANIFEST
    if existing.is_file():
        try:
            previous = json.loads(existing.read_text())
        except (OSError, json.JSONDecodeError):
            previous = None
        if previous != manifest and not overwrite:
            raise UsageError(
                f"{output} holds the results of another sweep ({SWEEP_MANIFEST} differs); "
                "choose another --output or pass --overwrite"
            )
    elif any(output.iterdir()) and not overwrite:
        raise UsageError(
            f"{output} is not empty and holds no {SWEEP_MANIFEST}; choose another --output "
            "or pass --overwrite"
        )


def cmd_sweep(args: argparse.Namespace) -> int:
    (study,) = select_studies([args.study])
    fixed, problems = parse_assignments(study, args.param)
    try:
        # The -p values, checked once: the grid's points complete them.
        base = study.parameters.validate(fixed, quick=args.quick)
    except ParameterError as exc:
        raise UsageError(_invalid(study, problems, exc)) from None
    if problems:
        raise UsageError(_invalid(study, problems, None))
    try:
        axes = parse_grid(study, args.grid)
    except ParameterError as exc:
        raise UsageError(str(exc)) from exc
    both = sorted(set(fixed) & set(axes))
    if both:
        raise UsageError(f"{', '.join(both)} given both with -p and with --grid: choose one")
    grid_points = grid(**axes) if axes else [{}]
    points = [dict(fixed, **point) for point in grid_points]
    try:
        tasks = plan(
            study, grid_points, runs=args.runs, seed=args.seed, quick=args.quick, base=base
        )
    except (ParameterError, ValueError) as exc:
        raise UsageError(str(exc)) from exc
    try:
        scheduler = execute.check_scheduler(args.scheduler)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    output = (
        Path(args.output)
        if args.output
        else (paths.project_root() / "output" / "sweeps" / study.name)
    )
    manifest = {
        "study": study.name,
        "points": json.loads(json.dumps(points)),
        "runs": args.runs,
        "seed": args.seed,
        "quick": args.quick,
    }
    if not args.dry_run:
        _claim_output(output, manifest, args.overwrite)
    cached = 0 if args.force else cached_count(tasks)
    count = simulation_count(tasks)
    print(
        f"{study.name}: {len(points)} points x {args.runs} runs = {count} simulations, "
        f"{cached} cached, {count - cached} to run"
    )
    if args.dry_run:
        return 0
    tables = execute.run_tasks(
        study,
        tasks,
        scheduler=execute.default_scheduler(scheduler, args.quick),
        n_workers=args.workers,
        force=args.force,
    )
    write_text(output / SWEEP_MANIFEST, json.dumps(manifest, indent=2) + "\n")
    points_table, tables = execute.parameters_apart(study, tasks, tables, [*fixed, *axes])
    write_csv(points_table, output / SWEEP_POINTS)
    print(f"  points: {len(points_table)} rows, every parameter -> {output / SWEEP_POINTS}")
    for name, frame in tables.items():
        write_csv(frame, output / f"{name}.csv")
        print(f"  {name}: {len(frame)} rows -> {output / f'{name}.csv'}")
    return 0


SWEEP_EPILOG = """\
Each point of the grid (the product of the --grid axes, with the -p values and the
defaults for every other parameter) runs --runs times (ns-3 RngRun 1..N). Finished
simulations are cached, so an interrupted sweep resumes where it stopped. The result
is one CSV per table of the study in --output, beside a sweep.json describing the
sweep and a points.csv with every parameter of each point (the tables keep point, the
parameters set here, seed and run); another sweep never silently overwrites that folder.

examples:
  transportlab sweep --study bottleneck_example --grid protocol=udp,tcp \\
      --grid error_rate=0,0.01,0.05 --runs 5
  transportlab sweep --study bottleneck_example -p protocol=tcp --grid queue_packets=10,50,100 \\
      --scheduler tcp://scheduler-host:8786 --output output/sweeps/queue
  transportlab sweep --study wired_best_effort --quick --grid protocol=tcp,sctp --dry-run
"""

REPRODUCE_EPILOG = """\
Without --notebook the comparison (data/results[/quick]/<study>/comparison.csv), the
study's result tables and figures (figures[/quick]/<study>/) are computed straight from
the package; with --notebook the study notebooks run with papermill and write the same
files through the same functions. Finished simulations are cached (data/cache).

examples:
  transportlab reproduce --quick
  transportlab reproduce --study bottleneck_example wired_best_effort --runs 3
  transportlab reproduce --study wsn_reporting_interval --experiment intervals --runs 3
  transportlab reproduce --scheduler tcp://scheduler-host:8786
  transportlab reproduce --quick --study sip_over_sctp --notebook --output output/quick
"""


def build_parser() -> argparse.ArgumentParser:
    known = studies.names()
    parser = argparse.ArgumentParser(
        prog="transportlab",
        description="Reproducible SCTP/TCP/UDP studies with ns-3.",
    )
    parser.add_argument("--version", action="version", version=f"transportlab {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    formatter = argparse.RawDescriptionHelpFormatter

    listing = commands.add_parser("list", help="studies and their parameters")
    listing.add_argument(
        "--study", nargs="+", metavar="NAME", help=f"only these ({', '.join(known)})"
    )
    listing.set_defaults(handler=cmd_list)

    param_help = (
        "study parameter, e.g. -p duration=50; a list takes all its elements, e.g. -p "
        "ftp_starts=10,15 (repeatable; `transportlab list` shows them)"
    )
    reproduce = commands.add_parser(
        "reproduce",
        help="reproduce studies: comparison, tables and figures",
        description="Run the experiments of the studies and write their comparison with the "
        "published values, their result tables and figures, and the summary of all studies.",
        epilog=REPRODUCE_EPILOG,
        formatter_class=formatter,
    )
    reproduce.add_argument(
        "--quick", action="store_true", help="quick mode: short runs, few replications (minutes)"
    )
    reproduce.add_argument(
        "--study", nargs="+", metavar="NAME", help=f"only these studies ({', '.join(known)})"
    )
    reproduce.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="serial, local, or a Dask scheduler address (default: in-process when --quick, "
        "else a local cluster)",
    )
    reproduce.add_argument(
        "--workers", type=int, metavar="N",
        help="worker processes of the local cluster (default: one per core)",
    )  # fmt: skip
    reproduce.add_argument(
        "--runs", type=int, metavar="N",
        help="replications per point of every experiment (default: each experiment's own)",
    )  # fmt: skip
    reproduce.add_argument(
        "--experiment", nargs="+", metavar="NAME",
        help="with one --study: only these of its experiments (`transportlab list` names "
        "them); the tables and figures that need another are left out",
    )  # fmt: skip
    reproduce.add_argument(
        "-p", "--param", action="append", default=[], metavar="NAME=VALUE", help=param_help
    )
    reproduce.add_argument(
        "--force", action="store_true", help="re-run every simulation instead of using the cache"
    )
    reproduce.add_argument(
        "--dry-run", action="store_true", help="only count the simulations to run and those cached"
    )
    reproduce.add_argument(
        "--notebook", action="store_true",
        help="run the study notebooks with papermill (they write the same files)",
    )  # fmt: skip
    reproduce.add_argument(
        "--output", metavar="DIR",
        help="with --notebook: folder for the executed notebooks (default: output[/quick])",
    )  # fmt: skip
    reproduce.set_defaults(handler=cmd_reproduce)

    sweep = commands.add_parser(
        "sweep",
        help="run one study over a grid of points x runs",
        description="Run one study over a grid of parameter values and replications, "
        "cached and resumable, serially or on a Dask cluster.",
        epilog=SWEEP_EPILOG,
        formatter_class=formatter,
    )
    sweep.add_argument("--study", required=True, metavar="NAME", choices=known,
                       help=f"the study: {', '.join(known)}")  # fmt: skip
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
        "--runs", type=int, default=1, metavar="N",
        help="replications per point: ns-3 RngRun 1..N (default 1)",
    )  # fmt: skip
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
        "--output", metavar="DIR",
        help="folder for one CSV per table (default: output/sweeps/<study>)",
    )  # fmt: skip
    sweep.add_argument(
        "--overwrite", action="store_true", help="replace the results of another sweep in --output"
    )
    sweep.add_argument(
        "--force", action="store_true", help="re-run every simulation instead of using the cache"
    )
    sweep.add_argument(
        "--dry-run", action="store_true", help="only count the simulations to run and those cached"
    )
    sweep.set_defaults(handler=cmd_sweep)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    prefix = f"transportlab {args.command}: error:"
    for option in ("runs", "workers", "seed"):
        value = getattr(args, option, None)
        if value is not None and value < 1:
            parser.exit(2, f"{prefix} --{option} must be >= 1\n")
    try:
        return args.handler(args)
    except (UsageError, ParameterError, OutputError) as exc:
        parser.exit(2, f"{prefix} {_one_line(exc)}\n")
    except execute.SimulationError as exc:
        parser.exit(1, f"{prefix} {_one_line(exc)}\n")
    except KeyboardInterrupt:
        print("\ninterrupted; finished simulations are cached", file=sys.stderr)
        return 130
    return 0


def _one_line(exc: BaseException) -> str:
    """The message of ``exc`` on one line: a list of problems joined with '; ', each
    after the heading it belongs to ("invalid parameters: a; b")."""
    lines = [re.sub(r"^\s*-\s+", "", line).strip() for line in str(exc).splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        return type(exc).__name__
    text = lines[0]
    for previous, line in itertools.pairwise(lines):
        text += (" " if previous.endswith(":") else "; ") + line
    return text


if __name__ == "__main__":
    raise SystemExit(main())
