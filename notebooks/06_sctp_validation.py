# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3.11 (transportlab)
#     language: python
#     name: transportlab
# ---

# %% [markdown]
# # The SCTP model against a production stack: usrsctp, scenario by scenario
#
# **Study:** `sctp_validation` (issue 15). No seed paper: this notebook checks the
# instrument the other notebooks rely on. Every SCTP number in notebooks 01-05 comes from
# transportlab's own SCTP model for ns-3 (`src/sctp`, written from RFC 9260). Here the same
# transfers run on **usrsctp**, the userland build of FreeBSD's SCTP stack (WebRTC data
# channels in Firefox), and the two are compared scenario by scenario.
#
# **How usrsctp runs in simulated time.** `tools/usrsctp-oracle` is a small C program
# linked with Debian's static `libusrsctp.a` (0.9.5). It starts usrsctp without threads
# (`usrsctp_init_nothreads`), calls `usrsctp_handle_timers(1)` every simulated millisecond,
# and carries every packet itself: usrsctp hands a packet to the program
# (`AF_CONN`, `conn_output`), a link model (rate, one-way delay, drop-tail queue, the
# scenario's losses) delays it, and `usrsctp_conninput` delivers it to the other endpoint
# in the same process. usrsctp reads the clock with `gettimeofday()` and random bytes with
# the `getrandom` system call; the program is linked with
# `-Wl,--wrap=gettimeofday -Wl,--wrap=syscall`, so both come from the simulation (the
# clock) and from a seeded generator. A run is byte-for-byte repeatable and takes
# milliseconds. The program prints every packet, DATA chunk (new, fast or T3
# retransmission), cwnd, RTO and T3 expiry (`usrsctp-oracle --help`).
#
# **The same scenario on the ns-3 model.** `transportlab.studies.sctp_validation.stacks.run_model` builds two
# nodes and one point-to-point link of the same rate, delay and queue (the device queue is
# the only queue, as in the oracle). `ns3::SctpDropErrorModel` on the receiving device
# drops the same packets: by number, by TSN (relative to the first DATA TSN), or by the
# same seeded hash of (TSN, transmission) for random loss, so both stacks lose the same
# transmissions of the same data. A frame is the SCTP packet + 20 bytes of IPv4 + 2 of PPP
# in both.
#
# **What is compared.** The completion time of the transfer (from the INIT to the last
# byte delivered to the receiving application), the retransmissions by kind (fast, T3) and
# the T3 expiries, and the cwnd trajectory (mean absolute difference over the transfer,
# relative to usrsctp's mean cwnd). **Tolerances**, per metric: completion times within
# 10 %; retransmissions of the same kind and number for deterministic single, tail and
# repeated losses (`tests/validation`); cwnd trajectories within 10 % of usrsctp's mean
# cwnd with the aligned settings. Each gap beyond these must be a named difference
# confirmed from the traces. Each scenario is run twice:
#
# * *default*: both stacks with their own defaults (RFC 9260 parameters set alike: RTO.Initial
#   = RTO.Min = 1 s, RTO.Max = 60 s, SACK every 2nd packet or after 200 ms, Max.Burst 4,
#   128 kB buffers, no heartbeats, no ECN);
# * *aligned*: usrsctp with the settings that make it follow RFC 9260 where it has one
#   (`sctp_L2_abc_variable = 1`, `sctp_use_cwnd_based_maxburst = 0`,
#   `sctp_peer_chunk_oh = 0`), and the ns-3 model started with usrsctp's initial cwnd.
#
# A scenario **agrees** when its default completion times are within 10 %; it is
# **explained** when they are not but a named usrsctp difference (below, each with its RFC
# section) is confirmed from the traces — either the aligned run then agrees, or the
# difference is one no setting removes; otherwise it **differs**, which would be a model bug
# to fix.

# %% tags=["parameters"]
quick = True  # quick mode: the dozen scenarios of the differential test suite
scheduler = None  # unused: every run takes milliseconds (usrsctp) to a second (ns-3)
runs = None  # both stacks are deterministic: one run per scenario and profile, always
params = {}  # study parameters: oracle_seed (the scenarios are the experiment's points)

# %%
import pandas as pd

from transportlab.notebooks import start
from transportlab.studies.sctp_validation import differences, reproduction, stacks

results = start("sctp_validation", globals())
if not results.available("scenarios"):
    raise RuntimeError(
        "usrsctp-oracle is not built: apt-get install libusrsctp-dev, then make install"
    )
pd.set_option("display.max_colwidth", 200)
POINTS = results.points("scenarios")
print(f"{len(POINTS)} scenarios, {4 * len(POINTS)} runs (2 stacks x 2 profiles, deterministic)")

# %%
# NBVAL_IGNORE_OUTPUT
from transportlab import ns  # noqa: F401  (ns-3 with the SCTP model, loaded once here)

print(stacks.oracle_path().name)

# %% [markdown]
# ## The scenarios
#
# No loss over several links; single losses early, mid, late and at the tail; bursts;
# random loss of 1-10 % over three seeds; the same TSN lost several times (RTO back-off);
# a receive window smaller than the bandwidth-delay product; several streams; small,
# full-size and fragmented messages; a small MTU, a small queue, a SACK for every packet;
# RTO.Min and the delayed-SACK timer changed in both stacks.
# Quick mode runs the dozen of the differential test suite (`tests/validation`), full mode
# all of them.

# %%
differences.scenario_table(stacks.scenario_by_name(p["scenario"]) for p in POINTS)

