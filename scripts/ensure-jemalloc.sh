#!/usr/bin/env bash
# Install Debian's libjemalloc2 when it is missing and we may install packages: the local
# Dask cluster's simulation workers preload it (transportlab.ns3.allocator; ~20 % less CPU
# time in malloc-heavy wireless runs, identical results). Without it they use the system
# malloc: nothing fails, runs are slower.
set -u
for f in /usr/lib/x86_64-linux-gnu/libjemalloc.so.2 /usr/lib64/libjemalloc.so.2 /usr/lib/libjemalloc.so.2; do
  [ -f "$f" ] && exit 0
done
exec bash "$(dirname "$0")/apt-install.sh" libjemalloc2 "the faster allocator of simulation workers"
