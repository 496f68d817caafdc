# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""ks_pwpolicy under hostile conditions: what it writes, leaves behind and says."""

import errno
import json
import os
import stat
import subprocess
import sys
import textwrap
from unittest import mock

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _files
from ansible_collections.kickstart.pwpolicy.plugins.modules import ks_pwpolicy as module
from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import COLLECTIONS_DIR
from ansible_collections.kickstart.pwpolicy.tests.unit.module_runner import module_calls, run_module

MARKER = "Zq7-MARKER-secret-9vX"
TEMPLATE = ("#version=RHEL8\nlang en_US.UTF-8\nrootpw --plaintext %s\n"
            "autopart --encrypted --passphrase=%s\n" % (MARKER, MARKER))

run, ok, fail = module_calls(module.main)


def listing(directory):
    return sorted(os.listdir(str(directory)))


def test_path_and_content_writes_once_and_is_idempotent(capsys, tmp_path):
    path = tmp_path / "server.ks"
    first = ok(capsys, path=str(path), content=TEMPLATE, product="server", target="RHEL8")
    assert first["changed"]
    assert stat.S_IMODE(os.stat(str(path)).st_mode) == 0o600
    text = path.read_text()
    assert text.startswith(TEMPLATE) and "%anaconda\npwpolicy root" in text
    assert "kickstart" not in first
    assert MARKER not in json.dumps(first, ensure_ascii=False)  # not even in the invocation
    second = ok(capsys, path=str(path), content=TEMPLATE, product="server", target="RHEL8")
    assert not second["changed"]
    assert listing(tmp_path) == ["server.ks"]


def test_path_and_content_check_mode_writes_nothing(capsys, tmp_path):
    path = tmp_path / "server.ks"
    result = ok(capsys, path=str(path), content=TEMPLATE, product="server", target="RHEL8",
                check_mode=True)
    assert result["changed"] and listing(tmp_path) == []


def test_path_and_content_diff_hides_secrets(capsys, tmp_path):
    path = tmp_path / "server.ks"
    path.write_text("#version=RHEL8\nrootpw --plaintext %s-old\n" % MARKER)
    result = run_module(module.main, capsys, dict(path=str(path), content=TEMPLATE, product="server",
                                                  target="RHEL8"), diff=True)
    assert "<hidden>" in result["diff"]["after"] and "<hidden>" in result["diff"]["before"]
    assert MARKER not in json.dumps(result, ensure_ascii=False)


def test_diff_hides_secret_lines_inside_the_section(capsys):
    text = "#version=F35\n%%anaconda\nrootpw --plaintext %s\npwpolicy root --minlen=6\n%%end\n" % MARKER
    result = run_module(module.main, capsys, dict(content=text, state="absent", target="F35",
                                                  validate=False), diff=True)
    assert "rootpw --plaintext <hidden>" in result["diff"]["before"]
    assert MARKER not in json.dumps([result["diff"], result.get("warnings")], ensure_ascii=False)
    # where the installer reads the section the stray command is an error, without the secret
    failed = run_module(module.main, capsys, dict(content=text, product="server", target="RHEL8",
                                                  validate=False), diff=True)
    assert failed.get("failed") and "Unknown command" in failed["msg"]
    assert MARKER not in failed["msg"]


def test_new_file_is_0600_before_it_appears(capsys, tmp_path, monkeypatch):
    seen = []
    real_rename = os.rename

    def watching_rename(src, dst):
        seen.append(stat.S_IMODE(os.stat(src).st_mode))
        return real_rename(src, dst)

    monkeypatch.setattr(os, "rename", watching_rename)
    old_umask = os.umask(0)  # the widest umask: a plain create would be 0666
    try:
        ok(capsys, path=str(tmp_path / "new.ks"), content=TEMPLATE, product="server", target="RHEL8")
    finally:
        os.umask(old_umask)
    assert seen == [0o600]
    assert stat.S_IMODE(os.stat(str(tmp_path / "new.ks")).st_mode) == 0o600


def test_unknown_owner_leaves_the_file_untouched(capsys, tmp_path):
    path = tmp_path / "server.ks"
    path.write_text(TEMPLATE)
    msg = fail(capsys, path=str(path), product="server", target="RHEL8", owner="no-such-user-kspw")
    assert "no-such-user-kspw" in msg
    assert path.read_text() == TEMPLATE
    assert listing(tmp_path) == ["server.ks"]


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES])
def test_write_errors_name_the_path_and_what_to_do(capsys, tmp_path, code):
    path = tmp_path / "server.ks"
    path.write_text(TEMPLATE)
    with mock.patch.object(_files.tempfile, "mkstemp", side_effect=OSError(code, os.strerror(code))):
        result = run(capsys, path=str(path), product="server", target="RHEL8")
    assert result["failed"] and "exception" not in result
    assert str(path) in result["msg"] and "Traceback" not in result["msg"]
    assert ("free space" if code == errno.ENOSPC else "writable") in result["msg"]
    assert path.read_text() == TEMPLATE


def test_failed_rename_leaves_no_temporary_file(capsys, tmp_path):
    path = tmp_path / "server.ks"
    path.write_text(TEMPLATE)
    with mock.patch.object(os, "rename", side_effect=OSError(errno.ENOSPC, "No space left on device")):
        result = run(capsys, path=str(path), product="server", target="RHEL8")
    assert result["failed"] and "free space" in result["msg"]
    assert listing(tmp_path) == ["server.ks"] and path.read_text() == TEMPLATE


