# transportlab: the two commands a new user needs are `make reproduce` and `make test`.
# Both create the virtual environment on first use.

PYTHON  ?= $(shell command -v python3.11 || command -v python3)
VENV    ?= .venv
PY      := $(VENV)/bin/python
PIP     := $(PY) -m pip
# Extra pytest arguments, e.g. `make test PYTEST_ARGS="-k metrics"`.
PYTEST_ARGS ?=
# Extra `transportlab reproduce` arguments, e.g. `make reproduce ARGS="--study wired_best_effort"`.
ARGS ?=

# --- platform checks: fail at once, with one line, before anything is installed ------------
# The ns3 wheel exists for x86-64 Linux only (macOS, Windows and ARM: Binder or a Linux VM);
# transportlab is tested with Python 3.11 and 3.12 (pyproject's requires-python); its ns-3
# modules are C++20 and need g++ >= $(MIN_GXX) (every source compiles with g++ 11.3 and 12.2).
# `make SKIP_PLATFORM_CHECK=1 ...` skips the checks (untested combinations, at your own risk).
SUPPORTED_PYTHON := 3.11 3.12
MIN_GXX          := 11
CXX              ?= g++
space := $(subst ,, )
comma := ,
# The Python that matters: the environment's once it exists, else the one that creates it.
CHECKED_PYTHON = $(if $(wildcard $(PY)),$(PY),$(PYTHON))
PLATFORM_PROBLEM = $(shell \
  m="$$(uname -s) $$(uname -m)"; \
  if [ "$$m" != "Linux x86_64" ]; then \
    echo "the ns3 wheel is for x86-64 Linux only and this is $$m: use Binder or a Linux VM (see README)"; exit 0; fi; \
  v=$$($(CHECKED_PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null); \
  if ! echo " $(SUPPORTED_PYTHON) " | grep -qF " $${v:-none} "; then \
    echo "transportlab needs Python $(subst $(space),$(comma) ,$(SUPPORTED_PYTHON)), but $(or $(CHECKED_PYTHON),python3) is $${v:-missing}: install one (e.g. apt install python3.11-venv, or pyenv) or pass PYTHON=/path/to/python3.11"; exit 0; fi; \
  if ! $(CXX) --version 2>/dev/null | head -n 1 | grep -Eq 'g\+\+|GCC'; then \
    echo "transportlab needs g++ >= $(MIN_GXX) (C++20) and CXX=$(CXX) is not g++ (apt install g++)"; exit 0; fi; \
  g=$$($(CXX) -dumpversion 2>/dev/null | cut -d. -f1); \
  if [ "$${g:-0}" -lt $(MIN_GXX) ]; then \
    echo "transportlab needs g++ >= $(MIN_GXX) (C++20) and $(CXX) is version $${g:-unknown}: install a newer g++ or pass CXX=g++-$(MIN_GXX)"; fi)

.PHONY: check-platform
check-platform:
	$(if $(SKIP_PLATFORM_CHECK),,$(if $(strip $(PLATFORM_PROBLEM)),$(error $(strip $(PLATFORM_PROBLEM)))))
	@:

DEPS_STAMP   := $(VENV)/.deps-installed
NATIVE_STAMP := $(VENV)/.native-built
NATIVE_SOURCES := $(shell find src tools -name '*.cc' -o -name '*.h' -o -name '*.c' -o -name 'CMakeLists.txt' 2>/dev/null) \
                  CMakeLists.txt $(wildcard cmake/*.cmake) pyproject.toml

.PHONY: reproduce test install build pch tshark ns2 chromium usrsctp jemalloc lint format bench lab notebooks clean distclean

reproduce: usrsctp jemalloc install ns2
	$(VENV)/bin/transportlab reproduce --quick $(ARGS)

test: usrsctp jemalloc install tshark ns2 chromium book-deps
	$(PY) -m pytest $(PYTEST_ARGS)

install: $(NATIVE_STAMP) pch

$(PY): | check-platform
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# Build requirements go into the venv so the package builds without build isolation
# (an isolated build would download and compile cppyy for every build).
$(DEPS_STAMP): $(PY) requirements/constraints.txt pyproject.toml
	$(PIP) install --quiet -c requirements/constraints.txt \
	    scikit-build-core ns3==3.44.post0 \
	    $$($(PY) scripts/project_requirements.py test)
	touch $@

$(NATIVE_STAMP): $(DEPS_STAMP) $(NATIVE_SOURCES) | check-platform
	$(PIP) install --quiet --no-build-isolation --no-deps -e .
	touch $@

build: $(NATIVE_STAMP)

# The cling precompiled headers: ~20 s once, then every `from transportlab import ns` takes
# ~1.5 s. The second holds only the ns-3 modules the studies use, for the simulation workers.
pch: $(NATIVE_STAMP)
	$(PY) -m transportlab.ns3.native --build-pch > /dev/null
	TRANSPORTLAB_NS3_MODULES=studies $(PY) -m transportlab.ns3.native --build-pch > /dev/null

tshark:
	@bash scripts/ensure-tshark.sh

# NS-2.35 (Debian's ns2) for the NS-2 baselines and their tests (transportlab.ns2), if we may.
ns2:
	@bash scripts/ensure-ns2.sh

# Debian's Chromium for the results book's browser test (tests/test_book.py).
chromium:
	@bash scripts/ensure-chromium.sh

# jemalloc for the local cluster's simulation workers (transportlab.ns3.allocator), if we may.
jemalloc:
	@bash scripts/ensure-jemalloc.sh

# The SCTP validation oracle (tools/usrsctp-oracle) is built with the native library when
# libusrsctp-dev is installed: install it where we may, and rebuild if it just appeared.
usrsctp:
	@bash scripts/ensure-usrsctp.sh
	@if [ -f /usr/include/usrsctp.h ] && [ -f $(NATIVE_STAMP) ] && \
	    ! ls $(VENV)/lib/python*/site-packages/transportlab/bin/usrsctp-oracle >/dev/null 2>&1; then \
	  rm -f $(NATIVE_STAMP); fi

lint: $(DEPS_STAMP)
	$(VENV)/bin/ruff check src tests benchmarks scripts book/conf.py
	$(VENV)/bin/ruff format --check src tests benchmarks scripts book/conf.py

format: $(DEPS_STAMP)
	$(VENV)/bin/ruff format src tests benchmarks scripts book/conf.py
	$(VENV)/bin/ruff check --fix src tests benchmarks scripts book/conf.py

bench: install
	for b in benchmarks/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

lab: install kernel
	$(PIP) install --quiet -c requirements/constraints.txt jupyterlab
	$(VENV)/bin/jupyter lab notebooks/

# Re-run the notebooks from their jupytext .py files and commit the quick-mode outputs
# nbval checks, e.g. `make notebooks NOTEBOOKS=notebooks/00_bottleneck_example.py`.
NOTEBOOKS ?= $(wildcard notebooks/[0-9][0-9]_*.py)
notebooks: install
	$(PY) scripts/execute_notebook.py $(NOTEBOOKS)

clean:
	rm -rf build output $(NATIVE_STAMP)

distclean: clean
	rm -rf $(VENV)

# --- teaching assignments (assignments/, see assignments/README.md) -------------------------
# Student notebooks and Otter autograders into dist/assignments/ (not committed);
# `make assignments ASSIGNMENTS=01_bottleneck_basics` builds one. Grade a submission
# locally (no Docker) with `make grade ASSIGNMENTS=01_bottleneck_basics SUBMISSION=x.ipynb`.
# Both register the Jupyter kernel `transportlab` (this environment) the notebooks name.
ASSIGNMENTS ?=
SUBMISSION  ?=
.PHONY: assignments grade kernel
assignments: install kernel
	$(PY) assignments/build.py $(ASSIGNMENTS)

grade: install kernel
	$(PY) assignments/build.py $(ASSIGNMENTS) --grade $(SUBMISSION)

kernel: $(NATIVE_STAMP)
	$(PY) -c "from transportlab.notebooks import ensure_kernel; print('Jupyter kernel:', ensure_kernel())"

# --- the results book (book/, scripts/build_book.py) ------------------------------------------
# A static HTML site from the committed files, executing nothing: the notebooks with their
# stored outputs, data/results/, figures/, each figure and table with its provenance.
# `make book`, then open build/book/html/index.html (or `python3 -m http.server --directory
# build/book/html`). Sphinx + MyST-NB from PyPI (the `book` extra, pinned in
# requirements/constraints.txt) and DataTables from npm (book/package-lock.json); only these,
# not the package, so the book builds without compiling anything.
BOOK_DIR   ?= build/book
BOOK_STAMP := $(VENV)/.book-deps-installed
BOOK_NODE  := book/node_modules/.package-lock.json
.PHONY: book book-deps

$(BOOK_STAMP): $(PY) requirements/constraints.txt pyproject.toml
	$(PIP) install --quiet -c requirements/constraints.txt $$($(PY) scripts/project_requirements.py --only book)
	touch $@

$(BOOK_NODE): book/package.json book/package-lock.json
	@command -v npm >/dev/null 2>&1 || bash scripts/apt-install.sh npm "the results book (make book)"
	npm ci --prefix book --no-audit --no-fund --ignore-scripts --loglevel=error
	touch $@

book-deps: $(BOOK_STAMP) $(BOOK_NODE)

book: book-deps
	$(PY) scripts/build_book.py --output $(BOOK_DIR)
