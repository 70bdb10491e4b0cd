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
# name: bottleneck_basics
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
# # Assignment 1: one flow through a bottleneck
#
# **Time:** one lab session (about 75 minutes). The simulations of this notebook take
# well under a minute on a Binder instance.
#
# **Learning objectives.** After this assignment you can
#
# 1. compute the one-way delay of a packet through store-and-forward links by hand
#    (serialisation + propagation per hop, with the headers each layer adds);
# 2. compute the application throughput ("goodput") a saturated bottleneck gives;
# 3. predict what a DropTail queue does to delay and loss when a sender exceeds the
#    bottleneck rate, and check the prediction against a simulation;
# 4. read a simulation's result tables with pandas and `transportlab.models.metrics`.
#
# **What is graded** (12 points, autograded): your hand calculations (questions 1-3),
# the numbers you read from the simulation (question 4), a metric you compute from the
# packet trace (question 5) and one multiple-choice explanation (question 6). Run
# `grader.check("qN")` after each question: it runs the *public* checks (right type,
# plausible range). Hidden checks compare your values with the correct ones when your
# instructor grades the notebook; they allow a small tolerance for rounding.
#
# The network (the study `bottleneck_example` of transportlab):
#
# ```
# source ---- 10 Mb/s, 2 ms ---- router ---- 1 Mb/s, 20 ms ---- sink
#                                  DropTail queue, 50 packets
# ```
#
# A UDP flow sends 1000-byte application packets at a constant rate (0.5 Mb/s unless
# said otherwise); a TCP flow sends as fast as TCP allows (1000-byte segments). Each
# packet carries, besides its 1000 application bytes, an 8-byte UDP header or a 32-byte
# TCP header (20 bytes plus the 12-byte timestamp option ns-3 sends on every segment),
# a 20-byte IPv4 header and a 2-byte PPP header on each point-to-point link. ns-3 adds
# no processing time in the router.

# %%
# Run this cell first. It loads the lab's functions (not ns-3 yet: that happens in the
# first simulation, a few seconds).
import pandas as pd
from transportlab.engine import execute
from transportlab.models import metrics
from transportlab.studies.bottleneck_example import STUDY

pd.set_option("display.width", 120)

# %% [raw]
# # BEGIN QUESTION
# name: q1
# points: [0, 1, 1, 1]

# %% [markdown]
# **Question 1 (3 points).** How many bytes does one UDP packet and one TCP segment
# occupy on a point-to-point link? What is the one-way delay, in milliseconds, of a
# UDP packet that finds every queue empty? Set `udp_wire_bytes`, `tcp_wire_bytes` and
# `udp_delay_ms`.
#
# *Hint:* per hop, serialisation time = bits / link rate, then the propagation delay.

# %% [raw]
# # BEGIN SOLUTION

# %%
udp_wire_bytes = 1000 + 8 + 20 + 2  # SOLUTION
tcp_wire_bytes = 1000 + 32 + 20 + 2  # SOLUTION
# BEGIN SOLUTION
bits = udp_wire_bytes * 8
# END SOLUTION
udp_delay_ms = (bits / 10e6 + 2e-3 + bits / 1e6 + 20e-3) * 1e3  # SOLUTION
udp_delay_ms

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert udp_wire_bytes > 1000 and tcp_wire_bytes > udp_wire_bytes
assert 22 < udp_delay_ms < 100, "the two propagation delays alone are 22 ms"

# %%
# HIDDEN
assert udp_wire_bytes == 1030

# %%
# HIDDEN
assert tcp_wire_bytes == 1054

# %%
# HIDDEN
assert abs(udp_delay_ms - 31.064) < 1e-3

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q2
# points: [0, 1]

# %% [markdown]
# **Question 2 (1 point).** A TCP bulk transfer keeps the bottleneck busy all the
# time once slow start is over (the queue of 50 packets is far larger than the
# bandwidth-delay product). What application throughput, in kb/s, can it reach at
# most? Set `tcp_goodput_bound_kbps`.

