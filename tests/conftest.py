"""What the tests share: one simulation per distinct point in a test module.

``simulations(study, params, seed, run)`` runs ``study.simulate`` the first time a module
asks for a point and hands every later test of the module a copy of the same tables: a
replication is deterministic (same parameters, seed and run give bit-identical tables,
``tests/test_simulation.py``), so running it again would only cost time. A test that
checks that determinism calls ``study.simulate`` itself.

Test tiers: ``pytest -m "not slow"`` leaves out the tests marked ``slow`` (long
simulations, the notebooks under nbval, the graded assignments; see the README).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd
import pytest

from transportlab.engine.plan import canonical_json
from transportlab.engine.study import Study


class SimulationCache:
    """Analysed tables of one replication per (study, parameters, seed, run), made once."""

    def __init__(self) -> None:
        self._done: dict[tuple, dict[str, pd.DataFrame]] = {}

    def __call__(
        self, study: Study, params: Mapping[str, Any], seed: int = 1, run: int = 1
    ) -> dict[str, pd.DataFrame]:
        key = (study.name, canonical_json(dict(params)), seed, run)
        if key not in self._done:
            self._done[key] = study.simulate(params, seed, run)
        # Copies: a test that changes a table must not change it for the next test.
        return {name: table.copy() for name, table in self._done[key].items()}


@pytest.fixture(scope="module")
def simulations() -> SimulationCache:
    """One simulation per distinct point, shared by the tests of a module."""
    return SimulationCache()
