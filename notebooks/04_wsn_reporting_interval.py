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
# # TCP, UDP and SCTP on a 56-node sensor network, by data reporting interval
#
# **Study:** `wsn_reporting_interval`, reproducing seed 003 (B. Chellaprabha,
# S. Chenthur Pandian, C. Vivekanandan: *Performance of TCP, UDP and SCTP on Sensor
# Network with Different Data Reporting Intervals*, 2012; References at the end). 55 sensors send CBR reports
# of 256 bytes to one sink over AODV and IEEE 802.11, every 1, 2, 5, 10 or 20 s, for
# 100 s; the paper reports throughput, energy per node, routing load, MAC load, dropped
# packets and end-to-end delay (its Tables 2-4 and Figures 2-13).
#
# **What is the same as the paper** (Table 1 and NS-2 defaults): 56 nodes in
# 800 m x 400 m, node 0 the sink; sink and nodes 1-7 with a 150-m range, the others
# 60 m; two-ray ground propagation at 2.4 GHz, antennas 1.5 m high, reception threshold
# 3.652e-10 W, NS-2's carrier-sense threshold 1.559e-11 W; 802.11 DSSS at NS-2.35's
# 1 Mb/s (data, broadcasts and control frames; long preamble; RTS/CTS for every unicast
# frame as NS-2's `RTSThreshold_ 0`); a 50-packet drop-tail interface queue; AODV with NS-2's constants
# (no HELLO messages); CBR of 256-byte reports; 100 s.
#
# **What we had to decide or could not match** (details in the package docstring of
# `transportlab.studies.wsn_reporting_interval`; each choice is a parameter, and section 7
# runs the alternatives):
#
# * *Placement* (`placement`). Figure 1, the field, is missing from the seed. **The
#   placement rule**, written down before comparing with the paper under it (issue 25):
#   the declared placement follows what the seed states and nothing else. The seed states
#   56 nodes on 800 m x 400 m (Table 1), node 0 the sink, sensor nodes 1-7 with the higher
#   transmission power (150 m, as the sink) that "act as gate way to sink node", and "the
#   rest ... can transmit only to a short distance" (60 m). So in the declared placement
#   `field` every node lies in the area; the sink is anywhere; gateway k (in turn) is
#   anywhere within 150 m of the sink or an earlier gateway (it reaches the sink over
#   150-m nodes); each sensor is anywhere within 60 m of the sink or a gateway (it can
#   transmit to a 150-m node); "anywhere" is uniform over the part of the area its
#   condition allows; nothing else is imposed, so a sensor 60-150 m from another 150-m
#   node hears it one way only (the one-way links the seed's ranges create). The seed's
#   one field is unknown, so every replication draws its own (`placement_seed` 0, from the
#   run's seed and run number), and a mean over runs is a mean over the fields the text
#   allows; ns-3 and NS-2 get the same positions for the same run. `clusters` (the default
#   of stops 19-22) removes one-way links by a criterion of ours that the seed does not
#   state; it stays an experiment, with the earlier `columns` layout and stop 18's
#   `random` fields 1-5 (section 7.1). Neither simulator's AODV avoids one-way links:
#   NS-2.35's has no blacklist, and ns-3.44's arms its blacklist timer on a copy of the
#   routing entry without scheduling it, so in both a sensor may take a gateway it hears
#   but cannot reach as the next hop of a reverse route.
# * *Ranges.* A transmit power per range puts exactly the threshold at 60 m and 150 m
#   (11.24 dBm and 19.20 dBm at 2.4 GHz, both below the 226-m crossover distance);
#   ns-3's preamble detection threshold is the reception threshold, its energy-detection
#   threshold the carrier-sense one. Section 2 checks it: 59 m receives, 61 m does not.
# * *Reception* (`reception_model`, default `ns2_lock`, NS-2's `Mac802_11`). NS-2's MAC
#   loses the frame it is receiving when another signal arrives that is not at least
#   `CPThresh_` = 10 dB weaker, and the newcomer with it; the project's filtered PHY
#   applies that rule (`Ns2Capture`) from a frame's first bit, as NS-2's MAC sees it,
#   ns-3's 4-us preamble detection window included. NS-2's MAC also locks on a frame it
#   senses but cannot decode (between the two thresholds) and loses a frame arriving during
#   it (`Ns2RxThreshold`, `Ns2LockUndecodable`). ns-3's own DSSS error model (`ns3`) lets
#   a DSSS frame survive interference a few dB weaker than itself; `ns2` is the rule
#   without the lock (the default of stops 21-24). Sections 7.8 and 7.10 run them.
# * *NS-2's MAC and channel, where ns-3 can follow* (since issue 25, section 8): NS-2's
#   retry counts (`retry_model` `ns2`: up to 7 RTS without CTS and 4 DATA without ACK,
#   where ns-3.44 gives a frame up after 7 failures of either kind), NS-2's carrier-sense
#   culling (`carrier_sense_culling` `ns2`: a frame reaches only nodes within a square of
#   the distance fixed by the first sender's carrier-sense range + 5 m), preloaded neighbour
#   caches (`arp_model` `preloaded`: every node knows its neighbours' addresses, no ARP
#   frames; ns-3's AODV cannot read these entries, section 8.8), AODV neighbour entries
#   that never expire (NS-2.35, with link-layer detection, runs no neighbour timer; section
#   8.8) and no gratuitous RREP (NS-2.35's AODV has none).
# * *Reports.* NS-2's CBR hands its first report to the agent when it starts, then one
#   per interval (`ns3::Ns2CbrApplication`, src/ns2-cbr; ns-3's OnOff would send its
#   first one an interval late). The seed does not say when its sources start; each
#   sensor starts at a random time in [1 s, 1 s + interval) (`start_mode` `staggered`).
#   Section 7.11 starts them all at 1 s (`synchronized`), as a script that starts every
#   CBR at one time would.
# * *Transport* (`stack_preset`, default `ns2`). The seed used NS-2's agents with
#   their defaults: TCP is `Agent/TCP`, i.e. Tahoe (src/tcp-tahoe), `packetSize_`
#   1000: NS-2's TCP counts packets, so each 256-byte report leaves as one 1000-byte
#   segment (1040 B with headers); window 20, initial window 2, initial RTO 3 s, minimum
#   RTO 0.2 s, an ACK per packet, and it never gives up a connection. SCTP runs the
#   NS-2.35 preset of the project's SCTP model. `modern` keeps the earlier settings
#   (NewReno, one 256-byte report per segment; SCTP with RFC 9260 defaults).
# * *Metrics.* Throughput and delay are compared as an NS-2 trace defines them: from
#   the agent's send (`s ... AGT`) to the sink agent's receive (`r ... AGT`) of the same
#   packet, and bytes as the trace writes them (TCP 1040; UDP 276 and SCTP chunk + 52, as
#   NS-2's AODV adds a 20-byte IP header to every packet it originates that is not TCP).
#   The application-level values (report written to report read) are shown next to
#   them (section 7.3).
# * *Energy* (`energy_model`, default `ns2`). The seed uses "Energy model of NS2" with
#   parameters "set according to the node capability" of MICA motes (3.1), and gives no
#   values. With none, NS-2.35's `WirelessPhy` charges 0.660 W while sending, 0.395 W for
#   every frame above the carrier-sense threshold, and nothing while idle. The energy is
#   computed from the time each radio spends in each state, so the MICA2 mote (3 V,
#   27/10/10 mA) and any idle power are applied without simulating again (sections 7.4
#   and 7.7).
# * *Interval.* Table 1 lists 1-20 s; the annexure says the tables' intervals are
#   "scaled down by the factor 10". We take Table 1 as printed (`interval_scale` 1.0);
#   section 7.5 runs the annexure taken literally (x10: 10-200 s).
# * *Queue.* NS-2's PriQueue puts routing packets first; the ns-3 DCF queue does not (a
#   model difference: section 8.3 switches NS-2's priority off).
# * *SCTP* runs over the project's SCTP model (`ns3::SctpSocketFactory`) once it is
#   built; the notebook runs whichever protocols are available.
#
# **Runs:** every figure states how many replications (ns-3 RngRun) stand behind it.
#
# **Where the numbers come from:** the study package `transportlab.studies.wsn_reporting_interval`
# (`scenario.py` builds and runs ns-3, `analysis.py` computes the metrics of a run,
# `reproduction.py` the comparison with Tables 2-4, `summary.csv` and the figures).
# `transportlab reproduce --study wsn_reporting_interval [--quick]` writes the same files
# without this notebook.

# %% tags=["parameters"]
quick = True  # quick mode: 20 s, 11 reporting sensors, intervals 1/20, fewer points, 1 run
scheduler = None  # None: in this process when quick, a local Dask cluster otherwise
runs = None  # replications per point; None: 1 quick, the experiments' own in full mode
params = {}  # study parameters that differ from the defaults

# %% [markdown]
# ## 1. Parameters

# %%
from transportlab.notebooks import start
from transportlab.studies.wsn_reporting_interval import analysis, network, scenario

results = start("wsn_reporting_interval", globals())
PARAMS = results.params
results.study.parameters.describe().assign(value=[PARAMS[n] for n in PARAMS])[
    ["name", "value", "unit", "help"]
]

# %%
# NBVAL_IGNORE_OUTPUT
# ns-3 with the transportlab library (~2 s with the precompiled header); the protocols
# this build runs (SCTP needs the project's SCTP model).
from transportlab import ns  # noqa: F401
from transportlab.studies.wsn_reporting_interval.reproduction import protocols

protocols()

# %% [markdown]
# ## 2. From ranges to transmit power, and the check
#
# NS-2's TwoRayGround uses Friis below the crossover distance 4π·ht·hr/λ and
# Pt·ht²·hr²/d⁴ beyond it. The power for a range R is the one that puts the reception
# threshold exactly at R. The carrier-sense threshold then gives how far a node keeps
# others from transmitting.

# %%
# NBVAL_CHECK_OUTPUT
f = PARAMS["frequency_hz"]
print(f"crossover distance at {f / 1e9:g} GHz: {network.crossover_distance_m(f):.1f} m")
for label, rng in (
    ("sensors 8-55", PARAMS["short_range_m"]),
    ("sink, 1-7", PARAMS["long_range_m"]),
):
    power = network.tx_power_for_range_w(rng, PARAMS["rx_threshold_w"], f)
    cs = network.range_for_threshold_m(power, PARAMS["cs_threshold_w"], f)
    print(
        f"{label}: range {rng:.0f} m -> {power * 1e3:.2f} mW ({network.w_to_dbm(power):.2f} dBm), "
        f"carrier sense to {cs:.0f} m"
    )

# %% [markdown]
# In ns-3, with two nodes and three broadcast frames each:

# %%
# NBVAL_CHECK_OUTPUT
for rng, distances in ((60.0, (59.0, 61.0)), (150.0, (149.0, 151.0))):
    for d in distances:
        print(
            f"{rng:.0f}-m sender, receiver at {d:.0f} m: {scenario.range_probe(d, rng)} of 3 frames"
        )

# %% [markdown]
# ## Speed and memory of one 100-s run
#
# ns-3 through the `ns3` wheel is not free: every frame reaches every node within
# carrier-sense range, and each node's PHY, MAC and radio-state bookkeeping runs for it.
# `benchmarks/wsn_run.py --compare` measures one 100-s run (UDP, 1-s interval, the declared
# configuration) per variant, each in a fresh process, and checks that every variant
# simulates exactly the same run; its committed runs (`benchmarks/results/wsn_run.csv`,
# with the date, the machine's load when each run ended and the command) are printed
# below. The variants:
#
# * `after`: the study as it runs, in a simulation worker of the local cluster (jemalloc
#   preloaded, only the ns-3 modules the studies use, with their own smaller precompiled
#   header: `transportlab.ns3.allocator`, `transportlab.ns3.native`);
# * `before`: the process as issue 13 found it: ns-3's energy models in every run, the
#   system allocator, every ns-3 module;
# * `after, <option>=...`: the study with one speed option of `scenario.RunOptions` switched
#   off (or, for `ns3_energy_models`, on).
#
# What the options do, and why the results stay the same:
#
# * `ns3_energy_models`: the study's energy comes from the time each radio spends in each
#   state (`ns3::WifiStateTimes`); ns-3's energy models ran only as a cross-check, and a
#   profile with call graphs (issue 13) found them, with the long-double time conversions
#   they do at every PHY state change, the largest single cost. They run on request
#   (`tests/test_wifi_energy_horizon.py` checks that every packet, counter and radio state
#   is the same without them, and that the MICA2 energy agrees within 1 %).
# * `purge_cancelled_events` (`ns3::PurgingHeapScheduler`, src/scheduler) and
#   `energy_horizon` (`ns3::HorizonWifiRadioEnergyModel`, src/wifi-energy) tame those
#   energy models when they run: at every PHY state change `WifiRadioEnergyModel`
#   schedules the moment its battery would be empty and cancels the previous one, and
#   ns-3's schedulers keep a cancelled event until its time comes, so dead events piled up
#   and memory grew with every simulated second (heaptrack found them in issue 6). The
#   purging scheduler drops cancelled events when its heap has doubled and never keeps
#   events due after the stop time (live events run in the same (time, uid) order); the
#   horizon model skips the rescheduling while the battery provably cannot run out before
#   the end of the run. With the energy models off, as the study runs, both change nothing
#   measurable: the table shows the same events and memory without them.
# * `filter_weak_signals` (`ns3::SensitivityFilteredYansWifiPhy`, src/wifi-fanout):
#   `YansWifiChannel` schedules an arrival at every other node for every frame; the filtered
#   PHY drops at send time those below the receiver's sensitivity. It also carries NS-2's
#   collision rule, receiver lock and carrier-sense culling, so under the declared
#   reception it cannot be switched off and the benchmark skips that variant (and ns-3's
#   stock PHY); `--reception ns3` measures it.
# * `trace_paths`: the per-hop trace of section 8.4, off unless asked.

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.studies.wsn_reporting_interval import speed

