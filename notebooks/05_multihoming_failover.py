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
# # SCTP multi-homing: failover, stalls under loss, and partial reliability for voice
#
# **Study:** `multihoming_failover`. Seed `002_8ca3fd7f92b4e1a6.txt` (a 2003 project
# report on SIP over SCTP) wanted to show multi-homing and could not: in its section 5.5
# machine A (192.168.10.1 primary, 192.168.10.2) sent SCTP messages to machine B
# (192.168.10.3) over a 100 Mb/s hub, the primary cable was unplugged, and lksctp
# 2.4.18-0.4.6 "kept retransmitting the data packets using the primary network interface
# and paused after the maximum number of re-transmissions". Its section 3.5 cites
# Brennan et al. (2001): under 15 % loss a single-homed association stalled for more than
# 3 s, a multi-homed one for about 0.5 s. Seed `001_8dea97bcf2df26a4.txt` (voice over
# SCTP) needs partially reliable delivery. Three experiments:
#
# 1. Seed 002 §5.5: does the transfer survive the unplugged primary, and how fast? Here:
#    the seed's hub, then both hosts multi-homed; failover time against the RFC 9260
#    timers (Path.Max.Retrans, RTO.Min, HB.interval); then the same failure under three
#    named stack configurations: RFC 9260, Linux and FreeBSD/usrsctp.
# 2. Seed 002 §3.5 (Brennan et al.): single- vs multi-homed under 15 % loss. Here: a bulk
#    transfer, TSN-versus-time, the first loss and the stall it causes over
#    replications, multi-homed with and without SCTP-PF (RFC 7829).
# 3. Voice over SCTP (seed 001): full reliability vs PR-SCTP lifetime vs k-rtx, with UDP
#    as the floor. Here: a 64 kb/s voice-like stream over a lossy link.
#
# **The model.** Our SCTP (`src/sctp`, RFC 9260) with multi-homing (address lists in INIT
# and INIT ACK, one path per peer address with its own cwnd, ssthresh, RTO and error
# counter, HEARTBEATs on idle paths every HB.interval + RTO with ±50 % jitter, a path
# inactive after Path.Max.Retrans + 1 consecutive errors, retransmissions to an alternate
# address, return to the primary when it answers heartbeats again) and PR-SCTP (RFC 3758
# FORWARD TSN; the RFC 7496 lifetime and limited-retransmission policies), and SCTP-PF
# (RFC 7829: a destination is "potentially failed" after PotentiallyFailed.Max.Retrans
# errors and gets no new data; off unless asked for, as in RFC 9260).
#
# **What differs from the original, and why**
#
# * Section 1: a cable is "unplugged" by dropping every frame of A's primary device,
#   without telling IP (the seed's 2.4.18 host did not react to carrier loss either).
#   In the hub set-up B has one address, so A's only way out is to send from its other
#   address: our model does this when the retransmission timer expires
#   (`source_failover`, RFC 9260 section 6.4.1); `source_failover=False` is the seed's
#   lksctp behaviour. The RFC's destination failover needs a multi-homed peer, so the
#   timer sweep uses two independent 10 Mb/s, 10 ms links between two dual-homed hosts.
#   A sends a 1000-byte message every 10 ms (the seed's test program sent messages; its
#   rate is not given).
# * Section 2: Brennan et al.'s topology, rates and exact loss placement are not in the
#   seed. We use two independent 10 Mb/s, 10 ms links; the primary one loses 15 % of the
#   packets in each direction (from the moment the association is up, so that a lost
#   INIT does not decide a run), the second is loss-free; retransmissions go to the
#   alternate address (NS-2's `rtxToAlt_` default, `rtx_to_alt="ALTERNATE"`).
#   RTO.Min 1 s and RTO.Max 60 s are the RFC 9260 defaults (and RFC 2960's). RTO.Initial
#   is 3 s, which is **not** RFC 9260's default (1 s): it is the value of the seeds'
#   era, RFC 2960 (2000) and RFC 4960, and of NS-2.35's `Agent/SCTP set initialRto_ 3.0`
#   (`tcl/lib/ns-default.tcl`), taken as the configuration of Brennan et al.
#   (2001), whose parameters seed 002 does not give. It only times a lost INIT or the
#   first DATA before any RTT sample; the loss starts 0.1 s after the transfer, once the
#   first DATA chunks have been acknowledged (RTT samples), so from then on the RTO is
#   max(RTO.Min, SRTT + 4 RTTVAR) = 1 s on these 20-ms paths whatever RTO.Initial was.
# * Section 3: one 10 Mb/s, 10 ms link losing `loss_rate` of the packets each way; a
#   172-byte frame (160 bytes of G.711 + 12 of RTP header) every 20 ms; SCTP unordered
#   for the PR-SCTP policies, ordered for full reliability.
#
# **Where the numbers come from.** Every simulation, table, figure and comparison row
# below is computed by the package `transportlab.studies.multihoming_failover`
# (`scenario.py` runs ns-3, `analysis.py` computes the metrics, `reproduction.py`
# declares the four experiments, the tables, the figures and the comparison), so
# `transportlab reproduce --study multihoming_failover` writes the same files without
# Jupyter. Each experiment states its points and runs (ns-3 RngRun 1..n) below.

