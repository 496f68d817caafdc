# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""libpwquality's vocabulary: its error codes and the settings a caller may give, validated.

The backends that call libpwquality are in :mod:`._pwquality`; what the codes
mean to a person is in :mod:`._verdict`.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ansible.module_utils.parsing.convert_bool import BOOLEANS_FALSE, BOOLEANS_TRUE

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import one_line_problem

# libpwquality's error codes (src/pwquality.h); stable since libpwquality 1.2.
ERR_FATAL_FAILURE = -1
ERR_INTEGER = -2
ERR_CFGFILE_OPEN = -3
ERR_CFGFILE_MALFORMED = -4
ERR_UNKNOWN_SETTING = -5
ERR_NON_INT_SETTING = -6
ERR_NON_STR_SETTING = -7
ERR_MEM_ALLOC = -8
ERR_TOO_SIMILAR = -9
ERR_MIN_DIGITS = -10
ERR_MIN_UPPERS = -11
ERR_MIN_LOWERS = -12
ERR_MIN_OTHERS = -13
ERR_MIN_LENGTH = -14
ERR_PALINDROME = -15
ERR_CASE_CHANGES_ONLY = -16
ERR_ROTATED = -17
ERR_MIN_CLASSES = -18
ERR_MAX_CONSECUTIVE = -19
ERR_EMPTY_PASSWORD = -20
ERR_SAME_PASSWORD = -21
ERR_CRACKLIB_CHECK = -22
ERR_RNG = -23
ERR_GENERATION_FAILED = -24
ERR_USER_CHECK = -25
ERR_GECOS_CHECK = -26
ERR_MAX_CLASS_REPEAT = -27
ERR_BAD_WORDS = -28
ERR_MAX_SEQUENCE = -29

# Error codes whose auxiliary value is a number (the limit that was broken).
NUMERIC_AUX_CODES = (ERR_MIN_DIGITS, ERR_MIN_UPPERS, ERR_MIN_LOWERS, ERR_MIN_OTHERS,
                     ERR_MIN_LENGTH, ERR_MIN_CLASSES, ERR_MAX_CONSECUTIVE,
                     ERR_MAX_CLASS_REPEAT, ERR_MAX_SEQUENCE)
# Codes that mean "no check was made", not "the password is weak".
BROKEN_CODES = (ERR_FATAL_FAILURE, ERR_MEM_ALLOC, ERR_INTEGER, ERR_UNKNOWN_SETTING,
                ERR_NON_INT_SETTING, ERR_NON_STR_SETTING, ERR_CFGFILE_OPEN, ERR_CFGFILE_MALFORMED)

# libpwquality raises any minlen below this to it, without telling.
LIBPWQUALITY_MIN_LENGTH = 6

# Settings a caller may pass: name -> (libpwquality setting id, kind).
# PAM-only settings (enforcing, retry, enforce_for_root, local_users_only)
# mean nothing to a check and are refused; minlen comes from the policy.
SETTINGS = {
    "difok": (1, "int"),
    "dcredit": (4, "int"),
    "ucredit": (5, "int"),
    "lcredit": (6, "int"),
    "ocredit": (7, "int"),
    "minclass": (8, "int"),
    "maxrepeat": (9, "int"),
    "dictpath": (10, "str"),
    "maxclassrepeat": (11, "int"),
    "gecoscheck": (12, "bool"),
    "badwords": (13, "str"),
    "maxsequence": (14, "int"),
    "dictcheck": (15, "bool"),
    "usercheck": (16, "bool"),
    "usersubstr": (21, "int"),
}
CREDITS = ("dcredit", "ucredit", "lcredit", "ocredit")
MINLEN_SETTING_ID = 3
NOT_ACCEPTED = {
    "minlen": "minlen comes from the policy; set the policy's minlen instead",
    "enforcing": "enforcing only changes how the PAM module reacts; it means nothing to a check",
    "retry": "retry only tells the PAM module how often to ask; it means nothing to a check",
    "enforce_for_root": "enforce_for_root only changes how the PAM module reacts; it means nothing to a check",
    "local_users_only": "local_users_only only changes how the PAM module reacts; it means nothing to a check",
}


class PwcheckError(PwpolicyError):
    """A check could not be made.  The message never holds the password."""


class SettingsError(PwcheckError):
    """An explicit libpwquality setting is unknown or has a wrong value."""


# ---------------------------------------------------------------------------
# Settings validation
# ---------------------------------------------------------------------------
def type_name(value):
    return type(value).__name__


def _int_setting(name, value):
    number = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and re.fullmatch(r"\s*[-+]?\d+\s*", value):
        number = int(value)
    if number is None or not -1024 <= number <= 1024:
        raise SettingsError("setting %r must be a whole number from -1024 to 1024, got %s"
                            % (name, type_name(value)))
    if name not in CREDITS and number < 0:
        raise SettingsError("setting %r must not be negative, got %d" % (name, number))
    return number


def _bool_setting(name, value):
    if isinstance(value, bool) or (isinstance(value, int) and value in (0, 1)):
        return int(value)
    word = value.strip().lower() if isinstance(value, str) else None
    if word in BOOLEANS_TRUE:
        return 1
    if word in BOOLEANS_FALSE:
        return 0
    raise SettingsError("setting %r must be true or false, got %s" % (name, type_name(value)))


def _str_setting(name, value):
    if name == "badwords" and isinstance(value, (list, tuple)):
        if not all(isinstance(word, str) for word in value):
            raise SettingsError("setting 'badwords' must be a list of strings")
        value = " ".join(w.strip() for w in value if w.strip())
    if not isinstance(value, str):
        raise SettingsError("setting %r must be a string, got %s" % (name, type_name(value)))
    # The settings go on lines of the installed system's drop-in, inside the kickstart's %post: a carriage return,
    # a form feed or any other line boundary would end the line there (and could end the section).
    found = one_line_problem(value)
    if found:
        raise SettingsError("setting %r must be one line of text (it holds %s)" % (name, found))
    return value.strip()


_CONVERTERS = {"int": _int_setting, "bool": _bool_setting, "str": _str_setting}


def normalize_settings(settings):
    """Validate explicit libpwquality settings; return a sorted tuple of (name, value).

    Integers accept ints and strings of digits (a leading minus for the
    credits); flags accept booleans, 0/1 and Ansible's boolean words;
    ``badwords`` accepts a string of space-separated words or a list of words.
    """
    if settings is None:
        return ()
    if not isinstance(settings, dict):
        raise SettingsError("settings must be a dict of libpwquality settings (%s), got %s"
                            % (", ".join(SETTINGS), type_name(settings)))
    result = []
    for name, value in settings.items():
        if name in NOT_ACCEPTED:
            raise SettingsError("setting %r is not accepted: %s" % (name, NOT_ACCEPTED[name]))
        if name not in SETTINGS:
            raise SettingsError("unknown libpwquality setting %r: valid settings are %s"
                                % (name, ", ".join(SETTINGS)))
        result.append((name, _CONVERTERS[SETTINGS[name][1]](name, value)))
    return tuple(sorted(result))


def has_positive_credit(items):
    """Whether a credit setting lets some characters count for more than one (normalized items)."""
    return any(name in CREDITS and value > 0 for name, value in items)
