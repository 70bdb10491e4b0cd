"""NS-2 trace files as pandas DataFrames, read in chunks.

Two formats (NS-2 manual, "Trace and Monitoring Support" and "The new trace format"):

* **wired** (``$ns trace-all`` / ``trace-queue`` on links), one line per packet event on a
  link: ``event time from to type size flags fid src.port dst.port seq uid``. With
  ``Trace set show_tcphdr_ 1`` TCP lines carry ``ackno tcpflags hlen sa_length`` after
  the uid (16 fields); with ``Trace set show_sctphdr_ 1`` an SCTP packet is written as
  one line per chunk, ``... src.port dst.port chunks tsn uid stream ssn`` (15 fields) and
  the 8th flag character names the chunk (``I`` handshake, ``D`` DATA, ``S`` SACK,
  ``H``/``B`` HEARTBEAT/-ACK, ``R`` FORWARD-TSN, ``N`` NR-SACK). The field count tells
  the layouts apart, so one file may mix them (``trace/trace.cc``, ``Trace::format``).
* **wireless, new format** (``$ns use-newtrace``): ``event -key value -key value ...``,
  e.g. ``-t`` time, ``-Ni`` node, ``-Nl`` level (AGT, RTR, MAC, IFQ), ``-Nw`` drop
  reason, ``-It`` packet type, ``-Il`` size, ``-Ii`` uid, ``-Is``/``-Id`` source and
  destination ``node.port``. Keys are found wherever they are on the line.

Both readers take a path or an open text stream, read ``chunksize`` lines at a time and
keep only the rows ``where(chunk)`` selects, so a large trace never sits in memory
whole: select early (a node, a level, a packet type) and keep the columns you need.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Mapping
from os import PathLike
from typing import IO

import numpy as np
import pandas as pd

__all__ = [
    "NEW_TRACE_FIELDS",
    "WIRED_COLUMNS",
    "read_wired",
    "read_wireless",
    "split_address",
]

Where = Callable[[pd.DataFrame], "pd.Series | np.ndarray"]

DEFAULT_CHUNKSIZE = 500_000
_WIRED_MAX_FIELDS = 16
WIRED_COLUMNS = [
    "event", "time", "from_node", "to_node", "type", "size", "flags", "flow_id",
    "src_node", "src_port", "dst_node", "dst_port", "seq", "uid",
    # SCTP with show_sctphdr_ (else -1): chunks in the packet, TSN, stream, stream seq no
    "chunks", "tsn", "stream", "ssn",
    # TCP with show_tcphdr_ (else -1)
    "ackno", "tcp_flags", "hlen",
]  # fmt: skip
_INTEGER_COLUMNS = [c for c in WIRED_COLUMNS if c not in ("event", "time", "type", "flags")]

#: Keys of the new trace format read by default -> column name (NS-2 manual, section
#: "The new trace format"). Pass your own mapping to :func:`read_wireless` for others
#: (``"Ps": "seq"`` TCP sequence number, ``"Pa": "ack"``, ``"Pi": "seq"`` of a CBR...).
NEW_TRACE_FIELDS = {
    "t": "time",
    "Ni": "node",
    "Nl": "level",
    "Nw": "reason",
    "It": "type",
    "Il": "size",
    "If": "flow_id",
    "Ii": "uid",
    "Is": "src",
    "Id": "dst",
}
_FLOAT_KEYS = {"t", "Nx", "Ny", "Nz", "Ne", "Pl"}
_INTEGER_KEYS = {"Hs", "Hd", "Ni", "Il", "If", "Ii", "Iv", "Ps", "Pa", "Pi", "Pf", "Po", "Ph", "Pd"}
_ADDRESS_KEYS = {"Is", "Id"}
_WIRELESS_MAX_TOKENS = 96


def split_address(addresses: pd.Series) -> tuple[pd.Series, pd.Series]:
    """``node.port`` strings -> (node, port) as integers (``-1.255`` -> -1, 255).

    A trace has few distinct addresses (one per agent): each is split once.
    """
    codes, distinct = pd.factorize(addresses, use_na_sentinel=False)
    nodes = np.empty(len(distinct), dtype=np.int64)
    ports = np.empty(len(distinct), dtype=np.int64)
    for i, address in enumerate(distinct):
        node, dot, port = str(address).rpartition(".")
        try:
            nodes[i], ports[i] = int(node), int(port)
        except ValueError:
            dot = ""
        if not dot:
            raise ValueError(f"not a flat NS-2 address node.port: {address!r}")
    index = addresses.index
    return pd.Series(nodes[codes], index=index), pd.Series(ports[codes], index=index)


def _chunks(source, **read_csv) -> pd.io.parsers.TextFileReader:
    return pd.read_csv(
        source,
        sep=r"\s+",
        header=None,
        engine="c",
        quoting=csv.QUOTE_NONE,
        comment=None,
        **read_csv,
    )


def _select(frame: pd.DataFrame, where: Where | None) -> pd.DataFrame:
    if where is None:
        return frame
    mask = np.asarray(where(frame), dtype=bool)
    if mask.shape != (len(frame),):
        raise ValueError("where() must return one boolean per row")
    return frame[mask]


def _wired_chunk(raw: pd.DataFrame) -> pd.DataFrame:
    n_fields = raw.notna().sum(axis=1).to_numpy()
    odd = ~np.isin(n_fields, (12, 15, 16))
    if odd.any():
        line = " ".join(str(v) for v in raw[odd].iloc[0].dropna())
        raise ValueError(f"not a wired NS-2 trace line ({n_fields[odd][0]} fields): {line!r}")
    sctp = n_fields == 15
    tcp = n_fields == 16
    frame = pd.DataFrame(
        {
            "event": raw[0].astype(str).to_numpy(),
            "time": raw[1].astype(float).to_numpy(),
            "from_node": raw[2].to_numpy(),
            "to_node": raw[3].to_numpy(),
            "type": raw[4].astype(str).to_numpy(),
            "size": raw[5].to_numpy(),
            "flags": raw[6].astype(str).to_numpy(),
            "flow_id": raw[7].to_numpy(),
        },
        index=raw.index,
    )
    frame["src_node"], frame["src_port"] = split_address(raw[8])
    frame["dst_node"], frame["dst_port"] = split_address(raw[9])
    f10, f11, f12 = (raw[i].to_numpy(dtype=float) for i in (10, 11, 12))
    f13, f14, f15 = (raw[i].to_numpy(dtype=float) for i in (13, 14, 15))
    frame["seq"] = np.where(sctp, -1, f10)
    frame["uid"] = np.where(sctp, f12, f11)
    frame["chunks"] = np.where(sctp, f10, -1)
    frame["tsn"] = np.where(sctp, f11, -1)
    frame["stream"] = np.where(sctp, f13, -1)
    frame["ssn"] = np.where(sctp, f14, -1)
    frame["ackno"] = np.where(tcp, f12, -1)
    frame["tcp_flags"] = np.where(tcp, f13, -1)
    frame["hlen"] = np.where(tcp, f14, -1)
    del f15  # sa_length: not kept
    for column in _INTEGER_COLUMNS:
        frame[column] = frame[column].astype(np.int64)
    return frame[WIRED_COLUMNS]


def read_wired(
    source: str | PathLike[str] | IO[str],
    *,
    where: Where | None = None,
    columns: list[str] | None = None,
    chunksize: int = DEFAULT_CHUNKSIZE,
) -> pd.DataFrame:
    """A wired NS-2 trace as a DataFrame (:data:`WIRED_COLUMNS`), in trace order.

    ``where(chunk)`` returns a boolean mask over a parsed chunk (all columns): only
    those rows are kept. ``columns`` keeps only these columns. The flag ``0x..`` TCP
    flags column is read as a hexadecimal number.
    """
    names = list(range(_WIRED_MAX_FIELDS))
    dtype = {0: str, 1: float, 2: np.int64, 3: np.int64, 4: str, 5: np.int64, 6: str,
             7: np.int64, 8: str, 9: str}  # fmt: skip
    converters = {13: _hex_or_number}
    parts = []
    reader = _chunks(source, names=names, dtype=dtype, converters=converters, chunksize=chunksize)
    with reader:
        try:
            for raw in reader:
                for column in (10, 11, 12, 14, 15):
                    raw[column] = pd.to_numeric(raw[column], errors="raise")
                frame = _select(_wired_chunk(raw), where)
                parts.append(frame[columns] if columns else frame)
        except (ValueError, pd.errors.ParserError) as exc:
            if str(exc).startswith("not a wired NS-2 trace"):
                raise
            raise ValueError(f"not a wired NS-2 trace: {exc}") from None
    if not parts:
        empty = pd.DataFrame({c: pd.Series(dtype=_wired_dtype(c)) for c in WIRED_COLUMNS})
        return empty[columns] if columns else empty
    frame = pd.concat(parts, ignore_index=True)
    return _categorise(frame, ("event", "type"))


def _hex_or_number(text: str) -> float:
    if not text:
        return np.nan
    return float(int(text, 16)) if text.startswith("0x") else float(text)


def _wired_dtype(column: str):
    if column == "time":
        return float
    if column in ("event", "type", "flags"):
        return object
    return np.int64


def _categorise(frame: pd.DataFrame, names) -> pd.DataFrame:
    for name in names:
        if name in frame.columns:
            frame[name] = frame[name].astype("category")
    return frame


def _pair_values(tokens: pd.DataFrame, key: str) -> np.ndarray:
    """The value after token ``-key`` on each line (NaN where the line has no such key)."""
    wanted = f"-{key}"
    values = np.full(len(tokens), np.nan, dtype=object)
    missing = np.ones(len(tokens), dtype=bool)
    last = tokens.shape[1] - 1
    for position in range(1, last, 2):
        hit = missing & (tokens[position].to_numpy() == wanted)
        if hit.any():
            values[hit] = tokens[position + 1].to_numpy()[hit]
            missing &= ~hit
            if not missing.any():
                break
    return values


def _typed(key: str, values: np.ndarray) -> pd.Series:
    series = pd.Series(values)
    if key in _FLOAT_KEYS:
        return pd.to_numeric(series, errors="raise").astype(float)
    if key in _INTEGER_KEYS:
        numbers = pd.to_numeric(series, errors="raise")
        return numbers.astype("Int64") if numbers.isna().any() else numbers.astype(np.int64)
    return series


def read_wireless(
    source: str | PathLike[str] | IO[str],
    *,
    fields: Mapping[str, str] | None = None,
    where: Where | None = None,
    chunksize: int = DEFAULT_CHUNKSIZE,
) -> pd.DataFrame:
    """A wireless trace in NS-2's new format (``$ns use-newtrace``) as a DataFrame.

    One row per line: ``event`` (``s`` send, ``r`` receive, ``d`` drop, ``f``
    forward...) and one column per key of ``fields`` (default
    :data:`NEW_TRACE_FIELDS`: ``-t`` -> ``time``, ``-Ni`` -> ``node``...), typed (times
    and positions float, ids and sizes int; a key missing on some lines gives a nullable
    integer or NaN); an address key (``-Is``, ``-Id``) gives ``<name>_node`` and
    ``<name>_port``. Lines without ``-t`` (old-format movement lines) are skipped.
    ``where(chunk)`` selects rows of each parsed chunk.
    """
    fields = dict(NEW_TRACE_FIELDS if fields is None else fields)
    if "t" not in fields:
        fields["t"] = "time"
    names = list(range(_WIRELESS_MAX_TOKENS))
    parts = []
    reader = _chunks(source, names=names, dtype=str, chunksize=chunksize)
    with reader:
        for tokens in reader:
            tagged = tokens[1].to_numpy() == "-t"
            tokens = tokens[tagged].reset_index(drop=True)
            frame = pd.DataFrame({"event": tokens[0].to_numpy()})
            for key, name in fields.items():
                values = _pair_values(tokens, key)
                if key in _ADDRESS_KEYS:
                    present = pd.Series(values).notna()
                    if not present.all():
                        values = np.where(present, values, "-1.-1")
                    frame[f"{name}_node"], frame[f"{name}_port"] = split_address(pd.Series(values))
                else:
                    frame[name] = _typed(key, values)
            parts.append(_select(frame, where))
    if not parts:
        return pd.DataFrame(columns=["event", *fields.values()])
    return _categorise(pd.concat(parts, ignore_index=True), ("event", "level", "type", "reason"))
