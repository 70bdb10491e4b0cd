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
# name: sensor_network
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
# # Assignment 4: a wireless sensor network's reporting interval
#
# **Time:** one lab session (about 90 minutes). The four given simulations take about
# 20 s of CPU on a Binder instance; your own sweep in question 6 (at most three points)
# about as much again.
#
# **Learning objectives.** After this assignment you can
#
# 1. compute the load a sensor network offers and the energy its radios spend
#    listening, by hand;
# 2. measure throughput, energy and routing load per reporting interval, and relate the
#    routing overhead to what the routing protocol (AODV) does per second;
# 3. explain why a sensor node's energy hardly depends on how often it reports;
# 4. design one change (reporting interval, transport, number of reporting sensors) and
#    defend it with a small sweep of your own.
#
# **What is graded** (10 points): questions 1-6 are autograded (your values, functions
# and the consistency of your sweep with your claim). Your written defence in
# question 6 is read by your instructor.
#
# The scenario is the study `wsn_reporting_interval` (seed 003 of the lab) in quick
# mode: 56 nodes on an 800 m x 400 m field (a sink in the middle, seven gateway nodes
# with a longer range), 802.11 ad hoc with AODV routing and a two-ray ground model;
# every MICA2-like radio draws 10 mA at 3 V while listening or idle, 27 mA while
# sending. In quick mode **11 sensors** report, 256 application bytes per report, over
# 20 simulated seconds; each starts at a random time in its first interval.

# %%
# Run this cell first.
import pandas as pd
from transportlab.engine import execute, plan
from transportlab.studies.wsn_reporting_interval import STUDY

pd.set_option("display.width", 120)

# %% [raw]
# # BEGIN QUESTION
# name: q1
# points: [0, 1, 1]

# %% [markdown]
# **Question 1 (2 points).** Write `offered_kbps(interval_s)`: the application load, in
# kb/s, that the 11 reporting sensors offer the network when each sends one 256-byte
# report every `interval_s` seconds. Then set `idle_energy_j`: the energy, in joules, a
# node's radio spends in 20 s if it only listens the whole time.

# %% [raw]
# # BEGIN SOLUTION


# %%
def offered_kbps(interval_s):
    return 11 * 256 * 8 / interval_s / 1e3  # SOLUTION


idle_energy_j = 3.0 * 0.010 * 20.0  # SOLUTION
offered_kbps(1.0), idle_energy_j

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert offered_kbps(1.0) > offered_kbps(5.0) > 0 and idle_energy_j > 0

# %%
# HIDDEN
assert abs(offered_kbps(1.0) - 22.528) < 0.01 and abs(offered_kbps(4.0) - 5.632) < 0.01

# %%
# HIDDEN
assert abs(idle_energy_j - 0.6) < 1e-6

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# ## The simulation
#
# UDP reports every 1, 5 and 10 s, and TCP reports every 5 s; one replication each
# (ns-3 RngRun 1). Do not change this cell: the grader reads its table. `summary` has
# one row per simulation: the parameters, then `sent`, `delivered`, `delivery_ratio`,
# `throughput_kbps` (application bytes at the sink over the run), `mean_delay_ms`,
# `energy_per_node_j`, `routing_packets` (AODV packets sent by the MAC),
# `routing_load` (routing packets per delivered report), `mac_load` (MAC frames per
# delivered report), ...

# %%
POINTS = [{"protocol": "udp", "reporting_interval": i} for i in (1.0, 5.0, 10.0)]
POINTS.append({"protocol": "tcp", "reporting_interval": 5.0})
summary = execute.run(STUDY, POINTS, runs=1, quick=True)["summary"]
SHOWN = ["protocol", "reporting_interval", "delivered", "throughput_kbps", "energy_per_node_j"]
summary[SHOWN + ["routing_packets", "routing_load"]]

# %% [raw]
# # BEGIN QUESTION
# name: q2
# points: [0, 1, 1]

# %% [markdown]
# **Question 2 (2 points).** Make `udp`: the UDP rows of `summary` as a DataFrame indexed
# by `reporting_interval`, with the columns `throughput_kbps`, `energy_per_node_j` and
# `routing_load`, and add a column `offered_kbps` from your function. How close is the
# measured throughput to the offered load?

# %% [raw]
# # BEGIN SOLUTION

# %%
# BEGIN SOLUTION
udp = summary[summary["protocol"] == "udp"].set_index("reporting_interval")[
    ["throughput_kbps", "energy_per_node_j", "routing_load"]
]
udp["offered_kbps"] = [offered_kbps(i) for i in udp.index]
# END SOLUTION
udp

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert isinstance(udp, pd.DataFrame) and sorted(udp.index) == [1.0, 5.0, 10.0]

# %%
# HIDDEN
_u = summary[summary["protocol"] == "udp"].set_index("reporting_interval")
for _c in ("throughput_kbps", "energy_per_node_j", "routing_load"):
    assert all(abs(udp.loc[i, _c] - _u.loc[i, _c]) < 1e-9 for i in (1.0, 5.0, 10.0)), _c

