# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The verdict on one password under one policy, with reasons and hints.

These rules are the collection's own (the installer never checks passwords a
kickstart supplies):

* an empty password is ``accepted`` with ``emptyok`` and ``rejected`` without;
* shorter than ``minlen`` characters, rejected by libpwquality, or scored
  below ``minquality`` is a failure: ``rejected`` under ``strict``,
  ``accepted_weak`` otherwise;
* anything else is ``accepted``.

libpwquality itself is reached through :mod:`._pwquality`.  Nothing this
module returns or raises holds the password or any part of it: every reason
and hint is our own text keyed by libpwquality's error code.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import string

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._pwq_settings import (
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
    LIBPWQUALITY_MIN_LENGTH,
    PwcheckError,
    normalize_settings,
    type_name,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._pwquality import (
    check as libpwquality_check,
    get_backend,
)

# libpwquality crashes the process (a segmentation fault) on passwords and user
# names of some 87,000 characters; no installer, passwd or PAM stack takes
# anything near these lengths, so longer input never reaches it.
MAX_PASSWORD_LENGTH = 4096
MAX_USER_LENGTH = 256

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


def account_for(policy_name, user=None):
    """The user name libpwquality gets, as the installer passed it."""
    if policy_name == "root":
        return "root"
    if policy_name == "user":
        return user or None
    return None


def _plural(number, word):
    return "%d %s%s" % (number, word, "" if number == 1 else "s")


# ---------------------------------------------------------------------------
# The verdict
# ---------------------------------------------------------------------------
def _check_arguments(password, user):
    if not isinstance(password, str):
        raise PwcheckError("the password must be a string, got %s" % type_name(password))
    try:
        password.encode("utf-8")
    except UnicodeEncodeError:
        raise PwcheckError("the password is not valid text: it holds characters that cannot be encoded as UTF-8")
    if user is not None and not isinstance(user, str):
        raise PwcheckError("user must be a string (the account name), got %s" % type_name(user))
    if user is not None and len(user) > MAX_USER_LENGTH:
        raise PwcheckError("user (the account name) has %d characters; account names have at most %d "
                           "(32 on Linux)" % (len(user), MAX_USER_LENGTH))


def _fail(report, reason, hint):
    report["reasons"].append(reason)
    report["hints"].append(hint)


def _refusal(report, password, policy):
    """Fill ``report`` and return True when the password never reaches libpwquality."""
    if password == "":
        if not policy.emptyok:
            report.update(ok=False, verdict="rejected")
            _fail(report, "is empty, and this policy does not allow an empty password",
                  "set a password, or set emptyok to true if an empty one is really meant"
                  + (" (for root, empty means the account is locked)" if policy.name == "root" else ""))
        return True
    if "\0" in password:
        report.update(ok=False, verdict="rejected", strength="weak")
        _fail(report, "contains a NUL character, which no installer, kickstart line or crypt hash can take",
              "choose a password without a NUL character")
        return True
    if len(password) > MAX_PASSWORD_LENGTH:
        report.update(ok=False, verdict="rejected", strength="weak")
        _fail(report, "longer than %d characters (has %d): too long to check, and longer than any installer "
              "or login takes" % (MAX_PASSWORD_LENGTH, len(password)),
              "use at most %d characters (a passphrase of a few dozen is already very strong)"
              % MAX_PASSWORD_LENGTH)
        return True
    return False


def _libpwquality(password, policy, user, items, backend, too_short):
    """(rc, aux, stopped_at_length): libpwquality's answer for the rules it owns.

    ``stopped_at_length`` is true when libpwquality's own length rule (in
    bytes) failed at the policy's ``minlen``: the length is then reported in
    characters by the caller, and ``rc``/``aux`` hold what libpwquality says
    about the rest at its lowest minimum length.
    """
    account = account_for(policy.name, user)
    rc, aux = libpwquality_check(backend, items, policy.minlen, password, account)
    if not (too_short and rc == ERR_MIN_LENGTH):
        return rc, aux, False
    rc, aux = libpwquality_check(backend, items, LIBPWQUALITY_MIN_LENGTH, password, account)
    return rc, aux, True


def _judge(report, password, policy, rc, aux, stopped_at_length):
    """Add the libpwquality, length and minquality reasons; return whether a rule failed."""
    length = len(password)
    too_short = length < policy.minlen
    if too_short:
        _fail(report, "shorter than %s (has %d)" % (_plural(policy.minlen, "character"), length),
              "add at least %s" % _plural(policy.minlen - length, "more character"))
    if stopped_at_length or rc < 0:
        if rc < 0 and not (too_short and rc == ERR_MIN_LENGTH):
            _fail(report, *explain(rc, aux, length))
        report["strength"] = "too_short" if too_short else "weak"
        return True
    report["score"] = rc
    report["strength"] = "too_short" if too_short else strength_band(rc)
    if rc < policy.minquality:
        _fail(report, "libpwquality scores it %d, below this policy's minquality of %d" % (rc, policy.minquality),
              "make it longer or less predictable; every character beyond minlen and every extra kind of "
              "character raises the score")
        return True
    return too_short


def check_password(password, policy, user=None, settings=None, backend=None):
    """Check ``password`` (text) against ``policy`` (a :class:`._policy.Policy`).

    ``user`` is the account name for the ``user`` policy (``root`` is used
    for the root policy and no name for ``luks``); ``settings`` are explicit
    libpwquality settings.  Returns the report dict ``{ok, verdict, score,
    strength, reasons, hints, policy}``; raises :class:`PwcheckError` when no
    check can be made.
    """
    _check_arguments(password, user)
    items = normalize_settings(settings)
    report = {"ok": True, "verdict": "accepted", "score": 0, "strength": "empty",
              "reasons": [], "hints": [], "policy": policy.to_dict()}
    if _refusal(report, password, policy):
        return report
    too_short = len(password) < policy.minlen
    rc, aux, stopped = _libpwquality(password, policy, user, items, backend or get_backend(), too_short)
    failed = _judge(report, password, policy, rc, aux, stopped)
    if any(char not in TYPABLE for char in password):
        report["hints"].append(KEYBOARD_HINT)
    if failed:
        report.update(ok=not policy.strict, verdict="rejected" if policy.strict else "accepted_weak")
    return report


def check_against(password, policy, product=None, target=None, user=None, settings=None, backend=None):
    """Resolve ``policy`` with the shared model, then check ``password``.

    ``policy`` is a policy dict, a :class:`._policy.Policy`, or a policy name
    (with ``product`` or ``target`` filling its fields).  A string that is not
    a policy name is refused without repeating it: it may be a password given
    in the wrong place.
    """
    from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import NAMES, policy_from

    if isinstance(policy, str) and policy not in NAMES:
        raise PwcheckError(
            "policy must be a dict of policy fields or a policy name (%s); the string given is "
            "not a policy name (not repeated here in case it is a secret)" % ", ".join(NAMES))
    return check_password(password, policy_from(policy, product=product, target=target),
                          user=user, settings=settings, backend=backend)
