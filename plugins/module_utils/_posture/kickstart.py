# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Reading a kickstart (or an unrendered template) into a posture (``model``), as the installer will read it.

Commands are read with the target release's own pykickstart parser
(``_ks_commands``): the words as ``shlex`` splits them with comments (a
``# --encrypted`` at the end of a line is a comment, as it is to the
installer), then the command's ``argparse`` parser, so the last of two
conflicting flags wins and an abbreviated option is what pykickstart makes of
it.  The accounts and the boot-loader password come from ``_ks_secrets``
(the same reading ``ks_secrets_info`` reports), the policies of a
``%anaconda`` section from ``_ks_edit``.

What ``%post`` scripts write is read from the scripts themselves, not from
their comments: a here-document (``cat > FILE <<'EOF'``, ``cat >> FILE``,
``tee [-a] FILE``), ``echo``/``printf`` redirected to a file, and ``sed -i``
substitutions that set a key, into ``/etc/security/pwquality.conf``,
``/etc/security/pwquality.conf.d/*.conf`` and ``/etc/login.defs`` (under
``/mnt/sysimage`` or ``/mnt/sysroot`` for a ``--nochroot`` script).  An edit
of those files that this cannot follow is listed under ``unknown``.

In a template (``template=True``) a value the template fills in is of form
``template`` and a storage line with a template expression has ``encrypted``
None: neither accepted nor rejected.  ``%include`` and ``%ksappend`` are
listed under ``unknown``: what they bring is read by the installer only.

One pass over the lines; each line's work is bounded by ``_ks_lines``' limits.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re
import warnings

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _ks_secrets
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_commands import NoParser, handler_for, parser_of
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_scripts import here_document, written_text
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import (
    BODY,
    OUTSIDE,
    split_words,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.conf import (
    LOGIN_DEFS,
    PWQUALITY_CONF,
    is_drop_in,
    read_login_defs,
    read_pwquality,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.model import new_posture, where
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import ReleaseError, parse_release

STORAGE = ("part", "partition", "logvol", "raid", "volgroup", "autopart")
# The commands that set an account's password: kickstart's own, and those of %pre and %post scripts.
ACCOUNT_COMMANDS = ("rootpw", "user", "chpasswd", "passwd", "usermod", "useradd")
# A script that sets the boot loader's password (user.cfg).
GRUB_SCRIPT = "grub2-setpassword"
INCLUDES = ("%include", "%ksappend")
# What a script may write that the posture reads is PWQUALITY_CONF, a drop-in of its directory and LOGIN_DEFS, as
# the installed system has them (the prefixes are where a --nochroot script sees the installed system).
_ROOTS = ("/mnt/sysimage", "/mnt/sysroot")
_KDF_FIELDS = (("pbkdf", "type"), ("pbkdf_iterations", "iterations"), ("pbkdf_time", "time"),
               ("pbkdf_memory", "memory"))

_SED_SET_RE = re.compile(r"^s(.)\^?\\?[ \t]*\(?([A-Za-z_][A-Za-z0-9_]*)")


class _Parsers(object):
    """The target's pykickstart parsers, each made once (None without pykickstart)."""

    def __init__(self, target):
        try:
            self._handler = handler_for(target)
        except NoParser:
            self._handler = None
        self._parsers = {}

    def parse(self, words):
        """``(namespace, the words left over)`` as pykickstart reads a command's words (a RAID's members are left
        over, as pykickstart takes them), or ``(None, [])`` without pykickstart or when it refuses the line."""
        if self._handler is None:
            return None, []
        command = words[0]
        if command not in self._parsers:
            self._parsers[command] = parser_of(self._handler, command)
        parser = self._parsers[command]
        if parser is None:
            return None, []
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                namespace, extra = parser.parse_known_args(words[1:])
        except Exception:  # pylint: disable=broad-except  # KickstartParseError, or argparse's own exit
            return None, []
        return namespace, [word for word in extra if not word.startswith("-")]


def _words(line, template):
    """The line's words as the installer splits them (template spans masked); None when they cannot be split."""
    text = _ks_secrets.mask_templates(line) if template else line
    try:
        return split_words(text)
    except ValueError:
        return None


def _has_template(words):
    return any(_ks_secrets.MASK in word for word in words)


def _kdf(namespace):
    kdf = {}
    for attribute, key in _KDF_FIELDS:
        value = getattr(namespace, attribute, None)
        if value not in (None, "", 0):  # pykickstart's 0: not given
            kdf[key] = value
    return kdf or None


def _passphrase(namespace, template):
    value = getattr(namespace, "passphrase", None)
    if not value:
        return None
    return "template" if _ks_secrets._is_template(value, template) else "plaintext"  # pylint: disable=protected-access


def _mount(namespace):
    """The mount point (or name: ``pv.01``, ``swap``) of a storage line as pykickstart read it, or None."""
    mount = getattr(namespace, "mntpoint", None)
    return mount[0] if isinstance(mount, list) and mount else mount


def _storage(posture, number, words, parsers, template):
    command = "part" if words[0] == "partition" else words[0]
    namespace, extra = parsers.parse(words)
    masked = template and _has_template(words)
    if namespace is None:
        posture["unknown"].append({"what": "the %s line could not be read" % command, "scope": "commands",
                                   "where": where(number)})
        encrypted = None
        namespace = object()
    else:
        encrypted = bool(getattr(namespace, "encrypted", False))
        if masked and not encrypted:
            encrypted = None  # the template may add --encrypted
    details = {"encrypted": encrypted, "passphrase": _passphrase(namespace, template),
               "luks_version": getattr(namespace, "luks_version", None) or None, "kdf": _kdf(namespace),
               "where": where(number)}
    if command == "autopart":
        posture["autopart"] = details
        return
    if command == "volgroup":
        positional = list(getattr(namespace, "name", None) or []) + extra
        details.update(command="volgroup", name=positional[0] if positional else None,
                       members=positional[1:], encrypted=None)
    elif command == "logvol":
        group = getattr(namespace, "vgname", None)
        details.update(command="logvol", name=_mount(namespace), members=[group] if group else [])
    else:  # part and raid (a RAID's members are the words pykickstart leaves over)
        details.update(command=command, name=_mount(namespace), members=list(extra) if command == "raid" else [])
    posture["devices"].append(details)


def _bootloader(posture, number, words, parsers, secrets_by_line):
    namespace = parsers.parse(words)[0]
    append = getattr(namespace, "appendLine", None) if namespace is not None else None
    if append and re.search(r"(?:^|\s)fips=1(?:\s|$)", append):
        posture["fips"] = True
    found = {"form": "none", "scheme": None, "cost": None, "where": where(number)}
    for secret in secrets_by_line.get(number, ()):
        if secret.command == "bootloader":
            found.update(form=_form(secret), scheme=secret.scheme, cost=secret.cost)
    posture["bootloader"] = found


def _form(secret):
    """A secret's form in the posture: ``unparsed`` for a value given as a hash that no scheme reads."""
    return "unparsed" if secret.form == "crypt" and secret.scheme is None else secret.form


def _account(secret):
    return {"name": secret.account, "command": secret.command, "form": _form(secret), "scheme": secret.scheme,
            "cost": secret.cost, "where": where(secret.line)}


# ---------------------------------------------------------------------------
# What scripts write
# ---------------------------------------------------------------------------

def _installed_path(word):
    """The installed system's path a script's word names, or None when it is none the posture reads."""
    for root in _ROOTS:
        if word.startswith(root + "/"):
            word = word[len(root):]
            break
    if word == PWQUALITY_CONF or word == LOGIN_DEFS:
        return word
    if is_drop_in(word):
        return word
    return None


def _redirect(words):
    """``(path, append)`` of a command's output redirection to a file the posture reads, else None."""
    for index, word in enumerate(words):
        if not word.startswith(">"):
            continue
        append = word.startswith(">>")
        rest = word[2 if append else 1:]
        path = _installed_path(rest or (words[index + 1] if index + 1 < len(words) else ""))
        if path is not None:
            return path, append
    return None


def _tee(words):
    """``(path, append)`` of a ``tee`` of a file the posture reads, else None."""
    if "tee" not in words:
        return None
    append = False
    for word in words[words.index("tee") + 1:]:
        if word in ("-a", "--append"):
            append = True
        elif not word.startswith("-"):
            path = _installed_path(word)
            if path is not None:
                return path, append
    return None


class _Files(object):
    """What scripts write into the files the posture reads: each file's lines, with the kickstart line of each."""

    def __init__(self):
        self.lines = {}   # path -> [(text, kickstart line)]

    def write(self, path, texts, append):
        if not append:
            self.lines[path] = []
        self.lines.setdefault(path, []).extend(texts)

    def set_key(self, path, key, value, number):
        """A ``sed -i`` substitution that leaves ``key value`` (login.defs) or ``key = value`` in ``path``."""
        separator = " " if path == LOGIN_DEFS else " = "
        self.lines.setdefault(path, []).append(("%s%s%s" % (key, separator, value), number))


def _sed(files, words, number, unknown):
    """A ``sed -i`` edit of a file the posture reads: a substitution that sets a key, a deletion (which does not
    set one), or one it cannot follow (``unknown``)."""
    paths = [_installed_path(word) for word in words[1:] if _installed_path(word)]
    if not paths or not any(word == "-i" or word.startswith("-i") or word == "--in-place" for word in words[1:]):
        return
    expressions = [word for word in words[1:] if not word.startswith("-") and not _installed_path(word)]
    for path in paths:
        for expression in expressions:
            if expression.endswith("/d"):
                continue  # deletes lines: sets nothing
            match = _SED_SET_RE.match(expression)
            parts = expression[2:].split(expression[1]) if len(expression) > 2 and expression[0] == "s" else []
            if match and len(parts) >= 2:
                replacement = parts[1].strip()
                pieces = re.split(r"[ \t]*=[ \t]*|[ \t]+", replacement, maxsplit=1)
                if len(pieces) == 2 and re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", pieces[0]) and "\\" not in pieces[1]:
                    files.set_key(path, pieces[0], pieces[1], number)
                    continue
            unknown.append({"what": "a sed edit of %s that is not read" % path, "scope": "script",
                            "where": where(number, path)})


def _scripts(lines, roles, files, unknown):
    """Read every ``%post`` script's writes into ``files``."""
    document = None  # the here-document being read; its key: (path, append)
    for number, (line, (role, section)) in enumerate(zip(lines, roles), 1):
        if role != BODY or section != "%post":
            document = None
            continue
        if document is not None:
            if document.feed(line, number):
                files.write(document.key[0], document.lines, document.key[1])
                document = None
            continue
        if "pwquality" not in line and "login.defs" not in line:
            continue  # writes none of the files the posture reads (one look, before the line is split)
        try:
            words = split_words(line)
        except ValueError:
            continue
        if not words:
            continue
        target = _redirect(words) or _tee(words)
        opened = here_document(line, target) if target is not None else None
        if opened is not None:
            document = opened
            continue
        if words[0] in ("echo", "printf") and target is not None:
            files.write(target[0], [(text, number) for text in written_text(words) or ()], target[1])
        elif words[0] == "sed":
            _sed(files, words, number, unknown)
        elif target is not None:
            unknown.append({"what": "a write to %s that is not read" % target[0], "scope": "script",
                            "where": where(number, target[0])})


def _pwquality(posture, files):
    """libpwquality's settings as it reads the files the scripts write (``conf.read_pwquality``); where it would
    stop reading is listed under ``unknown``."""
    found, problems = read_pwquality(dict((path, [(text, where(number, path)) for text, number in lines])
                                          for path, lines in files.lines.items() if path != LOGIN_DEFS))
    posture["pwquality"] = found
    posture["unknown"].extend({"what": problem["what"], "scope": "script", "where": problem["where"]}
                              for problem in problems)


def _login_defs(posture, files):
    posture["login_defs"] = read_login_defs([(text, where(number, LOGIN_DEFS))
                                             for text, number in files.lines.get(LOGIN_DEFS, ())])


# ---------------------------------------------------------------------------
# The policies of %anaconda
# ---------------------------------------------------------------------------

def _policies(posture, lines, roles, release, template):
    """The installer's policies of the ``%anaconda`` sections: the sections' lines alone are read, each entry's
    line mapped back to the kickstart's."""
    numbers = [number for number, (dummy, section) in enumerate(roles, 1) if section == "%anaconda"]
    if not numbers:
        return
    kept = "".join(lines[number - 1] if lines[number - 1].endswith(("\n", "\r")) else lines[number - 1] + "\n"
                   for number in numbers)
    from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_edit import read_policies
    try:
        read = read_policies(kept, release, validate=False)
    except Exception:  # pylint: disable=broad-except  # an unreadable section: named, not judged
        posture["unknown"].append({"what": "the %anaconda section could not be read", "scope": "section",
                                   "where": where(numbers[0])})
        return
    for name, policy in read.policies.items():
        found = policy.to_dict()
        found.pop("name", None)
        lines_of = [entry.lineno for entry in read.parsed.entries if entry.name == name and entry.policy == policy]
        found["where"] = where(numbers[lines_of[-1] - 1] if lines_of and 0 < lines_of[-1] <= len(numbers) else None)
        posture["policies"][name] = found


# ---------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------

def read_kickstart(text, target=None, template=False, read=None):
    """The posture of the kickstart ``text`` for ``target`` (pykickstart's name; None: its ``#version=`` line,
    else the newest release).  Raises ``_ks_secrets.SecretsError`` for a text that is no kickstart (a NUL, a line
    or a file over the bounds), naming the line.  ``read``: the same text already read with the same arguments
    (``read_secrets(...).read``), so that it is not read again."""
    secrets, dummy, release, lines, roles = read or _ks_secrets.read_lines(text, template, target)
    posture = new_posture("kickstart", release)
    try:
        if release:
            found = parse_release(release)
            posture["installer"].update(hashes_typed_as=found.password_hash, uis=found.installer_uis)
    except ReleaseError:
        pass
    posture["accounts"] = [_account(secret) for secret in secrets if secret.command in ACCOUNT_COMMANDS]
    posture["at_rest"] = [{"command": secret.command, "form": secret.form, "where": where(secret.line)}
                          for secret in secrets if secret.form != "locked"]
    by_line = {}
    for secret in secrets:
        by_line.setdefault(secret.line, []).append(secret)
    parsers = _Parsers(release)
    for number, (line, (role, dummy)) in enumerate(zip(lines, roles), 1):
        if role != OUTSIDE:
            continue
        stripped = line.lstrip()
        if not stripped or stripped[0] == "#":
            continue
        word = stripped.split(None, 1)[0]
        if word in INCLUDES:
            posture["unknown"].append({"what": word, "scope": "commands", "where": where(number)})
            continue
        if word not in STORAGE and word != "bootloader":
            continue
        words = _words(line, template)
        if not words:
            posture["unknown"].append({"what": "the %s line could not be read" % word, "scope": "commands",
                                       "where": where(number)})
            continue
        if words[0] == "bootloader":
            _bootloader(posture, number, words, parsers, by_line)
        elif words[0] in STORAGE:
            _storage(posture, number, words, parsers, template)
    scripted = [secret for secret in secrets if secret.command == GRUB_SCRIPT]
    if scripted and (posture["bootloader"] is None or posture["bootloader"]["form"] == "none"):
        posture["bootloader"] = {"form": scripted[-1].form, "scheme": None, "cost": None,
                                 "where": where(scripted[-1].line)}
    files = _Files()
    _scripts(lines, roles, files, posture["unknown"])
    _pwquality(posture, files)
    _login_defs(posture, files)
    _policies(posture, lines, roles, release, template)
    return posture