# %% tags=["parameters"]
quick = True  # quick mode: few points and replications (tests, CI, Binder)
scheduler = None  # None: in this process when quick, a local Dask cluster otherwise
runs = None  # replications (RngRun 1..runs) of every experiment; None: each its own (below)
params = {}  # study parameters that differ from the defaults

# %%
import pandas as pd

from transportlab.notebooks import start

results = start("multihoming_failover", globals())
PARAMS = results.params
pd.set_option("display.width", 120)
results.study.parameters.describe().assign(value=[PARAMS[n] for n in PARAMS])[
    ["name", "value", "unit", "help"]
]

# %%
# NBVAL_IGNORE_OUTPUT
# ns-3 with the transportlab library (~2 s with the precompiled header, 10+ s without).
from transportlab import ns  # noqa: F401

# %% [markdown]
# The five experiments, their points and replications (quick mode: fewer points, shorter
# runs; the seed hub and timer runs contain nothing random, so one run each):

# %%
# NBVAL_CHECK_OUTPUT
for experiment in results.experiments:
    n_points, n_runs = len(results.points(experiment.name)), results.runs(experiment.name)
    print(f"{experiment.name}: {n_points} points x {n_runs} run(s): {experiment.description}")

# %% [markdown]
# ## 1. The unplugged primary interface (seed 002 section 5.5)
#
# ### 1a. The seed's hub
#
# A (two interfaces) sends to B (one) on one hub; the primary cable is pulled at 5 s.
# With source-address failover the first retransmission timeout (RTO.Min = 1 s, the
# RTT is 0.1 ms) moves A to its second interface; without it (the seed's lksctp) A keeps
# retransmitting on the dead interface with doubling timeouts.

# %%
hub = results["seed_hub"]

# %%
# NBVAL_CHECK_OUTPUT
print(results.table("seed_hub").round(3).to_string(index=False))

# %%
fig = results.figure("seed_hub_tsn")

# %% [markdown]
# Our model continues one RTO (1 s) after the failure; with the seed's behaviour nothing
# arrives after 5 s: A retransmits on the dead interface at 1, 2, 4, 8 ... s intervals
# and would abort after Association.Max.Retrans = 10 timeouts, which is what the seed saw
# ("paused after the maximum number of re-transmissions").
#
# ### 1b. Both hosts multi-homed: the RFC 9260 failover and its timers
#
# Section 8.2: every T3-rtx expiry on the primary counts an error; at Path.Max.Retrans + 1
# consecutive errors the destination becomes inactive and new data goes to the alternate.
# The RTO doubles at each expiry (capped at RTO.Max), and the first expiry comes at most
# one RTO after the failure, so by the T3-rtx timer alone the failover happens in the
# window
# $\left(\sum_{i=1}^{PMR} \min(2^i\,\mathrm{RTO}, \mathrm{RTO_{max}}),\ \sum_{i=0}^{PMR}
# \min(2^i\,\mathrm{RTO}, \mathrm{RTO_{max}})\right]$ after it
# (`analysis.failover_window`). Heartbeats can only make it earlier: once the primary has
# had nothing RTT-measurable sent to it for HB.interval + RTO (its cwnd collapsed to one
# packet after a timeout, so it sends little), it gets a HEARTBEAT, and an unanswered
# HEARTBEAT counts an error too (8.3). First the timer sweep with the RFC default
# HB.interval of 30 s, then HB.interval at Path.Max.Retrans 3, RTO.Min 1 s, where the
# primary is also plugged back 2 s after the window's end: heartbeats to the inactive
# address leave every HB.interval + RTO (±50 %), so the return comes within
# HB.interval + 1.5 RTO.Max + RTT (`analysis.return_bound`). Each run lasts until 2 s
# after its window or bound (`reproduction.timer_point`).

# %%
timers = results["failover_timers"]

# %%
# NBVAL_CHECK_OUTPUT
print(results.table("failover_timers").round(3).to_string(index=False))

# %%
fig = results.figure("failover_timers")

# %% [markdown]
# With HB.interval = 30 s every failover lies inside its T3-rtx window, and it grows as
# $2^{PMR+1}$ RTO.Min: with the RFC defaults (Path.Max.Retrans 5, RTO.Min 1 s) a dead
# primary costs about a minute before new data moves, which is why deployments lower
# Path.Max.Retrans or RTO.Min, or use the potentially-failed state of RFC 7829 (section
# 1c). A 1 s heartbeat interval brought the failover below the window (unanswered
# heartbeats to the stalled primary added errors); from 2 s on it made no difference
# here (the committed full-mode numbers are printed after this text). The return after
# the repair is decided by when the next heartbeat to the inactive path leaves, i.e. by
# its backed-off RTO and the jitter more than by HB.interval, and stays far inside the
# bound. Deliveries
# resume earlier than the failover, after the first timeout (`resume_s` ≈ one RTO),
# because retransmissions already go to the alternate address; new data keeps going to
# the dead primary until the failover, so deliveries stall again at every backoff.
# Each point is one deterministic run (nothing random in these runs).

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.engine.results import committed_table

full_timers = committed_table("multihoming_failover", "failover_timers")
heartbeats = full_timers[full_timers["return_s"].notna()]
print(
    f"full mode: failover inside the window in {int(full_timers['in_window'].sum())} of "
    f"{len(full_timers)} settings; Path.Max.Retrans 3, RTO.Min 1 s:"
)
for r in heartbeats.itertuples():
    print(
        f"  HB.interval {r.hb_interval:g} s: failover {r.failover_s:.1f} s (window "
        f"{r.window_low_s:g}-{r.window_high_s:g} s), return {r.return_s:.1f} s after the repair "
        f"(bound {r.return_bound_s:.0f} s)"
    )

