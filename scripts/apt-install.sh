#!/usr/bin/env bash
# Install a Debian package the tests need, when we may install packages:
#   apt-install.sh PACKAGE "WHAT NEEDS IT" [DEBCONF-PRESEED-LINE]
# Without apt-get or root, say which tests will be skipped and succeed: the tests report
# themselves as skipped, with the reason.
set -u
package=$1 purpose=$2 preseed=${3:-}
if ! command -v apt-get >/dev/null 2>&1; then
  echo "$package missing and no apt-get: $purpose will be skipped" >&2; exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
    echo "$package missing and no root: $purpose will be skipped" >&2; exit 0
  fi
fi
echo "installing $package (Debian package) for $purpose..."
$SUDO apt-get update -qq >/dev/null &&
  { [ -z "$preseed" ] || echo "$preseed" | $SUDO debconf-set-selections; } &&
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$package" >/dev/null ||
  echo "could not install $package: $purpose will be skipped" >&2
exit 0