# %% [raw]
# # BEGIN SOLUTION

# %%
tcp_goodput_bound_kbps = 1e6 * 1000 / tcp_wire_bytes / 1e3  # SOLUTION
tcp_goodput_bound_kbps

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert 500 < tcp_goodput_bound_kbps <= 1000, "below the bottleneck's 1000 kb/s"

# %%
# HIDDEN
assert abs(tcp_goodput_bound_kbps - 948.77) < 0.5

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q3
# points: [0, 1, 1]

# %% [markdown]
# **Question 3 (2 points): a prediction.** Now the UDP source sends at **1.5 Mb/s**
# (application bytes), more than the bottleneck can carry. Once the router's queue is
# full, what is the one-way delay of a packet that gets through (in ms)? What
# application throughput reaches the sink (in kb/s)? Set `overload_delay_ms` and
# `overload_goodput_kbps` *before* you run the simulation below.
#
# *Hint:* a packet that arrives at a full queue of 50 packets waits until the 50
# packets ahead of it have been sent, each taking one serialisation time at 1 Mb/s.

# %% [raw]
# # BEGIN SOLUTION

# %%
overload_delay_ms = udp_delay_ms + 50 * udp_wire_bytes * 8 / 1e6 * 1e3  # SOLUTION
overload_goodput_kbps = 1e6 * 1000 / udp_wire_bytes / 1e3  # SOLUTION
overload_delay_ms, overload_goodput_kbps

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert overload_delay_ms > 31 and 500 < overload_goodput_kbps <= 1500

# %%
# HIDDEN
assert abs(overload_delay_ms - 443.06) < 5

# %%
# HIDDEN
assert abs(overload_goodput_kbps - 970.87) < 5

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# ## The simulation
#
# The cell below runs three points of the study in quick mode (6 simulated seconds,
# one replication each, ns-3 RngRun 1): UDP at 0.5 Mb/s, TCP, and UDP at 1.5 Mb/s.
# Results are cached: running it again costs nothing. `tables["summary"]` has one row
# per simulation (the parameters, then the metrics: `goodput_bps`, `delay_mean_s`,
# `delay_max_s`, `jitter_rfc3550_s`, `loss_ratio`, ...); `tables["packets"]` has one
# row per application event (`event` is `"sent"` or `"received"`, `delay` in seconds).
# Throughput is measured from 1 s after the flow starts (`warmup`) to its end.
# Do not change this cell: the grader reads these tables.

# %%
POINTS = [
    {"protocol": "udp"},
    {"protocol": "tcp"},
    {"protocol": "udp", "udp_rate_mbps": 1.5},
]
tables = execute.run(STUDY, POINTS, runs=1, quick=True)
summary, packets = tables["summary"], tables["packets"]
SHOWN = ["protocol", "udp_rate_mbps", "goodput_bps", "delay_mean_s", "delay_max_s", "loss_ratio"]
summary[SHOWN]

# %% [raw]
# # BEGIN QUESTION
# name: q4
# points: [0, 1, 1, 1]

# %% [markdown]
# **Question 4 (3 points).** Read from `summary` (with pandas, not by copying numbers):
# the mean one-way delay of the 0.5 Mb/s UDP flow in ms (`measured_udp_delay_ms`), the
# goodput of TCP in kb/s (`measured_tcp_goodput_kbps`), and the *largest* delay of the
# 1.5 Mb/s UDP flow in ms (`measured_overload_delay_ms`). Compare each with your hand
# calculation: within 1 %?

# %% [raw]
# # BEGIN SOLUTION

