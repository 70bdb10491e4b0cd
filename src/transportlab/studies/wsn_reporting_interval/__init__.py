"""TCP, UDP and SCTP on a 56-node wireless sensor network (seed 003).

Chellaprabha, Chenthur Pandian and Vivekanandan compare TCP, UDP and SCTP on a
56-node sensor field in NS-2 (AODV over 802.11, two-ray ground propagation,
CBR reports of 256 bytes to one sink) for five data reporting intervals. This
module rebuilds that network with ns-3's real models. Where the paper leaves a
choice open, the decision is made here, in one place, and stated:

Placement (Figure 1 is not legible in the seed). 7 columns x 8 rows over
800 m x 400 m: columns 114.3 m apart (x = 57.1 ... 742.9 m), rows 50 m apart
(y = 25 ... 375 m). Every column holds one 150-m node in row 3 (y = 175 m):
these are the gateways 1-7, forming a backbone 114.3 m per hop. The sink, node
0, sits in the centre column at (400, 225) and reaches gateways 3, 4 and 5
(50 m and 124.7 m). The 48 short-range (60 m) sensors, nodes 8-55, fill the
other places column by column and reach each other only vertically (50 m), so
every sensor's route is "up or down its column to the gateway, then along the
backbone" - the role the paper gives to nodes 1-7.

Radio (Table 1 and NS-2's defaults). NS-2's receive threshold RXThresh =
3.652e-10 W (Table 1) and carrier-sense threshold CSThresh = 1.559e-11 W
(NS-2 default), frequency 2.4 GHz (Table 1), antennas 1.5 m high, unit gains,
system loss 1. The transmit power for a range R is the power that puts exactly
RXThresh at R under NS-2's TwoRayGround (Friis below the crossover distance
4 pi ht hr / lambda, ht^2 hr^2 / d^4 beyond it), as NS-2's threshold.cc does.
In ns-3: RxSensitivity = CSThresh (weaker signals never reach the PHY, as in
NS-2), CcaEdThreshold = CSThresh (they keep the channel busy),
ThresholdPreambleDetectionModel MinimumRssi = RXThresh (only frames above it
are received).

MAC: 802.11b DSSS, data (unicast and broadcast) at 2 Mb/s, control frames at
1 Mb/s, long PLCP preamble, RTS/CTS for every unicast frame (NS-2's
RTSThreshold_ 0), retry limits 7/4. Interface queue: the wifi MAC queue,
50 packets drop-tail, no queue-time limit, no traffic-control layer on top
(NS-2's PriQueue also gives routing packets priority; ns-3's DCF queue does
not).

Routing: AODV with NS-2's aodv.h constants (no HELLO messages: link-layer
feedback, active route timeout 10 s, expanding ring 5/2/7, 3 RREQ retries,
30 ms node traversal time, network diameter 30).

Energy: MICA2 mote radio (Crossbow MPR400 datasheet, 2 AA cells): 3.0 V,
receive 10 mA (also while listening, as a CC1000 listens in receive mode),
transmit 27 mA, sleep 1 uA, initial energy 27 kJ (2500 mAh at 3 V, never
depleted in 100 s).

Reporting interval. Table 1 lists 1, 2, 5, 10, 20 s; the Annexure says the
tables' intervals are "scaled down by the factor 10". ``interval_scale``
multiplies the printed interval: 1.0 takes Table 1 at face value (the
default: the published UDP throughputs, 105.7 ... 5.43, are 94-96 % of what 55
sensors offer at 1-20 s, 112.6 ... 5.6 kb/s), 0.1 reads the remark as "the real
intervals are 0.1-2 s".

Files: ``parameters.py`` (declared parameters, constants, which sensors report),
``network.py`` (placement and radio arithmetic, no ns-3), ``scenario.py`` (``run``:
ns-3, cached; ``RunOptions`` for the speed options), ``analysis.py`` (per-run metrics,
the rows compared with Tables 2-4; not cached), ``reproduction.py`` (the interval
sweep, the comparison, ``summary.csv`` and the figures).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from transportlab.studies.wsn_reporting_interval.analysis import analyse
from transportlab.studies.wsn_reporting_interval.parameters import PARAMETERS
from transportlab.studies.wsn_reporting_interval.reproduction import REPRODUCTION
from transportlab.studies.wsn_reporting_interval.scenario import RunOptions, run, run_scenario
from transportlab.study import Study

__all__ = ["STUDY", "RunOptions", "simulate"]

STUDY = Study(
    name="wsn_reporting_interval",
    title="TCP, UDP and SCTP on a 56-node sensor network vs data reporting interval",
    seed_files=("003_3eccc45171f7c0ea.txt",),
    notebook="04_wsn_reporting_interval.ipynb",
    parameters=PARAMETERS,
    run=run,
    analyse=analyse,
    reproduction=REPRODUCTION,
    description=__doc__.split("\n\n")[1],
    tags=("wireless", "aodv", "802.11", "energy"),
)


def simulate(
    params: Mapping[str, Any], seed: int = 1, run: int = 1, options: RunOptions | None = None
) -> dict[str, pd.DataFrame]:
    """One replication with explicit :class:`RunOptions`, analysed, in this process (no cache).

    For the benchmark and the tests of the speed options; ``params`` may be partial.
    """
    params = PARAMETERS.validate(params)
    raw = run_scenario(params, seed=seed, run=run, options=options or RunOptions())
    return analyse(raw, params)
