"""The studies transportlab reproduces, discovered from this package.

Each study is a package ``transportlab.studies.<name>`` whose ``__init__`` defines
``STUDY = Study(...)`` (:mod:`transportlab.study` describes the shape: declared
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

from transportlab.study import Experiment, Reproduction, Study

__all__ = ["Experiment", "Reproduction", "Study", "all_studies", "get"]


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
