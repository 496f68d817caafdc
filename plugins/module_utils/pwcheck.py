# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Check one password against one policy with libpwquality, and say why.

This is the one home of the libpwquality backend and of the verdict rules.

Backend: the Python binding ``pwquality`` when it is importable, else the
shared library ``libpwquality.so.1`` through :mod:`ctypes` (controllers often
run Ansible in a virtual environment that cannot see the binding).  Both start
from libpwquality's compiled defaults (never the controller's own
``/etc/security/pwquality.conf``), take the caller's explicit settings, and
put the policy's ``minlen`` on top.  A settings object is built once per
distinct set of settings and reused.

Verdict (these rules are ours: the installer never checks passwords a
kickstart supplies):

* an empty password is ``accepted`` with ``emptyok`` and ``rejected`` without;
* shorter than ``minlen`` characters, rejected by libpwquality, or scored
  below ``minquality`` is a failure: ``rejected`` under ``strict``,
  ``accepted_weak`` otherwise;
* anything else is ``accepted``.

Nothing this module returns or raises holds the password or any part of it:
every reason and hint is our own text keyed by libpwquality's error code.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError

import ctypes
import ctypes.util
import os
import re
import string
import threading
from collections import OrderedDict

from ansible.module_utils.parsing.convert_bool import BOOLEANS_FALSE, BOOLEANS_TRUE

# ---------------------------------------------------------------------------
# libpwquality constants (src/pwquality.h); stable since libpwquality 1.2.
# ---------------------------------------------------------------------------
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

# libpwquality raises any minlen below this to it, without telling.
LIBPWQUALITY_MIN_LENGTH = 6
# libpwquality crashes the process (a segmentation fault) on passwords and user
# names of some 87,000 characters; no installer, passwd or PAM stack takes
# anything near these lengths, so longer input never reaches it.
MAX_PASSWORD_LENGTH = 4096
MAX_USER_LENGTH = 256

# Settings a caller may pass: name -> (libpwquality setting id, kind).
# PAM-only settings (enforcing, retry, enforce_for_root, local_users_only)
# mean nothing to a check and are refused; minlen comes from the policy.
SETTINGS = OrderedDict([
    ("difok", (1, "int")),
    ("dcredit", (4, "int")),
    ("ucredit", (5, "int")),
    ("lcredit", (6, "int")),
    ("ocredit", (7, "int")),
    ("minclass", (8, "int")),
    ("maxrepeat", (9, "int")),
    ("dictpath", (10, "str")),
    ("maxclassrepeat", (11, "int")),
    ("gecoscheck", (12, "bool")),
    ("badwords", (13, "str")),
    ("maxsequence", (14, "int")),
    ("dictcheck", (15, "bool")),
    ("usercheck", (16, "bool")),
    ("usersubstr", (21, "int")),
])
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

# Anaconda's test for "can be typed on any layout": ASCII letters, digits,
# punctuation and the space.  A tab or any non-ASCII character fails it.
TYPABLE = frozenset(string.digits + string.ascii_letters + string.punctuation + " ")

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
def _type_name(value):
    return type(value).__name__


def normalize_settings(settings):
    """Validate explicit libpwquality settings; return a sorted tuple of (name, value).

    Integers accept ints and strings of digits (a leading minus for the
    credits); flags accept booleans, 0/1 and Ansible's boolean words;
    ``badwords`` accepts a string of space-separated words or a list of words.
    """
    if settings is None:
        return ()
    if not isinstance(settings, dict):
        raise SettingsError(
            "settings must be a dict of libpwquality settings (%s), got %s"
            % (", ".join(SETTINGS), _type_name(settings)))
    result = []
    for name, value in settings.items():
        if name in NOT_ACCEPTED:
            raise SettingsError("setting %r is not accepted: %s" % (name, NOT_ACCEPTED[name]))
        if name not in SETTINGS:
            raise SettingsError(
                "unknown libpwquality setting %r: valid settings are %s" % (name, ", ".join(SETTINGS)))
        kind = SETTINGS[name][1]
        if kind == "int":
            number = None
            if isinstance(value, int) and not isinstance(value, bool):
                number = value
            elif isinstance(value, str) and re.fullmatch(r"\s*[-+]?\d+\s*", value):
                number = int(value)
            if number is None or not -1024 <= number <= 1024:
                raise SettingsError(
                    "setting %r must be a whole number from -1024 to 1024, got %s"
                    % (name, _type_name(value)))
            if name not in ("dcredit", "ucredit", "lcredit", "ocredit") and number < 0:
                raise SettingsError("setting %r must not be negative, got %d" % (name, number))
            value = number
        elif kind == "bool":
            if isinstance(value, bool):
                value = int(value)
            elif isinstance(value, int) and value in (0, 1):
                value = int(value)
            elif isinstance(value, str) and value.strip().lower() in BOOLEANS_TRUE:
                value = 1
            elif isinstance(value, str) and value.strip().lower() in BOOLEANS_FALSE:
                value = 0
            else:
                raise SettingsError("setting %r must be true or false, got %s" % (name, _type_name(value)))
        else:
            if name == "badwords" and isinstance(value, (list, tuple)):
                if not all(isinstance(word, str) for word in value):
                    raise SettingsError("setting 'badwords' must be a list of strings")
                value = " ".join(w.strip() for w in value if w.strip())
            if not isinstance(value, str):
                raise SettingsError("setting %r must be a string, got %s" % (name, _type_name(value)))
            if "\0" in value or "\n" in value:
                raise SettingsError("setting %r must be one line of text" % name)
            value = value.strip()
        result.append((name, value))
    return tuple(sorted(result))


