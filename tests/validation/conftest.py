"""The validation tests need usrsctp-oracle (built when libusrsctp-dev is installed)."""

from __future__ import annotations

import pytest

from transportlab.studies.sctp_validation import stacks

needs_oracle = pytest.mark.skipif(
    not stacks.oracle_available(),
    reason="usrsctp-oracle not built: apt-get install libusrsctp-dev, then make install",
)