# %% [markdown]
# ### 1c. The same failure under named stack presets: RFC 9260, Linux, FreeBSD
#
# `ns.SctpStackHelper.SetPreset(name)` sets the socket defaults of a named stack, every
# value from its source (`src/sctp/helper/sctp-stack-helper.cc`; checked by
# `tests/sctp/test_preset_sources.py`): `rfc9260` (RFC 9260 section 16: RTO.Initial 1 s,
# no SCTP-PF), `linux` (the kernel's `Documentation/networking/ip-sysctl.rst`:
# `rto_initial` 3000 ms, `rto_min` 1000, `path_max_retrans` 5, `hb_interval` 30000,
# `sack_timeout` 200, `max_burst` 4, `pf_enable` 1 with `pf_retrans` 0, `ps_retrans`
# 0xffff) and `freebsd` (FreeBSD/usrsctp `sctp_sysctl.h` and `sctp_constants.h`:
# `rto_initial` 1000 ms since 2021, `path_rtx_max` 5, `path_pf_threshold` 0xffff, i.e.
# PF off, `initial_cwnd` 3 MTUs). Both hosts multi-homed (10 Mb/s, 10 ms links), a
# 1000-byte message every 10 ms, the primary dies at 5 s; retransmissions go to an
# alternate on timeouts (RFC 9260 6.4); each run lasts 2 s past the RFC failover window
# of Path.Max.Retrans 5 (70 s). One deterministic run per preset.

# %%
presets = results["presets"]

# %%
# NBVAL_CHECK_OUTPUT
print(results.table("presets").round(3).to_string(index=False))

# %%
fig = results.figure("presets_tsn")

# %% [markdown]
# What the timers predict, and what the runs show (full mode gives the same numbers:
# nothing is random here). The RTT is 20 ms, so every preset's RTO is RTO.Min = 1 s
# when the primary dies (RTO.Initial, 1 s or 3 s, only matters before the first RTT
# sample). **Delivery resumes** in all three one RTO after the failure, on
# path 1 (the committed full-mode numbers are printed after this text): the first
# T3-rtx expiry sends the outstanding chunks to the alternate. **Where
# new data goes** is what differs:
#
# * `rfc9260` and `freebsd` (no SCTP-PF): each expiry counts one error on the primary
#   and doubles its RTO, but the primary stays the destination of new data until the
#   sixth consecutive error (Path.Max.Retrans 5 + 1) marks it inactive: at 1 + 2 + 4 + 8
#   + 16 + 32 = 63 s, inside the window 62-63 s of section 1b. At every expiry a few new
#   chunks go to the dead primary and wait for the next, doubled, timeout before their
#   retransmission on the alternate, so delivery stalls for up to the last backoff and
#   little arrives in the 70 s. FreeBSD and RFC 9260 differ only in the initial cwnd,
#   HB.Max.Burst and the socket buffers: the timers and the failover are identical;
#   FreeBSD delivers a little more because its socket buffers are 256 KiB against the
#   model's 128 KiB (the RFC 9260 preset with 256 KiB buffers delivers as much).
# * `linux` (`pf_enable` 1, `pf_retrans` 0, i.e. PFMR 0): the first expiry makes the
#   primary *potentially failed* (RFC 7829 5.1) one RTO after the failure, and new data
#   moves to the alternate at once: only the chunks sent before it went to the dead
#   path, the longest stall is that first RTO, and all that the source offered arrives.
#   The PF primary then gets a HEARTBEAT every RTO (2 s after the one backoff) without
#   further backoff; five unanswered ones complete Path.Max.Retrans + 1 errors,
#   1 + 5 x 2 = 11 s after the failure. Its RTO.Initial of 3 s changes nothing here (the
#   association had RTT samples long before).

# %%
# NBVAL_CHECK_OUTPUT
for r in committed_table("multihoming_failover", "presets").itertuples():
    pf = "" if pd.isna(r.pf_s) else f", potentially failed at {r.pf_s:.2f} s"
    print(
        f"full mode, {r.stack_preset}: resumes {r.resume_s:.2f} s after the failure on path "
        f"{r.resume_path}{pf}, inactive (failover) at {r.failover_s:.2f} s; "
        f"{r.new_data_to_primary} new chunks to the dead primary, longest stall "
        f"{r.max_stall_s:.2f} s, {r.delivered_MB:.2f} MB delivered"
    )

