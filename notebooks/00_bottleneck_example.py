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
# # Example: one flow through a bottleneck, checked by hand
#
# **Study:** `bottleneck_example` — not a published study. It shows the whole
# path every transportlab study takes (declared parameters, a sweep over points and
# ns-3 replications, cached results, a figure, a comparison table, papermill and
# nbval) on a scenario small enough to check with pen and paper:
#
# ```
# source ---- 10 Mb/s, 2 ms ---- router ---- 1 Mb/s, 20 ms ---- sink
#                                  DropTail queue, 50 packets
# ```
#
# One flow from source to sink: UDP constant bit rate (0.5 Mb/s of 1000-byte
# packets) or a TCP bulk transfer (1000-byte segments). An optional packet error
# rate on the bottleneck (ns-3 `RateErrorModel`) is the only random element.
# The queues are plain DropTail device queues, as on NS-2 links (ns-3's traffic
# control layer is removed); NS-2's default queue limit is 50 packets.
#
# Since nothing is reproduced from a paper, the "published" column of the
# comparison table holds the hand calculations of section 2.

# %% tags=["parameters"]
quick = True  # quick mode: 5 s flows, 2 replications (tests, CI, Binder)
scheduler = None  # None: in this process when quick, a local Dask cluster otherwise
runs = None  # replications (ns-3 RngRun 1..runs) per point; None: 2 quick, 10 full
params = {}  # study parameters that differ from the defaults (see the table below)

# %% [markdown]
# ## 1. Parameters
#
# `transportlab list` shows every parameter of every study. The cell below checks what
# this notebook was given (an unknown name, a wrong type or an impossible value stops
# here, before ns-3 loads) and returns the study's `Results`: the object this notebook
# and `transportlab reproduce --study bottleneck_example` share. Every number and figure
# below comes from a function of the package (`transportlab.studies.bottleneck_example`),
# so the command line writes the same files without Jupyter.

# %%
from transportlab.notebooks import start
from transportlab.studies.bottleneck_example import analysis

results = start("bottleneck_example", globals())
PARAMS = results.params
results.study.parameters.describe().assign(value=[PARAMS[n] for n in PARAMS])[
    ["name", "value", "unit", "help"]
]

# %%
# NBVAL_IGNORE_OUTPUT
# ns-3 with the transportlab library (~2 s with the precompiled header, 10+ s without).
from transportlab import ns  # noqa: F401

# %% [markdown]
# ## 2. Hand calculation
#
# A UDP packet of 1000 application bytes carries an 8-byte UDP header, a 20-byte
# IPv4 header and, on a point-to-point link, a 2-byte PPP header: 1030 bytes =
# 8240 bits on the wire. A TCP segment of 1000 bytes carries a 32-byte TCP header
# (20 bytes plus the timestamp option ns-3 sends on every segment): 1054 bytes.
#
# * **UDP delay.** Below capacity nothing queues. Store and forward over two hops:
#   8240 bit / 10 Mb/s + 2 ms + 8240 bit / 1 Mb/s + 20 ms = 0.824 + 2 + 8.24 + 20
#   = **31.064 ms**, exactly (ns-3 adds no processing time).
# * **UDP goodput** = the sending rate times the delivered fraction:
#   0.5 Mb/s × (1 − error rate).
# * **UDP jitter** (RFC 3550 interarrival jitter): every packet has the same delay,
#   so **0**.
# * **UDP loss** = the error rate, within binomial noise.
# * **TCP goodput.** With a queue (50 packets) much larger than the
#   bandwidth-delay product (1 Mb/s × ~53 ms ≈ 6.6 kB ≈ 6 segments), the bottleneck
#   never idles after slow start, so TCP delivers 1 Mb/s × 1000/1054 =
#   **948.8 kb/s** of application data (an upper bound; the first second after the
#   start is excluded from the measurement).

# %%
# NBVAL_CHECK_OUTPUT
udp, tcp = dict(PARAMS, protocol="udp"), dict(PARAMS, protocol="tcp")
print(f"UDP wire bytes {analysis.wire_bytes(udp)}, TCP wire bytes {analysis.wire_bytes(tcp)}")
print(f"UDP one-way delay: {analysis.expected_udp_delay(udp) * 1e3:.3f} ms")
print(f"UDP goodput: {analysis.expected_goodput(udp) / 1e3:.1f} kb/s")
print(f"TCP goodput bound: {analysis.expected_goodput(tcp) / 1e3:.1f} kb/s")

# %% [markdown]
# ## 3. Simulation
#
# The study's one experiment, `main`, runs UDP and TCP without and with 1 % packet
# errors on the bottleneck, each point `results.runs("main")` times (ns-3 RngRun
# 1..n: 2 in quick mode, 10 in full mode). The run step (`scenario.py`) returns raw
# tables and is cached per point and run; the analysis (`analysis.py`) runs on every
# load, so re-running this notebook simulates only what is missing and a change of a
# metric costs no simulation.

