# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""An installed host's passwords and how new ones are checked and hashed, read from its files under ``root``.

Pure reading: no command runs and nothing is written.  ``root`` is the
host's ``/`` (a mounted image, a test tree); a symbolic link is followed as
the host would follow it (an absolute link from ``root``, ``..`` never above
it).  Every ``where`` names the path on the host (``/etc/shadow``), never
``root``.  A file that cannot be read (not a regular file, too large,
unreadable) is an entry of ``unknown``: ``{what, scope: "host", where}``.

* ``pwquality``: libpwquality's settings in effect, with the file and line of
  each and the conflicts between files (``conf.read_pwquality``).
* ``login_defs``: every ``NAME VALUE`` of ``/etc/login.defs``.
* ``pam``: the ``password`` lines of ``system-auth``, ``password-auth`` and
  ``common-password`` (their ``include``/``substack``/``@include`` files of
  ``/etc/pam.d`` followed, ``MAX_PAM_DEPTH`` deep, no loops), with
  ``pam_pwquality`` and ``pam_unix`` (its hashing method and rounds) as the
  stack has them, and authselect's profile and features
  (``/etc/authselect/authselect.conf``) and which stacks are its symbolic links.
* ``accounts``: each ``/etc/shadow`` entry by form, scheme and cost
  (``_hash_schemes.identify``), never the hash nor any part of it.
* ``fips``: ``/proc/sys/crypto/fips_enabled`` under ``root`` where there is
  one (a running host), else the policy of ``/etc/crypto-policies/config``.

