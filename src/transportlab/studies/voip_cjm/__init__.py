"""Voice over SCTP, TCP and UDP with a chunk-based jitter-management playout buffer (seed 001).

Seed ``001_8dea97bcf2df26a4.txt`` sends voice for 15 minutes over SCTP and TCP
in NS-2, across "two topologies" shown only as figures, stores the packets in a
receive buffer of 100 chunks x 50 packets x 576 bytes and plays them out with
its Chunk-based Jitter Management (CJM) algorithm. It reports packets received
per second (SCTP 2400, TCP 2200), maximum voice delay (SCTP 150 ms, TCP 180 ms)
and jitter (SCTP 30 ms, TCP almost 35 ms).

Our reading of each gap (every alternative is a parameter):

* Codec and packetisation: G.711 (64 kb/s), one 20 ms frame per packet:
  160 bytes of speech + 12 bytes (the size of an RTP header; our 14-byte
  call/sequence/timestamp header lives inside those 172 bytes) per message.
* "Packets received per second" as load: 2400 packets/s = 48 calls x 50
  frames/s, so 48 simultaneous one-way calls (continuous speech, no silence
  suppression; talkspurts are an option).
* "At most 576 bytes per packet": every link has an MTU of 576 bytes, so TCP
  segments (MSS 536, no options) and SCTP packets are never larger.
* Topology 1 ("homogeneous network ... where all available associations may
  experience different propagation delays", Fig. 1): a dumbbell, one sender
  and one receiver host per call, identical links, the access links of call i
  with a propagation delay spread evenly between a minimum and a maximum, so
  every association sees a different round-trip time; one shared bottleneck.
* Topology 2 (Fig. 2, "architecture of the proposed system": sender, network,
  receiver buffer, CJM, playout): a trunk, all calls between one sender host
  and one receiver host (two VoIP gateways) across the same bottleneck; the
  set-up in which calls can share one SCTP association, one stream per call.
* No cross traffic and no random loss by default (the seed mentions none);
  both are parameters.
* The playout buffer runs at the receiver on the recorded arrival times:
  CJM, a fixed playout delay and Ramjee et al.'s adaptive algorithm 1 on the
  very same frames (:mod:`transportlab.models.playout`), rated with the G.107 E-model.

Files: ``parameters.py`` (declared parameters, sizes, timing), ``scenario.py``
(``run``: the ns-3 network and the voice gateways of :mod:`.voice_gateways`;
cached), ``analysis.py`` (``analyse``: playout, E-model and pooling from
:mod:`.voice_quality`, hand calculation; not cached), ``comparison.py`` (the seed's
numbers against experiment ``main``), ``reproduction.py`` (the experiments of notebook
02, tables and figures).
"""

from transportlab.engine.study import Study
from transportlab.ns3.runtime import NS3
from transportlab.studies.voip_cjm.analysis import analyse
from transportlab.studies.voip_cjm.parameters import PARAMETERS, SEED_FILE
from transportlab.studies.voip_cjm.reproduction import REPRODUCTION
from transportlab.studies.voip_cjm.scenario import run

STUDY = Study(
    name="voip_cjm",
    title="Voice over SCTP, TCP and UDP with chunk-based jitter management (seed 001)",
    seed_files=(SEED_FILE,),
    notebook="02_voip_cjm.ipynb",
    parameters=PARAMETERS,
    run=run,
    analyse=analyse,
    reproduction=REPRODUCTION,
    description=(
        "48 G.711 calls (2400 frames/s) for 15 minutes over a shared 5 Mb/s link; "
        "CJM, fixed and adaptive playout on the same arrivals; G.107 R and MOS."
    ),
    tags=("voip", "playout", "sctp", "tcp", "udp"),
    runtime=NS3,
)
