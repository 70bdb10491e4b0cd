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
# name: sctp_vs_tcp
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
# # Assignment 2: SCTP vs TCP with UDP cross traffic
#
# **Time:** one lab session (about 90 minutes). The four simulations take about half a
# minute on a Binder instance (cached afterwards).
#
# **Learning objectives.** After this assignment you can
#
# 1. work out the fair share of a bottleneck that long-lived flows compete for, with
#    constant-bit-rate cross traffic taking its part;
# 2. compute per-flow throughput, Jain's fairness index and jitter from a simulation's
#    per-flow table, averaged over replications;
# 3. tell a property of a protocol from an artefact of how it was measured: the
#    published study's AWK scripts count SCTP packets differently from TCP ones;
# 4. compare two jitter definitions (the study's AWK script and RFC 3550).
#
# **What is graded** (10 points, autograded): questions 1-6. `grader.check("qN")` runs
# the public checks; hidden checks grade the values (with small tolerances, and
# against your own tables where the value comes from the simulation).
#
# The scenario is the study `wired_best_effort` in small (seeds 000 and 004 of the
# lab): five FTP flows (TCP or SCTP, always data to send) and five CBR flows over UDP
# (1000-byte packets, one every 0.8 s) share one bottleneck:
#
# ```
# sources 2..11 --1 Mb/s, 10 ms-- router 0 ==0.5 Mb/s, 100 ms== router 1 --1 Mb/s, 30 ms-- sinks
#                                  DropTail queues of 50 packets
# ```
#
# Packet sizes on the bottleneck (bytes, with the 2-byte PPP header): TCP data 1042
# (1000 data + 20 TCP + 20 IPv4 + 2), UDP CBR 1030 (1000 + 8 + 20 + 2), SCTP DATA 1502
# (1452 data + 16 chunk header + 12 common header + 20 IPv4 + 2).
#
# The published study measured throughput with an AWK script over the NS-2 trace. It
# counts `size - size % pkt` bytes of every received packet of at least `pkt` bytes,
# with `pkt = 1000`, where NS-2's sizes have no PPP header: a TCP packet is 1040 bytes
# there and an SCTP packet 1500.

# %%
# Run this cell first.
import pandas as pd
from transportlab.engine import execute, plan
from transportlab.models import metrics
from transportlab.studies.wired_best_effort import STUDY

pd.set_option("display.width", 120)

# %% [raw]
# # BEGIN QUESTION
# name: q1
# points: [0, 2]

# %% [markdown]
# **Question 1 (2 points).** The five CBR flows run all the time. How many kb/s of the
# 500 kb/s bottleneck (bits on the wire) does each FTP flow get if the five share what
# the CBR flows leave equally? Set `ftp_wire_share_kbps`.

# %% [raw]
# # BEGIN SOLUTION

# %%
cbr_wire_kbps = 1030 * 8 / 0.8 / 1e3  # SOLUTION
ftp_wire_share_kbps = (500 - 5 * cbr_wire_kbps) / 5  # SOLUTION
ftp_wire_share_kbps

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert 0 < ftp_wire_share_kbps <= 100

# %%
# HIDDEN
assert abs(ftp_wire_share_kbps - 89.7) < 0.5

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q2
# points: [0, 1]

# %% [markdown]
# **Question 2 (1 point).** What fraction of an SCTP packet's 1452 data bytes does the
# AWK throughput script count (`pkt = 1000`, NS-2 size 1500 bytes)? And of a TCP
# packet's 1000 data bytes (NS-2 size 1040)? Set `sctp_awk_share` and `tcp_awk_share`.

# %% [raw]
# # BEGIN SOLUTION

# %%
sctp_awk_share = (1500 - 1500 % 1000) / 1452  # SOLUTION
tcp_awk_share = (1040 - 1040 % 1000) / 1000  # SOLUTION
sctp_awk_share, tcp_awk_share

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert 0 < sctp_awk_share <= 1.1 and 0 < tcp_awk_share <= 1.1

# %%
# HIDDEN
assert abs(sctp_awk_share - 1000 / 1452) < 1e-3 and abs(tcp_awk_share - 1) < 1e-3

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# ## The simulation
#
# Two replications (ns-3 RngRun 1 and 2: the flows' start times differ by a random
# jitter of up to 100 ms) of 300 simulated seconds for each transport. Do not change
# this cell: the grader reads its tables. `flows` has one row per flow and run: the
# parameters, then `flow`, `application` (`"ftp"` or `"cbr"`), `goodput_kbps`
# (application bytes over the flow's active time), `awk_throughput_kbps`,
# `awk_jitter_ms` (the AWK scripts), `rfc3550_jitter_ms`, `delay_ms`, `loss_ratio`, ...
# `per_run` has one row per simulation (`bottleneck_utilisation`, `bottleneck_drops`,
# ...).

