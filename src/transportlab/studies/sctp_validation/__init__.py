"""The SCTP model validated against a real stack: usrsctp driven in simulated time.

Not a published study: each scenario (a transfer over one link with chosen losses,
windows, streams and message sizes; :mod:`transportlab.studies.sctp_validation`) runs on usrsctp
(FreeBSD's SCTP stack as a library, two endpoints in one process, every timer and
packet driven by ``tools/usrsctp-oracle``) and on the ns-3 model, with each stack's
default settings and with usrsctp set to behave as RFC 9260 says where it can. The
table compares completion times, retransmissions by kind and cwnd trajectories, and
names every difference with its RFC section and the trace evidence.

Files: ``parameters.py``, ``scenario.py`` (``run``: both stacks, cached),
``analysis.py`` (``analyse``: the comparison row), ``reproduction.py`` (the scenario
sets, the table, the figures).
"""

from transportlab.engine.study import Study
from transportlab.ns3.runtime import NS3
from transportlab.studies.sctp_validation.analysis import analyse
from transportlab.studies.sctp_validation.parameters import PARAMETERS
from transportlab.studies.sctp_validation.reproduction import REPRODUCTION
from transportlab.studies.sctp_validation.scenario import run

STUDY = Study(
    name="sctp_validation",
    title="The SCTP model against usrsctp in simulated time: completion, retransmissions, cwnd",
    seed_files=(),
    notebook="06_sctp_validation.ipynb",
    parameters=PARAMETERS,
    run=run,
    analyse=analyse,
    reproduction=REPRODUCTION,
    description="Differential validation: each scenario on usrsctp (FreeBSD's stack) and on "
    "the ns-3 model, every difference named with its RFC section.",
    tags=("sctp", "validation"),
    runtime=NS3,
)
