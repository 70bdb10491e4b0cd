"""Message interleaving: head-of-line blocking between messages (issue 29).

Not a seed's study. Small periodic messages (100-byte control or voice messages, one
every 20 ms) share one transport with large messages (256 KB by default, 64 KB to 1 MB
in the size sweep) on a point-to-point path with a bottleneck::

    sender --- 100 Mb/s, 1 ms --- router --- 10 Mb/s, 20 ms --- receiver
                                   DropTail queues (100 packets), no queueing discipline

and, for the lossy path, a packet error rate on the bottleneck's receiving interface
(RateErrorModel). The large messages are offered at 80 % of the bottleneck rate.

The transports: one SCTP association with the small messages on stream 1 and the large
ones on stream 0, with DATA chunks or with I-DATA negotiated (SctpSocket
IDataSupported on both ends), under each stream scheduler of RFC 8260 section 3
(SctpSocket StreamScheduler: FCFS, round robin, round robin per packet, priority, fair
capacity, weighted fair queueing); TCP with one connection for both (head-of-line
blocking by construction: one byte stream) and with one connection per kind of
message. Measured: the latency of every small message from the moment the sending
application produces it to the moment the receiving application has all of it.

With DATA chunks a message's fragments take consecutive TSNs (RFC 9260 6.9), so a
scheduler decides only between whole messages; I-DATA (RFC 8260 2.1) lets fragments of
messages on different streams interleave. The I-DATA points run whatever this build's
model sends once I-DATA is negotiated: the ``sending`` table counts the DATA chunks, so
the study shows whether the association interleaved.

Files, the shape every study has (docs/architecture.md, "A study"): ``parameters.py``
(parameters, the message schedule), ``scenario.py`` (``run``: ns-3 with the
``ns3::ScheduledMessageSender`` of ``src/transfer`` and ns-3's PacketSink, cached),
``analysis.py`` (per-message latency, head-of-line blocking; not cached),
``comparison.py`` (libdatachannel's published I-DATA benchmark beside our ratios),
``reproduction.py`` (experiments, tables, figures) and this ``__init__.py`` (``STUDY``).
Its tests: ``tests/studies/test_message_interleaving.py``.
"""

from transportlab.engine.study import Study
from transportlab.ns3.runtime import NS3
from transportlab.studies.message_interleaving.analysis import analyse
from transportlab.studies.message_interleaving.parameters import PARAMETERS
from transportlab.studies.message_interleaving.reproduction import REPRODUCTION
from transportlab.studies.message_interleaving.scenario import run

STUDY = Study(
    name="message_interleaving",
    title="Head-of-line blocking between messages: SCTP DATA and I-DATA with each stream "
    "scheduler against TCP",
    seed_files=(),
    notebook="07_message_interleaving.ipynb",
    parameters=PARAMETERS,
    run=run,
    analyse=analyse,
    reproduction=REPRODUCTION,
    description="Small periodic messages sharing an SCTP association or a TCP connection "
    "with large messages: their latency per stream scheduler, DATA against I-DATA, and TCP "
    "with one connection or one per kind of message.",
    tags=("sctp", "tcp", "streams", "rfc8260"),
    runtime=NS3,
)