Each part is linear in the files it reads, and bounded: ``MAX_SHADOW_SIZE``,
``MAX_FILE_SIZE``, ``MAX_DROP_INS``, ``MAX_PAM_LINES``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._hash_schemes import identify
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.conf import (
    LOGIN_DEFS,
    PWQUALITY_CONF,
    PWQUALITY_DIR,
    is_drop_in,
    read_login_defs as login_defs_of_lines,
    read_pwquality as pwquality_of_lines,
    text_lines,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.host_files import HostFiles

SHADOW = "/etc/shadow"
PAM_DIR = "/etc/pam.d"
PAM_STACKS = ("system-auth", "password-auth", "common-password")
# The types of a PAM rule (pam.conf(5)).
PAM_TYPES = ("auth", "account", "password", "session")
AUTHSELECT_DIR = "/etc/authselect"
AUTHSELECT_CONF = "/etc/authselect/authselect.conf"
FIPS_ENABLED = "/proc/sys/crypto/fips_enabled"
CRYPTO_POLICY = "/etc/crypto-policies/config"

MiB = 1024 * 1024
# Far above any real shadow file (a million accounts of a long yescrypt hash each is about 200 MiB: no host has
# that many local accounts).
MAX_SHADOW_SIZE = 64 * MiB
# A configuration file: pwquality.conf, a drop-in, login.defs, a PAM file.
MAX_FILE_SIZE = 1 * MiB
MAX_DROP_INS = 1000
# Linux-PAM's own bound on nested substacks (PAM_SUBSTACK_MAX_LEVEL), and on the lines a stack expands to.
MAX_PAM_DEPTH = 16
MAX_PAM_LINES = 10000

# pam_unix's hashing options (the last on the line wins); without one it hashes as login.defs' ENCRYPT_METHOD.
PAM_UNIX_HASHES = ("md5", "bigcrypt", "sha256", "sha512", "blowfish", "gost_yescrypt", "yescrypt")


# ---------------------------------------------------------------------------
# libpwquality and login.defs
# ---------------------------------------------------------------------------

def read_pwquality(root="/", unknown=None):
    """libpwquality's settings on the host: ``{settings, origins, conflicts}`` (``conf.read_pwquality``); a file
    that cannot be read, and where libpwquality would stop reading, are appended to ``unknown``."""
    files = HostFiles(root, unknown)
    names = files.list_dir(PWQUALITY_DIR.rstrip("/"), MAX_DROP_INS, lambda name: is_drop_in(PWQUALITY_DIR + name),
                           "drop-ins")
    paths = [PWQUALITY_DIR + name for name in names]
    lines = {}
    for path in paths + [PWQUALITY_CONF]:
        if path != PWQUALITY_CONF and files.is_dir(path):
            continue  # libpwquality reads nothing from a directory named *.conf
        text = files.read_text(path, MAX_FILE_SIZE)
        if text is not None:
            lines[path] = text_lines(text, path)
    found, problems = pwquality_of_lines(lines)
    for problem in problems:
        files.unknown(problem["what"], problem["where"]["file"], problem["where"].get("line"))
    return found


def read_login_defs(root="/", unknown=None):
    """``{NAME: {value, where}}`` of the host's ``/etc/login.defs`` (``conf.read_login_defs``)."""
    files = HostFiles(root, unknown)
    text = files.read_text(LOGIN_DEFS, MAX_FILE_SIZE)
    return login_defs_of_lines(text_lines(text, LOGIN_DEFS)) if text is not None else {}


# ---------------------------------------------------------------------------
# PAM
# ---------------------------------------------------------------------------

def _pam_lines(text):
    """``[(line number, words)]`` of a PAM file: comments dropped, ``\\`` continuations joined, a ``[...]`` control
    or argument kept as one word."""
    found, pending, first = [], "", None
    for number, line in enumerate(text.splitlines(), 1):
        if first is None:
            first = number
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        whole, pending = pending + line, ""
        start, first = first, None
        whole = whole.split("#", 1)[0].strip()
        if whole:
            found.append((start, re.findall(r"\[[^\]]*\]?|[^\s\[]+", whole)))
    return found


def _option(word):
    name, equals, value = word.partition("=")
    if not equals:
        return name, True
    return name, int(value) if re.match(r"^[0-9]{1,9}$", value) else value


class _Stack(object):
    """One PAM stack's ``password`` lines, includes expanded in place."""

    def __init__(self, files):
        self.files = files
        self.lines = []   # (where, control, module, args)
        self.count = 0

    def read(self, name, chain):
        path = name if name.startswith("/") else "%s/%s" % (PAM_DIR, name)
        if path in chain:
            self.files.unknown("%s includes itself (through %s): not read again" % (
                path, " -> ".join(chain)), path)
            return
        if len(chain) >= MAX_PAM_DEPTH:
            self.files.unknown("%s is included more than %d deep: not read" % (path, MAX_PAM_DEPTH), path)
            return
        text = self.files.read_text(path, MAX_FILE_SIZE)
        if text is None:
            if chain and not self.files.lexists(path):
                self.files.unknown("%s, which %s includes, is missing" % (path, chain[-1]), path)
            return
        holder = self.files.resolve(path) or path
        for number, words in _pam_lines(text):
            self.count += 1
            if self.count > MAX_PAM_LINES:
                self.files.unknown("%s expands to more than %d lines: the rest is not read" % (
                    path, MAX_PAM_LINES), path)
                return
            kind = words[0].lstrip("-").lower()
            if kind == "@include" and len(words) > 1:
                self.read(words[1], chain + [path])
            elif kind not in PAM_TYPES or len(words) < 3:
                # Linux-PAM marks such a line faulty, and a faulty rule fails the stack it is in.
                self.files.unknown("line %d of %s is no PAM rule (type, control, module): PAM fails the stack"
                                   % (number, holder), holder, number)
            elif kind != "password":
                continue
            elif words[1].lower() in ("include", "substack"):
                self.read(words[2], chain + [path])
            else:
                self.lines.append(({"file": holder, "line": number}, words[1], words[2], words[3:]))
            if self.count > MAX_PAM_LINES:
                return


def _module(lines, name):
    for where, control, module, args in lines:
        if module.rsplit("/", 1)[-1] == name:
            return where, control, args
    return None


def _stack(files, name):
    stack = _Stack(files)
    stack.read(name, [])
    found = {"pwquality": None, "unix": None, "where": {"file": "%s/%s" % (PAM_DIR, name)},
             "link": files.link("%s/%s" % (PAM_DIR, name))}
    quality = _module(stack.lines, "pam_pwquality.so")
    if quality:
        found["pwquality"] = {"present": True, "control": quality[1],
                              "options": dict(_option(word) for word in quality[2]), "where": quality[0]}
    unix = _module(stack.lines, "pam_unix.so")
    if unix:
        options = dict(_option(word) for word in unix[2])
        methods = [word for word in unix[2] if word in PAM_UNIX_HASHES]
        rounds = options.get("rounds")
        found["unix"] = {"present": True, "control": unix[1], "hash": methods[-1] if methods else None,
                         "rounds": rounds if isinstance(rounds, int) else None, "options": options,
                         "where": unix[0]}
    return found


def _authselect(files, linked):
    text = files.read_text(AUTHSELECT_CONF, 64 * 1024)
    if text is None and not linked:
        return None
    lines = (text or "").split("\n")
    profile = lines[0].strip() if lines and lines[0].strip() else None
    if text is not None and profile is None:
        files.unknown("%s names no profile" % AUTHSELECT_CONF, AUTHSELECT_CONF, 1)
    return {"profile": profile, "features": [line.strip() for line in lines[1:] if line.strip()],
            "where": {"file": AUTHSELECT_CONF, "line": 1} if profile else None, "linked": linked}


def read_pam(root="/", unknown=None):
    """``{stacks: {name: {pwquality, unix, where, link}}, authselect}``: the host's PAM password stacks (those of
    ``PAM_STACKS`` it has) and authselect's state."""
    files = HostFiles(root, unknown)
    stacks = {}
    for name in PAM_STACKS:
        if files.lexists("%s/%s" % (PAM_DIR, name)):
            stacks[name] = _stack(files, name)
    linked = [name for name, stack in stacks.items()
              if stack["link"] is not None and stack["link"].startswith(AUTHSELECT_DIR + "/")]
    return {"stacks": stacks, "authselect": _authselect(files, linked)}


# ---------------------------------------------------------------------------
# /etc/shadow
# ---------------------------------------------------------------------------

def shadow_account(name, field, number):
    """One shadow entry (``name``, its password ``field``, at line ``number``), described: never the hash nor any
    part of it."""
    found = {"name": name, "command": "shadow", "form": None, "scheme": None, "cost": None, "usable": None,
             "where": {"file": SHADOW, "line": number}}
    if field == "":
        found.update(form="empty", usable=True)
        return found
    if field[0] in "!*":
        form = identify(field.lstrip("!"))
        found.update(form="locked", usable=False, scheme=form.scheme if form else None,
                     cost=form.cost if form else None)
        return found
    form = identify(field)
    if form is None:
        found.update(form="unparsed")
    else:
        found.update(form="crypt", scheme=form.scheme, cost=form.cost, usable=True)
    return found


def read_accounts(root="/", unknown=None):
    """``[{name, command: "shadow", form, scheme, cost, usable, where}]``: each entry of the host's
    ``/etc/shadow``.  form: crypt | locked (``!`` or ``*``; the scheme of what follows ``!`` where it is a hash) |
    empty (no password: a login without one, where PAM allows nullok) | unparsed (no scheme known here);
    usable: whether a password login is possible (None for an unparsed field)."""
    files = HostFiles(root, unknown)
    text = files.read_text(SHADOW, MAX_SHADOW_SIZE)
    accounts = []
    for number, name, field, problem in shadow_entries(text or ""):
        if problem is not None:
            files.unknown(problem, SHADOW, number)
            continue
        accounts.append(shadow_account(name, field, number))
    return accounts


def shadow_entries(text):
    """Each entry of a shadow file's ``text`` as ``(line number, name, password field, None)``, and each line that
    is none (a line that is no entry, a NIS entry) as ``(line number, None, None, what)``; blank and comment lines
    are left out.  The password field is the file's own: the caller keeps it to itself."""
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split(":")
        if len(fields) < 2 or not fields[0]:
            yield number, None, None, "line %d of %s is no shadow entry" % (number, SHADOW)
        elif fields[0][0] in "+-":
            yield number, None, None, "line %d of %s is a NIS entry: its accounts are not here" % (number, SHADOW)
        else:
            yield number, fields[0], fields[1], None


# ---------------------------------------------------------------------------
# FIPS
# ---------------------------------------------------------------------------

def read_fips(root="/", unknown=None):
    """``(fips, where)``: the kernel's ``fips_enabled`` where ``root`` has one, else whether the system-wide
    crypto policy is FIPS (a hint: the kernel's ``fips=1`` is what turns the mode on); ``where`` None when
    neither says."""
    files = HostFiles(root, unknown)
    text = files.read_text(FIPS_ENABLED, 4096)
    if text is not None and text.strip():
        return text.strip() == "1", {"file": FIPS_ENABLED, "line": 1}
    text = files.read_text(CRYPTO_POLICY, 64 * 1024)
    for number, line in enumerate((text or "").splitlines(), 1):
        policy = line.split("#", 1)[0].strip()
        if policy:
            return policy.split(":", 1)[0].upper() == "FIPS", {"file": CRYPTO_POLICY, "line": number}
    return False, None


# ---------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------

def read_auth(root="/"):
    """The host's authentication posture under ``root``: ``{pwquality, login_defs, pam, accounts, fips,
    fips_where, unknown}``."""
    unknown = []
    found = {"pwquality": read_pwquality(root, unknown), "login_defs": read_login_defs(root, unknown),
             "pam": read_pam(root, unknown), "accounts": read_accounts(root, unknown)}
    found["fips"], found["fips_where"] = read_fips(root, unknown)
    found["unknown"] = unknown
    return found