# %%
TABLE = results.table("validation")

# %% [markdown]
# ## Agreement per scenario
#
# Completion times in seconds; `diff` is (ns-3 − usrsctp) / usrsctp with default settings,
# `diff_aligned` with the aligned settings; `explained_by` names the differences that
# account for a default-settings gap above 10 %, `aligned_explained_by` those confirmed in
# the aligned traces when the aligned gap is still above 10 %.

# %%
# NBVAL_CHECK_OUTPUT
print("verdicts:", differences.verdict_counts(TABLE))
shown = TABLE.assign(
    diff=(100 * TABLE.completion_diff).round(1),
    diff_aligned=(100 * TABLE.completion_diff_aligned).round(1),
)[
    [
        "scenario",
        "verdict",
        "usrsctp_s",
        "ns3_s",
        "diff",
        "diff_aligned",
        "explained_by",
        "aligned_explained_by",
    ]
]
print(shown.round({"usrsctp_s": 3, "ns3_s": 3}).to_string(index=False))

# %% [markdown]
# **The full-mode validation (the result).** The cell above runs the scenarios of the mode
# this notebook runs in; quick mode (tests, CI, Binder) runs the dozen of the test suite.
# The numbers this notebook reports are those of full mode (`transportlab reproduce
# --study sctp_validation`), committed in `data/results/sctp_validation/validation.csv`:

# %%
from transportlab.engine.results import committed_table

full_validation = committed_table("sctp_validation", "validation")
print("verdicts:", differences.verdict_counts(full_validation))
full_validation[["scenario", "verdict", "usrsctp_s", "ns3_s", "explained_by"]].round(3)

# %% [markdown]
# ## Retransmissions and cwnd
#
# DATA chunks retransmitted by fast retransmit and after a T3-rtx expiry, T3 expiries,
# queue drops, and the cwnd trajectory difference (0 = identical). With one loss both
# stacks fast-retransmit it once; differences in the counts come from the named
# differences (a second fast retransmission of the same TSN in usrsctp, spurious T3
# expiries in usrsctp, more packets in the queue in ns-3).

# %%
# NBVAL_CHECK_OUTPUT
rtx = TABLE[
    [
        "scenario",
        "usrsctp_fast",
        "ns3_fast",
        "usrsctp_t3",
        "ns3_t3",
        "usrsctp_timeouts",
        "ns3_timeouts",
        "usrsctp_queue_drops",
        "ns3_queue_drops",
    ]
].assign(
    cwnd_diff=TABLE.cwnd_diff.round(2),
    cwnd_diff_aligned=TABLE.cwnd_diff_aligned.round(2),
)
print(rtx.to_string(index=False))

# %% [markdown]
# ## cwnd against time, side by side
#
# Left: both stacks at their defaults; right: aligned settings. Markers at the bottom:
# fast retransmissions (v) and T3-rtx retransmissions (x). In slow start usrsctp (orange)
# climbs faster with its defaults (appropriate byte counting with L = 2) and, after a
# recovery, drops its cwnd to flight size + 4 MTU (its cwnd-based Max.Burst); with the
# aligned settings the two curves lie on top of each other until the stacks' timers
# differ.

# %%
fig = results.figure("cwnd_side_by_side")

# %%
fig = results.figure("completion_times")

# %% [markdown]
# ## Every difference, named
#
# Each is a way usrsctp departs from RFC 9260, each confirmed from the traces by a detector in
# `transportlab.studies.sctp_validation.differences.DIFFERENCES`; the table counts the scenarios whose traces show
# it and those whose default-settings gap it explains.

# %%
# NBVAL_CHECK_OUTPUT
print(differences.differences_table(TABLE).to_string(index=False))

# %%
for key, d in differences.DIFFERENCES.items():
    print(f"{key} ({d.rfc}): {d.explanation}\n")
    for row in TABLE.itertuples():
        if key in row.explained_by.split(",") and key in row.evidence:
            part = [e for e in row.evidence.split(" | ") if e.startswith(key + ":")][0]
            print(f"    evidence, {row.scenario}: {part[len(key) + 2 :]}")
            break
    print()

# %% [markdown]
# The largest gap, traced TSN by TSN: 10 % random loss (seed 3), aligned settings. Both
# stacks lose the same transmissions; where usrsctp fast-retransmits a TSN a second time
# after its first retransmission was lost, the model waits for T3-rtx.

# %%
# NBVAL_CHECK_OUTPUT
name = "random_10pct" if "random_10pct" in set(TABLE.scenario) else "random_10pct_s3"
pair = reproduction.traces(results, name)
print(
    name,
    "completion (s): usrsctp",
    round(pair["usrsctp_aligned"].completion_s, 3),
    "ns-3",
    round(pair["ns3_aligned"].completion_s, 3),
)
side = differences.retransmissions_side_by_side(pair["usrsctp_aligned"], pair["ns3_aligned"])
print(side[side["usrsctp"] != side["ns-3"]].to_string())

