"""A deliberately wrong submission of assignment 1 (graded by tests/test_assignments.py).

Typical mistakes, each costing exactly the marks of the hidden checks it breaks:

* q1: forgets the TCP timestamp option (a 20-byte TCP header): ``tcp_wire_bytes``
  is 1040 (-1); the UDP part is right.
* q2: carries that mistake on: 961.5 kb/s instead of 948.8 (-1).
* q3: right.
* q4: reads the *mean* delay of the overloaded flow instead of its largest (-1).
* q5: right.
* q6: blames retransmissions (-1).
"""

ANSWERS = {
    "q1": """
udp_wire_bytes = 1000 + 8 + 20 + 2
tcp_wire_bytes = 1000 + 20 + 20
bits = udp_wire_bytes * 8
udp_delay_ms = (bits / 10e6 + 2e-3 + bits / 1e6 + 20e-3) * 1e3
""",
    "q2": """
tcp_goodput_bound_kbps = 1e6 * 1000 / tcp_wire_bytes / 1e3
""",
    "q3": """
overload_delay_ms = udp_delay_ms + 50 * bits / 1e6 * 1e3
overload_goodput_kbps = 1000 * 1000 / udp_wire_bytes
""",
    "q4": """
udp = summary[(summary["protocol"] == "udp") & (summary["udp_rate_mbps"] == 0.5)]
over = summary[(summary["protocol"] == "udp") & (summary["udp_rate_mbps"] == 1.5)]
measured_udp_delay_ms = float(udp["delay_mean_s"].iloc[0]) * 1000
tcp = summary[summary["protocol"] == "tcp"]
measured_tcp_goodput_kbps = float(tcp["goodput_bps"].iloc[0]) / 1000
measured_overload_delay_ms = float(over["delay_mean_s"].iloc[0]) * 1000
""",
    "q5": """
received = packets[(packets["udp_rate_mbps"] == 1.5) & (packets["protocol"] == "udp")
                   & (packets["event"] == "received")]
overload_jitter_ms = metrics.rfc3550_jitter(received["delay"]) * 1000
""",
    "q6": """
q6_answer = "a"
""",
}

#: The score each question must get (hidden checks included), and the total.
EXPECTED = {"q1": 2, "q2": 0, "q3": 2, "q4": 2, "q5": 2, "q6": 0, "total": 8}
