"""Load ns-3 and the transportlab native library into one cppyy namespace, fast.

``from ns import ns`` parses all 42 ns-3 module headers with cling, which takes
10-15 s and ~640 MB per process. A cling precompiled header (PCH) holding those
headers and ours cuts that to ~1.5 s. The PCH is tied to the exact cppyy-cling
version and to absolute header paths, so it is built once per environment into
a cache directory keyed by the versions, the wheel location and the content of
our headers, under a file lock so that concurrent worker processes build it once.

Where the PCH lives (:func:`pch_search_roots`): ``$TRANSPORTLAB_CACHE`` if set, else
``$XDG_CACHE_HOME/transportlab`` (``~/.cache/transportlab``); that folder is where a
missing PCH is built. Before building, the same key is also looked up read-only in
``$TRANSPORTLAB_SHARED_CACHE`` (folders separated by ``:``) and in the environment's
``<sys.prefix>/share/transportlab``. An image (Binder, a JupyterHub's single-user
image) builds it there with ``python -m transportlab.ns3.native --build-pch --shared``,
so it survives the persistent home a hub mounts over the image's ``~/.cache``.

If the cache cannot be written (read-only home, no space...), the slow path is
used with a one-line warning.

Which ns-3 modules (``$TRANSPORTLAB_NS3_MODULES``): unset or ``all`` loads all of
them through the wheel's own loader (``from ns import ns``), what a user exploring
ns-3 expects. ``studies`` loads only :data:`STUDY_MODULES`, the modules this project's
studies use, with their own smaller PCH: ~45 MB less memory per process and half the
import time; the local Dask cluster's simulation workers run so
(:mod:`transportlab.ns3.runtime`). A comma-separated list of module names
loads those and the modules they link.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.metadata
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import time
import types
import warnings
from pathlib import Path

LIBRARY_NAME = "libtransportlab.so"
TEST_LIBRARY_NAME = "libtransportlab-tests.so"
PCH_FILE_NAME = "allDict.ns3.pch"
# Preprocessor switches the wheel's loader defines for its optional libraries;
# the PCH must be built with the same ones.
NS3_DEFINES = [
    "HAVE_GSL",
    "HAVE_LIBXML2",
    "HAVE_SQLITE3",
    "NS3_CLICK",
    "NS3_OPENFLOW",
    "ENABLE_OPENFLOW",
]


#: ns-3 modules the studies use: what libtransportlab.so links, the routing, monitoring
#: and application modules the studies create from Python, and their dependencies
STUDY_MODULES = (
    "antenna",
    "aodv",
    "applications",
    "bridge",
    "core",
    "csma",
    "energy",
    "flow-monitor",
    "internet",
    "internet-apps",
    "mobility",
    "network",
    "point-to-point",
    "propagation",
    "spectrum",
    "stats",
    "traffic-control",
    "wifi",
)
MODULES_VARIABLE = "TRANSPORTLAB_NS3_MODULES"


class NativeLibraryNotFoundError(ImportError):
    """The compiled transportlab library is not installed."""


def ns3_wheel_dir() -> Path:
    """``<site-packages>/ns3``, found without importing ns-3 (a namespace package)."""
    spec = importlib.util.find_spec("ns3")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("the ns3 wheel is not installed (pip install ns3==3.44.post0)")
    return Path(list(spec.submodule_search_locations)[0])


def native_dir() -> Path:
    """Folder holding ``lib/libtransportlab.so`` and ``include/``.

    In a normal install it is the transportlab package's folder. In an editable install
    (scikit-build-core redirect mode) the Python files stay in ``src/`` while the
    native files are installed under ``<site-packages>/transportlab``.
    """
    package = Path(__file__).resolve().parents[1]
    candidates = [package] + [Path(p) / "transportlab" for p in sys.path if p]
    for candidate in candidates:
        if (candidate / "lib" / LIBRARY_NAME).is_file():
            return candidate
    raise NativeLibraryNotFoundError(
        f"{LIBRARY_NAME} not found; build it with `make install` (pip install .)"
    )


def native_modules(include_dir: Path) -> list[str]:
    """Names of our ns-3 style modules, in build order (from the installed modules.txt)."""
    listing = include_dir / "modules.txt"
    return [m for m in listing.read_text().split() if m]


def ns3_modules(wheel: Path) -> list[str]:
    """ns-3 module names with a library and an umbrella header in the wheel."""
    modules = []
    for lib in sorted((wheel / "lib64").glob("libns3.*-*.so")):
        name = lib.name.split("-", 1)[1][: -len(".so")]
        if (wheel / "include" / "ns3" / f"{name}-module.h").is_file():
            modules.append(name)
    return modules


def _ns3_library(wheel: Path, module: str) -> Path:
    matches = sorted((wheel / "lib64").glob(f"libns3.*-{module}.so"))
    if not matches:
        raise FileNotFoundError(f"no library of ns-3 module {module!r} in {wheel / 'lib64'}")
    return matches[0]


def linked_ns3_modules(wheel: Path, module: str) -> set[str]:
    """ns-3 modules whose libraries ``module``'s library names (DT_NEEDED), not itself."""
    data = _ns3_library(wheel, module).read_bytes()
    names = {m.decode() for m in re.findall(rb"libns3\.[0-9]+-([a-z0-9-]+)\.so", data)}
    return names - {module}


