# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``installer`` rules: what the current installer's screens let a person choose.

Learned from anaconda's current password screens (no code taken from them):

* **root and user, text mode.**  An empty entry means "no password" (root
  stays locked, the user gets none), whatever ``emptyok`` says.  A password
  shorter than ``minlen`` characters is always refused.  Otherwise the
  password's quality (libpwquality's score, 0 when libpwquality rejects it)
  is compared with ``minquality``: below it, ``strict`` refuses and a
  non-strict policy asks whether to use it anyway; so with ``minquality`` 0
  a password libpwquality rejects is taken without a word.
* **luks, the graphical passphrase dialog.**  ``minquality`` plays no part.
  The dialog's checks are validity (long enough, and not rejected by
  libpwquality), FIPS (in FIPS mode at least 8 characters) and ASCII; the
  passphrase can be saved when none fails, when only the ASCII check fails,
  or when only validity fails and the policy is not strict.  An empty
  passphrase can never be saved.

The failure kinds below are shared with :mod:`._verdict`, which finds them.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

# Kinds of failure, as :func:`._verdict._failures` reports them.
LENGTH = "length"          # shorter than the policy's minlen (characters)
PWQUALITY = "pwquality"    # libpwquality rejected it
MINQUALITY = "minquality"  # libpwquality's score is below the policy's minquality
FIPS = "fips"              # a LUKS passphrase too short for FIPS mode
ASCII = "ascii"            # (installer LUKS dialog) non-ASCII together with another failure
BLOCKLIST = "blocklist"    # (collection rules only) a list of breached or common passwords holds it

# The installer's minimum LUKS passphrase length in FIPS mode.
FIPS_MIN_LENGTH = 8

ASCII_REASON = ("holds characters beyond plain ASCII (or a tab) as well as failing a check, and the installer's "
                "passphrase dialog only takes such a passphrase when every other check passes")
ASCII_HINT = "fix the other reasons, or use only ASCII letters, digits, punctuation and spaces"


def installer_empty(policy):
    """(verdict, reason, hint) for an empty password under the installer rules."""
    if policy.name == "luks":
        return ("rejected", "is empty, and the installer's passphrase dialog never takes an empty passphrase",
                "set a passphrase")
    # Text mode takes an empty entry as "no password": root stays locked.
    return "accepted", None, None


def _kinds(found):
    return set(kind for kind, _reason, _hint in found)


def _text_mode(policy, found):
    """root and user: the text mode's password prompt."""
    kept = [item for item in found
            if item[0] in (LENGTH, MINQUALITY) or (item[0] == PWQUALITY and policy.minquality > 0)]
    kinds = _kinds(kept)
    if LENGTH in kinds:
        return "rejected", kept
    if kinds:
        return ("rejected" if policy.strict else "accepted_weak"), kept
    return "accepted", kept


def _luks_dialog(policy, found, password_typable):
    """luks: the graphical passphrase dialog."""
    kept = [item for item in found if item[0] != MINQUALITY]
    kinds = _kinds(kept)
    validity = bool(kinds & set((LENGTH, PWQUALITY)))
    failed = validity + (FIPS in kinds) + (not password_typable)
    if failed == 0 or (failed == 1 and not password_typable):
        return "accepted", kept
    if failed == 1 and validity:
        return ("rejected" if policy.strict else "accepted_weak"), kept
    if not password_typable:
        kept.append((ASCII, ASCII_REASON, ASCII_HINT))
    return "rejected", kept


def installer_verdict(policy, found, password_typable):
    """The installer's rules: (verdict, the failures that are reasons)."""
    if policy.name == "luks":
        return _luks_dialog(policy, found, password_typable)
    return _text_mode(policy, found)
