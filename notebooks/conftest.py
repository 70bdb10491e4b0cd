"""nbval on the notebooks (`pytest --nbval-lax`, configured in pyproject.toml).

Every notebook runs in quick mode, as committed, in a kernel of the current
environment (`--nbval-current-env`). Each notebook's kernel starts with the environment
this test session started with and its own fresh, temporary results cache: whatever the
tests before it did to this process's environment (a Dask local cluster's nannies set
variables in their parent, for instance) or to a shared cache, a notebook computes what
it computes when run alone, which is how its committed outputs were made
(scripts/execute_notebook.py). The notebooks take minutes each: they are in the `slow`
tier (`pytest -m "not slow"` leaves them out; `make test` runs them).
"""

import os
import shutil
import tempfile

import pytest

_CACHE_VARIABLE = "TRANSPORTLAB_RESULTS_CACHE"
_session_environment: dict[str, str] = {}
_caches: list[str] = []
_prepared: set[str] = set()


def pytest_configure(config):
    _session_environment.clear()
    _session_environment.update(os.environ)
    # Tests outside the notebooks share one temporary cache too (never the project's).
    cache = tempfile.mkdtemp(prefix="transportlab-test-cache-")
    _caches.append(cache)
    os.environ[_CACHE_VARIABLE] = cache


def pytest_unconfigure(config):
    for cache in _caches:
        shutil.rmtree(cache, ignore_errors=True)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.slow)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Before a notebook's first cell (when nbval starts its kernel): the session's
    starting environment and a cache of its own."""
    if item.path.suffix != ".ipynb" or str(item.path) in _prepared:
        return
    _prepared.add(str(item.path))
    cache = tempfile.mkdtemp(prefix="transportlab-nbval-cache-")
    _caches.append(cache)
    os.environ.clear()
    os.environ.update(_session_environment)
    os.environ[_CACHE_VARIABLE] = cache
