# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The secret reader: each secret templated on its own, its error classified by class names, never quoted."""

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_reader import (
    ROLE_VARS,
    SECRET_VARS,
    TEMPLATE_ERROR,
    UNDEFINED_ERROR,
    VAULT_ERROR,
    SecretReader,
    error_kind,
)

SECRET = "Hunter-7!secret-Value"


class AnsibleVaultError(Exception):
    pass


class AnsibleUndefinedVariable(Exception):
    pass


def template(value):
    if value == "vaulted":
        raise AnsibleVaultError("Decryption failed: " + SECRET)
    if value == "undefined":
        try:
            raise KeyError(SECRET)
        except KeyError:
            raise AnsibleUndefinedVariable("'x' is undefined: " + SECRET)
    if value == "broken":
        raise ValueError(SECRET)
    return value


def test_errors_are_classified_by_their_class_names_and_causes():
    assert error_kind(AnsibleVaultError()) == VAULT_ERROR
    assert error_kind(AnsibleUndefinedVariable()) == UNDEFINED_ERROR
    try:
        try:
            raise AnsibleVaultError()
        except AnsibleVaultError:
            raise RuntimeError("wrapped")
    except RuntimeError as exc:
        assert error_kind(exc) == VAULT_ERROR
    assert error_kind(ValueError()) == TEMPLATE_ERROR


def test_one_unreadable_secret_is_its_own_error_and_the_others_are_read():
    reader = SecretReader(template)
    raw = {"root_password": "vaulted", "luks_passphrase": "undefined",
           "users": [{"name": "alice", "password": "broken"}, {"name": "bob", "password": SECRET}]}
    names = dict((arg, arg) for arg in raw)
    items = reader.secrets(raw, names, [])
    assert [(item["secret"], item["value"], item["error"]) for item in items] == [
        ("root", None, VAULT_ERROR[0]), ("user:alice", None, TEMPLATE_ERROR[0]), ("user:bob", SECRET, None),
        ("luks", None, "could not be read: it refers to the undefined variable x")]
    assert items[0]["hint"] == VAULT_ERROR[1] % "root_password"
    assert items[1]["hint"] == TEMPLATE_ERROR[1] % "users[0].password"
    assert items[3]["hint"] == ("define x where luks_passphrase refers to it (for example in the vaulted vars file), "
                                "or remove the secret")
    assert SECRET not in repr([item for item in items if item["error"]])
    # Each item names the variable it was read from, for the failure's lines.
    assert [item["variable"] for item in items] == [
        "root_password", "users[0].password", "users[1].password", "luks_passphrase"]


@pytest.mark.parametrize("text, kind", [
    ("'vault_root_password' is undefined", ("could not be read: it refers to the undefined variable "
                                            "vault_root_password", "define vault_root_password where ")),
    ("'vault_root_password' is undefined. 'vault_root_password' is undefined",  # ansible-core 2.16
     ("could not be read: it refers to the undefined variable vault_root_password", "define vault_root_password ")),
    ("object of type 'dict' has no attribute 'root'",
     ("could not be read: it refers to the undefined attribute root", "define root in what ")),
    # Nothing that is not a name is taken from Ansible's message.
    ("'not a name!' is undefined", UNDEFINED_ERROR),
    ("undefined", UNDEFINED_ERROR),
])
def test_an_undefined_variable_is_named(text, kind):
    reason, hint = error_kind(AnsibleUndefinedVariable(text))
    assert reason == kind[0] and hint.startswith(kind[1])
    assert "%s" in hint


def test_role_variables_are_read_untemplated_only_with_role_vars():
    reader = SecretReader(template)
    task_vars = {"kickstart_root_password": "{{ vault_root }}", "kickstart_users": []}
    assert reader.role_values({"role_vars": True, "users": None}, task_vars, SECRET_VARS) == (
        {"root_password": "{{ vault_root }}", "users": None, "luks_passphrase": None},
        {"root_password": "kickstart_root_password", "users": "users", "luks_passphrase": "kickstart_luks_passphrase"})
    assert reader.role_values({}, task_vars, SECRET_VARS)[0] == dict((arg, None) for arg, _var in SECRET_VARS)


def test_the_boot_loader_password_is_read_like_the_others_and_checked_as_root():
    reader = SecretReader(template)
    names = dict(ROLE_VARS)

    def raw(**given):
        return dict(dict(root_password=None, users=None, luks_passphrase=None), **given)
    items = reader.secrets(raw(bootloader_password=SECRET), names, [])
    assert [(item["secret"], item["policy"], item["user"], item["value"]) for item in items] == [
        ("bootloader", "root", "root", SECRET)]
    # An undecryptable vault is that secret's own error, named by its variable; the others are read, nothing quoted.
    root, failed = reader.secrets(raw(bootloader_password="vaulted", root_password=SECRET), names, [])
    assert (root["secret"], root["value"]) == ("root", SECRET)
    assert (failed["secret"], failed["value"], failed["error"]) == ("bootloader", None, VAULT_ERROR[0])
    assert failed["hint"] == VAULT_ERROR[1] % "kickstart_bootloader_password"
    assert SECRET not in repr(failed)
    # Absent, null or empty: no boot-loader password, nothing to check (weakest_link reads no such argument).
    for value in (None, ""):
        assert reader.secrets(raw(bootloader_password=value), names, []) == []
    assert reader.secrets(raw(), names, []) == []


def test_the_role_reads_the_boot_loader_password_and_the_weakest_link_does_not_estimate_it():
    reader = SecretReader(template)
    raw, names = reader.role_values({"role_vars": True}, {"kickstart_bootloader_password": "{{ vault_grub }}"},
                                    ROLE_VARS)
    assert (raw["bootloader_password"], names["bootloader_password"]) == (
        "{{ vault_grub }}", "kickstart_bootloader_password")
    assert "bootloader_password" not in dict(SECRET_VARS)


def test_the_collection_s_own_lookup_error_is_the_reason_and_any_other_message_stays_hidden():
    from ansible.errors import AnsibleError, AnsibleLookupError
    from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_reader import OWN_MESSAGE
    own = AnsibleLookupError("pwpolicy_password (password): file=/srv/x.vault does not exist")
    setattr(own, OWN_MESSAGE, "pwpolicy_password (password): file=/srv/x.vault does not exist")
    outer = AnsibleError("templating failed: Hunter2-secret")
    outer.__cause__ = own
    reason, hint = error_kind(outer)
    assert reason == "could not be read: pwpolicy_password (password): file=/srv/x.vault does not exist"
    assert "Hunter2" not in reason + hint
    reason, dummy = error_kind(AnsibleLookupError("another lookup: Hunter2-secret"))
    assert "Hunter2" not in reason
