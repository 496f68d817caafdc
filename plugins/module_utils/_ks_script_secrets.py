# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The passwords that a kickstart's ``%pre`` and ``%post`` scripts set: accounts, GRUB and LUKS keys too.

A kickstart that sets root's password with ``rootpw --lock`` and then runs
``echo 'root:Summer2024' | chpasswd`` in ``%post`` keeps that password at
rest just the same.  :func:`script_secrets` reads every script body, line by
line (one pass), for the commands that set a password from text the script
holds:

* ``usermod -p HASH USER`` and ``useradd -p HASH USER`` (``--password``): a
  crypt hash;
* ``chpasswd`` fed ``USER:PASSWORD`` lines (``echo ... |``, ``printf ... |``,
  a here-document or a here-string), hashes with ``-e``/``--encrypted``;
* ``passwd --stdin [USER]`` fed a password;
* ``grub2-setpassword`` (or ``grub-setpassword``) fed a password: the
  boot loader's;
* ``cryptsetup luksFormat``/``luksAddKey``/``luksChangeKey`` fed a
  passphrase: a LUKS key.

Only what a script holds literally is read; a value from a variable, a file
or a command (``$PW``, ``$(cat /tmp/pw)``) is none of the script's text.  In
a template, a value the template fills in is of form ``template``.  Each
entry is ``(line, command, account, form, value, policy)``: the caller keeps
``value`` private, as it keeps every secret.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._hash_schemes import identify
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import BODY, split_words
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_scripts import here_document, pipeline, written_text

SCRIPTS = frozenset(("%pre", "%pre-install", "%post", "%onerror", "%traceback"))
_CRYPTSETUP_ACTIONS = ("luksFormat", "luksAddKey", "luksChangeKey")
# A value the script computes or reads: none of its text is a secret it holds.
_EXPANSION_RE = re.compile(r"\$[({A-Za-z_0-9@*#?!-]|`")
# A line that names none of these sets no password (one look at the line, before it is split).
_SINK_RE = re.compile(r"chpasswd|passwd|usermod|useradd|setpassword|cryptsetup")


def _here_string(command):
    """The text of a ``<<<`` here-string among a command's words, or None."""
    for index, word in enumerate(command):
        if word == "<<<" and index + 1 < len(command):
            return [command[index + 1]]
        if word.startswith("<<<") and len(word) > 3:
            return [word[3:]]
    return None


def _sink(command):
    """``(kind, details)`` when ``command`` sets a password from its input, else None."""
    name = command[0].rsplit("/", 1)[-1]
    if name == "chpasswd":
        return "chpasswd", {"crypted": any(word in ("-e", "--encrypted") for word in command[1:])}
    if name == "passwd" and "--stdin" in command[1:]:
        users = [word for word in command[1:] if not word.startswith("-") and not word.startswith("<")]
        return "passwd", {"account": users[-1] if users else "root"}
    if name in ("grub2-setpassword", "grub-setpassword"):
        return "grub2-setpassword", {}
    if name == "cryptsetup" and any(word in _CRYPTSETUP_ACTIONS for word in command[1:]):
        return "cryptsetup", {}
    return None


def _value_form(value, template, is_template, crypted=False):
    """``plaintext``, ``crypt`` (``crypted``: a hash is expected), ``template``, or None for a value the script
    computes or reads at run time (not its text).  A crypt hash is read as one, its ``$`` signs included."""
    if crypted and identify(value) is not None:
        return "crypt"
    if is_template(value, template):
        return "template"
    if _EXPANSION_RE.search(value):
        return None
    return "crypt" if crypted else "plaintext"


def _fed(kind, details, lines, template, is_template):
    """The entries of a sink fed ``lines`` (each its own line number, or all ``number``)."""
    found = []
    for text, at in lines:
        if kind == "chpasswd":
            account, colon, value = text.partition(":")
            if not colon or not value:
                continue
            form = _value_form(value, template, is_template, details["crypted"])
            if form is not None:
                found.append((at, "chpasswd", account or None, form, value, "root" if account == "root" else "user"))
        elif text:
            form = _value_form(text, template, is_template)
            if form is None:
                continue
            if kind == "passwd":
                found.append((at, "passwd", details["account"], form, text,
                              "root" if details["account"] == "root" else "user"))
            elif kind == "grub2-setpassword":
                found.append((at, "grub2-setpassword", "root", form, text, "root"))
                break  # typed twice: one password
            else:
                found.append((at, "cryptsetup", None, "passphrase" if form == "plaintext" else form, text, "luks"))
                break
    return found


def _usermod(number, command, template, is_template):
    """``usermod``/``useradd`` ``-p HASH`` (``--password``): the hash and the account (the last word)."""
    value, account = None, None
    index = 1
    while index < len(command):
        word = command[index]
        if word in ("-p", "--password") and index + 1 < len(command):
            value = command[index + 1]
            index += 2
            continue
        if word.startswith("--password="):
            value = word.split("=", 1)[1]
        elif word.startswith("-p") and len(word) > 2 and not word.startswith("--"):
            value = word[2:]
        elif not word.startswith("-"):
            account = word
        index += 1
    if value is None or value == "":
        return []
    form = _value_form(value, template, is_template, crypted=True)  # usermod -p takes what /etc/shadow holds
    if form is None:
        return []
    return [(number, command[0].rsplit("/", 1)[-1], account, form, value, "root" if account == "root" else "user")]


def script_secrets(lines, roles, template, is_template, mask=None):
    """Every entry (see the module's docstring) of the script bodies of ``lines``, whose section ``roles``
    (``_ks_lines.section_roles``) tell; ``is_template(value, template)`` says a value is the template's, and
    ``mask(line)`` (with ``template``) replaces the template's expressions before a line is split."""
    found = []
    document = None  # the here-document a command reads; its key: (kind, details)
    for number, (line, (role, section)) in enumerate(zip(lines, roles), 1):
        if role != BODY or section not in SCRIPTS:
            document = None
            continue
        if document is not None:
            if document.feed(mask(line) if template and mask else line, number):
                found.extend(_fed(document.key[0], document.key[1], document.lines, template, is_template))
                document = None
            continue
        stripped = line.lstrip()
        if not stripped or stripped[0] == "#" or not _SINK_RE.search(line):
            continue
        try:
            words = split_words(mask(line) if template and mask else line)
        except ValueError:
            continue
        commands = pipeline(words)
        if not commands:
            continue
        last = commands[-1]
        if last[0].rsplit("/", 1)[-1] in ("usermod", "useradd"):
            found.extend(_usermod(number, last, template, is_template))
            continue
        sink = _sink(last)
        if sink is None:
            continue
        opened = here_document(line, sink) if len(commands) == 1 else None
        if opened is not None:
            document = opened
            continue
        fed = _here_string(last)
        if fed is None and len(commands) > 1:
            fed = written_text(commands[-2])
        if fed:
            found.extend(_fed(sink[0], sink[1], [(text, number) for text in fed], template, is_template))
    return found
