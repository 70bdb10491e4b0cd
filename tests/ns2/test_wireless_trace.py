"""The wireless trace's selected lines against a hand-written excerpt of NS-2.35's new
format (the field layout of cmu-trace.cc: node, MAC, IP, then the ARP/AODV/CBR part)."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd

from transportlab.ns2 import wireless_trace

_NODE = "-Nx 10.00 -Ny 20.00 -Nz 0.00 -Ne 999999.900000"
# Node 3 sends a report (uid 42) to node 26 (0x1a) with RTS/CTS/DATA/ACK after an ARP
# request; node 12 (0xc) broadcasts a RREQ that node 17 loses in a collision and node 5
# receives at its routing agent; node 9 broadcasts a RERR; node 3 gives the report up at
# the retry limit. The MAC receptions (``r ... -Nl MAC``) are what a MAC filter leaves out.
EXCERPT = "".join(f"{line}\n" for line in [
    f"s -t 1.900000000 -Hs 3 -Hd -2 -Ni 3 {_NODE} -Nl MAC -Nw --- -Ma 0 -Md ffffffff -Ms 3 "
    "-Mt 806 -P arp -Po REQUEST -Pms 3 -Ps 3 -Pmd 0 -Pd 26",
    f"s -t 2.000000000 -Hs 3 -Hd -2 -Ni 3 {_NODE} -Nl MAC -Nw --- -Ma 52e -Md 1a -Ms 3 -Mt 0",
    f"r -t 2.000352000 -Hs 26 -Hd -2 -Ni 26 {_NODE} -Nl MAC -Nw --- -Ma 52e -Md 1a -Ms 3 -Mt 0",
    f"s -t 2.000400000 -Hs 26 -Hd -2 -Ni 26 {_NODE} -Nl MAC -Nw --- -Ma 3f4 -Md 3 -Ms 0 -Mt 0",
    f"s -t 2.000800000 -Hs 3 -Hd 26 -Ni 3 {_NODE} -Nl MAC -Nw --- -Ma 13a -Md 1a -Ms 3 -Mt 800 "
    "-Is 3.0 -Id 0.5 -It cbr -Il 276 -If 0 -Ii 42 -Iv 30 -Pn cbr -Pi 7 -Pf 0 -Po 0",
    f"s -t 2.003300000 -Hs 26 -Hd -2 -Ni 26 {_NODE} -Nl MAC -Nw --- -Ma 0 -Md 3 -Ms 0 -Mt 0",
    f"s -t 2.100000000 -Hs 12 -Hd -2 -Ni 12 {_NODE} -Nl MAC -Nw --- -Ma 0 -Md ffffffff -Ms c "
    "-Mt 800 -Is 12.255 -Id -1.255 -It AODV -Il 48 -If 0 -Ii 0 -Iv 30 -P aodv -Pt 0x2 -Ph 1 "
    "-Pb 4 -Pd 0 -Pds 0 -Ps 12 -Pss 6 -Pc REQUEST",
    f"d -t 2.100300000 -Hs 17 -Hd -2 -Ni 17 {_NODE} -Nl MAC -Nw COL -Ma 0 -Md ffffffff -Ms c "
    "-Mt 800 -Is 12.255 -Id -1.255 -It AODV -Il 48 -If 0 -Ii 0 -Iv 30 -P aodv -Pt 0x2 -Ph 1 "
    "-Pb 4 -Pd 0 -Pds 0 -Ps 12 -Pss 6 -Pc REQUEST",
    f"r -t 2.100400000 -Hs 5 -Hd -2 -Ni 5 {_NODE} -Nl RTR -Nw --- -Ma 0 -Md ffffffff -Ms c "
    "-Mt 800 -Is 12.255 -Id -1.255 -It AODV -Il 48 -If 0 -Ii 0 -Iv 30 -P aodv -Pt 0x2 -Ph 1 "
    "-Pb 4 -Pd 0 -Pds 0 -Ps 12 -Pss 6 -Pc REQUEST",
    f"s -t 2.200000000 -Hs 9 -Hd 0 -Ni 9 {_NODE} -Nl MAC -Nw --- -Ma 0 -Md ffffffff -Ms 9 "
    "-Mt 800 -Is 9.255 -Id -1.255 -It AODV -Il 32 -If 0 -Ii 0 -Iv 1 -P aodv -Pt 0x8 -Ph 1 "
    "-Pd 0 -Pds 0 -Pl 0.000000 -Pc ERROR",
    f"d -t 2.300000000 -Hs 3 -Hd 26 -Ni 3 {_NODE} -Nl MAC -Nw RET -Ma 13a -Md 1a -Ms 3 -Mt 800 "
    "-Is 3.0 -Id 0.5 -It cbr -Il 276 -If 0 -Ii 42 -Iv 29 -Pn cbr -Pi 7 -Pf 0 -Po 0",
])  # fmt: skip


def _mac_send_or_drop(line: str) -> bool:
    return "-Nl MAC" in line and line[:1] in ("s", "d")


def _mac_lines() -> pd.DataFrame:
    return wireless_trace.read_lines(io.StringIO(EXCERPT), _mac_send_or_drop)


def test_only_the_lines_the_test_keeps_are_read_in_trace_order():
    lines = _mac_lines()
    # ARP, RTS, CTS, DATA, ACK, RREQ, COL, RERR, RET: the two receptions are left out
    assert lines["time"].tolist() == [1.9, 2.0, 2.0004, 2.0008, 2.0033, 2.1, 2.1003, 2.2, 2.3]
    assert lines["event"].tolist() == ["s"] * 6 + ["d", "s", "d"]
    assert lines["node"].tolist() == [3, 3, 26, 3, 26, 12, 17, 9, 3]
    assert set(lines["level"]) == {"MAC"}
    assert lines["reason"].tolist() == ["---"] * 6 + ["COL", "---", "RET"]


def test_columns_are_typed_and_nan_where_a_line_lacks_the_key():
    lines = _mac_lines()
    assert lines["time"].dtype == np.float64 and lines["node"].dtype == np.int64
    # the IP header: only the DATA, RREQ, RERR and RET lines carry one
    assert lines["type"].fillna("-").tolist() == ["-", "-", "-", "cbr", "-", "AODV", "AODV",
                                                  "AODV", "cbr"]  # fmt: skip
    assert lines["size"].astype("float").fillna(-1).tolist() == [-1, -1, -1, 276, -1, 48, 48,
                                                                 32, 276]  # fmt: skip
    assert lines.loc[3, ["uid", "src_node", "src_port", "dst_node", "dst_port"]].tolist() == [
        42,
        3,
        0,
        0,
        5,
    ]
    assert lines.loc[5, ["src_node", "src_port", "dst_node", "dst_port"]].tolist() == [
        12,
        255,
        -1,
        255,
    ]
    assert lines["tag"].fillna("-").tolist() == ["arp", "-", "-", "-", "-", "aodv", "aodv",
                                                 "aodv", "-"]  # fmt: skip


def test_mac_fields_are_read_as_hexadecimal_numbers():
    lines = _mac_lines()
    # RTS 0x52e = 1326 us, CTS 0x3f4 = 1012 us, DATA 0x13a = 314 us, ACK and broadcasts 0
    assert wireless_trace.hex_numbers(lines["duration"]).tolist() == [0, 1326, 1012, 314, 0,
                                                                      0, 0, 0, 314]  # fmt: skip
    # a CTS or ACK carries no transmitter address: 0; node 12's RREQ reads 0xc
    assert wireless_trace.hex_numbers(lines["mac_src"]).tolist() == [3, 3, 0, 3, 0, 12, 12,
                                                                     9, 3]  # fmt: skip
    assert wireless_trace.hex_numbers(lines["ether_type"]).tolist() == [0x806, 0, 0, 0x800, 0,
                                                                        0x800, 0x800, 0x800,
                                                                        0x800]  # fmt: skip
    assert wireless_trace.hex_numbers(lines["mac_dst"])[0] == 0xFFFFFFFF
    to = wireless_trace.broadcast_or_node(lines["mac_dst"])
    assert to.tolist() == [-1, 26, 3, 26, 3, -1, -1, -1, 26]
    # a missing field reads -1
    missing = pd.Series(["1a", np.nan, None, "ffffffff"], dtype=object)
    assert wireless_trace.hex_numbers(missing).tolist() == [26, -1, -1, 0xFFFFFFFF]
    assert wireless_trace.broadcast_or_node(missing).tolist() == [26, -1, -1, -1]


def test_other_keys_and_levels_and_a_path_as_the_source(tmp_path):
    path = tmp_path / "wsn.tr"
    path.write_text(EXCERPT)
    fields = {"t": "time", "Ni": "node", "Nl": "level", "Ms": "mac_src", "It": "type",
              "Pc": "aodv_message", "Pb": "broadcast_id", "Ps": "origin",
              "Pi": "cbr_seq"}  # fmt: skip
    lines = wireless_trace.read_lines(path, lambda line: line[:1] == "r", fields)
    assert lines["level"].tolist() == ["MAC", "RTR"]
    assert lines["node"].tolist() == [26, 5]
    rreq = lines.iloc[1]
    assert (rreq["aodv_message"], rreq["broadcast_id"], rreq["origin"]) == ("REQUEST", "4", 12)
    assert wireless_trace.hex_numbers(lines["mac_src"]).tolist() == [3, 12]
    assert lines["cbr_seq"].isna().all()


def test_a_test_that_keeps_nothing_gives_an_empty_table():
    lines = wireless_trace.read_lines(io.StringIO(EXCERPT), lambda line: False)
    assert lines.empty and "time" in lines.columns
