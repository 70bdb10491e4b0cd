# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#   kernelspec:
#     display_name: Python 3.11 (transportlab)
#     language: python
#     name: transportlab
# ---

# %% [raw]
# # ASSIGNMENT CONFIG
# name: multihoming_failover
# init_cell: true
# check_all_cell: false
# export_cell:
#   pdf: false
#   run_tests: false
# generate: true
# tests:
#   files: false
#   ok_format: true

# %% [markdown]
# # Assignment 3: SCTP multi-homing and failover
#
# **Time:** one lab session (about 75 minutes). The two simulations take about ten
# seconds on a Binder instance.
#
# **Learning objectives.** After this assignment you can
#
# 1. derive from RFC 9260's timer rules (RTO.Min, RTO.Max, Path.Max.Retrans, the
#    doubling of the RTO at each T3-rtx expiry) when a multi-homed SCTP sender declares
#    its primary path unreachable;
# 2. predict the delivery stalls that exponential back-off causes, and measure them;
# 3. read a chunk trace (the lab's SCTP recorder table: every DATA chunk with its time,
#    TSN, path and whether it is a retransmission) to see *where* retransmissions go;
# 4. choose timer values for an application that cannot wait.
#
# **What is graded** (9 points, autograded): questions 1-6. `grader.check("qN")` runs
# the public checks; hidden checks grade the values (your function is called with other
# arguments too; measured values are recomputed from your own tables).
#
# The scenario is the study `multihoming_failover` (`scenario="failover"`,
# `topology="two_networks"`): hosts A and B each have two addresses on two independent
# 10 Mb/s links with 10 ms of delay (the RTT, 20 ms, is far below RTO.Min, so the RTO
# is RTO.Min when the failure happens). A sends a 1000-byte message every 10 ms to B's
# primary address. At 5 s the cable of the primary link is pulled; IP does not notice.
#
# **The rules** (RFC 9260 sections 6.3.3 and 8.2): when the T3-rtx timer expires, the
# RTO doubles (at most RTO.Max = 60 s) and the outstanding data is retransmitted, to
# an alternate address if there is one (section 6.4). The timer runs from the oldest
# outstanding chunk, so its first expiry comes at most one RTO after the failure. After
# Path.Max.Retrans + 1 consecutive expiries on the primary, it is marked inactive
# (unreachable) and new data goes to the secondary.

# %%
# Run this cell first.
import pandas as pd
from transportlab.engine import execute
from transportlab.studies.multihoming_failover import STUDY

pd.set_option("display.width", 120)

# %% [raw]
# # BEGIN QUESTION
# name: q1
# points: [0, 1, 1]

# %% [markdown]
# **Question 1 (2 points).** Write `failover_bounds(pmr, rto, rto_max=60.0)`: the
# earliest and the latest time after the failure, in seconds, at which the primary is
# marked unreachable, for Path.Max.Retrans `pmr` and an RTO of `rto` at the failure.
# Return a tuple `(earliest, latest)`.

# %% [raw]
# # BEGIN SOLUTION


# %%
def failover_bounds(pmr, rto, rto_max=60.0):
    # BEGIN SOLUTION
    backoffs = [min(rto * 2**i, rto_max) for i in range(pmr + 1)]
    return sum(backoffs[1:]), sum(backoffs)
    # END SOLUTION


failover_bounds(3, 1.0)

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
_low, _high = failover_bounds(3, 1.0)
assert 0 < _low <= _high

# %%
# HIDDEN
assert all(
    abs(a - b) < 1e-9
    for args, want in [((3, 1.0), (14.0, 15.0)), ((2, 0.5), (3.0, 3.5)), ((1, 0.2), (0.4, 0.6))]
    for a, b in zip(failover_bounds(*args), want, strict=True)
)

# %%
# HIDDEN
_got = failover_bounds(5, 3.0, 10.0)
assert abs(_got[0] - 46.0) < 1e-9 and abs(_got[1] - 49.0) < 1e-9

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q2
# points: [0, 1]

# %% [markdown]
# **Question 2 (1 point): a prediction.** With Path.Max.Retrans = 3 and RTO.Min = 1 s,
# B receives nothing for a while after each T3-rtx expiry. How long, in seconds, is the
# *longest* gap between deliveries before the primary is declared unreachable? Set
# `predicted_longest_stall_s`.

# %% [raw]
# # BEGIN SOLUTION

# %%
predicted_longest_stall_s = 8.0  # SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert 0 < predicted_longest_stall_s < 60

# %%
# HIDDEN
assert abs(predicted_longest_stall_s - 8.0) < 0.5

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# ## The simulation
#
# Two points: Path.Max.Retrans 3 with RTO.Min 1 s, and Path.Max.Retrans 2 with
# RTO.Min 0.5 s (RTO.Initial 1 s, HB.interval 30 s), each run until 2 s after the
# latest failover the RFC allows. Do not change this cell: the grader reads its tables.
#
# * `summary`: one row per point: `failover_s` (failure -> primary unreachable),
#   `resume_s` (failure -> next delivery at B), `max_stall_s`, `retransmissions`, ...
# * `stalls`: every delivery gap longer than 0.2 s after the failure (`begin`, `end`,
#   `length`).
# * `paths`: A's path events (`time`, `path` 0 = primary, 1 = secondary, `event`).
# * `chunks`: the **chunk trace**: every chunk A and B sent (`node` 0 is A), with
#   `time`, `chunk` (here DATA), `tsn`, `path` and `retransmission`. It is one of the raw
#   tables of the study's run step (`analyse=False`); the same simulations, from the
#   cache.

