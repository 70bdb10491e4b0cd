"""Selected lines of a wireless NS-2 trace (new format) as one typed table.

A wireless trace is mostly receptions: every neighbour's MAC and routing agent trace
every broadcast they hear. An analysis wants a few kinds of line (the MAC's sends, its
collision or retry-limit drops, an agent's receptions...), so :func:`read_lines` tests
each raw line with a cheap text predicate first and parses only those kept, with
:func:`transportlab.ns2.traces.read_wireless` (every key wherever it stands on the line,
typed columns, in trace order).

The MAC fields of a line are NS-2's ``hdr_mac802_11`` as ``cmu-trace.cc`` writes them, in
hexadecimal: ``-Ma`` the frame's duration field (zero for an ACK and a broadcast),
``-Md``/``-Ms`` the receiver and transmitter addresses (a node's id; ``ffffffff``
broadcast; a CTS or ACK has no transmitter address and reads 0), ``-Mt`` the ethertype
(``800`` IP, ``806`` ARP, 0 a control frame). :func:`hex_numbers` reads them.

This module is not imported by any NS-2 run step, so changing it moves no cached NS-2
run's key (:mod:`transportlab.engine.fingerprint`).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from os import PathLike
from pathlib import Path
from typing import IO

import numpy as np
import pandas as pd

from transportlab.ns2 import traces

__all__ = ["MAC_FIELDS", "TEXT_COLUMNS", "broadcast_or_node", "hex_numbers", "read_lines"]

#: the keys of a MAC line and of the IP header its frame carries -> column names (the
#: names :data:`traces.NEW_TRACE_FIELDS` gives the keys it has): time, node, trace level
#: (``MAC``, ``RTR``, ``AGT``, ``IFQ``), drop reason (``COL`` collision, ``RET`` retry
#: limit...), MAC duration, receiver, transmitter, ethertype, IP packet type, size, uid,
#: source and destination (``src_node``/``src_port``...) and the ``-P`` tag (``arp``,
#: ``aodv``...)
MAC_FIELDS = {
    "t": "time", "Ni": "node", "Nl": "level", "Nw": "reason", "Ma": "duration",
    "Md": "mac_dst", "Ms": "mac_src", "Mt": "ether_type", "It": "type", "Il": "size",
    "Ii": "uid", "Is": "src", "Id": "dst", "P": "tag",
}  # fmt: skip
#: the columns :func:`read_lines` gives as strings rather than categories (NaN where a
#: line lacks the key), for comparisons with ``==``
TEXT_COLUMNS = ("event", "level", "reason", "type", "tag")
#: NS-2's broadcast MAC address (MAC_BROADCAST, ``-Md ffffffff``)
BROADCAST = 0xFFFFFFFF

LineTest = Callable[[str], bool]


def _kept(stream: IO[str], keep: LineTest) -> io.StringIO:
    kept = io.StringIO()
    kept.writelines(line for line in stream if keep(line))
    kept.seek(0)
    return kept


def read_lines(
    source: str | PathLike[str] | IO[str],
    keep: LineTest,
    fields: Mapping[str, str] = MAC_FIELDS,
) -> pd.DataFrame:
    """The lines of a new-format wireless trace (a path or a text stream) for which
    ``keep(line)`` holds, as :func:`traces.read_wireless` reads them with ``fields``
    (default :data:`MAC_FIELDS`), in trace order, with :data:`TEXT_COLUMNS` as strings.

    ``keep`` sees the raw text (``line[:1]`` is the event, ``"-Nl MAC" in line`` the
    level...): the test that spares parsing the lines not wanted. The MAC address and
    duration columns stay hexadecimal text (:func:`hex_numbers`)."""
    if isinstance(source, str | PathLike):
        with open(Path(source)) as stream:
            kept = _kept(stream, keep)
    else:
        kept = _kept(source, keep)
    lines = traces.read_wireless(kept, fields=fields)
    for column in TEXT_COLUMNS:
        if column in lines:
            lines[column] = lines[column].astype(str)
    return lines


def hex_numbers(values: pd.Series) -> np.ndarray:
    """Hexadecimal MAC fields (``-Ma``, ``-Md``, ``-Ms``, ``-Mt``) as integers; -1 where a
    line has none. A trace has few distinct values: each is read once."""
    codes, distinct = pd.factorize(values)
    numbers = np.array([int(v, 16) for v in distinct] + [-1], dtype=np.int64)
    return numbers[codes]  # code -1 (missing) picks the last, -1


def broadcast_or_node(values: pd.Series) -> np.ndarray:
    """MAC addresses (``-Md``, ``-Ms``) as node ids, -1 for the broadcast address or none."""
    numbers = hex_numbers(values)
    return np.where(numbers == BROADCAST, -1, numbers)
