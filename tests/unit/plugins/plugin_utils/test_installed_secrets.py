# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""An installed host's hashes against the vaulted values: real libxcrypt and grub-mkpasswd-pbkdf2 hashes.

The shadow entries are hashed by the system's libxcrypt (tests/unit/hashes.py),
the GRUB 2 hashes by ``grub-mkpasswd-pbkdf2`` itself (found as the host
posture's tests find it: missing, the test is skipped, or fails with
``KSPW_REQUIRE_TOOLS=1``).  No result holds a password, a hash or a salt.
"""

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _installed_secrets as installed
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._crypt import CryptError, matches
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preflight import secret
from ansible_collections.kickstart.pwpolicy.tests.unit.hashes import crypt_hash, needs_libxcrypt
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.module_utils.test_host_disk import grub_hash

ROOT_PW = "Root-Vaulted-Qz8%vT2!wX9p"
ALICE_PW = "Alice-Vaulted-Hk4$mB7&nC1q"
BOB_PW = "Bob-Vaulted-Jd6#Pw3*Tq8@"
BOOT_PW = "Boot-Vaulted-Rb2#kT5^yN9d"
CHANGED = "Changed-On-Host-Vz3!qP7"
NAMES = {"root_password": "kickstart_root_password", "users": "kickstart_users",
         "bootloader_password": "kickstart_bootloader_password"}


def mkpasswd(password, iterations=1000):
    """``grub-mkpasswd-pbkdf2 -c ITERATIONS``'s hash of ``password``."""
    return grub_hash(iterations, password)


def items(root=ROOT_PW, users=(("alice", ALICE_PW),), boot=BOOT_PW):
    """The secret reader's items for these vaulted values."""
    found = []
    if root is not None:
        found.append(secret("root", "root", value=root, user="root", variable="kickstart_root_password"))
    for index, (name, value) in enumerate(users):
        found.append(secret("user:%s" % name, "user", value=value, user=name,
                            variable="kickstart_users[%d].password" % index))
    if boot is not None:
        found.append(secret("bootloader", "root", value=boot, user="root", variable="kickstart_bootloader_password"))
    return found


def shadow(*entries):
    return "".join("%s:%s:19700:0:99999:7:::\n" % entry for entry in entries)


def salt_of(hashed):
    """The salt of a crypt hash (``$id$[params$]SALT$HASH``)."""
    return hashed.rsplit("$", 2)[1]


def leaks(result, *values):
    for value in values:
        assert_no_leak(value, result, piece=12)


@needs_libxcrypt
def test_matching_and_changed_crypt_hashes_with_their_lines():
    root_hash = crypt_hash(ROOT_PW, b"$6$", 5000)
    alice_hash = crypt_hash(CHANGED, b"$y$", 5)
    texts = {installed.SHADOW: "# local accounts\n" + shadow(("root", root_hash), ("bin", "*"), ("alice", alice_hash))}
    result = installed.compare_secrets(items(boot=None), texts, NAMES)
    assert result == [
        {"secret": "root", "where": {"file": "/etc/shadow", "line": 2}, "matches": True, "reason": None},
        {"secret": "user:alice", "where": {"file": "/etc/shadow", "line": 4}, "matches": False, "reason": None},
    ]
    leaks(result, ROOT_PW, ALICE_PW, CHANGED, root_hash, alice_hash, salt_of(root_hash), salt_of(alice_hash))


@needs_libxcrypt
def test_locked_empty_absent_and_unparsed_accounts_say_why_nothing_was_compared():
    locked = "!" + crypt_hash(ALICE_PW, b"$6$", 5000)
    texts = {installed.SHADOW: shadow(("root", "*"), ("alice", locked), ("bob", ""), ("carol", "not-a-hash"))}
    users = (("alice", ALICE_PW), ("bob", BOB_PW), ("carol", BOB_PW), ("dave", BOB_PW))
    result = installed.compare_secrets(items(users=users, boot=None), texts, NAMES)
    assert [(entry["secret"], entry["matches"], entry["reason"]) for entry in result] == [
        ("root", None, installed.LOCKED), ("user:alice", None, installed.LOCKED),
        ("user:bob", None, installed.EMPTY), ("user:carol", None, installed.UNPARSED),
        ("user:dave", None, "the host has no entry for dave in /etc/shadow")]
    assert result[4]["where"] is None and result[2]["where"] == {"file": "/etc/shadow", "line": 3}
    leaks(result, ALICE_PW, BOB_PW, locked, "not-a-hash")


