# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The secrets of one host, read by the actions (check_secrets, weakest_link, render_kickstart).

Each secret is templated (and so decrypted) on its own, inside its own
``try``: a vaulted value that this run cannot decrypt, or one that refers to
an undefined variable, becomes an error of that secret and the others are
still read.  Ansible's own error text is never passed on: it may quote the
value or the vault ciphertext.

Secret arguments are not templated by ansible-core 2.19+ before the action
runs (``finalize_task_arg``, plugin_utils/_action.py); ansible-core 2.16 to
2.18 template them before, which leaves vaulted values encrypted until they
are read here, but fails the task on an undefined variable.  With
``role_vars`` the secrets come untemplated from the host's variables on every
version.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ansible.module_utils.common.text.converters import to_text
from ansible.module_utils.parsing.convert_bool import boolean

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import plain_type
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._ks_content import user_problems
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preflight import account_label, secret

# Argument -> the kickstart role's variable it is read from with role_vars.
ROLE_VARS = (
    ("product", "kickstart_product"),
    ("target", "kickstart_target"),
    ("pwpolicies", "kickstart_pwpolicies"),
    ("root_password", "kickstart_root_password"),
    ("users", "kickstart_users"),
    ("luks_passphrase", "kickstart_luks_passphrase"),
    ("bootloader_password", "kickstart_bootloader_password"),
    ("pwquality_settings", "kickstart_pwquality_settings"),
    ("profile_exceptions", "kickstart_profile_exceptions"),
    ("pwquality_dropin", "kickstart_pwquality_dropin"),
)
SECRET_ARGS = ("root_password", "users", "luks_passphrase", "bootloader_password")
# The secrets whose weakest link is estimated (the accounts' and the disk's: what weakest_link reads).
SECRET_VARS = tuple((arg, var) for arg, var in ROLE_VARS if arg in ("root_password", "users", "luks_passphrase"))
# The boot loader's password: its label, and the policy (and libpwquality user name) it is checked with.
BOOTLOADER = "bootloader"
BOOTLOADER_POLICY = "root"

VAULT_ERROR = ("cannot be decrypted with the vault secrets of this run (wrong or missing vault id or password)",
               "run with the vault id and password that encrypted %s (--vault-id LABEL@FILE), "
               "or encrypt it again with ansible-vault")
UNDEFINED_ERROR = ("could not be read: it refers to an undefined variable",
                   "define the variable %s refers to (for example in the vaulted vars file), or remove the secret")
TEMPLATE_ERROR = ("could not be read: templating it failed (Ansible's message is not shown, as it may quote "
                  "the value)", "check the expression that sets %s")


# The name Ansible's undefined-variable errors give ('NAME' is undefined, ... has no attribute 'NAME'): a name of
# the template code, never a value.  Nothing else of Ansible's message is passed on.
_UNDEFINED_NAME = re.compile(r"'([A-Za-z_][A-Za-z0-9_]{0,99})' is undefined")
_UNDEFINED_ATTRIBUTE = re.compile(r"has no attribute '([A-Za-z_][A-Za-z0-9_]{0,99})'")


def undefined_name(text):
    """``(what, name)`` of the undefined variable (``variable``) or attribute (``attribute``) an error of Ansible
    names, or None."""
    for what, pattern in (("variable", _UNDEFINED_NAME), ("attribute", _UNDEFINED_ATTRIBUTE)):
        found = pattern.search(text)
        if found:
            return what, found.group(1)
    return None


# An exception whose text is the collection's own and holds no value (pwpolicy_password's errors) carries it in this
# attribute: a secret that its lookup could not give is reported with that text.
OWN_MESSAGE = "kickstart_pwpolicy_message"


def error_kind(exc):
    """``(reason, hint)`` for an exception raised while reading a secret, from its class names and, for an undefined
    variable, the name it gives (the hint takes the variable that holds the secret)."""
    names = []
    named = None
    seen = 0
    while exc is not None and seen < 10:
        own = getattr(exc, OWN_MESSAGE, None)
        if isinstance(own, str):
            return "could not be read: %s" % own, "correct what that says for %s"
        names.extend(cls.__name__ for cls in type(exc).__mro__)
        if named is None and "Undefined" in " ".join(cls.__name__ for cls in type(exc).__mro__):
            named = undefined_name(to_text(getattr(exc, "message", None) or exc, errors="surrogate_or_replace"))
        exc = exc.__cause__ or exc.__context__
        seen += 1
    if any("Vault" in name for name in names):
        return VAULT_ERROR
    if any("Undefined" in name for name in names):
        if named is not None:
            what, name = named
            return ("could not be read: it refers to the undefined %s %s" % (what, name),
                    "define %s %s (for example in the vaulted vars file), or remove the secret"
                    % (name, "where %s refers to it" if what == "variable" else "in what %s refers to"))
        return UNDEFINED_ERROR
    return TEMPLATE_ERROR


