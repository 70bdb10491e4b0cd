"""Example study: one TCP or UDP flow through a bottleneck, against a hand calculation.

Not a published study: it exercises the whole path (parameters, sweep, cache,
notebook, papermill, figure, comparison table) on a scenario small enough to be
checked by hand, and it is the template every study follows::

    source --- 10 Mb/s, 2 ms --- router --- 1 Mb/s, 20 ms --- sink
                                   DropTail queue (50 packets, NS-2's default limit)

One flow from source to sink: a UDP constant-bit-rate flow (OnOff with constant
on time) or a TCP bulk transfer (BulkSend), measured at the application
(:class:`~transportlab.ns3.recording.PacketRecorder`) and at IP (FlowMonitor). An
optional packet error rate on the bottleneck's receiving interface
(RateErrorModel, the only random element) makes replications differ.

Like NS-2's DropTail links, there is no queueing discipline (the ns-3 traffic
control layer is removed): the point-to-point device's DropTail queue is the
bottleneck queue.

Files, the shape every study has (docs/architecture.md, "A study"):
``parameters.py`` (declared parameters, packet sizes), ``scenario.py`` (``run``: ns-3,
cached), ``analysis.py`` (hand calculation, ``analyse``; not cached),
``comparison.py`` (the hand-calculated values against the runs: ``comparison.csv``),
``reproduction.py`` (the experiment, a table and the figure: ``REPRODUCTION``) and
this ``__init__.py`` (``STUDY``). Its tests: ``tests/studies/test_bottleneck_example.py``.
"""

from transportlab.engine.study import Study
from transportlab.ns3.runtime import NS3
from transportlab.studies.bottleneck_example.analysis import analyse
from transportlab.studies.bottleneck_example.parameters import PARAMETERS
from transportlab.studies.bottleneck_example.reproduction import REPRODUCTION
from transportlab.studies.bottleneck_example.scenario import run

STUDY = Study(
    name="bottleneck_example",
    title="Example: one TCP or UDP flow through a 1 Mb/s bottleneck, against a hand calculation",
    seed_files=(),
    notebook="00_bottleneck_example.ipynb",
    parameters=PARAMETERS,
    run=run,
    analyse=analyse,
    reproduction=REPRODUCTION,
    description="Two hosts and a router; checks delay and throughput against hand-computed "
    "values. Shows the whole path: notebook, sweep, papermill, figure, nbval.",
    tags=("example", "tcp", "udp"),
    runtime=NS3,
)
