"""nbval on the notebooks (`pytest --nbval-lax`, configured in pyproject.toml).

Every notebook runs in quick mode, as committed, in a kernel of the current
environment (`--nbval-current-env`). Its sweeps use a fresh, temporary results
cache, so the test always simulates instead of reading results cached by an
earlier run of the notebook. The notebooks take minutes each: they are in the `slow`
tier (`pytest -m "not slow"` leaves them out; `make test` runs them).
"""

import os
import shutil
import tempfile

import pytest

_cache = None


def pytest_configure(config):
    global _cache
    _cache = tempfile.mkdtemp(prefix="transportlab-nbval-cache-")
    os.environ["TRANSPORTLAB_RESULTS_CACHE"] = _cache


def pytest_unconfigure(config):
    if _cache:
        shutil.rmtree(_cache, ignore_errors=True)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.slow)