# %% [markdown]
# ## 2. Single- vs multi-homed under 15 % loss (seed 002 section 3.5, Brennan et al.)
#
# A bulk transfer, 8 s (quick) or 20 s per run: single-homed, multi-homed with SCTP-PF
# off (RFC 9260 alone, as in 2001) and multi-homed with SCTP-PF on (PFMR 0, Linux's
# default; `pf_max_retrans` is a parameter of the study).
#
# **The statistic.** Seed 002 describes one event of Brennan et al.'s traces: "after
# approximately 1.5 seconds of transmission, the slow start phase is interrupted by a
# first lost packet. The retransmitted packet for the first lost packet is also lost. As
# a result, the transmission is halted for more than 3 seconds" (single-homed), and
# "interrupted for only about 0.5 seconds" (multi-homed). So we measure, per run, the
# same two things: **the first loss**, the time of the first DATA packet the loss model
# drops (recorded where it is dropped, `PhyRxDrop` of the receiving device; not the
# first retransmission, which comes one recovery later), and **the stall it caused**,
# the gap between deliveries in which that loss falls (`analysis.gap_containing`: an
# in-order receiver delivers nothing after the lost packet until its retransmission
# arrives, longer if that is lost too). The longest gap of a 20-s run, which the
# comparison used before, is a different statistic (the worst of many events; kept in
# the table as `max_stall_*`), and so is the mean of every stall of a run
# (`mean_stall_s`).

# %%
lossy = results["lossy"]

# %%
fig = results.figure("lossy_tsn")

# %%
# NBVAL_CHECK_OUTPUT
print(results.table("lossy_brennan").round(2).to_string(index=False))

# %%
fig = results.figure("lossy_brennan")

# %%
# NBVAL_CHECK_OUTPUT
print(results.table("lossy_stalls").round(3).to_string(index=False))

# %%
fig = results.figure("stall_lengths")

# %% [markdown]
# **What the runs show** (full mode; its numbers are printed by the cell after this text,
# from the committed tables; the quick-mode tables above have a few short runs). The first
# lost DATA packet comes a fraction of a second (median) after the start: at 15 % loss
# each way, one of the first few packets is lost, while Brennan et al.'s trace ran in slow
# start for ~1.5 s before its first loss (their loss model is not described; a loss rate
# applied to every packet from the start cannot give 1.5 s of loss-free slow start except
# by chance). The stall that first loss causes is short in most runs (its median is a fast
# retransmission, about two RTTs); its mean is pulled up by the few runs where the
# retransmission was lost too, the event seed 002 describes: some single-homed runs stall
# for seconds around their first DATA loss, more than 3 s in a few (as in Figure 3.10; in
# run 1, `lossy_tsn` above: a SACK is lost, the timeout's retransmission is the first
# DATA loss of that run and is lost again, with the RTO doubled each time); no multi-homed
# run stalls much longer than one RTO around its first loss, because the retransmission
# travels the loss-free path. So the ordering is the seed's (single-homed stalls are
# longer), and single-homed stalls of more than 3 s do happen, but not after most first
# losses: seed 002's "> 3 s" is one trace, so the cell gives the probability of that event
# in our runs, P(stall > 3 s), with its exact interval (`lossy_exceedance.csv`, from the
# per-run values in `lossy_runs.csv`), and the mean stall with a percentile bootstrap
# interval, which stays above zero where Student's t did not.
# The first lost packet of either direction (`first_loss_any_s`) is often a SACK, which
# is why the first retransmission (the old "first loss" measure) comes on average before
# the first lost DATA packet.
#
# Over the whole run stalls are frequent and long, and not mainly after DATA losses:
# the loss models drop SACKs too (the cell counts both per run), and when the window is
# one or two packets a lost SACK or DATA packet is rarely followed by the three SACKs a
# fast retransmission needs, so it costs a T3-rtx timeout, and a second loss doubles the
# RTO (1, 2, 4 s ...). The mean stall of a run and the longest stall of a 20-s run (the
# cell below) are the numbers the comparison used before (the worst of the stalls of a
# run, not the statistic of the seed).
# Multi-homed without SCTP-PF, the retransmissions travel the loss-free path, but new
# data still goes to the lossy primary, whose cwnd is one packet after a timeout and
# whose T3-rtx timer keeps its backed-off RTO until a new RTT sample there (RFC 9260
# 6.3.3, per destination): each new chunk lost on the primary waits 1, 2, 4 s before
# its retransmission on the alternate. **SCTP-PF** (PFMR 0) makes the primary
# potentially failed at its first timeout and sends new data to the loss-free path
# until a HEARTBEAT ACK brings the primary back: goodput rises several times over, the
# longest and the mean stall per run fall, and the stall after the first loss does not
# change (the first loss is repaired before the primary has had a timeout); the numbers
# are in the cell below. The published numbers come from one trace each (no replication
# count given); ours are means over the runs stated.

# %%
# NBVAL_CHECK_OUTPUT
brennan = committed_table("multihoming_failover", "lossy_brennan").set_index(["config", "metric"])
stalls = committed_table("multihoming_failover", "lossy_stalls").set_index("config")
print("full mode, committed (lossy_brennan.csv, lossy_stalls.csv):")
for config in stalls.index:
    first = brennan.loc[(config, "transmission_stall")]
    row = stalls.loc[config]
    print(
        f"{config} ({int(row['n_runs'])} runs): stall after the first DATA loss mean "
        f"{first['mean']:.2f} s (95 % bootstrap CI {first['ci_low']:.2f} to "
        f"{first['ci_high']:.2f}), median {first['median']:.2f} s; mean stall of a run "
        f"{row['mean_stall_s']:.1f} s; longest stall per run {row['max_stall_mean_s']:.1f} s "
        f"(median {row['max_stall_median_s']:.1f} s); goodput {row['goodput_kbps'] / 1e3:.2f} Mb/s"
    )

