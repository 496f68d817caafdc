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

For a diff of a whole kickstart: :func:`redacted_text` masks every
secret-bearing place of the text (command lines, ``%pre``/``%post`` scripts,
hashes and URL credentials anywhere), and :func:`masked_diff` masks both sides
of a change, marking a secret that changed on a line that reads the same
masked on both sides as ``<hidden: changed>``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import difflib
import re
import shlex

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import (
    BODY,
    MAX_LINE_CHARS,
    newline_of,
    section_roles,
    split_words,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_script_secrets import SCRIPTS, script_secrets
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_scripts import here_document

HIDDEN = "<hidden>"
# What a diff shows, on the new side, for a secret that changed on a line that reads the same masked.
CHANGED = "<hidden: changed>"


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
    "raid", "btrfs", "vnc", "rdp", "url", "repo", "liveimg", "ostreesetup", "ostreecontainer",
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


# An option word whose name redact_line keeps: a long option as kickstart commands name them (``--iscrypted``,
# ``--hw-passphrase``), never a word that only starts with a dash (``-pHASH``, ``--Secret``).
_OPTION_NAME_RE = re.compile(r"--[a-z][a-z0-9-]{0,39}\Z")


def _redact_words(line, secrets=None):
    """``(line redacted, the values hidden in order)``: :func:`redact_line`, and what it hid (never shown: only
    compared, for :func:`masked_diff`); the values that are secrets themselves (of a password, passphrase or key
    option, or rootpw's and sshpw's) go to the set ``secrets``."""
    if secrets is None:
        secrets = set()
    if not line_secrets(line):
        return line, []
    ending = newline_of(line)  # any line boundary (a form feed, U+2028 ...), kept as it was
    body = line[:len(line) - len(ending)]
    indent = body[:len(body) - len(body.lstrip())]
    if _long(body):
        first, rest = (body.split(None, 1) + [""])[:2]
        return "%s%s %s%s" % (indent, first, HIDDEN, ending), [rest]
    try:
        words = _words(body)
    except ValueError:
        first, rest = (body.split(None, 1) + [""])[:2]
        return "%s%s %s%s" % (indent, first, HIDDEN, ending), [rest]
    out, hidden = [words[0]], []
    option = None  # the option before a value given as its own word
    for word in words[1:]:
        name, equals, value = word.partition("=")
        if _OPTION_NAME_RE.match(name):
            out.append(name + ("=" + HIDDEN if equals else ""))
            option = None if equals else name
            if equals:
                hidden.append(value)
                if _SECRET_OPTION_RE.search(name):
                    secrets.add(value)
        else:
            out.append(HIDDEN)
            hidden.append(word)
            if words[0] in _SECRET_VALUE_COMMANDS or (option and _SECRET_OPTION_RE.search(option)):
                secrets.add(word)
            option = None
    return indent + " ".join(out) + ending, hidden


def redact_line(line):
    """``line`` with every value of a command that may hold a secret replaced by ``<hidden>``.

    The line is rebuilt from its command word and option names, so no form of
    a value (quoted, escaped with backslashes, split over words) survives; a
    word that only starts with a dash (``-pHASH``) is a value.
    """
    return _redact_words(line)[0]


# ---------------------------------------------------------------------------
# A whole kickstart, for a diff
# ---------------------------------------------------------------------------

# Credentials in a URL (user:password@, TOKEN@), on any line: the user part is hidden whole.
_URL_CREDENTIALS_RE = re.compile(r"(://)[^/?#@\s]+@")
# Words on a script line (or a line of %packages, %anaconda, %addon) that may go with a secret, beside the
# commands script_secrets reads; such a line is hidden whole.  It errs towards hiding.
_SCRIPT_HINT_RE = re.compile(r"(?i)pass|secret|token|credential|chpasswd|usermod|useradd|setpassword|cryptsetup"
                             r"|luks|pw\b|pw=|pwd=|\$[0-9a-z]{1,3}\$|grub\.pbkdf2")
# A command word kept before a hidden script line (a plain command name, never an assignment or a value).
_COMMAND_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_.+/-]{0,63}\Z")
# The characters that open or close a quote, or escape, on a script line; blanks before a comment.
_SHELL_SPECIAL_RE = re.compile(r"[\\'\"#]")
# A secret at least this long that was hidden on one line is hidden wherever else it stands: a password,
# passphrase or key option's value, the value of rootpw or sshpw, what a script sets.
_MIN_ELSEWHERE = 6
_SECRET_OPTION_RE = re.compile(r"pass|key|pw")
_SECRET_VALUE_COMMANDS = ("rootpw", "sshpw")
# Lines beyond which two sides are not aligned to find changed secrets (the masked texts are still shown).
_MAX_ALIGNED_LINES = 20000


