"""The studies transportlab reproduces, discovered from this package.

Each study is a module ``transportlab.studies.<name>`` that defines a module-level
``STUDY = Study(...)``. A study is a scenario function plus its declared
parameters; the notebook ``notebooks/<notebook>`` explains it, the sweep runner
(`transportlab.sweep`) runs it over a grid of points and replications, and
``data/published/<name>.csv`` holds the published numbers it is compared with.

The scenario function has the signature ``simulate(params, seed, run)`` with
``params`` a validated parameter dict; it runs one simulation (one replication,
ns-3 RngRun = ``run``) in the calling process and returns a dict of named pandas
DataFrames (tidy tables: e.g. per-flow metrics, time series). It must be a
module-level function so that worker processes can import it.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from transportlab.params import ParameterSpace

SimulateFn = Callable[[Mapping[str, Any], int, int], dict[str, pd.DataFrame]]


@dataclass(frozen=True)
class Study:
    """One reproduced study."""

    name: str
    title: str
    seed_files: tuple[str, ...]
    notebook: str
    parameters: ParameterSpace
    simulate: SimulateFn
    description: str = ""
    tags: tuple[str, ...] = field(default_factory=tuple)
    # Part of every cached result's key (transportlab.sweep): bump it when the
    # scenario changes in a way the code fingerprint cannot see (e.g. a shared
    # Python helper the study calls), so old cached results are not reused.
    version: str = "1"

    def validate(self, values: Mapping[str, Any], quick: bool = False) -> dict[str, Any]:
        return self.parameters.validate(values, quick=quick)


def _discover() -> dict[str, Study]:
    found: dict[str, Study] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        study = getattr(module, "STUDY", None)
        if isinstance(study, Study):
            if study.name in found:
                raise RuntimeError(f"two studies named {study.name!r}")
            found[study.name] = study
    return dict(sorted(found.items()))


_registry: dict[str, Study] | None = None


def all_studies() -> dict[str, Study]:
    """Every study, by name."""
    global _registry
    if _registry is None:
        _registry = _discover()
    return _registry


def get(name: str) -> Study:
    """The study called ``name``; a clear error listing the known ones otherwise."""
    studies = all_studies()
    if name not in studies:
        raise KeyError(f"unknown study {name!r}; known studies: {', '.join(studies) or '(none)'}")
    return studies[name]
