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


def shape(password):
    """What libpwquality's class and pattern settings look at, in one pass over the UTF-8 bytes.

    Returns ``{counts, chars, class_run, repeat_run, sequence_run}``: the bytes
    of each class, the characters of each class (for the words of a reason),
    the longest run of one class, of one byte, and of bytes that go up or down
    by one (compared as C's signed ``char``, as libpwquality compares them).
    """
    counts = [0, 0, 0, 0]
    chars = [0, 0, 0, 0]
    for character in password:
        chars[_class(ord(character)) if ord(character) < 128 else OTHER] += 1
    class_run = repeat_run = sequence_run = 0
    run_class = run_byte = up = down = 0
    previous_class = previous = None
    for byte in password.encode("utf-8"):
        kind = _class(byte)
        counts[kind] += 1
        run_class = run_class + 1 if kind == previous_class else 1
        signed = byte - 256 if byte >= 128 else byte
        if previous is None:
            run_byte = up = down = 1
        elif signed == previous:
            run_byte += 1
            up = down = 1
        else:
            run_byte = 1
            up, down = (up + 1, 1) if signed == previous + 1 else (1, down + 1) if signed == previous - 1 else (1, 1)
        class_run = max(class_run, run_class)
        repeat_run = max(repeat_run, run_byte)
        sequence_run = max(sequence_run, up, down)
        previous_class, previous = kind, signed
    return {"counts": counts, "chars": chars, "class_run": class_run, "repeat_run": repeat_run,
            "sequence_run": sequence_run}


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
    seen = shape(password)
    counts, chars = seen["counts"], seen["chars"]
    limit = settings.get("maxclassrepeat", 0)
    if limit > 0 and seen["class_run"] > limit:
        found.append((ERR_MAX_CLASS_REPEAT, "maxclassrepeat",
                      "has more than %s of one class in a row%s"
                      % (_count(limit, "character", "characters"), _origin(origins, "maxclassrepeat", limit)),
                      "put a character of another class (digit, upper-case letter, lower-case letter, symbol) "
                      "after at most %d of one class" % limit))
    for kind, (setting, code, one, many, article) in enumerate(CLASSES):
        needed = -settings.get(setting, 0)
        if needed > 0 and counts[kind] < needed:
            missing = needed - chars[kind]  # characters: never more than bytes, so below needed too
            found.append((code, setting, "needs at least %s, has %d%s"
                          % (_count(needed, one, many), chars[kind], _origin(origins, setting, -needed)),
                          "add %s" % (article if missing == 1 else "%d more %s" % (missing, many))))
    minclass = settings.get("minclass", 0)
    present = sum(1 for count in counts if count)
    if minclass > 0 and present < minclass:
        absent = [CLASSES[kind][4] for kind in range(4) if not counts[kind]]
        short = min(minclass, 4) - present
        hint = ("add %s" % _listed(absent, "and") if short >= len(absent)
                else "add characters of %s more %s: %s" % (short, "class" if short == 1 else "classes",
                                                          _listed(absent, "or")))
        found.append((ERR_MIN_CLASSES, "minclass", "needs characters from %d classes (digits, upper-case letters, "
                      "lower-case letters, symbols), has %d%s" % (minclass, present,
                                                                   _origin(origins, "minclass", minclass)), hint))
    limit = settings.get("maxrepeat", 0)
    if limit > 0 and seen["repeat_run"] > limit:
        found.append((ERR_MAX_CONSECUTIVE, "maxrepeat", "repeats a character more than %s in a row%s"
                      % (_count(limit, "time", "times"), _origin(origins, "maxrepeat", limit)),
                      "use each character at most %s in a row" % _count(limit, "time", "times")))
    limit = settings.get("maxsequence", 0)
    if limit > 0 and seen["sequence_run"] > limit:
        found.append((ERR_MAX_SEQUENCE, "maxsequence", "holds a sequence (like 1234 or dcba) longer than %s%s"
                      % (_count(limit, "character", "characters"), _origin(origins, "maxsequence", limit)),
                      "break up runs of consecutive letters or digits: at most %d in a row" % limit))
    return found
