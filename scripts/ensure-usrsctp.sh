#!/usr/bin/env bash
# Install Debian's libusrsctp-dev (the usrsctp validation oracle links its static library)
# when it is missing and we may install packages. Elsewhere the validation tests report
# themselves as skipped, with the reason.
set -u
[ -f /usr/include/usrsctp.h ] && exit 0
exec bash "$(dirname "$0")/apt-install.sh" libusrsctp-dev "the SCTP validation tests"