def _shell_state(text, quote):
    """The quote still open at the end of one script line (None, ``'`` or ``"``), given the one open at its
    start, and whether the line ends in an escaping backslash: the shell goes on with the next line then."""
    index, end = 0, len(text)
    while index < end:
        if quote == "'":
            close = text.find("'", index)
            if close < 0:
                return quote, False
            quote, index = None, close + 1
            continue
        match = _SHELL_SPECIAL_RE.search(text, index)
        if match is None:
            return quote, False
        char, index = match.group(), match.start()
        if char == "\\":
            if index + 1 >= end:
                return quote, True
            index += 2
        elif quote == '"':
            quote, index = (None, index + 1) if char == '"' else (quote, index + 1)
        elif char == "#":
            if index == 0 or text[index - 1] in " \t":
                return quote, False  # a comment runs to the end of the line
            index += 1
        else:
            quote, index = char, index + 1
    return quote, False


def _whole(line, keep_command=False, secrets=()):
    """``line`` hidden whole, its indentation and line ending kept (``keep_command``: and a plain command word
    first, unless it is one of ``secrets``); ``(masked, [what was hidden])``."""
    ending = newline_of(line)
    body = line[:len(line) - len(ending)]
    indent = body[:len(body) - len(body.lstrip())]
    words = body.split(None, 1)
    if not words:
        return line, []
    if keep_command and len(words) > 1 and _COMMAND_NAME_RE.match(words[0]) and words[0] not in secrets:
        return "%s%s %s%s" % (indent, words[0], HIDDEN, ending), [words[1]]
    return indent + HIDDEN + ending, [body.strip()]


def _command_line(line, secrets=None):
    """A line outside the sections (or a section's header): :func:`_redact_words`; a comment's text too, so
    that a secret-bearing command commented out is hidden as well."""
    stripped = line.lstrip()
    if stripped[:1] != "#":
        return _redact_words(line, secrets)
    head = len(line) - len(stripped.lstrip("#").lstrip(" \t"))
    masked, hidden = _redact_words(line[head:], secrets)
    return line[:head] + masked, hidden


def _script_lines(lines, start, end, flagged, values, out):
    """Mask the body lines ``start`` to ``end`` of one script into ``out``.

    The lines are read as the shell reads them: a line that ends in a
    backslash or inside a quote goes on with the next (all of them are one
    command, hidden together); a here-document's body belongs to the line that
    opens it.  A command is hidden whole when script_secrets found a secret on
    one of its lines (``flagged``), when a word of it may go with one
    (:data:`_SCRIPT_HINT_RE`), or when it never ends (a quote left open to the
    end of the script: it cannot be read).  A here-document's body is hidden
    whole when the command that opens it is.
    """
    group, quote, document, hide_body = [], None, None, False
    for index in range(start, end):
        line = lines[index]
        if document is not None:
            if document.feed(line, index):
                document = None
                out[index] = _command_line(line) if not _SCRIPT_HINT_RE.search(line) else _whole(line)
            elif hide_body or index in flagged or _SCRIPT_HINT_RE.search(line):
                out[index] = _whole(line)
            else:
                out[index] = (line, [])
            continue
        group.append(index)
        quote, escaped = _shell_state(line[:len(line) - len(newline_of(line))], quote)
        if (quote is not None or escaped) and index + 1 < end:
            continue
        text = "".join(lines[number] for number in group)
        hidden = (quote is not None or escaped or any(number in flagged for number in group)
                  or _SCRIPT_HINT_RE.search(text) is not None or bool(line_secrets(text.replace("\n", " "))))
        for number in group:
            if hidden:
                out[number] = _whole(lines[number], keep_command=number == group[0], secrets=values)
            else:
                out[number] = (lines[number], [])
        if not text.lstrip().startswith("#"):
            document = here_document(text.replace("<<<", "   "))
            hide_body = hidden
        group, quote = [], None


