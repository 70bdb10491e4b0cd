"""What the NS-2 tests share: the marker that skips them where NS-2 is missing, the seeds."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from transportlab.ns2 import runner

_SKIP_WITHOUT_NS2 = pytest.mark.skipif(
    not runner.available(), reason="NS-2 (`ns`) is not installed: make ns2 / apt-get install ns2"
)
#: ``pytestmark`` of modules whose tests all run NS-2: marked ``ns2`` and skipped, with
#: the reason, where ``ns`` is missing (``make test`` installs Debian's ns2 where it may:
#: scripts/ensure-ns2.sh).
NS2 = [pytest.mark.ns2, _SKIP_WITHOUT_NS2]


def needs_ns2(test):
    """The same for one test."""
    return pytest.mark.ns2(_SKIP_WITHOUT_NS2(test))


SEED_004 = "004_c8175ad9bda103cf.txt"


def seeds_dir() -> Path | None:
    """The seed texts: $TRANSPORTLAB_SEEDS, or a ``shared/seeds`` folder beside a parent."""
    if os.environ.get("TRANSPORTLAB_SEEDS"):
        return Path(os.environ["TRANSPORTLAB_SEEDS"])
    for folder in Path(__file__).resolve().parents:
        if (folder / "shared" / "seeds" / SEED_004).is_file():
            return folder / "shared" / "seeds"
    return None


def seed_004_scripts() -> dict[str, str] | None:
    """The two Tcl scripts of seed 004's Appendix A (``sctp``, ``tcp``), read from the seed
    text at test time (never copied into the repository), or None without the seeds.

    The extracted text keeps the scripts' code blocks; the page breaks of the PDF only
    split them into several blocks, which are joined in order.
    """
    folder = seeds_dir()
    if folder is None or not (folder / SEED_004).is_file():
        return None
    text = (folder / SEED_004).read_text()
    start = text.index("APPENDIX A: NS-2 Code\n\n1.0")
    end = text.index("APPENDIX B: Performance Metrics Code\n\n1.0")
    appendix = text[start:end]
    middle = appendix.index("2.0. TCP Topology")
    scripts = {}
    for name, part in (("sctp", appendix[:middle]), ("tcp", appendix[middle:])):
        blocks = re.findall(r"```\n(.*?)```", part, re.S)
        scripts[name] = "\n".join(blocks)
    return scripts
