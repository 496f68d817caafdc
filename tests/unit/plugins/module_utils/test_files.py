# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""module_utils/_files.py: what is not a regular file is refused by stat, before anything opens it."""

import os

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _files
from ansible_collections.kickstart.pwpolicy.tests.unit.opened import opened  # pylint: disable=unused-import


def special(tmp_path, name):
    path = tmp_path / name
    if name == "fifo":
        os.mkfifo(str(path))
    elif name == "device":
        return os.devnull
    elif name == "link":
        path.symlink_to(os.devnull)
    elif name == "directory":
        path.mkdir()
    elif name == "sparse":
        with open(str(path), "wb") as handle:
            handle.truncate(_files.MAX_FILE_SIZE + 1)
    return str(path)


@pytest.mark.parametrize("name, words", [
    ("fifo", "is a FIFO (named pipe), not a regular file; give the path of a file"),
    ("device", "is a character device, not a regular file"),
    ("link", "is a character device, not a regular file"),
    ("directory", "is a directory, not a regular file"),
    ("sparse", "has %d bytes, more than the %d read at most" % (_files.MAX_FILE_SIZE + 1, _files.MAX_FILE_SIZE)),
])
def test_what_is_not_a_regular_file_is_refused_before_it_is_opened(tmp_path, opened, name, words):
    path = special(tmp_path, name)
    with pytest.raises(_files.FileError) as caught:
        _files.read_bytes(path, what="path")
    assert str(caught.value).startswith("path %s " % path) and words in str(caught.value)
    assert opened == []


def test_a_regular_file_is_opened_once_and_read(tmp_path, opened):
    path = tmp_path / "ks.cfg"
    path.write_bytes(b"rootpw --lock\n")
    assert _files.read_bytes(str(path)) == b"rootpw --lock\n"
    assert opened == [str(path)]
    assert _files.read_bytes(str(tmp_path / "missing.cfg")) is None
    assert _files.open_regular(str(tmp_path / "missing.cfg")) is None


def test_a_file_replaced_between_stat_and_open_is_refused(tmp_path, monkeypatch):
    path, other = tmp_path / "ks.cfg", tmp_path / "other.cfg"
    path.write_text("rootpw --lock\n")
    other.write_text("something else\n")
    real = os.open

    def replacing(name, *args, **kwargs):
        if os.fspath(name) == str(path):
            os.replace(str(other), str(path))
        return real(name, *args, **kwargs)
    monkeypatch.setattr(os, "open", replacing)
    with pytest.raises(_files.FileError, match="file %s was replaced while it was being opened" % path):
        _files.read_bytes(str(path))