# %%
POINTS = [
    {"scenario": "failover", "topology": "two_networks", "path_max_retrans": pmr,
     "rto_min": rto_min, "rto_initial": 1.0, "duration": duration}
    for pmr, rto_min, duration in [(3, 1.0, 22.0), (2, 0.5, 12.0)]
]  # fmt: skip
tables = execute.run(STUDY, POINTS, runs=1, quick=True)
summary, stalls, paths = tables["summary"], tables["stalls"], tables["paths"]
chunks = execute.run(STUDY, POINTS, runs=1, quick=True, analyse=False)["chunks"]
summary[["path_max_retrans", "rto_min", "failover_s", "resume_s", "max_stall_s"]]

# %% [raw]
# # BEGIN QUESTION
# name: q3
# points: [0, 1, 1]

# %% [markdown]
# **Question 3 (2 points).** Read the measured failover time of each point from
# `summary`: a dict `measured_failover_s` mapping Path.Max.Retrans (3 and 2) to
# seconds. Does each lie inside the window your `failover_bounds` gives?

# %% [raw]
# # BEGIN SOLUTION

# %%
measured_failover_s = summary.set_index("path_max_retrans")["failover_s"].to_dict()  # SOLUTION
measured_failover_s

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert set(measured_failover_s) == {2, 3}

# %%
# HIDDEN
_s = summary.set_index("path_max_retrans")["failover_s"]
assert all(abs(measured_failover_s[k] - _s[k]) < 1e-9 for k in (2, 3))

# %%
# HIDDEN
assert 14.0 - 0.05 <= measured_failover_s[3] <= 15.0 + 0.05
assert 3.0 - 0.05 <= measured_failover_s[2] <= 3.5 + 0.05

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q4
# points: [0, 1, 1]

# %% [markdown]
# **Question 4 (2 points): the chunk trace.** For the point with Path.Max.Retrans 3,
# find in `chunks` the first DATA chunk A (`node == 0`) *retransmitted* after the
# failure: set `first_rtx_time_s` (its time, in seconds of simulated time) and
# `first_rtx_path` (the path it was sent on). Compare the time with the failure (5 s)
# and RTO.Min, and the path with the primary (0).

# %% [raw]
# # BEGIN SOLUTION

# %%
# BEGIN SOLUTION
mine = chunks[(chunks["path_max_retrans"] == 3) & (chunks["node"] == 0)]
rtx = mine[mine["retransmission"] & (mine["time"] > 5.0)].sort_values("time")
# END SOLUTION
first_rtx_time_s = float(rtx["time"].iloc[0])  # SOLUTION
first_rtx_path = int(rtx["path"].iloc[0])  # SOLUTION
first_rtx_time_s, first_rtx_path

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert 5.0 < first_rtx_time_s < 22.0 and first_rtx_path in (0, 1)

# %%
# HIDDEN
_c = chunks[(chunks["path_max_retrans"] == 3) & (chunks["node"] == 0)]
_r = _c[_c["retransmission"] & (_c["time"] > 5.0)].sort_values("time")
assert abs(first_rtx_time_s - float(_r["time"].iloc[0])) < 1e-9
assert abs(first_rtx_time_s - 6.0) < 0.1

# %%
# HIDDEN
assert first_rtx_path == 1

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q5
# points: [0, 1]

# %% [markdown]
# **Question 5 (1 point).** Delivery at B resumes about one RTO after the failure
# (`resume_s`), long before the primary is declared unreachable (`failover_s`). Why?
# Set `q5_answer` to one letter:
#
# * **a** heartbeats detect the failure within one RTO;
# * **b** each T3-rtx expiry retransmits the outstanding data to the alternate address,
#   which works, while new data still goes to the dead primary until it is declared
#   unreachable: delivery goes on in bursts, one per expiry;
# * **c** IP routes the packets around the failed link;
# * **d** B asks A for the missing data on the secondary path.

# %% [raw]
# # BEGIN SOLUTION

# %%
q5_answer = "b"  # SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert q5_answer in ("a", "b", "c", "d")

# %%
# HIDDEN
assert q5_answer == "b"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q6
# points: [0, 1]

# %% [markdown]
# **Question 6 (1 point): design.** A telephony application can accept at most 1 s
# between a failure and the switch to the secondary path. With RTO.Min = 0.2 s (and an
# RTO of 0.2 s at the failure), what is the *largest* Path.Max.Retrans that still
# guarantees it? (A larger value tolerates more transient losses.) Set
# `largest_pmr`; use your `failover_bounds`.

# %% [raw]
# # BEGIN SOLUTION

# %%
largest_pmr = max(p for p in range(1, 10) if failover_bounds(p, 0.2)[1] <= 1.0)  # SOLUTION
largest_pmr

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert isinstance(largest_pmr, int) and largest_pmr >= 0

# %%
# HIDDEN
assert largest_pmr == 1

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# ## Going further (not graded)
#
# Run the same failover with `rtx_to_alt="SAME"` (retransmissions stay on the primary,
# one of NS-2's options) and compare `resume_s` and `stalls`; or plug the cable back
# (`repair_at`) and measure when the primary returns (`return_s`) against HB.interval.
#
# ## Submitting
#
# Save the notebook and hand in the `.ipynb` file (or the zip the cell below makes).
