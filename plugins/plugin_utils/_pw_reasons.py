# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What libpwquality's answers mean to a person: reasons, hints and strength bands.

Every reason and hint is the collection's own text, keyed by libpwquality's
error code; none of them holds the password or any part of it.  The verdict
itself is made in :mod:`._verdict`.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import string

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._pwq_settings import (
    ERR_BAD_WORDS,
    ERR_CASE_CHANGES_ONLY,
    ERR_CRACKLIB_CHECK,
    ERR_EMPTY_PASSWORD,
    ERR_GECOS_CHECK,
    ERR_MAX_CLASS_REPEAT,
    ERR_MAX_CONSECUTIVE,
    ERR_MAX_SEQUENCE,
    ERR_MIN_CLASSES,
    ERR_MIN_DIGITS,
    ERR_MIN_LENGTH,
    ERR_MIN_LOWERS,
    ERR_MIN_OTHERS,
    ERR_MIN_UPPERS,
    ERR_PALINDROME,
    ERR_ROTATED,
    ERR_SAME_PASSWORD,
    ERR_TOO_SIMILAR,
    ERR_USER_CHECK,
)

# Anaconda's test for "can be typed on any layout": ASCII letters, digits,
# punctuation and the space.  A tab or any non-ASCII character fails it.
TYPABLE = frozenset(string.digits + string.ascii_letters + string.punctuation + " ")

