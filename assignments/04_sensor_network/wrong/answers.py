"""A deliberately wrong submission of assignment 4 (graded by tests/test_assignments.py).

Every question holds a typical mistake; each costs exactly the marks of the hidden
checks it breaks, and each shows the student either a failed public check with its
hint or "format checked; graded later", never "passed":

* q1: counts bytes, not bits, in the offered load (-1); the idle energy is right.
* q2: right table, but the offered load comes from q1's mistake (-1).
* q3: delivered reports per routing packet, the ratio upside down (-1). (Routing packets
  per *sent* report would not be told apart here: every report of the assignment's
  quick-mode points is delivered, so sent == delivered.)
* q4: believes longer intervals break AODV routes more often (-1).
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
my_routing_load = summary["delivered"] / summary["routing_packets"]
""",
    "q4": """
q4_answer = "a"
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
EXPECTED = {"q1": 1, "q2": 1, "q3": 0, "q4": 0, "q5": 0, "q6": 2, "total": 4}

#: The questions whose public checks catch the mistake (the others say "graded later").
CAUGHT_IN_PUBLIC = set()
