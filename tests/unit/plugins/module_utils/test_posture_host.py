# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""An installed host read whole (_posture/host.py) and judged by the one judge.

The trees are the distributions' files (fixtures/host, see its README) with a
shadow file libxcrypt writes here, a GRUB 2 password grub-mkpasswd-pbkdf2
makes and a LUKS header cryptsetup makes, all in the test run.
"""

import os

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.host import read_host, read_os
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.judge import judge
from ansible_collections.kickstart.pwpolicy.tests.unit.hashes import crypt_hash, needs_libxcrypt
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.module_utils.test_host_disk import (  # noqa: F401  pylint: disable=unused-import
    GRUB_SECRET,
    grub_hash,
    headers,
    real_run,
)
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.module_utils.test_posture_host_auth import tree, write

ROOT_SECRET = "Installed-Root-5e0b"
RHEL9 = 'NAME="Red Hat Enterprise Linux"\nVERSION="9.6 (Plow)"\nID="rhel"\nID_LIKE="fedora"\nVERSION_ID="9.6"\n'


def host(tmp_path, name, rounds, grub=True):
    """The tree ``name`` made a RHEL 9 host: os-release, a shadow file (root's password at ``rounds`` SHA-512
    crypt rounds, a locked service account with an MD5 hash), GRUB 2's password, a kickstart left in /root."""
    root = tree(tmp_path, name)
    write(root, "/etc/os-release", RHEL9)
    hashed = crypt_hash(ROOT_SECRET, b"$6$", rounds)
    write(root, "/etc/shadow", "root:%s:19700:0:99999:7:::\nold:!%s:19700::::::\n"
          % (hashed, crypt_hash("Old-Service-1", b"$1$")))
    if grub:
        write(root, "/boot/grub2/user.cfg", "GRUB2_PASSWORD=%s\n" % grub_hash(10000))
    write(root, "/root/original-ks.cfg", "rootpw --plaintext %s\n" % ROOT_SECRET)
    return root, hashed


def rules(found):
    return sorted((item["rule"], item["what"]) for item in found)


def test_os_release_names_the_release():
    def files_with(text):
        class Files(object):
            def read_text(self, path, limit):
                return text if path == "/etc/os-release" else None
        return Files()
    assert read_os(files_with(RHEL9))["target"] == "RHEL9"
    assert read_os(files_with('ID=almalinux\nVERSION_ID="10.0"\n'))["target"] == "RHEL10"
    assert read_os(files_with("ID=fedora\nVERSION_ID=42\n"))["target"] == "F42"
    assert read_os(files_with("ID=debian\nVERSION_ID=\"13\"\n"))["target"] is None


@needs_libxcrypt
def test_a_stig_remediated_host_meets_the_stig_but_its_root_password(tmp_path, headers):  # noqa: F811
    root, hashed = host(tmp_path, "rhel9-stig", 5000)
    posture = read_host(root, real_run, [headers["luks2"]])
    assert posture["source"] == "host" and posture["target"] == "RHEL9"
    assert posture["pwquality"]["settings"]["minlen"] == 15
    assert posture["pwquality"]["origins"]["minlen"]["file"] == "/etc/security/pwquality.conf"
    assert [(a["name"], a["form"], a["scheme"], a["cost"], a["usable"]) for a in posture["accounts"]] == [
        ("root", "crypt", "sha512crypt", 5000, True), ("old", "locked", "md5crypt", None, False)]
    assert posture["devices"][0]["luks_version"] == 2 and posture["bootloader"]["form"] == "grub_pbkdf2"
    assert [(item["path"], item["plaintext"]) for item in posture["leftovers"] if item["exists"]] == [
        ("/root/original-ks.cfg", 1)]
    judged = judge(posture, ["stig"], posture["target"])
    # Root's password was set before the remediation raised the rounds; the locked MD5 account opens nothing.
    assert [(d["rule"], d["what"], d["found"], d["where"]) for d in judged["deviations"]] == [
        ("RHEL-09-611050", "min_rounds", "the password of root has rounds 5000", {"file": "/etc/shadow", "line": 1})]
    assert "passwd" in judged["deviations"][0]["fix"]
    # Which file systems the LUKS device holds is not read: not checked, never accepted.
    assert rules(judged["not_checked"]) == [("RHEL-09-231190", "encryption")]
    for value in (ROOT_SECRET, hashed, hashed.split("$")[-1], GRUB_SECRET):
        assert_no_leak(value, posture)
        assert_no_leak(value, judged)


