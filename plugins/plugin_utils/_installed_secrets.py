# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Whether an installed host's password hashes still match the vaulted values, on the controller.

The host's ``/etc/shadow`` and GRUB 2 files (:data:`FILES`) are read as the
node readers read them (``host_auth.shadow_entries`` and
``shadow_account``, ``host_disk.grub_lines``); each vaulted value with an
installed hash is hashed again with that hash's own setting
(``_crypt.matches``: libxcrypt for crypt hashes, PBKDF2-HMAC-SHA-512 with the
installed salt and iterations for GRUB 2's) and compared in constant time.

:func:`compare_secrets` returns, for each secret, only
``{secret, where, matches, reason}``: ``matches`` true or false, or None with
a ``reason`` (no vaulted value, no installed hash, a locked account, a
scheme that cannot be computed here).  No hash, salt, value or part of one is
returned, raised or worded; the texts given are the caller's to drop.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import hmac
import posixpath

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._hash_schemes import identify
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._known_weak import refusal
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.host_auth import (
    SHADOW,
    shadow_account,
    shadow_entries,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.host_disk import (
    GRUB_CFGS,
    USER_CFG,
    grub_lines,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._crypt import CryptError, matches
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_reader import BOOTLOADER

# The GRUB 2 files whose root password is compared: user.cfg (grub2-setpassword's, and the installer's), then the
# grub.cfg files the host reader reads, but the ones a pattern names (Fedora 34+ and RHEL 9+ keep the real one in
# /boot/grub2 on BIOS and UEFI installs alike).
GRUB_FILES = (USER_CFG,) + tuple(path for path in GRUB_CFGS if "*" not in path)
FILES = (SHADOW,) + GRUB_FILES
# GRUB 2's superuser whose password the kickstart sets (bootloader --password: user.cfg's GRUB2_PASSWORD).
GRUB_USER = "root"
# The most one comparison may take on the controller (the installed hash's cost, as _known_weak bounds it).
BUDGET_SECONDS = 30.0

NO_VAULTED = "no vaulted value: %s is not set"
NO_SHADOW = "%s could not be read from the host (run the task with become)" % SHADOW
NO_ENTRY = "the host has no entry for %s in " + SHADOW
EMPTY = "the account has no password on the host (an empty field in %s)" % SHADOW
LOCKED = "the account is locked on the host (its password field starts with ! or *)"
UNPARSED = "the installed hash is of no scheme known here"
NO_GRUB = "the host has no boot-loader password for %s (%s)" % (GRUB_USER, ", ".join(GRUB_FILES))
NO_GRUB_FILES = "the host's GRUB 2 files could not be read (%s)"
NOT_STRING = "the vaulted value is not a string"


def host_path(root, path):
    """The path of the host file ``path`` under ``root`` (``/``: the path itself), as the host spells it."""
    return posixpath.join(root or "/", path.lstrip("/"))


def entry(label, where=None, found=None, reason=None):
    """One secret's result: ``{secret, where, matches, reason}``."""
    return {"secret": label, "where": where, "matches": found, "reason": reason}


def shadow_hashes(text):
    """``{name: (field, where)}`` of a shadow file's text: the first entry of each name (the one a login reads)."""
    found = {}
    for number, name, field, problem in shadow_entries(text):
        if problem is None and name not in found:
            found[name] = (field, {"file": SHADOW, "line": number})
    return found


def grub_password(texts):
    """``(kind, value, where)`` of GRUB 2's password for :data:`GRUB_USER`, or None: ``user.cfg``'s
    ``GRUB2_PASSWORD`` where there is one, else the last ``password``/``password_pbkdf2`` line for the user in a
    ``grub.cfg`` (GRUB keeps the last it runs).  ``texts``: ``{host path: text}`` of the files read."""
    for path in GRUB_FILES:
        text = texts.get(path)
        if text is None:
            continue
        last = None
        for kind, where, user, value in grub_lines(text, path):
            if kind in ("password", "password_pbkdf2") and (user or GRUB_USER) == GRUB_USER:
                last = (kind, value, where)
        if last is not None:
            return last
    return None


def compare(value, hashed):
    """``(matches, reason)`` of a vaulted ``value`` against the installed crypt or GRUB 2 hash ``hashed``."""
    form = identify(hashed)
    if form is None:
        return None, UNPARSED
    refused = refusal(form, BUDGET_SECONDS)
    if refused:
        return None, "not compared: %s" % refused
    try:
        return matches(value, hashed), None
    except CryptError as exc:
        return None, "not compared: %s hashes cannot be computed on the controller (%s)" % (form.scheme, exc)


def _vaulted(item):
    """``(value, reason)`` of one secret read by the secret reader (its value, or why there is none)."""
    if item.get("error"):
        return None, "the vaulted value %s" % item["error"]
    if not isinstance(item.get("value"), str):
        return None, NOT_STRING
    return item["value"], None


def _account(item, accounts, shadow_read, name):
    if not shadow_read:
        return entry(item["secret"], reason=NO_SHADOW)
    if name not in accounts:
        return entry(item["secret"], reason=NO_ENTRY % name)
    field, where = accounts[name]
    form = shadow_account(name, field, where["line"])["form"]
    if form == "empty":
        return entry(item["secret"], where, reason=EMPTY)
    if form == "locked":
        return entry(item["secret"], where, reason=LOCKED)
    value, reason = _vaulted(item)
    if reason:
        return entry(item["secret"], where, reason=reason)
    found, reason = compare(value, field)
    return entry(item["secret"], where, found, reason)


def _bootloader(item, password, grub_read):
    if password is None:
        return entry(BOOTLOADER, reason=NO_GRUB if grub_read else NO_GRUB_FILES % ", ".join(GRUB_FILES))
    kind, stored, where = password
    value, reason = _vaulted(item)
    if reason:
        return entry(BOOTLOADER, where, reason=reason)
    if kind == "password":  # kept in the clear on the host: compared as it is
        found = hmac.compare_digest(value.encode("utf-8", "surrogatepass"), stored.encode("utf-8", "surrogatepass"))
        return entry(BOOTLOADER, where, found)
    found, reason = compare(value, stored)
    return entry(BOOTLOADER, where, found, reason)


def compare_secrets(items, texts, variables):
    """``[{secret, where, matches, reason}]`` for the host whose files are ``texts`` (``{host path: text}``, a file
    not read absent or None) and whose vaulted secrets are ``items`` (the secret reader's, root, users and the boot
    loader).  ``variables`` names the role's variables of root and the boot loader, for the reasons.

    Root is always listed (without a vaulted value: ``matches`` None, "no vaulted value"); each account with a
    vaulted password; the boot loader where it has a vaulted value or the host a password.
    """
    shadow = texts.get(SHADOW)
    accounts = shadow_hashes(shadow) if shadow is not None else {}
    grub_read = any(texts.get(path) is not None for path in GRUB_FILES)
    password = grub_password(texts)
    results = []
    by_label = dict((item["secret"], item) for item in items)
    root = by_label.get("root")
    if root is None:
        where = accounts["root"][1] if "root" in accounts else None
        results.append(entry("root", where, reason=NO_VAULTED % variables["root_password"]))
    for item in items:
        if item["secret"] == BOOTLOADER:
            continue
        if item["secret"] == "root":
            results.append(_account(item, accounts, shadow is not None, "root"))
        elif item.get("user") is not None:
            results.append(_account(item, accounts, shadow is not None, item["user"]))
        else:  # an account entry that could not be read: no account to compare
            results.append(entry(item["secret"], reason=_vaulted(item)[1]))
    boot = by_label.get(BOOTLOADER)
    if boot is not None:
        results.append(_bootloader(boot, password, grub_read))
    elif password is not None:
        results.append(entry(BOOTLOADER, password[2], reason=NO_VAULTED % variables["bootloader_password"]))
    return results