@needs_libxcrypt
def test_no_vaulted_value_an_unreadable_one_and_an_unreadable_shadow():
    root_hash = crypt_hash(ROOT_PW, b"$6$", 5000)
    texts = {installed.SHADOW: shadow(("root", root_hash), ("alice", root_hash))}
    vault_error = secret("user:alice", "user", error="cannot be decrypted with the vault secrets of this run",
                         user="alice")
    result = installed.compare_secrets([vault_error], texts, NAMES)
    assert result == [
        {"secret": "root", "where": {"file": "/etc/shadow", "line": 1}, "matches": None,
         "reason": "no vaulted value: kickstart_root_password is not set"},
        {"secret": "user:alice", "where": {"file": "/etc/shadow", "line": 2}, "matches": None,
         "reason": "the vaulted value cannot be decrypted with the vault secrets of this run"}]
    result = installed.compare_secrets(items(boot=None), {installed.SHADOW: None}, NAMES)
    assert [entry["reason"] for entry in result] == [installed.NO_SHADOW, installed.NO_SHADOW]
    leaks(result, ROOT_PW, root_hash)


def test_grub_user_cfg_matches_and_changed_by_grub_mkpasswd_pbkdf2():
    hashed = mkpasswd(BOOT_PW, 1200)
    texts = {installed.SHADOW: "", installed.USER_CFG: "GRUB2_PASSWORD=%s\n" % hashed,
             "/boot/grub2/grub.cfg": "set superusers=\"root\"\npassword_pbkdf2 root ${GRUB2_PASSWORD}\n"}
    result = installed.compare_secrets(items(root=None, users=()), texts, NAMES)
    assert result[1] == {"secret": "bootloader", "where": {"file": "/boot/grub2/user.cfg", "line": 1},
                         "matches": True, "reason": None}
    changed = installed.compare_secrets(items(root=None, users=(), boot=CHANGED), texts, NAMES)
    assert changed[1]["matches"] is False and changed[1]["reason"] is None
    salt = hashed.split(".")[4]
    leaks([result, changed], BOOT_PW, CHANGED, hashed, salt, hashed.split(".")[5])


def test_grub_cfg_root_line_the_last_wins_and_plaintext_is_compared_as_it_is():
    old, new = mkpasswd(CHANGED), mkpasswd(BOOT_PW)
    grub_cfg = ("set superusers=\"root admin\"\npassword_pbkdf2 admin %s\npassword_pbkdf2 root %s\n"
                "password_pbkdf2 root %s\n" % (old, old, new))
    result = installed.compare_secrets(items(root=None, users=()), {"/boot/grub2/grub.cfg": grub_cfg}, NAMES)
    assert result[1] == {"secret": "bootloader", "where": {"file": "/boot/grub2/grub.cfg", "line": 4},
                         "matches": True, "reason": None}
    plain = "set superusers=\"root\"\npassword root %s\n" % BOOT_PW
    result = installed.compare_secrets(items(root=None, users=()), {"/boot/grub/grub.cfg": plain}, NAMES)
    assert result[1]["matches"] is True and result[1]["where"] == {"file": "/boot/grub/grub.cfg", "line": 2}
    result = installed.compare_secrets(items(root=None, users=(), boot=CHANGED), {"/boot/grub/grub.cfg": plain},
                                       NAMES)
    assert result[1]["matches"] is False
    leaks(result, BOOT_PW, CHANGED, old, new)


def test_no_boot_loader_password_on_the_host_or_in_the_vault():
    assert installed.compare_secrets(items(root=None, users=()), {"/boot/grub2/grub.cfg": "set default=0\n"},
                                     NAMES)[1] == {"secret": "bootloader", "where": None, "matches": None,
                                                   "reason": installed.NO_GRUB}
    assert installed.compare_secrets(items(root=None, users=()), {}, NAMES)[1]["reason"] == (
        "the host's GRUB 2 files could not be read (/boot/grub2/user.cfg, /boot/grub2/grub.cfg, "
        "/boot/grub/grub.cfg)")
    # Neither vaulted nor on the host: not listed.
    assert [entry["secret"] for entry in installed.compare_secrets(items(root=None, users=(), boot=None), {},
                                                                   NAMES)] == ["root"]


def test_a_hash_beyond_the_budget_is_not_computed_and_its_cost_is_named():
    hashed = "grub.pbkdf2.sha512.9999999999.%s.%s" % ("AB" * 64, "CD" * 64)
    found, reason = installed.compare(BOOT_PW, hashed)
    assert found is None and reason.startswith("not compared: iterations 9999999999 exceeds the budget")


@needs_libxcrypt
def test_matches_hashes_again_with_the_installed_setting_in_constant_time():
    for prefix, count in ((b"$6$", 5000), (b"$y$", 5), (b"$2b$", 5)):
        hashed = crypt_hash(ROOT_PW, prefix, count)
        assert matches(ROOT_PW, hashed) is True
        assert matches(ROOT_PW + "x", hashed) is False
    with pytest.raises(CryptError) as raised:
        matches(ROOT_PW, "$6$s\u00e4lt$" + "a" * 86)
    assert ROOT_PW not in str(raised.value) and "s\u00e4lt" not in str(raised.value)
