"""The run step: one scenario on both stacks (usrsctp and the ns-3 model), two profiles."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from transportlab.studies.sctp_validation import stacks


def run(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """Raw tables of the four traces (usrsctp and ns-3, default and aligned settings).

    Both stacks are deterministic: ``run`` changes nothing (the experiment declares one
    run); ``oracle_seed`` seeds usrsctp's random bytes.
    """
    scenario = stacks.scenario_by_name(params["scenario"])
    return stacks.traces_to_tables(stacks.run_traces(scenario, params["oracle_seed"]))
