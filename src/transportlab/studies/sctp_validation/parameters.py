"""Parameters of the SCTP validation against usrsctp (see the package docstring)."""

from __future__ import annotations

from transportlab.engine.params import Param, ParameterSpace
from transportlab.studies.sctp_validation import interleaving, stacks, stream_reset


def _scenario_names() -> tuple[str, ...]:
    names = [sc.name for sc in stacks.quick_scenarios() + stacks.full_scenarios()]
    names += list(stream_reset.RESET_SCENARIOS) + list(interleaving.CASES)
    return tuple(dict.fromkeys(names))


PARAMETERS = ParameterSpace(
    Param(
        "scenario",
        "no_loss",
        str,
        "the validation scenario (stacks.quick_scenarios and full_scenarios, "
        "stream_reset.RESET_SCENARIOS, interleaving.CASES)",
        choices=_scenario_names(),
    ),
    Param("oracle_seed", 1, int, "seed of usrsctp's random bytes (tags, initial TSN)", minimum=0),
)