def selected_modules(wheel: Path, value: str | None = None) -> list[str] | None:
    """The ns-3 modules ``$TRANSPORTLAB_NS3_MODULES`` asks for, None for all of them.

    ``studies`` means :data:`STUDY_MODULES`; a list also gets the modules its libraries
    link, so that every class a loaded library uses has its header. Unknown names are
    an error, raised before anything is loaded.
    """
    value = (os.environ.get(MODULES_VARIABLE, "") if value is None else value).strip()
    if value in ("", "all"):
        return None
    if value == "studies":
        wanted = list(STUDY_MODULES)
    else:
        wanted = [name.strip() for name in value.split(",") if name.strip()]
    available = ns3_modules(wheel)
    unknown = sorted(set(wanted) - set(available))
    if unknown:
        raise ValueError(
            f"{MODULES_VARIABLE}={value!r}: no ns-3 module {', '.join(unknown)} in the wheel "
            f"(use 'all', 'studies' or names from: {', '.join(available)})"
        )
    if value == "studies":
        # closed under linking already (tests/test_native_modules.py): no library to read
        return [m for m in available if m in STUDY_MODULES]
    chosen, pending = set(), list(wanted)
    while pending:
        module = pending.pop()
        if module not in chosen:
            chosen.add(module)
            pending.extend(m for m in linked_ns3_modules(wheel, module) if m in available)
    return [m for m in available if m in chosen]