# ---------------------------------------------------------------------------
# Backends.  Each returns (rc, aux, message) from check(): rc is the score
# (0..100) or a negative error code, aux the number or cracklib text that
# goes with the code (or None), message libpwquality's own text (internal:
# only used to classify, never passed on).
# ---------------------------------------------------------------------------
class _Backend(object):
    name = None

    def make_settings(self, items, minlen):
        raise NotImplementedError

    def check(self, handle, password, user):
        raise NotImplementedError

    def dictpath(self, handle):
        raise NotImplementedError


class BindingBackend(_Backend):
    """libpwquality through its Python binding ``pwquality``."""

    name = "binding"

    def __init__(self):
        import pwquality  # noqa: F401  (ImportError tells the caller it is absent)
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

    def check(self, handle, password, user):
        try:
            return handle.check(password, None, user), None, None
        except self._mod.PWQError as exc:
            code, message = exc.args[0], exc.args[1] if len(exc.args) > 1 else ""
            aux = None
            if code in NUMERIC_AUX_CODES:
                numbers = re.findall(r"\d+", message or "")
                aux = int(numbers[-1]) if numbers else None
            elif code == ERR_CRACKLIB_CHECK and " - " in (message or ""):
                aux = message.split(" - ", 1)[1]
            return code, aux, message

    def dictpath(self, handle):
        return handle.dictpath


def _safe_args(exc):
    """libpwquality's own words for a settings error (they name settings, not passwords)."""
    parts = [str(a) for a in getattr(exc, "args", ()) if isinstance(a, (int, str))]
    return " ".join(parts) or _type_name(exc)


class _CtypesSettings(object):
    """Owns one pwquality_settings_t; frees it when dropped."""

    def __init__(self, lib, pointer):
        self._lib = lib
        self.pointer = pointer

    def __del__(self):
        if self.pointer and self._lib is not None:
            self._lib.pwquality_free_settings(self.pointer)
            self.pointer = None


