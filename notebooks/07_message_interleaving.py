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
# # Head-of-line blocking between messages: SCTP stream schedulers, DATA and I-DATA, TCP
#
# **Study:** `message_interleaving` (issue 29). No seed paper: SCTP's streams keep a loss
# on one stream from delaying the others at the *receiver* (notebooks 02 and 03), but
# with DATA chunks the fragments of a message take consecutive TSNs (RFC 9260 section
# 6.9), so one large message on any stream holds every other stream's messages at the
# *sender* until its last fragment is sent. RFC 8260's I-DATA chunk lets fragments of
# messages on different streams interleave, and its stream schedulers (section 3) choose
# whose message goes next. WebRTC data channels run on SCTP, and libdatachannel measured
# what I-DATA changes (section 5).
#
# **Scenario.** One sender, one receiver, a bottleneck:
#
# ```
# sender --- 100 Mb/s, 1 ms --- router --- 10 Mb/s, 20 ms --- receiver
#                                DropTail device queues of 100 packets
# ```
#
# Small messages (100 bytes, one every 20 ms: control or voice) share one transport with
# large messages (256 KiB, offered at 80 % of the bottleneck rate; 64 KiB to 1 MiB in the
# size sweep). The *lossy path* adds a packet error rate of 0.1 % on the bottleneck (ns-3
# `RateErrorModel`). The sending application (`ns3::ScheduledMessageSender`, `src/transfer`)
# produces each message at its time and hands it to the transport as soon as the send
# buffer has room; ns-3's `PacketSink` reports a message when all of it has arrived. The
# **latency** of a message runs from its production to its delivery to the receiving
# application: what a user of the messages sees, queueing in the sender included. A small
# message is **exposed** when a large message was pending (produced before it, not yet
# delivered) when it was produced; it **overtook** when it arrived before the oldest such
# large message (`analysis.overtaking`). Head-of-line blocking between messages is an
# overtaking fraction of 0: the transport keeps the production order across streams.
#
# Transports: one SCTP association (large messages on stream 0, small on stream 1) with
# DATA chunks or with I-DATA negotiated (`IDataSupported` on both ends), under each stream
# scheduler (`StreamScheduler`: FCFS, round robin, round robin per packet, priority with the
# small stream first, fair capacity, WFQ with the small stream's weight 2); TCP with one
# connection for both kinds (one byte stream: blocking by construction) and with one
# connection per kind.

# %% tags=["parameters"]
quick = True  # quick mode: 8 s of messages, 3 schedulers, 1 run per point (tests, CI, Binder)
scheduler = None  # None: in this process when quick, a local Dask cluster otherwise
runs = None  # replications (ns-3 RngRun 1..runs) of the lossy points; None: 1 quick, 10 full
params = {}  # study parameters that differ from the defaults (see the table below)

# %% [markdown]
# ## 1. Parameters
#
# The cell below checks what this notebook was given before ns-3 loads and returns the
# study's `Results`, shared with `transportlab reproduce --study message_interleaving`.

# %%
import pandas as pd

from transportlab.notebooks import start
from transportlab.studies.message_interleaving import comparison

results = start("message_interleaving", globals())
PARAMS = results.params
pd.set_option("display.max_colwidth", 120)
results.study.parameters.describe().assign(value=[PARAMS[n] for n in PARAMS])[
    ["name", "value", "unit", "help"]
]

# %%
# NBVAL_IGNORE_OUTPUT
# ns-3 with the transportlab library (~2 s with the precompiled header, 10+ s without).
from transportlab import ns  # noqa: F401

# %% [markdown]
# ## 2. What differs from a real deployment, and why
#
# * **No published scenario is re-run.** The libdatachannel benchmark (section 5) ran
#   usrsctp over loopback with the bulk channel saturating the association; this study
#   runs the SCTP model over a 10 Mb/s path with the large messages at 80 % of it, so the
#   queues stay finite and every point has a stationary latency. Only ratios compare.
# * **Buffers.** The SCTP send and receive buffers hold 8 MiB: a message goes into the
#   socket in one `Send`, and the model has no partial delivery API, so the receiver must
#   hold a whole large message. TCP keeps ns-3's 128 KiB buffers and 1448-byte segments.
# * **Protocol parameters.** SCTP: the model's `rfc9260` preset (`stack_preset`). TCP: ns-3.44's
#   defaults.
# * **I-DATA.** The I-DATA points set `IDataSupported` on both ends and run whatever this
#   build sends once I-DATA is negotiated. The table in section 4 counts the DATA chunks
#   those associations sent, and the text below it says whether they interleaved.

# %% [markdown]
# ## 3. Simulation
#
# Experiments `wired` and `lossy`: every scheduler with DATA and with I-DATA and both TCP
# set-ups (quick mode: FCFS, RR and priority only, 8 s of messages, 1 run; full mode: all
# six schedulers, 30 s of messages). The wired path has no random element, so its points run
# once (a replication would be identical); the lossy points run 10 times in full mode (ns-3
# RngRun 1-10: the error model's draws). Experiment `sizes`: the large size from 64 KiB to
# 1 MiB, FCFS, wired, one run per point.

# %%
for name in ("wired", "lossy", "sizes"):
    print(f"{name}: {len(results.points(name))} points x {results.runs(name)} runs = "
          f"{len(results[name]['summary'])} simulations")

# %% [markdown]
# ## 4. Small-message latency per transport and scheduler
#
# In this notebook's mode (quick: a check of the pipeline, not a result): mean, median,
# 95th and 99th percentile and maximum of the small messages' latency (ms), the fractions
# exposed to a large message and overtaking it, and the runs behind each row.

