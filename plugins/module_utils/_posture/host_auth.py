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

import errno
import os
import re

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._files import FileError, describe_os_error, read_bytes
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

SHADOW = "/etc/shadow"
PAM_DIR = "/etc/pam.d"
PAM_STACKS = ("system-auth", "password-auth", "common-password")
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
MAX_LINKS = 40  # the kernel's bound on symbolic links in one lookup

# pam_unix's hashing options (the last on the line wins); without one it hashes as login.defs' ENCRYPT_METHOD.
PAM_UNIX_HASHES = ("md5", "bigcrypt", "sha256", "sha512", "blowfish", "gost_yescrypt", "yescrypt")


def _unknown(unknown, what, path, line=None):
    where = {"file": path}
    if line is not None:
        where["line"] = line
    unknown.append({"what": what, "scope": "host", "where": where})


class _Root(object):
    """The host's files under ``root``, each looked up as the host would (links resolved inside ``root``)."""

    def __init__(self, root, unknown):
        self.root = os.path.abspath(root or "/")
        self.unknown = unknown

    def on_host(self, path):
        """The host path ``path`` (absolute, on the host) resolves to, following every symbolic link from
        ``root``; raises FileError for a loop."""
        parts = [part for part in path.split("/") if part]
        resolved, links = [], 0
        while parts:
            part = parts.pop(0)
            if part == ".":
                continue
            if part == "..":
                if resolved:
                    resolved.pop()
                continue
            local = os.path.join(self.root, *(resolved + [part]))
            if os.path.islink(local):
                links += 1
                if links > MAX_LINKS:
                    raise FileError("%s: too many levels of symbolic links" % path)
                try:
                    target = os.readlink(local)
                except OSError as exc:
                    raise FileError(describe_os_error("read the link", "/" + "/".join(resolved + [part]), exc))
                if target.startswith("/"):
                    resolved = []
                parts = [piece for piece in target.split("/") if piece] + parts
                continue
            resolved.append(part)
        return "/" + "/".join(resolved)

    def local(self, host_path):
        return os.path.join(self.root, host_path.lstrip("/"))

    def link(self, path):
        """The host path a symbolic link at ``path`` resolves to, or None when ``path`` is no link."""
        if not os.path.islink(self.local(path)):
            return None
        try:
            return self.on_host(path)
        except FileError:
            return None

    def read(self, path, limit=MAX_FILE_SIZE):
        """The text of the host file ``path``, or None when there is none; what cannot be read goes to
        ``unknown``."""
        try:
            data = read_bytes(self.local(self.on_host(path)), limit, "file")
        except FileError as exc:
            # The first clause of the message (what failed on which path, why), with the host's paths.
            _unknown(self.unknown, self._host_message(exc).split("; ", 1)[0], path)
            return None
        if data is None:
            return None
        return data.decode("utf-8", "replace")

    def _host_message(self, exc):
        """An error's message with the host's paths (``root`` taken out)."""
        message = str(exc)
        if self.root != "/":
            message = message.replace(self.root.rstrip("/") + "/", "/")
        return message

    def is_dir(self, path):
        try:
            return os.path.isdir(self.local(self.on_host(path)))
        except FileError:
            return False

    def listdir(self, path):
        """The names in the host directory ``path`` (empty when there is none or it cannot be read)."""
        try:
            local = self.local(self.on_host(path))
            return os.listdir(local)
        except FileError as exc:
            _unknown(self.unknown, self._host_message(exc).split("; ", 1)[0], path)
        except OSError as exc:
            if exc.errno not in (errno.ENOENT, errno.ENOTDIR):
                _unknown(self.unknown, describe_os_error("list", path, exc).split("; ", 1)[0], path)
        return []


def _root(root, unknown):
    return _Root(root, [] if unknown is None else unknown)


# ---------------------------------------------------------------------------
# libpwquality and login.defs
# ---------------------------------------------------------------------------

def read_pwquality(root="/", unknown=None):
    """libpwquality's settings on the host: ``{settings, origins, conflicts}`` (``conf.read_pwquality``); a file
    that cannot be read, and where libpwquality would stop reading, are appended to ``unknown``."""
    files = _root(root, unknown)
    names = files.listdir(PWQUALITY_DIR)
    paths = [PWQUALITY_DIR + name for name in names if is_drop_in(PWQUALITY_DIR + name)]
    if len(paths) > MAX_DROP_INS:
        _unknown(files.unknown, "%s has %d drop-ins; the first %d by name are read" % (
            PWQUALITY_DIR.rstrip("/"), len(paths), MAX_DROP_INS), PWQUALITY_DIR.rstrip("/"))
        paths = sorted(paths, key=os.fsencode)[:MAX_DROP_INS]
    lines = {}
    for path in paths + [PWQUALITY_CONF]:
        if path != PWQUALITY_CONF and files.is_dir(path):
            continue  # libpwquality reads nothing from a directory named *.conf
        text = files.read(path)
        if text is not None:
            lines[path] = text_lines(text, path)
    found, problems = pwquality_of_lines(lines)
    files.unknown.extend({"what": problem["what"], "scope": "host", "where": problem["where"]}
                         for problem in problems)
    return found


