# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""libpwquality, reached two ways: its Python binding or its shared library.

The Python binding ``pwquality`` is used when it is importable, else the
shared library ``libpwquality.so.1`` through :mod:`ctypes` (controllers often
run Ansible in a virtual environment that cannot see the binding).  Both start
from libpwquality's compiled defaults (never the controller's own
``/etc/security/pwquality.conf``), take the caller's explicit settings, and put
a minimum length on top.  Each backend keeps one settings object per distinct
(settings, minimum length) and reuses it: Ansible workers are single-threaded,
so a plain dictionary is all the cache there is.

:func:`check` returns libpwquality's answer as ``(rc, aux)``: ``rc`` is the
score (0..100) or a negative error code, ``aux`` the number or cracklib text
that goes with the code.  What the codes mean to a person is in
:mod:`._verdict`.  Nothing here returns or raises the password.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ctypes
import ctypes.util
import os
import re

from ansible.module_utils.parsing.convert_bool import BOOLEANS_FALSE, BOOLEANS_TRUE

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError

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

PACKAGES_HINT = (
    "install libpwquality on the controller: on Fedora/RHEL the packages libpwquality, "
    "python3-pwquality and cracklib-dicts; on Debian/Ubuntu libpwquality1, python3-pwquality "
    "and cracklib-runtime")
DICTIONARY_HINT = (
    "the cracklib dictionary libpwquality needs cannot be loaded (%s); install it on the controller "
    "(Fedora/RHEL: cracklib-dicts; Debian/Ubuntu: cracklib-runtime, which builds the dictionary), "
    "point the dictpath setting at an existing dictionary, or turn the dictionary check off "
    "with the setting dictcheck=false")

BACKEND_ENV = "KICKSTART_PWPOLICY_PWQUALITY_BACKEND"
BACKEND_NAMES = ("binding", "ctypes")


class PwcheckError(PwpolicyError):
    """A check could not be made.  The message never holds the password."""


class BackendUnavailable(PwcheckError):
    """Neither the binding nor the shared library can be used."""


class DictionaryError(PwcheckError):
    """The cracklib dictionary is missing or broken."""


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
    if "\0" in value or "\n" in value:
        raise SettingsError("setting %r must be one line of text" % name)
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


# ---------------------------------------------------------------------------
# Backends.  raw_check() returns (rc, aux, message): message is
# libpwquality's own text (internal: only used to classify, never passed on).
# ---------------------------------------------------------------------------
class _Backend(object):
    name = None

    def __init__(self):
        self._settings = {}
        self.built = 0

    def settings(self, items, minlen):
        """The settings object for normalized ``items`` and ``minlen``, built once."""
        key = (items, max(int(minlen), LIBPWQUALITY_MIN_LENGTH))
        handle = self._settings.get(key)
        if handle is None:
            handle = self.make_settings(items, key[1])
            _check_dictionary(self, handle, items)
            self._settings[key] = handle
            self.built += 1
        return handle

    def make_settings(self, items, minlen):
        raise NotImplementedError

    def raw_check(self, handle, password, user):
        raise NotImplementedError

    def dictpath(self, handle):
        raise NotImplementedError


class BindingBackend(_Backend):
    """libpwquality through its Python binding ``pwquality``."""

    name = "binding"

    def __init__(self):
        import pwquality  # (ImportError tells the caller it is absent)
        super(BindingBackend, self).__init__()
        self._mod = pwquality

    def make_settings(self, items, minlen):
        settings = self._mod.PWQSettings()
        for name, value in items:
            try:
                setattr(settings, name, value if value != "" else None)
            except (self._mod.PWQError, AttributeError, TypeError, ValueError) as exc:
                raise SettingsError("libpwquality refused setting %r: %s" % (name, _safe_args(exc)))
        settings.minlen = minlen
        return settings

    def raw_check(self, handle, password, user):
        try:
            return handle.check(password, None, user), None, None
        except self._mod.PWQError as exc:
            code, message = exc.args[0], (exc.args[1] if len(exc.args) > 1 else "") or ""
            aux = None
            if code in NUMERIC_AUX_CODES:
                numbers = re.findall(r"\d+", message)
                aux = int(numbers[-1]) if numbers else None
            elif code == ERR_CRACKLIB_CHECK and " - " in message:
                aux = message.split(" - ", 1)[1]
            return code, aux, message

    def dictpath(self, handle):
        return handle.dictpath


def _safe_args(exc):
    """libpwquality's own words for a settings error (they name settings, not passwords)."""
    parts = [str(a) for a in getattr(exc, "args", ()) if isinstance(a, (int, str))]
    return " ".join(parts) or type_name(exc)


class _CtypesSettings(object):
    """Owns one pwquality_settings_t; frees it when dropped."""

    def __init__(self, lib, pointer):
        self._lib = lib
        self.pointer = pointer

    def __del__(self):
        if self.pointer and self._lib is not None:
            self._lib.pwquality_free_settings(self.pointer)
            self.pointer = None


def _open_library(library=None):
    names = [library] if library else ["libpwquality.so.1", ctypes.util.find_library("pwquality")]
    errors = []
    for candidate in names:
        if not candidate:
            continue
        try:
            return ctypes.CDLL(candidate)
        except OSError as exc:
            errors.append(str(exc))
    raise OSError("libpwquality.so.1 not found (%s)" % "; ".join(errors or ["no candidate"]))