# %% [markdown]
# **What the evidence says.**
#
# * `abc_l2`, `initial_cwnd`, `cwnd_maxburst` and `rwnd_overhead` are usrsctp settings.
#   With the aligned settings every scenario they explain agrees within 10 % (and the
#   cwnd curves coincide): the model's slow start, congestion avoidance, fast recovery,
#   window and Max.Burst rules match FreeBSD's stack once both follow the RFC.
#   `initial_cwnd` alone is worth 4-6 % on a 500-kB transfer: usrsctp's 36 extra bytes
#   (3 × 1480 instead of 4404) let a fourth packet into the first flight.
# * `t3_not_restarted` (RFC 9260 6.3.2 R3): after a tail loss usrsctp's T3-rtx expires
#   1.000 s after the *first* DATA chunk, the model's a full RTO after the last SACK that
#   advanced the cumulative TSN, as R3 says; the tail is recovered about 0.25-0.35 s
#   later in the model. In a long receiver-window-limited transfer the same usrsctp timer
#   expires while SACKs keep arriving (spurious timeouts, cwnd back to one MTU), and
#   usrsctp finishes *later*.
# * `repeat_fast_rtx` (RFC 9260 7.2.4): when a fast retransmission is lost, usrsctp
#   fast-retransmits the TSN again after three more miss indications; 7.2.4 step 5 makes a
#   fast-retransmitted chunk ineligible for another Fast Retransmit, so the model (like the
#   RFC) leaves a lost retransmission to T3-rtx and its RTO back-off. It shows with bursts
#   (usrsctp retransmits more chunks by fast retransmit, same completion time) and with
#   random loss of 5-10 %, where a lost retransmission costs the model a timeout and
#   single runs can differ by a factor of 2. The TSN-by-TSN table above shows how: in the
#   model the lost retransmission of TSN 5 stays in flight and keeps the association in
#   Fast Recovery (cwnd frozen); two more losses then fill the window, no SACK can bring
#   the third miss indication, and nothing moves until T3-rtx expires one second later.
# * `cwnd_counts_headers` and `small_packets` are shown but never used to explain a 10 %
#   gap: usrsctp's slow-start step is 1492 B instead of at most 1468 B, and with
#   `SCTP_NODELAY` it sends each 100-B message in its own packet while the model bundles
#   the messages written together (why the cwnd curves of `small_messages` differ while
#   the completion times agree).
# * `ssthresh_floor` (RFC 9260 7.2.3): usrsctp halves cwnd on a fast retransmit without
#   the 4 PMDCS floor, so an early loss leaves it a smaller window than the model.
# * `fast_rtx_withheld` (RFC 9260 6.1 A, 7.2.4): with the aligned settings usrsctp keeps as
#   much in flight as the model; after a loss the out-of-order data fills the receiver's
#   buffer, and usrsctp does not send the fast retransmission into the closed window but
#   waits for T3-rtx (one RTO); the model retransmits at once (rule A only stops new data).
#
# **Model bugs found:** none that change a completion time beyond the named differences.

# %%
# NBVAL_CHECK_OUTPUT
unexplained = TABLE[TABLE.verdict == "differs"]
print("scenarios:", len(TABLE))
print("within 10 % (default settings):", int(TABLE.agrees.sum()))
print("within 10 % (aligned settings):", int(TABLE.agrees_aligned.sum()))
print("unexplained differences:", list(unexplained.scenario))

# %% [markdown]
# ## Stream reset mid-transfer (RFC 6525)
#
# The two `stream_reset` scenarios (`transportlab.studies.sctp_validation.stream_reset`,
# experiment `stream_reset`, the same in quick and full mode): 100 messages of 1000 B
# alternate over streams 0 and 1 on a 10 Mb/s, 10 ms link without loss, and stream 1 is
# reset after 40 of them — by the sender (`stream_reset_outgoing`: an Outgoing SSN Reset
# Request, 6525 5.1.2) or at the receiver's request (`stream_reset_incoming`: an Incoming
# SSN Reset Request, 5.1.3, answered by the sender's outgoing one, 5.2.3; the sender writes
# the other 60 messages once its stream is reset, as `usrsctp-oracle`'s writer does). The
# criterion is that the receiving application sees the same SSNs on both stacks (stream 1
# numbered from 0 again after the reset); the time of the last delivery is compared like
# a completion time. Their rows in the table above have no retransmission or cwnd columns
# (one profile, no loss).

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.studies.sctp_validation import stream_reset

RESET = results.table("stream_reset")
for row in RESET.itertuples():
    print(
        f"{row.scenario}: {row.usrsctp_delivered} / {row.ns3_delivered} messages delivered "
        f"(usrsctp / model), SSNs as RFC 6525 says: {row.ssns_expected}, "
        f"SSNs agree: {row.ssns_agree}"
    )
    print(
        f"    request {row.usrsctp_request_s:.4f} / {row.ns3_request_s:.4f} s, reset done "
        f"{row.usrsctp_done_s:.4f} / {row.ns3_done_s:.4f} s, last delivery "
        f"{row.usrsctp_last_s:.4f} / {row.ns3_last_s:.4f} s, stream-0 messages delivered "
        f"while the reset was pending {row.usrsctp_stream0_during_reset} / "
        f"{row.ns3_stream0_during_reset}"
    )
reset_rows = TABLE[TABLE.scenario.isin(list(stream_reset.RESET_SCENARIOS))]
for row in reset_rows.itertuples():
    print(
        f"{row.scenario}: {row.verdict}, last delivery ns-3 vs usrsctp "
        f"{100 * row.completion_diff:+.1f} %, explained by: {row.explained_by or '-'}"
    )

# %%
for key, d in stream_reset.RESET_DIFFERENCES.items():
    print(f"{key} ({d.rfc}): {d.text}\n")
    for row in reset_rows.itertuples():
        if key in row.explained_by.split(",") and key in row.evidence:
            part = [e for e in row.evidence.split(" | ") if e.startswith(key + ":")][0]
            print(f"    evidence, {row.scenario}: {part[len(key) + 2 :]}\n")