exceedance = committed_table("multihoming_failover", "lossy_exceedance").set_index("config")
per_run = committed_table("multihoming_failover", "lossy_runs")
print("per run (lossy_runs.csv, lossy_exceedance.csv; SCTP-PF off):")
for config, runs in per_run.groupby("config", sort=False):
    e = exceedance.loc[config]
    long = runs[runs["first_loss_stall_s"] > 0.2]["first_loss_stall_s"]
    above = runs[runs["first_loss_stall_s"] > e["threshold_s"]]["first_loss_stall_s"]
    print(
        f"{config} ({int(e['n_runs'])} runs): first DATA loss median "
        f"{runs['first_loss_s'].median():.2f} s, first loss of either direction "
        f"{runs['first_loss_any_s'].mean():.2f} s and first retransmission "
        f"{runs['first_retransmission_s'].mean():.2f} s on average; stall after the first DATA "
        f"loss > 0.2 s in {len(long)} runs, > {e['threshold_s']:g} s in {int(e['runs_above'])}"
        + (f" ({above.min():.1f}-{above.max():.1f} s)" if len(above) else "")
        + f": P(stall > {e['threshold_s']:g} s) = {e['p_above']:.2f} (exact 95 % interval "
        f"{e['p_ci_low']:.2f}-{e['p_ci_high']:.2f}); mean stall {e['stall_mean_s']:.2f} s "
        f"(bootstrap 95 % interval {e['stall_boot_low_s']:.2f}-{e['stall_boot_high_s']:.2f}), "
        f"longest {e['stall_max_s']:.2f} s; lost per run {runs['lost_data_packets'].mean():.0f} "
        f"DATA packets and {runs['lost_sacks'].mean():.0f} SACKs, "
        f"{runs['n_stalls'].mean():.1f} stalls"
    )

# %% [markdown]
# ## 3. PR-SCTP for voice: full reliability, lifetime, k-rtx, and UDP
#
# Five policies (`reliable(0)`, `ttl(150)`: 150 ms lifetime, `rtx(1)` and `rtx(0)`: at
# most one or no retransmission, `udp(0)`) at 5 % loss (quick) or 2, 5 and 10 % (full),
# 15 s (quick) or 65 s per run; the source stops 5 s before the end, so that every frame
# sent has arrived or been given up when the run ends.

# %%
voice = results["prsctp_voice"]

# %%
# NBVAL_CHECK_OUTPUT
print(results.table("voice").round(2).to_string(index=False))

# %%
fig = results.figure("voice_delay")

# %% [markdown]
# Fully reliable, ordered SCTP loses nothing, but a loss holds every later frame until
# the retransmission arrives (fast retransmit after three more SACKs, or a 1 s timeout):
# in full mode (the cell below) a share of the frames growing with the loss rate misses
# the 150 ms budget, which makes them as useless as lost ones. With a 150 ms lifetime or
# one retransmission (k-rtx) and unordered delivery the delay stays near the one-way delay
# and the residual loss falls below UDP's: most losses are repaired once in time, the rest
# are abandoned and skipped by FORWARD TSN. A retransmission after a timeout can still
# arrive late (k-rtx's maximum delay; the lifetime policy checks the age before each
# transmission, so it stays within the lifetime plus the one-way delay). `rtx(0)` (never
# retransmit) is UDP plus the SACK traffic.

# %%
# NBVAL_CHECK_OUTPUT
full_voice = committed_table("multihoming_failover", "voice")
reliable = full_voice[full_voice["policy"] == "reliable(0)"]
print(
    f"full mode ({full_voice['n_runs'].min():.0f} runs per point), reliable(0): late or lost "
    + ", ".join(f"{r.late_or_lost_pct:.0f} % at {r.loss_rate:.0%}" for r in reliable.itertuples())
)
five = full_voice[full_voice["loss_rate"] == 0.05].set_index("policy")
print(
    f"5 % loss: residual loss ttl(150) {five.loc['ttl(150)', 'residual_loss_pct']:.2f} %, "
    f"rtx(1) {five.loc['rtx(1)', 'residual_loss_pct']:.2f} %, UDP "
    f"{five.loc['udp(0)', 'residual_loss_pct']:.1f} %; maximum delay ttl(150) "
    f"{five.loc['ttl(150)', 'delay_max_ms']:.0f} ms, rtx(1) "
    f"{five.loc['rtx(1)', 'delay_max_ms'] / 1e3:.1f} s"
)

# %% [markdown]
# ## 4. Comparison with the published numbers
#
# `comparison.comparison` takes, per configuration with SCTP-PF off (SCTP-PF, RFC
# 7829, is from 2016; Brennan et al. ran RFC 2960's SCTP), the stall caused by the first
# lost DATA packet of each `lossy` run, and single-homed the time of that first loss, and
# compares their mean (95 % bootstrap interval over the runs) with seed 002
# (`transportlab.engine.verdicts`); the single-homed `> 3 s`, one published trace, is a
# `realisation` row holding the share of runs that stall that long (exact interval), with
# the mean stall beside it as a `derived` row.

# %%
# NBVAL_CHECK_OUTPUT
quick_comparison = results.comparison()
print(
    quick_comparison[
        ["protocol", "metric", "kind", "role", "published", "reproduced", "ci_low", "ci_high",
         "n_runs", "verdict"]
    ]
    .round(2)
    .to_string(index=False)
)