def _declare(lib):
    """Give ctypes the signatures of the functions used (src/pwquality.h)."""
    vp, c_int, c_char_p = ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p
    signatures = {
        "pwquality_default_settings": (vp, []),
        "pwquality_free_settings": (None, [vp]),
        "pwquality_set_int_value": (c_int, [vp, c_int, c_int]),
        "pwquality_set_str_value": (c_int, [vp, c_int, c_char_p]),
        "pwquality_get_str_value": (c_int, [vp, c_int, ctypes.POINTER(c_char_p)]),
        "pwquality_check": (c_int, [vp, c_char_p, c_char_p, c_char_p, ctypes.POINTER(vp)]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    return lib


class CtypesBackend(_Backend):
    """libpwquality through the shared library ``libpwquality.so.1``."""

    name = "ctypes"

    def __init__(self, library=None):
        super(CtypesBackend, self).__init__()
        self._lib = _declare(_open_library(library))
        self._check = self._lib.pwquality_check

    def make_settings(self, items, minlen):
        lib = self._lib
        pointer = lib.pwquality_default_settings()
        if not pointer:
            raise PwcheckError("libpwquality could not allocate its settings (out of memory)")
        handle = _CtypesSettings(lib, pointer)
        for name, value in items + (("minlen", int(minlen)),):
            setting_id, kind = SETTINGS[name] if name != "minlen" else (MINLEN_SETTING_ID, "int")
            if kind == "str":
                rc = lib.pwquality_set_str_value(pointer, setting_id, value.encode("utf-8") if value else None)
            else:
                rc = lib.pwquality_set_int_value(pointer, setting_id, int(value))
            if rc != 0:
                raise SettingsError("libpwquality refused setting %r (error %d)" % (name, rc))
        return handle

    def raw_check(self, handle, password, user):
        aux = ctypes.c_void_p(None)
        rc = self._check(handle.pointer, password.encode("utf-8"), None,
                         user.encode("utf-8") if user else None, ctypes.byref(aux))
        if rc >= 0:
            return rc, None, None
        value = None
        if rc in NUMERIC_AUX_CODES:
            value = aux.value
        elif rc == ERR_CRACKLIB_CHECK and aux.value:
            # cracklib's static message: read it, never free it.
            value = ctypes.string_at(aux.value).decode("utf-8", "replace")
        return rc, value, None

    def dictpath(self, handle):
        value = ctypes.c_char_p(None)
        if self._lib.pwquality_get_str_value(handle.pointer, SETTINGS["dictpath"][0], ctypes.byref(value)) != 0:
            return None
        return value.value.decode("utf-8", "replace") if value.value else None


def _check_dictionary(backend, handle, items):
    """Fail early, and usefully, when the cracklib dictionary cannot be loaded."""
    if not dict(items).get("dictcheck", 1):
        return
    path = backend.dictpath(handle)
    if not path:
        return
    # cracklib reads NAME.pwi and NAME.pwd (or a gzipped NAME.pwd.gz, as Fedora ships it).
    missing = []
    if not os.path.isfile(path + ".pwi"):
        missing.append(path + ".pwi")
    if not (os.path.isfile(path + ".pwd") or os.path.isfile(path + ".pwd.gz")):
        missing.append(path + ".pwd")
    if missing:
        raise DictionaryError(DICTIONARY_HINT % ("missing: %s" % ", ".join(missing)))


# ---------------------------------------------------------------------------
# Choosing a backend, and checking
# ---------------------------------------------------------------------------
_BACKEND = None


def load_backend(name=None):
    """A new backend: ``binding``, ``ctypes``, or the first that works (binding first).

    The environment variable ``KICKSTART_PWPOLICY_PWQUALITY_BACKEND`` may
    name the one to use.  Raises :class:`BackendUnavailable` naming the
    packages to install when none works.
    """
    name = name or os.environ.get(BACKEND_ENV) or None
    if name is not None and name not in BACKEND_NAMES:
        raise PwcheckError("unknown libpwquality backend %r: valid backends are %s"
                           % (name, ", ".join(BACKEND_NAMES)))
    problems = []
    for candidate in [name] if name else list(BACKEND_NAMES):
        try:
            return BindingBackend() if candidate == "binding" else CtypesBackend()
        except (ImportError, OSError, AttributeError) as exc:
            problems.append("%s: %s" % (candidate, exc))
    raise BackendUnavailable(
        "cannot check passwords: libpwquality is not available to the Python running Ansible "
        "(%s); %s" % ("; ".join(problems), PACKAGES_HINT))


def get_backend():
    """The process-wide backend, loaded once."""
    global _BACKEND
    if _BACKEND is None:
        _BACKEND = load_backend()
    return _BACKEND


def check(backend, items, minlen, password, user):
    """libpwquality's ``(rc, aux)`` for ``password``; raises when no check could be made.

    ``items`` are normalized settings, ``minlen`` the minimum length
    libpwquality applies (in bytes, never below 6), ``user`` the account name
    or None.
    """
    rc, aux, message = backend.raw_check(backend.settings(items, minlen), password, user)
    if rc == ERR_CRACKLIB_CHECK and "error loading dictionary" in ((aux or "") + (message or "")).lower():
        raise DictionaryError(DICTIONARY_HINT % "libpwquality reports: error loading dictionary")
    if rc in BROKEN_CODES:
        raise PwcheckError("libpwquality failed to check the password (error %d)" % rc)
    return rc, aux