bench_runs = speed.benchmark_runs()
print(f"measured {bench_runs['date'].min()} to {bench_runs['date'].max()} on "
      f"{bench_runs['cores'].iloc[0]} cores, load {bench_runs['load_1min'].min():.1f}-"
      f"{bench_runs['load_1min'].max():.1f}: {bench_runs['command'].iloc[0]}")  # fmt: skip
print(speed.speed_table(bench_runs).round(2).to_string(index=False))

# %% [markdown]
# CPU time in `Simulator::Run` is the column to read on a shared machine, and with one run
# per variant on a loaded machine it still moves by tens of percent between identical runs
# (the options that change no event show how much); the events, the memory and the
# simulated results do not move. `same_results` says that no option changes anything
# simulated. The `after` run's events are what NS-2's lock on undecodable frames and the
# 1-Mb/s air time (issue 25) make of this run.

# %% [markdown]
# ## 3. Simulation
#
# 2 or 3 protocols x 5 intervals (quick: 1 and 20 s) x the replications, through
# `transportlab.engine.execute` (a local Dask cluster in full mode, or a scheduler address), cached
# per point and run: experiment `intervals` of the study's reproduction. One 100-s run
# takes 13.0 M events for UDP at a 1-s interval (see `benchmarks/wsn_run.py` for its time
# and memory).

# %%
summary = results["intervals"]["summary"]
print(
    f"{len(results.points('intervals'))} points x {results.runs('intervals')} runs = "
    f"{len(summary)} simulations"
)

# %% [markdown]
# ## 4. Results per interval (mean over runs)
#
# The metrics of one run (`analysis.analyse`): agent-level throughput at the sink (NS-2
# trace bytes), energy per node (NS-2.35 charging), AODV packets and MAC frames per
# delivered report, dropped packets, agent-level end-to-end delay.

# %%
# NBVAL_CHECK_OUTPUT
print(analysis.per_interval(summary).round(2).to_string())

# %% [markdown]
# ## 5. Comparison with Tables 2-4
#
# One row per published number; `reproduced` is the mean over runs with a 95 % Student-t
# interval; the `Avg` rows are, per run, the mean over the five intervals (as the
# paper's `Avg` rows are the mean of its five rows; only when all five ran). Verdicts:
# `matches` within 20 %, `same-direction` when the ordering against the other protocols
# agrees, is significant (Welch test on the runs, 5 %) and the value is within 2x of the
# published one, else `differs` (the rules: `data/published/README.md`).

# %%
quick_comparison = results.comparison()

# %%
# NBVAL_CHECK_OUTPUT
print(quick_comparison.groupby(["protocol", "verdict"]).size().to_string())

# %%
shown = quick_comparison[
    ["protocol", "metric", "row", "unit", "published", "reproduced", "ci_low", "ci_high", "verdict"]
]
shown.round(2)

# %% [markdown]
# **The full-mode comparison (the study's result).** The cell above computes the
# comparison in the mode this notebook runs in; in quick mode (tests, CI, Binder) that is
# a few runs, a test that the pipeline works, not a result. The verdicts the study reports
# are those of full mode (`transportlab reproduce --study wsn_reporting_interval`), committed in
# `data/results/wsn_reporting_interval/comparison.csv` and counted in the README's results table:

# %%
import pandas as pd
from IPython.display import display

from transportlab.engine.results import committed_comparison

full_comparison = committed_comparison("wsn_reporting_interval")
print(full_comparison["verdict"].value_counts().to_string())
# every column with a value (pandas would hide the middle ones of this wide table)
with pd.option_context("display.max_columns", None):
    display(full_comparison.drop(columns=["study"]).dropna(axis=1, how="all").round(3))

# %% [markdown]
# ## 6. Figures (the paper's Figures 2-13)
#
# Each metric against the reporting interval (error bars: 95 % interval over the runs,
# lower end clipped at 0 since no metric can be negative, none with a single run), with
# the paper's values dashed:

# %%
fig = results.figure("metrics_vs_interval")

# %% [markdown]
# Averages over the intervals, as the paper's Figures 3, 5, 7, 9, 11 and 13 (only
# meaningful when all five intervals ran):

# %%
fig = results.figure("metric_averages")

# %% [markdown]
# ## 7. Why our numbers differ from the paper: the experiments
#
# **Which configuration the full-mode files of this section come from.** Issue 25 changed
# the declared configuration (802.11 at NS-2's 1 Mb/s, the `field` placement, NS-2's
# receiver lock, retry counts, culling and ARP-to-AODV failures, no gratuitous RREP, and
# the AODV fixes of section 8). Its full mode (about 1000 simulations of 100 s) did not fit
# on the shared machine, so the experiments were re-run with this code one by one
# (`transportlab reproduce --study wsn_reporting_interval --experiment NAME ... --runs 3`),
# with fewer runs per point than declared (the committed tables' `n_runs` and
# `provenance.json` say how many). Every experiment's files have been re-run so; the cell
# below checks this in `provenance.json`, which would name any file still from the code
# before issue 25 (2 Mb/s, `clusters`, ns-3's retry count and ARP, NS-2's collision rule
# without the lock or culling). The quick-mode cells run the current code.

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.engine.paths import results_dir
from transportlab.engine.provenance import tables_not_rerun

print("not re-run:", ", ".join(tables_not_rerun(results_dir("wsn_reporting_interval"))) or "none")

# ### 7.1 Placement
#
# The link facts of each placement, from the ranges alone (no simulation): links that
# work one way only (802.11 unicast needs both: RTS/CTS, DATA/ACK), sensors with a
# two-way route to the sink, and the hops on it; for the declared `field` placement, the
# fields of runs 1-10 (those of the comparison's runs).

# %%
# NBVAL_CHECK_OUTPUT
print(results.table("connectivity").round(2).to_string(index=False))

# %% [markdown]
# Every metric on each placement, at 1 and 20 s (error bars: 95 % interval over the
# runs; `random (all)`: over the random placements' means):

# %%
fig = results.figure("placements")

# %%
placements = results.table("placements")
placements[
    ["protocol", "reporting_interval", "placement_label", "delivery_ratio",
     *analysis.METRICS, "n_runs"]
].round(3)  # fmt: skip

# %% [markdown]
# Full mode (`data/results/wsn_reporting_interval/placements.csv`: the runs per point are
# in its `n_runs`; `field` is a field per run; `random (all)` is the mean and interval over
# random placements 1-5):

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.engine.results import committed_table

full_placements = committed_table("wsn_reporting_interval", "placements")
print(full_placements.pivot_table(index=["protocol", "reporting_interval"],
                                  columns="placement_label",
                                  values=["delivery_ratio", "throughput_kbps"])
      .round(2).to_string())

# %% [markdown]
# What placement does (full mode; the numbers are printed by the cell after this text,
# from `placements.csv`):
#
# * **UDP hardly cares.** It delivers nearly every report on every placement.
# * **TCP and SCTP depend on it entirely.** On `clusters`, where every link is two-way,
#   they deliver most or all reports (least: TCP at 1 s, whose 1000-byte packets load the
#   channel). On the declared `field`, on `columns` and on random placements 1-5 (one-way
#   links, `connectivity.csv`) they deliver about half or less: a connection whose
#   handshake or acknowledgements need a link that works one way only never opens, or
#   stalls.
# * **One-way links move TCP's and SCTP's throughput towards the seed's.** On `clusters`
#   both carry several times the seed's throughput; on the placements with one-way links,
#   the declared field among them, they lie far nearer it (the last line: the seed's
#   values). So the seed's low SCTP throughput is what a field with one-way links gives.
#   Figure 1 is missing, so whether the seed's field was like that cannot be checked.
# * **The declared field gives TCP the highest routing load at 1 s** of all placements,
#   about the seed's (section 7.8: under ns-3's reception it is several times lower); at
#   20 s, where routes expire between reports, the placements' routing loads are of the
#   same size.

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.headlines import notebook_numbers

print(notebook_numbers("wsn_reporting_interval", "placements"))

# %% [markdown]
# The declared default is `field`, by the placement rule of the introduction (written down
# before any comparison under it): what the seed states, random where it is silent, a field
# per run. `clusters`, the default of stops 19-22, removes one-way links by our own
# criterion; it stays here as an experiment, with every other placement (`placement`,
# `placement_seed`).

# %% [markdown]
# ### 7.2 NS-2's transports against modern settings
#
# TCP as NS-2's `Agent/TCP` (Tahoe, one 1000-byte packet per report, initial RTO 3 s)
# and SCTP with the NS-2.35 preset, against NewReno with 256-byte segments and SCTP's
# RFC 9260 defaults:

# %%
fig = results.figure("transport_models")

# %%
results.table("transport_models").round(3)

# %% [markdown]
# Full mode (5 runs per point, `data/results/wsn_reporting_interval/transport_models.csv`),
# agent-level throughput (kb/s) against the seed's Table 2 (TCP) and Table 4 (SCTP):

# %%
# NBVAL_CHECK_OUTPUT
full_transport = committed_table("wsn_reporting_interval", "transport_models")
print(full_transport.pivot_table(index=["protocol", "reporting_interval"],
                                 columns="stack_preset",
                                 values=["throughput_kbps", "mean_delay_ms", "delivery_ratio"])
      .round(2).to_string())

# %% [markdown]
# What the two settings do (the numbers are printed by the cell after this text: per
# setting and interval the agent-level throughput, its ratio to the application's and to
# the published value, delivery and delays):
#
# * **Both transports deliver only part of the reports on the declared field, under
#   either setting**, where UDP delivers nearly all (section 4): a connection whose
#   handshake or acknowledgements need a link that works one way only never opens, or
#   stalls, and its reports wait in the send buffer for seconds (the application delays).
# * **TCP.** NS-2's Agent/TCP turns every 256-byte report into a 1000-byte packet: its
#   agent-level throughput is about four times the application's. Of the reports it
#   carries, that puts it near the seed's TCP throughput from 2 to 10 s, above it at 1 s
#   and below it at 20 s. With 256-byte segments (`modern`) TCP carries about as many
#   reports and its agent throughput is a fraction of the seed's at every interval. So the
#   seed's TCP numbers are those of NS-2's Agent/TCP, and the default stays `ns2`.
# * **SCTP.** The NS-2.35 preset and RFC 9260's defaults deliver about the same share of
#   the reports, and their 95 % intervals overlap at every interval; both lie in the region
#   of the seed's SCTP throughput (`agent / published`). Whatever limits SCTP here is the
#   field, not the protocol's settings.

# %%
# NBVAL_CHECK_OUTPUT
print(notebook_numbers("wsn_reporting_interval", "transport_models"))

# %% [markdown]
# ### 7.3 Agent-level and application-level throughput and delay
#
# The compared values are agent-level (NS-2's trace). The application level counts
# 256 bytes per delivered report and runs from the write to the sink's read, so for
# TCP and SCTP it includes the time reports wait in the send buffer while the
# connection opens and while the window is closed:

# %%
results.table("agent_vs_app").round(2)

# %% [markdown]
# In full mode (`agent_vs_app.csv`, the runs of `intervals`), agent and application level
# side by side with the seed's values (throughput kb/s, delay ms):

# %%
# NBVAL_CHECK_OUTPUT
full_levels = committed_table("wsn_reporting_interval", "agent_vs_app")
print(full_levels[["protocol", "reporting_interval", "throughput_kbps", "app_throughput_kbps",
                   "published_throughput_kbps", "mean_delay_ms", "app_delay_ms",
                   "published_delay_ms", "n_runs"]].round(1).to_string(index=False))  # fmt: skip
above = full_levels["published_delay_ms"] > full_levels["mean_delay_ms"]
below_app = full_levels["published_delay_ms"] < full_levels["app_delay_ms"]
print(f"the seed's delay is above our agent level at {int(above.sum())} of {len(full_levels)} "
      f"points and below our application level at {int(below_app.sum())}")  # fmt: skip

