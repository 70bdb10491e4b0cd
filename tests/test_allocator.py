"""transportlab.ns3.allocator: which malloc the simulation workers preload."""

from __future__ import annotations

import os

import pytest

from transportlab import studies
from transportlab.engine import execute
from transportlab.ns3 import allocator


def test_system_means_no_preload_and_a_wrong_path_is_an_error(tmp_path):
    assert allocator.preload_library("system") is None
    assert allocator.preload_library("") is None
    with pytest.raises(ValueError, match="TRANSPORTLAB_ALLOCATOR"):
        allocator.preload_library(str(tmp_path / "libnothing.so"))
    library = tmp_path / "libmine.so"
    library.write_bytes(b"")
    assert allocator.preload_library(str(library)) == str(library)


def test_the_library_goes_first_into_ld_preload_once(tmp_path):
    library = tmp_path / "libmine.so"
    library.write_bytes(b"")
    env = allocator.preload_environ(str(library), {"LD_PRELOAD": "/x/liby.so"})
    assert env["LD_PRELOAD"] == f"{library} /x/liby.so"
    again = allocator.preload_environ(str(library), env)
    assert again["LD_PRELOAD"] == env["LD_PRELOAD"]
    assert "LD_PRELOAD" not in allocator.preload_environ("system", {})


def test_jemalloc_is_found_where_debian_installs_it(monkeypatch):
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    found = allocator.preload_library("jemalloc")
    installed = [c for c in allocator.JEMALLOC_CANDIDATES if os.path.isfile(c)]
    assert found == (installed[0] if installed else None)


def _mapped_libraries() -> tuple[str | None, bool]:
    import os as os_

    with open("/proc/self/maps") as maps:
        return os_.environ.get("LD_PRELOAD"), "jemalloc" in maps.read()


@pytest.mark.slow
def test_local_cluster_workers_run_with_jemalloc_and_the_parent_keeps_its_environment():
    library = allocator.preload_library()
    if library is None:
        pytest.skip("jemalloc is not installed (Debian: libjemalloc2)")
    before = os.environ.get("LD_PRELOAD")
    with execute.local_cluster(1, for_studies=[studies.get("bottleneck_example")]) as client:
        [(preload, mapped)] = client.run(_mapped_libraries).values()
    assert preload.split()[0] == library and mapped
    assert os.environ.get("LD_PRELOAD") == before