# %%
# NBVAL_CHECK_OUTPUT
latency = results.table("latency")
columns = ["path", "transport", "scheduler", "latency_mean_ms", "latency_p95_ms",
           "exposed_fraction", "overtook_fraction", "n_runs"]
print(latency[columns].round(1).to_string(index=False))

# %%
# NBVAL_CHECK_OUTPUT
sending = results.table("sending")
print(sending.to_string(index=False))
print(comparison.interleaving_sentence(sending))

# %% [markdown]
# **The full-mode results (the study's result),** committed in
# `data/results/message_interleaving/` by `transportlab reproduce --study
# message_interleaving` (its `provenance.json` names the commit, parameters and runs):

# %%
from transportlab.engine.results import committed_table

FULL = committed_table("message_interleaving", "latency")
FULL_SENDING = committed_table("message_interleaving", "sending")
FULL_RATIOS = committed_table("message_interleaving", "published_ratios")
print(comparison.findings(FULL, FULL_RATIOS))
print(comparison.interleaving_sentence(FULL_SENDING))
FULL[columns + ["latency_p50_ms", "latency_p99_ms", "latency_max_ms"]].round(1)

# %% [markdown]
# **Reading the table** (the numbers are in the lines printed above it):
#
# * With DATA no scheduler lets a small message overtake a large one pending at its
#   production on the wired path: a message once started is finished first (consecutive
#   TSNs), and the large messages start in order. What the schedulers change is what
#   waits *behind* the message in progress.
# * Priority, fair capacity and WFQ give the same numbers here: with two streams, each of
#   them serves the small stream's head message first whenever one waits.
# * Round robin (per message, RFC 8260 3.2) is the worst once large messages queue up (the
#   lossy path's loss recoveries let them accumulate): it sends one small message, then a
#   whole large one, then the next small one. Round robin per packet is better, FCFS
#   between them.
# * TCP with one connection per kind avoids the wait at the sender; its small messages
#   still queue in the bottleneck behind the large connection's packets. On the lossy path
#   that queue is shorter (the large transfer's window stays small), so they are faster
#   than on the wired path.

# %% [markdown]
# ## 5. Against libdatachannel's published I-DATA benchmark
#
# libdatachannel pull request #1602 (https://github.com/paullouisageneau/libdatachannel/pull/1602,
# benchmark comment of 2026-07-10; `data/published/external/message_interleaving.csv`)
# measured, with usrsctp over loopback, an 8-byte ping every 200 ms echoed back while
# another channel streamed 256 KB messages: mean RTT 583.9 ms with DATA against 96.6 ms with
# I-DATA interleaving ("6.0x lower"), p95 1560.0 against 124.6 ms.
#
# * **Comparable:** the *ratio* DATA / I-DATA of a latency statistic of small messages
#   behind 256 KB messages on one association (our default large size is 256 KiB).
# * **Not comparable:** the absolute values (a round trip over loopback through usrsctp's
#   and the application's queues against a one-way latency over a 10 Mb/s, 42 ms path),
#   the load (theirs saturates the association, ours offers 80 % of the bottleneck), and
#   their ping delivery rate (their pings were lost to a timeout; ours are reliable).
#
# The table puts our ratio per path and scheduler beside theirs (full mode, committed):

# %%
FULL_RATIOS.round(2)

# %% [markdown]
# ## 6. Figures
#
# The latency distribution of the small messages per transport (the I-DATA lines are left
# out of the figure when they coincide with DATA; the table above has them), built by
# `reproduction.latency_figure` with the runs behind it in its title, and the size sweep.

# %%
fig = results.figure("latency_ecdf")

# %%
fig = results.figure("sizes")

# %% [markdown]
# ## 7. Result files
#
# `results.write()` writes the tables (`latency.csv`, `sizes.csv`, `sending.csv`,
# `published_ratios.csv`) and both figures into this notebook's own folder
# `data/explore/message_interleaving/<label>/` (`quick`, `full`, or the mode and a hash of
# `params` and `runs`; its `provenance.json` records them); `transportlab reproduce --study
# message_interleaving` writes the same files into `data/results[/quick]/message_interleaving/`.

# %%
# NBVAL_CHECK_OUTPUT
from transportlab.engine.paths import project_root

for written in results.write():
    print(written.relative_to(project_root()))

# %% [markdown]
# ## 8. Explore
#
# Change any parameter this study's experiments do not set themselves (the large size and
# load, the small messages' size and interval, the path) and press **Run**. The values are
# checked before anything runs; the point runs in this notebook's mode through the results
# cache, and the study's figure for it appears beside the committed full-mode one. Its files
# go to a folder of its own under `data/explore/message_interleaving/`, never into
# `data/results/`. For many points at once, use `transportlab sweep`.

# %%
from transportlab.explore import Explorer

explorer = Explorer(results)
explorer

# %% [markdown]
# ## References
#
# * RFC 8260: R. Stewart, M. Tüxen, S. Loreto, R. Seggelmann. *Stream Schedulers and User
#   Message Interleaving for the Stream Control Transmission Protocol.* IETF, November 2017.
# * RFC 9260: R. Stewart, M. Tüxen, K. Nielsen. *Stream Control Transmission Protocol.*
#   IETF, June 2022.
# * libdatachannel, pull request #1602 "feat: enable SCTP I-DATA interleaving", benchmark
#   comment of 2026-07-10, https://github.com/paullouisageneau/libdatachannel/pull/1602.
# * ns-3: G. F. Riley, T. R. Henderson. *The ns-3 Network Simulator.* In *Modeling and Tools
#   for Network Simulation*, Springer, 2010; ns-3.44, https://www.nsnam.org.