# %% [markdown]
# **What the stream-reset rows say.** In both directions both stacks deliver all 100
# messages and the receiving application sees the same SSNs (the cell above prints it from
# the table). With the reset requested by the receiver the last delivery agrees within
# 10 %. With the reset requested by the sender the model finishes earlier: usrsctp refuses
# further writes on the stream whose reset is pending and its writer waits, holding up
# stream 0 too, while the model queues those messages and keeps stream 0 flowing — a
# difference of API, not of the protocol (`reset_pending_send_refused`, RFC 6525 5.1.2 and
# RFC 6458 8.3.2). The request itself leaves each stack at a time set by its congestion
# window (`reset_request_timing`).

# %% [markdown]
# ## Message interleaving and stream schedulers (RFC 8260)
#
# The `interleaving` experiment (`transportlab.studies.sctp_validation.interleaving`, the
# same 20 cases in quick and full mode): one association on a 10 Mb/s, 10 ms link carries
# four 256-KB bulk messages on stream 0 (written at once) and fifty 100-B messages on
# stream 1 (one due every 20 ms), with DATA or I-DATA, each scheduler both stacks have
# (first come first served, round robin, round robin per packet, priority with the small
# stream first, fair bandwidth / fair capacity), without loss and with three forward
# packets lost. Per case: the small messages' latency (delivery minus due time), how many
# arrive before the last bulk message, and whether each stack completes. A case
# **agrees** when the median latency is within 10 % (or 10 ms) and the count within 5
# messages; a gap is **explained** only when the measured check of a named cause holds on
# the two *wire tables*: what each sender hands to its link, chunk by chunk (usrsctp:
# `usrsctp-oracle chunk_trace=1`; the model: the devices' `MacTx` and the traffic control
# layer's `TcDrop`, the same place, before the queue), with each SACK, queue drop and cwnd
# change (`transportlab.studies.sctp_validation.wire`).

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.headlines import notebook_numbers
from transportlab.studies.sctp_validation import interleaving

IL = results.table("interleaving")
columns = ["scenario", "usrsctp_small_before_last_bulk", "ns3_small_before_last_bulk",
           "usrsctp_latency_median_s", "ns3_latency_median_s", "verdict", "explained_by"]  # fmt: skip
print(IL[columns].round(3).fillna("").to_string(index=False))

# %% [markdown]
# **The causes, each with its check** (the evidence printed under each is measured from
# the two wire tables of the case; usrsctp / model):
#
# * `usrsctp_rr_packet_data_stall`: usrsctp's round robin per packet picks a packet's
#   stream without looking at the half-sent DATA message (`sctp_ss_rrp_select` returns the
#   next stream; the other schedulers' `sctp_ss_default_select` keep `locked_on_sending`),
#   so small messages take TSNs *inside* bulk DATA messages, against RFC 9260 6.9. The
#   receiver never completes those messages, their fragments fill its reassembly queue
#   until it drops every new TSN (usrsctp keeps at most 512 chunks queued), the cumulative
#   ack stops and T3-rtx resends the next TSN until the run ends. Check: TSNs of other
#   messages inside bulk messages on usrsctp and none on the model, the cumulative ack
#   stopped short of the highest TSN with the next TSN sent again, no bulk delivered.
# * `rr_first_turn` (RFC 8260 3.2, which does not say which stream goes first): usrsctp
#   sends each message as it is written, so the small messages written at establishment
#   take the first TSNs; the model sends what the application writes in its connect
#   callback together, and its round robin starts at stream 0. Check: only the first turn
#   differs, and the messages sent after the last bulk message have the same latency.
# * `queue_delay` (RFC 9260 7.2.1): the scheduler lets each small message out at the same
#   time on both stacks, and the latency gap is time on the link, behind the bulk data
#   each stack's cwnd keeps in the 100-packet queue; usrsctp's faster slow start (the
#   bulk scenarios' `abc_l2` and `initial_cwnd`) overshoots to a larger cwnd and more
#   queue drops. Check: per message the wait at the sender agrees, the link time does not.
# * `bulk_pace` (RFC 9260 6.9, 7.2.1): with DATA a small message waits for the whole bulk
#   message being sent; both stacks follow the same priority rule, and usrsctp's bulk
#   messages take longer where it loses more at the queue. Check: on both stacks the
#   small messages before the last bulk message are exactly those due before it started,
#   the longest wait at the sender is the longest bulk message, and the stack whose last
#   bulk message started later retransmitted more before it.
# * `usrsctp_fcfs_interleaves` (RFC 8260 3.1): with I-DATA usrsctp's first-come scheduler
#   lets later small messages in between the fragments of an earlier bulk message.

# %%
for key, d in interleaving.INTERLEAVING_DIFFERENCES.items():
    print(f"{key} ({d.rfc}): {d.title}")
    for row in IL.itertuples():
        explained = str(row.explained_by) if isinstance(row.explained_by, str) else ""
        if key in explained.split(","):
            part = [e for e in row.evidence.split(" | ") if e.startswith(key + ":")][0]
            print(f"    {row.scenario}: {part[len(key) + 2 :]}")
    print()