def test_exit_in_the_middle_of_a_write_leaves_no_temporary_file(capsys, tmp_path):
    path = tmp_path / "server.ks"
    path.write_text(TEMPLATE)
    with mock.patch.object(_files, "_write_all", side_effect=SystemExit(143)):
        with pytest.raises(SystemExit):
            with mock.patch.object(sys, "argv", ["ks_pwpolicy"]):
                from ansible_collections.kickstart.pwpolicy.tests.unit.module_runner import patch_module_args
                with patch_module_args(dict(path=str(path), product="server", target="RHEL8",
                                            _ansible_remote_tmp="/tmp", _ansible_keep_remote_files=False)):
                    module.main()
    capsys.readouterr()
    assert listing(tmp_path) == ["server.ks"] and path.read_text() == TEMPLATE


@pytest.mark.parametrize("source_mode, backup_mode", [(0o644, 0o600), (0o600, 0o600), (0o400, 0o400)])
def test_backup_mode_and_name(capsys, tmp_path, source_mode, backup_mode):
    path = tmp_path / "server.ks"
    path.write_text(TEMPLATE)
    os.chmod(str(path), source_mode)
    # A link where the old, predictable backup name would have been.
    victim = tmp_path / "victim"
    victim.write_text("keep")
    result = ok(capsys, path=str(path), product="server", target="RHEL8", backup=True)
    name = result["backup_file"]
    assert os.path.dirname(name) == str(tmp_path) and name.endswith("~")
    assert not os.path.islink(name)
    assert stat.S_IMODE(os.lstat(name).st_mode) == backup_mode
    assert open(name).read() == TEMPLATE and victim.read_text() == "keep"


def test_failed_backup_is_removed_and_the_file_untouched(capsys, tmp_path):
    path = tmp_path / "server.ks"
    path.write_text(TEMPLATE)
    real = _files._write_all

    def full_disk(fd, data):
        os.write(fd, data[:10])
        raise OSError(errno.ENOSPC, "No space left on device")

    with mock.patch.object(_files, "_write_all", side_effect=full_disk):
        msg = fail(capsys, path=str(path), product="server", target="RHEL8", backup=True)
    assert "back" in msg and "free space" in msg
    assert listing(tmp_path) == ["server.ks"] and path.read_text() == TEMPLATE
    assert real is _files._write_all


def test_fifo_is_refused_without_blocking(capsys, tmp_path):
    fifo = tmp_path / "ks.fifo"
    os.mkfifo(str(fifo))
    assert "FIFO" in fail(capsys, path=str(fifo), product="server", target="RHEL8")


def test_device_is_refused(capsys):
    assert "character device" in fail(capsys, path="/dev/zero", product="server", target="RHEL8")


def test_huge_file_is_refused(capsys, tmp_path):
    path = tmp_path / "huge.ks"
    with open(str(path), "wb") as handle:
        handle.truncate(_files.MAX_FILE_SIZE + 1)  # sparse: no disk used
    msg = fail(capsys, path=str(path), product="server", target="RHEL8")
    assert "more than" in msg and str(path) in msg


CONCURRENT = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, %(collections)r)
    from ansible_collections.kickstart.pwpolicy.plugins.modules import ks_pwpolicy
    from ansible_collections.kickstart.pwpolicy.tests.unit.module_runner import patch_module_args
    name, path, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    for minlen in range(6, 6 + rounds):
        args = dict(path=path, policies={name: {"minlen": minlen}}, target="F33",
                    _ansible_remote_tmp="/tmp", _ansible_keep_remote_files=False)
        with patch_module_args(args):
            try:
                ks_pwpolicy.main()
            except SystemExit:
                pass
""")


def test_concurrent_edits_lose_no_update(tmp_path):
    path = tmp_path / "shared.ks"
    path.write_text("#version=F33\nlang en_US.UTF-8\n")
    script = tmp_path / "edit.py"
    script.write_text(CONCURRENT % dict(collections=COLLECTIONS_DIR))
    rounds = 40
    procs = [subprocess.Popen([sys.executable, str(script), name, str(path), str(rounds)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
             for name in ("root", "user", "luks")]
    for proc in procs:
        assert proc.wait(timeout=300) == 0, proc.stderr.read()
    text = path.read_text()
    last = 6 + rounds - 1
    for name in ("root", "user", "luks"):
        assert "pwpolicy %s --minlen=%d " % (name, last) in text, text


def test_an_unlockable_directory_is_an_error_not_a_traceback(capsys, tmp_path):
    with mock.patch.object(_files.fcntl, "flock", side_effect=OSError(errno.ENOLCK, "No locks available")):
        result = run(capsys, path=str(tmp_path / "a.ks"), product="server", target="RHEL8")
    assert result["failed"] and "exception" not in result and "lock" in result["msg"]


def test_tiny_content_is_not_masked_in_the_output(capsys, tmp_path):
    result = ok(capsys, path=str(tmp_path / "a.ks"), content="", product="server", target="RHEL8")
    assert result["target"] == "RHEL8" and "****" not in json.dumps(result)
