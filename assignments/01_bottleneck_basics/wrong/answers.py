"""A deliberately wrong submission of assignment 1 (graded by tests/test_assignments.py).

Every question holds a typical mistake; each costs exactly the marks of the hidden
checks it breaks, and each shows the student either a failed public check with its
hint or "format checked; graded later", never "passed":

* q1: forgets the TCP timestamp option and the PPP header (``tcp_wire_bytes`` 1040, -1;
  a public check catches it); the UDP part is right.
* q2: carries that mistake on: 961.5 kb/s instead of 948.8 (-1).
* q3: the goodput of the overloaded flow without headers, 1000 kb/s (-1; a public check
  catches it); the delay is right.
* q4: reads the *mean* delay of the overloaded flow instead of its largest (-1).
* q5: leaves the jitter in seconds (-2; a public check catches it).
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
overload_goodput_kbps = 1000.0
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
overload_jitter_ms = metrics.rfc3550_jitter(received["delay"])
""",
    "q6": """
q6_answer = "a"
""",
}

#: The score each question must get (hidden checks included), and the total.
EXPECTED = {"q1": 2, "q2": 0, "q3": 1, "q4": 2, "q5": 0, "q6": 0, "total": 5}

#: The questions whose public checks catch the mistake (the others say "graded later").
CAUGHT_IN_PUBLIC = {"q1", "q3", "q5"}