# %% [markdown]
# The wire facts side by side for every case that does not agree
# (`reproduction.interleaving_evidence`, usrsctp / model): small messages given TSNs before
# the first bulk chunk and in the next three gaps between bulk runs, TSNs of small messages
# inside bulk messages (with I-DATA that is interleaving; with DATA a violation), the
# median wait at the sender and time on the link, the longest bulk message, queue drops,
# retransmitted chunks, cwnd peak, and where usrsctp's cumulative ack stopped when it did
# not complete.

# %%
# NBVAL_CHECK_OUTPUT
EVIDENCE = reproduction.interleaving_evidence(results)
print(EVIDENCE.to_string(index=False))

# %% [markdown]
# **What the interleaving rows say.** Every case either agrees or has its gap explained by
# a check on the traces; the counts, the causes and the cases each explains are printed
# below from the committed table. No gap is a model bug: where the schedulers' rule is the
# same, the remaining gaps are congestion control (the cwnd each stack reaches), the first
# turn of round robin, and two usrsctp scheduler behaviours, one of which (round robin per
# packet with DATA) breaks RFC 9260 6.9 and stalls the association.

# %%
# NBVAL_CHECK_OUTPUT
print(notebook_numbers("sctp_validation", "interleaving"))

# %% [markdown]
# ## NS-2.35's SCTP as a second reference
#
# usrsctp is a production stack; NS-2.35's `Agent/SCTP` (the SCTP module 3.8 of the
# simulator four of our five seed studies used) is the other reference a reader of those
# studies will ask about. The same scenarios run in NS-2.35 itself (Debian's `ns`) and on
# our model **started from NS-2.35's defaults** (`SctpStackHelper::GetNs2Defaults("2.35")`,
# then the scenario's own settings, exactly those the NS-2 script sets), so both simulators
# start from one configuration.
#
# **How a scenario becomes an NS-2 script**
# (`transportlab.studies.sctp_validation.ns2_scenario`, generated from the scenario's
# fields): two nodes, one duplex link of the scenario's rate and delay, `Queue/DropTail`
# of `queue_packets + 1` (NS-2 counts the packet in transmission), an `Agent/SCTP` pair with
# the scenario's MTU, windows, RTO bounds, SACK delay and frequency, no idle HEARTBEATs, and
# the application's writes at time 0. **Losses** use NS-2's list error model
# (`ErrorModel/List`), which drops forward packets by their number: NS-2 itself finds the
# numbers (run, walk the forward packets through the same rule as the model's error
# model — by TSN, by list, or the seeded hash of (TSN, transmission) — add the first
# packet the rule loses and the list does not, run again), so both simulators lose the
# same transmissions of the same data.
#
# **What NS-2.35 cannot express** is refused before anything runs (more than one stream,
# SACK frequencies other than 1 and 2, a Max.Burst other than 4):
#
# **Tolerance** (the study's, written down before comparing): completion times and cwnd
# trajectories (mean |difference| relative to NS-2's mean cwnd) within 10 %; counts (fast
# and T3 retransmissions, T3 expiries, queue drops) within 10 % of the larger, i.e. equal
# below 10. Both simulators are deterministic: **one run per scenario and simulator**
# (NS-2 takes a few more runs per scenario to find its drop list; `ns2_runs` counts them).

# %%
from transportlab.studies.sctp_validation import ns2_baseline, ns2_scenario

for sc in stacks.full_scenarios():
    if ns2_scenario.ns2_problem(sc):
        print(ns2_scenario.ns2_problem(sc))

# %% [markdown]
# The comparison in this notebook's mode (quick mode: the dozen scenarios of the test
# suite but `streams_4`), per metric: scenarios where NS-2.35 and the model agree within
# the tolerance, and where they differ.

# %%
# NBVAL_CHECK_OUTPUT
NS2_TABLE = ns2_baseline.table(quick=quick, progress=False)
print(ns2_baseline.agreement_counts(NS2_TABLE).to_string(index=False))

# %% [markdown]
# **The full-mode comparison (the result)**, committed in
# `data/results/sctp_validation/ns2_baseline.csv`
# (`python -m transportlab.studies.sctp_validation.ns2_baseline`): every scenario of the
# full set that NS-2 can express, one run each in both simulators.

# %%
FULL_NS2 = committed_table("sctp_validation", "ns2_baseline").fillna(
    {"differing": "", "explained_by": "", "every_packet_differing": "", "refused_growth": "",
     "first_sack_differing": "", "first_refused_by": ""}
)
counts = ns2_baseline.agreement_counts(FULL_NS2)
print(f"{len(FULL_NS2)} scenarios compared, one run per scenario and simulator, "
      f"{int(FULL_NS2.ns2_runs.sum())} NS-2 runs in all (drop lists included)")
print(counts.to_string(index=False))
shown = FULL_NS2.assign(diff=(100 * FULL_NS2.completion_diff).round(1))
print(shown[["scenario", "ns2_completion_s", "ns3_completion_s", "diff", "ns2_fast", "ns3_fast",
             "ns2_t3", "ns3_t3", "cwnd_diff", "differing", "explained_by"]]
      .round({"ns2_completion_s": 3, "ns3_completion_s": 3, "cwnd_diff": 3})
      .to_string(index=False))

# %% [markdown]
# ### What NS-2 sends and what the model sends
#
# The experiment behind the differences: the first frames of `no_loss` in both, seen at
# the sender (NS-2's link trace; for the model a pcap of the link decoded by tshark). TSN
# is the DATA chunk's (relative to the first), or the SACK's cumulative TSN ack.

