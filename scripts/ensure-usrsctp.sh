#!/usr/bin/env bash
# Install Debian's libusrsctp-dev (the usrsctp validation oracle links its static library)
# when it is missing and we may install packages. Elsewhere the validation tests report
# themselves as skipped, with the reason.
set -u
[ -f /usr/include/usrsctp.h ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "libusrsctp-dev missing and no apt-get: SCTP validation tests will be skipped" >&2; exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
    echo "libusrsctp-dev missing and no root: SCTP validation tests will be skipped" >&2; exit 0
  fi
fi
echo "installing libusrsctp-dev (Debian package) for the SCTP validation oracle..."
$SUDO apt-get update -qq >/dev/null &&
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libusrsctp-dev >/dev/null ||
  echo "could not install libusrsctp-dev: SCTP validation tests will be skipped" >&2
exit 0
