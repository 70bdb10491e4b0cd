#!/usr/bin/env bash
# Install Debian's tshark for the pcap tests when it is missing and we may install packages.
# Elsewhere the pcap tests report themselves as skipped, with the reason.
set -u
command -v tshark >/dev/null 2>&1 && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "tshark missing and no apt-get: pcap tests will be skipped" >&2; exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
    echo "tshark missing and no root: pcap tests will be skipped" >&2; exit 0
  fi
fi
echo "installing tshark (Debian package) for the pcap tests..."
$SUDO apt-get update -qq >/dev/null &&
  echo "wireshark-common wireshark-common/install-setuid boolean false" | $SUDO debconf-set-selections &&
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq tshark >/dev/null ||
  echo "could not install tshark: pcap tests will be skipped" >&2
exit 0
