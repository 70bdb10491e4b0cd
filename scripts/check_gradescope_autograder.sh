#!/usr/bin/env bash
# Replays, without Docker, what Gradescope does with an assignment's autograder.zip, and
# grades one submission with the environment that results:
#
#     bash scripts/check_gradescope_autograder.sh AUTOGRADER_ZIP SUBMISSION.ipynb [WORKDIR]
#
# 1. unzips it as Gradescope does (WORKDIR/source instead of /autograder/source);
# 2. creates a fresh Python 3.11 venv (instead of otter's conda environment: python3.11,
#    cmake and ninja come from this machine, not from conda-forge) and installs the pip
#    part of the zip's environment.yml into it;
# 3. runs the zip's transportlab/scripts/gradescope-setup.sh in it (native build,
#    precompiled headers, the student notebook's simulations into the cache);
# 4. grades SUBMISSION with `otter run -a AUTOGRADER_ZIP` in that venv.
# Not replayed: otter's apt-get and miniforge steps of setup.sh, Gradescope's Ubuntu
# 22.04 image (g++ 11 there; this machine's g++ here) and its run_autograder wrapper.
set -euo pipefail
zip=$(realpath "$1")
submission=$(realpath "$2")
work=$(realpath -m "${3:-$(mktemp -d /tmp/gradescope-check.XXXXXX)}")
python=${PYTHON:-python3.11}
rm -rf "$work/source" "$work/env" "$work/out"
mkdir -p "$work/source" "$work/out"
cd "$work/source" && unzip -q "$zip"
start=$(date +%s)

"$python" -m venv "$work/env"
"$work/env/bin/python" -m pip install --quiet --upgrade pip
# the pip list of environment.yml, its /autograder paths pointed at $work
requirements="$work/requirements.txt"
sed -n 's/^      - "\(.*\)"$/\1/p' environment.yml | sed "s#/autograder/#$work/#g" > "$requirements"
grep -q "^python=3.11" <(sed -n 's/^  - \(python=.*\)$/\1/p' environment.yml)
"$work/env/bin/python" -m pip install --quiet -r "$requirements"
echo "environment: $(( $(date +%s) - start )) s"

PATH="$work/env/bin:$PATH" bash "$work/source/transportlab/scripts/gradescope-setup.sh"
echo "environment and setup: $(( $(date +%s) - start )) s"

graded=$(date +%s)
"$work/env/bin/otter" run -a "$zip" -o "$work/out" "$submission"
echo "grading: $(( $(date +%s) - graded )) s"
"$work/env/bin/python" - "$work/out/results.json" <<'EOF'
import json, sys
tests = json.load(open(sys.argv[1]))["tests"]
scored = [t for t in tests if "max_score" in t]
print("score:", sum(t["score"] for t in scored), "of", sum(t["max_score"] for t in scored))
EOF