@needs_libxcrypt
def test_a_host_as_installed_deviates_where_the_stig_asks_more(tmp_path):
    root, dummy = host(tmp_path, "rhel9", 656000, grub=False)
    posture = read_host(root)  # no command runner: the LUKS devices are not read
    judged = judge(posture, ["stig"], "RHEL9")
    found = dict((d["what"], d) for d in judged["deviations"])
    assert found["minlen"]["found"] == "minlen not set (libpwquality's default 8)"
    assert "/etc/security/pwquality.conf" in found["minlen"]["fix"]
    assert found["bootloader_password"]["found"] == "no GRUB 2 configuration found"
    assert "grub2-setpassword" in found["bootloader_password"]["fix"]
    # pam_unix has no rounds=: SHA-512 crypt's 5,000 in both stacks; login.defs has no SHA_CRYPT_MIN_ROUNDS.
    rounds = [d for d in judged["deviations"] if d["what"] == "min_rounds"]
    assert sorted(d["found"] for d in rounds) == [
        "login.defs without SHA_CRYPT_MIN_ROUNDS (5000)", "pam_unix in password-auth: no rounds= (5000)",
        "pam_unix in system-auth: no rounds= (5000)"]
    assert all(d["where"] is None or d["where"]["file"].startswith("/etc/") for d in rounds)
    assert ("RHEL-09-231190", "encryption") in rules(judged["not_checked"])


def test_a_yescrypt_host_deviates_in_pam_and_login_defs(tmp_path):
    root = tree(tmp_path, "rhel10")
    write(root, "/etc/os-release", 'ID="rhel"\nVERSION_ID="10.0"\n')
    posture = read_host(root)
    judged = judge(posture, ["stig"], posture["target"])
    schemes = sorted(d["found"] for d in judged["deviations"] if d["what"] == "schemes")
    assert schemes == ["login.defs ENCRYPT_METHOD YESCRYPT", "pam_unix in password-auth hashes new passwords with "
                       "yescrypt", "pam_unix in system-auth hashes new passwords with yescrypt"]


def test_bad_input_is_named_by_file_and_line_never_a_crash_or_a_value(tmp_path, headers):  # noqa: F811
    root = tree(tmp_path, "rhel9")
    write(root, "/etc/os-release", RHEL9)
    # A hash of a scheme no libxcrypt knows, and a broken PAM rule (two words) in system-auth.
    write(root, "/etc/shadow", "root:$9$NotAScheme$Secret-Digest-7f2a:19700:0:99999:7:::\n")
    with open(os.path.join(root, "etc", "authselect", "system-auth"), "a") as handle:
        handle.write("password requisite\n")
    # A file that cannot be read as one (a directory where login.defs is).
    os.remove(os.path.join(root, "etc", "login.defs"))
    os.makedirs(os.path.join(root, "etc", "login.defs"))
    # A LUKS header cut short: its first 4 KiB, and a file of zeros.
    corrupt = str(tmp_path / "corrupt")
    with open(headers["luks2"], "rb") as source, open(corrupt, "wb") as target:
        target.write(source.read(4096))
    posture = read_host(root, real_run, [corrupt, headers["plain"]])
    judged = judge(posture, ["stig"], posture["target"])
    places = [(item["where"].get("file"), item["where"].get("line")) for item in posture["unknown"]]
    lines = len(open(os.path.join(root, "etc", "authselect", "system-auth")).read().splitlines())
    assert ("/etc/authselect/system-auth", lines) in places
    assert any(place == ("/etc/login.defs", None) for place in places)
    assert (corrupt, None) in places and (headers["plain"], None) in places
    unparsed = [d for d in judged["deviations"] if d["what"] == "schemes" and d["where"]
                and d["where"].get("file") == "/etc/shadow"]
    assert [(d["found"], d["where"]["line"]) for d in unparsed] == [
        ("the password of root is a hash of no scheme libxcrypt knows", 1)]
    for value in ("NotAScheme", "Secret-Digest-7f2a"):
        assert_no_leak(value, posture)
        assert_no_leak(value, judged)
