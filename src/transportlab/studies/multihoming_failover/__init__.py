"""SCTP multi-homing and partial reliability: seed 002 sections 3.5 and 5.5, seed 001.

Three scenarios (parameter ``scenario``):

* ``failover`` (seed 002 section 5.5): host A with two addresses sends a paced stream
  of messages to host B; at ``fail_at`` the cable of A's primary interface is pulled
  (IP does not notice, as on the seed's 2002 Linux host) and optionally plugged back at
  ``repair_at``. ``topology = "seed_hub"`` is the seed's set-up (A .1 and .2, B .3 on
  one 100 Mb/s hub): B has one address, so only A's source address can change
  (``source_failover``; off = what the seed saw: retransmissions on the dead interface
  until the association gives up). ``topology = "two_networks"``: A and B both have
  two addresses on two independent links, the RFC 9260 destination failover after
  Path.Max.Retrans + 1 consecutive timeouts (:func:`analysis.failover_window`).
* ``lossy`` (seed 002 section 3.5, Brennan et al. 2001): a bulk transfer over a path
  losing ``loss_rate`` of its packets in both directions, single-homed (one link) or
  multi-homed (a second, loss-free link for retransmissions); delivery stalls.
* ``prsctp`` (seed 001's voice over SCTP): a 64 kb/s voice-like stream (a frame every
  20 ms) over a lossy link with fully reliable SCTP, PR-SCTP with a lifetime, PR-SCTP
  with at most k retransmissions (NS-2 "k-rtx"), or UDP as the floor.

Files: ``parameters.py`` (declared parameters, constants), ``scenario.py`` (``run``:
ns-3, cached; topologies from :mod:`transportlab.ns3.topology.multihomed`), ``analysis.py``
(``analyse``: delivery stalls, failover times, voice delays; RFC 9260 timer bounds;
not cached), ``comparison.py`` (seed 002's numbers against the ``lossy`` runs),
``reproduction.py`` (the notebook's experiments, result tables and figures).
"""

from transportlab.engine.study import Study
from transportlab.ns3.runtime import NS3
from transportlab.studies.multihoming_failover.analysis import analyse
from transportlab.studies.multihoming_failover.parameters import PARAMETERS
from transportlab.studies.multihoming_failover.reproduction import REPRODUCTION
from transportlab.studies.multihoming_failover.scenario import run

STUDY = Study(
    name="multihoming_failover",
    title="SCTP multi-homing failover, stalls under loss, and PR-SCTP for voice",
    seed_files=("002_8ca3fd7f92b4e1a6.txt", "001_8dea97bcf2df26a4.txt"),
    notebook="05_multihoming_failover.ipynb",
    parameters=PARAMETERS,
    run=run,
    analyse=analyse,
    reproduction=REPRODUCTION,
    description="Seed 002 section 5.5 (unplugged primary interface) and section 3.5 "
    "(Brennan et al.: single vs multi-homed under 15 % loss); PR-SCTP lifetime and k-rtx "
    "for a voice-like flow against full reliability and UDP.",
    tags=("sctp", "multihoming", "pr-sctp"),
    runtime=NS3,
)
