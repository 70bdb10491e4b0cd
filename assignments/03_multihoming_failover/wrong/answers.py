"""A deliberately wrong submission of assignment 3 (graded by tests/test_assignments.py).

Every question holds a typical mistake; each costs exactly the marks of the hidden
checks it breaks, and each shows the student either a failed public check with its
hint or "format checked; graded later", never "passed":

* q1: no exponential back-off (the RTO stays the same at every expiry) (-2; a public
  check catches it).
* q2: takes the whole failover window for the longest stall (-1).
* q3: reads resume_s (the next delivery) instead of failover_s (-2).
* q4: looks for the first retransmission in both points' chunks: its time is the
  Path.Max.Retrans 2 point's (-1); the path is right.
* q5: believes heartbeats detect the failure (-1).
* q6: follows from q1's mistake (-1).
"""

ANSWERS = {
    "q1": """
def failover_bounds(pmr, rto, rto_max=60.0):
    return pmr * rto, (pmr + 1) * rto
""",
    "q2": """
predicted_longest_stall_s = 15.0
""",
    "q3": """
measured_failover_s = {int(k): float(v) for k, v in
                       summary.set_index("path_max_retrans")["resume_s"].items()}
""",
    "q4": """
a = chunks[chunks["node"] == 0]
rtx = a[a["retransmission"]].sort_values("time")
first_rtx_time_s = float(rtx["time"].iloc[0])
first_rtx_path = int(rtx["path"].iloc[0])
""",
    "q5": """
q5_answer = "a"
""",
    "q6": """
largest_pmr = max(p for p in range(1, 10) if failover_bounds(p, 0.2)[1] <= 1.0)
""",
}

#: The score each question must get (hidden checks included), and the total.
EXPECTED = {"q1": 0, "q2": 0, "q3": 0, "q4": 1, "q5": 0, "q6": 0, "total": 1}

#: The questions whose public checks catch the mistake (the others say "graded later").
CAUGHT_IN_PUBLIC = {"q1"}
