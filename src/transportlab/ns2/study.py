"""An NS-2 run step beside a study's ns-3 one, cached and swept the same way.

A study's NS-2 scenario is a module-level ``run(params, seed, run) -> dict[str,
DataFrame]`` that writes the Tcl of one point and one replication, runs it with
:func:`transportlab.ns2.runner.run_script` and returns the *same raw tables* as the
study's ns-3 ``run``, so the study's own ``analyse`` computes the metrics of both
simulators. :func:`~transportlab.ns2.runner.ns2_run_step` marks it: its cache key
then holds NS-2's version (:func:`transportlab.ns2.runner.versions`) instead of the
ns-3 wheel's and the native library's, beside its code (the generator and the
parsers, through the imports it makes) and the parameters (which determine the Tcl
text). :func:`ns2_study` makes the :class:`~transportlab.engine.study.Study` that
:func:`transportlab.engine.execute.run` and :class:`transportlab.engine.results.Results` run:
the study's parameters, analysis and comparison, the NS-2 run step, the name
``<study>.ns2`` (its own cache folder) and the runtime :data:`NS2`::

    from transportlab.engine import execute
    from transportlab.ns2.study import ns2_study
    from transportlab.engine.results import Results
    from transportlab.studies.wired_best_effort import STUDY, ns2_scenario

    ns2 = ns2_study(STUDY, ns2_scenario.run, ns2_scenario.PARAMETERS, experiments=["main"])
    tables = execute.run(ns2, [{"protocol": "tcp"}], runs=10)   # analysed like ns-3's
    Results(ns2)["main"], Results(ns2).comparison()           # the published vs NS-2

The run step must not import this module (it imports :mod:`transportlab.engine.study`,
whose imports would put analysis code into the cache key): the marker lives in
:mod:`transportlab.ns2.runner`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path

from transportlab.engine.params import ParameterSpace
from transportlab.engine.runtime import Runtime
from transportlab.engine.study import Reproduction, Study
from transportlab.ns2 import runner
from transportlab.ns2.runner import ns2_run_step

__all__ = ["NS2", "SUFFIX", "Ns2Runtime", "ns2_run_step", "ns2_study"]

SUFFIX = ".ns2"


class Ns2Runtime(Runtime):
    """A run step that runs NS-2.35's ``ns`` in a child process: no compiled code of ours,
    NS-2's version (``ns-version`` and the Debian package's, or the ``ns`` binary's
    digest: :func:`transportlab.ns2.runner.versions`) in the cache key instead of the ns3 wheel's,
    nothing to set in a worker's environment, and no GIL held while ``ns`` runs."""

    def code_files(self) -> list[tuple[str, Path | None]]:
        return []

    def versions(self) -> dict[str, str]:
        return dict(sorted(runner.versions().items()))


NS2 = Ns2Runtime()


def ns2_study(
    study: Study,
    run: Callable,
    parameters: ParameterSpace | None = None,
    experiments: Sequence[str] | None = None,
) -> Study:
    """``study`` with the NS-2 run step ``run`` (marked by :func:`ns2_run_step`).

    ``parameters`` (default: the study's) may add checks for what NS-2 cannot express,
    so that a sweep rejects such a point before anything runs. ``experiments`` names
    the study's experiments NS-2 can run (default: all); the variant's reproduction
    has those and the study's ``comparison`` (which compares the study's published values,
    ``published_as``, with NS-2's runs), not its tables and figures (they may read other
    experiments). So ``Results(ns2_study(...))["main"]`` and ``.comparison()`` work
    as for the study.
    """
    if getattr(run, "simulator_versions", None) is not runner.versions:
        raise ValueError(f"{run.__module__}.{run.__name__} is not marked with @ns2_run_step")
    chosen = study.reproduction.experiments
    if experiments is not None:
        chosen = tuple(study.reproduction.experiment(name) for name in experiments)
    return dataclasses.replace(
        study,
        name=study.name + SUFFIX,
        title=f"{study.title} (NS-2.35 re-run)",
        run=run,
        parameters=parameters or study.parameters,
        reproduction=Reproduction(experiments=chosen, comparison=study.reproduction.comparison),
        tags=(*study.tags, "ns2-baseline"),
        runtime=NS2,
        published_as=study.published_name,
    )
