"""TCP, UDP and SCTP on a 56-node wireless sensor network (seed 003).

Chellaprabha, Chenthur Pandian and Vivekanandan compare TCP, UDP and SCTP on a
56-node sensor field in NS-2 (AODV over 802.11, two-ray ground propagation,
CBR reports of 256 bytes to one sink) for five data reporting intervals. This
module rebuilds that network with ns-3's real models. Where the paper leaves a
choice open, the decision is made here, in one place, and stated:

Placement (``placement``; Figure 1, the field, is missing from the seed). **The placement
rule**, written down before the study was compared with the paper under it (issue 25):
the declared placement follows what the seed states and nothing else. The seed states:
56 nodes on a topographical area of 800 m x 400 m (Table 1); node 0 is the sink; sensor
nodes 1-7 have the higher transmission power (150 m, as the sink) and "act as gate way to
sink node"; the rest "are normal nodes and can transmit only to a short distance" (60 m).
So, in the declared placement ``field``:

1. every node lies in the 800 m x 400 m area;
2. the sink is anywhere in it;
3. gateway k (1..7, in turn) is anywhere within 150 m of the sink or of a gateway placed
   before it: every gateway reaches the sink over 150-m nodes (the gateways' role);
4. each of the 48 sensors is anywhere within 60 m of the sink or of a gateway: a sensor
   transmits to a 150-m node (the short distance it can transmit, to the gateways that
   carry its data to the sink);
5. "anywhere" is uniform over the part of the area the node's condition allows (drawn
   uniform over the area, drawn again until the condition holds), from numpy's PCG64;
6. nothing else: the seed states no spacing, no margin and no symmetry, so a sensor
   within 150 m but beyond 60 m of another 150-m node hears it one way only (the
   one-way links the seed's mixed ranges create), as they fall;
7. the seed's one field is unknown, so each replication draws its own (``placement_seed``
   0: from the replication's seed and run, ``network.replication_seed_sequence``), and a
   mean over the runs is a mean over fields the text allows. ns-3 and NS-2 get the same
   positions for the same replication (``network.positions(params, seed, run)``).

The other placements are parameters and stay experiments: ``clusters`` (stop 19's default)
removes one-way links by a criterion of ours, which the seed does not state: each sensor
within 60 m of one 150-m node and more than 150 m from the others, the sink and gateways in
a zig-zag backbone (105 m apart in x, alternately 50 m above and below y = 200 m: 145 m per
hop; the sink is the 4th of 8), six sensors in a 3 x 2 grid on each one's outer side
(<= 52.2 m from their head, >= 154 m from any other 150-m node). ``columns`` is the earlier
layout (7 columns x 8 rows, one gateway per column, the sink at (400, 225); 150-m gateways
reach 60-m sensors of the next columns one way); ``random`` is stop 18's random layout
(sink at the centre, gateways 100-145 m apart, sensors within 55 m of a 150-m node: our
spacing and margins), ``placement_seed`` k >= 1 a fixed field.

One-way links and AODV. Neither simulator's AODV avoids them: NS-2.35's AODV has no
blacklist, and ns-3.44's requests a RREP-ACK only when an intermediate node answers for a
one-hop destination and arms the timer that would blacklist the neighbour on a copy of the
routing entry without ever scheduling it (``aodv-routing-protocol.cc``,
``SendReplyByIntermediateNode``; ``MarkLinkAsUnidirectional`` is never reached). So in both,
a sensor that hears a gateway's rebroadcast RREQ one way takes that gateway as the next hop
of its reverse route, and a RREP or data sent over it fails at the MAC (no CTS) until the
route discovery retries or the route times out.

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

Reception (``reception_model``). ``ns2`` (default) is NS-2's Mac802_11 collision
rule: a frame being received is lost when a signal arrives during it that is not at
least CPThresh_ = 10 dB weaker (``Ns2Capture`` of
``ns3::SensitivityFilteredYansWifiPhy``), and the newcomer is lost with it; the rule
holds from the frame's first bit, ns-3's 4-us preamble detection window included, as
NS-2's MAC sees every frame from its first bit (Mac802_11::recv). A frame starting
during another signal ns-3 has not locked on needs 10 dB over it at its preamble
(ThresholdPreambleDetectionModel Threshold = 10 dB). ``ns3`` leaves the decision to
ns-3's DSSS error model, under which a DSSS frame survives interference a few dB
weaker than itself (processing gain). ns-3's ErrorRateModel cannot carry NS-2's
rule: it computes DSSS chunks itself and never asks a subclass. Two differences
remain: NS-2's MAC also locks on an undecodable frame (between CSThresh and
RXThresh) and then loses a stronger one arriving during it, where ns-3 receives the
stronger one if its preamble has 10 dB over the rest (``ns2_lock`` adds that lock,
``Ns2RxThreshold`` and ``Ns2LockUndecodable`` of the PHY; it is not the default
because the dropped-packet count cannot yet leave out the errored frames NS-2's MAC
frees without a trace line, see notebook section 7.10); and ns-3's DSSS model still
judges the surviving frame against the sum of all interferers, NS-2 only against
each newcomer.

Start times (``start_mode``). The seed does not say when its sources start. ``staggered``
(default) starts each sensor at a uniform random time within the first interval;
``synchronized`` starts all at ``start_time``, as an NS-2 script that starts every CBR at
one time (CBR's default ``random_`` 0 then keeps them in step for the whole run).

MAC: 802.11b DSSS at NS-2.35's Mac/802_11 rates: data (unicast and broadcast) and control
frames at 1 Mb/s (``dataRate_`` and ``basicRate_`` 1Mb; until issue 25 the data went at
2 Mb/s, from a reference that was wrong), long PLCP preamble, RTS/CTS for every unicast
frame (NS-2's RTSThreshold_ 0). Interface queue: the wifi MAC queue,
50 packets drop-tail, no queue-time limit, no traffic-control layer on top
(NS-2's PriQueue also gives routing packets priority; ns-3's DCF queue does
not).

Routing: AODV with NS-2's aodv.h constants (no HELLO messages: link-layer
feedback, active route timeout 10 s, expanding ring increment 2 and threshold 7,
3 RREQ retries, 30 ms node traversal time, network diameter 30). A first search
starts network-wide, as ns-2.35's ``AODV::sendRequest`` does (a new route entry's
last hop count is INFINITY2), not at aodv.h's TTL_START 5 (``TtlStart`` 30).

Reports: NS-2's CBR (``ns3::Ns2CbrApplication``): the first 256-byte report at the
sensor's start, then one per interval.

Transport (``stack_preset``): ``ns2`` (default) is NS-2's Agent/TCP, i.e. Tahoe
(src/tcp-tahoe) with NS-2's defaults (1000-byte packets: each report becomes one, as
NS-2's TCP counts packets; window 20, initial window 2, initial RTO 3 s, minimum RTO
0.2 s, an ACK per packet, no give-up), and SCTP with the NS-2.35 preset; ``modern``
is ``tcp_variant`` with one 256-byte report per segment and SCTP's RFC 9260 defaults.

Metrics: throughput and delay as an NS-2 trace gives them, agent send to sink agent
receive (``ns3::AgentTraceRecorder``), next to the application-level ones.

Energy (``energy_model``, applied to the time each radio spends in each state,
``ns3::WifiStateTimes``). The seed (3.1) uses "Energy model of NS2" with parameters "set
according to the node capability" of MICA motes, and gives no values. ``ns2`` (default)
is what NS-2.35's WirelessPhy charges when a script sets none: tx 0.660 W, rx 0.395 W
for every frame above the carrier-sense threshold, idle ``idle_power_w`` (NS-2: 0 W);
``mica2`` is the MICA2 mote radio (Crossbow MPR400 datasheet): 3.0 V, receive 10 mA
(also while listening, as a CC1000 listens in receive mode), transmit 27 mA, sleep
1 uA. The ``implied_idle_power`` table reads the seed's energies with either radio's
powers. ns-3's own BasicEnergySource + WifiRadioEnergyModel with the MICA2 currents run
only with ``RunOptions(ns3_energy_models=True)``, as a cross-check (tested).

Reporting interval. Table 1 lists 1, 2, 5, 10, 20 s; the Annexure says the
tables' intervals are "scaled down by the factor 10". ``interval_scale``
multiplies the printed interval: 1.0 takes Table 1 at face value (the
default: the published UDP throughputs, 105.7 ... 5.43, are 94-96 % of what 55
sensors offer at 1-20 s, 112.6 ... 5.6 kb/s), 10.0 takes the remark literally (the
printed values are the real ones divided by 10: 10-200 s), 0.1 the opposite.

Files: ``parameters.py`` (declared parameters, constants, which sensors report),
``network.py`` (placement and radio arithmetic, no ns-3), ``scenario.py`` (``run``:
ns-3, cached; ``RunOptions`` for the speed options), ``analysis.py`` (per-run metrics;
not cached), ``comparison.py`` (Tables 2-4 against the interval sweep, and the seed's
values beside ours), ``reproduction.py`` (the experiments, ``summary.csv`` and the other
tables, the figures).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from transportlab.engine.study import Study
from transportlab.ns3.runtime import NS3
from transportlab.studies.wsn_reporting_interval.analysis import analyse
from transportlab.studies.wsn_reporting_interval.parameters import PARAMETERS
from transportlab.studies.wsn_reporting_interval.reproduction import REPRODUCTION
from transportlab.studies.wsn_reporting_interval.scenario import RunOptions, run, run_scenario

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
    runtime=NS3,
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
