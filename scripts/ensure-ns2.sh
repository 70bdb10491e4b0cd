#!/usr/bin/env bash
# Install Debian's ns2 (NS-2.35, the simulator four of the seed studies ran on) when it is
# missing and we may install packages. Elsewhere the NS-2 tests report themselves as
# skipped, with the reason, and the NS-2 baseline cannot run.
set -u
command -v "${TRANSPORTLAB_NS2:-ns}" >/dev/null 2>&1 && exit 0
exec bash "$(dirname "$0")/apt-install.sh" ns2 "the NS-2 tests and baselines"