def read_login_defs(root="/", unknown=None):
    """``{NAME: {value, where}}`` of the host's ``/etc/login.defs`` (``conf.read_login_defs``)."""
    files = _root(root, unknown)
    text = files.read(LOGIN_DEFS)
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
            _unknown(self.files.unknown, "%s includes itself (through %s): not read again" % (
                path, " -> ".join(chain)), path)
            return
        if len(chain) >= MAX_PAM_DEPTH:
            _unknown(self.files.unknown, "%s is included more than %d deep: not read" % (path, MAX_PAM_DEPTH), path)
            return
        text = self.files.read(path)
        if text is None:
            if chain and not os.path.lexists(self.files.local(path)):
                _unknown(self.files.unknown, "%s, which %s includes, is missing" % (path, chain[-1]), path)
            return
        try:
            holder = self.files.on_host(path)
        except FileError:
            holder = path
        for number, words in _pam_lines(text):
            self.count += 1
            if self.count > MAX_PAM_LINES:
                _unknown(self.files.unknown, "%s expands to more than %d lines: the rest is not read" % (
                    path, MAX_PAM_LINES), path)
                return
            kind = words[0].lstrip("-").lower()
            if kind == "@include" and len(words) > 1:
                self.read(words[1], chain + [path])
            elif kind != "password" or len(words) < 3:
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
    text = files.read(AUTHSELECT_CONF, 64 * 1024)
    if text is None and not linked:
        return None
    lines = (text or "").split("\n")
    profile = lines[0].strip() if lines and lines[0].strip() else None
    if text is not None and profile is None:
        _unknown(files.unknown, "%s names no profile" % AUTHSELECT_CONF, AUTHSELECT_CONF, 1)
    return {"profile": profile, "features": [line.strip() for line in lines[1:] if line.strip()],
            "where": {"file": AUTHSELECT_CONF, "line": 1} if profile else None, "linked": linked}


def read_pam(root="/", unknown=None):
    """``{stacks: {name: {pwquality, unix, where, link}}, authselect}``: the host's PAM password stacks (those of
    ``PAM_STACKS`` it has) and authselect's state."""
    files = _root(root, unknown)
    stacks = {}
    for name in PAM_STACKS:
        if os.path.lexists(files.local("%s/%s" % (PAM_DIR, name))):
            stacks[name] = _stack(files, name)
    linked = [name for name, stack in stacks.items()
              if stack["link"] is not None and stack["link"].startswith(AUTHSELECT_DIR + "/")]
    return {"stacks": stacks, "authselect": _authselect(files, linked)}


# ---------------------------------------------------------------------------
# /etc/shadow
# ---------------------------------------------------------------------------

def _account(name, field, number):
    """One shadow entry, described: never the hash nor any part of it."""
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
    files = _root(root, unknown)
    text = files.read(SHADOW, MAX_SHADOW_SIZE)
    accounts = []
    for number, line in enumerate((text or "").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split(":")
        if len(fields) < 2 or not fields[0]:
            _unknown(files.unknown, "line %d of %s is no shadow entry" % (number, SHADOW), SHADOW, number)
            continue
        if fields[0][0] in "+-":
            _unknown(files.unknown, "line %d of %s is a NIS entry: its accounts are not here" % (number, SHADOW),
                     SHADOW, number)
            continue
        accounts.append(_account(fields[0], fields[1], number))
    return accounts


# ---------------------------------------------------------------------------
# FIPS
# ---------------------------------------------------------------------------

def read_fips(root="/", unknown=None):
    """``(fips, where)``: the kernel's ``fips_enabled`` where ``root`` has one, else whether the system-wide
    crypto policy is FIPS (a hint: the kernel's ``fips=1`` is what turns the mode on); ``where`` None when
    neither says."""
    files = _root(root, unknown)
    text = files.read(FIPS_ENABLED, 4096)
    if text is not None and text.strip():
        return text.strip() == "1", {"file": FIPS_ENABLED, "line": 1}
    text = files.read(CRYPTO_POLICY, 64 * 1024)
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
