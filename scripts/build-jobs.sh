#!/usr/bin/env bash
# Prints how many compile jobs the native build may run at once: one per core, but no
# more than the memory allows. The largest translation unit (src/sctp/model/sctp-socket.cc)
# peaks at ~410 MB in g++ 12 -O3 (measured with /usr/bin/time), others at 230-330 MB; ninja's
# default (cores + 2 jobs) on a many-core Binder build node would need far more than the
# 4 GiB a build gets. Budget: the memory limit minus a reserve for pip, cmake and the rest
# of the build, divided by MB_PER_JOB.
#
# Memory limit: $BUILD_MEMORY_MB if set, else the cgroup's (v2 memory.max, v1
# memory.limit_in_bytes), else 4096 (mybinder.org's build limit). Cores: $BUILD_CORES if
# set, else nproc.
set -euo pipefail

MB_PER_JOB=${MB_PER_JOB:-512}
RESERVE_MB=${RESERVE_MB:-1024}
DEFAULT_MB=4096

limit_mb() {
  if [ -n "${BUILD_MEMORY_MB:-}" ]; then echo "$BUILD_MEMORY_MB"; return; fi
  local bytes=""
  if [ -r /sys/fs/cgroup/memory.max ]; then
    bytes=$(cat /sys/fs/cgroup/memory.max)
  elif [ -r /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
    bytes=$(cat /sys/fs/cgroup/memory/memory.limit_in_bytes)
  fi
  # "max" or a v1 "unlimited" sentinel (about 2^63): no limit stated, use the default
  if [[ "$bytes" =~ ^[0-9]+$ ]] && [ "${#bytes}" -lt 16 ]; then
    echo $((bytes / 1024 / 1024))
  else
    echo "$DEFAULT_MB"
  fi
}

cores=${BUILD_CORES:-$(nproc)}
by_memory=$(( ($(limit_mb) - RESERVE_MB) / MB_PER_JOB ))
jobs=$(( cores < by_memory ? cores : by_memory ))
echo $(( jobs < 1 ? 1 : jobs ))