# %% [markdown]
# **The full-mode comparison (the study's result).** The cell above computes the
# comparison in the mode this notebook runs in; in quick mode (tests, CI, Binder) that is
# a few runs, a test that the pipeline works, not a result. The verdicts the study reports
# are those of full mode (`transportlab reproduce --study multihoming_failover`), committed in
# `data/results/multihoming_failover/comparison.csv` and counted in the README's results table:

# %%
from transportlab.engine.results import committed_comparison

full_comparison = committed_comparison("multihoming_failover")
print(full_comparison["verdict"].value_counts().to_string())
full_comparison.drop(columns=["study"]).dropna(axis=1, how="all").round(3)

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.engine.paths import project_root

print(results.write_comparison(quick_comparison).relative_to(project_root()))

# %% [markdown]
# The comparison (`data/results[/quick]/multihoming_failover/comparison.csv`, the same
# file `transportlab reproduce --study multihoming_failover` writes) covers the three
# published numbers of seed 002 section 3.5; section 5.5 printed none (its finding, the
# missing failover, is section 1a above). In full mode (the cell below, from the committed
# comparison): the first loss against ~1.5 s `differs` (the loss placement, section 2);
# the stall after it keeps the seed's ordering (multi-homed shorter), but its mean is far
# below both published values, because most first losses are repaired by one fast
# retransmission; the seed's > 3 s is one trace in which the retransmission was lost too,
# a claim of kind `realisation`: its row holds the probability of that event over our runs
# (the share of runs stalling more than 3 s, with its exact interval), judged `matches` when
# the interval excludes 0 (`data/published/README.md`); the mean stall against > 3 s is the
# derived row beside it.

# %%
# NBVAL_CHECK_OUTPUT
for _, row in full_comparison.iterrows():
    print(
        f"{row['protocol']}, {row['metric']} ({row['role']}): {row['reproduced']:.2f} "
        f"(95 % interval {row['ci_low']:.2f}-{row['ci_high']:.2f}, {row['n_runs']:.0f} runs) "
        f"against {row['published']}: {row['verdict']}"
    )

# %% [markdown]
# ## 5. NS-2 re-run: Brennan et al.'s transfer in NS-2.35's multi-homed SCTP
#
# Seed 002 quotes Brennan et al.'s simulation; the published numbers are compared above
# with our ns-3 model only, so every `differs` mixes two questions: is the published
# number what NS-2's SCTP gives for the configuration described (a 15 % loss, single- or
# multi-homed), and does our ns-3 configuration behave like NS-2's on the identical
# scenario. `multihoming_failover.ns2_scenario` writes the `lossy` scenario in NS-2.35 from
# the study's parameters: the same two 10 Mb/s, 10 ms links (DropTail 100, MTU 1500), an
# `Application/FTP` bulk transfer of 1452-byte messages from 0.5 s, NS-2's `ErrorModel`
# (uniform, per packet, `$defaultRNG` seeded per run) at the end of both directions of
# network 0 from 0.6 s, the study's timers (RTO.Initial 3 s, RTO.Min 1 s, Path.Max.Retrans
# 5, `rtxToAlt_ 1`, retransmissions to an alternate destination) and ns-3's receive
# window. Multi-homed hosts are NS-2's construction: a core node per host with an
# interface node per address (`$ns multihome-add-interface`, `multihome-attach-agent`,
# `set-primary-destination`). Its traces become the ns-3 run step's `chunks`,
# `delivered` and `losses` (NS-2 traces no path events: `paths` stays empty), so the
# study's own `analyse` and `comparison` compute the NS-2 column. NS-2 cannot express the
# third configuration of section 2, SCTP-PF (NS-2.35's `Agent/SCTP` has no
# potentially-failed state), which has no published value. The NS-2 run of the mode this
# notebook runs in:

# %%
from transportlab.studies.multihoming_failover import ns2_baseline

ns2 = ns2_baseline.ns2_results(quick=results.quick, scheduler=scheduler)
ns2_lossy = ns2["lossy"]

# %%
# NBVAL_CHECK_OUTPUT
print(ns2.comparison()[["protocol", "metric", "published", "reproduced", "ci_low", "ci_high",
                        "n_runs", "verdict"]].round(2).to_string(index=False))

# %% [markdown]
# **The full-mode baseline** (`python -m transportlab.studies.multihoming_failover.ns2_baseline`,
# committed in `data/results/multihoming_failover/ns2_baseline.csv`): per published row,
# published / NS-2 (experiment `lossy` re-run in NS-2) / ns-3 (the committed comparison of
# section 4), each with its runs, the verdict *paper vs NS-2* and whether ns-3 lies within
# the tolerance of NS-2 (the `tolerance` column). When the ns-3 results change,
# re-running the module rewrites the table from the cached NS-2 runs.

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.engine.results import Results, committed_table

baseline = committed_table("multihoming_failover", "ns2_baseline")
print(ns2_baseline.counts(baseline).to_string(index=False))
print(baseline[["protocol", "metric", "published", "ns2", "ns2_ci_low", "ns2_ci_high",
                "paper_vs_ns2", "ns3", "ns3_ci_low", "ns3_ci_high", "paper_vs_ns3",
                "ns3_within_tolerance_of_ns2"]].round(3).to_string(index=False))

# %%
fig, _ = ns2_baseline.baseline_figure(baseline)

# %% [markdown]
# Section 2's table for both simulators (`ns2_lossy_stalls.csv`, full mode):

