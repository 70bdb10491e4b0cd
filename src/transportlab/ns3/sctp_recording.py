"""What SCTP associations did, as pandas DataFrames (``ns3::SctpEventRecorder``).

Four tables, read once after the run:

* ``chunks``: every chunk sent (or only DATA and I-DATA), with the destination (path) it went to
  and whether it was a retransmission: TSN-versus-time plots per path;
* ``paths``: path events (a destination becoming potentially failed (RFC 7829),
  unreachable or available again, confirmed, made primary, chosen for new data):
  failover and return times;
* ``delivered``: messages handed to the receiving application's queue;
* ``abandoned``: messages PR-SCTP gave up.

``node`` is the tag given to :meth:`SctpRecorder.watch_node`, ``socket`` the socket's
ordinal on that node (0 = the first socket created there, e.g. the listening one).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from transportlab.ns3 import native
from transportlab.ns3.recording import vector_array

#: ns3::SctpPathEvent names, by value.
PATH_EVENTS = (
    "AVAILABLE",
    "UNREACHABLE",
    "CONFIRMED",
    "MADE_PRIMARY",
    "DATA_PATH",
    "POTENTIALLY_FAILED",
)
#: ns3::SctpPrPolicy names, by value.
PR_POLICIES = ("NONE", "TTL", "RTX", "PRIORITY")
#: SCTP chunk type names (RFC 9260, RFC 3758, RFC 8260).
CHUNK_TYPES = {
    0: "DATA",
    1: "INIT",
    2: "INIT_ACK",
    3: "SACK",
    4: "HEARTBEAT",
    5: "HEARTBEAT_ACK",
    6: "ABORT",
    7: "SHUTDOWN",
    8: "SHUTDOWN_ACK",
    9: "ERROR",
    10: "COOKIE_ECHO",
    11: "COOKIE_ACK",
    14: "SHUTDOWN_COMPLETE",
    64: "I_DATA",
    192: "FORWARD_TSN",
    194: "I_FORWARD_TSN",
}


def _ns():
    return native.load()  # ns-3, loaded on first use


def _names(codes: np.ndarray, table) -> np.ndarray:
    lookup = table if isinstance(table, dict) else dict(enumerate(table))
    return np.array([lookup.get(int(c), str(int(c))) for c in codes], dtype=object)


class SctpRecorder:
    """Records SCTP chunk, path, delivery and abandonment events of watched nodes."""

    def __init__(self, data_chunks_only: bool = False) -> None:
        ns = _ns()
        self._recorder = ns.CreateObject[ns.SctpEventRecorder]()
        self._recorder.SetDataChunksOnly(bool(data_chunks_only))

    @property
    def native(self):
        return self._recorder

    def watch_node(self, node, tag: int) -> None:
        """Watch every SCTP socket created on ``node`` from now on."""
        if not self._recorder.WatchNode(node, int(tag)):
            raise ValueError("the node has no SCTP stack (SctpStackHelper.Install first)")

    def chunks(self) -> pd.DataFrame:
        r = self._recorder
        types = vector_array(r.GetChunkTypes(), np.uint8)
        return pd.DataFrame(
            {
                "time": vector_array(r.GetChunkTimesNs(), np.int64) / 1e9,
                "node": vector_array(r.GetChunkNodes(), np.uint32).astype(np.int64),
                "socket": vector_array(r.GetChunkSockets(), np.uint32).astype(np.int64),
                "chunk": _names(types, CHUNK_TYPES),
                "tsn": vector_array(r.GetChunkTsns(), np.uint32).astype(np.int64),
                "path": vector_array(r.GetChunkPaths(), np.uint32).astype(np.int64),
                "retransmission": vector_array(r.GetChunkRetransmissions(), np.uint8).astype(bool),
            }
        )

    def paths(self) -> pd.DataFrame:
        r = self._recorder
        return pd.DataFrame(
            {
                "time": vector_array(r.GetPathTimesNs(), np.int64) / 1e9,
                "node": vector_array(r.GetPathNodes(), np.uint32).astype(np.int64),
                "socket": vector_array(r.GetPathSockets(), np.uint32).astype(np.int64),
                "path": vector_array(r.GetPathIndices(), np.uint32).astype(np.int64),
                "event": _names(vector_array(r.GetPathEvents(), np.uint8), PATH_EVENTS),
            }
        )

    def delivered(self) -> pd.DataFrame:
        r = self._recorder
        return pd.DataFrame(
            {
                "time": vector_array(r.GetDeliverTimesNs(), np.int64) / 1e9,
                "node": vector_array(r.GetDeliverNodes(), np.uint32).astype(np.int64),
                "socket": vector_array(r.GetDeliverSockets(), np.uint32).astype(np.int64),
                "tsn": vector_array(r.GetDeliverTsns(), np.uint32).astype(np.int64),
                "stream": vector_array(r.GetDeliverStreams(), np.uint16).astype(np.int64),
                "ssn": vector_array(r.GetDeliverSsns(), np.uint16).astype(np.int64),
                "size": vector_array(r.GetDeliverSizes(), np.uint32).astype(np.int64),
            }
        )

    def abandoned(self) -> pd.DataFrame:
        r = self._recorder
        return pd.DataFrame(
            {
                "time": vector_array(r.GetAbandonTimesNs(), np.int64) / 1e9,
                "node": vector_array(r.GetAbandonNodes(), np.uint32).astype(np.int64),
                "socket": vector_array(r.GetAbandonSockets(), np.uint32).astype(np.int64),
                "stream": vector_array(r.GetAbandonStreams(), np.uint16).astype(np.int64),
                "ssn": vector_array(r.GetAbandonSsns(), np.uint16).astype(np.int64),
                "first_tsn": vector_array(r.GetAbandonTsns(), np.uint32).astype(np.int64),
                "size": vector_array(r.GetAbandonSizes(), np.uint32).astype(np.int64),
                "policy": _names(vector_array(r.GetAbandonPolicies(), np.uint8), PR_POLICIES),
            }
        )
