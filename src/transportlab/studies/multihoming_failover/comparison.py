"""What the multihoming study compares: seed 002 section 3.5's numbers (Brennan et al.:
first loss and the stall it caused, single- vs multi-homed) against the ``lossy`` runs
(``comparison.csv``, :func:`transportlab.engine.verdicts.compare`)."""

from __future__ import annotations

import pandas as pd

from transportlab.engine import verdicts

HOMING_LABELS = {"single": "SCTP (single-homed)", "multi": "SCTP (multi-homed)"}


def comparison(results) -> pd.DataFrame:
    """Seed 002 section 3.5's three numbers against the ``lossy`` runs with SCTP-PF off.

    The seed describes one event: "after approximately 1.5 seconds of transmission, the
    slow start phase is interrupted by a first lost packet. The retransmitted packet for
    the first lost packet is also lost. As a result, the transmission is halted for more
    than 3 seconds" (single-homed), "interrupted for only about 0.5 seconds"
    (multi-homed). So per run: ``first_loss_time`` is when the first DATA packet was lost
    (``first_loss_s``, single-homed), ``transmission_stall`` the delivery gap that loss
    caused (``first_loss_stall_s``), not the longest gap of the run. SCTP-PF (2016) did
    not exist in 2001: its runs are shown beside, not compared. Mean and 95 % CI over the
    runs (:func:`transportlab.engine.verdicts.compare`).
    """
    rows = []
    for _, r in results["lossy"]["summary"].iterrows():
        if r["pf_max_retrans"] < r["path_max_retrans"]:
            continue
        protocol = HOMING_LABELS[r["homing"]]
        row = f"{round(r['loss_rate'] * 100):d}% packet loss"
        rows.append((protocol, "transmission_stall", row, "s", r["first_loss_stall_s"]))
        if r["homing"] == "single":
            rows.append((protocol, "first_loss_time", row, "s", r["first_loss_s"]))
    reproduced = pd.DataFrame(rows, columns=["protocol", "metric", "row", "unit", "value"])
    return verdicts.compare(results.study, reproduced)
