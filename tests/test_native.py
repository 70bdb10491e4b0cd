"""The native library and the fast start-up (transportlab.ns3.native)."""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from transportlab.ns3 import native as _native


def fresh_env(**extra: str) -> dict[str, str]:
    """This environment without the PCH a parent process may have chosen."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("CLING_STANDARD_PCH", "TRANSPORTLAB_NO_PCH", _native.MODULES_VARIABLE)
    }
    env.update(extra)
    return env


def run_python(code: str, env: dict[str, str], timeout: float = 300):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                          capture_output=True, text=True, timeout=timeout)  # fmt: skip


def test_project_classes_sit_next_to_ns3_classes():
    from transportlab import ns

    assert ns.Simulator is not None and ns.TcpSocketFactory is not None
    recorder = ns.CreateObject[ns.PacketEventRecorder]()
    assert recorder.GetN() == 0
    assert ns.CreateObject[ns.TracedValueRecorder]().GetN() == 0
    assert ns.TypeId.LookupByName("ns3::PacketEventRecorder").GetName() == (
        "ns3::PacketEventRecorder"
    )


def test_library_name_never_contains_ns3():
    library = _native.native_dir() / "lib" / _native.LIBRARY_NAME
    assert library.is_file() and "ns3" not in library.name


@pytest.mark.slow
def test_the_pch_is_built_into_a_cache_keyed_by_versions():
    """A fresh process finds (or builds) the PCH under the cache root and uses it."""
    result = run_python(
        """
        from transportlab.ns3 import native as _native
        from transportlab import ns
        ns.Simulator.Now()
        print(_native.used_pch)
        print(_native.cache_root())
        """,
        fresh_env(),
    )
    assert result.returncode == 0, result.stderr
    used, root = result.stdout.split()
    wheel, include = _native.ns3_wheel_dir(), _native.native_dir() / "include"
    assert used == str(_native.pch_path(wheel, include))
    assert used.startswith(root + os.sep + "pch-" + _native.pch_key(wheel, include))
    assert "RuntimeWarning" not in result.stderr


def test_pch_key_changes_with_versions_and_headers(tmp_path, monkeypatch):
    wheel = _native.ns3_wheel_dir()
    include = tmp_path / "include"
    shutil.copytree(_native.native_dir() / "include", include)
    key = _native.pch_key(wheel, include)
    assert _native.pch_key(wheel, include) == key  # stable

    header = next(include.rglob("*.h"))
    header.write_text(header.read_text() + "\n// changed\n")
    assert _native.pch_key(wheel, include) != key

    changed_header_key = _native.pch_key(wheel, include)
    real_version = importlib.metadata.version

    def other_cling(dist):
        return "0.0.1" if dist == "cppyy-cling" else real_version(dist)

    monkeypatch.setattr(importlib.metadata, "version", other_cling)
    assert _native.pch_key(wheel, include) != changed_header_key


def test_no_pch_switch_skips_it(monkeypatch):
    monkeypatch.setenv("TRANSPORTLAB_NO_PCH", "1")
    assert _native.ensure_pch(_native.ns3_wheel_dir(), _native.native_dir() / "include") is None


@pytest.fixture(scope="module")
def slow_path(tmp_path_factory):
    """One import with an unusable cache (its parent is a file: unwritable even for root).

    This is the slow path (~12 s and ~640 MB without the PCH), so it runs once and
    the tests below share its outcome.
    """
    blocker = tmp_path_factory.mktemp("cache") / "a-file"
    blocker.write_text("not a folder")
    return run_python(
        """
        from transportlab.ns3 import native as _native
        from transportlab import ns
        from transportlab.ns3.recording import PacketRecorder
        from transportlab.ns3.simulation import simulation, run_until
        with simulation():
            ns.NodeContainer().Create(2)
            recorder = PacketRecorder()
            run_until(1.0)
            print("simulated", ns.Simulator.Now().GetSeconds(), len(recorder))
        print("pch", _native.used_pch)
        """,
        fresh_env(TRANSPORTLAB_CACHE=str(blocker / "cache")),
        timeout=600,
    )


@pytest.mark.slow
def test_unwritable_cache_falls_back_to_the_slow_path_and_works(slow_path):
    assert slow_path.returncode == 0, slow_path.stderr
    assert "simulated 1.0 0" in slow_path.stdout
    assert "pch None" in slow_path.stdout


@pytest.mark.slow
def test_unwritable_cache_gives_exactly_one_warning_line(slow_path):
    warnings = [line for line in slow_path.stderr.splitlines() if "Warning" in line]
    assert len(warnings) == 1, slow_path.stderr
    assert "RuntimeWarning: transportlab: no precompiled header" in warnings[0]
    assert "importing ns-3 the slow way" in warnings[0]
    # nothing else of the warning machinery (e.g. the source line) follows it
    lines = slow_path.stderr.splitlines()
    following = lines[lines.index(warnings[0]) + 1 : lines.index(warnings[0]) + 2]
    assert not any(line.startswith("  ") for line in following)


# ----------------------------------------------------------------- where the PCH lives


def test_cache_folder_follows_transportlab_cache(tmp_path, monkeypatch):
    """$TRANSPORTLAB_CACHE moves the PCH (e.g. to a persistent or a scratch folder)."""
    monkeypatch.setenv("TRANSPORTLAB_CACHE", str(tmp_path / "mine"))
    wheel, include = _native.ns3_wheel_dir(), _native.native_dir() / "include"
    assert _native.cache_root() == tmp_path / "mine"
    assert _native.pch_path(wheel, include).is_relative_to(tmp_path / "mine")
    assert _native.pch_search_roots()[0] == tmp_path / "mine"


def test_cache_folder_defaults_to_xdg_cache_home(tmp_path, monkeypatch):
    monkeypatch.delenv("TRANSPORTLAB_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert _native.cache_root() == tmp_path / "transportlab"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert _native.cache_root() == tmp_path / "home" / ".cache" / "transportlab"


def _fake_pch(root, wheel, include):
    path = _native.pch_path(wheel, include, root)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"built into the image")
    return path


def test_a_pch_in_a_shared_folder_is_used_without_building(tmp_path, monkeypatch):
    """A hub mounts an empty persistent home: the image's (read-only) PCH is found instead."""
    wheel, include = _native.ns3_wheel_dir(), _native.native_dir() / "include"
    monkeypatch.setenv("TRANSPORTLAB_CACHE", str(tmp_path / "empty-home-cache"))
    monkeypatch.setenv("TRANSPORTLAB_SHARED_CACHE", f"{tmp_path / 'nothing'}:{tmp_path / 'image'}")
    shared = _fake_pch(tmp_path / "image", wheel, include)
    (tmp_path / "image").chmod(0o555)

    def no_build(*args):
        raise AssertionError("must not build a PCH that exists in a shared folder")

    monkeypatch.setattr(_native, "build_pch", no_build)
    try:
        assert _native.ensure_pch(wheel, include) == shared
        assert not (tmp_path / "empty-home-cache").exists()
    finally:
        (tmp_path / "image").chmod(0o755)


def test_the_environment_prefix_is_searched_and_is_where_shared_builds_go(tmp_path, monkeypatch):
    wheel, include = _native.ns3_wheel_dir(), _native.native_dir() / "include"
    monkeypatch.setenv("TRANSPORTLAB_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("TRANSPORTLAB_SHARED_CACHE", raising=False)
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "env"))
    prefix_root = tmp_path / "env" / "share" / "transportlab"
    assert _native.shared_cache_root() == prefix_root
    assert _native.pch_search_roots() == [tmp_path / "cache", prefix_root]

    built = []

    def fake_build(target, *args):
        target.write_bytes(b"pch")
        built.append(target)
        return target

    monkeypatch.setattr(_native, "build_pch", fake_build)
    # `python -m transportlab.ns3.native --build-pch --shared` builds under the prefix ...
    assert _native.main(["--build-pch", "--shared"]) == 0
    assert built == [_native.pch_path(wheel, include, prefix_root)]
    # ... and a later import finds it there without building into the (empty) cache
    assert _native.ensure_pch(wheel, include) == built[0]
    assert len(built) == 1 and not (tmp_path / "cache" / built[0].parent.name).exists()
