"""NS-2.35, the seeds' own simulator, as a baseline beside ns-3.

Four of the five studies ran on NS-2; running the same scenario in NS-2 separates two
questions every ``differs`` mixes: is the published number what NS-2 gives with the
stated configuration (the paper), and does our ns-3 configuration behave like NS-2 on
the same scenario (our port). NS-2 is Debian's ``ns2`` package (``scripts/ensure-ns2.sh``).

Modules (none imports ns-3):

* :mod:`~transportlab.ns2.runner`: ``run_script(tcl)`` runs ``ns`` on a Tcl text in a
  temporary folder with a timeout and yields the finished run (its folder, stdout,
  times) while the caller parses its traces; NS-2 errors come back as one line
  (:class:`~transportlab.ns2.runner.Ns2Error`); ``versions()`` for cache keys.
* :mod:`~transportlab.ns2.tcl`: numbers, rates, delays as NS-2 reads them;
  ``seed_rng(seed, run)`` (a replication = ``$defaultRNG`` seed and substream).
* :mod:`~transportlab.ns2.traces`: ``read_wired`` and ``read_wireless`` (the new
  ``-t`` format) into pandas, chunk by chunk, keeping only the rows a ``where`` selects.
* :mod:`~transportlab.ns2.wireless_trace`: ``read_lines(trace, keep)``, the lines of a
  wireless trace a text test keeps (a MAC's sends, its drops...) as one typed table, and
  ``hex_numbers`` for its hexadecimal MAC fields (no NS-2 run step imports it).
* :mod:`~transportlab.ns2.structure`: ``describe(tcl)`` builds a wired script in NS-2
  without simulating and lists its links, queues, agents, applications, schedule and
  every bound variable (to compare a generated script with a seed's);
  ``class_defaults(classes)`` reads NS-2's defaults.
* :mod:`~transportlab.ns2.wireless`: ``describe_wireless(tcl)``, the same for a wireless
  script, with every mobile node's position and the bound variables of its radio, MAC,
  interface queue and link layer, its routing agent and the ``node-config`` settings.
* :mod:`~transportlab.ns2.baseline`: ``baseline_table(ns2, ns3)``, published / NS-2 /
  ns-3 per published row with both judgements, and ``baseline_counts``.
* :mod:`~transportlab.ns2.study`: ``@ns2_run_step`` and ``ns2_study(study, run, ...)``:
  the NS-2 run step cached and swept like the ns-3 one.
* :mod:`~transportlab.ns2.baseline`: ``baseline_table(ns2, ns3)``, published / NS-2 /
  ns-3 per published row with both judgements, and ``baseline_counts``.

Adding the NS-2 scenario of a study (``studies/<study>/ns2_scenario.py``, see
``studies/wired_best_effort/ns2_scenario.py``):

1. ``tcl_script(params, seed, run) -> str`` writes the Tcl from the study's own
   parameters (never a seed's script pasted in): nodes numbered as in the ns-3 run,
   every declared setting written out, ``tcl.seed_rng(seed, run)`` first, random
   elements (start times, placements) drawn from ``$defaultRNG`` or passed in, only the
   traces the metrics need, no nam.
2. ``PARAMETERS``: the study's ``ParameterSpace`` plus a consistency rule that rejects
   what NS-2 cannot express (then sweeps fail before anything runs).
3. ``@ns2_run_step def run(params, seed, run)``: ``with run_script(tcl_script(...)) as
   done:`` parse the traces (``traces.read_*`` with a ``where``) and return **the same
   raw tables, columns and units as the study's ns-3 ``run``**, so the study's
   ``analyse`` computes the metrics of both (a test compares the two tables' columns).
   Import no analysis module (it would enter the cache key).
4. ``ns2_study(STUDY, run, PARAMETERS, experiments=[...])`` in an analysis-side module
   (``studies/<study>/ns2_baseline.py``): ``Results(...)["main"]`` runs and caches it;
   ``baseline.baseline_table(NS-2 comparison, ns-3 comparison)`` is the study's
   ``ns2_baseline.csv``. When the study's default point is one NS-2 cannot run, give
   ``PARAMETERS`` a default it can (``multihoming_failover``: ``scenario = "lossy"``);
   when an experiment mixes such points, give the variant its own experiment of the
   points it can run (``multihoming_failover.ns2_baseline.LOSSY``).
5. Tests: the generated script against the seed's where the seed has one
   (``structure.describe`` on both; ``wireless.describe_wireless`` for a wireless script,
   against the study's parameters), the raw tables against hand-made trace lines, and
   a short NS-2 run marked ``@pytest.mark.ns2``.

The sensor study (``studies/wsn_reporting_interval/ns2_scenario.py``) is the wireless
example: positions and start times passed in from the study's own draws, so a replication
is the same field in both simulators.
"""

from transportlab.ns2.runner import Ns2Error, Ns2NotFoundError, available, run_script, versions

__all__ = ["Ns2Error", "Ns2NotFoundError", "available", "run_script", "versions"]
