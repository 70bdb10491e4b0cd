"""The studies transportlab reproduces, discovered from this package.

Each study is a package ``transportlab.studies.<name>`` whose ``__init__`` defines
``STUDY = Study(...)`` (:mod:`transportlab.engine.study` describes the shape: declared
parameters, a cached ``run`` step, an uncached ``analyse`` step and a
``reproduction``). A study's files:

* ``parameters.py``: the declared parameters and the constants of the scenario;
* ``scenario.py``: ``run(params, seed, run)``, the ns-3 part (cached);
* ``analysis.py``: ``analyse(raw, params)``, metrics per replication (not cached);
* ``reproduction.py``: experiments, comparison rows, result tables and figures;
* ``__init__.py``: the ``STUDY`` declaration.

The notebook ``notebooks/<notebook>`` explains the study and calls these functions.
"""

from __future__ import annotations

import importlib
import pkgutil

from transportlab.engine.study import Experiment, Reproduction, Study

__all__ = ["Experiment", "Reproduction", "Study", "all_studies", "get", "names"]


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


def names() -> list[str]:
    """The names of every study, without importing them (a study's package is its name)."""
    return sorted(
        info.name for info in pkgutil.iter_modules(__path__) if not info.name.startswith("_")
    )


def get(name: str) -> Study:
    """The study called ``name`` (importing only it); a clear error listing the known ones."""
    if _registry is not None and name in _registry:
        return _registry[name]
    known = names()
    if name not in known:
        raise KeyError(f"unknown study {name!r}; known studies: {', '.join(known) or '(none)'}")
    study = getattr(importlib.import_module(f"{__name__}.{name}"), "STUDY", None)
    if not isinstance(study, Study) or study.name != name:
        raise RuntimeError(f"transportlab.studies.{name} must define STUDY = Study(name={name!r})")
    return study
