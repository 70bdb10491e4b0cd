"""Planning a sweep: which simulations a study's points and replications need.

A *point* is a set of parameter values of a study (missing ones take the values of a
validated base: the defaults, or the quick-mode values); a *replication* is one ns-3
RngRun of a point. Each (point, run) is one :class:`Task`, identified by its *cache
key*: the SHA-256 of a canonical JSON document (:func:`task_identity`) holding the
study name, the cache schema, the *code fingerprint* of the run step
(:func:`transportlab.engine.fingerprint.code_fingerprint`: every transportlab module it
imports, directly or indirectly, and the compiled code and versions its
:class:`~transportlab.engine.runtime.Runtime` names), the complete validated parameters
(defaults filled in, ints converted to floats where the parameter is a float, so ``1``
and ``1.0`` hash alike; parameters only the analysis reads left out), the seed and the
run. Points whose keys are equal are one simulation.

::

    tasks = plan(STUDY, grid(protocol=["udp", "tcp"], error_rate=[0.0, 0.01]), runs=5)
    simulation_count(tasks)       # 20
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from transportlab.engine.fingerprint import code_fingerprint
from transportlab.engine.params import ParameterError
from transportlab.engine.study import Study, require_study

__all__ = ["CACHE_SCHEMA", "Task", "grid", "plan", "simulation_count", "task_identity"]

CACHE_SCHEMA = 2
"""Version of the cache file layout and of the key document; bump to invalidate all caches."""


def grid(**axes: Iterable[Any]) -> list[dict[str, Any]]:
    """Cartesian product of parameter values, in the order given.

    ``grid(protocol=["udp", "tcp"], rate=[1, 2])`` gives four points. A value
    that is itself a list (a list-valued parameter) must be wrapped in a list.
    """
    names = list(axes)
    values = []
    for name in names:
        axis = axes[name]
        if isinstance(axis, str | bytes) or not isinstance(axis, Iterable):
            raise TypeError(f"grid axis {name!r} must be a list of values, got {axis!r}")
        axis = list(axis)
        if not axis:
            raise ValueError(f"grid axis {name!r} is empty")
        values.append(axis)
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*values)]


def canonical_json(document: Any) -> str:
    """JSON with sorted keys and no whitespace: the same document gives the same text."""
    return json.dumps(
        document,
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
        allow_nan=False,
        default=_json_default,
    )


def _json_default(value: Any) -> Any:
    if isinstance(value, tuple | set | frozenset):
        return sorted(value) if isinstance(value, set | frozenset) else list(value)
    # numpy scalars (e.g. from np.linspace in a grid)
    if hasattr(value, "item") and callable(value.item):
        return value.item()
    raise TypeError(f"parameter value {value!r} ({type(value).__name__}) cannot be hashed")


def task_identity(
    study: Study, params: Mapping[str, Any], seed: int, run: int, fingerprint: str | None = None
) -> dict[str, Any]:
    """The document whose hash is the cache key of one task (see the module docstring)."""
    declared = study.parameters.params
    if fingerprint is None:
        fingerprint = code_fingerprint(study.run, runtime=study.runtime)
    return {
        "schema": CACHE_SCHEMA,
        "study": study.name,
        "code": fingerprint,
        # Parameters only the analysis reads do not change what the run step computes.
        "params": {
            name: value
            for name, value in params.items()
            if name not in declared or not declared[name].analysis_only
        },
        "seed": int(seed),
        "run": int(run),
    }


@dataclass(frozen=True)
class Task:
    """One simulation: a validated point of a study and one replication."""

    study: str
    params: Mapping[str, Any]
    seed: int
    run: int
    key: str
    identity: Mapping[str, Any] = field(repr=False, compare=False)

    def describe(self, varying: Sequence[str] | None = None) -> str:
        shown = {k: v for k, v in self.params.items() if varying is None or k in varying}
        return f"{self.study} {shown} seed={self.seed} run={self.run}"


def _run_numbers(runs: int | Iterable[int]) -> list[int]:
    if isinstance(runs, bool):
        raise TypeError("runs must be an int or a list of run numbers")
    if isinstance(runs, int):
        if runs < 1:
            raise ValueError(f"runs must be >= 1, got {runs}")
        return list(range(1, runs + 1))
    numbers = list(runs)
    bad = [r for r in numbers if isinstance(r, bool) or not isinstance(r, int) or r < 1]
    if bad or not numbers:
        raise ValueError(f"run numbers must be ints >= 1, got {numbers!r}")
    return list(dict.fromkeys(numbers))


def plan(
    study: Study,
    points: Iterable[Mapping[str, Any]] | None = None,
    *,
    runs: int | Iterable[int] = 1,
    seed: int = 1,
    quick: bool = False,
    base: Mapping[str, Any] | None = None,
) -> list[Task]:
    """Validate every point and list the tasks, points outermost, runs innermost.

    ``points`` complete ``base``: parameters the caller validated already (e.g. a
    notebook's overrides, :class:`~transportlab.engine.results.Results`); by default the
    defaults, or the quick-mode values with ``quick``. Only a point's own values are
    checked (with the relations between all parameters), so a value in ``base`` is
    validated once, however many points use it. ``None``: one point, ``base`` itself.

    Raises :class:`~transportlab.engine.params.ParameterError` naming every invalid point
    before anything runs. Points that validate to the same parameters are run once.
    """
    study = require_study(study)
    points = [{}] if points is None else [dict(p) for p in points]
    if not points:
        raise ValueError("no points to run")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 1:
        raise ValueError(f"seed must be an int >= 1, got {seed!r}")
    run_numbers = _run_numbers(runs)
    validated, problems = [], []
    for index, point in enumerate(points):
        try:
            validated.append(study.parameters.validate(point, quick=quick, base=base))
        except ParameterError as exc:
            problems.append(f"point {index} {point}: {exc}")
    if problems:
        raise ParameterError(f"{study.name}: " + "\n".join(problems))
    fingerprint = code_fingerprint(study.run, runtime=study.runtime)
    tasks: dict[str, Task] = {}
    for params in validated:
        for run_number in run_numbers:
            identity = task_identity(study, params, seed, run_number, fingerprint)
            key = hashlib.sha256(canonical_json(identity).encode()).hexdigest()
            # Points differing only in analysis parameters share a cache key (one
            # simulation) but stay separate tasks (each analysed with its own values).
            point = canonical_json({"params": params, "run": run_number})
            tasks.setdefault(point, Task(study.name, params, seed, run_number, key, identity))
    return list(tasks.values())


def simulation_count(tasks: Iterable[Task]) -> int:
    """How many simulations ``tasks`` need (tasks that share a cache key share one)."""
    return len({task.key for task in tasks})
