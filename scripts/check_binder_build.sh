#!/usr/bin/env bash
# Replays a Binder (repo2docker) build of a repository without Docker:
#
#     bash scripts/check_binder_build.sh REPOSITORY [WORKDIR]
#
# REPOSITORY is a copy that may be changed (postBuild builds in it and writes its results
# cache): a student release (`make student-release`) or a clone. The script
# 1. creates a fresh Python 3.11 venv holding repo2docker's Jupyter server packages at
#    the versions of its Python 3.11 environment (scripts/repo2docker-server-py3.11.txt,
#    installed without their dependencies, as conda installed them);
# 2. runs the repository's binder/postBuild in it (python, pip and jupyter are the venv's),
#    timing it and sampling the memory of all its processes every second;
# 3. checks the result: pip check, the server's versions unchanged, `jupyter lab` and
#    `jupyter notebook` start-up (--version), the size of the environment and repository.
# Not replayed: repo2docker's conda and apt steps (this machine's g++, cmake, ninja and
# tshark are used), Docker's layers and the image push.
set -euo pipefail
repository=$(realpath "$1")
work=$(realpath -m "${2:-$(mktemp -d /tmp/binder-check.XXXXXX)}")
here=$(cd "$(dirname "$0")" && pwd)
env="$work/env"
mkdir -p "$work"
rm -rf "$env"
python3.11 -m venv "$env"
"$env/bin/python" -m pip install --quiet pip==25.2
"$env/bin/python" -m pip install --quiet --no-deps -r "$here/repo2docker-server-py3.11.txt"
"$env/bin/python" -m pip check
server_before=$("$env/bin/python" -m pip list --format=freeze | sort)

cd "$repository"
start=$(date +%s)
PATH="$env/bin:$PATH" setsid bash binder/postBuild > "$work/postBuild.log" 2>&1 &
build=$!
peak=0
while kill -0 "$build" 2>/dev/null; do
  kb=$(ps -o rss= -s "$build" 2>/dev/null | awk '{s += $1} END {print s + 0}')
  [ "$kb" -gt "$peak" ] && peak=$kb
  sleep 1
done
wait "$build" || { tail -30 "$work/postBuild.log"; echo "postBuild FAILED"; exit 1; }
echo "postBuild: $(( $(date +%s) - start )) s, peak memory of its processes $(( peak / 1024 )) MB"
grep -E "^compiling with|simulation cells|results cache" "$work/postBuild.log" || true

"$env/bin/python" -m pip check
server_after=$("$env/bin/python" -m pip list --format=freeze | sort)
changed=$(comm -23 <(echo "$server_before") <(echo "$server_after") | tr '\n' ' ')
echo "server packages changed by postBuild: ${changed:-none}"
echo "jupyter lab $("$env/bin/jupyter-lab" --version), notebook $("$env/bin/jupyter-notebook" --version)"
echo "environment $(du -sh "$env" | cut -f1), repository $(du -sh --exclude=.git "$repository" | cut -f1)"
