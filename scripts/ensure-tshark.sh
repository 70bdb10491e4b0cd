#!/usr/bin/env bash
# Install Debian's tshark for the pcap tests when it is missing and we may install packages.
# Elsewhere the pcap tests report themselves as skipped, with the reason.
set -u
command -v tshark >/dev/null 2>&1 && exit 0
exec bash "$(dirname "$0")/apt-install.sh" tshark "the pcap tests" \
  "wireshark-common wireshark-common/install-setuid boolean false"