# %% [markdown]
# The two levels are equal for UDP. For SCTP the agent counts chunk and headers; for TCP
# it counts NS-2's 1000-byte packets, about four times the application's bytes. The
# application delay adds the wait in the send buffer while a connection opens and while
# its window is closed. The last line counts where the seed's delays lie against both
# levels: where neither bound holds at every point, neither level reproduces them.

# %% [markdown]
# ### 7.4 Energy: where the time and the joules go, and the idle power
#
# Per node, seconds and joules sending (tx), receiving or sensing a busy channel (rx:
# everything above the carrier-sense threshold, as NS-2 charges it) and idle, under
# NS-2.35's charging (mean over the nodes and runs here; the table has every node):

# %%
states = results.table("energy_states")
states.groupby(["protocol", "reporting_interval"])[
    ["tx_s", "rx_s", "idle_s", "tx_j", "rx_j", "idle_j", "energy_j"]
].mean().round(3)

# %% [markdown]
# NS-2.35 charges nothing for idling, so the energy is traffic only. The paper's
# 1.2-1.65 J per node are far above that; with an idle power `P`, energy = traffic +
# `P` x idle time. The figure draws that line for each point (dotted: the paper), and
# `implied_idle_power_w` is where it meets the published value: what the seed's numbers
# would need, not a fit (the model keeps NS-2's 0 W).

# %%
fig = results.figure("idle_power")

# %%
idle = results.table("idle_power")
idle[
    ["protocol", "reporting_interval", "tx_energy_per_node_j", "rx_energy_per_node_j",
     "idle_time_per_node_s", "published_energy_j", "implied_idle_power_w"]
].round(4)  # fmt: skip

# %% [markdown]
# In full mode (`idle_power.csv`, the runs of `intervals`): the energy of the traffic
# alone (tx + rx, NS-2.35's charging) against the seed's, and the idle power each
# published value implies:

# %%
# NBVAL_CHECK_OUTPUT
full_idle = committed_table("wsn_reporting_interval", "idle_power")
full_idle["traffic_j"] = full_idle["tx_energy_per_node_j"] + full_idle["rx_energy_per_node_j"]
full_idle["rx_share"] = full_idle["rx_energy_per_node_j"] / full_idle["traffic_j"]
print(full_idle[["protocol", "reporting_interval", "traffic_j", "rx_share",
                 "published_energy_j", "implied_idle_power_w"]].round(3).to_string(index=False))
over = int((full_idle["traffic_j"] > full_idle["published_energy_j"]).sum())
negative = int((full_idle["implied_idle_power_w"] < 0).sum())
print(f"traffic alone above the seed's energy at {over} of {len(full_idle)} points; "
      f"implied idle power negative at {negative}")  # fmt: skip

# %% [markdown]
# Nearly all of the energy is reception: NS-2.35 charges 0.395 W for every frame above the
# carrier-sense threshold, and with 256-405 m of carrier-sense range every node hears most
# of the network's frames (AODV's floods included). Where the traffic alone costs more
# than the seed's value, the implied idle power is negative: no idle power brings NS-2.35's
# default charging to the seed's numbers there, and the seed's energies need other radio
# powers (it names MICA motes but gives no values), a smaller sensing range or less
# traffic per node (sections 7.6 and 7.7 try the first two).

# %% [markdown]
# ### 7.5 The two readings of the interval
#
# Table 1 as printed (1-20 s) and the annexure's "scaled down by the factor 10" taken
# literally (10-200 s; at 200 s a sensor reports once in 100 s), against the effective
# interval:

# %%
fig = results.figure("interval_scale")

# %%
results.table("interval_scale").round(3)

# %% [markdown]
# Full mode (`interval_scale.csv`, printed by the cell after this text). The UDP throughput
# decides between the two readings: as printed it lies a little above the seed's at every
# interval (the last line below: ours over the seed's), while the literal x10 reading
# gives a tenth of that. Taken literally,
# the annexure would put every published UDP throughput 10x above what its own offered load
# allows. The printed intervals are the reading the seed's numbers support; because that
# reading (and the unit, kb/s) was chosen by looking at the UDP throughput, those six rows
# are `input` in the comparison: they cannot confirm the reproduction.

# %%
# NBVAL_CHECK_OUTPUT
print(notebook_numbers("wsn_reporting_interval", "interval_scale"))

# %% [markdown]
# ### 7.6 Carrier sense only as far as reception: hidden terminals and route breaks
#
# The seed's routing loads are many AODV packets per delivered report (section 5). ns-3's
# AODV (like NS-2's, with link-layer detection) learns of a broken link only from a frame
# given up at the MAC's retry limit, so besides the searches for routes that expired
# between reports, routing load comes from retry drops. On the declared `field` placement
# one-way links already give them (a next hop the sender hears but cannot reach). Table 1 gives RXThresh only; many NS-2 sensor scripts set
# `CSThresh_` to the same value, so that a node senses the channel busy only where it
# could also receive. Then two senders out of each other's range but within the range of a
# common receiver (hidden terminals) collide there too, frames exhaust their retries, and
# AODV repairs the route. This experiment runs every protocol at 1, 5 and 20 s with
# `cs_threshold_w` = `rx_threshold_w` (dashed) next to NS-2's default (solid); dotted
# crosses are the seed's values:

# %%
fig = results.figure("carrier_sense")

# %%
# NBVAL_CHECK_OUTPUT
sense = results.table("carrier_sense")
sense[["protocol", "carrier_sense", "reporting_interval", "n_runs", "delivered", "mac_drops",
       "routing_packets", "routing_load", "published_routing_load", "energy_per_node_j",
       "published_energy_j"]].round(2)  # fmt: skip

# %% [markdown]
# Full mode (`carrier_sense.csv`: CSThresh = RXThresh and NS-2's default, both under
# NS-2's collision rule with its lock, the declared one; the numbers, with the runs per
# point, are printed by the cell after this text):
#
# * **Retry drops are there with NS-2's default already.** On the declared field every
#   protocol gives frames up at the retry limit at every interval, hundreds to thousands
#   per run: the one-way links. CSThresh = RXThresh does not add to them overall: TCP
#   loses fewer at 1 s, UDP more at 1 s and fewer at 5 and 20 s.
# * **The routing loads move both ways.** UDP's rises at every interval and it loses
#   reports it delivered with NS-2's default. TCP's falls at 1 s, where with NS-2's
#   default its routing load is already about the seed's (`seed / ours`), and moves
#   little at 5 and 20 s; SCTP's falls at 1 s and rises at 5 and 20 s. TCP and SCTP
#   deliver about the same small share of the reports with both thresholds.
# * **Energy falls a few times** (fewer frames above the carrier-sense threshold are
#   charged); section 7.7 reads these times with other radios.
#
# So on a field with one-way links, hidden terminals are not what breaks routes: the
# one-way links already do, and hidden terminals only move the loads around them. The
# default stays NS-2's CSThresh: the seed gives RXThresh only, and this is the other
# reading, shown, not chosen by its numbers.

# %%
# NBVAL_CHECK_OUTPUT
print(notebook_numbers("wsn_reporting_interval", "carrier_sense"))

# %% [markdown]
# ### 7.7 Radio powers: the idle power the seed's energies imply
#
# The seed's nodes are "equivalent MICA mote sensors" whose energy parameters are "set
# according to the node capability" (3.1), values not given. The energy of every run is
# the time each radio spent sending, receiving or sensing, and idle, times a power, so
# any radio's powers can be read off the same runs. For NS-2.35's default powers and for
# the MICA2 mote's (Crossbow MPR400: 3 V x 27 mA sending, 3 V x 10 mA receiving), under
# NS-2's charging (receive power for every frame above CSThresh), the figure shows the idle
# power at which each point would meet the seed's energy: (published - tx time x P_tx -
# rx time x P_rx) / idle time. A reading of the seed's numbers with measured times, not a
# fit: no default changes.

# %%
fig = results.figure("implied_idle_power")

# %%
# NBVAL_CHECK_OUTPUT
implied = results.table("implied_idle_power")
implied.pivot_table(index=["radio", "carrier_sense", "protocol"], columns="reporting_interval",
                    values="implied_idle_power_w").mul(1000).round(1)  # fmt: skip

# %% [markdown]
# **What the seed says.** Section 3.1: the nodes are "equivalent MICA mote sensors", the
# "Energy model of NS2" is used, and "the energy parameters are set according to the node
# capability". It gives no power, current or voltage, and it does not say that its nodes
# idle at some low power: any idle power here is ours to read off its numbers.
#
# **What our MICA2 model uses, and why.** `energy_model` `mica2` takes the Crossbow MPR400
# (MICA2) datasheet at 3 V (`parameters.MICA2`, printed by the cell after this text): a
# transmit and a receive current, and an idle current equal to the receive current,
# because the MICA2's CC1000 radio listens in receive mode (it has no cheaper listening
# state; only sleep is cheaper, and an 802.11 MAC as the seed's never sleeps). A MICA2 that
# listens draws the receive power.
#
# **What the seed's energies imply** (full mode, `implied_idle_power.csv`, from the runs of
# `intervals` and `carrier_sense`; the cell after this text prints the ranges):
#
# * **NS-2.35's default radio**: the implied idle power is negative at all points but one
#   with NS-2's carrier sense, and at about half of them with CSThresh = RXThresh: the
#   traffic alone costs more than the seed's total.
# * **The MICA2 powers**: with either carrier sense the implied idle power is positive at
#   every point, and everywhere it is a fraction of the idle power the MICA2 model itself
#   charges.
#
# So the two readings do not agree. Read with the MICA2's transmit and receive powers, the
# seed's totals leave less for the idle time than a MICA2 radio draws while listening: a
# MICA2 listening for the whole 100 s, as an 802.11 node does, would spend more than the
# seed reports. Its energies fit MICA2's powers only with radios asleep for most of the
# idle time (which its configuration does not have) or with other powers; its text says
# neither. That is why its energies are `by-construction` in the comparison
# (`data/published/wsn_reporting_interval.csv` says why), and why the MICA2 model keeps
# the datasheet's listening power rather than an idle power fitted to the seed's numbers:
# the study's default stays NS-2.35's charging with 0 W idle, and
# `energy_model`/`idle_power_w` apply any other reading without simulating again.

# %%
# NBVAL_CHECK_OUTPUT
print(notebook_numbers("wsn_reporting_interval", "idle_power"))

# %% [markdown]
# ### 7.8 NS-2's collision rule against ns-3's reception
#
# NS-2's 802.11 MAC has no bit errors: when a frame arrives while another is being
# received, the one being received survives only if it is at least `CPThresh_` = 10 dB
# stronger, otherwise both are lost (`Mac802_11::recv`). ns-3 decides at the end of the
# frame from its signal-to-interference ratio, and DSSS survives interference a few dB
# weaker than the frame (`tests/test_ns2_collision_rule.py`: at a 5-dB margin ns-3 keeps
# the frame, NS-2's rule loses it; at 12 dB both keep it). The declared default
# (`reception_model` `ns2_lock`) applies NS-2's rule in the PHY, from a frame's first bit
# (`tests/test_ns2_preamble_window.py`: frames 2 us apart, inside ns-3's preamble
# detection window), with NS-2's lock on undecodable frames (section 7.10); `ns3` leaves
# ns-3's reception. Both, with NS-2's CSThresh (circles) and CSThresh = RXThresh
# (squares); black crosses are the seed's values:

# %%
fig = results.figure("reception_model")

# %%
# NBVAL_CHECK_OUTPUT
reception = results.table("reception_model")
reception[["protocol", "reception_model", "carrier_sense", "reporting_interval", "n_runs",
           "delivery_ratio", "mac_drops", "ns2_collisions", "routing_load",
           "published_routing_load", "mac_load", "published_mac_load"]].round(2)  # fmt: skip

# %% [markdown]
# Full mode (`reception_model.csv`: ns-3's rule from `reception_model`, NS-2's from
# `intervals` and `carrier_sense`; the runs per point and the numbers are printed by the
# cell after this text):
#
# * **NS-2's rule loses receptions that ns-3 keeps**: thousands to a hundred thousand and
#   more per run (`ns2_collisions`; none exist under ns-3's rule by definition). Most are
#   recovered by the MAC's retries.
# * **It breaks TCP's routes at 1 s.** With NS-2's CSThresh, TCP's 1000-byte packets at
#   1 s get about twice the retry drops under NS-2's rule and several times the routing
#   load, and deliver fewer reports: this is what brings TCP's routing load at 1 s to the
#   seed's (section 7.6). SCTP and UDP at 1 s get more retry drops and a somewhat higher
#   routing load. With CSThresh = RXThresh the two rules give about the same at 1 s.
# * **At 5 and 20 s the rule changes little**: the routing and MAC loads under the two
#   rules lie close together, at both thresholds.
#
# NS-2's rule is the seed's simulator's, so it is the default; on the declared field it
# matters where the channel is loaded, for TCP's large packets at 1 s.