def cache_root() -> Path:
    """Writable cache folder: $TRANSPORTLAB_CACHE, else $XDG_CACHE_HOME/transportlab."""
    if os.environ.get("TRANSPORTLAB_CACHE"):
        return Path(os.environ["TRANSPORTLAB_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "transportlab"


def shared_cache_root() -> Path:
    """The environment's own PCH folder, ``<sys.prefix>/share/transportlab`` (read-only use)."""
    return Path(sys.prefix) / "share" / "transportlab"


def pch_search_roots() -> list[Path]:
    """Where a built PCH is looked for: cache root, $TRANSPORTLAB_SHARED_CACHE, the prefix's."""
    roots = [cache_root()]
    roots += [Path(p) for p in os.environ.get("TRANSPORTLAB_SHARED_CACHE", "").split(":") if p]
    roots.append(shared_cache_root())
    return list(dict.fromkeys(roots))


def pch_key(wheel: Path, include_dir: Path, modules: list[str] | None = None) -> str:
    """Key of the PCH: cppyy-cling and ns3 versions, wheel path, our headers' content,
    and the ns-3 modules in it if not all of them."""
    digest = hashlib.sha256()
    if modules is not None:
        digest.update(("modules=" + ",".join(modules) + ";").encode())
    for dist in ("cppyy-cling", "cppyy-backend", "ns3"):
        try:
            digest.update(f"{dist}={importlib.metadata.version(dist)};".encode())
        except importlib.metadata.PackageNotFoundError:
            digest.update(f"{dist}=?;".encode())
    digest.update(str(wheel).encode())
    digest.update(str(include_dir).encode())
    for header in sorted(include_dir.rglob("*.h")):
        digest.update(header.name.encode())
        digest.update(header.read_bytes())
    digest.update((include_dir / "modules.txt").read_bytes())
    return digest.hexdigest()[:16]


def pch_path(
    wheel: Path, include_dir: Path, root: Path | None = None, modules: list[str] | None = None
) -> Path:
    """Where the PCH of this environment is built (under ``root``, default the cache root)."""
    root = cache_root() if root is None else root
    return root / f"pch-{pch_key(wheel, include_dir, modules)}" / PCH_FILE_NAME


def find_pch(wheel: Path, include_dir: Path, modules: list[str] | None = None) -> Path | None:
    """An already built PCH of this environment in any of :func:`pch_search_roots`."""
    name = pch_path(wheel, include_dir, modules=modules).relative_to(cache_root())
    for root in pch_search_roots():
        with contextlib.suppress(OSError):
            if (root / name).is_file():
                return root / name
    return None


def _cppyy_backend_dir() -> Path:
    spec = importlib.util.find_spec("cppyy_backend")
    if spec is None or spec.origin is None:
        raise ImportError("cppyy_backend is not installed")
    return Path(spec.origin).parent


def build_pch(
    target: Path, wheel: Path, include_dir: Path, modules: list[str] | None = None
) -> Path:
    """Build the cling PCH of the ns-3 module headers (all, or ``modules``) plus ours.

    Takes ~15 s and ~0.9 GB once. Runs rootcling from cppyy_backend (no system
    compiler needed). Written to a temporary name, then renamed, so a reader
    never sees half a file.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    backend = _cppyy_backend_dir()
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        umbrella = Path(tmp) / "transportlab-all.h"
        chosen = ns3_modules(wheel) if modules is None else modules
        lines = [f'#include "ns3/{m}-module.h"' for m in chosen]
        lines += [f'#include "ns3/{m}-module.h"' for m in native_modules(include_dir)]
        umbrella.write_text("\n".join(lines) + "\n")
        cmd = [
            str(backend / "bin" / "rootcling"),
            "-rootbuild",
            "-generate-pch",
            "-f",
            str(Path(tmp) / "allDict.cxx"),
            "-noDictSelection",
            "-D__CLING__",
            "-DROOT_PCH",
            "-I" + str(backend / "include"),
            "-I" + str(backend / "etc"),
            "-I" + str(backend / "etc" / "dictpch"),
            "-I" + str(backend / "etc" / "cling"),
            "-I" + str(wheel / "include"),
            "-I" + str(include_dir),
            *[f"-D{d}" for d in NS3_DEFINES],
            "-cxxflags",
            "-std=c++2a -Wno-implicit-fallthrough -pipe -fsigned-char -pthread",
            str(backend / "etc" / "dictpch" / "allHeaders.h"),
            str(umbrella),
            str(backend / "etc" / "dictpch" / "allLinkDefs.h"),
        ]
        env = dict(os.environ)
        env["LD_LIBRARY_PATH"] = os.pathsep.join(
            [str(backend / "lib")]
            + [p for p in env.get("LD_LIBRARY_PATH", "").split(os.pathsep) if p]
        )
        result = subprocess.run(cmd, cwd=backend, env=env, capture_output=True, text=True)
        produced = Path(tmp) / "allDict_rdict.pch"
        if result.returncode != 0 or not produced.is_file():
            tail = (result.stderr or result.stdout).strip().splitlines()[-5:]
            raise RuntimeError("rootcling failed to build the PCH: " + " | ".join(tail))
        os.replace(produced, target)
    return target


def ensure_pch(
    wheel: Path, include_dir: Path, root: Path | None = None, modules: list[str] | None = None
) -> Path | None:
    """Return a usable PCH, building it under a lock if needed; None if impossible.

    An existing PCH is taken from any of :func:`pch_search_roots`; a missing one is
    built under ``root`` (default: the cache root).
    """
    if os.environ.get("TRANSPORTLAB_NO_PCH"):
        return None
    try:
        found = find_pch(wheel, include_dir, modules)
        target = pch_path(wheel, include_dir, root, modules)
        if found is not None and (root is None or found == target):
            return found
        if target.is_file():
            return target
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target.parent / ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another process may be building it right now
            if not target.is_file():
                build_pch(target, wheel, include_dir, modules)
        return target
    except Exception as exc:  # noqa: BLE001 - any failure means: use the slow path
        # One line on stderr: line number 0 has no source line for the warning to show.
        warnings.warn_explicit(
            f"transportlab: no precompiled header ({exc}); importing ns-3 the slow way (~12 s)",
            RuntimeWarning,
            filename=__file__,
            lineno=0,
            module=__name__,
        )
        return None


@contextlib.contextmanager
def _quiet_cwd():
    """Import ns-3 from an empty folder.

    The wheel's loader globs the current directory recursively for *.so files;
    from a project root holding a virtual environment that costs seconds.
    """
    previous = os.getcwd()
    with tempfile.TemporaryDirectory() as empty:
        os.chdir(empty)
        try:
            yield
        finally:
            os.chdir(previous)


_loaded = None
_release_gil_in_run = False


def set_gil_release(enabled: bool) -> None:
    """Whether ``Simulator::Run`` gives up the GIL (applied now, or when ns-3 loads).

    Off by default: a Jupyter kernel has several Python threads, and one of them
    may drop a cppyy proxy's reference to an ns-3 object (whose reference counts
    are not atomic) while the simulator uses it. A Dask worker turns it on around
    a task, with the garbage collector paused, so its event loop keeps answering
    heartbeats during runs of many minutes
    (:func:`transportlab.ns3.simulation.other_threads_run_during_simulations`).
    """
    global _release_gil_in_run
    _release_gil_in_run = bool(enabled)
    if _loaded is not None:
        _loaded.Simulator.Run.__release_gil__ = _release_gil_in_run


load_seconds: float | None = None
used_pch: Path | None = None
loaded_modules: list[str] | None = None  #: None: all of them


def _load_ns3_modules(wheel: Path, modules: list[str]):
    """Load some ns-3 modules into cppyy as the wheel's loader (``ns3/ns/__init__.py``)
    loads all of them, with the same conveniences; returns the ``ns3`` namespace."""
    import cppyy  # noqa: PLC0415
    import libcppyy  # noqa: PLC0415

    libcppyy.AddSmartPtrType("Ptr")
    cppyy.add_library_path(str(wheel / "lib64"))
    cppyy.add_include_path(str(wheel / "include"))
    cppyy.cppexec("".join(f"#ifndef {d}\n#define {d} 1\n#endif\n" for d in NS3_DEFINES))
    for module in modules:
        cppyy.include(f"ns3/{module}-module.h")
    for module in modules:
        cppyy.load_library(str(_ns3_library(wheel, module)))
    ns = cppyy.gbl.ns3
    ns.cppyy = cppyy
    # Python's comparison operators on Time, as the wheel defines them.
    cppyy.cppdef(
        """
        namespace transportlab_loader {
        bool Time_ge(ns3::Time& a, ns3::Time& b) { return a >= b; }
        bool Time_eq(ns3::Time& a, ns3::Time& b) { return a == b; }
        bool Time_ne(ns3::Time& a, ns3::Time& b) { return a != b; }
        bool Time_le(ns3::Time& a, ns3::Time& b) { return a <= b; }
        bool Time_gt(ns3::Time& a, ns3::Time& b) { return a > b; }
        bool Time_lt(ns3::Time& a, ns3::Time& b) { return a < b; }
        std::tuple<bool, ns3::TypeId> LookupByNameFailSafe(std::string name)
        {
            ns3::TypeId id;
            bool ok = ns3::TypeId::LookupByNameFailSafe(name, &id);
            return std::make_tuple(ok, id);
        }
        }
        """
    )
    helpers = cppyy.gbl.transportlab_loader
    for op in ("ge", "eq", "ne", "le", "gt", "lt"):
        setattr(ns.Time, f"__{op}__", getattr(helpers, f"Time_{op}"))
    ns.LookupByNameFailSafe = helpers.LookupByNameFailSafe
    # A node belongs to ns-3's NodeList until the simulator is destroyed: Python must not
    # delete it (the wheel keeps such proxies in the same list).
    ns.__nodes_pending_deletion = []
    ns.Node.__del__ = lambda self: ns.__nodes_pending_deletion.append(self)
    # `from ns import ns` must now give this namespace, not load every module again.
    stub = types.ModuleType("ns")
    stub.ns = ns
    sys.modules["ns"] = stub
    return ns


def wheel_loader_finds_libraries(wheel: Path) -> bool:
    """Whether ``from ns import ns`` can load the wheel's libraries: its loader
    (``ns3/ns/__init__.py``, ns3 3.44.post0) drops every library whose *path* contains
    "test", so under a folder such as ``/home/tester`` or pytest's ``/tmp/pytest-of-...``
    it loads none and cling falls back on whatever ns-3 the system has."""
    return "test" not in str(wheel / "lib64")


def modules_to_load(wheel: Path, ns_loaded: bool = False) -> list[str] | None:
    """The ns-3 modules :func:`load` loads itself, or None for the wheel's own loader:
    ``$TRANSPORTLAB_NS3_MODULES`` (:func:`selected_modules`); None once ns-3 is loaded;
    every module where the wheel's loader would find no library
    (:func:`wheel_loader_finds_libraries`)."""
    if ns_loaded:
        return None  # ns-3 is already loaded, the wheel's way
    modules = selected_modules(wheel)
    if modules is None and not wheel_loader_finds_libraries(wheel):
        modules = ns3_modules(wheel)
    return modules


def load():
    """Import ns-3 (with the PCH when possible) and load our library; returns ``ns``."""
    global _loaded, load_seconds, used_pch, loaded_modules
    if _loaded is not None:
        return _loaded
    start = time.perf_counter()
    wheel = ns3_wheel_dir()
    native = native_dir()
    include_dir = native / "include"
    modules = modules_to_load(wheel, ns_loaded="ns" in sys.modules)
    if "cppyy" not in sys.modules and "CLING_STANDARD_PCH" not in os.environ:
        used_pch = ensure_pch(wheel, include_dir, modules=modules)
        if used_pch is not None:
            os.environ["CLING_STANDARD_PCH"] = str(used_pch)
    with _quiet_cwd():
        if modules is None:
            from ns import ns  # noqa: PLC0415 - the expensive import, done once
        else:
            ns = _load_ns3_modules(wheel, modules)
    loaded_modules = modules

    import cppyy  # noqa: PLC0415

    cppyy.add_include_path(str(include_dir))
    for module in native_modules(include_dir):
        cppyy.include(f"ns3/{module}-module.h")
    cppyy.load_library(str(native / "lib" / LIBRARY_NAME))
    # Simulator::Run keeps the GIL unless a caller asks otherwise (set_gil_release).
    ns.Simulator.Run.__release_gil__ = _release_gil_in_run
    _loaded = ns
    load_seconds = time.perf_counter() - start
    return ns


def load_test_library() -> bool:
    """Load the ns-3 TestSuites of our modules (libtransportlab-tests.so) if built."""
    import cppyy  # noqa: PLC0415

    load()
    lib = native_dir() / "lib" / TEST_LIBRARY_NAME
    if not lib.is_file():
        return False
    cppyy.load_library(str(lib))
    return True


def main(argv: list[str] | None = None) -> int:
    """``python -m transportlab.ns3.native [--build-pch [--shared]|--info]``.

    ``--build-pch`` builds the PCH (of the modules ``$TRANSPORTLAB_NS3_MODULES`` selects)
    into the cache root; with ``--shared`` into ``<sys.prefix>/share/transportlab`` (for
    images whose home folders are replaced).
    """
    args = sys.argv[1:] if argv is None else argv
    wheel = ns3_wheel_dir()
    native = native_dir()
    if "--build-pch" in args:
        root = shared_cache_root() if "--shared" in args else None
        path = ensure_pch(wheel, native / "include", root, selected_modules(wheel))
        print(path if path else "no PCH (see warning)")
        return 0 if path else 1
    print(f"ns3 wheel : {wheel}")
    print(f"native    : {native}")
    print(f"modules   : {', '.join(native_modules(native / 'include'))}")
    include = native / "include"
    modules = selected_modules(wheel)
    print(f"ns-3      : {'all modules' if modules is None else ', '.join(modules)}")
    pch = find_pch(wheel, include, modules) or pch_path(wheel, include, modules=modules)
    print(f"pch       : {pch}")
    print(f"searched  : {', '.join(str(p) for p in pch_search_roots())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
