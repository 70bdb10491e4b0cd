"""Reproducing a study: its experiments, comparison, result tables and figures.

:class:`Results` is what a notebook and ``transportlab reproduce`` share. It runs a
study's experiments on first use (through :mod:`transportlab.sweep`: cached raw
tables, analysed on every load) and computes the comparison with the published
values, the result tables and the figures with the functions the study declares
in its :class:`~transportlab.study.Reproduction`. Both paths call the same
functions on the same cached simulations, so they write the same files::

    results = Results("bottleneck_example", quick=True)
    results["main"]["summary"]          # analysed tables of experiment "main"
    results.comparison()                # the rows of comparison.csv
    results.figure("goodput_delay")     # builds, saves (stating n runs) and returns it
    results.write()                     # comparison.csv, tables, every figure, provenance.json

Files go to ``data/results[/quick]/<study>/`` and ``figures[/quick]/<study>/``,
each written to a temporary file and renamed when complete; ``provenance.json`` beside
the tables records how every file was made (:mod:`transportlab.provenance`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from transportlab import paths
from transportlab.files import check_writable_folder, write_csv
from transportlab.study import Experiment, Study

__all__ = [
    "ExperimentUnavailableError",
    "Results",
    "collect_summary",
    "committed_comparison",
    "committed_table",
    "summary_counts",
    "write_summary",
]

SUMMARY_COLUMNS = [
    "study", "source", "protocol", "metric", "row", "unit", "published", "reproduced",
    "n_runs", "ratio", "verdict",
]  # fmt: skip


class ExperimentUnavailableError(RuntimeError):
    """The experiment needs something this build lacks (e.g. the SCTP model)."""


def _study(study: str | Study) -> Study:
    if isinstance(study, Study):
        return study
    from transportlab.studies import get  # noqa: PLC0415

    return get(study)


class Results:
    """The analysed results of one study's experiments, computed when first asked for.

    ``params`` override the study's defaults for every experiment (validated here,
    before anything runs); ``runs`` overrides every experiment's number of
    replications; ``scheduler`` is as in :func:`transportlab.sweep.run`.
    """

    def __init__(
        self,
        study: str | Study,
        *,
        quick: bool = False,
        params: Mapping[str, Any] | None = None,
        runs: int | None = None,
        scheduler: Any = None,
        seed: int = 1,
        force: bool = False,
        progress: bool = True,
    ) -> None:
        from transportlab import sweep  # noqa: PLC0415

        self.study = _study(study)
        if not isinstance(quick, bool):
            raise TypeError(f"quick must be True or False, got {quick!r}")
        if runs is not None and (isinstance(runs, bool) or not isinstance(runs, int) or runs < 1):
            raise ValueError(f"runs must be an int >= 1 or None, got {runs!r}")
        self.quick = quick
        self.params = self.study.validate(dict(params or {}), quick=quick)
        self.overrides = dict(params or {})
        self.runs_override = runs
        self.scheduler = sweep.check_scheduler(scheduler)
        self.seed = seed
        self.force = force
        self.progress = progress
        self._tables: dict[str, dict[str, pd.DataFrame]] = {}
        #: runs behind each figure built so far (for provenance.json)
        self.figure_runs: dict[str, int | None] = {}
        for experiment in self.study.reproduction.experiments:
            self._validate_points(experiment)

    # ------------------------------------------------------------------ experiments

    @property
    def experiments(self) -> tuple[Experiment, ...]:
        return self.study.reproduction.experiments

    def experiment(self, name: str) -> Experiment:
        return self.study.reproduction.experiment(name)

    def available(self, name: str) -> bool:
        """Whether this build can run experiment ``name``."""
        return self.experiment(name).is_available()

    def runs(self, name: str) -> int:
        """Replications of experiment ``name`` (ns-3 RngRun 1..n)."""
        return self.experiment(name).replications(self.quick, self.runs_override)

    def points(self, name: str) -> list[dict[str, Any]]:
        """The complete parameter dicts of experiment ``name``."""
        points = self.experiment(name).point_list(dict(self.params), self.quick)
        return [dict(self.params, **point) for point in points]

    def _validate_points(self, experiment: Experiment) -> None:
        from transportlab import sweep  # noqa: PLC0415

        if not experiment.is_available():
            return
        points = experiment.point_list(dict(self.params), self.quick)
        # An override of a parameter the experiment sets itself would be silently ignored
        # (or, if it won, would collapse the experiment's axes): refuse it.
        fixed = sorted({name for point in points for name in point} & set(self.overrides))
        if fixed:
            raise ValueError(
                f"{self.study.name}: experiment {experiment.name!r} sets {', '.join(fixed)} "
                "itself; run other values with `transportlab sweep`"
            )
        complete = [dict(self.params, **point) for point in points]
        sweep.plan(self.study, complete, runs=1, quick=self.quick)

    def plan(self) -> dict[str, list]:
        """The tasks of every available experiment (for progress and dry runs)."""
        from transportlab import sweep  # noqa: PLC0415

        return {
            e.name: sweep.plan(
                self.study, self.points(e.name), runs=self.runs(e.name), seed=self.seed,
                quick=self.quick,
            )
            for e in self.experiments
            if e.is_available()
        }  # fmt: skip

    def __getitem__(self, name: str) -> dict[str, pd.DataFrame]:
        """The analysed tables of experiment ``name`` (runs what is not cached)."""
        from transportlab import sweep  # noqa: PLC0415

        if name not in self._tables:
            experiment = self.experiment(name)
            if not experiment.is_available():
                raise ExperimentUnavailableError(
                    f"{self.study.name}/{name} needs what this build lacks (e.g. the SCTP model)"
                )
            self._tables[name] = sweep.run(
                self.study,
                self.points(name),
                runs=self.runs(name),
                seed=self.seed,
                quick=self.quick,
                scheduler=self.scheduler,
                force=self.force,
                progress=f"{self.study.name}/{name}" if self.progress else False,
            )
        return self._tables[name]

    def get(self, name: str) -> dict[str, pd.DataFrame] | None:
        """Like ``results[name]``, or None if this build cannot run the experiment."""
        return self[name] if self.available(name) else None

    def run_all(self) -> None:
        """Run every available experiment (what is cached is only loaded)."""
        for experiment in self.experiments:
            if experiment.is_available():
                self[experiment.name]

    # ------------------------------------------------------------------ outputs

    def results_dir(self) -> Path:
        return paths.results_dir(self.study.name, self.quick)

    def figures_dir(self) -> Path:
        return paths.figures_dir(self.study.name, self.quick)

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
        from transportlab.figures import save_figure  # noqa: PLC0415

        figures = self.study.reproduction.figures
        if name not in figures:
            raise KeyError(
                f"{self.study.name} declares no figure {name!r}; figures: {list(figures)}"
            )
        fig, n_runs = figures[name](self)
        self.figure_runs[name] = n_runs
        if save:
            save_figure(fig, self.study.name, name, quick=self.quick, n_runs=n_runs)
        return fig

    def write_comparison(self, comparison: pd.DataFrame | None = None) -> Path:
        """Write ``comparison.csv`` (and the tolerance it used) atomically."""
        from transportlab.published import write_comparison  # noqa: PLC0415

        comparison = self.comparison() if comparison is None else comparison
        write_comparison(self.study.name, comparison, self.quick)
        return self.results_dir() / "comparison.csv"

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
        if not any(e.is_available() for e in self.experiments):
            raise ExperimentUnavailableError(
                f"{self.study.name}: none of its experiments can run in this build "
                f"({', '.join(e.name for e in self.experiments)})"
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
        from transportlab.provenance import write_provenance  # noqa: PLC0415

        write_provenance(self, written)
        return written


def _unless_unavailable(build):
    try:
        return build()
    except ExperimentUnavailableError:
        return None


# ---------------------------------------------------------------------- summary


def collect_summary(quick: bool) -> pd.DataFrame:
    """Every registered study's ``comparison.csv`` (quick or full mode) in one table."""
    from transportlab.studies import names  # noqa: PLC0415

    frames = []
    for name in names():
        path = paths.results_dir(name, quick) / "comparison.csv"
        if path.is_file():
            frame = pd.read_csv(path, keep_default_na=False, na_values=[""])
            if "study" not in frame:
                frame.insert(0, "study", name)
            frames.append(frame)
    if not frames:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    return pd.concat(frames, ignore_index=True)


