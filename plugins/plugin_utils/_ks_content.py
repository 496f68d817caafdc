# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every value the kickstart role puts on a kickstart line, checked before rendering.

A kickstart is line-based and its sections end at a ``%end`` line, so a value
with a line break, a NUL or a section keyword at the start of a line could
add commands of its own (``finish: "reboot\\nrootpw --plaintext x"``).  The
role quotes single words for shlex and checks everything else here: each
value must be exactly what its command takes (one word, one choice, one line
of options, a list of such items), and the options the role sets itself
(``--encrypted``, ``--passphrase``) cannot be given again.  No value may
carry a secret of its own (``rootpw`` in ``extra_commands``, ``--passp=x`` on
``luks_options``, a URL with a password): options are resolved by the target
release's pykickstart parsers (:mod:`._ks_options`), abbreviations included,
so the secrets the installer reads are exactly the ones the pre-flight checks.

:func:`input_problems` returns problems as ``{label, reasons, hints}``
dicts.  Labels name the variable (``kickstart_content.finish``,
``kickstart_users[1].gecos``); no value is ever repeated, since some of these
variables hold secrets.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import re

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import plain_type
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import (
    comment_start,
    one_line_problem,
    split_words,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._ks_options import (
    NoParser,
    handler_for,
    option_words,
    parser_of,
    resolve,
    secret_words,
)

ACCOUNT_RE = re.compile(r"[a-z_][a-z0-9_.-]*\$?")
MAX_ACCOUNT_LENGTH = 32
GROUP_RE = ACCOUNT_RE
SERVICE_RE = re.compile(r"[A-Za-z0-9@._:-]+")
SECTION_LINE_RE = re.compile(r"\s*%[A-Za-z]")

WORD_KEYS = ("lang", "keyboard", "timezone")
# Optional single words (empty means "not set").
OPTIONAL_WORD_KEYS = ("hostname",)
CHOICES = {
    "install_mode": ("text", "graphical", "cmdline"),
    "selinux": ("enforcing", "permissive", "disabled"),
    "firstboot": ("", "enable", "disable", "reconfig"),
    "autopart_type": ("lvm", "btrfs", "plain", "thinp"),
}
FINISH_COMMANDS = ("reboot", "poweroff", "halt", "shutdown")
OPTION_LINE_KEYS = ("network", "firewall", "bootloader", "autopart_options", "luks_options",
                    "packages_options", "source")
LIST_KEYS = ("services_enabled", "services_disabled", "packages", "extra_commands", "pre_scripts", "post_scripts",
             "default_user_groups", "storage")
SCRIPT_KEYS = ("pre_scripts", "post_scripts")
# What a script given as a mapping may set: its body and the section's options.
SCRIPT_FIELDS = ("body", "log", "interpreter", "nochroot", "erroronfail")
# The commands a storage line may start with (the layout replaces autopart).
STORAGE_COMMANDS = ("part", "partition", "raid", "volgroup", "logvol", "btrfs", "reqpart", "ignoredisk",
                    "clearpart", "zerombr", "mount", "bootloader", "snapshot", "iscsi", "iscsiname", "fcoe",
                    "zfcp", "nvdimm")
# Options the role writes itself on the autopart line when a passphrase is given.
ROLE_STORAGE_OPTIONS = ("--encrypted", "--passphrase", "--cipher-passphrase")
# The command each option-line value is written after (source is a whole command line).
OPTION_LINE_COMMANDS = {"network": "network", "firewall": "firewall", "bootloader": "bootloader",
                        "autopart_options": "autopart", "luks_options": "autopart", "packages_options": "%packages",
                        "source": None}
SECRET_HINT = ("remove it: the installer must read no secret the pre-flight has not checked. The role writes the "
               "root password, the accounts' passwords, the LUKS passphrase and the boot-loader password itself, from "
               "kickstart_root_password, kickstart_users, kickstart_luks_passphrase and "
               "kickstart_bootloader_password")
# Where a command line of the user's own may stand (a second bootloader command would replace the role's).
COMMAND_LIST_KEYS = ("extra_commands", "storage")


def _problem(label, reason, hint):
    return {"label": label, "reasons": [reason], "hints": [hint]}


def _line_problem(label, value):
    """Why ``value`` cannot be one kickstart line, or None."""
    if not isinstance(value, str):
        return _problem(label, "is not a string (got %s)" % plain_type(value),
                        "give it as a string (quote it in YAML)")
    found = one_line_problem(value)
    if found == "a NUL character":
        return _problem(label, "contains a NUL character", "remove the NUL character")
    if found:
        return _problem(label, "contains a line break (a carriage return or another line separator counts too), "
                        "which would start a new kickstart line", "give it on one line")
    return None


def _word_problem(label, value):
    found = _line_problem(label, value)
    if found:
        return found
    if not value.strip():
        return _problem(label, "is empty", "give a value")
    return None


def _option_problems(label, value, forbidden=(), command=None, checker=None):
    found = _line_problem(label, value)
    if found:
        return [found]
    if value.lstrip().startswith("%"):
        return [_problem(label, "starts with %, which the installer reads as a section",
                         "give the command's options only")]
    words = value.split()
    taken = [option for option in forbidden
             if any(word == option or word.startswith(option + "=") for word in words)]
    if checker is not None and forbidden:
        # Abbreviations too: pykickstart reads --encr as --encrypted, --passp=x as --passphrase=x.
        taken.extend(word.split("=", 1)[0] for word in words
                     if word.startswith("--") and word.split("=", 1)[0] not in taken
                     and checker.resolves_to(command, word, forbidden))
    if taken:
        return [_problem(label, "sets %s, which the role writes itself from kickstart_luks_passphrase"
                         % ", ".join(taken), "remove %s from it" % ", ".join(taken))]
    return checker.problems(label, value, command) if checker is not None else []


class _SecretChecker(object):
    """Whether kickstart lines carry secrets, by the target's pykickstart parsers (loaded on first use)."""

    def __init__(self, target):
        self.target = target
        self._handler = None
        self.missing = False

    def _get(self):
        if self._handler is None and not self.missing:
            try:
                self._handler = handler_for(self.target)
            except NoParser:
                self.missing = True
        return self._handler

    def resolves_to(self, command, word, options):
        handler = self._get()
        parser = parser_of(handler, command) if handler is not None else None
        return parser is not None and any(set(action.option_strings) & set(options)
                                          for action in resolve(parser, word))

    def problems(self, label, line, command=None):
        """A problem naming what carries a secret on ``line`` (``command`` goes before it), never a value."""
        handler = self._get()
        if handler is None:
            return []
        try:
            found = secret_words(line, handler, command)
        except ValueError:
            return [_problem(label, "cannot be split into words as the installer reads them (an unclosed quote)",
                             "close the quote")]
        if not found:
            return []
        return [_problem(label, "carries %s: a secret the pre-flight does not check" % "; ".join(found), SECRET_HINT)]


def _list_items(label, value):
    """``(items, problem)``: a list given as a string or a mapping is a problem, not a list of characters."""
    if value is None:
        return [], None
    if isinstance(value, (str, bytes, dict)) or not isinstance(value, (list, tuple)):
        return [], _problem(label, "is not a list (got %s)" % plain_type(value),
                            "give a YAML list, one item per entry")
    return list(value), None


def _list_problems(key, label, value, checker=None):
    items, found = _list_items(label, value)
    problems = [found] if found else []
    for index, item in enumerate(items):
        item_label = "%s[%d]" % (label, index)
        line = _line_problem(item_label, item) if key not in SCRIPT_KEYS else None
        if line:
            problems.append(line)
            continue
        problems.extend(_item_problems(key, item_label, item, checker))
    return problems


def _item_problems(key, label, item, checker=None):
    if key in ("services_enabled", "services_disabled"):
        if not SERVICE_RE.fullmatch(item):
            return [_problem(label, "is not a systemd unit name", "give one unit name per item, without commas")]
    elif key == "default_user_groups":
        if not GROUP_RE.fullmatch(item) or len(item) > 32:
            return [_problem(label, "is not a valid group name", "use a name like wheel or adm")]
    elif key in ("packages", "extra_commands"):
        if item.lstrip().startswith("%"):
            return [_problem(label, "starts with %, which the installer reads as a section keyword",
                             "give package names or commands only")]
        if key == "extra_commands" and checker is not None:
            return checker.problems(label, item)
    elif key in SCRIPT_KEYS:
        return _script_problems(label, item, nochroot_allowed=key == "post_scripts")
    elif key == "storage":
        return _storage_problems(label, item, checker)
    return []


def _storage_problems(label, line, checker=None):
    """A storage line's problems.  Its words are the installer's (shlex's, with comments); the role adds the LUKS
    options at the end of a line whose blank-separated words hold ``--encrypted`` (the role's template), so those
    must be the lines the installer reads with ``--encrypted``, and none of them may end in a comment."""
    try:
        words = split_words(line)
    except ValueError:
        return [_problem(label, "cannot be split into words as the installer reads them (an unclosed quote)",
                         "close the quote")]
    if not words or words[0] not in STORAGE_COMMANDS:
        return [_problem(label, "is not a storage command", "start it with one of: %s" % ", ".join(STORAGE_COMMANDS))]
    if checker is not None:
        # The role adds the passphrase to a line with --encrypted written in full, so no other spelling of it.
        short = [word for word in option_words(words) if word != "--encrypted"
                 and checker.resolves_to(words[0], word, ("--encrypted",))]
        if short:
            return [_problem(label, "sets %s, which %s reads as --encrypted" % (short[0], words[0]),
                             "write --encrypted in full, so that the role adds kickstart_luks_passphrase to it")]
    encrypted = "--encrypted" in words
    if encrypted and comment_start(line) is not None:
        return [_problem(label, "has a comment (#), and the role adds the LUKS passphrase at the end of a line with "
                         "--encrypted, where the installer would read it as part of the comment",
                         "remove the comment from the line")]
    if encrypted and "--encrypted" not in line.split():
        return [_problem(label, "has --encrypted quoted or escaped: the installer reads it as an option, but the role "
                         "adds the LUKS passphrase only where --encrypted is written as it is",
                         "write --encrypted unquoted, as an option of its own")]
    if not encrypted and "--encrypted" in line.split():
        return [_problem(label, "has --encrypted in a comment or inside quotes, where the installer does not read it "
                         "as an option: nothing would be encrypted, and the role would add the LUKS passphrase there",
                         "write --encrypted as an option of its own, before any #, or remove it")]
    return _option_problems(label, line.split(None, 1)[1] if len(line.split(None, 1)) > 1 else "",
                            ROLE_STORAGE_OPTIONS[1:], words[0], checker)


def encrypts(line, target=None):
    """Whether the installer reads the storage command ``line`` as encrypted: an option word of it, as shlex reads
    it (comments left out), that ``target``'s parser of the command resolves to ``--encrypted`` (the word
    ``--encrypted`` itself where pykickstart is missing).  A line that cannot be split encrypts nothing."""
    try:
        words = split_words(str(line))
    except ValueError:
        return False
    checker = _SecretChecker(target)
    return any(word == "--encrypted" or checker.resolves_to(words[0], word, ("--encrypted",))
               for word in option_words(words))


def _script_body_problems(label, body):
    if not isinstance(body, str):
        return [_problem(label, "is not a string (got %s)" % plain_type(body), "give the script body as a string")]
    if one_line_problem(body) == "a NUL character":
        return [_problem(label, "contains a NUL character", "remove the NUL character")]
    for number, line in enumerate(body.splitlines(), 1):
        if SECTION_LINE_RE.match(line):
            return [_problem(label, "line %d starts with a section keyword (%%...), which would end the "
                             "script or start a new section" % number,
                             "indent that line or write it another way (for example with printf)")]
    return []


def _script_problems(label, script, nochroot_allowed=True):
    """A script is its body as a string, or a mapping with ``body`` and the section's options."""
    if not isinstance(script, dict):
        return _script_body_problems(label, script)
    unknown = sorted(str(key) for key in script if key not in SCRIPT_FIELDS)
    if unknown or (not nochroot_allowed and "nochroot" in script):
        return [_problem(label, "has unknown keys %s" % ", ".join(unknown or ["nochroot"]),
                         "give body and, as needed, %s" % ", ".join(
                             f for f in SCRIPT_FIELDS[1:] if nochroot_allowed or f != "nochroot"))]
    problems = _script_body_problems(label + ".body", script.get("body"))
    for key in ("log", "interpreter"):
        if script.get(key) not in (None, ""):
            found = _word_problem("%s.%s" % (label, key), script[key])
            if found or len(script[key].split()) != 1 or not script[key].startswith("/"):
                problems.append(found or _problem("%s.%s" % (label, key), "is not one absolute path",
                                                  "give one absolute path without blanks"))
    for key in ("nochroot", "erroronfail"):
        if key in script and not isinstance(script[key], bool):
            problems.append(_problem("%s.%s" % (label, key), "is not true or false", "give true or false"))
    return problems


def content_problems(content, target=None):
    """Problems of the merged ``kickstart_content`` dict; options are read as ``target``'s pykickstart reads them."""
    if not isinstance(content, dict):
        return [_problem("kickstart_content", "is not a mapping", "give kickstart_content as a dict")]
    checker = _SecretChecker(target)
    problems = []
    for key in WORD_KEYS:
        found = _word_problem("kickstart_content.%s" % key, content.get(key, ""))
        if found:
            problems.append(found)
    for key in OPTIONAL_WORD_KEYS:
        value = content.get(key) or ""
        found = _line_problem("kickstart_content.%s" % key, value)
        if found or (value and len(value.split()) != 1):
            problems.append(found or _problem("kickstart_content.%s" % key, "is not one word", "give one word"))
    for key, choices in CHOICES.items():
        value = content.get(key, "")
        if value not in choices:
            problems.append(_problem("kickstart_content.%s" % key, "is not one of: %s" % ", ".join(c or "''" for c in choices),
                                     "use one of those values"))
    finish = content.get("finish", "")
    found = _line_problem("kickstart_content.finish", finish)
    if found:
        problems.append(found)
    elif (finish.split() or [""])[0] not in FINISH_COMMANDS:
        problems.append(_problem("kickstart_content.finish", "is not a %s command" % "/".join(FINISH_COMMANDS),
                                 "use reboot, poweroff, halt or shutdown (with their options)"))
    for key in OPTION_LINE_KEYS:
        forbidden = ROLE_STORAGE_OPTIONS if key in ("luks_options", "autopart_options") else ()
        problems.extend(_option_problems("kickstart_content.%s" % key, content.get(key, "") or "", forbidden,
                                         OPTION_LINE_COMMANDS[key], checker))
    for key in LIST_KEYS:
        problems.extend(_list_problems(key, "kickstart_content.%s" % key, content.get(key), checker))
    if checker.missing:
        problems.append(_problem("kickstart_content", "cannot be checked for secrets: pykickstart is not installed "
                                 "for the Python that runs Ansible on the controller",
                                 "install pykickstart there (the collection's requirements.txt)"))
    return problems


def valid_account_name(name):
    """Whether ``name`` is an account name the installer and useradd take."""
    return isinstance(name, str) and len(name) <= MAX_ACCOUNT_LENGTH and ACCOUNT_RE.fullmatch(name) is not None


def user_problems(index, user, seen):
    """Problems of account entry ``index`` (its password is not looked at); ``seen`` collects valid names.

    The entry cannot be used at all when a problem is labelled with the entry
    itself or its ``.name``.
    """
    label = "kickstart_users[%d]" % index
    if not isinstance(user, dict):
        return [_problem(label, "is not a mapping", "give each user as {name: ..., password: ...}")]
    name = user.get("name")
    problems = []
    if not valid_account_name(name):
        problems.append(_problem(label + ".name", "is not a valid account name" if name is not None else "is missing",
                                 'use at most %d characters: lower-case letters, digits, "_", "-" and ".", '
                                 'starting with a letter or "_"' % MAX_ACCOUNT_LENGTH))
    elif name in seen:
        problems.append(_problem(label + ".name", "names an account given earlier in kickstart_users",
                                 "give each account once"))
    else:
        seen.add(name)
    gecos = user.get("gecos")
    if gecos not in (None, ""):
        found = _line_problem(label + ".gecos", gecos)
        if found:
            problems.append(found)
    groups = user.get("groups")
    if groups is not None:
        problems.extend(_list_problems("default_user_groups", label + ".groups", groups))
    problems.extend(_list_problems("ssh_keys", label + ".ssh_keys", user.get("ssh_keys")))
    return problems


def secret_problems(label, secret):
    """Problems of a secret's text that no kickstart line can carry (the value is never repeated)."""
    if secret is None:
        return []
    if not isinstance(secret, str):
        return [_problem(label, "is not a string (got %s)" % plain_type(secret), "quote it in YAML")]
    found = one_line_problem(secret)
    if found == "a NUL character":
        return [_problem(label, "contains a NUL character, which no installer or crypt hash can take",
                         "choose a secret without a NUL character")]
    if found:
        return [_problem(label, "contains a line break, which a kickstart line cannot hold",
                         "choose a secret on one line (quotes, #, $ and spaces are fine)")]
    return []


def bootloader_problems(content):
    """A ``bootloader`` command among the lines of ``content`` (extra_commands, storage): with a boot-loader
    password the role writes the one bootloader command, and the installer would take the last one."""
    problems = []
    for key in COMMAND_LIST_KEYS:
        items, dummy = _list_items("kickstart_content.%s" % key, content.get(key))
        for index, item in enumerate(items):
            if isinstance(item, str) and item.split()[:1] == ["bootloader"]:
                problems.append(_problem(
                    "kickstart_content.%s[%d]" % (key, index),
                    "is a bootloader command, but the role writes the bootloader command itself with "
                    "kickstart_bootloader_password, and the installer takes only the last one",
                    "give the bootloader options in kickstart_content.bootloader instead"))
    return problems


def input_problems(content, users=None, root_ssh_keys=None, dest=None, updates_image=None, target=None):
    """Every problem of the role's inputs that would end up on a kickstart line, in one list.

    ``content`` and ``users`` are not checked when ``None``; ``target`` is the installer release whose
    pykickstart reads the options (DEVEL when not given).  With a boot-loader password, add
    :func:`bootloader_problems`.
    """
    problems = content_problems(content, target) if content is not None else []
    if users is not None:
        items, found = _list_items("kickstart_users", users)
        problems.extend([found] if found else [])
        seen = set()
        for index, user in enumerate(items):
            problems.extend(user_problems(index, user, seen))
    problems.extend(_list_problems("ssh_keys", "kickstart_root_ssh_keys", root_ssh_keys))
    for label, path in (("kickstart_dest", dest), ("kickstart_updates_image", updates_image)):
        if path and not os.path.isabs(str(path)):
            problems.append(_problem(label, "is not an absolute path (a relative one would depend on the working "
                                     "directory of the module that writes it)",
                                     "give an absolute path on the host the role runs on"))
    if dest and updates_image and os.path.normpath(str(dest)) == os.path.normpath(str(updates_image)):
        problems.append(_problem("kickstart_updates_image", "is the same path as kickstart_dest, so each would "
                                 "overwrite the other", "give the updates image its own path (or leave it empty)"))
    return problems
