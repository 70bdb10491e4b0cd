"""What the voip study compares: seed 001's packets per second, maximum delay and jitter
against the network side (before playout) of experiment ``main`` (``comparison.csv``,
:func:`transportlab.engine.verdicts.compare`), and the seed's numbers for the figures."""

from __future__ import annotations

import pandas as pd

from transportlab.engine import published, verdicts
from transportlab.engine.study import Study
from transportlab.studies.voip_cjm import analysis

#: Published metric -> (summary column, unit, policy whose numbers it is compared with).
#: Delay and jitter are those of the network, before any playout buffer: the seed's
#: 150/180 ms maxima cannot include a CJM buffer, which alone adds 50 frames (1 s).
PUBLISHED_METRICS = {
    "packets_received_per_second": ("frames_per_s", "packets/s", "arrival"),
    "delay_max": ("delay_max_ms", "ms", "arrival"),
    "jitter": ("before_jitter_ms", "ms", "arrival"),
}


#: The row of data/published/voip_cjm.csv each metric is published in.
PUBLISHED_ROWS = {
    "packets_received_per_second": "homogeneous topology (Fig. 1)",
    "delay_max": "15-minute voice transfer",
    "jitter": "15-minute voice transfer",
}


#: Our configuration -> the seed's protocol. The seed's SCTP is NS-2's default for legacy
#: applications: one association per call, one ordered, fully reliable stream. UDP has no
#: published value.
PUBLISHED_CONFIGURATIONS = {"TCP": "TCP", "SCTP ordered": "SCTP"}


#: A 20 % tolerance (the project default) cannot tell 2400 from 2200 packets/s.
TOLERANCE = {"packets_received_per_second": 0.05}


def comparison(results) -> pd.DataFrame:
    """The seed's numbers against the network side (before playout) of experiment ``main``.

    One reproduced value per run, metric and published configuration (TCP, and SCTP
    ordered as the seed's SCTP): the frames delivered per second, the maximum one-way
    delay of any frame of any call and the RFC 3550 jitter (mean over calls), all of
    the "arrival" playout (no buffer). :func:`transportlab.engine.verdicts.compare` takes the
    mean and confidence interval over the runs and gives the verdict (5 % tolerance on
    the packet rate, 20 % otherwise).
    """
    summary = analysis.with_configuration(results["main"]["summary"])
    rows = []
    for metric, (column, unit, policy) in PUBLISHED_METRICS.items():
        chosen = summary[
            (summary["policy"] == policy) & summary["configuration"].isin(PUBLISHED_CONFIGURATIONS)
        ]
        for _, r in chosen.iterrows():
            rows.append(
                {
                    "protocol": PUBLISHED_CONFIGURATIONS[r["configuration"]],
                    "metric": metric,
                    "row": PUBLISHED_ROWS[metric],
                    "unit": unit,
                    "value": r[column],
                }
            )
    reproduced = pd.DataFrame(rows, columns=["protocol", "metric", "row", "unit", "value"])
    return verdicts.compare(results.study, reproduced, tolerance=TOLERANCE)


def published_lines(study: Study) -> dict[tuple[str, str], float]:
    """The seed's TCP and SCTP numbers as (summary column, protocol) -> value, from
    data/published (a bound such as ``<=30`` as its number)."""
    values = published.load(study)
    values = values[values["protocol"].isin(["TCP", "SCTP"])]
    return {
        (PUBLISHED_METRICS[r["metric"]][0], r["protocol"]): float(r["value"])
        for _, r in values.iterrows()
        if r["metric"] in PUBLISHED_METRICS
    }