class CtypesBackend(_Backend):
    """libpwquality through the shared library ``libpwquality.so.1``."""

    name = "ctypes"

    def __init__(self, library=None):
        names = [library] if library else ["libpwquality.so.1", ctypes.util.find_library("pwquality")]
        lib = None
        errors = []
        for candidate in names:
            if not candidate:
                continue
            try:
                lib = ctypes.CDLL(candidate)
                break
            except OSError as exc:
                errors.append(str(exc))
        if lib is None:
            raise OSError("libpwquality.so.1 not found (%s)" % "; ".join(errors or ["no candidate"]))
        vp = ctypes.c_void_p
        lib.pwquality_default_settings.restype = vp
        lib.pwquality_default_settings.argtypes = []
        lib.pwquality_free_settings.restype = None
        lib.pwquality_free_settings.argtypes = [vp]
        lib.pwquality_set_int_value.restype = ctypes.c_int
        lib.pwquality_set_int_value.argtypes = [vp, ctypes.c_int, ctypes.c_int]
        lib.pwquality_set_str_value.restype = ctypes.c_int
        lib.pwquality_set_str_value.argtypes = [vp, ctypes.c_int, ctypes.c_char_p]
        lib.pwquality_get_str_value.restype = ctypes.c_int
        lib.pwquality_get_str_value.argtypes = [vp, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
        lib.pwquality_check.restype = ctypes.c_int
        lib.pwquality_check.argtypes = [vp, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                        ctypes.POINTER(vp)]
        lib.pwquality_strerror.restype = ctypes.c_char_p
        lib.pwquality_strerror.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int, vp]
        self._lib = lib

    def make_settings(self, items, minlen):
        lib = self._lib
        pointer = lib.pwquality_default_settings()
        if not pointer:
            raise PwcheckError("libpwquality could not allocate its settings (out of memory)")
        handle = _CtypesSettings(lib, pointer)
        for name, value in items:
            setting_id, kind = SETTINGS[name]
            if kind == "str":
                rc = lib.pwquality_set_str_value(pointer, setting_id,
                                                 value.encode("utf-8") if value else None)
            else:
                rc = lib.pwquality_set_int_value(pointer, setting_id, int(value))
            if rc != 0:
                raise SettingsError("libpwquality refused setting %r (error %d)" % (name, rc))
        rc = lib.pwquality_set_int_value(pointer, MINLEN_SETTING_ID, int(minlen))
        if rc != 0:
            raise SettingsError("libpwquality refused minlen %d (error %d)" % (minlen, rc))
        return handle

    def check(self, handle, password, user):
        aux = ctypes.c_void_p(None)
        rc = self._lib.pwquality_check(
            handle.pointer, password.encode("utf-8"), None,
            user.encode("utf-8") if user else None, ctypes.byref(aux))
        if rc >= 0:
            return rc, None, None
        value = None
        if rc in NUMERIC_AUX_CODES:
            value = aux.value
        elif rc == ERR_CRACKLIB_CHECK and aux.value:
            # cracklib's static message: read it, never free it.
            value = ctypes.string_at(aux.value).decode("utf-8", "replace")
        # pwquality_strerror frees aux only for the settings errors, which a
        # check does not return; for check errors it just formats.
        buf = ctypes.create_string_buffer(256)
        message = self._lib.pwquality_strerror(buf, len(buf), rc, aux)
        return rc, value, (message or b"").decode("utf-8", "replace")

    def dictpath(self, handle):
        value = ctypes.c_char_p(None)
        if self._lib.pwquality_get_str_value(handle.pointer, SETTINGS["dictpath"][0], ctypes.byref(value)) != 0:
            return None
        raw = value.value
        if not raw:
            return None
        return raw.decode("utf-8", "replace")


_BACKEND = None
_BACKEND_LOCK = threading.Lock()


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
    order = [name] if name else list(BACKEND_NAMES)
    problems = []
    for candidate in order:
        try:
            if candidate == "binding":
                return BindingBackend()
            return CtypesBackend()
        except (ImportError, OSError, AttributeError) as exc:
            problems.append("%s: %s" % (candidate, exc))
    raise BackendUnavailable(
        "cannot check passwords: libpwquality is not available to the Python running Ansible "
        "(%s); %s" % ("; ".join(problems), PACKAGES_HINT))


def get_backend():
    """The process-wide backend, loaded once."""
    global _BACKEND
    with _BACKEND_LOCK:
        if _BACKEND is None:
            _BACKEND = load_backend()
        return _BACKEND


class SettingsCache(object):
    """libpwquality settings objects, one per distinct settings (LRU, bounded)."""

    def __init__(self, backend, size=64):
        self.backend = backend
        self.size = size
        self.built = 0
        self._items = OrderedDict()
        self._lock = threading.Lock()

    def get(self, items, minlen):
        key = (items, minlen)
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        handle = self.backend.make_settings(items, minlen)
        _check_dictionary(self.backend, handle, items)
        with self._lock:
            self.built += 1
            self._items[key] = handle
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return handle


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


_CACHES = {}


def settings_cache(backend=None):
    backend = backend or get_backend()
    with _BACKEND_LOCK:
        cache = _CACHES.get(id(backend))
        if cache is None or cache.backend is not backend:
            cache = _CACHES[id(backend)] = SettingsCache(backend)
        return cache


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


# Codes that mean "no check was made", not "the password is weak".
_BROKEN = (ERR_FATAL_FAILURE, ERR_MEM_ALLOC, ERR_INTEGER, ERR_UNKNOWN_SETTING,
           ERR_NON_INT_SETTING, ERR_NON_STR_SETTING, ERR_CFGFILE_OPEN, ERR_CFGFILE_MALFORMED)


def _checked(backend, handle, password, user):
    """(rc, aux) from libpwquality; raises when no check could be made."""
    rc, aux, message = backend.check(handle, password, user)
    if rc == ERR_CRACKLIB_CHECK and "error loading dictionary" in ((aux or "") + (message or "")).lower():
        raise DictionaryError(DICTIONARY_HINT % "libpwquality reports: error loading dictionary")
    if rc in _BROKEN:
        raise PwcheckError("libpwquality failed to check the password (error %d)" % rc)
    return rc, aux