# %%
# NBVAL_CHECK_OUTPUT
stalls = committed_table("multihoming_failover", "ns2_lossy_stalls")
print(stalls.round(3).to_string(index=False))

# %% [markdown]
# **One run of each.** Every DATA chunk host A sent (new or retransmitted, by path) and
# every delivery at B, run 1 of each simulator (the first seconds, which quick and full
# mode share; the losses are random draws of each simulator, not the same packets):

# %%
ns3_lossy = Results(ns2_baseline.STUDY_NS3_CHUNKS, quick=results.quick, scheduler=scheduler)
fig, _ = ns2_baseline.retransmission_figure(ns2_lossy, ns3_lossy["lossy"])

# %% [markdown]
# **Many runs of each.** The seed's statistics are heavy-tailed: a retransmission lost as
# well doubles the RTO (1, 2, 4 s ...), so a few runs decide a mean over 30. The
# experiment `lossy_many` runs the same transfer 300 times per configuration in both
# simulators (`ns2_lossy_distribution.csv`, full mode): mean with 95 % CI, median, 90th
# percentile, maximum, the share of runs above 1.5 s (more than one timeout), and the
# Mann-Whitney test of the two simulators' runs (`p_same`).

# %%
# NBVAL_CHECK_OUTPUT
distribution = committed_table("multihoming_failover", "ns2_lossy_distribution")
print(distribution.round(3).to_string(index=False))

# %% [markdown]
# The same runs as cumulative distributions (the committed full-mode figure
# `figures/multihoming_failover/ns2_lossy_distribution.png`; its runs are in its title):

# %%
from IPython.display import Image

from transportlab.engine.paths import figures_dir

Image(filename=str(figures_dir("multihoming_failover") / "ns2_lossy_distribution.png"))

# %% [markdown]
# The counts and the numbers the conclusions below rest on (all full mode, from the
# committed tables above):

# %%
# NBVAL_CHECK_OUTPUT
counted = ns2_baseline.counts(baseline)
total = counted[counted["protocol"] == "all"].iloc[0]
print(f"paper matches NS-2 on {total.paper_matches_ns2} of {total.rows} rows (paper matches "
      f"ns-3 on {total.paper_matches_ns3}); ns-3 within the tolerance of NS-2 on "
      f"{total.ns3_within_tolerance_of_ns2} of {total.rows}")
for _, row in baseline.iterrows():
    print(f"{row.protocol}, {row.metric}: published {row.published} s, NS-2 {row.ns2:.3f} s "
          f"({row.ns2_runs:.0f} runs, {row.paper_vs_ns2}), ns-3 {row.ns3:.3f} s "
          f"({row.ns3_runs:.0f} runs, {row.paper_vs_ns3}), ns-3 / NS-2 {row.ns3_over_ns2:.2f}")
for _, row in distribution[distribution["metric"] == "first_loss_stall_s"].iterrows():
    print(f"{row.config}, {row.simulator} ({row.n_runs:.0f} runs): stall after the first loss "
          f"mean {row['mean']:.3f} s, median {row['median']:.3f} s, 90th percentile "
          f"{row.p90:.3f} s, above 1.5 s in {row.share_above_1_5_s:.1%} of runs, "
          f"p_same {row.p_same:.2g}")

# %% [markdown]
# **What the baseline changes in the conclusions.** (Every number is printed above.)
#
# * **The published numbers are not what NS-2.35's SCTP gives with this configuration.** NS-2's own
#   multi-homed SCTP, on the scenario section 2 builds from what seed 002 says about Brennan et
#   al.'s set-up, misses every published row as ns-3 does: its first loss comes far earlier than the
#   published ~1.5 s (the loss starts 0.1 s into the transfer, on the primary path in both
#   directions, in both simulators), and the stall after it is a fraction of the published values,
#   single- and multi-homed, because most first losses are repaired by one fast retransmission in
#   NS-2 too. Both simulators keep the published ordering (multi-homed shorter). So the `differs` of
#   section 4 are not our port's: Brennan et al.'s topology, loss placement or statistic (not given
#   in the seed) must differ from this reading of it; the numbers the seed quotes are not
#   reproducible in NS-2.35 from what the seed states.
# * **ns-3 against NS-2: beyond the tolerance on the 30-run means, the same distribution over 300
#   runs.** On the 30 runs of `lossy` ns-3's means lie outside the tolerance of NS-2's on every row
#   (ns-3 / NS-2 above). The stall statistics are heavy-tailed (a lost retransmission doubles the
#   RTO: 1, 2, 4 s ...), so a few runs decide a 30-run mean; `lossy_many` is the experiment that
#   separates chance from a model difference: over 300 runs per configuration the stall after the
#   first loss has the same median and 90th percentile in both simulators, means within each other's
#   intervals, and the Mann-Whitney test finds no difference at 5 % (`p_same`), single- and
#   multi-homed; nor does it for the time of the first loss or the longest stall of a run. The
#   30-run gaps of the table are chance, not the port.
# * **Where the two stacks do differ: goodput.** Over the 300 runs the goodput differs
#   (`ns2_lossy_distribution.csv`, `p_same` of `goodput_mbps`): ns-3 moves more data single-homed,
#   NS-2 more multi-homed. The published rows do not measure goodput; the retransmission figure
#   above shows, run by run, where the two stacks send their retransmissions. A named difference
#   left open here (the stall rows do not depend on it); the next part runs the model with
#   NS-2.35's rules to see how much of it they explain.

