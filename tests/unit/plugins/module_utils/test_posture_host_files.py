# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A host's files under a root: links followed inside it, bounded reads and listings, the host's paths."""

import errno
import json
import os

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture import host_files
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.host_files import HostFiles, unknown_entry


def write(root, path, text=""):
    local = os.path.join(root, path.lstrip("/"))
    if not os.path.isdir(os.path.dirname(local)):
        os.makedirs(os.path.dirname(local))
    with open(local, "w") as handle:
        handle.write(text)
    return local


def link(root, path, target):
    local = os.path.join(root, path.lstrip("/"))
    if not os.path.isdir(os.path.dirname(local)):
        os.makedirs(os.path.dirname(local))
    os.symlink(target, local)


@pytest.fixture
def root(tmp_path):
    return str(tmp_path / "host")


def test_relative_links_are_followed_inside_root(root):
    write(root, "/usr/share/data/real.conf", "minlen = 12\n")
    link(root, "/etc/conf.d", "../usr/share/data")
    link(root, "/etc/data.conf", "conf.d/./real.conf")
    files = HostFiles(root)
    assert files.resolve("/etc/data.conf") == "/usr/share/data/real.conf"
    assert files.read_text("/etc/data.conf", 100) == "minlen = 12\n"
    assert files.is_file("/etc/data.conf") and files.is_dir("/etc/conf.d") and not files.is_dir("/etc/data.conf")
    assert files.is_link("/etc/data.conf") and files.link("/etc/data.conf") == "/usr/share/data/real.conf"
    # a file in a linked directory is no link itself, though its directory is
    assert not files.is_link("/etc/conf.d/real.conf") and files.link("/etc/conf.d/real.conf") is None
    assert files.unknowns == []


def test_an_absolute_link_starts_again_at_root(tmp_path, root):
    outside = tmp_path / "outside.conf"
    outside.write_text("outside\n")
    write(root, "/etc/authselect/system-auth", "password sufficient pam_unix.so\n")
    link(root, "/etc/pam.d/system-auth", "/etc/authselect/system-auth")
    link(root, "/etc/escape", str(outside))  # the same absolute path under root: not there
    files = HostFiles(root)
    assert files.link("/etc/pam.d/system-auth") == "/etc/authselect/system-auth"
    assert files.read_text("/etc/pam.d/system-auth", 100) == "password sufficient pam_unix.so\n"
    assert files.read_text("/etc/escape", 100) is None
    assert files.lexists("/etc/escape") and not files.exists("/etc/escape") and not files.is_file("/etc/escape")
    assert files.unknowns == []


def test_dot_dot_stops_at_root(tmp_path, root):
    (tmp_path / "outside-auth").write_text("password sufficient pam_unix.so md5\n")
    link(root, "/etc/pam.d/system-auth", "../../../outside-auth")
    write(root, "/etc/passwd", "root:x:0:0::/root:/bin/sh\n")
    files = HostFiles(root)
    assert files.resolve("/etc/pam.d/system-auth") == "/outside-auth"
    assert files.read_text("/etc/pam.d/system-auth", 100) is None
    assert files.resolve("/../../etc/./passwd") == "/etc/passwd"
    assert files.read_text("/../../etc/passwd", 100) == "root:x:0:0::/root:/bin/sh\n"
    assert files.list_dir("/..") == ["etc"]
    assert files.unknowns == []


def test_a_loop_of_links_is_unknown_never_a_traceback(root):
    link(root, "/etc/a", "b")
    link(root, "/etc/b", "/etc/a")
    link(root, "/etc/dir", "dir")
    unknown = []
    files = HostFiles(root, unknown)
    assert files.resolve("/etc/a") is None and files.link("/etc/a") is None
    assert not files.is_file("/etc/a") and not files.is_dir("/etc/dir") and not files.exists("/etc/a")
    assert files.is_link("/etc/a") and files.lexists("/etc/a")
    assert files.read_text("/etc/a", 100) is None
    assert files.list_dir("/etc/dir/sub", 10) == []
    assert unknown == [
        {"what": "cannot resolve /etc/a: more than 40 symbolic links (a loop)", "scope": "host",
         "where": {"file": "/etc/a"}},
        {"what": "cannot resolve /etc/dir/sub: more than 40 symbolic links (a loop)", "scope": "host",
         "where": {"file": "/etc/dir/sub"}}]