# %%
# NBVAL_CHECK_OUTPUT
print(notebook_numbers("wsn_reporting_interval", "reception_model"))

# %% [markdown]
# ### 7.9 The mechanisms together: one-way links and hidden terminals
#
# Each mechanism above breaks routes only where the channel is loaded. The seed's field
# (Figure 1 missing) may have had both one-way links and carrier sense only as far as
# reception. The declared field has the one-way links the seed's ranges give (issue 25);
# this experiment adds random placements 1-5 with CSThresh = RXThresh (under NS-2's
# collision rule) and runs TCP and SCTP at 1, 5 and 20 s, against the field with each
# carrier-sense threshold (the runs of `intervals` and `carrier_sense`) and the random
# placements with NS-2's CSThresh (the runs of `placements`, at 1 and 20 s only). Random
# placements: mean and 95 % interval over the five placements' means; the field: over
# runs; dashed: CSThresh = RXThresh; black: the seed:

# %%
fig = results.figure("combined")

# %%
# NBVAL_CHECK_OUTPUT
combined = results.table("combined")
combined[["protocol", "links", "carrier_sense", "reporting_interval", "n_runs", "delivery_ratio",
          "mac_drops", "routing_load", "published_routing_load", "mac_load",
          "published_mac_load", "throughput_kbps", "published_throughput_kbps",
          "dropped_packets", "published_dropped_packets", "energy_per_node_j",
          "published_energy_j", "mean_delay_ms", "published_delay_ms"]].round(2)  # fmt: skip

# %% [markdown]
# Full mode (`combined.csv`, re-run at 1 Mb/s with issue 25's fixes: 3 runs per point on
# the field and per random placement, declared 5; `provenance.json` names the command):
#
# (the numbers, with the seed's, are printed by the cell after this text; `seed / ours` is
# the published routing load over ours)
#
# * **Hidden terminals on top of one-way links do not add up.** On random placements,
#   CSThresh = RXThresh leaves the routing loads at 20 s about where NS-2's CSThresh puts
#   them and lowers them at 1 s, where more reports arrive. On the field it lowers TCP's
#   routing load at 1 s several times (NS-2's CSThresh is what brings it to the seed's,
#   section 7.6) and raises both protocols' at 20 s a little.
# * **At 20 s every combination lies within a small factor of the seed's routing loads**,
#   the field with CSThresh = RXThresh nearest; at 5 s all lie below it, TCP's by a few
#   times, and at 1 s only TCP on the field with NS-2's CSThresh reaches the seed's. SCTP
#   stays about an order of magnitude below the seed at 1 and 5 s under every combination.
# * **Random placements deliver more reports than the field** under both thresholds, so
#   their agent throughputs lie at or above the seed's (up to several times at 1 s), where
#   the field's lie nearer it.
# * **MAC loads at 20 s come close to the seed's on the field**, under both thresholds;
#   below it elsewhere, TCP at 1 s on the field with NS-2's CSThresh apart.
# * **Dropped packets stay below the seed's, and so do the delays**, far below except
#   TCP's at 1 s. CSThresh = RXThresh cuts the energy charged two- to threefold on the
#   field: at 1 s every combination charges more than the seed's total, at 20 s those with
#   CSThresh = RXThresh charge less.
#
# On the 2-Mb/s code of stops 21-24, where the declared placement (`clusters`) had only
# two-way links, the two mechanisms together broke routes where neither did alone and
# brought the routing loads within a small factor at 5 and 20 s. With the seed's stated
# geometry declared, one-way links are in the declared configuration already: adding
# hidden terminals brings the 20-s routing loads a little nearer and takes TCP's at 1 s
# away, so it is no better reading of the seed than the declared one and does not become
# the default. The largest gap left is SCTP's at 1 and 5 s. NS-2.35's own `Agent/SCTP`
# fed by a CBR stalls (`docs/ns2-notes.md`; its throughput in section 8.1's NS-2
# column), so the seed's SCTP numbers are not what NS-2.35 gives with its stated
# configuration, and no configuration of the port is expected to reach them.

# %%
# NBVAL_CHECK_OUTPUT
print(notebook_numbers("wsn_reporting_interval", "combined"))

# %% [markdown]
# ### 7.10 NS-2's lock on frames it senses but cannot decode
#
# NS-2's `WirelessPhy` hands a frame between CSThresh and RXThresh to the MAC flagged as
# an error, and `Mac802_11` receives it to its end: a frame arriving meanwhile collides
# with it (unless 10 dB weaker) and is lost. `ns2_lock`, the declared rule since issue 25,
# does this (the PHY's `Ns2RxThreshold`, and `Ns2LockUndecodable` from the frame's first
# bit; `tests/test_ns2_collision_rule.py`, `tests/test_ns2_preamble_window.py`: a weak
# frame blocks a decodable one that `ns2` receives); `ns2`, the rule of stops 21-24, never
# locks on such frames (ns-3's preamble threshold at RXThresh). Every protocol at 1, 5 and
# 20 s without the lock, dashed, against the declared rule, solid. Dropped packets are
# left out under the lock: NS-2's MAC frees an errored frame without writing a trace
# line, and the packet counter cannot tell those from the decodable ones it loses.

# %%
fig = results.figure("receiver_lock")

# %%
# NBVAL_CHECK_OUTPUT
lock = results.table("receiver_lock")
lock[["protocol", "reception_model", "reporting_interval", "n_runs", "ns2_undecodable",
      "ns2_collisions", "mac_drops", "routing_load", "published_routing_load",
      "mean_delay_ms", "throughput_kbps"]].round(2)  # fmt: skip

# %% [markdown]
# Full mode (`receiver_lock.csv`: without the lock from `receiver_lock`, the declared
# rule from `intervals`; the runs per point and the numbers are printed by the cell after
# this text):
#
# * **The PHYs lock on hundreds of thousands to millions of undecodable frames per run**
#   (`ns2_undecodable`, all 56 nodes), and lose several times more receptions to
#   collisions with the lock than without it.
# * **The lock breaks TCP's routes at 1 s**: about twice the retry drops, several times the
#   routing load and a longer agent delay. SCTP and UDP change less; at 1 s UDP even
#   loses fewer frames at the retry limit with the lock.
# * **At 5 and 20 s the lock moves the routing loads both ways** (the last line: the
#   largest change), and the delays stay short with and without it.
#
# The lock is NS-2's, so it stays declared; with NS-2's collision rule (section 7.8) it is
# what gives TCP at 1 s its routing load. Section 8.2 switches it off again beside NS-2's
# other models.

# %%
# NBVAL_CHECK_OUTPUT
print(notebook_numbers("wsn_reporting_interval", "receiver_lock"))

# %% [markdown]
# ### 7.11 When the sensors start: staggered or all at once
#
# The seed does not say when its sources start. The declared default starts each sensor
# at a random time within the first interval (`start_mode` `staggered`); an NS-2 script
# that starts every CBR at one time keeps all 55 in step for the whole run (CBR's default
# `random_` is 0), so every interval 55 reports reach the channel at the same instant
# (`synchronized`). Every protocol at every interval, 5 runs per point (dashed), against
# `intervals` (solid, 10 runs); black: the seed:

# %%
fig = results.figure("start_mode")

# %%
# NBVAL_CHECK_OUTPUT
start = results.table("start_mode")
start[["protocol", "start_mode", "reporting_interval", "n_runs", "mean_delay_ms",
       "median_delay_ms", "p90_delay_ms", "published_delay_ms", "routing_load",
       "published_routing_load", "delivery_ratio"]].round(2)  # fmt: skip

# %% [markdown]
# What a burst costs on the channel, by hand: one report's RTS/CTS/DATA/ACK exchange on
# one hop with nobody else sending (`analysis.exchange_time_s`: 1 Mb/s data and
# control frames, long preamble, the mean backoff), and 55 of them one after the other:

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.studies.wsn_reporting_interval.analysis import exchange_time_s

SENSORS = 55
for label, seconds in (
    ("UDP report (284 B)", exchange_time_s(256 + 8 + 20)),
    ("SCTP packet (304 B)", exchange_time_s(256 + 16 + 12 + 20)),
    ("TCP packet (1040 B) and its ACK", exchange_time_s(1040) + exchange_time_s(40)),
):
    print(f"{label}: {seconds * 1e3:.1f} ms per hop, {SENSORS} in a row {SENSORS * seconds * 1e3:.0f} ms")

# %% [markdown]
# Full mode (`start_mode.csv`; the numbers, with the runs per point, are printed by the
# cell after this text):
#
# * **Reports in step wait for each other.** Synchronized, UDP's agent delay is hundreds
#   of milliseconds at every interval (seconds at 20 s), where staggered starts give tens;
#   SCTP's rises too, and TCP's but at 1 s. For UDP the median is of the size of the mean
#   at 1-10 s: almost every report waits, not a few for a route. That
#   is the size of a burst on the channel (the hand calculation of the cell above: 55
#   reports on one hop), and the reports converge on the sink over several hops. At 20 s
#   the routes have expired between reports, and route searches for all sensors at once
#   add a tail (the 90th percentiles).
# * **The seed's UDP delays are those of staggered sources**: within 2x of the seed at
#   every interval, synchronized UDP many times above them. For TCP and SCTP synchronized
#   starts bring more points within 2x of the seed than staggered ones, but not most.
# * **Routing loads rise when the sensors start together**, most at 20 s (route searches
#   for all of them at once); delivery hardly moves.
#
# So no single reading of the start times fits all three protocols of the seed: its UDP
# delays are those of sensors that start at random times, and neither reading gives most
# of its TCP and SCTP delays. This experiment shows what the start times do; the default
# stays `staggered` (the seed does not say), and the delay rows are compared as before.

# %%
# NBVAL_CHECK_OUTPUT
print(notebook_numbers("wsn_reporting_interval", "start_mode"))

# %% [markdown]
# ### 7.12 What the experiments leave
#
# See `data/results/wsn_reporting_interval/README.md` (full mode) for the verdicts row
# by row. Definitions used for the three remaining metrics (the seed gives only words):
# routing load = AODV packets handed to the MACs / reports delivered; MAC load = every
# frame the PHYs sent (RTS, CTS, DATA, ACK, broadcasts) / reports delivered; dropped
# packets = every drop an NS-2 trace would show as a `D` line (PHY receptions lost to
# another frame, MAC queue and retry drops, IP and ARP drops; not frames below the
# reception threshold). The committed comparison (section 5) judges these rows.
#
# On the declared field at 1 Mb/s, what the re-run experiments show: TCP and SCTP deliver
# only part of the reports, UDP nearly all, because one-way links break connections
# (7.2); of the reports they carry, NS-2's Agent/TCP lies near the seed's TCP throughput
# from 2 to 10 s, and SCTP in the region of the seed's (the ratios of 7.2). AODV repairs
# a route only after a retry
# drop, which the one-way links give at every interval; NS-2's collision rule with its
# lock brings TCP's routing load at 1 s to the seed's (7.8, 7.10), while everywhere else
# the seed's routing loads, UDP's included, stay above ours, and hidden terminals only
# move them around (7.6, 7.9). The energies are not explained: NS-2.35's default radio spends
# more on the traffic alone, and with the MICA2's powers the seed's totals leave less for
# idling than a listening MICA2 draws (7.7). The seed's UDP delays are those of sensors
# started at random times; neither start reading gives most of its TCP and SCTP delays
# (7.11). Which field and carrier sense the seed had is not in its text (Figure 1 is
# missing, Table 1 gives RXThresh only), so the declared defaults stay those chosen by the
# placement rule and NS-2's defaults, and the comparison rows `differ` where they do.

