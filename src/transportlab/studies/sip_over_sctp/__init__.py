"""SIP over UDP, TCP and SCTP: transport throughput, transaction times, calls under loss,
and head-of-line blocking (seed 002, a 2003 project report: SIP over SCTP with Linphone
and Partysip on Linux, NIST Net loss).

One run simulates one replication of one of five scenarios, chosen by the
``scenario`` parameter:

``one_call``
    The SIP testbed (Figure 5.4 topology, :mod:`.testbed`) with one user agent per side:
    a1 registers, calls b1 through the proxy (answered at once), talks for a
    second and hangs up; every SIP message is recorded (and, with ``pcap_prefix``, the
    proxy's link is captured: :mod:`.wire` decodes it with tshark).
``throughput`` (seed Figure 5.2)
    Two hosts on a 100 Mb/s full-duplex link; a sender writes ``message_size``-byte
    messages as fast as the transport takes them (TCP and SCTP: ns-3 BulkSend, one
    message per send, TCP_NODELAY as ttcp -D; UDP: an OnOff source above the link
    rate, as a blocking ttcp -u sender keeps the interface busy); the receiver's goodput
    is measured after a warm-up. Messages above the MTU are fragmented by IP (UDP),
    segmented (TCP) or fragmented into DATA chunks (SCTP).
``single_session`` (seed section 5.3)
    One user agent per side and the proxy: registration (associations / connections
    not yet up, and a refresh once they are), one call set-up (answered
    ``answer_delay`` after 180 Ringing; the seed subtracted its manual answering time,
    so do we) and its termination. Optional processing times at the proxy and the user
    agents split the seed's numbers into protocol and testbed parts.
``multi_session`` (seed section 5.4, Table 5.3)
    ``n_pairs`` user agents on each side; each caller calls its callee back to back
    through the proxy; every packet crossing the router is dropped with probability
    ``loss_rate`` (from the first INVITE on: registrations happen loss-free). Counted:
    calls completed (INVITE and BYE both answered 200) within ``window`` seconds.
``hol`` (seed section 3.4, Rajamani et al.)
    ``objects`` transfers of ``object_size`` bytes at once over a lossy 10 Mb/s link,
    interleaved in ``record_size`` records, over one SCTP association with a stream per
    transfer, one association with one stream, one TCP connection, or one TCP
    connection per transfer; the completion time of each transfer.

Files: ``parameters.py`` (declared parameters, constants), ``scenario.py`` (``run``:
ns-3, raw recorder tables, cached), ``testbed.py`` (the SIP testbed in ns-3 and its
recorded tables, part of the run step), ``analysis.py`` (``analyse``: per-run metrics,
the header-overhead bound, the SCTP/UDP crossing; not cached), ``comparison.py`` (the
seed's numbers against ours), ``reproduction.py`` (the experiments of notebook 03,
tables, figures), ``wire.py`` (the pcap of one call, decoded by tshark).
"""

from transportlab.engine.study import Study
from transportlab.ns3.runtime import NS3
from transportlab.studies.sip_over_sctp.analysis import analyse
from transportlab.studies.sip_over_sctp.parameters import PARAMETERS
from transportlab.studies.sip_over_sctp.reproduction import REPRODUCTION
from transportlab.studies.sip_over_sctp.scenario import run

STUDY = Study(
    name="sip_over_sctp",
    title="SIP over UDP, TCP and SCTP: transaction times, calls under loss, multi-streaming",
    seed_files=("002_8ca3fd7f92b4e1a6.txt",),
    notebook="03_sip_over_sctp.ipynb",
    parameters=PARAMETERS,
    run=run,
    analyse=analyse,
    reproduction=REPRODUCTION,
    description="RFC 3261 user agents and a stateful proxy in ns-3 over UDP, TCP and SCTP: "
    "the seed's throughput, single-session and multi-session tests, and head-of-line "
    "blocking.",
    tags=("sip", "sctp", "tcp", "udp", "multistreaming"),
    output_parameters=("pcap_prefix",),
    runtime=NS3,
)
