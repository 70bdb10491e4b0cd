#!/usr/bin/env bash
# Install Debian's Chromium (and its WebDriver) for the results book's browser test
# (tests/test_book.py) when it is missing and we may install packages. Elsewhere that
# test reports itself as skipped, with the reason.
set -u
here=$(dirname "$0")
command -v chromium >/dev/null 2>&1 ||
  bash "$here/apt-install.sh" chromium "the browser test of the results book"
command -v chromedriver >/dev/null 2>&1 ||
  bash "$here/apt-install.sh" chromium-driver "the browser test of the results book"
exit 0
