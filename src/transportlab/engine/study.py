"""The one shape every study has.

A study is declared by a :class:`Study` in ``transportlab/studies/<name>/__init__.py``
and split into steps that are cached differently:

``run(params, seed, run) -> dict[str, DataFrame]``
    builds the ns-3 scenario for one point and one replication (ns-3 RngRun), runs
    it, and returns *raw* tables (per-packet records, counters, time series). It
    lives in ``studies/<name>/scenario.py`` and imports nothing that analyses.
    Its results are cached (:mod:`transportlab.engine.cache`); the cache key covers its
    code (:mod:`transportlab.engine.fingerprint` and the study's
    :class:`~transportlab.engine.runtime.Runtime`), the parameters, seed and run.
``analyse(raw, params) -> dict[str, DataFrame]``
    turns the raw tables of one replication into result tables (metrics). It lives
    in ``studies/<name>/analysis.py`` and is never cached: a metric change costs no
    simulation.
``reproduction``
    what reproducing the study means: named :class:`Experiment` s (sets of points
    with their quick and full numbers of runs), and the functions that turn their
    analysed tables into the comparison with the published values
    (``comparison.csv``), further result tables and figures. The notebook of the
    study calls the same functions, so a notebook and ``transportlab reproduce``
    produce the same files (:mod:`transportlab.engine.results`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from transportlab.engine.params import ParameterSpace
from transportlab.engine.runtime import PYTHON, Runtime

__all__ = ["Experiment", "FigureFn", "Reproduction", "Study", "require_study"]

RunFn = Callable[[Mapping[str, Any], int, int], dict[str, pd.DataFrame]]
AnalyseFn = Callable[[Mapping[str, pd.DataFrame], Mapping[str, Any]], dict[str, pd.DataFrame]]
PointsFn = Callable[[Mapping[str, Any]], list[dict[str, Any]]]
# A figure or table function takes the study's :class:`transportlab.engine.results.Results`
# (which imports this module, so it is not named here).
#: ``figure(results) -> (matplotlib Figure, number of runs behind it)``
FigureFn = Callable[[Any], tuple[Any, int]]
TableFn = Callable[[Any], pd.DataFrame]


@dataclass(frozen=True)
class Experiment:
    """A named set of points of a study, run with the same number of replications.

    ``points(params)`` gets the study's validated base parameters (defaults, the
    quick-mode values in quick mode, and the user's overrides) and returns the
    points as complete or partial parameter dicts (missing names take the base
    values); ``quick_points``, if given, replaces it in quick mode (e.g. a
    shorter axis). ``runs`` and ``quick_runs`` are the replications (ns-3 RngRun
    1..n) in full and quick mode. A ``deterministic`` experiment has no random
    element (its replications would be identical): it runs once, whatever a
    ``runs`` override says. ``available()``, if given, says whether this build
    can run the experiment (e.g. only with the SCTP model).
    """

    name: str
    description: str
    points: PointsFn
    runs: int
    quick_runs: int
    available: Callable[[], bool] | None = None
    quick_points: PointsFn | None = None
    deterministic: bool = False

    def __post_init__(self) -> None:
        for label in ("runs", "quick_runs"):
            value = getattr(self, label)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"experiment {self.name!r}: {label} must be an int >= 1")
        if self.deterministic and (self.runs, self.quick_runs) != (1, 1):
            raise ValueError(f"experiment {self.name!r} is deterministic: runs must be 1")

    def replications(self, quick: bool, override: int | None = None) -> int:
        """Replications in quick or full mode; ``override`` (a user's ``runs``) wins unless
        the experiment is deterministic."""
        if self.deterministic:
            return 1
        if override is not None:
            return override
        return self.quick_runs if quick else self.runs

    def point_list(self, params: Mapping[str, Any], quick: bool) -> list[dict[str, Any]]:
        build = self.quick_points if quick and self.quick_points is not None else self.points
        return build(params)

    def is_available(self) -> bool:
        return self.available is None or bool(self.available())


@dataclass(frozen=True)
class Reproduction:
    """What ``transportlab reproduce`` computes and writes for one study.

    ``comparison(results)`` returns the rows of ``comparison.csv`` (the columns of
    :data:`transportlab.engine.verdicts.COMPARISON_COLUMNS`); ``tables`` are further
    result tables written as ``<name>.csv`` beside it; ``figures`` are written as
    ``figures[/quick]/<study>/<name>.png``. Each function only reads
    ``results[experiment]`` (analysed tables) and computes.
    """

    experiments: tuple[Experiment, ...]
    comparison: TableFn | None = None
    tables: Mapping[str, TableFn] = field(default_factory=dict)
    figures: Mapping[str, FigureFn] = field(default_factory=dict)

    def __post_init__(self) -> None:
        names = [e.name for e in self.experiments]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate experiment names: {names}")
        if "comparison" in self.tables:
            raise ValueError("'comparison' is written from Reproduction.comparison")

    def experiment(self, name: str) -> Experiment:
        for experiment in self.experiments:
            if experiment.name == name:
                return experiment
        known = ", ".join(e.name for e in self.experiments)
        raise KeyError(f"unknown experiment {name!r}; experiments: {known}")


@dataclass(frozen=True)
class Study:
    """One reproduced study (see the module docstring for its steps).

    ``output_parameters`` name parameters whose non-empty value makes a run write
    files (e.g. ``pcap_prefix``): such a point always runs, since a cached result
    would write nothing. ``runtime`` says what the run step needs beyond Python
    (``transportlab.ns3.runtime.NS3`` for an ns-3 scenario; :mod:`transportlab.engine.runtime`).
    """

    name: str
    title: str
    seed_files: tuple[str, ...]
    notebook: str
    parameters: ParameterSpace
    run: RunFn
    analyse: AnalyseFn
    reproduction: Reproduction
    description: str = ""
    tags: tuple[str, ...] = ()
    output_parameters: tuple[str, ...] = ()
    runtime: Runtime = PYTHON

    def __post_init__(self) -> None:
        unknown = [n for n in self.output_parameters if n not in self.parameters]
        if unknown:
            raise ValueError(f"study {self.name!r}: output parameters {unknown} are not declared")

    def writes_files(self, params: Mapping[str, Any]) -> bool:
        """Whether a run of ``params`` writes files (then it is never served from the cache)."""
        return any(params.get(name) for name in self.output_parameters)

    def simulate(self, params: Mapping[str, Any], seed: int = 1, run: int = 1):
        """Run and analyse one replication in this process (no cache): analysed tables."""
        params = self.parameters.validate(params)
        return self.analyse(self.run(params, seed, run), params)


def require_study(value: Any) -> Study:
    """``value`` if it is a :class:`Study`; a clear error otherwise.

    The engine takes study objects; names are looked up where people type them (the
    command line, notebooks: ``transportlab.studies.get(name)``).
    """
    if isinstance(value, Study):
        return value
    hint = (
        f"; look a name up with transportlab.studies.get({value!r})"
        if isinstance(value, str)
        else ""
    )
    raise TypeError(f"expected a Study, got {type(value).__name__} {value!r}{hint}")
