# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Taking values that may be secrets out of messages and kickstart lines.

A value can reach a message as it is, or in an escaped form: Python's
``repr`` (``'a\\\\b'``, ``"it's"``), doubled backslashes, or
``unicode_escape``; or in a form derived from it: quoted for a shell or a
kickstart line (``'it'"'"'s'``, as ``ansible.builtin.quote`` writes it), and
that in turn escaped.  :func:`hide` replaces every form of every value that
occurs in the message by ``<hidden>``; it only builds a pattern from the values
present, so its cost follows the message, not the number of values.  A hash
derived from a secret (a crypt hash such as ``$6$...``, a GRUB2
``grub.pbkdf2.sha512...`` hash) is hidden wherever it appears, whoever made it.

For kickstarts: :func:`line_secrets` are the values of a line whose command
may hold a secret, :func:`redact_line` rebuilds such a line from its command
and option names, and :class:`FileSecrets` hides every such value of a whole
file in messages (pykickstart's errors and warnings).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re
import shlex

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import (
    MAX_LINE_CHARS,
    newline_of,
    split_words,
)

HIDDEN = "<hidden>"


# Hashes derived from secrets: crypt(3) hashes ($1$, $2b$, $5$, $6$ with or without rounds=, $y$, $gy$, $7$, ...)
# and GRUB2's PBKDF2 hashes (bootloader --iscrypted --password=grub.pbkdf2.sha512.N.SALT.HASH).
DERIVED_RE = re.compile(r"\$(?:1|2[abxy]?|5|6|7|md5|sha1|y|gy|sm3)\$(?:rounds=\d+\$)?[./0-9A-Za-z$]+"
                        r"|grub\.pbkdf2\.sha512\.\d+\.[0-9A-Fa-f]+(?:\.[0-9A-Fa-f]+)?")


def _escaped(value):
    """``value`` in the forms a message may show it in: as it is, Python's ``repr``, backslashes doubled,
    ``unicode_escape``, and inside the other quote of a ``repr`` (``\\'`` or ``\\"``)."""
    doubled = value.replace("\\", "\\\\")
    return {value, repr(value)[1:-1], doubled, value.encode("unicode_escape").decode("ascii"),
            doubled.replace("'", "\\'"), doubled.replace('"', '\\"')}


def variants(value):
    """``value`` and the escaped and quoted forms a message may show it in."""
    if not isinstance(value, str):
        value = str(value)
    forms = _escaped(value)
    quoted = shlex.quote(value)
    if quoted != value:
        forms |= _escaped(quoted)
    return {form for form in forms if form}


def _substitute(message, present):
    alternatives = "|".join(re.escape(v) for v in sorted(present, key=len, reverse=True))
    return re.sub(r"(?<!\w)(?:%s)(?!\w)" % alternatives, HIDDEN, message)


def hide_derived(message):
    """``message`` with every hash derived from a secret (:data:`DERIVED_RE`) replaced by ``<hidden>``."""
    return DERIVED_RE.sub(HIDDEN, message) if "$" in message or "grub." in message else message


def hide(message, secrets):
    """``message`` with each value of ``secrets`` (in any escaped or quoted form) and every hash
    replaced by ``<hidden>``."""
    present = set()
    for value in secrets:
        present.update(form for form in variants(value) if form in message)
    return hide_derived(_substitute(message, present) if present else message)


class Redactor(object):
    """:func:`hide` for many messages and many values: the forms are computed and indexed once.

    Finding which forms occur in a message costs one dictionary look-up per
    character of the message (forms are indexed by their first three
    characters), not one search per value.
    """

    _KEY = 3

    def __init__(self, secrets):
        self._short = set()
        self._index = {}
        for value in secrets:
            for form in variants(value):
                if len(form) < self._KEY:
                    self._short.add(form)
                else:
                    self._index.setdefault(form[:self._KEY], set()).add(form)

    def hide(self, message):
        present = set(form for form in self._short if form in message)
        if self._index:
            index, key = self._index, self._KEY
            for start in range(len(message) - key + 1):
                forms = index.get(message[start:start + key])
                if forms:
                    present.update(form for form in forms if message.startswith(form, start))
        return hide_derived(_substitute(message, present) if present else message)


def leaves(value, minimum=3, depth=0):
    """Every string (and number) inside ``value`` (dict keys included) of at least ``minimum`` characters."""
    if depth > 20:
        return set()
    found = set()
    if isinstance(value, dict):
        for key, item in value.items():
            found |= leaves(key, minimum, depth + 1) | leaves(item, minimum, depth + 1)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            found |= leaves(item, minimum, depth + 1)
    elif value is not None and not isinstance(value, bool):
        try:
            text = value if isinstance(value, str) else str(value)
        except Exception:  # pylint: disable=broad-except
            return found
        if len(text) >= minimum:
            found.add(text)
    return found


# ---------------------------------------------------------------------------
# Kickstart lines
# ---------------------------------------------------------------------------

# Commands whose arguments may hold a secret: their values never reach a message.
SECRET_COMMANDS = frozenset((
    "rootpw", "user", "sshpw", "bootloader", "autopart", "part", "partition", "logvol",
    "raid", "btrfs", "vnc", "url", "repo", "liveimg", "ostreesetup", "ostreecontainer",
    "network", "rhsm", "authconfig", "auth", "realm", "zfcp", "iscsi", "iscsiname",
))
# The command word of a line, quoted or not: cheap enough to run on every line.
_COMMAND_WORD_RE = re.compile(r"""^\s*["']?([^\s"'=]+)""")


def _may_hold_secret(word, line):
    return word in SECRET_COMMANDS or "pass" in line.lower()


def _option_value(word):
    return word.split("=", 1)[1] if word.startswith("-") and "=" in word else word


def _words(line):
    """The words of ``line`` (as shlex splits them); a first word with blanks in it is split at them.

    A quoted command word with blanks (``'rootpw --plaintext x'``) is one
    unknown command to pykickstart, which quotes it whole in its message.
    """
    words = split_words(line)
    if words and len(words[0].split()) > 1:
        words = words[0].split() + words[1:]
    return words


def _long(line):
    """A line longer than any command line the reader lets through: a script or package line.

    pykickstart never splits those into words, so no message quotes a word of
    one; such a line is hidden whole, in time linear in its length.
    """
    return len(line) > MAX_LINE_CHARS


def line_secrets(line):
    """The values on ``line`` that may be secrets (its command may hold one), else nothing.

    Each value comes as shlex reads it and as written (quoted or
    backslash-escaped), plus the whole rest of the line, since a message may
    quote any of them.  A long line (:func:`_long`) gives the rest of the line only.
    """
    match = _COMMAND_WORD_RE.match(line)
    if not match or not _may_hold_secret(match.group(1), line):
        return ()
    if _long(line):
        return set(line.strip().split(None, 1)[1:])
    try:
        words = _words(line)
    except ValueError:
        words = line.split()
    if not words or not _may_hold_secret(words[0], line):
        return ()
    secrets = set()
    for word in set(words[1:]):  # each distinct word once: a long line may repeat a few words
        value = _option_value(word)
        if value and not value.startswith("-"):
            secrets.add(value)
    for word in set(line.split()[1:]):
        value = _option_value(word)
        if len(value) > 2 and not value.startswith("-"):
            secrets.add(value)
    rest = line.strip().split(None, 1)[1:]
    if rest:
        secrets.add(rest[0])
    return secrets


def redact_message(message, line):
    """``message`` without the values of ``line`` when its command may hold a secret."""
    return hide(message, line_secrets(line))


def redact_line(line):
    """``line`` with every value of a command that may hold a secret replaced by ``<hidden>``.

    The line is rebuilt from its command word and option names, so no form of
    a value (quoted, escaped with backslashes, split over words) survives.
    """
    if not line_secrets(line):
        return line
    ending = newline_of(line)  # any line boundary (a form feed, U+2028 ...), kept as it was
    body = line[:len(line) - len(ending)]
    indent = body[:len(body) - len(body.lstrip())]
    if _long(body):
        return "%s%s %s%s" % (indent, body.split(None, 1)[0], HIDDEN, ending)
    try:
        words = _words(body)
    except ValueError:
        words = body.split()[:1]
        return "%s%s %s%s" % (indent, words[0] if words else "", HIDDEN, ending)
    out = [words[0]]
    for word in words[1:]:
        if word.startswith("-"):
            name, equals, _value = word.partition("=")
            out.append(name + ("=" + HIDDEN if equals else ""))
        else:
            out.append(HIDDEN)
    return indent + " ".join(out) + ending


def redacted_text(text):
    """``text`` with :func:`redact_line` applied to every line: what a diff of a whole kickstart may show."""
    return "".join(redact_line(line) for line in text.splitlines(True))


class FileSecrets(object):
    """Every value of every line of one file that may be a secret, collected once, on first use."""

    def __init__(self, lines):
        self._lines = lines
        self._redactor = None

    def hide(self, message):
        if not message:
            return message  # nothing to hide: the file is not indexed (pykickstart said nothing)
        if self._redactor is None:
            values = set()
            for line in self._lines:
                values.update(line_secrets(line))
            self._redactor = Redactor(values)
        return self._redactor.hide(message)


# Option words that put a password, a passphrase, a hash or a key on a line of SECRET_COMMANDS.
_SECRET_MARKS = ("pass", "--iscrypted", "--plaintext", "--wpakey")


def holds_secret(text):
    """True when a line of the kickstart ``text`` carries a password, a passphrase or a hash.

    That is ``rootpw`` or ``sshpw`` with a value, or a command of
    :data:`SECRET_COMMANDS` with an option such as ``--password``,
    ``--passphrase``, ``--iscrypted`` or ``--plaintext``.  It errs towards
    yes (any ``pass`` on such a line counts); one pass over the lines.
    """
    for line in text.splitlines():
        match = _COMMAND_WORD_RE.match(line)
        if not match or match.group(1) not in SECRET_COMMANDS:
            continue
        lowered = line.lower()
        if any(mark in lowered for mark in _SECRET_MARKS):
            return True
        if match.group(1) in ("rootpw", "sshpw") and any(not word.startswith("-") for word in line.split()[1:]):
            return True
    return False
