"""A deliberately wrong submission of assignment 2 (graded by tests/test_assignments.py).

Every question holds a typical mistake; each costs exactly the marks of the hidden
checks it breaks, and each shows the student either a failed public check with its
hint or "format checked; graded later", never "passed":

* q1: forgets the CBR flows' share: 100 kb/s per FTP flow (-2; a public check catches it).
* q2: divides SCTP's counted bytes by its NS-2 packet size instead of its data bytes
  (1000/1500, -1).
* q3: the median instead of the mean AWK throughput (-1); the goodput column is right.
* q4: Jain's index over all ten flows, CBR included (-2).
* q5: the jitter means over all flows, CBR included (-1).
* q6: blames SCTP's losses (-1).
"""

ANSWERS = {
    "q1": """
ftp_wire_share_kbps = 500 / 5
""",
    "q2": """
sctp_awk_share = 1000 / 1500
tcp_awk_share = 1000 / 1000
""",
    "q3": """
ftp = flows[flows["application"] == "ftp"]
ftp_means = pd.DataFrame({
    "goodput_kbps": ftp.groupby("protocol")["goodput_kbps"].mean(),
    "awk_throughput_kbps": ftp.groupby("protocol")["awk_throughput_kbps"].median(),
})
""",
    "q4": """
jain_by_run = flows.groupby(["protocol", "run"])["goodput_kbps"].apply(metrics.jain_index)
""",
    "q5": """
jitter_means = flows.groupby("protocol")[["awk_jitter_ms", "rfc3550_jitter_ms"]].mean()
""",
    "q6": """
q6_answer = "c"
""",
}

#: The score each question must get (hidden checks included), and the total.
EXPECTED = {"q1": 0, "q2": 0, "q3": 2, "q4": 0, "q5": 0, "q6": 0, "total": 2}

#: The questions whose public checks catch the mistake (the others say "graded later").
CAUGHT_IN_PUBLIC = {"q1"}