# %%
# BEGIN SOLUTION
udp_row = summary[(summary["protocol"] == "udp") & (summary["udp_rate_mbps"] == 0.5)].iloc[0]
tcp_row = summary[summary["protocol"] == "tcp"].iloc[0]
over_row = summary[(summary["protocol"] == "udp") & (summary["udp_rate_mbps"] == 1.5)].iloc[0]
# END SOLUTION
measured_udp_delay_ms = udp_row["delay_mean_s"] * 1e3  # SOLUTION
measured_tcp_goodput_kbps = tcp_row["goodput_bps"] / 1e3  # SOLUTION
measured_overload_delay_ms = over_row["delay_max_s"] * 1e3  # SOLUTION
measured_udp_delay_ms, measured_tcp_goodput_kbps, measured_overload_delay_ms

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
_values = (measured_udp_delay_ms, measured_tcp_goodput_kbps, measured_overload_delay_ms)
assert all(isinstance(float(v), float) for v in _values)

# %%
# HIDDEN
_s = summary.set_index(["protocol", "udp_rate_mbps"])
assert abs(measured_udp_delay_ms - _s.loc[("udp", 0.5), "delay_mean_s"] * 1e3) < 1e-6
assert abs(measured_udp_delay_ms - 31.064) < 0.01

# %%
# HIDDEN
_tcp = summary[summary["protocol"] == "tcp"]["goodput_bps"].iloc[0] / 1e3
assert abs(measured_tcp_goodput_kbps - _tcp) < 1e-6
assert abs(measured_tcp_goodput_kbps - 948.77) < 0.02 * 948.77

# %%
# HIDDEN
_s = summary.set_index(["protocol", "udp_rate_mbps"])
assert abs(measured_overload_delay_ms - _s.loc[("udp", 1.5), "delay_max_s"] * 1e3) < 1e-6
assert abs(measured_overload_delay_ms - 443.06) < 0.01 * 443.06

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q5
# points: [0, 2]

# %% [markdown]
# **Question 5 (2 points).** The delay of the overloaded UDP flow varies while its
# queue fills. Compute its RFC 3550 interarrival jitter in milliseconds from the packet
# table with `metrics.rfc3550_jitter` (it takes the received packets' rows, or their
# delays in arrival order). Set `overload_jitter_ms`.

# %% [raw]
# # BEGIN SOLUTION

# %%
# BEGIN SOLUTION
over = packets[(packets["protocol"] == "udp") & (packets["udp_rate_mbps"] == 1.5)]
# END SOLUTION
overload_jitter_ms = metrics.rfc3550_jitter(over[over["event"] == "received"]) * 1e3  # SOLUTION
overload_jitter_ms

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert overload_jitter_ms >= 0

# %%
# HIDDEN
_p = packets[(packets["protocol"] == "udp") & (packets["udp_rate_mbps"] == 1.5)]
_j = metrics.rfc3550_jitter(_p[_p["event"] == "received"]) * 1e3
assert abs(overload_jitter_ms - _j) < 1e-6 * max(1.0, _j)

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q6
# points: [0, 1]

# %% [markdown]
# **Question 6 (1 point).** TCP's mean *application* delay (`delay_mean_s` of the TCP
# row) is about one second, thirty times the path's 31 ms. Why? Set `q6_answer` to one
# letter:
#
# * **a** TCP retransmits most segments;
# * **b** the application writes into TCP's 128 KiB send buffer faster than the
#   bottleneck drains it, and the 50-packet router queue is full as well, so each byte
#   waits in both;
# * **c** TCP's handshake delays every segment;
# * **d** ns-3 charges a processing delay per TCP segment.
#
# Write two sentences of your own reasoning in the markdown cell below it (read by your
# instructor, not autograded).

# %% [raw]
# # BEGIN SOLUTION

# %%
q6_answer = "b"  # SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert q6_answer in ("a", "b", "c", "d")

# %%
# HIDDEN
assert q6_answer == "b"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# *Your reasoning for question 6:* ...
#
# ## Submitting
#
# Save the notebook and hand in the `.ipynb` file (or the zip the cell below makes).
