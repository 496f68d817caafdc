# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Taking values that may be secrets out of messages.

A value can reach a message as it is, or in an escaped form: Python's
``repr`` (``'a\\\\b'``, ``"it's"``), doubled backslashes, or
``unicode_escape``.  :func:`hide` replaces every form of every value that
occurs in the message by ``<hidden>``; it only builds a pattern from the values
present, so its cost follows the message, not the number of values.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

HIDDEN = "<hidden>"


def variants(value):
    """``value`` and the escaped forms a message may show it in."""
    forms = {value, repr(value)[1:-1], value.replace("\\", "\\\\"),
             value.encode("unicode_escape").decode("ascii")}
    return {form for form in forms if form}


def _substitute(message, present):
    alternatives = "|".join(re.escape(v) for v in sorted(present, key=len, reverse=True))
    return re.sub(r"(?<!\w)(?:%s)(?!\w)" % alternatives, HIDDEN, message)


def hide(message, secrets):
    """``message`` with each value of ``secrets`` (in any escaped form) replaced by ``<hidden>``."""
    present = set()
    for value in secrets:
        present.update(form for form in variants(value) if form in message)
    return _substitute(message, present) if present else message


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
        return _substitute(message, present) if present else message


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