# %% [markdown]
# ## 8. NS-2 re-run: the seed's own simulator on the same fields
#
# The seed ran NS-2. Every `differs` above mixes two questions: is the published number
# what NS-2 gives with the configuration the seed states (if not, the paper is the cause),
# and does our ns-3 configuration behave like NS-2 on the same scenario (if not, our port
# is)? `ns2_scenario` writes the study's scenario for NS-2.35 itself (Debian's `ns2`) from
# the same parameters: Table 1 with NS-2's own defaults (802.11 at its 1 Mb/s, `CSThresh_`
# and `RXThresh_`, `Queue/DropTail/PriQueue` of 50, AODV, TwoRayGround, its energy model),
# `Agent/UDP`, `Agent/TCP` or `Agent/SCTP` fed by CBR, on **the same field and start times
# as the ns-3 run of the same replication** (both drawn outside the simulators from the
# run's seed), `$defaultRNG` seeded per run. Its trace is parsed into the raw tables of
# the ns-3 run step, so `analysis.analyse` computes every metric of both.
#
# What NS-2 showed in our port, and what ns-3 now follows (declared since issue 25; section
# 8.2 switches each back):
#
# * **802.11 at 1 Mb/s**: NS-2.35's `dataRate_` and `basicRate_` are 1Mb; we ran 2 Mb/s
#   from a reference that was wrong. Every number above changed with it.
# * **NS-2's receiver lock** (`reception_model` `ns2_lock`, section 7.10): its MAC receives a
#   frame it senses but cannot decode to its end, and loses a frame arriving meanwhile.
# * **NS-2's retry counts** (`retry_model` `ns2`, `ns3::Ns2ConstantRateWifiManager`): up to 7
#   RTS without CTS since the last CTS and 4 DATA without ACK, where ns-3.44 gives a frame
#   up after 7 failures of either kind together.
# * **NS-2's carrier-sense culling** (`carrier_sense_culling` `ns2`): `WirelessChannel` fixes
#   `distCST_` at the first transmission from that sender's power and delivers every later
#   frame only within a square of `distCST_` + 5 m. At the seed's settings it does: the
#   first sender is a sensor that starts first, usually a 60-m one (256.4 m), which keeps
#   the 150-m nodes' frames from nodes 261-405 m away (section 8.4 counts the runs).
# * **Preloaded neighbour caches** (`arp_model` `preloaded`): NS-2's ARP hands AODV the
#   failure after three requests (and learns addresses from every ARP frame it hears);
#   ns-3's ARP retries for 3 s, then drops every packet for that neighbour for 100 s and
#   tells AODV nothing. Every node knows its neighbours' addresses from the start
#   (`NeighborCacheHelper`), so no ARP frames are sent. ns-3's AODV cannot read these
#   auto-generated entries, so the MAC's retry limit does not reach it either; section 8.8
#   shows why making them readable is not done. What this leaves out, section 8.9.1 shows:
#   NS-2's ARP holds one packet per address it is resolving, and in the first floods many
#   intermediate RREPs are lost to it, so NS-2's RREQs at 1 s flood further than ours.
# * **AODV neighbour entries that never expire** (`AllowedHelloLoss`): with hellos off,
#   ns-3's AODV still lists every node it hears a RREQ from as a neighbour for 2 s and takes
#   the expiry for a broken link; NS-2.35 with `AODV_LINK_LAYER_DETECTION` runs no
#   neighbour timer (section 8.8).
# * **No gratuitous RREP**: NS-2.35 compiles AODV without `RREQ_GRAT_RREP`; ns-3's
#   `GratuitousReply` defaulted to on.
# * **A first route search network-wide** (`TtlStart` = `NetDiameter`): ns-2.35's
#   `AODV::sendRequest` rings from a new route entry's last hop count, INFINITY2, so its
#   first RREQ for a destination carries NETWORK_DIAMETER, not aodv.h's TTL_START
#   (section 8.9).
# * **Dropped packets as NS-2's trace counts them**: Mac802_11 writes a `COL` line for a
#   decodable frame lost in a collision and frees one below `RXThresh_`, or one arriving
#   while the node sends, without a line; ns-3's PHY counted all of those (our PHY now
#   keeps NS-2's count).
# * **Throughput with AODV's IP header**: NS-2's AODV adds a 20-byte IP header to every
#   packet it originates that is not TCP, so its `r AGT` lines show 276 bytes for a
#   256-byte UDP report and chunks + 52 for SCTP (checked against NS-2's trace).
#
# The quick-mode comparison below runs both simulators on the quick points (a check of the
# pipeline); the committed full-mode table follows.

# %%
from transportlab.studies.wsn_reporting_interval import ns2_baseline

ns2 = ns2_baseline.ns2_results(quick=quick, runs=runs, scheduler=scheduler)
baseline = ns2_baseline.baseline_table(ns2.comparison(), quick_comparison)
baseline[["protocol", "metric", "row", "published", "ns2", "paper_vs_ns2", "ns3",
          "paper_vs_ns3", "ns3_over_ns2", "ns3_within_tolerance_of_ns2"]].round(3)  # fmt: skip

# %%
# NBVAL_CHECK_OUTPUT
print(ns2_baseline.baseline_counts(baseline).to_string(index=False))

# %% [markdown]
# ### 8.1 Published / NS-2.35 / ns-3, full mode
#
# `data/results/wsn_reporting_interval/ns2_baseline.csv`: per published row, the published
# value, NS-2's mean, 95 % interval and runs with the project's verdict of the published
# value against it (the same method and tolerance as the ns-3 column's), ns-3's, and
# whether ns-3 lies within the 20 % tolerance of NS-2. The counts per protocol and metric:

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.ns2.baseline import agrees, published_value

full_baseline = committed_table("wsn_reporting_interval", "ns2_baseline")
full_counts = ns2_baseline.baseline_counts(full_baseline)
print(full_counts.to_string(index=False))

# %% [markdown]
# The three columns against the reporting interval (log axes; crosses: the paper):

# %%
fig, _ = ns2_baseline.baseline_figure(full_baseline)

# %% [markdown]
# What the counts say, from the committed table (the verdicts are the project's method:
# `matches` within 20 %; a row agrees when it matches or a bound holds, not vacuously):

# %%
# NBVAL_CHECK_OUTPUT
every = full_counts[full_counts["protocol"] == "all"].iloc[0]
per_metric = full_baseline.groupby("metric")
print(f"{every['rows']} published rows. The paper matches NS-2.35 on "
      f"{every['paper_matches_ns2']} and ns-3 on {every['paper_matches_ns3']}; ns-3 is within "
      f"the tolerance of NS-2 on {every['ns3_within_tolerance_of_ns2']}.")
for metric, rows in per_metric:
    ratio = (published_value(rows["published"]) / rows["ns2"]).median()
    agreeing = int(agrees(rows["paper_vs_ns2"], rows["paper_vs_ns2_note"]).sum())
    within = int((rows["ns3_within_tolerance_of_ns2"] == True).sum())  # noqa: E712
    print(f"{metric:16s} paper matches NS-2 {agreeing}/{len(rows)}, ns-3 within 20 % of "
          f"NS-2 {within}/{len(rows)}; median published / NS-2 {ratio:.2f}, median ns-3 / "
          f"NS-2 {rows['ns3_over_ns2'].median():.2f}")  # fmt: skip
print("paper vs NS-2:", full_baseline["paper_vs_ns2"].value_counts().to_dict())
print("paper vs ns-3:", full_baseline["paper_vs_ns3"].value_counts().to_dict())

# %% [markdown]
# ### 8.2 What each of NS-2's models changes in ns-3
#
# Experiment `ns2_fidelity`: every protocol at 1 s with one of the settings by which ns-3
# follows NS-2 switched back to ns-3's own, against the declared configuration and NS-2
# on the same fields (`ns2_baseline_fidelity.csv`; ns-3 / NS-2 of each quantity). In quick
# mode (UDP with ns-3's ARP):

# %%
fidelity = ns2_baseline.fidelity_vs_ns2(results, ns2)
fidelity.pivot_table(index=["protocol", "quantity"], columns="variant",
                     values="ns3_over_ns2").round(2)  # fmt: skip

# %% [markdown]
# Full mode needs 36 more ns-3 runs of 100 s at 1 s (`python -m
# transportlab.studies.wsn_reporting_interval.ns2_baseline` without `--no-fidelity`); where
# they have not been run, the cell says so instead of showing a table:

# %%
# NBVAL_CHECK_OUTPUT
try:
    full_fidelity = committed_table("wsn_reporting_interval", "ns2_baseline_fidelity")
except FileNotFoundError:
    print("ns2_baseline_fidelity.csv: not run in full mode (only the quick run above)")
else:
    print(full_fidelity.pivot_table(index=["protocol", "quantity"], columns="variant",
                                    values="ns3_over_ns2").round(2).to_string())  # fmt: skip
    compared = full_fidelity[full_fidelity["quantity"].isin(list(analysis.METRICS))]
    print(compared.groupby("variant")["within_tolerance"].agg(["sum", "size"]).to_string())

# %% [markdown]
# How to read the full-mode table (3 ns-3 runs per variant and protocol, NS-2's 3 runs of
# `intervals` at 1 s): each column switches one of NS-2's models back to ns-3's own, so
# the step from `declared` to that column is what the model does to ns-3 on the identical
# fields. The last lines count, per variant, the compared metrics on which ns-3 lies within
# the tolerance of NS-2. They say that no single model closes the gap to NS-2 and that
# the declared combination is not the nearest to NS-2 on every metric: the models are
# declared because NS-2.35's code does what they do (each is cited in the introduction),
# not because they bring the numbers nearer, and what is still far apart is what sections
# 8.6-8.8 trace.

# %% [markdown]
# ### 8.3 A model difference shown in NS-2 itself: PriQueue's routing priority
#
# NS-2's interface queue puts routing packets at its head (`Prefer_Routing_Protocols`);
# ns-3's wifi MAC queue is one FIFO. NS-2 can switch its priority off
# (`ns2_prefer_routing`, NS-2's experiment `ns2_priqueue`, every protocol at 1 s), which
# shows what the difference changes without touching ns-3:

# %%
ns2_baseline.priqueue_table(ns2).round(3)

# %%
# NBVAL_CHECK_OUTPUT
full_priqueue = committed_table("wsn_reporting_interval", "ns2_baseline_priqueue")
print(full_priqueue[["protocol", "interface_queue", "n_runs", "delivery_ratio", "routing_load",
                     "mac_load", "mean_delay_ms", "throughput_kbps",
                     "energy_per_node_j"]].round(3).to_string(index=False))  # fmt: skip

# %% [markdown]
# ### 8.4 One run traced in both simulators
#
# Run 1 of every protocol at 1 s (the same field, start times and settings), counted the
# same way in both (`ns2_baseline_trace.csv`): what the routing layers handed to their interfaces,
# the frames the MACs sent, the frames given up, the collisions, ARP, and the sensors that
# hear a 150-m node they cannot reach:

# %%
ns2_baseline.trace_table(results, ns2).round(3)

# %%
# NBVAL_CHECK_OUTPUT
full_trace = committed_table("wsn_reporting_interval", "ns2_baseline_trace")
print(full_trace.round(3).to_string(index=False))

# %% [markdown]
# NS-2's carrier-sense culling distance in each run (printed by NS-2 as `distCST_`) and the
# one ns-3's PHY fixed in the same run (the same first sender, the same start times):

# %%
# NBVAL_CHECK_OUTPUT
print(ns2_baseline.culling_table(results, ns2).to_string(index=False))
print(committed_table("wsn_reporting_interval", "ns2_baseline_culling").to_string(index=False))

# %% [markdown]
# ### 8.5 What the baseline changes in the conclusions
#
# Per protocol, from the committed tables:

# %%
# NBVAL_CHECK_OUTPUT
print(ns2_baseline.key_numbers(full_baseline, full_trace).round(2).to_string(index=False))

# %% [markdown]
# Every published row with both values, by what its two judgements attribute a gap to:
# *the paper* where NS-2 itself, on fields the seed's text allows and with its stated
# configuration, does not give the published number while ns-3 lies within 20 % of NS-2;
# *our port* where the paper agrees with NS-2 and ns-3 does not; *both* where neither
# holds (`ns2_baseline.attribution`):

# %%
# NBVAL_CHECK_OUTPUT
attributed = ns2_baseline.attribution(full_baseline)
print(attributed.to_string(index=False))

# %% [markdown]
# ### 8.6 The delay and drop gaps on one run, by cause
#
# ns-3 lies within 20 % of NS-2 on few of the delay and dropped-packets rows (section 8.1).
# `ns2_gap` takes UDP (no transport dynamics) at the shortest and at the longest interval,
# run 1 of the same field, start times and settings, runs both simulators with every report
# traced on its way, and attributes the two gaps with counts and times:
#
# * the **mean-delay gap by selection**: over the reports both simulators delivered, and what
#   the reports only one of them delivered add to its mean (the three parts add up to the gap);
# * the **delay of the reports both delivered by part of the path**: the wait at the source
#   before its routing layer hands the report to the interface (NS-2: `s AGT` to `s RTR`;
#   ns-3: the agent's send to the source MAC's `MacTx`), which is AODV's route discovery,
#   and the time from there to the sink (interface queue, channel access, retries and air
#   time on every hop, and any repair on the way), with the hops and, in NS-2, the data-frame
#   transmissions per hop;
# * the **drops** the compared metric counts, by cause and kind of packet: NS-2's `d` lines by
#   reason; ns-3's MAC, IP and ARP drops by ns-3's reason and the decodable frames its PHY lost
#   in collisions, by kind of frame. Each simulator's causes add up to its `dropped_packets`;
# * the **collisions by kind of frame** (`ns2_gap_collisions.csv`): the frames each
#   simulator's PHYs sent and the decodable ones lost in collisions, per kind.
#
# ns-3 counts its drops as NS-2.35's trace writes them (`mac/mac-802_11.cc`): a frame given up
# at the RTS retry limit is two `d` lines (`RetransmitRTS` discards the RTS and then the
# frame), one given up at the DATA limit one (`RetransmitDATA`), so ns-3 adds the RTS of each
# frame its station manager gives up at the RTS limit (`MacTxFinalRtsFailed`). And
# `discard()` writes a line only for a frame addressed to the node or a broadcast data frame:
# an overheard unicast frame for another node lost in a collision is freed untraced, so
# ns-3 leaves those out (they are shown apart in the collision table). The drop table keeps
# the RTS lines as their own kind (RTS/CTS/ACK), so both simulators' duplicates can be read
# off.
#
# In this mode (quick: the 20-s run at 1 s; one ns-3 run and one NS-2 run):

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.studies.wsn_reporting_interval import ns2_gap

