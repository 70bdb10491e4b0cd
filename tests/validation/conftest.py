"""The validation tests need usrsctp-oracle (built when libusrsctp-dev is installed)."""

from __future__ import annotations

import pytest

from transportlab import validation

needs_oracle = pytest.mark.skipif(
    not validation.oracle_available(),
    reason="usrsctp-oracle not built: apt-get install libusrsctp-dev, then make install",
)
