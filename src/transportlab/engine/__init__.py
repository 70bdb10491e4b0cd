"""The engine: what runs a study, caches it and compares it, knowing no study and no ns-3.

A study (:mod:`transportlab.engine.study`) declares its parameters, its run step, its
analysis and its reproduction; the engine plans its simulations
(:mod:`~transportlab.engine.plan`), keeps finished ones (:mod:`~transportlab.engine.cache`),
runs the rest serially or on Dask (:mod:`~transportlab.engine.execute`) and turns the
analysed tables into files (:mod:`~transportlab.engine.results`). The published numbers
(:mod:`~transportlab.engine.published`) and the verdicts on them
(:mod:`~transportlab.engine.verdicts`), statistics, files, figures and paths are here too.
Nothing in this package imports ``transportlab.studies`` or ns-3 (``tests/test_layers.py``).
"""