# %%
# NBVAL_CHECK_OUTPUT
NS2_RESULTS, NS3_RESULTS = ns2_baseline.results(quick=quick, progress=False)
ns2_tables = NS2_RESULTS[ns2_baseline.EXPERIMENT.name]
ns3_tables = NS3_RESULTS[ns2_baseline.EXPERIMENT.name]
ns2_no_loss = ns2_baseline.trace(ns2_tables, "no_loss", ns2_baseline.NS2_TRACE)
ns3_no_loss = ns2_baseline.trace(ns3_tables, "no_loss", ns2_baseline.NS3_TRACE)
frames = ns2_baseline.chunk_traces(ns2_no_loss, count=16)
print(frames.to_string())
model_frames = ns2_baseline.model_chunks(ns2_no_loss.scenario)
print("first SACKs acknowledge TSN: NS-2.35",
      ns2_baseline.first_sacks(ns2_baseline.ns2_chunks(ns2_no_loss)),
      "model", ns2_baseline.first_sacks(model_frames))
print("NS-2's first DATA leaves later by (ms):",
      round(1e3 * ns2_baseline.start_shift(ns2_no_loss, ns3_no_loss), 1))

# %% [markdown]
# Two differences show in the first frames:
#
# * `confirm_heartbeat`: after the COOKIE ACK NS-2.35 sends a HEARTBEAT and holds its DATA
#   until the HEARTBEAT ACK, one round trip; the model sends DATA at once (RFC 9260 5.4
#   counts the address the association was set up on as confirmed). The experiment: move
#   NS-2's DATA phase back by that round trip (`completion_diff_shifted`,
#   `cwnd_diff_shifted`); where the gap then lies within 10 % the HEARTBEAT accounts for it.
# * `first_data_sack`: NS-2.35 acknowledges the first DATA chunk at once, as RFC 9260 5.1
#   requires (a MUST), then every second packet; the model's default delays the first SACK
#   too, so the two receivers pair packets differently from the start. **The model's
#   default is wrong here**: its `ImmediateFirstSack` attribute does what the RFC says, but
#   stays false until every SCTP study is re-run with it, since it moves every SCTP result
#   of the project; the numbers in this notebook are those of the default. What the
#   attribute changes against NS-2 is measured below ("With `ImmediateFirstSack`").
#
# Which packet is left alone at the end of a flight, and waits for the 200-ms
# delayed-SACK timer, depends on that pairing. A tail loss with 10 and with 11 TSNs (the
# last one lost) in both simulators shows it: the SACKs before the T3 retransmission and
# the completion times.

# %%
# NBVAL_CHECK_OUTPUT
PHASE = ns2_baseline.sack_phase_experiment()
print(PHASE.round(3).to_string(index=False))

# %% [markdown]
# With an even number of TSNs the model's pairs end one packet before the lost one, so that
# packet waits for the delayed-SACK timer, and T3-rtx (restarted by its SACK) expires a
# SACK delay later than in NS-2; with an odd number it is NS-2's last packet that waits,
# and the gap changes sign. The scenarios whose first T3 retransmissions lie one
# SACK delay apart (`t3_gap_s`, within 10 % of the delay) are named `first_data_sack`;
# for the rest, both simulators run the scenario again with a SACK for every packet (no
# pairing): where every metric then agrees (after the HEARTBEAT shift) the pairing
# accounted for the difference (`every_packet_differing` lists what still differs).
# A second pairing run has the model's `ImmediateFirstSack` on (NS-2's pairing,
# `first_sack_differing`); either run names `first_data_sack` when the metrics that
# differed agree there. `gap_fill_sack`: where a T3 retransmission fills the receiver's
# gap, the model SACKs at once and NS-2.35 delays the SACK (`ns2_rtx_sack_s` against
# `ns3_rtx_sack_s`, for the TSN `gap_fill_tsn`).
#
# **NS-2.35's cwnd rules** (read in its `sctp/sctp.cc`) are three more named differences,
# each a cwnd difference only, shown by undoing the rule on one trace (NS-2 moved back by
# its HEARTBEAT round trip as above) and comparing again:
#
# * `idle_cwnd_decay`: every packet NS-2 sends reschedules the destination's
#   `CwndDegradeTimer` to one RTO; when it expires the cwnd falls to max(cwnd/2, 4 MTU)
#   (ssthresh unchanged), whether data is outstanding or not, and only a T3-rtx expiry
#   cancels the timer. So with a tail loss NS-2 decays once before its T3 expiry. RFC 9260
#   7.2.1 says "when the endpoint does not transmit data on a given transport address";
#   the model decays only a destination with nothing in flight. The experiment: NS-2's
#   trace with its decays undone (`idle_decays` of them, `cwnd_diff_no_idle_decay`).
# * `utilization_test`: NS-2 grows the cwnd only if the bytes outstanding before the
#   SACK are at least the cwnd, in slow start and congestion avoidance alike; the model's
#   default counts the window as fully utilized when less than one PMDCS of it is free,
#   so when the application or the peer's window limits the flight, it grows once more.
#   RFC 9260 7.2.1 does not say when the window is "fully utilized" in slow start; in
#   congestion avoidance 7.2.2 asks for a flight size of at least the cwnd, so there
#   **the model's default departs from the RFC**. Its `UtilizationAtCwnd` attribute
#   applies 7.2.2's test in both phases (default false until the SCTP studies are re-run
#   with it): where `utilization_test` is named, the model runs once more with it
#   (`cwnd_diff_utilization_at_cwnd`, NS-2 moved back and its idle decays undone).
# * `cum_ack_growth`: NS-2 adjusts the cwnd only on a SACK that advances the cumulative
#   TSN ack (RFC 4960's rule); RFC 9260 dropped that condition, and the model grows on
#   bytes that gap blocks newly acknowledge too. The model's `CwndGrowthOnCumAckOnly`
#   attribute applies RFC 4960's rule (default false until the SCTP studies are re-run
#   with it).
#
# For the last two the experiment is the model's trace with the increases NS-2 would
# refuse undone (`refused_growth` names which rule refused them, from the model's SACKs
# decoded from its pcap; `cwnd_diff_ns2_growth`, and `cwnd_diff_ns2_rules` with NS-2's
# idle decays undone too). A rule is named when the cwnd trajectories agree once it is
# undone and undoing it changes the difference. Undoing an increase on the trace cannot
# show what NS-2 would have done after it, though: once the model's larger window has
# sent more, the losses (drawn per TSN and transmission) fall on other packets and the
# two runs no longer see the same SACKs. So `cum_ack_growth` is decided by a model run:
# every scenario whose model grows where RFC 4960's rule refuses runs once more with all
# of the model's attributes for NS-2's rules together (`ImmediateFirstSack`,
# `UtilizationAtCwnd`, `CwndGrowthOnCumAckOnly`; NS-2's idle decays undone on its trace:
# `ns2_baseline.ns2_rules_run`, the `ns2_rules_*` columns), and `cum_ack_growth` is named
# only where every metric then agrees.

