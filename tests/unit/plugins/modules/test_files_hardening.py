# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The writer (module_utils/_files.py) against hostile files: foreign owners, links, numeric modes, held locks."""

import fcntl
import json
import os
import stat
import subprocess
import sys
import textwrap

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.modules import anaconda_conf
from ansible_collections.kickstart.pwpolicy.plugins.modules import ks_pwpolicy
from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import COLLECTIONS_DIR
from ansible_collections.kickstart.pwpolicy.tests.unit.module_runner import module_calls

MARKER = "Zq7-MARKER-secret-9vX"
TEMPLATE = "#version=RHEL8\nlang en_US.UTF-8\nautopart --encrypted --passphrase=%s\n" % MARKER
NOBODY = 65534

ks_run, ks_ok, ks_fail = module_calls(ks_pwpolicy.main)
conf_run, conf_ok, conf_fail = module_calls(anaconda_conf.main)

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")


def owner_mode(path):
    info = os.lstat(str(path))
    return info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)


# -- a file of another user is not inherited ---------------------------------

@needs_root
def test_a_planted_kickstart_does_not_give_its_owner_the_secrets(capsys, tmp_path):
    path = tmp_path / "server.ks"
    path.write_text("#version=RHEL8\n")
    os.chown(str(path), NOBODY, NOBODY)
    os.chmod(str(path), 0o644)
    ks_ok(capsys, path=str(path), content=TEMPLATE, product="server", target="RHEL8")
    assert MARKER in path.read_text()
    assert owner_mode(path) == (os.geteuid(), os.getegid(), 0o600)


@needs_root
def test_an_own_kickstart_keeps_its_mode_and_group(capsys, tmp_path):
    path = tmp_path / "server.ks"
    path.write_text("#version=RHEL8\n")
    os.chown(str(path), -1, NOBODY)
    os.chmod(str(path), 0o640)
    ks_ok(capsys, path=str(path), content=TEMPLATE, product="server", target="RHEL8")
    assert owner_mode(path) == (os.geteuid(), NOBODY, 0o640)


@needs_root
def test_a_given_owner_is_applied_to_a_planted_file(capsys, tmp_path):
    path = tmp_path / "server.ks"
    path.write_text("#version=RHEL8\n")
    os.chown(str(path), NOBODY, NOBODY)
    ks_ok(capsys, path=str(path), content=TEMPLATE, product="server", target="RHEL8", owner=str(NOBODY))
    assert owner_mode(path) == (NOBODY, os.getegid(), 0o600)


@needs_root
def test_a_planted_dropin_is_written_as_a_new_file(capsys, tmp_path):
    dest = tmp_path / "90.conf"
    dest.write_text("[User Interface]\n")
    os.chown(str(dest), NOBODY, NOBODY)
    os.chmod(str(dest), 0o666)
    conf_ok(capsys, product="server", target="RHEL10", dest=str(dest))
    assert owner_mode(dest) == (os.geteuid(), os.getegid(), 0o644)


# -- symbolic links are refused ---------------------------------------------

@pytest.mark.parametrize("check_mode", [False, True])
def test_a_kickstart_link_is_refused_and_both_files_stay(capsys, tmp_path, check_mode):
    real = tmp_path / "real.ks"
    real.write_text(TEMPLATE)
    link = tmp_path / "site.ks"
    os.symlink(str(real), str(link))
    msg = ks_fail(capsys, path=str(link), product="server", target="RHEL8", check_mode=check_mode)
    assert "symbolic link" in msg and str(link) in msg and str(real) in msg and "real path" in msg
    assert os.path.islink(str(link)) and real.read_text() == TEMPLATE
    assert sorted(os.listdir(str(tmp_path))) == ["real.ks", "site.ks"]


def test_a_dangling_kickstart_link_is_refused(capsys, tmp_path):
    link = tmp_path / "site.ks"
    os.symlink(str(tmp_path / "elsewhere.ks"), str(link))
    msg = ks_fail(capsys, path=str(link), content=TEMPLATE, product="server", target="RHEL8")
    assert "symbolic link" in msg and MARKER not in msg
    assert os.path.islink(str(link)) and not (tmp_path / "elsewhere.ks").exists()


@pytest.mark.parametrize("option, named", [("path", "path"), ("dest", "path"), ("updates_image", "updates_image")])
def test_a_dropin_or_image_link_is_refused(capsys, tmp_path, option, named):
    real = tmp_path / "real"
    real.write_text("old")
    link = tmp_path / "link"
    os.symlink(str(real), str(link))
    msg = conf_fail(capsys, product="server", target="RHEL10", **{option: str(link)})
    assert msg.startswith(named + " ") and "symbolic link" in msg and str(real) in msg
    assert os.path.islink(str(link)) and real.read_text() == "old"


# -- a mode given as a number is refused ------------------------------------

@pytest.mark.parametrize("mode", [600, 0o600])
def test_a_numeric_kickstart_mode_is_refused(capsys, tmp_path, mode):
    path = tmp_path / "server.ks"
    msg = ks_fail(capsys, path=str(path), content=TEMPLATE, product="server", target="RHEL8", mode=mode)
    assert "mode %d is a number" % mode in msg and "'0600'" in msg
    assert not path.exists()


def test_a_numeric_dropin_mode_is_refused(capsys, tmp_path):
    dest = tmp_path / "90.conf"
    msg = conf_fail(capsys, product="server", target="RHEL10", dest=str(dest), mode=644)
    assert "mode 644 is a number" in msg and "octal 1204" in msg
    assert not dest.exists()


def test_a_string_mode_is_octal(capsys, tmp_path):
    path = tmp_path / "server.ks"
    ks_ok(capsys, path=str(path), content=TEMPLATE, product="server", target="RHEL8", mode="640")
    assert stat.S_IMODE(os.stat(str(path)).st_mode) == 0o640


# -- a held directory lock is waited for, not forever -----------------------

LOCKED = textwrap.dedent("""
    import sys
    sys.path.insert(0, %(collections)r)
    from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _files
    from ansible_collections.kickstart.pwpolicy.plugins.modules import ks_pwpolicy
    from ansible_collections.kickstart.pwpolicy.tests.unit.module_runner import patch_module_args
    _files.LOCK_WAIT = 0.2
    with patch_module_args(dict(path=sys.argv[1], product="server", target="RHEL8",
                                _ansible_remote_tmp="/tmp", _ansible_keep_remote_files=False)):
        ks_pwpolicy.main()
""")


def test_a_held_lock_is_an_error_naming_the_directory(tmp_path):
    work = tmp_path / "ks"
    work.mkdir()
    path = work / "server.ks"
    path.write_text(TEMPLATE)
    script = tmp_path / "edit.py"
    script.write_text(LOCKED % dict(collections=COLLECTIONS_DIR))
    holder = os.open(str(work), os.O_RDONLY)  # another open file: flock conflicts as with another process
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)
        proc = subprocess.Popen([sys.executable, str(script), str(path)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            out, err = proc.communicate(timeout=120)  # a guard only: the old lock waited forever
        finally:
            proc.kill()
    finally:
        os.close(holder)
    result = json.loads(out.decode("utf-8"))
    assert result["failed"] and "exception" not in result, err
    assert "locked by another process" in result["msg"] and str(work) in result["msg"]
    assert "run again" in result["msg"]
    assert path.read_text() == TEMPLATE