# %%
# HIDDEN
assert all(abs(udp.loc[i, "offered_kbps"] - 22.528 / i) < 0.01 for i in (1.0, 5.0, 10.0))

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q3
# points: [0, 1]

# %% [markdown]
# **Question 3 (1 point).** Check the definition of `routing_load` yourself: compute
# routing packets per delivered report for every row of `summary`, as a Series
# `my_routing_load` (same index as `summary`).

# %% [raw]
# # BEGIN SOLUTION

# %%
my_routing_load = summary["routing_packets"] / summary["delivered"]  # SOLUTION
my_routing_load

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert len(my_routing_load) == len(summary)

# %%
# HIDDEN
assert ((my_routing_load - summary["routing_load"]).abs() < 1e-9).all()

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q4
# points: [0, 1]

# %% [markdown]
# **Question 4 (1 point).** The routing load grows as the reporting interval grows. Why?
# Set `q4_answer` to one letter:
#
# * **a** longer intervals make AODV routes break more often, so each report needs more
#   route requests;
# * **b** AODV spends a roughly constant number of packets per second on finding and
#   keeping routes (route requests flood the network, routes expire), while fewer
#   reports are delivered, so the overhead per delivered report grows;
# * **c** UDP retransmits lost reports through AODV;
# * **d** the sink answers every report with a routing packet.

# %% [raw]
# # BEGIN SOLUTION

# %%
q4_answer = "b"  # SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert q4_answer in ("a", "b", "c", "d")

# %%
# HIDDEN
assert q4_answer == "b"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q5
# points: [0, 1]

# %% [markdown]
# **Question 5 (1 point).** Compare `energy_per_node_j` with your `idle_energy_j`. Set
# `energy_above_idle`: the largest relative excess over idle listening among the UDP
# rows, `(energy - idle) / idle`, as a fraction (0.05 means 5 %). What does it tell you
# about making sensors report less often to save their batteries?

# %% [raw]
# # BEGIN SOLUTION

# %%
excess = (udp["energy_per_node_j"] - idle_energy_j) / idle_energy_j  # SOLUTION
energy_above_idle = float(excess.max())  # SOLUTION
energy_above_idle

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert energy_above_idle > -1

# %%
# HIDDEN
_e = summary.loc[summary["protocol"] == "udp", "energy_per_node_j"]
assert abs(energy_above_idle - float(((_e - 0.6) / 0.6).max())) < 1e-9

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q6
# points: [0, 1, 1, 1]

# %% [markdown]
# **Question 6 (3 points): your design.** Propose *one* change to the network's
# configuration: the reporting interval, the transport (`"udp"`, `"tcp"`, `"sctp"`) or
# the number of reporting sensors (`n_sources`). Defend it with a sweep of **at most
# three points** (`DESIGN_POINTS`, parameter dicts of this study; keep them in quick
# mode), run with `execute.run(STUDY, ...)` into `design_summary`. Name the column of
# `design_summary` that your claim is about (`design_metric`) and set `design_value` to
# its value for the point you recommend (`design_choice`, an index of `DESIGN_POINTS`).
# Write your defence (which metric matters for whom, and what it costs) in the markdown
# cell below: it is read by your instructor.
#
# `transportlab list --study wsn_reporting_interval` (in a terminal) lists every
# parameter.

# %% [raw]
# # BEGIN SOLUTION

# %%
DESIGN_POINTS = [{"protocol": "udp", "reporting_interval": 2.0}]  # SOLUTION
design_summary = execute.run(STUDY, DESIGN_POINTS, runs=1, quick=True)["summary"]
design_metric = "routing_load"  # SOLUTION
design_choice = 0  # SOLUTION
design_value = float(design_summary[design_metric].iloc[design_choice])  # SOLUTION
design_summary[["protocol", "reporting_interval", "n_sources", design_metric]]

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert 1 <= len(DESIGN_POINTS) <= 3
assert len(design_summary) == len(DESIGN_POINTS) and design_metric in design_summary.columns

# %%
# HIDDEN
_tasks = plan.plan(STUDY, DESIGN_POINTS, quick=True)
assert 1 <= len(DESIGN_POINTS) <= 3 and design_summary["duration"].max() <= 20.0

# %%
# HIDDEN
assert len(design_summary) == len(DESIGN_POINTS)
_keys = {k for point in DESIGN_POINTS for k in point}
assert all(
    (design_summary[k] == pd.Series([p.get(k) for p in DESIGN_POINTS])).all()
    for k in _keys
    if all(k in p for p in DESIGN_POINTS)
)

# %%
# HIDDEN
_v = float(design_summary[design_metric].iloc[int(design_choice)])
assert abs(design_value - _v) < 1e-9 * max(1.0, abs(_v))

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# *Your defence for question 6:* ...
#
# ## Submitting
#
# Save the notebook and hand in the `.ipynb` file (or the zip the cell below makes).
