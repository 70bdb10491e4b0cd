"""Study: SCTP vs TCP with UDP cross traffic on a wired best-effort dumbbell (seeds 000, 004).

Both seeds describe one NS-2 experiment; seed 004 (Appendix A) gives its Tcl
scripts, which we follow where the text disagrees::

    sources 2..11 --1 Mb/s, 10 ms-- router 0 ==0.5 Mb/s, 100 ms== router 1 --1 Mb/s, 30 ms-- 12..21

* Node numbers are NS-2's: routers 0 and 1, sources 2-11, sinks 12-21, pair
  ``k`` is source ``2+k`` -> sink ``12+k``. ns-3 gives the nodes the same ids.
* Pairs 2-12 ... 6-16 carry FTP (infinite backlog: BulkSend) over TCP or SCTP,
  starting at 10, 15, 15, 20, 20 s; pairs 7-17 ... 11-21 carry CBR over UDP,
  1000-byte packets at 0.01 Mb/s (one every 0.8 s), starting at 30, 35, 30,
  40, 50 s. The run ends at 1000 s.
* The bottleneck is ``0.5Mb``: 500 000 bit/s in NS-2's units (the text says
  512 kb/s; the scripts say 0.5Mb). The texts give the start times in ms and
  the packets as "1000 kB at 1000 packets per second"; the scripts' seconds and
  ``rate_ 0.01Mb`` are what ran. The SCTP script also sets ``packetSize_``,
  ``rate_`` and ``random_`` on its FTP applications, which Application/FTP
  does not bind: they have no effect (the TCP script has them commented out).
* Every link is ``DropTail`` with NS-2's default ``limit_`` of 50 packets:
  49 waiting plus the one being transmitted (see :func:`queue_layout`,
  :mod:`transportlab.ns3.topology.dumbbell`).

ns-3 has no TCP Tahoe (NS-2's default ``Agent/TCP``; ``src/tcp-tahoe`` adds
it as ``TcpTahoe`` + ``TcpTahoeRecovery``) and no link-less packets;
``analysis.TCP_DIFFERENCES`` and ``analysis.packet_sizes`` state every
difference of the configuration, ``reproduction.PRESETS`` holds the modern
alternatives. SCTP comes
from ``src/sctp`` (``ns3::SctpSocketFactory``); the FTP flows reach their
transport only through its socket factory name, so every transport that
provides one plugs in here.

Measurements (``scenario.run``, cached): every data packet is recorded at its source
device (NS-2's ``+`` at the source node), on the bottleneck (``-``), when
dropped (``d``) and at the destination device (``r``), keyed by a
per-transmission number like NS-2's packet uid
(:class:`~transportlab.ns3.recording.PathRecorder`): what the AWK scripts of seed
004 Appendix B read from the trace file; the run also samples the sinks' byte
counters, the congestion windows and the bottleneck queue. ``analysis.analyse``
(not cached) turns them into the papers' metrics and standard ones per node pair
(``analysis.flow_metrics``).

Files: ``parameters.py`` (declared parameters, constants, node pairs),
``scenario.py`` (``run``: ns-3, cached), ``analysis.py`` (per-flow metrics,
summaries, descriptive tables; not cached), ``comparison.py`` (the seeds' tables
against the FTP pairs, the published values), ``reproduction.py`` (experiments,
tables, figures).
"""

from transportlab.engine.study import Study
from transportlab.ns3.runtime import NS3
from transportlab.studies.wired_best_effort.analysis import analyse
from transportlab.studies.wired_best_effort.parameters import PARAMETERS
from transportlab.studies.wired_best_effort.reproduction import REPRODUCTION
from transportlab.studies.wired_best_effort.scenario import run

STUDY = Study(
    name="wired_best_effort",
    title="SCTP vs TCP with UDP cross traffic on a wired best-effort dumbbell (NS-2)",
    seed_files=("000_efd8d8b62659a846.txt", "004_c8175ad9bda103cf.txt"),
    notebook="01_wired_best_effort.ipynb",
    parameters=PARAMETERS,
    run=run,
    analyse=analyse,
    reproduction=REPRODUCTION,
    description=(
        "22-node dumbbell, 0.5 Mb/s 100 ms bottleneck, DropTail 50; 5 FTP flows over TCP or "
        "SCTP and 5 CBR/UDP flows; per-pair throughput, delay and jitter in the AWK "
        "definitions of seed 004 and standard ones."
    ),
    tags=("wired", "sctp", "tcp", "udp", "ns2"),
    output_parameters=("pcap_prefix",),
    runtime=NS3,
)