# %% [markdown]
# **Goodput with NS-2's rules in the model.** The SCTP parameters of the two runs already
# agree: the study's timers (RTO.Initial, RTO.Min, RTO.Max, Path.Max.Retrans, HB.interval,
# retransmissions to the alternate address) are written into NS-2's Tcl, its receive
# window and initial ssthresh are set to ns-3's, and SACK delay and frequency, Max.Burst,
# the initial cwnd, MTU and chunk size are the same in both by default. What differs are
# rules: the model's attributes `ImmediateFirstSack`, `UtilizationAtCwnd` and
# `CwndGrowthOnCumAckOnly` apply NS-2.35's (`NS2_RULES` of the SCTP validation study).
# `ns2_goodput_rules.csv` (`ns2_baseline.goodput_rules`, full mode) re-runs `lossy_many`
# in ns-3 with all of them (`all`), then each alone, and without any (`none`, the study's
# own run: its rows repeat the distribution table's), against NS-2's runs: means, medians
# and the Mann-Whitney test (`p_same`) of goodput and of the stalls.

# %%
# NBVAL_CHECK_OUTPUT
rules = committed_table("multihoming_failover", "ns2_goodput_rules")
print(rules.round(3).to_string(index=False, formatters={"p_same": "{:.2g}".format}))

# %% [markdown]
# **What NS-2's rules do to the goodput gap.** (The numbers are in the table above.)
# Growing the cwnd only when the cumulative ack advances (`cum_ack_growth`) is the rule
# that moves goodput; the first-SACK rule moves it little and the utilization test not at
# all. Single-homed it narrows the gap to NS-2 without closing it (`p_same` stays far below
# any threshold); multi-homed it reverses it: ns-3 then moves clearly less than NS-2,
# where without the rule it moved somewhat less. The goodput difference is therefore not
# one of these rules alone: NS-2 with the same rule keeps a multi-homed goodput the model
# reaches only without it, so something else in NS-2's multi-homed sender (not yet named:
# how it retransmits on the alternate path and grows that path's cwnd is a candidate)
# offsets it. The stalls keep their size with every rule set, but the test tells some
# apart: the first-SACK rule makes the stall after the first loss slightly shorter (the
# medians differ by about a millisecond), and the cum-ack rule lengthens the longest
# multi-homed stall of a run on average.

# %% [markdown]
# ## 6. Explore
#
# Change any parameter this study's experiments do not set themselves and press **Run**.
# The controls come from the study's declared parameters (type, unit and allowed range;
# hover over one for its help text). The values are checked as `transportlab` checks
# them (types, ranges, relations between parameters) before anything runs; then the point
# runs in this notebook's mode (quick: short runs, few replications) through the results
# cache, with a progress bar, and the study's figure for it appears beside the committed
# full-mode one. Its files go to a folder of its own under `data/explore/multihoming_failover/` (the
# status line names it), never into `data/results/`. For many points at once, use
# `transportlab sweep`.

# %%
from transportlab.explore import Explorer

explorer = Explorer(results)
explorer

# %% [markdown]
# ## References
#
# The reproduced studies (seed numbers as in `data/published/` and the README's
# References, which gives the full entries):
#
# * Seed 002: T. K.-C. Pang. *Stream Control Transmission Protocol Support in Session
#   Initiation Protocol Proxy Server.* M.Eng. project report, School of Engineering Science,
#   Simon Fraser University, May 2003.
# * Seed 001: journal paper (title page missing from our copy; authors, title and venue
#   unknown) evaluating SCTP and TCP for voice packets in NS-2 with a Chunk-based Jitter
#   Management (CJM) playout buffer.
#
# Cited works, standards and tools this notebook reproduces or implements:
#
# * R. Brennan, T. Curran. *SCTP congestion control: initial simulation studies.* Proc. 17th
#   International Teletraffic Congress (ITC 17), Salvador da Bahia, 2001 (cited by seed 002
#   as Brennan et al., 2001).
# * RFC 9260: R. Stewart, M. Tüxen, K. Nielsen. *Stream Control Transmission Protocol.*
#   IETF, June 2022.
# * RFC 7829: Y. Nishida, P. Natarajan, A. Caro, P. Amer, K. Nielsen. *SCTP-PF: A Quick
#   Failover Algorithm for the Stream Control Transmission Protocol.* IETF, April 2016.
# * RFC 3758: R. Stewart, M. Ramalho, Q. Xie, M. Tüxen, P. Conrad. *Stream Control
#   Transmission Protocol (SCTP) Partial Reliability Extension.* IETF, May 2004.
# * RFC 7496: M. Tüxen, R. Seggelmann, R. Stewart, S. Loreto. *Additional Policies for the
#   Partially Reliable Stream Control Transmission Protocol Extension.* IETF, April 2015.
# * ITU-T Recommendation G.114. *One-way transmission time*, 2003 (the 150 ms budget).
# * ITU-T Recommendation G.711. *Pulse code modulation (PCM) of voice frequencies*, 1988.
# * ns-3: G. F. Riley, T. R. Henderson. *The ns-3 Network Simulator.* In *Modeling and Tools
#   for Network Simulation*, Springer, 2010; ns-3.44, https://www.nsnam.org.

