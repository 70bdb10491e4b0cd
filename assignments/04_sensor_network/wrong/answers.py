"""A deliberately wrong submission of assignment 4 (graded by tests/test_assignments.py).

* q1: counts bytes, not bits, in the offered load (-1); the idle energy is right.
* q2: right table, but the offered load comes from q1's mistake (-1).
* q3: routing packets per *sent* report instead of per delivered one. Since the WSN model
  follows NS-2 (issue 13: two-way links only, CBR from the start), every report of the
  assignment's quick-mode points is delivered, so sent == delivered and the hidden test
  cannot tell the two definitions apart: no mark is lost (a known weakness of q3).
* q4: right.
* q5: the excess in joules, not as a fraction of the idle energy (-1).
* q6: a valid sweep of one point, but the claimed value is typed in, not read from
  the sweep's table (-1).
"""

ANSWERS = {
    "q1": """
def offered_kbps(interval_s):
    return 11 * 256 / interval_s / 1e3


idle_energy_j = 3.0 * 0.010 * 20.0
""",
    "q2": """
rows = summary[summary["protocol"] == "udp"]
udp = rows.set_index("reporting_interval")[["throughput_kbps", "energy_per_node_j",
                                            "routing_load"]].copy()
udp["offered_kbps"] = [offered_kbps(i) for i in udp.index]
""",
    "q3": """
my_routing_load = summary["routing_packets"] / summary["sent"]
""",
    "q4": """
q4_answer = "b"
""",
    "q5": """
energy_above_idle = float((udp["energy_per_node_j"] - idle_energy_j).max())
""",
    "q6": """
DESIGN_POINTS = [{"protocol": "udp", "reporting_interval": 10.0}]
design_summary = execute.run(STUDY, DESIGN_POINTS, runs=1, quick=True)["summary"]
design_metric = "routing_load"
design_choice = 0
design_value = 1.0
""",
}

#: The score each question must get (hidden checks included), and the total.
EXPECTED = {"q1": 1, "q2": 1, "q3": 1, "q4": 1, "q5": 0, "q6": 2, "total": 6}