# ---------------------------------------------------------------------------
# Reasons and hints: our own words, keyed by libpwquality's error code.
# Each entry: (reason, hint); reasons may use {aux} (the broken limit).
# ---------------------------------------------------------------------------
REASONS = {
    ERR_TOO_SIMILAR: ("too similar to the old password",
                      "change more characters compared with the old password"),
    ERR_MIN_DIGITS: ("has fewer than {aux} digits",
                     "add digits until there are at least {aux}"),
    ERR_MIN_UPPERS: ("has fewer than {aux} uppercase letters",
                     "add uppercase ASCII letters until there are at least {aux}"),
    ERR_MIN_LOWERS: ("has fewer than {aux} lowercase letters",
                     "add lowercase ASCII letters until there are at least {aux}"),
    ERR_MIN_OTHERS: ("has fewer than {aux} characters that are not letters or digits",
                     "add symbols or spaces until there are at least {aux}"),
    ERR_MIN_LENGTH: ("shorter than libpwquality's minimum of {aux} characters (has {length})",
                     "make it at least {aux} characters long (libpwquality never goes below 6)"),
    ERR_PALINDROME: ("reads the same backwards (libpwquality also says this of a run of one repeated character)",
                     "use a password that does not read the same forwards and backwards"),
    ERR_CASE_CHANGES_ONLY: ("differs from the old password only in upper and lower case",
                            "choose a new password rather than changing the case of the old one"),
    ERR_ROTATED: ("is the old password rotated",
                  "choose a new password rather than shifting the old one around"),
    ERR_MIN_CLASSES: ("uses fewer than {aux} character classes (digits, uppercase, lowercase, others)",
                      "mix in more kinds of characters: digits, uppercase and lowercase ASCII letters, "
                      "symbols (non-ASCII letters count as symbols)"),
    ERR_MAX_CONSECUTIVE: ("repeats the same character more than {aux} times in a row",
                          "break up runs of the same character"),
    ERR_EMPTY_PASSWORD: ("is empty", "set a password"),
    ERR_SAME_PASSWORD: ("is the same as the old password", "choose a different password"),
    ERR_USER_CHECK: ("contains the account's user name in some form (as is, reversed or with changed case)",
                     "leave the user name out of the password"),
    ERR_GECOS_CHECK: ("contains words from the account's real name",
                      "leave the account's real name out of the password"),
    ERR_MAX_CLASS_REPEAT: ("has more than {aux} characters of the same class in a row",
                           "alternate digits, letters and symbols more often"),
    ERR_BAD_WORDS: ("contains a forbidden word (one of the badwords setting) in some form",
                    "leave the forbidden words out of the password"),
    ERR_MAX_SEQUENCE: ("contains a monotonic sequence (like 12345 or fedcb) longer than {aux} characters",
                       "break up runs of consecutive letters or digits"),
}
# Without a number, the same reasons in general words.
REASONS_NO_AUX = {
    ERR_MIN_DIGITS: ("has too few digits", "add digits"),
    ERR_MIN_UPPERS: ("has too few uppercase letters", "add uppercase ASCII letters"),
    ERR_MIN_LOWERS: ("has too few lowercase letters", "add lowercase ASCII letters"),
    ERR_MIN_OTHERS: ("has too few characters that are not letters or digits", "add symbols or spaces"),
    ERR_MIN_LENGTH: ("shorter than libpwquality's minimum length (has {length} characters)",
                     "make it longer"),
    ERR_MIN_CLASSES: ("uses too few character classes (digits, uppercase, lowercase, others)",
                      "mix in more kinds of characters: digits, uppercase and lowercase ASCII letters, symbols"),
    ERR_MAX_CONSECUTIVE: ("repeats the same character too many times in a row",
                          "break up runs of the same character"),
    ERR_MAX_CLASS_REPEAT: ("has too many characters of the same class in a row",
                           "alternate digits, letters and symbols more often"),
    ERR_MAX_SEQUENCE: ("contains too long a monotonic sequence (like 12345 or fedcb)",
                       "break up runs of consecutive letters or digits"),
}
# The dictionary check (cracklib): its message says which test failed.
CRACKLIB_REASONS = (
    ("dictionary word", ("is based on a dictionary word",
                         "avoid dictionary words, even with changed letters or digits added; "
                         "several unrelated words with symbols between them work better")),
    ("simplistic", ("is too simple or systematic (like a keyboard row or counting)",
                    "use characters with no pattern, for example from a password generator")),
    ("way too short", ("is far too short for the dictionary check", "make it much longer")),
    ("too short", ("is too short for the dictionary check", "make it longer")),
    ("different characters", ("does not contain enough different characters",
                              "use more different characters")),
    ("whitespace", ("is all whitespace", "use letters, digits and symbols, not just spaces")),
    ("national insurance", ("looks like a National Insurance number", "do not use an identity number")),
    ("password entry", ("is based on the user name or real name of the account running Ansible "
                        "(cracklib compares with it)",
                        "leave the controller account's names out of the password")),
    ("username", ("is based on the user name of the account running Ansible (cracklib compares with it)",
                  "leave the controller account's names out of the password")),
)
CRACKLIB_GENERIC = ("fails the dictionary check", "avoid dictionary words and simple patterns")
KEYBOARD_HINT = ("it holds characters beyond plain ASCII (or a tab): the installer and the boot-time "
                 "passphrase prompt may use a different keyboard layout than yours, so make sure it "
                 "can be typed there, or use only ASCII letters, digits and punctuation")


def explain(code, aux=None, length=None):
    """(reason, hint) for one libpwquality error code; our own words."""
    if code == ERR_CRACKLIB_CHECK:
        text = (aux or "").lower()
        for needle, pair in CRACKLIB_REASONS:
            if needle in text:
                return pair
        return CRACKLIB_GENERIC
    values = {"aux": aux, "length": length}
    if code in REASONS_NO_AUX and aux is None:
        reason, hint = REASONS_NO_AUX[code]
    elif code in REASONS:
        reason, hint = REASONS[code]
    else:
        return ("rejected by libpwquality (error %d)" % code,
                "see the pwquality(3) manual for error %d" % code)
    return reason.format(**values), hint.format(**values)


def strength_band(score):
    """Anaconda's current bands for an accepted password."""
    if score < 30:
        return "fair"
    if score < 70:
        return "good"
    return "strong"


def typable(password):
    """Whether every character is in :data:`TYPABLE` (printable ASCII: the space to the tilde)."""
    return password.isascii() and password.isprintable()
