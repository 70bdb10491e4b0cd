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

DEPS_STAMP   := $(VENV)/.deps-installed
NATIVE_STAMP := $(VENV)/.native-built
NATIVE_SOURCES := $(shell find src tools -name '*.cc' -o -name '*.h' -o -name '*.c' -o -name 'CMakeLists.txt' 2>/dev/null) \
                  CMakeLists.txt $(wildcard cmake/*.cmake) pyproject.toml

.PHONY: reproduce test install build pch tshark usrsctp lint format bench lab notebooks clean distclean

reproduce: install
	$(VENV)/bin/transportlab reproduce --quick $(ARGS)

test: usrsctp install tshark
	$(PY) -m pytest $(PYTEST_ARGS)

install: $(NATIVE_STAMP) pch

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# Build requirements go into the venv so the package builds without build isolation
# (an isolated build would download and compile cppyy for every build).
$(DEPS_STAMP): $(PY) requirements/constraints.txt pyproject.toml
	$(PIP) install --quiet -c requirements/constraints.txt \
	    scikit-build-core ns3==3.44.post0 \
	    $$($(PY) scripts/project_requirements.py test)
	touch $@

$(NATIVE_STAMP): $(DEPS_STAMP) $(NATIVE_SOURCES)
	$(PIP) install --quiet --no-build-isolation --no-deps -e .
	touch $@

build: $(NATIVE_STAMP)

# The cling precompiled header: ~20 s once, then every `from transportlab import ns` takes ~2 s.
pch: $(NATIVE_STAMP)
	$(PY) -m transportlab._native --build-pch > /dev/null

tshark:
	@bash scripts/ensure-tshark.sh

# The SCTP validation oracle (tools/usrsctp-oracle) is built with the native library when
# libusrsctp-dev is installed: install it where we may, and rebuild if it just appeared.
usrsctp:
	@bash scripts/ensure-usrsctp.sh
	@if [ -f /usr/include/usrsctp.h ] && [ -f $(NATIVE_STAMP) ] && \
	    ! ls $(VENV)/lib/python*/site-packages/transportlab/bin/usrsctp-oracle >/dev/null 2>&1; then \
	  rm -f $(NATIVE_STAMP); fi

lint: $(DEPS_STAMP)
	$(VENV)/bin/ruff check src tests benchmarks scripts
	$(VENV)/bin/ruff format --check src tests benchmarks scripts

format: $(DEPS_STAMP)
	$(VENV)/bin/ruff format src tests benchmarks scripts
	$(VENV)/bin/ruff check --fix src tests benchmarks scripts

bench: install
	for b in benchmarks/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

lab: install
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