# %%
tables = execute.run(STUDY, plan.grid(protocol=["tcp", "sctp"]), runs=2, quick=True)
flows, per_run = tables["flows"], tables["run"]
flows[["protocol", "run", "flow", "application", "goodput_kbps", "awk_throughput_kbps"]].head(12)

# %% [raw]
# # BEGIN QUESTION
# name: q3
# points: [0, 1, 1, 1]

# %% [markdown]
# **Question 3 (3 points).** Make `ftp_means`: a DataFrame indexed by `protocol`
# (`"sctp"`, `"tcp"`) with the columns `goodput_kbps` and `awk_throughput_kbps`, the
# mean over the FTP flows of both runs. Is SCTP's *goodput* below TCP's? Is its AWK
# throughput? By how much?

# %% [raw]
# # BEGIN SOLUTION

# %%
ftp = flows[flows["application"] == "ftp"]  # SOLUTION
ftp_means = ftp.groupby("protocol")[["goodput_kbps", "awk_throughput_kbps"]].mean()  # SOLUTION
ftp_means

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert isinstance(ftp_means, pd.DataFrame)
assert {"goodput_kbps", "awk_throughput_kbps"} <= set(ftp_means.columns)
assert set(ftp_means.index) == {"sctp", "tcp"}

# %%
# HIDDEN
_ftp = flows[flows["application"] == "ftp"]
_m = _ftp.groupby("protocol")["goodput_kbps"].mean()
assert all(abs(ftp_means.loc[p, "goodput_kbps"] - _m[p]) < 1e-6 for p in ("sctp", "tcp"))

# %%
# HIDDEN
_ftp = flows[flows["application"] == "ftp"]
_m = _ftp.groupby("protocol")["awk_throughput_kbps"].mean()
assert all(abs(ftp_means.loc[p, "awk_throughput_kbps"] - _m[p]) < 1e-6 for p in ("sctp", "tcp"))

# %%
# HIDDEN
_ratio = ftp_means.loc["sctp", "awk_throughput_kbps"] / ftp_means.loc["sctp", "goodput_kbps"]
assert abs(_ratio - 1000 / 1452) < 0.03

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q4
# points: [0, 2]

# %% [markdown]
# **Question 4 (2 points).** Jain's fairness index of the five FTP flows' goodput,
# per protocol and run, with `metrics.jain_index`: a Series `jain_by_run` indexed by
# `(protocol, run)`. Are the FTP flows of one transport fair to each other?

# %% [raw]
# # BEGIN SOLUTION

# %%
jain_by_run = ftp.groupby(["protocol", "run"])["goodput_kbps"].apply(metrics.jain_index)  # SOLUTION
jain_by_run

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert len(jain_by_run) == 4 and all(0 < float(v) <= 1 for v in jain_by_run)

# %%
# HIDDEN
_ftp = flows[flows["application"] == "ftp"]
for (_p, _r), _g in _ftp.groupby(["protocol", "run"]):
    assert abs(float(jain_by_run.loc[(_p, _r)]) - metrics.jain_index(_g["goodput_kbps"])) < 1e-9

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q5
# points: [0, 1]

# %% [markdown]
# **Question 5 (1 point).** Mean jitter of the FTP flows per protocol, by the AWK
# script and by RFC 3550: a DataFrame `jitter_means` indexed by protocol with the
# columns `awk_jitter_ms` and `rfc3550_jitter_ms`. Which definition gives larger
# values? (The AWK script averages |delay difference| of consecutive packets per
# window; RFC 3550 smooths the same differences with gain 1/16.)

# %% [raw]
# # BEGIN SOLUTION

# %%
jitter_means = ftp.groupby("protocol")[["awk_jitter_ms", "rfc3550_jitter_ms"]].mean()  # SOLUTION
jitter_means

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
assert {"awk_jitter_ms", "rfc3550_jitter_ms"} <= set(jitter_means.columns)

# %%
# HIDDEN
_ftp = flows[flows["application"] == "ftp"]
_j = _ftp.groupby("protocol")[["awk_jitter_ms", "rfc3550_jitter_ms"]].mean()
assert ((jitter_means.loc[_j.index, _j.columns] - _j).abs() < 1e-6).all().all()

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q6
# points: [0, 1]

# %% [markdown]
# **Question 6 (1 point).** The published study reports that SCTP gets clearly less
# throughput than TCP in this scenario. What does your table say is the main reason?
# Set `q6_answer` to one letter:
#
# * **a** SCTP's congestion control backs off more than TCP Tahoe;
# * **b** the AWK script counts only 1000 of the 1452 data bytes of each SCTP packet,
#   while the goodputs of the two transports are close;
# * **c** SCTP loses many more packets to the CBR flows;
# * **d** SCTP's four-way handshake delays its start by seconds.
#
# Explain in two sentences in the cell below it, with numbers from `ftp_means`
# (read by your instructor, not autograded).

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
# *Your explanation for question 6:* ...
#
# ## Submitting
#
# Save the notebook and hand in the `.ipynb` file (or the zip the cell below makes).
