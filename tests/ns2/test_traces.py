"""NS-2 trace readers against hand-made trace lines and hand-computed tables."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from transportlab.ns2 import tcl, traces

# Normal wired lines (12 fields), a TCP line with show_tcphdr_ (16), SCTP lines with
# show_sctphdr_ (15: two chunks of one packet, uid 16, then a SACK).
WIRED = """\
+ 10 2 0 tcp 40 ------- 0 2.0 12.0 0 0
- 10 2 0 tcp 40 ------- 0 2.0 12.0 0 0
r 10.14128 1 12 tcp 1040 ------- 0 2.0 12.0 1 2
d 21.78968 0 1 cbr 1000 ------- 0 7.0 17.0 12 717
r 10.45584 12 1 ack 40 ------- 0 12.0 2.0 1 3 1 0x10 40 0
+ 10.849472 2 0 sctp 576 -------D 0 2.0 12.0 2 1 16 0 0
+ 10.849472 2 0 sctp 576 -------D 0 2.0 12.0 2 2 16 0 1
r 10.9 12 1 sctp 48 -------S 0 12.0 2.0 1 -1 17 65535 65535
"""


def test_wired_lines_into_columns():
    frame = traces.read_wired(io.StringIO(WIRED))
    assert list(frame.columns) == traces.WIRED_COLUMNS
    assert list(frame["event"].astype(str)) == ["+", "-", "r", "d", "r", "+", "+", "r"]
    assert frame["time"].tolist() == [10, 10, 10.14128, 21.78968, 10.45584, 10.849472,
                                      10.849472, 10.9]  # fmt: skip
    assert frame.loc[2, ["from_node", "to_node", "size", "flow_id"]].tolist() == [1, 12, 1040, 0]
    assert frame.loc[3, ["src_node", "src_port", "dst_node", "dst_port"]].tolist() == [7, 0, 17, 0]
    # normal lines: seq and uid in fields 11 and 12
    assert frame.loc[3, ["seq", "uid", "tsn", "ackno"]].tolist() == [12, 717, -1, -1]
    # show_tcphdr_: ackno, flags (hex) and header length after the uid
    assert frame.loc[4, ["seq", "uid", "ackno", "tcp_flags", "hlen"]].tolist() == [1, 3, 1, 16, 40]
    # show_sctphdr_: chunks, TSN, uid, stream, stream sequence number; no seq
    sctp = frame.loc[5:6, ["seq", "chunks", "tsn", "uid", "stream", "ssn"]]
    assert sctp.to_numpy().tolist() == [[-1, 2, 1, 16, 0, 0], [-1, 2, 2, 16, 0, 1]]
    assert frame.loc[7, ["tsn", "uid"]].tolist() == [-1, 17]
    assert frame.loc[7, "flags"] == "-------S"
    assert all(frame[c].dtype == np.int64 for c in ("size", "uid", "tsn", "src_node"))


def test_wired_where_and_columns_in_small_chunks():
    frame = traces.read_wired(
        io.StringIO(WIRED),
        where=lambda chunk: chunk["event"] == "r",
        columns=["time", "to_node", "uid"],
        chunksize=3,
    )
    expected = pd.DataFrame({"time": [10.14128, 10.45584, 10.9], "to_node": [12, 1, 1],
                             "uid": [2, 3, 17]})  # fmt: skip
    pd.testing.assert_frame_equal(frame, expected)


def test_wired_nothing_selected_gives_typed_empty_frame():
    frame = traces.read_wired(io.StringIO(WIRED), where=lambda chunk: chunk["size"] > 10_000)
    assert len(frame) == 0 and list(frame.columns) == traces.WIRED_COLUMNS
    assert frame["uid"].dtype == np.int64


def test_wired_rejects_another_format():
    with pytest.raises(ValueError, match="not a wired NS-2 trace"):
        traces.read_wired(
            io.StringIO("s 1.0 _0_ AGT --- 0 cbr 256 [0 0 0 0] ------- [0:0 1:0 32 0]\n")
        )


# New wireless format: an AGT send, a RTR forward with a TCP header (-P tcp), an AODV
# broadcast (-Id -1.255, extra -P fields), a drop with reason, and an old-format
# movement line that has no -t (skipped).
WIRELESS = (
    "s -t 1.000000000 -Hs 0 -Hd -2 -Ni 0 -Nx 10.00 -Ny 10.00 -Nz 0.00 -Ne -1.000000 "
    "-Nl AGT -Nw --- -Ma 0 -Md 0 -Ms 0 -Mt 0 -Is 0.0 -Id 1.0 -It cbr -Il 256 -If 0 "
    "-Ii 0 -Iv 32 -Pn cbr -Pi 0 -Pf 0 -Po 0 \n"
    "f -t 1.201920900 -Hs 1 -Hd 2 -Ni 1 -Nx 100.00 -Ny 10.00 -Nz 0.00 -Ne 9.500000 "
    "-Nl RTR -Nw --- -Ma 13a -Md 1 -Ms 0 -Mt 800 -Is 0.1 -Id 2.0 -It tcp -Il 1040 -If "
    "0 -Ii 7 -Iv 30 -Pn tcp -Ps 4 -Pa 0 -Pf 1 -Po 0 \n"
    "s -t 1.000988300 -Hs 1 -Hd -2 -Ni 1 -Nx 100.00 -Ny 10.00 -Nz 0.00 -Ne -1.000000 "
    "-Nl RTR -Nw --- -Ma 0 -Md 0 -Ms 0 -Mt 0 -Is 1.255 -Id -1.255 -It AODV -Il 48 -If "
    "0 -Ii 3 -Iv 30 -P aodv -Pt 0x2 -Ph 1 -Pb 1 -Pd 1 -Pds 0 -Ps 0 -Pss 4 -Pc REQUEST "
    "\n"
    "M 2.0 0 (10.00, 10.00, 0.00), (20.00, 10.00), 1.00\n"
    "d -t 2.500000000 -Hs 1 -Hd 2 -Ni 1 -Nx 100.00 -Ny 10.00 -Nz 0.00 -Ne -1.000000 "
    "-Nl IFQ -Nw IFQ -Ma 0 -Md 0 -Ms 0 -Mt 0 -Is 0.0 -Id 1.0 -It cbr -Il 276 -If 0 "
    "-Ii 9 -Iv 30 -Pn cbr -Pi 4 -Pf 0 -Po 0 \n"
)


def test_wireless_keys_into_typed_columns():
    frame = traces.read_wireless(io.StringIO(WIRELESS))
    assert list(frame["event"].astype(str)) == ["s", "f", "s", "d"]
    assert frame["time"].tolist() == [1.0, 1.2019209, 1.0009883, 2.5]
    assert frame["node"].tolist() == [0, 1, 1, 1]
    assert list(frame["level"].astype(str)) == ["AGT", "RTR", "RTR", "IFQ"]
    assert list(frame["reason"].astype(str)) == ["---", "---", "---", "IFQ"]
    assert list(frame["type"].astype(str)) == ["cbr", "tcp", "AODV", "cbr"]
    assert frame["size"].tolist() == [256, 1040, 48, 276]
    assert frame["uid"].tolist() == [0, 7, 3, 9]
    sources = frame[["src_node", "src_port"]].to_numpy().tolist()
    destinations = frame[["dst_node", "dst_port"]].to_numpy().tolist()
    assert sources == [[0, 0], [0, 1], [1, 255], [0, 0]]
    assert destinations == [[1, 0], [2, 0], [-1, 255], [1, 0]]
    assert frame["size"].dtype == np.int64 and frame["time"].dtype == float


def test_wireless_other_keys_and_a_key_missing_on_some_lines():
    frame = traces.read_wireless(
        io.StringIO(WIRELESS),
        fields={"Ps": "tcp_seq", "Pc": "aodv", "Ne": "energy"},
        where=lambda chunk: chunk["event"] != "d",
    )
    assert frame["tcp_seq"].tolist()[1] == 4 and frame["tcp_seq"].isna().tolist() == [
        True, False, False]  # fmt: skip
    # -Ps is also AODV's source sequence number: the key is found on that line too
    assert frame["tcp_seq"].tolist()[2] == 0
    assert frame["aodv"].tolist()[2] == "REQUEST" and pd.isna(frame["aodv"].tolist()[0])
    assert frame["energy"].tolist() == [-1.0, 9.5, -1.0]


def test_split_address():
    nodes, ports = traces.split_address(pd.Series(["2.0", "12.1", "-1.255", "2.0"]))
    assert nodes.tolist() == [2, 12, -1, 2] and ports.tolist() == [0, 1, 255, 0]
    with pytest.raises(ValueError, match="node.port"):
        traces.split_address(pd.Series(["2"]))


def test_tcl_numbers_and_units():
    assert tcl.number(0.1) == "0.1" and tcl.number(1000) == "1000"
    assert float(tcl.number(1 / 3)) == 1 / 3
    assert tcl.bandwidth(0.5) == "0.5Mb" and tcl.delay(10) == "10.0ms"
    assert tcl.parse_bandwidth("0.5Mb") == 500_000 and tcl.parse_bandwidth("448Kb") == 448_000
    assert tcl.parse_bandwidth("1MB") == 8e6 and tcl.parse_bandwidth("2e6") == 2e6
    assert tcl.parse_time("64us") == pytest.approx(64e-6) and tcl.parse_time("0.2") == 0.2
    with pytest.raises(ValueError):
        tcl.parse_bandwidth("fast")
    with pytest.raises(ValueError):
        tcl.bandwidth(0)
    with pytest.raises(ValueError, match="run"):
        tcl.seed_rng(1, 0)