# %%
# NBVAL_CHECK_OUTPUT
differing = FULL_NS2[FULL_NS2.differing.fillna("") != ""]
print(differing[["scenario", "differing", "completion_diff_shifted", "cwnd_diff_shifted",
                 "t3_gap_s", "gap_fill_tsn", "ns2_rtx_sack_s", "ns3_rtx_sack_s",
                 "every_packet_differing", "explained_by"]].round(3).to_string(index=False))
print(differing[["scenario", "idle_decays", "cwnd_diff_no_idle_decay", "refused_growth",
                 "cwnd_diff_ns2_growth", "cwnd_diff_ns2_rules", "cwnd_diff_utilization_at_cwnd",
                 "first_sack_differing"]].round(3).to_string(index=False))
named = differing.explained_by.fillna("").str.split(",").explode()
print("named differences:", named[named != ""].value_counts().to_dict())
left = ns2_baseline.unexplained(FULL_NS2)
print("differing scenarios no experiment explains:", list(left.scenario))
print(left[["scenario", "differing", "first_refused_by", "first_refused_s",
            "cwnd_diff_before_refused", "cwnd_diff_ns2_rules"]].round(4).to_string(index=False))
tried = FULL_NS2[FULL_NS2.ns2_rules_agrees.notna()]
print("with all of NS-2's rules in the model (ns2_rules_run):")
print(tried[["scenario", "explained_by", "ns2_rules_differing", "ns2_rules_completion_diff",
             "ns2_rules_cwnd_diff", "ns2_rules_cwnd_diff_shifted", "ns2_rules_parted_s",
             "ns2_rules_ns2_cwnd", "ns2_rules_ns3_cwnd"]]
      .fillna({"ns2_rules_differing": ""}).round(4).to_string(index=False))

# %% [markdown]
# **Not yet explained** (the list above): no experiment here makes these gaps disappear;
# they are left open, not fitted away. What the traces do show is where the cwnd
# trajectories part: the model's first cwnd increase that NS-2 would refuse
# (`first_refused_by` at `first_refused_s`, seconds from the INIT), with the cwnd
# difference up to that instant (`cwnd_diff_before_refused`).
#
# The run with all of NS-2's rules (the last table above) settles `cum_ack_growth`: where
# `ns2_rules_differing` is empty the model agrees with NS-2 on every metric once it grows
# the cwnd as NS-2 does, and `cum_ack_growth` is named. Where something still differs,
# that run parts from NS-2 elsewhere: `ns2_rules_parted_s` is the first cwnd change the
# two trajectories no longer share (NS-2 moved back by its HEARTBEAT round trip), with the
# cwnd each takes there. For `random_10pct_s2` the two runs send the same packets up to
# that instant, a SACK whose cumulative TSN ack reaches the highest TSN outstanding at the
# first fast retransmit. NS-2, with cwnd = ssthresh after that fast retransmit and so in
# slow start, grows its cwnd on it (its `AdjustCwnd` asks only that the cumulative ack be
# at or past its recovery point) and sends one packet more; the model counts that SACK as
# still in Fast Recovery and does not grow, then both cut to the same cwnd at the next
# fast retransmit. RFC 9260 (7.2.1, 7.2.4) does not say whether the SACK that reaches the
# Fast Recovery exit point still belongs to Fast Recovery. That is not yet a named
# difference: the model has no attribute that grows on that SACK, so no run shows that it
# accounts for the rest of the gap.
#
# The three cwnd rules on one scenario: `loss_tail` with `ImmediateFirstSack` on (so the
# first SACK no longer differs): NS-2's idle decay before its T3 expiry, the model's
# increase that NS-2's utilization test refuses, the cwnd difference with each undone,
# and with the model's `UtilizationAtCwnd` on instead of undoing its increase.

