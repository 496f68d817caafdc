# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The verify_secrets action with a fake slurp: the host's files fetched as no_log, only labels and verdicts back."""

import base64

from ansible.utils.display import Display

from ansible_collections.kickstart.pwpolicy.plugins.action.verify_secrets import ActionModule
from ansible_collections.kickstart.pwpolicy.tests.unit.hashes import crypt_hash, grub_hash, needs_libxcrypt
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak

ROOT_PW = "Root-Vaulted-Gq7%wZ4!vX8n"
ALICE_PW = "Alice-Vaulted-Hk4$mB7&nC1q"
BOOT_PW = "Boot-Vaulted-Rb2#kT5^yN9d"
CHANGED = "Changed-On-Host-Vz3!qP7"


class AnsibleVaultError(Exception):
    pass


class _Task(object):
    no_log = False
    check_mode = False
    args = {}


class _Action(ActionModule):
    """The action with slurp answered from ``files`` ({path on the host: text}) and its calls recorded."""

    def __init__(self, files):  # pylint: disable=super-init-not-called
        self._task = _Task()
        self._templar = None
        self.files = files
        self.calls = []

    def _template(self, value):
        if value == "!vault undecryptable":
            raise AnsibleVaultError("Decryption failed on " + ROOT_PW)
        return value

    def _execute_module(self, module_name=None, module_args=None, task_vars=None, **kwargs):
        self.calls.append((module_name, dict(module_args), self._task.no_log))
        text = self.files.get(module_args["src"])
        if text is None:
            return {"failed": True, "msg": "file not found: %s" % module_args["src"]}
        return {"content": base64.b64encode(text.encode()).decode(), "encoding": "base64",
                "source": module_args["src"]}


def role_vars(**changes):
    found = {"inventory_hostname": "web01", "kickstart_root_password": ROOT_PW,
             "kickstart_users": [{"name": "alice", "password": ALICE_PW}, {"name": "bob"}],
             "kickstart_bootloader_password": BOOT_PW}
    found.update(changes)
    return found


@needs_libxcrypt
def test_files_under_root_fetched_as_no_log_and_only_verdicts_returned(capsys):
    root_hash, alice_hash, boot_hash = crypt_hash(ROOT_PW, b"$6$", 5000), crypt_hash(CHANGED, b"$y$", 5), \
        grub_hash(BOOT_PW, 1000)
    files = {"/srv/tree/etc/shadow": "root:%s:1::::::\nalice:%s:1::::::\nbob:!!:1::::::\n" % (root_hash, alice_hash),
             "/srv/tree/boot/grub2/user.cfg": "GRUB2_PASSWORD=%s\n" % boot_hash}
    action = _Action(files)
    verbosity, Display().verbosity = Display().verbosity, 3
    try:
        result = action._run({}, {"root": "/srv/tree"}, role_vars())
    finally:
        Display().verbosity = verbosity
    assert result == {"changed": False, "secrets": [
        {"secret": "root", "where": {"file": "/etc/shadow", "line": 1}, "matches": True, "reason": None},
        {"secret": "user:alice", "where": {"file": "/etc/shadow", "line": 2}, "matches": False, "reason": None},
        {"secret": "bootloader", "where": {"file": "/boot/grub2/user.cfg", "line": 1}, "matches": True,
         "reason": None}]}
    assert action.calls == [
        ("ansible.builtin.slurp", {"src": "/srv/tree" + path}, True)
        for path in ("/etc/shadow", "/boot/grub2/user.cfg", "/boot/grub2/grub.cfg", "/boot/grub/grub.cfg")]
    assert action._task.no_log is False
    shown = capsys.readouterr()
    for value in (ROOT_PW, ALICE_PW, BOOT_PW, CHANGED, root_hash, alice_hash, boot_hash,
                  root_hash.rsplit("$", 2)[1], boot_hash.split(".")[4]):
        assert_no_leak(value, result, shown.out, shown.err, piece=12)


def test_an_undecryptable_secret_and_a_missing_shadow_are_reasons_never_the_value():
    undecryptable = role_vars(kickstart_root_password="!vault undecryptable", kickstart_users=None,
                              kickstart_bootloader_password=None)
    action = _Action({})
    result = action._run({}, {}, undecryptable)
    assert [call[1]["src"] for call in action.calls][0] == "/etc/shadow"
    assert result["secrets"] == [{
        "secret": "root", "where": None, "matches": None,
        "reason": "/etc/shadow could not be read from the host (run the task with become)"}]
    files = {"/etc/shadow": "root:$6$saltsalt$%s:1::::::\n" % ("a" * 86)}
    result = _Action(files)._run({}, {}, undecryptable)
    assert result["secrets"][0]["reason"].startswith("the vaulted value cannot be decrypted with the vault secrets")
    assert_no_leak(ROOT_PW, result, piece=12)


def test_root_must_be_an_absolute_path():
    result = _Action({})._run({}, {"root": "srv/tree"}, role_vars())
    assert result["failed"] and result["msg"] == (
        "verify_secrets: root must be an absolute path (the host's / by default)")
