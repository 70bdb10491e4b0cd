"""Declared, validated parameters of a study.

Every study notebook starts with a papermill ``parameters`` cell; its values are
checked against the study's :class:`ParameterSpace` before anything runs, so an
unknown name, a wrong type or an impossible value stops with a clear message
instead of a crash (or a silently wrong result) half-way through a sweep.
"""

from __future__ import annotations

import difflib
import math
import numbers
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd


class ParameterError(ValueError):
    """One or more parameter values are invalid; the message lists every problem."""


_TYPE_NAMES = {bool: "bool", int: "int", float: "float", str: "str", list: "list", tuple: "tuple"}


@dataclass(frozen=True)
class Param:
    """One parameter: name, default, type and the values it may take.

    ``kind`` is one of bool, int, float, str, list. An int is accepted where a
    float is expected (and converted); a bool is never accepted as a number, nor
    is an infinite or NaN value.
    ``choices`` restricts values (for lists: every element). ``minimum`` and
    ``maximum`` bound numbers (for lists: every element) inclusively unless
    ``exclusive_minimum`` is set. ``check`` is an extra validator returning an
    error message or None. ``quick`` is the value used in quick mode (tests,
    CI, `transportlab reproduce --quick`) when it differs from the default.
    ``analysis_only`` marks a parameter that only a study's ``analyse`` step reads
    (e.g. a playout buffer applied to recorded arrivals): it is left out of the
    cache key, so changing it costs no simulation.
    """

    name: str
    default: Any
    kind: type
    help: str
    choices: tuple | None = None
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: bool = False
    element_kind: type | None = None
    check: Callable[[Any], str | None] | None = None
    quick: Any = field(default=None)
    unit: str = ""
    analysis_only: bool = False

    def __post_init__(self) -> None:
        problem = self.problem(self.default)
        if problem:
            raise ValueError(f"default of {self.name!r} is invalid: {problem}")
        if self.quick is not None and self.problem(self.quick):
            raise ValueError(f"quick value of {self.name!r} is invalid: {self.problem(self.quick)}")

    def coerce(self, value: Any) -> Any:
        """Value converted to the declared kind where lossless (int -> float, tuple -> list)."""
        if (
            self.kind is float
            and isinstance(value, numbers.Integral)
            and not isinstance(value, bool)
        ):
            return float(value)
        if self.kind is list and isinstance(value, tuple):
            value = list(value)
        if self.kind is list and self.element_kind is float and isinstance(value, list):
            return [float(v) if _is_int(v) else v for v in value]
        return value

    def problem(self, value: Any) -> str | None:
        """Why ``value`` is not acceptable, or None."""
        value = self.coerce(value)
        if not _has_kind(value, self.kind):
            expected = _TYPE_NAMES.get(self.kind, self.kind.__name__)
            return f"expected {expected}, got {type(value).__name__} {value!r}"
        items = value if self.kind is list else [value]
        if self.kind is list and self.element_kind is not None:
            for item in items:
                if not _has_kind(item, self.element_kind):
                    return (
                        f"expected a list of {_TYPE_NAMES.get(self.element_kind)}, "
                        f"got element {item!r}"
                    )
        for item in items:
            if self.choices is not None and item not in self.choices:
                return f"{item!r} is not one of {list(self.choices)}"
            if isinstance(item, numbers.Real) and not isinstance(item, bool):
                if not math.isfinite(item):
                    return f"{item!r} is not a finite number"
                if self.minimum is not None:
                    if self.exclusive_minimum and not item > self.minimum:
                        return f"{item!r} must be > {self.minimum}"
                    if not self.exclusive_minimum and not item >= self.minimum:
                        return f"{item!r} must be >= {self.minimum}"
                if self.maximum is not None and not item <= self.maximum:
                    return f"{item!r} must be <= {self.maximum}"
        if self.check is not None:
            return self.check(value)
        return None


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _has_kind(value: Any, kind: type) -> bool:
    if kind is bool:
        return isinstance(value, bool)
    if kind is int:
        return _is_int(value)
    if kind is float:
        return isinstance(value, numbers.Real) and not isinstance(value, bool)
    return isinstance(value, kind)


class ParameterSpace:
    """The parameters of a study, with defaults, quick-mode values and validation.

    ``consistency`` checks relations between parameters (e.g. start < stop); each
    returns an error message or None.
    """

    def __init__(
        self, *params: Param, consistency: Iterable[Callable[[Mapping[str, Any]], str | None]] = ()
    ) -> None:
        names = [p.name for p in params]
        duplicates = {n for n in names if names.count(n) > 1}
        if duplicates:
            raise ValueError(f"duplicate parameter names: {sorted(duplicates)}")
        self.params: dict[str, Param] = {p.name: p for p in params}
        self.consistency = list(consistency)

    def __contains__(self, name: str) -> bool:
        return name in self.params

    def __iter__(self):
        return iter(self.params.values())

    def defaults(self, quick: bool = False) -> dict[str, Any]:
        """All parameters at their default (or quick-mode) values."""
        return {
            p.name: (p.quick if quick and p.quick is not None else p.default)
            for p in self.params.values()
        }

    def validate(
        self,
        values: Mapping[str, Any],
        quick: bool = False,
        base: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Complete ``values`` and check them, and the relations between all parameters.

        ``values`` complete ``base``, a result of this method (by default the defaults,
        or the quick-mode values with ``quick``; both are checked when declared), so
        only ``values`` are checked again. Raises :class:`ParameterError` listing every
        unknown name (with the closest known one), wrong type and impossible value.
        """
        problems = []
        for name in values:
            if name not in self.params:
                close = difflib.get_close_matches(name, list(self.params), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                problems.append(f"unknown parameter {name!r}{hint}")
        result = self.defaults(quick) if base is None else dict(base)
        for name, value in values.items():
            if name in self.params:
                param = self.params[name]
                problem = param.problem(value)
                if problem:
                    problems.append(f"{name}: {problem}")
                else:
                    result[name] = param.coerce(value)
        if not problems:
            for rule in self.consistency:
                problem = rule(result)
                if problem:
                    problems.append(problem)
        if problems:
            raise ParameterError("invalid parameters:\n  - " + "\n  - ".join(problems))
        return result

    def describe(self) -> pd.DataFrame:
        """A table of the parameters (for `transportlab list` and the notebooks)."""
        rows = []
        for p in self.params.values():
            allowed = ""
            if p.choices is not None:
                allowed = " | ".join(map(str, p.choices))
            elif p.minimum is not None or p.maximum is not None:
                low = (
                    ""
                    if p.minimum is None
                    else f"{'>' if p.exclusive_minimum else '>='} {p.minimum}"
                )
                high = "" if p.maximum is None else f"<= {p.maximum}"
                allowed = ", ".join(x for x in (low, high) if x)
            rows.append(
                {
                    "name": p.name,
                    "type": _TYPE_NAMES.get(p.kind, p.kind.__name__),
                    "default": p.default,
                    "quick": p.quick if p.quick is not None else p.default,
                    "unit": p.unit,
                    "allowed": allowed,
                    "help": p.help,
                }
            )
        return pd.DataFrame(rows)