# %%
main = results["main"]
summary = main["summary"]
print(f"{len(results.points('main'))} points x {results.runs('main')} runs = "
      f"{len(summary)} simulations")

# %% [markdown]
# ## 4. Checks against the hand calculation
#
# Every UDP packet of the lossless runs arrives exactly 31.064 ms after it was
# sent (delays compared in integer nanoseconds, ns-3's time resolution):

# %%
# NBVAL_CHECK_OUTPUT
packets = main["packets"]
udp_received = packets[(packets["protocol"] == "udp") & (packets["error_rate"] == 0.0)
                       & (packets["event"] == "received")]
delay_ns = (udp_received["delay"] * 1e9).round().astype("int64")
expected_ns = round(analysis.expected_udp_delay(udp) * 1e9)
print(f"{len(delay_ns)} UDP packets, delays {delay_ns.min()}..{delay_ns.max()} ns, "
      f"hand calculation {expected_ns} ns, all equal: {bool((delay_ns == expected_ns).all())}")

# %% [markdown]
# Goodput and loss per point (mean over the runs; `transportlab.models.metrics`). The
# application's loss is what UDP loses; TCP retransmits, so its losses show only at
# IP (FlowMonitor). Without errors the scenario has no random element, so all
# replications are identical, as they must be; with errors they differ.

# %%
# NBVAL_CHECK_OUTPUT
print(results.table("per_point").round({"goodput_kbps": 1, "loss_percent": 2,
                                        "ip_loss_percent": 2}).to_string(index=False))

# %% [markdown]
# With errors, TCP's goodput over the short quick-mode window can exceed the
# lossless bound: after a loss the receiver holds later segments until the
# retransmission fills the hole, then hands them to the application at once, so
# bytes that crossed the link before the window opened are counted inside it.
#
# TCP's application-level delay is far above the path's 31 ms: `BulkSend` fills
# TCP's 128 KiB send buffer, so each byte waits there (about 1 s at 1 Mb/s) and in
# the 50-packet bottleneck queue (up to 0.42 s) before it is sent. The slow-start
# overshoot fills the queue and loses a few segments even without errors.

# %%
# NBVAL_CHECK_OUTPUT
quick_comparison = results.comparison()
print(quick_comparison[["protocol", "metric", "row", "unit", "published", "reproduced", "verdict"]]
      .round(3).to_string(index=False))

# %% [markdown]
# **The full-mode comparison (the study's result).** The cell above computes the
# comparison in the mode this notebook runs in; in quick mode (tests, CI, Binder) that is
# a few runs, a test that the pipeline works, not a result. The verdicts the study reports
# are those of full mode (`transportlab reproduce --study bottleneck_example`), committed in
# `data/results/bottleneck_example/comparison.csv` and counted in the README's results table:

# %%
from transportlab.engine.results import committed_comparison

full_comparison = committed_comparison("bottleneck_example")
print(full_comparison["verdict"].value_counts().to_string())
full_comparison.drop(columns=["study"]).round(3)

# %% [markdown]
# ## 5. Figure
#
# Built by `reproduction.goodput_delay_figure` and saved (with the number of runs
# behind it) to `figures[/quick]/bottleneck_example/goodput_delay.png`.

# %%
fig = results.figure("goodput_delay")

# %% [markdown]
# ## 6. Result files
#
# `results.write()` writes everything this study reproduces: the comparison
# (`data/results[/quick]/bottleneck_example/comparison.csv`), its result tables
# (`per_point.csv`) and its figures, each to a temporary file renamed when complete.
# `transportlab reproduce --study bottleneck_example` calls the same method without
# Jupyter and writes identical files; `transportlab reproduce` collects every study's
# comparison into `data/results[/quick]/summary.csv`.

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.engine.paths import project_root

for written in results.write():
    print(written.relative_to(project_root()))

# %% [markdown]
# ## References
#
# Standards and tools this notebook relies on (the README's References has them all):
#
# * ns-3: G. F. Riley, T. R. Henderson. *The ns-3 Network Simulator.* In *Modeling and Tools
#   for Network Simulation*, Springer, 2010; ns-3.44, https://www.nsnam.org.
# * RFC 5681: M. Allman, V. Paxson, E. Blanton. *TCP Congestion Control.* IETF, September
#   2009; RFC 6582: T. Henderson, S. Floyd, A. Gurtov, Y. Nishida. *The NewReno Modification
#   to TCP's Fast Recovery Algorithm.* IETF, April 2012.