traced = ns2_gap.tables(ns2_gap.traced_run(quick=quick))
point = {"reporting_interval": 1.0}
print(ns2_gap.key_numbers(traced["ns2_gap_drops"].assign(**point),
                          traced["ns2_gap_delay"].assign(**point),
                          traced["ns2_gap_collisions"].assign(**point)).round(3)
      .to_string(index=False))  # fmt: skip

# %% [markdown]
# The committed full-mode tables (`ns2_gap_drops.csv`, `ns2_gap_delay.csv`,
# `ns2_gap_paths.csv`, `ns2_gap_collisions.csv`;
# `python -m transportlab.studies.wsn_reporting_interval.ns2_gap`, 1 run per simulator and
# interval):

# %%
# NBVAL_CHECK_OUTPUT
gap_drops = committed_table("wsn_reporting_interval", "ns2_gap_drops")
gap_delay = committed_table("wsn_reporting_interval", "ns2_gap_delay")
gap_paths = committed_table("wsn_reporting_interval", "ns2_gap_paths")
gap_collisions = committed_table("wsn_reporting_interval", "ns2_gap_collisions")
print(ns2_gap.key_numbers(gap_drops, gap_delay, gap_collisions).round(3).to_string(index=False))

# %%
fig, n_runs = ns2_gap.gap_figure(gap_delay, gap_paths, gap_drops)
print(f"{n_runs} run per simulator and interval")

# %% [markdown]
# What the traced runs attribute the gaps to (every number is printed above):
#
# * **Delay at 1 s: NS-2's routes, not its MAC.** The gap lies on the reports both
#   simulators delivered ("the same reports"); what the reports only one of them delivered
#   add is small and of the other sign (the parts are printed above: ns-3's few own reports
#   came late, after long waits for a route). On the same reports both parts are longer
#   in NS-2: the wait at the
#   source, because NS-2's route discoveries while the sensors start take far longer (the
#   reports that waited more than a second were all sent in the first seconds, panel (a)),
#   and the way from the interface to the sink, because NS-2's reports take more hops and
#   spend more time on each (more contention along longer routes; a data frame is sent once
#   per hop in NS-2's trace, so it is not MAC retries of the report itself).
# * **Which reports each delivers: now about the same.** Before the fix of section 8.8,
#   the reports NS-2 delivered and ns-3 did not were as many as the data packets ns-3's MACs
#   gave up at the retry limit: ns-3's AODV sent them straight to the 150-m sink over links
#   it hears but cannot answer on (section 8.4). Section 8.8 found the AODV difference that
#   made it (the first hops of both simulators' routes against the one-way links of the
#   field): one was the port's configuration, now fixed; these tables were traced with the
#   fix, and the retry-limit drops of the two simulators now differ little (the drop rows
#   above). Frames given up at the RTS retry limit count an RTS line beside each, as in
#   NS-2's trace.
# * **Dropped packets: NS-2's rule now counted alike; the rest is NS-2's RREQs and ARP.**
#   Counted as NS-2's trace counts them, with NS-2's collision rule applied from a frame's
#   first bit (section 8.7), NS-2 still drops more at both intervals, far more at 1 s. At
#   1 s most of the gap is decodable AODV frames NS-2 loses in collisions, then ARP frames
#   (ns-3 runs without ARP frames: `arp_model` `preloaded`, a declared model difference)
#   and control frames; at 20 s ns-3 loses more control frames in collisions, NS-2 more
#   routing and ARP frames, and the parts partly cancel. The cell below prints, from the
#   committed tables, how many routing frames each simulator sends and loses: at 1 s NS-2
#   sends more of them and loses more per frame sent (a broadcast is lost at every
#   neighbour that loses it, so the ratio can exceed one). Section 8.7 pairs every
#   collision with the frame it collided with: per RREQ sent the two simulators lose about
#   as many, so the routing gap at 1 s is how many RREQs NS-2 sends, not how they collide.

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.headlines import notebook_numbers

print(notebook_numbers("wsn_reporting_interval", "ns2_gap"))

# %% [markdown]
# ### 8.7 Why NS-2's broadcasts collide more: each collision paired with its interferer
#
# `ns2_gap_broadcasts` runs the same point as section 8.6 (UDP, run 1) in both simulators
# with every frame on the air traced: NS-2's `s ... -Nl MAC` lines and its `d ... -Nw COL`
# lines; in ns-3 every PHY's `PhyTxPsduBegin` and the decodable frames its PHY lost to NS-2's
# collision rule (`Ns2CollisionDrop` of `ns3::SensitivityFilteredYansWifiPhy`, those NS-2
# would trace). Each lost frame is matched to its transmission (NS-2: the sender's MAC
# address, or a control frame's receiver, and the time; ns-3: the packet uid), and then to
# the frame it collided with: the transmission of a third node that the receiver senses and
# that overlaps it, the one whose start is nearest. Each pair is classified by
#
# * the **start-time offset**: within one 20-us slot (the later sender cannot have sensed
#   the earlier frame yet), within DIFS plus the largest first backoff (670 us), or later;
# * **hidden terminal or not**: whether the later sender senses the earlier one's frames
#   (both simulators' positions, powers, CSThresh and NS-2's culling square);
# * the **kinds** of both frames (RREQ, RREP, RERR, ARP, data, RTS, CTS, ACK) and which of
#   the two started first.
#
# The table has a third column, a check: ns-3's run with the frames its **preamble
# detection** dropped counted as NS-2 would count them. Two frames that arrive within 4 us
# of each other (ns-3's preamble detection window), as the frames of two senders whose
# backoffs end in the same slot do, are resolved by ns-3's preamble detection (the
# stronger kept if 10 dB above the other). Until issue 25's preamble fix the port of
# NS-2's rule applied only once the PHY had a current reception, after that window, and
# never counted them: this column was how the pairs found that gap. The PHY now applies
# the rule from a frame's first bit, as NS-2's `Mac802_11::recv` does, so the ns-3 column
# counts them itself and the third column adds only the dropped frames that NS-2 would
# trace (decodable at the receiver, addressed to it or broadcast, their interferer within
# `CPThresh_` of the frame that arrived first: `ns3_preamble_losses`) and that the PHY
# judged otherwise.
#
# In this mode (quick: the 20-s run at 1 s; one ns-3 run and one NS-2 run):

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.studies.wsn_reporting_interval import ns2_gap_broadcasts

paired = ns2_gap_broadcasts.table(ns2_gap_broadcasts.traced_frames(quick=quick))
print(ns2_gap_broadcasts.key_numbers(paired.assign(reporting_interval=1.0)).round(3)
      .to_string(index=False))  # fmt: skip

# %% [markdown]
# The committed full-mode table (`ns2_gap_broadcasts.csv`;
# `python -m transportlab.studies.wsn_reporting_interval.ns2_gap_broadcasts`, 1 run per
# simulator and interval, UDP):

# %%
# NBVAL_CHECK_OUTPUT
broadcasts = committed_table("wsn_reporting_interval", "ns2_gap_broadcasts")
print(ns2_gap_broadcasts.key_numbers(broadcasts).round(3).to_string(index=False))

# %% [markdown]
# What the pairs show (every number is printed below, from the committed table):
#
# * **NS-2's routing collisions are RREQ rebroadcasts that start in the same slot.** Most of
#   NS-2's lost routing frames are RREQs, and most of those collide with another node's
#   frame (mostly another RREQ) that started within the same 20-us slot, from a sender that
#   senses it: not hidden terminals. AODV jitters each rebroadcast (NS-2: up to 10 ms), but
#   a rebroadcast that finds the medium busy waits in the MAC's backoff, and the neighbours
#   that waited behind the same frame count their backoffs down from the same instant, so
#   two of them often pick the same slot and collide at every common neighbour (a
#   broadcast is not acknowledged or retried). Hidden terminals are the smaller part.
# * **ns-3 has the same collisions.** With NS-2's rule applied from a frame's first bit,
#   ns-3's routing collisions split as NS-2's do: mostly frames started in the same slot
#   by senders that sense each other, hidden terminals the smaller part; its RREQ losses
#   per RREQ sent are of the same order as NS-2's, and so are its RTS losses per RTS sent
#   at 1 s. Before issue 25's preamble fix the port applied the rule only after
#   ns-3's preamble detection window and missed these collisions (in its count same-slot
#   collisions were rare and hidden terminals dominated); the third column, the recount of
#   the frames ns-3's preamble detection dropped, is how the pairs found that gap, and it
#   now adds little to the ns-3 column. The "collision (decodable frame lost)" drops ns-3
#   adds to the compared `dropped_packets` (section 8.6) count these losses in the runs
#   made with the fix; tables written before it left them out (their provenance names the
#   commit that wrote them).
# * **What remains.** The routing ratio stays lower in ns-3 because RREQs, the frames that
#   collide, are a smaller share of ns-3's routing frames: at 1 s ns-3's AODV sends far
#   fewer RREQs than NS-2's, and at both intervals more unicast RREPs, which rarely
#   collide (the frames sent per kind are in the table's `per frame sent` rows). Per RREQ
#   sent the two simulators lose about as many at both intervals; ns-3 loses more RTS
#   frames per RTS at 20 s. The recount judges each dropped frame against its
#   nearest interferer only, as NS-2's pairwise rule does, while ns-3's preamble detection
#   compares the SNR under every signal present; what it still adds is not examined here.
#   The ARP frames NS-2 adds collide the same way (ns-3 runs without them, a declared
#   difference).
# * **The check in NS-2's own source.** ns-2.35's `aodv/aodv.cc` (`AODV::forward`) delays an
#   AODV broadcast by `0.01 * Random::uniform()` and `mac/mac-802_11.cc` (`send`, and the
#   `BackoffTimer` of `mac-timers.cc`) starts a backoff paused while the medium is busy that
#   resumes DIFS after it is idle again, as ns-3's channel access does; the share of RREQs
#   sent within DIFS plus the first backoff of a frame their sender heard end is printed
#   below for both simulators.

# %%
# NBVAL_CHECK_OUTPUT
print(notebook_numbers("wsn_reporting_interval", "ns2_gap_broadcasts"))

# %% [markdown]
# ### 8.8 Which AODV differences send ns-3's reports to next hops that cannot answer
#
# `ns2_gap_routes` traces the run of section 8.6 again, now every data and AODV frame in
# both simulators (ns-3: a recorder on every PHY and MAC, `ns2_gap_routes.FrameLog`; NS-2:
# its trace's `s MAC` lines with their next hop `-Hd`, its `d MAC RET` lines and the AODV
# messages its routing agents received), and classes every hop a data frame is tried over
# against the field's links (`ns2_gap_routes.link_classes`: a node's frames reach every node
# within its range, 150 m for the sink and nodes 1-7, 60 m for the others):
#
# * **two-way**: each end reaches the other;
# * **one-way, next hop out of the sender's reach**: the sender hears the next hop (a 150-m
#   node) but its own frames do not reach it, so its RTS is never answered;
# * **one-way, the next hop's answer out of reach**: the next hop receives the sender, its CTS
#   and ACK do not come back;
# * **no link**.
#
# Per class it counts the reports whose first hop is in it and how many arrived, the data
# frames tried over such hops and those given up at the retry limit, and for every frame
# given up the last AODV message the sender heard from that next hop (both AODVs learn a
# next hop only from a message it sent). Three ns-3 models run against the same NS-2 run:
# the port **before** the fix, **after** it (one change, below) and after it with ARP
# entries that ns-3's AODV can read (**after+ARP**, not in the port).
#
# In this mode (quick: the 20-s run at 1 s; one NS-2 run and one ns-3 run per model):

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.studies.wsn_reporting_interval import ns2_gap_routes

quick_routes = ns2_gap_routes.traced_point(
    "udp", 1.0, 1, 1, quick, ns2_gap_routes.models_at(1.0, (1.0,))
)
print(ns2_gap_routes.key_numbers(quick_routes).to_string(index=False))

# %% [markdown]
# The committed full-mode table (`ns2_gap_routes.csv`,
# `python -m transportlab.studies.wsn_reporting_interval.ns2_gap_routes`, UDP, run 1, one
# run per simulator and model at 1 s and 20 s):

# %%
# NBVAL_CHECK_OUTPUT
gap_routes = committed_table("wsn_reporting_interval", "ns2_gap_routes")
print(ns2_gap_routes.key_numbers(gap_routes).to_string(index=False))

