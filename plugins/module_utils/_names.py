# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Names a user gives (a profile, a release): what may be shown of one that names nothing, and how near it is."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

# A plain name token: an unknown value of this shape, near a known name, is a typo and may be shown.
NAME_TOKEN = re.compile(r"\A[A-Za-z0-9._-]{1,32}\Z")


def distance(first, second):
    """The Damerau-Levenshtein distance (optimal string alignment) of two strings: the insertions, deletions,
    substitutions and swaps of two neighbouring characters that turn one into the other."""
    previous2, previous = None, list(range(len(second) + 1))
    for i in range(1, len(first) + 1):
        current = [i] + [0] * len(second)
        for j in range(1, len(second) + 1):
            cost = 0 if first[i - 1] == second[j - 1] else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and first[i - 1] == second[j - 2] and first[i - 2] == second[j - 1]:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[len(second)]


def shown_name(value, known, like=None):
    """``value``, a name that names none of ``known``, as an error may show it: quoted when it is a plain name
    token that is a typo of one of ``known`` (distance 2 at most, any case) or that the pattern ``like`` matches
    whole; else ``'<hidden>'`` (a string: it could be a secret given in the wrong variable) or its type."""
    if not isinstance(value, str):
        return "(%s)" % type(value).__name__
    text = value.strip()
    if NAME_TOKEN.match(text.replace(" ", "-")) and (
            (like is not None and like.fullmatch(text))
            or any(distance(text.upper(), name.upper()) <= 2 for name in known)):
        return repr(value)
    return "'<hidden>'"