def _never_template(value, template):
    return False


def masked_lines(text):
    """``[(masked line, original line, [what was hidden])]`` for every line of the kickstart ``text``.

    Hidden: the values of every command that may hold a secret (rebuilt from
    its command and option names, :func:`redact_line`; commented out too), every
    ``%pre``/``%post`` command that sets a password and every script line that
    may go with one (whole, see :func:`_script_lines`), every hash
    (:data:`DERIVED_RE`) and URL credential anywhere, and a secret found on
    one line (a password, passphrase or key, what a script sets) wherever else
    it stands.  A text that is no kickstart (a NUL
    in it) is hidden line by line whole.
    """
    lines = text.splitlines(True)
    if "\0" in text:
        return [(_whole(line)[0], line, [line]) for line in lines]
    roles = section_roles(lines)[0]
    found = script_secrets(lines, roles, False, _never_template)
    flagged = set(entry[0] - 1 for entry in found)
    values = set(entry[4] for entry in found if entry[4])
    out = [None] * len(lines)
    index = 0
    while index < len(lines):
        role, section = roles[index]
        if role == BODY and section in SCRIPTS:
            end = index
            while end < len(lines) and roles[end] == (BODY, section):
                end += 1
            _script_lines(lines, index, end, flagged, values, out)
            index = end
            continue
        line = lines[index]
        if role == BODY and (_SCRIPT_HINT_RE.search(line) or line_secrets(line)):
            out[index] = _whole(line)  # a line of %packages, %anaconda or %addon
        elif role == BODY:
            out[index] = (line, [])
        else:
            out[index] = _command_line(line, values)
        index += 1
    redactor = Redactor(value for value in values if len(value) >= _MIN_ELSEWHERE and value not in CHANGED)
    result = []
    for line, (masked, hidden) in zip(lines, out):
        shown = _URL_CREDENTIALS_RE.sub(r"\1" + HIDDEN + "@", masked)
        shown = redactor.hide(shown)
        if shown != masked:
            hidden = None  # hidden by a pattern: what each <hidden> stands for is not recorded
        result.append((shown, line, hidden))
    return result


def redacted_text(text):
    """``text`` with every secret-bearing place masked (:func:`masked_lines`): what a diff of a whole kickstart
    may show."""
    return "".join(masked for masked, dummy, dummy in masked_lines(text))


def _mark_changed(new, old):
    """The masked ``new`` line with each ``<hidden>`` whose value differs from ``old``'s (same masked line)
    shown as :data:`CHANGED`; where what each stands for is not known, every one."""
    pieces = new[0].split(HIDDEN)
    slots = len(pieces) - 1
    if new[2] is not None and old[2] is not None and len(new[2]) == len(old[2]) == slots:
        changed = [a != b for a, b in zip(new[2], old[2])]
    else:
        changed = [True] * slots
    return pieces[0] + "".join((CHANGED if flag else HIDDEN) + piece for flag, piece in zip(changed, pieces[1:]))


def masked_diff(before, after):
    """``(before, after)``, the two texts of a kickstart's change, each masked (:func:`masked_lines`).

    A line that reads the same masked on both sides but whose secret changed
    (a new password's hash on the ``rootpw`` line) is shown on the new side with
    :data:`CHANGED` in place of each ``<hidden>`` that changed: the values are
    compared, never shown.  A secret hashed with the same salt (the role's
    ``kickstart_salt_seed``) reads the same when it did not change.
    """
    old = masked_lines(before or "")
    new = masked_lines(after or "")
    shown = [line[0] for line in new]
    if len(old) <= _MAX_ALIGNED_LINES and len(new) <= _MAX_ALIGNED_LINES:
        matcher = difflib.SequenceMatcher(None, [line[0] for line in old], shown, autojunk=False)
        for tag, old_start, dummy, new_start, new_end in matcher.get_opcodes():
            if tag != "equal":
                continue
            for offset in range(new_end - new_start):
                was, now = old[old_start + offset], new[new_start + offset]
                if was[1] != now[1] and HIDDEN in now[0]:
                    shown[new_start + offset] = _mark_changed(now, was)
    return "".join(line[0] for line in old), "".join(shown)


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