# %% [markdown]
# What the frames show (every number is printed above and below):
#
# * **Before the fix, ns-3's lost reports went straight to the sink over one-way links.**
#   Almost every data frame ns-3 gave up at the retry limit was sent by a sensor directly to
#   the 150-m sink, which the sensor hears but its 60-m frames do not reach, after the
#   sensor had heard a RREQ rebroadcast by the sink; NS-2 gives up next to none and sends no
#   report over such a hop.
# * **Where that route comes from: ns-3's AODV learns a route to whoever it hears.** On every
#   AODV message it receives, ns-3 makes (or overwrites) a valid 1-hop route to the sender
#   (`RoutingProtocol::RecvAodv` -> `UpdateRouteToNeighbor`; RFC 3561 6.5 and 6.7 ask it for
#   the previous hop of a RREQ or RREP), so a sensor that hears the sink's broadcast swaps its
#   route to the sink for a direct one. NS-2.35's AODV learns a route only to a RREQ's
#   originator and a RREP's destination (`AODV::recvRequest`, `recvReply` in
#   `aodv/aodv.cc`), and its sink never broadcasts: it only answers. ns-3's sink broadcast
#   because ns-3 searched for nodes other than the sink: with hellos off it still listed
#   every node it heard a RREQ from as a neighbour for AllowedHelloLoss x HelloInterval
#   (2 s) and took the entry's expiry for a broken link (`Neighbors::Purge` ->
#   `SendRerrWhenBreaksLinkToNextHop`: RERRs and new discoveries, among them RREQs for
#   neighbours, which the sink rebroadcast). NS-2.35 with `AODV_LINK_LAYER_DETECTION` runs
#   no neighbour timer (`AODV::command` "start") and breaks a link only when its MAC gives
#   up a data packet (`rt_ll_failed`). The direct route outlived every frame given up on it
#   because ns-3 breaks a link on the MAC's retry limit only towards a next hop in that
#   neighbour list, found by MAC address in the ARP cache, which its AODV reads only from
#   alive or permanent entries, and the preloaded ones are auto-generated
#   (`NeighborCacheHelper`).
# * **The fix: neighbour entries that outlive the run.** One change (AllowedHelloLoss,
#   `scenario._config_defaults`, with the ns-2.35 functions cited): at both intervals the
#   RREQs for other nodes, the sink's broadcasts and the frames given up on one-way hops
#   (all but) disappear, ns-3's RERRs fall towards NS-2's and ns-3 delivers about as many
#   reports as NS-2.
# * **Not in the port: ARP entries ns-3's AODV can read (after+ARP).** They let the MAC's
#   retry limit break links as in NS-2.35. Before the port's first route search went
#   network-wide (section 8.9) this brought back, at 1 s, the sink's rebroadcasts and the
#   reports sent straight to it over one-way links (the table as committed at 0b7170e);
#   with that fix it delivers as many
#   reports as the port at both intervals, but sends several times the port's RERRs, far
#   more than NS-2 (printed below). What is left of the route problem is ns-3's AODV
#   learning a route to every node it hears, which no attribute changes; the port keeps the
#   auto-generated entries and says so (`arp_model`).
# * The committed comparison (sections 4-6), the NS-2 baseline (sections 8.1-8.5) and the
#   traced runs of sections 8.6 and 8.7 were run with the fix; the committed files of the
#   experiments of section 7 predate issue 25 altogether (the WSN results README and
#   `provenance.json` say which file comes from which code).

# %%
# NBVAL_CHECK_OUTPUT
print(notebook_numbers("wsn_reporting_interval", "ns2_gap_routes"))

# %% [markdown]
# ### 8.9 Why NS-2 floods more RREQs and ns-3 sends more RERRs: every route search counted
#
# Section 8.8's fix leaves two AODV gaps on the traced run: NS-2 sends several times as many
# RREQ frames as ns-3, and at 20 s ns-3 sends far more RERRs than NS-2.
# `ns2_gap_discoveries` traces the same run (UDP, run 1) in both simulators once more and
# counts, from the frames alone (`ns2_gap_routes.FrameLog` with each frame's IP TTL and
# destination sequence number; NS-2's trace):
#
# * every RREQ a node originated (each ring of an expanding ring search is one, with its own
#   id and IP TTL): why it was sent (the first search for that destination; a retry with no
#   RREP since the previous RREQ; a new search after a link break its originator saw, a
#   frame its MAC gave up or a RERR it received; a new search without one, the route having
#   expired), how many nodes rebroadcast it, how many answered it from their own route, and
#   the destination sequence number it asks for against the last RREP its originator heard
#   for that destination;
# * what each node did with each RREQ it received (rebroadcast, answered, discarded as a
#   duplicate or at TTL 0);
# * the RREPs by who made them and, for every RERR, the last event at its sender that can
#   cause one.
#
# ns-3 runs the port and three variants set only inside this experiment: the port before the
# fix this experiment found (below), whose first RREQ of a search went out with `TtlStart`
# 5, no RREQ/RERR rate limits (`RreqRateLimit`, `RerrRateLimit`), and ns-3's own ARP
# holding one packet per address as NS-2's does (`arp_model` ns3, `ArpCache`
# `PendingQueueSize` 1; section 8.9.1). The committed table (`ns2_gap_discoveries.csv`,
# `python -m transportlab.studies.wsn_reporting_interval.ns2_gap_discoveries`: one NS-2 run
# and one ns-3 run per variant at 1 s and 20 s; per-RREQ rows are means):

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.studies.wsn_reporting_interval import ns2_gap_discoveries

gap_discoveries = committed_table("wsn_reporting_interval", "ns2_gap_discoveries")
print(ns2_gap_discoveries.key_numbers(gap_discoveries).to_string(index=False))

# %% [markdown]
# What the counts show (every number is printed above):
#
# * **Both simulators start searches of the same order; NS-2's floods reach further.** The
#   gap in RREQ frames lies in the rebroadcasts per RREQ (and the duplicates every node
#   then discards), not in the searches.
# * **After losing a route ns-2.35 asks for a newer one, ns-3 for the same one.** When a
#   route expires or its link breaks, ns-2.35 adds one to the destination's sequence number
#   (`AODV::rt_purge`, `AODV::handle_link_failure`: `rt_seqno++`), so its next RREQ asks
#   for a number past the last RREP it heard, and no node that holds the old route may
#   answer (`AODV::recvRequest` answers only if `rt_seqno >= rq_dst_seqno`): the RREQ is
#   rebroadcast on towards the sink. ns-3 invalidates a route without touching its number
#   (`RoutingTableEntry::Invalidate`) and asks again for the number it heard
#   (`RoutingProtocol::SendRequest`), which every node with a valid route of that number
#   answers (`RecvRequest` -> `SendReplyByIntermediateNode`): many intermediate replies,
#   few rebroadcasts. The rows by sequence number show it: no RREQ of NS-2 asks for the
#   number its originator last heard, no RREQ of ns-3 for a raised one, and the RREQs
#   asking for a raised number are rebroadcast far more often than those asking for the
#   number heard. Both AODVs also raise a RREQ's number to the forwarding node's own on the
#   way (`recvRequest`, `RecvRequest`); at 20 s many of NS-2's rebroadcasts carry a raised
#   number, every one of them odd, a number ns-2.35 raised when it invalidated a route
#   (its destinations give only even ones), while ns-3's hardly ever raise it. No ns-3
#   attribute changes this.
# * **NS-2's first ring is network-wide: fixed in the port, but that is not what floods.**
#   ns-2.35 starts a ring from the larger of the last TTL and the last hop count, and a new
#   route entry's hop count is INFINITY2 (`aodv_rt_entry`'s constructor), so its first RREQ
#   for a destination goes out with NETWORK_DIAMETER (the TTL-30 row), not aodv.h's
#   TTL_START. The port had assumed TTL_START (`TtlStart` 5); it now sets `TtlStart` to
#   `NetDiameter` (`scenario._config_defaults`), and every committed ns-3 result of this
#   study was run again with it. The `TtlStart` 5 column is the port before that fix: its
#   RREQ frames, RERRs and reports are close to the port's, so the fix is a matter of
#   fidelity, not the source of the RREQ gap. Even for RREQs with no destination number
#   known, which any node with a route may answer in both AODVs, more ns-3 nodes answer and
#   fewer rebroadcast than NS-2's, with hardly any number raised on the way at 1 s: section
#   8.9.1 follows every copy of these RREQs.
# * **ns-3's RERRs at 20 s follow its neighbour timer.** About half are passed on from
#   another RERR; of the others many come with none of the events that break a link in
#   NS-2 at the sender (no frame given up, no RERR received, no packet to forward without a
#   route), one ActiveRouteTimeout (10 s) to 12 s after its last data frame. With hellos off
#   and the MAC's give-ups not reaching its AODV (section 8.8), what is left in ns-3 to
#   break a link is its neighbour list: it lists the next hop it forwards a
#   packet to, and the previous hop of one it delivers, as a neighbour for
#   ActiveRouteTimeout (`Forwarding`, `RouteInput`: `m_nb.Update(..., m_activeRouteTimeout)`)
#   and takes the entry's expiry for a broken link (`Neighbors::Purge` ->
#   `SendRerrWhenBreaksLinkToNextHop`). With a report every 20 s such entries expire between
#   reports; at 1 s traffic renews them. NS-2.35 with link-layer detection runs no
#   neighbour timer: each of its few RERRs follows a frame its MAC gave up, a RERR it
#   received or a packet it had no route to forward. Section 8.8's fix lengthened
#   only the entries made from RREQs (AllowedHelloLoss); these use ActiveRouteTimeout,
#   which also sets every route's lifetime, so no attribute separates them and no variant
#   was run.
# * **ns-3's per-node RREQ and RERR rate limits (its defaults; ns-2.35 has none) never bind
#   here:** the variant without them gives the same count in every row.
# * The reports delivered hardly move between the ns-3 variants.

# %% [markdown]
# #### 8.9.1 RREQs with no destination number known: what each node did with its first copy
#
# What the two AODVs do with a RREQ a node receives for the first time (ns-2.35:
# `AODV::recv`, `recvRequest`, `forward`; ns-3.44: `RoutingProtocol::RecvRequest`), read
# from their sources:
#
# * **Before deciding**, both discard their own RREQ and one whose originator and id are in
#   their duplicate cache (ns-2.35 keeps an id `BCAST_ID_SAVE`, 6 s; ns-3 for
#   `PathDiscoveryTime`, 3.6 s here), and both add or refresh the route back to the
#   originator. ns-3 first drops a RREQ whose sender it has blacklisted as unidirectional.
# * **Answer.** Both answer as the destination. ns-2.35 answers from its own entry for the
#   destination when the entry's hop count is not INFINITY2 (the route is up, or expired
#   and not yet purged by `rt_purge`) and its number is at least the RREQ's (always, when
#   the originator knows none: it asks for 0). ns-3 answers when its entry is VALID and has
#   a valid number at least the RREQ's (any, when the RREQ's number is unknown); an entry
#   it makes for a neighbour it hears an AODV message from has none.
# * **Drop.** ns-3 drops the RREQ when its entry for the destination, valid or not, has the
#   RREQ's sender as next hop (an answer would make a loop); ns-2.35 has no such rule. Both
#   drop, after the answer check, a RREQ that cannot go further: ns-2.35 lowers the TTL on
#   reception and drops at 0 in `forward`, ns-3 drops a RREQ that arrived with TTL below 2.
# * **Rebroadcast** otherwise, both after a random delay of up to 10 ms, with the RREQ's
#   destination number raised to their own.
#
# The experiment (`ns2_gap_discoveries.first_copy_fates`, on the same traced runs) takes
# every first copy of such a RREQ that a node other than its originator received and
# gives it one fate, in this order: answered by the destination; rebroadcast (the node
# sent that RREQ on); answered from its own route (the node sent the originator a RREP
# for that destination within 0.5 s), late (within 3 s), with its RREP given up at the
# MAC's retry limit within 3 s, or with its RREP dropped by NS-2's ARP within 3 s (NS-2
# resolves each next hop's address first and holds one packet per address meanwhile; a
# newer one drops it, `d IFQ ARP`; the port's entries are all there from the start);
# dropped at TTL 1; dropped by ns-3's loop rule; neither.
# The frames do not show a node's routing table, so the route a node held is rebuilt from
# them: the transmitter of the last RREP for the destination it received, which both AODVs
# take as the next hop of the route the RREP adds or updates (a RREP that did not update
# the route counts as if it had). A node that had received such a RREP is a *route
# holder*; the loop rule is the case where that next hop is the RREQ copy's sender.
# Counts are per RREQ with no destination number known (the rows `first copies received
# per RREQ originated` of `ns2_gap_discoveries.csv`):

# %%
# NBVAL_CHECK_OUTPUT
print(ns2_gap_discoveries.first_copy_table(gap_discoveries).to_string(index=False))