def check_password(password, policy, user=None, settings=None, backend=None):
    """Check ``password`` (text) against ``policy`` (a :class:`policy.Policy`).

    ``user`` is the account name for the ``user`` policy (``root`` is used
    for the root policy and no name for ``luks``); ``settings`` are explicit
    libpwquality settings.  Returns the report dict described in the module
    docstring; raises :class:`PwcheckError` when no check can be made.
    """
    if not isinstance(password, str):
        raise PwcheckError("the password must be a string, got %s" % _type_name(password))
    try:
        password.encode("utf-8")
    except UnicodeEncodeError:
        raise PwcheckError("the password is not valid text: it holds characters that cannot be encoded as UTF-8")
    items = normalize_settings(settings)
    if user is not None and not isinstance(user, str):
        raise PwcheckError("user must be a string (the account name), got %s" % _type_name(user))
    if user is not None and len(user) > MAX_USER_LENGTH:
        raise PwcheckError("user (the account name) has %d characters; account names have at most %d "
                           "(32 on Linux)" % (len(user), MAX_USER_LENGTH))

    report = {"ok": True, "verdict": "accepted", "score": 0, "strength": "empty",
              "reasons": [], "hints": [], "policy": policy.to_dict()}
    if password == "":
        if not policy.emptyok:
            report.update(ok=False, verdict="rejected")
            report["reasons"].append("is empty, and this policy does not allow an empty password")
            report["hints"].append(
                "set a password, or set emptyok to true if an empty one is really meant"
                + (" (for root, empty means the account is locked)" if policy.name == "root" else ""))
        return report

    length = len(password)
    if "\0" in password:
        report.update(ok=False, verdict="rejected", strength="weak")
        report["reasons"].append("contains a NUL character, which no installer, kickstart line or crypt hash "
                                 "can take")
        report["hints"].append("choose a password without a NUL character")
        return report
    if length > MAX_PASSWORD_LENGTH:
        report.update(ok=False, verdict="rejected", strength="weak")
        report["reasons"].append("longer than %d characters (has %d): too long to check, and longer than "
                                 "any installer or login takes" % (MAX_PASSWORD_LENGTH, length))
        report["hints"].append("use at most %d characters (a passphrase of a few dozen is already very "
                               "strong)" % MAX_PASSWORD_LENGTH)
        return report
    backend = backend or get_backend()
    handle = settings_cache(backend).get(items, policy.minlen)
    rc, aux = _checked(backend, handle, password, account_for(policy.name, user))

    failed = False
    too_short = length < policy.minlen
    if too_short:
        failed = True
        report["reasons"].append("shorter than %s (has %d)" % (_plural(policy.minlen, "character"), length))
        report["hints"].append("add at least %s" % _plural(policy.minlen - length, "more character"))
    if rc < 0:
        failed = True
        report["score"] = 0
        if too_short and rc == ERR_MIN_LENGTH:
            # libpwquality stops at its length rule, already reported in
            # characters above; ask again at its lowest minlen for the rest.
            low = settings_cache(backend).get(items, LIBPWQUALITY_MIN_LENGTH)
            rc_more, aux = _checked(backend, low, password, account_for(policy.name, user))
            if rc_more < 0 and rc_more != ERR_MIN_LENGTH:
                reason, hint = explain(rc_more, aux, length)
                report["reasons"].append(reason)
                report["hints"].append(hint)
        else:
            reason, hint = explain(rc, aux, length)
            report["reasons"].append(reason)
            report["hints"].append(hint)
    else:
        report["score"] = rc
        if rc < policy.minquality:
            failed = True
            report["reasons"].append("libpwquality scores it %d, below this policy's minquality of %d"
                                     % (rc, policy.minquality))
            report["hints"].append("make it longer or less predictable; every character beyond "
                                   "minlen and every extra kind of character raises the score")

    if too_short:
        report["strength"] = "too_short"
    elif rc < 0:
        report["strength"] = "weak"
    else:
        report["strength"] = strength_band(rc)

    if any(char not in TYPABLE for char in password):
        report["hints"].append(KEYBOARD_HINT)

    if failed:
        if policy.strict:
            report.update(ok=False, verdict="rejected")
        else:
            report.update(ok=True, verdict="accepted_weak")
    return report


def check_against(password, policy, product=None, target=None, user=None, settings=None, backend=None):
    """Resolve ``policy`` with the shared model, then check ``password``.

    ``policy`` is a policy dict, a :class:`policy.Policy`, or a policy name
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