def summary_counts(summary: pd.DataFrame) -> pd.DataFrame:
    """Verdict counts per study and over all studies (the row ``all``).

    One column per label of :data:`transportlab.published.VERDICTS` (zeros kept, so
    every table has the same columns), then any other label a study's own comparison
    uses, then ``total``.
    """
    from transportlab.published import VERDICTS  # noqa: PLC0415

    labels = list(VERDICTS)
    if "verdict" in summary and len(summary):
        labels += sorted(set(summary["verdict"].dropna()) - set(VERDICTS))
        counts = summary.groupby("study")["verdict"].value_counts().unstack(fill_value=0)
        counts = counts.reindex(columns=labels, fill_value=0)
    else:
        counts = pd.DataFrame(columns=labels, dtype=int)
    counts.loc["all"] = counts.sum()
    counts["total"] = counts[labels].sum(axis=1)
    counts.index.name = "study"
    counts.columns.name = None
    return counts.astype(int).reset_index()


def write_summary(summary: pd.DataFrame, quick: bool) -> Path:
    """Write ``summary.csv`` (every comparison row) and ``summary-counts.csv``
    (:func:`summary_counts`) into the results folder; returns the first."""
    folder = paths.results_dir(quick=quick)
    write_csv(summary_counts(summary), folder / "summary-counts.csv")
    return write_csv(summary, folder / "summary.csv")


def _format_number(value: object) -> str:
    """A number to four significant digits; a published value as printed ("~7", ">3")."""
    if isinstance(value, str):
        return value
    if value is None or (isinstance(value, float) and math.isnan(value)) or pd.isna(value):
        return ""
    return f"{value:.4g}"


def format_summary(summary: pd.DataFrame) -> str:
    if summary.empty:
        return "no comparison rows"
    shown = summary[[c for c in SUMMARY_COLUMNS if c in summary.columns]].copy()
    for column in ("published", "reproduced", "ratio"):
        if column in shown:
            shown[column] = shown[column].map(_format_number)
    counts = summary_counts(summary)
    counts = counts.loc[:, (counts != 0).any() | counts.columns.isin(["study", "total"])]
    return shown.to_string(index=False) + "\n\n" + counts.to_string(index=False)


# ---------------------------------------------------------------------- committed results


def committed_table(study: str | Study, name: str = "comparison") -> pd.DataFrame:
    """The full-mode table ``data/results/<study>/<name>.csv`` as committed.

    Notebooks run in quick mode for tests and CI (few runs: a check of the pipeline,
    not a result); the numbers and verdicts a study reports are those of full mode,
    which ``transportlab reproduce`` writes and the repository commits. This reads
    them without running anything. Raises ``FileNotFoundError`` (with the command
    that writes the file) when the study has no committed full-mode table ``name``.
    """
    study_name = _study(study).name
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
