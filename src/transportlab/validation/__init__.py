"""The SCTP model validated against usrsctp, a production SCTP stack, scenario by scenario.

* :mod:`~transportlab.validation.stacks`: a :class:`Scenario` (link, transfer, losses,
  protocol knobs) run on ``usrsctp-oracle`` (``tools/usrsctp-oracle``: two usrsctp endpoints
  in one process, in simulated time) and on transportlab's ns-3 SCTP model, each giving a
  :class:`Trace`; the quick and full scenario sets. This is what the ``sctp_validation``
  study's cached run step executes.
* :mod:`~transportlab.validation.comparison`: completion times, retransmissions by kind and
  cwnd trajectories compared; :data:`DIFFERENCES` names the ways usrsctp departs from RFC
  9260, each with a detector that confirms it from the traces; the summary row of a scenario,
  tables and plots (analysis, outside the cache key).

Everything is re-exported here. Pure Python at import time: ns-3 loads in ``run_model``.
"""

from transportlab.validation.comparison import *  # noqa: F403
from transportlab.validation.stacks import *  # noqa: F403
