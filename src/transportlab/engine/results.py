"""Reproducing a study: its experiments, comparison, result tables and figures.

:class:`Results` is what a notebook and ``transportlab reproduce`` share. It plans a
study's experiments once, when it is made (every point checked, every task with its
cache key: :mod:`transportlab.engine.plan`), runs each on first use (through
:mod:`transportlab.engine.execute`: cached raw tables, analysed on every load) and
computes the comparison with the published values, the result tables and the figures
with the functions the study declares in its
:class:`~transportlab.engine.study.Reproduction`. Both paths call the same functions on
the same cached simulations, so they write the same files::

    results = Results(STUDY, quick=True)
    results.plan()                      # the tasks of every experiment (no simulation)
    results["main"]["summary"]          # analysed tables of experiment "main"
    results.comparison()                # the rows of comparison.csv
    results.figure("goodput_delay")     # builds, saves (stating n runs) and returns it
    results.write()                     # comparison, qualitative.csv, tables, figures, provenance

Only ``transportlab reproduce`` (``publish=True``) of a study's declared mode (no
parameter overrides, the declared run counts, seed 1) writes ``data/results[/quick]/<study>/``
and ``figures[/quick]/<study>/``, the committed results. Everything else (a notebook, other
parameters or run counts) writes to ``data/explore/<study>/<label>/`` (figures in its
``figures/``): ``quick`` or ``full`` for a declared mode, ``<mode>-<hash of the overrides,
runs and seed>`` otherwise, so exploring never overwrites a committed file. Each file is
written to a temporary file and renamed when complete; ``provenance.json`` beside the
tables records how every file was made, with the parameters
(:mod:`transportlab.engine.provenance`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from transportlab.engine import execute, paths
from transportlab.engine.files import check_writable_folder, write_csv
from transportlab.engine.plan import Task, plan
from transportlab.engine.plotting import save_figure
from transportlab.engine.provenance import write_provenance
from transportlab.engine.study import Experiment, Study, require_study
from transportlab.engine.verdicts import write_comparison, write_qualitative

__all__ = [
    "ExperimentUnavailableError",
    "Results",
    "committed_comparison",
    "committed_table",
]


class ExperimentUnavailableError(RuntimeError):
    """The experiment needs something this build lacks (e.g. the SCTP model)."""


class Results:
    """The analysed results of one study's experiments, planned at once, computed when first
    asked for.

    ``params`` override the study's defaults for every experiment; ``runs`` overrides
    every experiment's number of replications; ``experiments`` names the only experiments
    to plan and run (``None``: all; the others count as unavailable, so the tables and
    figures that need them are left out, and the files land in an exploration folder);
    ``scheduler`` is as in
    :func:`transportlab.engine.execute.run_tasks` (``None``: serial in quick mode, a
    local cluster otherwise). Making a ``Results`` checks everything before anything
    runs: the overrides (validated once), every point of every experiment this build
    can run, and that no override names a parameter an experiment sets itself. The
    plan it makes (:meth:`plan`) is the one the experiments then run.
    """

    def __init__(
        self,
        study: Study,
        *,
        quick: bool = False,
        params: Mapping[str, Any] | None = None,
        runs: int | None = None,
        experiments: Sequence[str] | None = None,
        scheduler: Any = None,
        seed: int = 1,
        force: bool = False,
        progress: bool = True,
        publish: bool = False,
        progress_bar: Any = None,
    ) -> None:
        self.study = require_study(study)
        if not isinstance(quick, bool):
            raise TypeError(f"quick must be True or False, got {quick!r}")
        if runs is not None and (isinstance(runs, bool) or not isinstance(runs, int) or runs < 1):
            raise ValueError(f"runs must be an int >= 1 or None, got {runs!r}")
        self.quick = quick
        self.overrides = dict(params or {})
        self.params = self.study.parameters.validate(self.overrides, quick=quick)
        self.runs_override = runs
        self.selected = self._checked_selection(experiments)
        self.scheduler = execute.check_scheduler(scheduler)
        self.seed = seed
        self.force = force
        self.progress = progress
        #: a tqdm-like class for the progress bars (None: tqdm on stderr)
        self.progress_bar = progress_bar
        #: write data/results (only `transportlab reproduce`, and only in a declared mode)
        self.publish = publish
        self._tables: dict[str, dict[str, pd.DataFrame]] = {}
        #: runs behind each figure built so far (for provenance.json)
        self.figure_runs: dict[str, int | None] = {}
        self._points: dict[str, list[dict[str, Any]]] = {}
        self._plan: dict[str, list[Task]] = {}
        for experiment in self.experiments:
            if experiment.is_available() and self._selected(experiment.name):
                self._plan_experiment(experiment)

    def _checked_selection(self, names: Sequence[str] | None) -> tuple[str, ...] | None:
        """``names`` as a tuple in the study's order (a name given twice counts once), or
        None for every experiment; an empty selection or an unknown name is a ValueError
        (naming every unknown one), a bare string a TypeError."""
        if names is None:
            return None
        if isinstance(names, str):
            raise TypeError(f"experiments must be a list of names, got the string {names!r}")
        declared = [e.name for e in self.experiments]
        unknown = [n for n in names if n not in declared]
        if unknown:
            raise ValueError(
                f"{self.study.name}: unknown experiment(s) {', '.join(map(repr, unknown))}; "
                f"experiments: {', '.join(declared)}"
            )
        if not names:
            raise ValueError(f"{self.study.name}: an empty selection of experiments")
        return tuple(n for n in declared if n in names)

    def _selected(self, name: str) -> bool:
        return self.selected is None or name in self.selected

    # ------------------------------------------------------------------ experiments

    @property
    def experiments(self) -> tuple[Experiment, ...]:
        return self.study.reproduction.experiments

    def experiment(self, name: str) -> Experiment:
        return self.study.reproduction.experiment(name)

    def available(self, name: str) -> bool:
        """Whether this build can run experiment ``name`` and it is selected."""
        return self.experiment(name).is_available() and self._selected(name)

    def runs(self, name: str) -> int:
        """Replications of experiment ``name`` (ns-3 RngRun 1..n)."""
        return self.experiment(name).replications(self.quick, self.runs_override)

    def points(self, name: str) -> list[dict[str, Any]]:
        """The complete parameter dicts of experiment ``name``."""
        if name not in self._points:
            points = self.experiment(name).point_list(dict(self.params), self.quick)
            self._points[name] = [dict(self.params, **point) for point in points]
        return [dict(point) for point in self._points[name]]

    def _plan_experiment(self, experiment: Experiment) -> None:
        points = experiment.point_list(dict(self.params), self.quick)
        # An override of a parameter the experiment sets itself would be silently ignored
        # (or, if it won, would collapse the experiment's axes): refuse it.
        fixed = sorted({name for point in points for name in point} & set(self.overrides))
        if fixed:
            raise ValueError(
                f"{self.study.name}: experiment {experiment.name!r} sets {', '.join(fixed)} "
                "itself; run other values with `transportlab sweep`"
            )
        self._points[experiment.name] = [dict(self.params, **point) for point in points]
        # The points complete the validated overrides: only their own values are checked.
        self._plan[experiment.name] = plan(
            self.study, points, runs=self.runs(experiment.name), seed=self.seed,
            quick=self.quick, base=self.params,
        )  # fmt: skip

    def plan(self) -> dict[str, list[Task]]:
        """The tasks of every available experiment (made once, with this ``Results``)."""
        return {name: list(tasks) for name, tasks in self._plan.items()}

    def __getitem__(self, name: str) -> dict[str, pd.DataFrame]:
        """The analysed tables of experiment ``name`` (runs what is not cached)."""
        if name not in self._tables:
            self.experiment(name)  # an unknown name: KeyError listing the experiments
            if name not in self._plan:
                reason = (
                    "is not among the selected experiments"
                    if not self._selected(name)
                    else "needs what this build lacks (e.g. the SCTP model)"
                )
                raise ExperimentUnavailableError(f"{self.study.name}/{name} {reason}")
            self._tables[name] = execute.run_tasks(
                self.study,
                self._plan[name],
                scheduler=execute.default_scheduler(self.scheduler, self.quick),
                force=self.force,
                progress=f"{self.study.name}/{name}" if self.progress else False,
                progress_bar=self.progress_bar,
            )
        return self._tables[name]

    def get(self, name: str) -> dict[str, pd.DataFrame] | None:
        """Like ``results[name]``, or None if this build cannot run the experiment."""
        return self[name] if self.available(name) else None

    def run_all(self) -> None:
        """Run every available experiment (what is cached is only loaded)."""
        for name in self._plan:
            self[name]

    # ------------------------------------------------------------------ outputs

    def declared_mode(self) -> bool:
        """Whether these are the study's declared quick or full mode: no overrides, every
        experiment (none left out) with its declared number of runs, seed 1."""
        runs_declared = self.runs_override is None or all(
            e.replications(self.quick, self.runs_override) == e.replications(self.quick)
            for e in self.experiments
        )
        return not self.overrides and runs_declared and self.seed == 1 and self.selected is None

    def exploration_label(self) -> str:
        """``quick``/``full`` in a declared mode, else ``<mode>-<10 hex digits>`` of the
        overrides, runs and seed (the same exploration always lands in the same folder)."""
        mode = "quick" if self.quick else "full"
        if self.declared_mode():
            return mode
        described = {"params": self.overrides, "runs": self.runs_override, "seed": self.seed}
        if self.selected is not None:  # absent otherwise: earlier folders keep their label
            described["experiments"] = list(self.selected)
        key = json.dumps(
            described,
            sort_keys=True,
            default=str,
        )
        return f"{mode}-{hashlib.sha256(key.encode()).hexdigest()[:10]}"

    def results_dir(self) -> Path:
        """``data/results[/quick]/<study>`` when ``transportlab reproduce`` writes a declared
        mode (``publish``), else ``data/explore/<study>/<label>`` (see the module)."""
        if self.publish and self.declared_mode():
            return paths.results_dir(self.study.name, self.quick)
        return paths.exploration_dir(self.study.name, self.exploration_label())

    def figures_dir(self) -> Path:
        if self.publish and self.declared_mode():
            return paths.figures_dir(self.study.name, self.quick)
        return self.results_dir() / "figures"

    def comparison(self) -> pd.DataFrame:
        """The rows of ``comparison.csv`` (computed, not written)."""
        build = self.study.reproduction.comparison
        if build is None:
            raise KeyError(f"{self.study.name} declares no comparison")
        return build(self)

    def table(self, name: str) -> pd.DataFrame:
        """The result table ``name`` the study declares (computed, not written)."""
        tables = self.study.reproduction.tables
        if name not in tables:
            raise KeyError(f"{self.study.name} declares no table {name!r}; tables: {list(tables)}")
        return tables[name](self)

    def figure(self, name: str, save: bool = True):
        """Build figure ``name``; with ``save``, write it (stating its runs) first."""
        figures = self.study.reproduction.figures
        if name not in figures:
            raise KeyError(
                f"{self.study.name} declares no figure {name!r}; figures: {list(figures)}"
            )
        fig, n_runs = figures[name](self)
        self.figure_runs[name] = n_runs
        if save:
            save_figure(
                fig, self.study.name, name, quick=self.quick, n_runs=n_runs,
                folder=self.figures_dir(),
            )  # fmt: skip
        return fig

    def write_comparison(self, comparison: pd.DataFrame | None = None) -> Path:
        """Write ``comparison.csv`` (and the tolerance it used) atomically."""
        comparison = self.comparison() if comparison is None else comparison
        return write_comparison(self.study, comparison, self.quick, folder=self.results_dir())

    def write_table(self, name: str, table: pd.DataFrame | None = None) -> Path:
        table = self.table(name) if table is None else table
        # Full precision: result tables are inputs of further analysis (the comparison,
        # rounded for reading, is written with six significant digits).
        return write_csv(table, self.results_dir() / f"{name}.csv")

    def write(self, figures: bool = True) -> list[Path]:
        """Run everything and write the comparison, every table and every figure (the list
        returned), then ``provenance.json`` beside the tables."""
        import matplotlib  # noqa: PLC0415

        check_writable_folder(self.results_dir(), "results folder")
        if figures:
            check_writable_folder(self.figures_dir(), "figures folder")
        if not self._plan:
            raise ExperimentUnavailableError(
                f"{self.study.name}: none of its experiments can run in this build "
                f"({', '.join(self.selected or [e.name for e in self.experiments])})"
            )
        self.run_all()
        # Compute everything first: a failure leaves every earlier file as it was. What
        # needs an experiment this build cannot run (e.g. without SCTP) is left out.
        comparison = (
            _unless_unavailable(self.comparison) if self.study.reproduction.comparison else None
        )
        tables = {
            name: table
            for name in self.study.reproduction.tables
            if (table := _unless_unavailable(lambda n=name: self.table(n))) is not None
        }
        written = []
        if comparison is not None:
            written.append(self.write_comparison(comparison))
            qualitative = write_qualitative(
                self.study, comparison, self.quick, folder=self.results_dir()
            )
            if qualitative is not None:
                written.append(qualitative)
        written += [self.write_table(name, table) for name, table in tables.items()]
        if figures:
            backend = matplotlib.get_backend()
            import matplotlib.pyplot as plt  # noqa: PLC0415

            try:
                if "inline" not in backend:
                    plt.switch_backend("Agg")
                for name in self.study.reproduction.figures:
                    fig = _unless_unavailable(lambda n=name: self.figure(n))
                    if fig is not None:
                        written.append(self.figures_dir() / f"{name}.png")
                        plt.close(fig)
            finally:
                if "inline" not in backend and backend.lower() != "agg":
                    plt.switch_backend(backend)
        # Last: provenance.json describes the files above (parameters, runs, code, commit).
        # It is not in the returned list: the notebooks print that list, nbval checks it.
        write_provenance(self, written)
        return written


def _unless_unavailable(build):
    try:
        return build()
    except ExperimentUnavailableError:
        return None


# ---------------------------------------------------------------------- committed results


def committed_table(study: str | Study, name: str = "comparison") -> pd.DataFrame:
    """The full-mode table ``data/results/<study>/<name>.csv`` as committed.

    Notebooks run in quick mode for tests and CI (few runs: a check of the pipeline,
    not a result); the numbers and verdicts a study reports are those of full mode,
    which ``transportlab reproduce`` writes and the repository commits. This reads
    them without running anything. ``study``: a study or its name (the folder under
    ``data/results``). Raises ``FileNotFoundError`` (with the command that writes the
    file) when the study has no committed full-mode table ``name``.
    """
    study_name = study.name if isinstance(study, Study) else str(study)
    path = paths.results_dir(study_name, quick=False) / f"{name}.csv"
    if not path.is_file():
        raise FileNotFoundError(
            f"{study_name} has no committed full-mode {name}.csv ({path}); "
            f"`transportlab reproduce --study {study_name}` writes it"
        )
    return pd.read_csv(path, keep_default_na=False, na_values=[""])


def committed_comparison(study: str | Study) -> pd.DataFrame:
    """The committed full-mode ``comparison.csv`` of ``study`` (see :func:`committed_table`)."""
    return committed_table(study, "comparison")
