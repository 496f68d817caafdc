# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The installed host's posture read (bench.py step 9): one host read whole, against 200 ms.

The host is the RHEL 9 tree after a STIG remediation of the unit tests'
fixtures (tests/unit/plugins/module_utils/fixtures/host/rhel9-stig), with
what the tests make in their run: a shadow file of 100 accounts hashed by
libxcrypt (SHA-512 crypt at 5,000 rounds), GRUB 2's password in user.cfg, a
kickstart left in /root and three installer logs, and a LUKS2 header made by
``cryptsetup luksFormat`` on a file (argon2id, two key slots) read through
the real cryptsetup.  Each read is ``_posture/host.py``'s ``read_host``, as
``posture_info`` with ``source: host`` makes it; the median of the runs is
reported against the 200 ms a host's read may take.
"""

import hashlib
import os
import shutil
import subprocess
import tempfile

from benchlib import median_time, report

BUDGET_SECONDS = 0.2
ACCOUNTS = 100
SEARCH = os.pathsep.join([os.environ.get("PATH", os.defpath), "/usr/sbin", "/sbin"])
ENV = dict(os.environ, PATH=SEARCH, LC_ALL="C")


def _write(root, path, text, mode=0o644):
    full = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as handle:
        handle.write(text)
    os.chmod(full, mode)


def _tree(work, fixtures, lib):
    """The host's tree under ``work``; its path."""
    root = os.path.join(work, "host")
    shutil.copytree(os.path.join(fixtures, "rhel9-stig"), root)
    os.makedirs(os.path.join(root, "etc", "pam.d"))
    for stack in ("system-auth", "password-auth"):  # the links authselect makes
        os.symlink("/etc/authselect/" + stack, os.path.join(root, "etc", "pam.d", stack))
    _write(root, "/etc/os-release", 'ID="rhel"\nID_LIKE="fedora"\nVERSION_ID="9.6"\n')
    lines = []
    for number in range(ACCOUNTS):
        hashed = lib.crypt(b"Bench-Host-%d" % number, lib.gensalt(b"$6$", 5000, None)).decode()
        lines.append("user%03d:%s:19700:0:99999:7:::\n" % (number, hashed))
    _write(root, "/etc/shadow", "".join(lines), 0o600)
    salt = os.urandom(64)
    digest = hashlib.pbkdf2_hmac("sha512", b"Bench-Grub", salt, 10000)
    _write(root, "/boot/grub2/user.cfg", "GRUB2_PASSWORD=grub.pbkdf2.sha512.10000.%s.%s\n"
           % (salt.hex().upper(), digest.hex().upper()), 0o600)
    _write(root, "/root/anaconda-ks.cfg", "#version=RHEL9\nrootpw --iscrypted %s\n%s" % (
        lines[0].split(":")[1], "".join("part /srv%d --size=100\n" % n for n in range(200))), 0o600)
    for name in ("anaconda.log", "program.log", "storage.log"):
        _write(root, "/var/log/anaconda/" + name, "".join("12:00:%02d,000 INFO anaconda: step %d\n" % (n % 60, n)
                                                          for n in range(2000)))
    return root


def _header(work):
    """A LUKS2 header made by cryptsetup on a file (argon2id, then a PBKDF2 key slot), or None without it."""
    cryptsetup = shutil.which("cryptsetup", path=SEARCH)
    if cryptsetup is None:
        return None
    path, key = os.path.join(work, "luks.img"), os.path.join(work, "key")
    with open(key, "w") as handle:
        handle.write("Bench-Host-Luks")
    with open(path, "wb") as handle:
        handle.truncate(20 * 1024 * 1024)
    for command in (["luksFormat", "--type", "luks2", "--pbkdf", "argon2id", "--pbkdf-memory", "32768",
                     "--pbkdf-force-iterations", "4", "--pbkdf-parallel", "1", path, key],
                    ["luksAddKey", "--key-file", key, "--pbkdf", "pbkdf2", "--pbkdf-force-iterations", "1000",
                     path, key]):
        subprocess.run([cryptsetup, "--batch-mode"] + command, check=True, env=ENV, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    return path


def _run(argv):
    """What posture_info's runner does: the command's ``(rc, stdout, stderr)``, 127 where it is missing."""
    found = shutil.which(argv[0], path=SEARCH)
    if found is None:
        return 127, "", "%s is not installed" % argv[0]
    done = subprocess.run([found] + list(argv[1:]), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, env=ENV, check=False)
    return done.returncode, done.stdout, done.stderr


def bench_host(root_dir, runs):
    from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _libxcrypt
    from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.host import read_host
    lib = _libxcrypt.load()
    if lib is None:
        print("9. installed host: libxcrypt not available here, skipped")
        return
    fixtures = os.path.join(root_dir, "tests", "unit", "plugins", "module_utils", "fixtures", "host")
    with tempfile.TemporaryDirectory(prefix="kspw-host-") as work:
        root = _tree(work, fixtures, lib)
        header = _header(work)
        what = "%d accounts, GRUB 2, a kickstart and 3 logs left%s" % (
            ACCOUNTS, ", a LUKS2 header through cryptsetup" if header else " (no cryptsetup here: no LUKS header)")
        print("9. installed host: one host's posture read whole (%s) vs %d ms" % (what, BUDGET_SECONDS * 1000))
        posture = read_host(root, _run, [header] if header else [])
        if len(posture["accounts"]) != ACCOUNTS or (header and len(posture["devices"]) != 1) or posture["unknown"]:
            raise SystemExit("installed host: the read is not the host built (%d accounts, %d devices, unknown %s)"
                             % (len(posture["accounts"]), len(posture["devices"]), posture["unknown"]))
        ours = median_time(lambda: read_host(root, _run, [header] if header else []), runs)
    report("posture read of one host (%s) vs %d ms" % (what, BUDGET_SECONDS * 1000), ours, BUDGET_SECONDS, 1,
           "read")
