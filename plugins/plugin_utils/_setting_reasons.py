# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every character-class and pattern setting a password breaks, each a reason of its own.

libpwquality stops at the first setting a password breaks, so its one
answer names one problem.  A check by compliance profile names each: the
settings that count characters (``minclass``, the negative credits
``dcredit``, ``ucredit``, ``lcredit``, ``ocredit``) and those that look at
their order (``maxrepeat``, ``maxclassrepeat``, ``maxsequence``) are counted
here, in one pass, the way libpwquality counts them: over the UTF-8 bytes,
where only ASCII digits and letters have a class of their own and every other
byte (a non-ASCII letter too) is a symbol, and in libpwquality's order, so
that the first failure found here is the one libpwquality reports.  The
verdict still asks libpwquality, once, with every setting on its settings
object; what is counted here only gives the reasons.

Reasons and hints are the collection's own words; they say how many
characters of a class there are, never which, and never hold the password.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._pwq_settings import (
    ERR_MAX_CLASS_REPEAT,
    ERR_MAX_CONSECUTIVE,
    ERR_MAX_SEQUENCE,
    ERR_MIN_CLASSES,
    ERR_MIN_DIGITS,
    ERR_MIN_LOWERS,
    ERR_MIN_OTHERS,
    ERR_MIN_UPPERS,
)

DIGIT, UPPER, LOWER, OTHER = range(4)
# Per class: its credit setting, libpwquality's error code, and its names (one, many, "a ..." for a hint).
CLASSES = (
    ("dcredit", ERR_MIN_DIGITS, "digit", "digits", "a digit"),
    ("ucredit", ERR_MIN_UPPERS, "upper-case letter", "upper-case letters", "an upper-case ASCII letter"),
    ("lcredit", ERR_MIN_LOWERS, "lower-case letter", "lower-case letters", "a lower-case ASCII letter"),
    ("ocredit", ERR_MIN_OTHERS, "symbol", "symbols", "a symbol (or a space)"),
)
# The codes counted here: libpwquality's answer with one of them is replaced by the reasons found here.
CODES = frozenset((ERR_MAX_CLASS_REPEAT, ERR_MIN_DIGITS, ERR_MIN_UPPERS, ERR_MIN_LOWERS, ERR_MIN_OTHERS,
                   ERR_MIN_CLASSES, ERR_MAX_CONSECUTIVE, ERR_MAX_SEQUENCE))
# The settings counted here.
SETTINGS = ("maxclassrepeat", "dcredit", "ucredit", "lcredit", "ocredit", "minclass", "maxrepeat", "maxsequence")


def _class(byte):
    if 48 <= byte <= 57:
        return DIGIT
    if 65 <= byte <= 90:
        return UPPER
    if 97 <= byte <= 122:
        return LOWER
    return OTHER


def _count(number, one, many):
    return "%d %s" % (number, one if number == 1 else many)


def _listed(items, word):
    """``a, b and c`` (``word`` is ``and`` or ``or``)."""
    return items[0] if len(items) == 1 else "%s %s %s" % (", ".join(items[:-1]), word, items[-1])


# Each byte's class (DIGIT, UPPER, LOWER, OTHER), as bytes.translate() takes it: the counting is done in C.
_CLASS_TABLE = bytes(_class(byte) for byte in range(256))
_ANY_RUN = re.compile(rb"(.)\1*", re.S)
_RUNS = {}


def _run_longer_than(data, limit):
    """Whether ``data`` (bytes) holds one byte value more than ``limit`` times in a row."""
    pattern = _RUNS.get(limit)
    if pattern is None:
        pattern = _RUNS[limit] = re.compile(rb"(.)\1{%d}" % limit, re.S)
    return pattern.search(data) is not None


def _longest_run(data):
    return max([len(match.group()) for match in _ANY_RUN.finditer(data)] or [0])


def _longest_sequence(data):
    """The longest run of bytes going up or down by one, compared as C's signed ``char`` (as libpwquality does)."""
    longest = up = down = 1 if data else 0
    previous = None
    for byte in data:
        signed = byte - 256 if byte >= 128 else byte
        if previous is not None:
            up, down = (up + 1, 1) if signed == previous + 1 else (1, down + 1) if signed == previous - 1 else (1, 1)
            longest = max(longest, up, down)
        previous = signed
    return longest