class SecretReader(object):
    """Reads secrets with an action's ``template`` (its ``_template``) and ``templar`` (None: template only)."""

    def __init__(self, template, templar=None):
        self.template = template
        self.templar = templar

    def role_values(self, args, task_vars, pairs):
        """``(raw, names)``: each argument of ``pairs`` ((arg, role variable), ...) untemplated, and where it came
        from (the argument, else with ``role_vars`` the role's variable); None when neither gives it."""
        role_vars = boolean(self.template(args.get("role_vars", False)), strict=False)
        raw, names = {}, {}
        for arg, var in pairs:
            if arg in args:
                raw[arg], names[arg] = args[arg], arg
            elif role_vars:
                raw[arg], names[arg] = task_vars.get(var), var
            else:
                raw[arg], names[arg] = None, arg
        return raw, names

    def container(self, value):
        """``value`` templated down to its outer list or dict, leaving what it holds untemplated."""
        if isinstance(value, (list, tuple, dict)):
            return value  # already a container: each item is templated on its own
        engine = getattr(self.templar, "_engine", None)
        resolve = getattr(engine, "resolve_to_container", None)
        if resolve is not None:  # ansible-core 2.19+: templating the whole list would decrypt every value
            return resolve(value)
        return self.template(value)  # 2.16-2.18: vaulted values stay encrypted in a templated list

    def read(self, raw, where):
        """``(text or None, error, hint)`` of one secret; never raises, never repeats Ansible's message."""
        try:
            value = self.template(raw)
            if value is None or isinstance(value, (bool, int, float, list, tuple, dict)):
                return value, None, None
            return to_text(value, errors="surrogate_or_strict"), None, None
        # One secret's failure must not stop the others.
        except Exception as exc:  # pylint: disable=broad-except
            reason, hint = error_kind(exc)
            return None, reason, hint % where

    def secrets(self, raw, names, problems):
        """The secrets to check: [secret(...)] in the order root, users, luks, bootloader."""
        items = []
        if raw["root_password"] is not None:
            value, error, hint = self.read(raw["root_password"], names["root_password"])
            if value is not None or error:
                items.append(secret("root", "root", value=value, user="root", error=error, hint=hint,
                                    variable=names["root_password"]))
        items.extend(self.user_secrets(raw["users"], names["users"], problems))
        if raw["luks_passphrase"] is not None:
            value, error, hint = self.read(raw["luks_passphrase"], names["luks_passphrase"])
            # An empty passphrase means no encryption, as the role renders it: nothing to check.
            if (value is not None and value != "") or error:
                items.append(secret("luks", "luks", value=value, error=error, hint=hint,
                                    variable=names["luks_passphrase"]))
        if raw.get("bootloader_password") is not None:
            value, error, hint = self.read(raw["bootloader_password"], names["bootloader_password"])
            # GRUB 2's superuser is root (as the installer writes it); empty means no boot-loader password.
            if (value is not None and value != "") or error:
                items.append(secret(BOOTLOADER, BOOTLOADER_POLICY, value=value, user="root", error=error, hint=hint,
                                    variable=names["bootloader_password"]))
        return items

    def user_secrets(self, raw_users, where, problems):
        """The accounts' secrets; the problems of each entry (name, gecos, groups, keys) go to ``problems``."""
        if raw_users is None:
            return []
        try:
            users = self.container(raw_users)
        except Exception as exc:  # pylint: disable=broad-except
            reason, hint = error_kind(exc)
            return [secret("users", "user", error=reason, hint=hint % where, variable=where)]
        if users is None:
            return []
        if not isinstance(users, (list, tuple)):
            return [secret("users", "user", error="is not a list of accounts (got %s)" % plain_type(users),
                           hint="give %s as a list of {name, password}" % where, variable=where)]
        items = []
        seen = set()
        for index, raw_entry in enumerate(users):
            entry_where = "%s[%d]" % (where, index)
            try:
                entry = self.container(raw_entry)
                # Every field but the password, templated: they are checked as kickstart line values.
                shown = (dict((key, self.template(value)) for key, value in entry.items() if key != "password")
                         if isinstance(entry, dict) else entry)
            except Exception as exc:  # pylint: disable=broad-except
                reason, hint = error_kind(exc)
                items.append(secret("user[%d]" % index, "user", error=reason, hint=hint % entry_where,
                                    variable=entry_where))
                continue
            found = user_problems(index, shown, seen)
            problems.extend(found)
            unusable = ("kickstart_users[%d]" % index, "kickstart_users[%d].name" % index)
            if any(problem["label"] in unusable for problem in found) or entry.get("password") is None:
                continue  # no account to check, or no password: a locked account
            value, error, hint = self.read(entry["password"], entry_where + ".password")
            if value is None and not error:
                continue
            items.append(secret(account_label(shown["name"]), "user", value=value, user=shown["name"],
                                error=error, hint=hint, variable=entry_where + ".password"))
        return items