def test_forty_links_are_followed_and_one_more_is_unknown(root):
    write(root, "/etc/target", "found\n")
    for number in range(host_files.MAX_LINKS + 1):
        link(root, "/etc/l%d" % number, "l%d" % (number + 1) if number < host_files.MAX_LINKS else "target")
    files = HostFiles(root)
    assert files.read_text("/etc/l1", 100) == "found\n"  # 40 links
    assert files.read_text("/etc/l0", 100) is None  # 41
    assert [entry["where"] for entry in files.unknowns] == [{"file": "/etc/l0"}]


def test_a_file_over_the_limit_or_not_regular_is_unknown_with_the_hosts_paths(root):
    write(root, "/etc/real", "x" * 11)
    link(root, "/etc/big", "real")
    os.mkfifo(os.path.join(root, "etc", "fifo"))
    files = HostFiles(root)
    assert files.read_text("/etc/real", 11) == "x" * 11
    assert files.read_text("/etc/real", 10) is None
    assert files.read_text("/etc/big", 10) is None
    assert files.read_text("/etc/fifo", 10) is None
    assert files.read_text("/etc", 10) is None
    assert [(entry["what"], entry["where"]) for entry in files.unknowns] == [
        ("file /etc/real has 11 bytes, more than the 10 read at most", {"file": "/etc/real"}),
        ("file /etc/big (which leads to /etc/real) has 11 bytes, more than the 10 read at most",
         {"file": "/etc/big"}),
        ("file /etc/fifo is a FIFO (named pipe), not a regular file", {"file": "/etc/fifo"}),
        ("file /etc is a directory, not a regular file", {"file": "/etc"})]
    assert root not in json.dumps(files.unknowns)


def test_a_listing_is_in_byte_order_and_bounded(root):
    for name in ("b", "\u00e9t\u00e9", "a", "B", "10", "9", "a.conf"):
        write(root, "/etc/d/" + name)
    files = HostFiles(root)
    assert files.list_dir("/etc/d") == ["10", "9", "B", "a", "a.conf", "b", "\u00e9t\u00e9"]
    assert files.unknowns == []
    assert files.list_dir("/etc/d", 3) == ["10", "9", "B"]
    assert files.list_dir("/etc/d", 1, lambda name: name.startswith("a"), "drop-ins") == ["a"]
    assert [(entry["what"], entry["where"]) for entry in files.unknowns] == [
        ("/etc/d holds 7 entries; the first 3 by name are read", {"file": "/etc/d"}),
        ("/etc/d holds 2 drop-ins; the first 1 by name are read", {"file": "/etc/d"})]
    # no directory, or a file: nothing to list, nothing unknown
    assert files.list_dir("/etc/none", 3) == [] and files.list_dir("/etc/d/a", 3) == []
    assert len(files.unknowns) == 2


def test_a_directory_that_cannot_be_listed_is_unknown_with_the_hosts_path(root, monkeypatch):
    write(root, "/etc/closed/file")

    def refused(path):
        raise OSError(errno.EACCES, os.strerror(errno.EACCES), path)

    monkeypatch.setattr(host_files.os, "listdir", refused)  # as for a user that may not read it (not root)
    files = HostFiles(root)
    assert files.list_dir("/etc/closed", 3) == []
    assert [(entry["what"], entry["where"]) for entry in files.unknowns] == [
        ("cannot list /etc/closed: Permission denied", {"file": "/etc/closed"})]


def test_unknown_entries():
    assert unknown_entry("odd", "/etc/x") == {"what": "odd", "scope": "host", "where": {"file": "/etc/x"}}
    unknown = []
    files = HostFiles("/", unknown)
    assert files.unknown("odd", "/etc/x", 3) == {"what": "odd", "scope": "host", "where": {"file": "/etc/x", "line": 3}}
    assert unknown == [{"what": "odd", "scope": "host", "where": {"file": "/etc/x", "line": 3}}]
