"""Result files: atomic, with the mode an ordinary open() gives, and checked folders."""

from __future__ import annotations

import os
import stat

import pandas as pd
import pytest

from transportlab.engine import files


@pytest.fixture
def umask():
    previous = os.umask(0o022)
    yield lambda mask: os.umask(mask)
    os.umask(previous)


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_written_files_honour_the_umask(tmp_path, umask, mask, mode):
    umask(mask)
    csv = files.write_csv(pd.DataFrame({"a": [1]}), tmp_path / "x.csv")
    text = files.write_text(tmp_path / "x.txt", "hello\n")
    figure = files.atomic_write_with(tmp_path / "x.bin", lambda tmp: open(tmp, "wb").close())
    for path in (csv, text, figure):
        assert stat.S_IMODE(path.stat().st_mode) == mode, path.name


def test_a_failed_write_keeps_the_previous_file_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "comparison.csv"
    target.write_text("old\n")
    with pytest.raises(RuntimeError), files.atomic_file(target) as stream:
        stream.write("half")
        raise RuntimeError("interrupted")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["comparison.csv"]


def test_unwritable_folders_are_reported_in_one_line(tmp_path):
    with pytest.raises(files.OutputError, match=r"^cannot write to output folder /etc/passwd/x"):
        files.check_writable_folder("/etc/passwd/x")
    assert files.check_writable_folder(tmp_path / "new" / "folder").is_dir()


def test_file_prefix_folders_are_checked(tmp_path):
    assert files.check_file_prefix(tmp_path / "trace") is None
    problem = files.check_file_prefix("/nonexistent/dir/wired", "pcap_prefix")
    assert (
        problem == "the folder of pcap_prefix '/nonexistent/dir/wired' does not exist "
        "(/nonexistent/dir)"
    )