# %%
# NBVAL_CHECK_OUTPUT
tail = stacks.scenario_by_name("loss_tail")
ns2_tail, _ = ns2_scenario.run_scenario(tail)
ns3_tail, tail_frames = ns2_baseline.model_run(tail, ns2_baseline.IMMEDIATE_FIRST_SACK)
print("NS-2.35 idle decays:")
print(ns2_baseline.idle_decays(ns2_tail).round(5).to_string(index=False))
print("NS-2.35 T3-rtx expiries (s):", [round(t, 5) for t in ns2_tail.timeout_times])
refused = ns2_baseline.refused_growth(ns3_tail, tail_frames)
print("model cwnd increases at a SACK, and which NS-2 would refuse:")
print(refused.round(5).to_string(index=False))
row = ns2_baseline.compare_pair(ns2_tail, ns3_tail, tail_frames)
print({key: round(row[key], 4) for key in ("cwnd_diff_shifted", "cwnd_diff_no_idle_decay",
                                           "cwnd_diff_ns2_growth", "cwnd_diff_ns2_rules")},
      "explained by:", row["explained_by"])
print("with UtilizationAtCwnd too (NS-2's idle decay undone):",
      round(ns2_baseline.utilization_at_cwnd_diff(ns2_tail, tail,
                                                  ns2_baseline.IMMEDIATE_FIRST_SACK), 4))

# %% [markdown]
# ### With `ImmediateFirstSack`
#
# The experiment for `first_data_sack`: the scenarios it explains run again, NS-2.35
# against the model with `ImmediateFirstSack` on (`ns2_baseline.first_sack_experiment`,
# committed as `data/results/sctp_validation/ns2_first_sack.csv`:
# `python -m transportlab.studies.sctp_validation.ns2_baseline --first-sack`). Per metric,
# how many of them agree with NS-2 with the attribute off (the table above) and on; per
# scenario the completion-time gap (also with NS-2 moved back by its HEARTBEAT round
# trip), the gap between the first T3 retransmissions where there is one, the wait from
# the first DATA to the first SACK at the sender in both simulators, and what still
# differs once the named differences account for theirs (the HEARTBEAT shift, NS-2's cwnd
# rules: `explained_by`). Where a cwnd trajectory differs with the attribute on, the first
# SACK no longer accounts for it; where `cum_ack_growth` applies, the run with all of
# NS-2's rules decides it as above (the `ns2_rules_*` columns); where no cwnd rule
# accounts for it, `first_refused_by` says where the trajectories part, as above.

# %%
# NBVAL_CHECK_OUTPUT
print(notebook_numbers("sctp_validation", "first_sack"))
FIRST_SACK_TEXT = ["differing_default", "differing", "explained_by", "still_differing",
                   "first_refused_by", "ns2_rules_differing"]  # fmt: skip
FIRST_SACK = committed_table("sctp_validation", "ns2_first_sack")
FIRST_SACK = FIRST_SACK.astype(dict.fromkeys(FIRST_SACK_TEXT, object)).fillna(
    dict.fromkeys(FIRST_SACK_TEXT, "")
)
print(FIRST_SACK[["scenario", "differing_default", "differing", "explained_by",
                  "still_differing", "completion_diff", "completion_diff_shifted",
                  "cwnd_diff_shifted", "cwnd_diff_ns2_rules", "cwnd_diff_utilization_at_cwnd",
                  "t3_gap_s", "first_refused_by"]].round(3).to_string(index=False))
print(FIRST_SACK[FIRST_SACK.ns2_rules_agrees.notna()][
    ["scenario", "ns2_rules_differing", "ns2_rules_completion_diff", "ns2_rules_cwnd_diff"]
].round(3).to_string(index=False))

# %%
for key, text in ns2_baseline.DIFFERENCES.items():
    print(f"{key}: {text}\n")

# %% [markdown]
# `results.write()` writes the validation table (`validation.csv`) and both figures
# into this notebook's own folder `data/explore/sctp_validation/<label>/` (`quick`, `full`, or
# the mode and a hash of `params` and `runs`; its `provenance.json` records them), so
# exploring never overwrites the committed results; `transportlab reproduce --study sctp_validation`
# writes the same files without Jupyter into `data/results[/quick]/sctp_validation/`.

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.engine.paths import project_root

for written in results.write():
    print(written.relative_to(project_root()))

# %% [markdown]
# ## Explore
#
# Change any parameter this study's experiments do not set themselves and press **Run**.
# The controls come from the study's declared parameters (type, unit and allowed range;
# hover over one for its help text). The values are checked as `transportlab` checks
# them (types, ranges, relations between parameters) before anything runs; then the point
# runs in this notebook's mode (quick: short runs, few replications) through the results
# cache, with a progress bar, and the study's figure for it appears beside the committed
# full-mode one. Its files go to a folder of its own under `data/explore/sctp_validation/` (the
# status line names it), never into `data/results/`. For many points at once, use
# `transportlab sweep`.

# %%
from transportlab.explore import Explorer

explorer = Explorer(results)
explorer

# %% [markdown]
# ## References
#
# Standards and tools this notebook relies on (the README's References has them all):
#
# * RFC 9260: R. Stewart, M. Tüxen, K. Nielsen. *Stream Control Transmission Protocol.*
#   IETF, June 2022.
# * usrsctp: the userland SCTP stack of FreeBSD, https://github.com/sctplab/usrsctp (Debian
#   libusrsctp 0.9.5).
# * ns-3: G. F. Riley, T. R. Henderson. *The ns-3 Network Simulator.* In *Modeling and Tools
#   for Network Simulation*, Springer, 2010; ns-3.44, https://www.nsnam.org.