# %% [markdown]
# `first_copy_gap` splits both gaps by these fates, NS-2 against the port: the rebroadcast
# gap is the difference in first copies received less the differences in the copies not
# rebroadcast; the gap in answers from a node's own route is the difference in route
# holders reached (at NS-2's share answering) plus the difference in that share (at
# ns-3's route holders). The parts add up to each gap up to rounding. Also printed: the
# longest time between the first and last copy of one RREQ at one node.

# %%
# NBVAL_CHECK_OUTPUT
print(ns2_gap_discoveries.first_copy_gap(gap_discoveries).to_string(index=False))
spans = gap_discoveries[gap_discoveries["quantity"] == ns2_gap_discoveries.COPY_SPAN]
print(spans[["reporting_interval", "ns2", f"ns3: {ns2_gap_discoveries.PORT}"]]
      .to_string(index=False))  # fmt: skip

# %% [markdown]
# What the fates show (every number is printed above):
#
# * **ns-3's loop rule hardly ever fires.** Its drops are the smallest part of the
#   rebroadcast gap at 1 s and none at 20 s: a route holder's next hop is rarely the node
#   the RREQ came from, since a node that rebroadcasts a RREQ holds no route it would
#   answer from.
# * **Neither duplicate cache matters.** The copies of one RREQ reach a node within a
#   shorter time than either cache keeps an id, so no copy is taken twice and
#   `PathDiscoveryTime` needs no variant. No node without a route dropped a copy but at
#   TTL 1, and every ns-3 route holder of the port either answered (at once, late, or with
#   a RREP its MAC then gave up), dropped the copy by the loop rule, or rebroadcast it: ns-3's
#   unidirectional blacklist left no mark on these RREQs.
# * **At 1 s the gap is NS-2's ARP.** NS-2 resolves a next hop's address before its first
#   unicast and holds one packet per address meanwhile; in the flood of the start many
#   route holders' RREPs are the packet a newer one pushes out (`d IFQ ARP`), so NS-2's
#   route holders answer less often than the port's, whose addresses are all known from
#   the start. An answer lost leaves the flood going and its originator searching, and
#   fewer nodes hold a route when the next floods pass: NS-2's RREQs reach fewer route
#   holders, are received by more nodes (the flood is not stopped by answers) and are
#   rebroadcast more. The variant with ns-3's own ARP holding one packet per address
#   (`arp_model` ns3, `ArpCache` `PendingQueueSize` 1) is rebroadcast and answered about as
#   often as NS-2's, for RREQs with no number known (the two variant rows of the gap table;
#   its ARP drops leave no frame, so they count as route holders with neither RREP nor
#   rebroadcast), and it sends far more RREQ frames than the port (section 8.9's table):
#   the ARP rule accounts for the 1-s gap of these RREQs, the loop rule for next to none.
# * **At 20 s part of the gap is ns-3's neighbour entries.** ns-3's TTL-1 drops come from a
#   RREQ its originator sent with TTL 3 for a node it had heard directly (the one search for
#   a destination other than the sink): ns-3 makes an entry with hop count 1 and no valid
#   number for every neighbour it hears an AODV message from, and its next search for that
#   node rings from that hop count (`RoutingProtocol::SendRequest`: hop count plus
#   `TtlIncrement`) with no number known; ns-2.35 makes no such entry, and its RREQs with
#   no number go network-wide. No attribute switches these entries off.
# * **Not explained:** at 20 s the rest of the rebroadcast gap, which lies in the first
#   copies received (ns-3's floods reach fewer nodes; answers hardly differ, and ns-3's ARP
#   widens the gap rather than closing it; at 20 s both simulators send only a few such
#   RREQs, so these means rest on few floods); at 1 s the small remainder between NS-2 and
#   the ARP variant (ns-3's ARP drops the newer packet, NS-2's the older). No ns-3
#   attribute switches the loop rule, the valid-number requirement or the neighbour
#   entries, so only the ARP variant was run.

# %% [markdown]
# #### 8.9.2 The 20-s remainder over several runs: chance or not
#
# The 20-s remainder above rests on one run of each simulator. `first_copy_runs` repeats
# the same first-copy accounting (UDP, 20 s) on several runs of both simulators, each
# run number with its own field placement and start times as the experiment gives them
# (`ns2_gap_first_copy_runs.csv`,
# `python -m transportlab.studies.wsn_reporting_interval.ns2_gap_discoveries
# --first-copy-runs N`: runs 1 to N, one NS-2 and one port run each, not cached). Per run
# and pooled over all runs (every RREQ with no number known of all runs together), per
# RREQ: the RREQs, first copies received, rebroadcast, dropped at TTL 1, and rebroadcast
# or dropped at TTL 1, whose difference is the rebroadcast gap less the TTL-1 drops of
# ns-3's neighbour entries (the remainder in question). The pooled rows carry 95 %
# intervals from resampling the runs (the same run numbers for both simulators).

# %%
# NBVAL_CHECK_OUTPUT
first_copy_runs = committed_table("wsn_reporting_interval", "ns2_gap_first_copy_runs")
FC = ns2_gap_discoveries
per_rreq = {FC.RUN_RREQS: "RREQs", FC.PER_RREQ + FC.RUN_COPIES: "first copies",
            FC.PER_RREQ + FC.COPY_REBROADCAST: "rebroadcast",
            FC.PER_RREQ + FC.COPY_TTL: "TTL 1",
            FC.PER_RREQ + FC.REBROADCAST_OR_TTL: "rebroadcast or TTL 1"}  # fmt: skip
runs_shown = first_copy_runs[first_copy_runs["quantity"].isin(per_rreq)].assign(
    quantity=lambda t: t["quantity"].map(per_rreq))
print(runs_shown.pivot_table(index="run", columns="quantity", sort=False,
                             values=["ns2", "port", "ns2_minus_port"])
      .reindex(columns=list(per_rreq.values()), level=1).round(2).to_string())
pooled_columns = ["ns2", "ns2_low", "ns2_high", "port", "port_low", "port_high",
                  "ns2_minus_port", "ns2_minus_port_low", "ns2_minus_port_high"]
pooled = first_copy_runs[first_copy_runs["run"] == "pooled"].set_index("quantity")
print(pooled[pooled_columns].to_string())

# %% [markdown]
# The pooled rows also give each fate's share of the first copies and, for the
# mechanism, how many nodes receive each RREQ frame of these floods: the originator's
# frame and the rebroadcasts, the share of a rebroadcasting node's neighbours (the nodes
# that received any frame from it in the run) that received the rebroadcast, the share of
# rebroadcasts that started within one slot (20 us) of a frame another node sent, and the
# share of neighbours receiving those rebroadcasts and the others.
#
# What the runs show (every number is printed above):
#
# * **The remainder is not chance.** The gap in first copies rebroadcast or dropped at
#   TTL 1 (the rebroadcast gap less ns-3's TTL-1 drops) is positive in most runs and its
#   pooled interval lies above zero. The TTL-1 drops themselves are rare over the runs
#   (a few runs have them). The first copies received carry the remainder: ns-3's
#   floods of RREQs with no number known reach fewer nodes, with an interval above zero,
#   while the answer fates differ by less (ns-3's route holders answer somewhat more
#   often at once; NS-2's lose some answers to its ARP, answer some late or neither
#   answer nor pass on). The run-1 values of section 8.9.1 lie within the spread of the
#   runs, which differ widely in how many such RREQs they send and how far these flood.
# * **The mechanism is rebroadcasts that start together.** The originator's frame, sent
#   into a quiet channel, reaches about as many nodes in both simulators (an interval
#   that covers zero); the rebroadcasts do not: ns-3's are received by a smaller share of
#   their sender's neighbours. A larger share of ns-3's rebroadcasts start within a slot
#   of another node's frame, and such frames reach only a small share of the neighbours
#   in both simulators, while the others reach nearly the same share in both: with
#   NS-2's share of rebroadcasts starting together and its own shares of neighbours
#   reached, ns-3's rebroadcasts would reach most of the way to NS-2's share.
#   ns-3's `RoutingProtocol::RecvRequest` (and `SendRequest`) delays a RREQ by a whole
#   number of milliseconds from 0 to 10
#   (`MilliSeconds(m_uniformRandomVariable->GetInteger(0, 10))`); ns-2.35's
#   `AODV::forward` delays a broadcast by a uniform real time up to 10 ms
#   (`0.01 * Random::uniform()`). Nodes that received the same copy draw the same
#   whole-millisecond delay in ns-3 often enough to start their rebroadcasts in the same
#   slot, where neither hears the other, and the frames collide at the nodes between
#   them; in NS-2 a common start needs deferrals that end in the same slot. No ns-3
#   attribute sets this jitter, so no variant was run.

# %% [markdown]
# ## 9. Files
#
# `comparison.csv` (with its tolerance), `summary.csv` (every run of `intervals`), the
# tables of section 7 (`connectivity.csv`, `placements.csv`, `transport_models.csv`,
# `agent_vs_app.csv`, `energy_states.csv`, `idle_power.csv`, `interval_scale.csv`,
# `carrier_sense.csv`, `implied_idle_power.csv`, `reception_model.csv`, `combined.csv`,
# `receiver_lock.csv`, `start_mode.csv`, `ns2_fidelity.csv`) and the figures, written
# into this notebook's own folder `data/explore/wsn_reporting_interval/<label>/` (`quick`,
# `full`, or the mode and a hash of `params` and `runs`; its `provenance.json` records
# them), so exploring never overwrites the committed results; `transportlab reproduce`
# writes them into `data/results[/quick]/wsn_reporting_interval/` and
# `figures[/quick]/wsn_reporting_interval/`. The NS-2 baseline of section 8
# (`ns2_baseline.csv`, `ns2_baseline_counts.csv`, `ns2_baseline_fidelity.csv`,
# `ns2_baseline_priqueue.csv`, `ns2_baseline_trace.csv`, `ns2_baseline_culling.csv`) is
# written by `python -m transportlab.studies.wsn_reporting_interval.ns2_baseline`, the traced
# runs of section 8.6 (`ns2_gap_drops.csv`, `ns2_gap_delay.csv`, `ns2_gap_paths.csv`,
# `ns2_gap_collisions.csv`, the figure `ns2_gap`) by
# `python -m transportlab.studies.wsn_reporting_interval.ns2_gap`, the collision pairs of
# section 8.7 (`ns2_gap_broadcasts.csv`) by
# `python -m transportlab.studies.wsn_reporting_interval.ns2_gap_broadcasts`, the first hops
# of section 8.8 (`ns2_gap_routes.csv`) by
# `python -m transportlab.studies.wsn_reporting_interval.ns2_gap_routes`, the route searches
# of section 8.9 (`ns2_gap_discoveries.csv`) by
# `python -m transportlab.studies.wsn_reporting_interval.ns2_gap_discoveries`, the runs of
# section 8.9.2 (`ns2_gap_first_copy_runs.csv`) by the same module with `--first-copy-runs`.

# %%
from transportlab.engine.paths import project_root

for written in [*results.write(), *ns2_baseline.write(quick=quick, runs=runs,
                                                       scheduler=scheduler)]:
    print(written.relative_to(project_root()))

# %% [markdown]
# ## 10. Explore
#
# Change any parameter this study's experiments do not set themselves and press **Run**.
# The controls come from the study's declared parameters (type, unit and allowed range;
# hover over one for its help text). The values are checked as `transportlab` checks
# them (types, ranges, relations between parameters) before anything runs; then the point
# runs in this notebook's mode (quick: short runs, few replications) through the results
# cache, with a progress bar, and the study's figure for it appears beside the committed
# full-mode one. Its files go to a folder of its own under `data/explore/wsn_reporting_interval/` (the
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
# * Seed 003: B. Chellaprabha, S. Chenthur Pandian, C. Vivekanandan. *Performance of TCP,
#   UDP and SCTP on Sensor Network with Different Data Reporting Intervals.* Journal
#   article, 2012 (journal not named in our copy).
#
# Cited works, standards and tools this notebook reproduces or implements:
#
# * RFC 3561: C. Perkins, E. Belding-Royer, S. Das. *Ad hoc On-Demand Distance Vector (AODV)
#   Routing.* IETF, July 2003.
# * RFC 9260: R. Stewart, M. Tüxen, K. Nielsen. *Stream Control Transmission Protocol.*
#   IETF, June 2022.
# * RFC 5681: M. Allman, V. Paxson, E. Blanton. *TCP Congestion Control.* IETF, September
#   2009; RFC 6582: T. Henderson, S. Floyd, A. Gurtov, Y. Nishida. *The NewReno Modification
#   to TCP's Fast Recovery Algorithm.* IETF, April 2012.
# * ns-2: *The Network Simulator ns-2* (VINT project), https://www.isi.edu/nsnam/ns/ (the
#   seeds' simulator).
# * ns-3: G. F. Riley, T. R. Henderson. *The ns-3 Network Simulator.* In *Modeling and Tools
#   for Network Simulation*, Springer, 2010; ns-3.44, https://www.nsnam.org.
