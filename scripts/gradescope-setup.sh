#!/usr/bin/env bash
# Builds transportlab inside otter's grading environment: an assignment's autograder.zip
# (assignments/build.py) carries this script, the transportlab sources and the student
# notebook under transportlab/, and its setup.sh runs, after otter has created the
# environment `otter-env` (Python 3.11, the pinned packages and the ns3 wheel, from the
# zip's environment.yml):
#
#     mamba run -n otter-env bash /autograder/source/transportlab/scripts/gradescope-setup.sh
#
# It compiles the ns-3 modules against the wheel (Gradescope's Ubuntu 22.04 image has
# g++ 11 from build-essential, which setup.sh installs), builds the precompiled headers
# and runs the student notebook once, so that its simulations are in the results cache
# (transportlab/data/cache) and grading a submission only loads them.
set -euo pipefail
cd "$(dirname "$0")/.."
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(bash scripts/build-jobs.sh)}
python -m pip install --no-build-isolation --no-deps -e .
python -m transportlab.ns3.native --build-pch --shared
TRANSPORTLAB_NS3_MODULES=studies python -m transportlab.ns3.native --build-pch --shared
shopt -s nullglob
python scripts/precompute_notebooks.py assignments/*/*.ipynb