def _chars(password, kind):
    """How many characters of ``password`` are of class ``kind`` (a non-ASCII one is a symbol): for the words."""
    ascii_counts = password.encode("utf-8").translate(_CLASS_TABLE)
    if kind != OTHER:
        return ascii_counts.count(kind)
    return len(password) - sum(ascii_counts.count(other) for other in range(OTHER))


def shape(password):
    """What libpwquality's class and pattern settings look at, over the UTF-8 bytes.

    Returns ``{counts, chars, class_run, repeat_run, sequence_run}``: the bytes
    of each class, the characters of each class (for the words of a reason),
    the longest run of one class, of one byte, and of bytes that go up or down
    by one (compared as C's signed ``char``, as libpwquality compares them).
    """
    data = password.encode("utf-8")
    classes = data.translate(_CLASS_TABLE)
    return {"counts": [classes.count(kind) for kind in range(4)],
            "chars": [_chars(password, kind) for kind in range(4)],
            "class_run": _longest_run(classes), "repeat_run": _longest_run(data),
            "sequence_run": _longest_sequence(data)}


def _origin(origins, setting, value):
    """`` (stig: minclass 4)``: who asks for the setting, or nothing when no one is named."""
    names = (origins or {}).get(setting)
    return " (%s: %s %d)" % (", ".join(names), setting, value) if names else ""


def failures(password, settings, origins=None):
    """Every class and pattern setting of ``settings`` that ``password`` breaks: ``[(code, setting, reason, hint)]``.

    ``settings`` are libpwquality settings (``{name: int}``, pwquality.conf's
    signs); ``origins`` names, per setting, who asks for it (profile names, or
    ``settings``), for the end of each reason.  The order is libpwquality's:
    its first failure is the first here.
    """
    if not password:
        return []
    found = []
    data = password.encode("utf-8")
    classes = data.translate(_CLASS_TABLE)
    limit = settings.get("maxclassrepeat", 0)
    if limit > 0 and _run_longer_than(classes, limit):
        found.append((ERR_MAX_CLASS_REPEAT, "maxclassrepeat",
                      "has more than %s of one class in a row%s"
                      % (_count(limit, "character", "characters"), _origin(origins, "maxclassrepeat", limit)),
                      "put a character of another class (digit, upper-case letter, lower-case letter, symbol) "
                      "after at most %d of one class" % limit))
    counts = [classes.count(kind) for kind in range(4)]
    for kind, (setting, code, one, many, article) in enumerate(CLASSES):
        needed = -settings.get(setting, 0)
        if needed > 0 and counts[kind] < needed:
            # Characters, for the words: ASCII ones are one byte each, and every other character is a symbol.
            has = counts[kind] if kind != OTHER else len(password) - sum(counts[:OTHER])
            found.append((code, setting, "needs at least %s, has %d%s"
                          % (_count(needed, one, many), has, _origin(origins, setting, -needed)),
                          "add %s" % (article if needed - has == 1 else "%d more %s" % (needed - has, many))))
    minclass = settings.get("minclass", 0)
    present = sum(1 for count in counts if count)
    if minclass > 0 and present < minclass:
        absent = [CLASSES[kind][4] for kind in range(4) if not counts[kind]]
        short = min(minclass, 4) - present
        if short >= len(absent):
            hint = "add %s" % _listed(absent, "and")
        else:
            hint = "add characters of %s more %s: %s" % (short, "class" if short == 1 else "classes",
                                                         _listed(absent, "or"))
        reason = ("needs characters from %d classes (digits, upper-case letters, lower-case letters, symbols), has %d%s"
                  % (minclass, present, _origin(origins, "minclass", minclass)))
        found.append((ERR_MIN_CLASSES, "minclass", reason, hint))
    limit = settings.get("maxrepeat", 0)
    if limit > 0 and _run_longer_than(data, limit):
        found.append((ERR_MAX_CONSECUTIVE, "maxrepeat", "repeats a character more than %s in a row%s"
                      % (_count(limit, "time", "times"), _origin(origins, "maxrepeat", limit)),
                      "use each character at most %s in a row" % _count(limit, "time", "times")))
    limit = settings.get("maxsequence", 0)
    if limit > 0 and _longest_sequence(data) > limit:
        found.append((ERR_MAX_SEQUENCE, "maxsequence", "holds a sequence (like 1234 or dcba) longer than %s%s"
                      % (_count(limit, "character", "characters"), _origin(origins, "maxsequence", limit)),
                      "break up runs of consecutive letters or digits: at most %d in a row" % limit))
    return found
