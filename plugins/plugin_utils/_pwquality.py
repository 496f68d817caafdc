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

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._pwq_settings import (
    BROKEN_CODES,
    ERR_CRACKLIB_CHECK,
    LIBPWQUALITY_MIN_LENGTH,
    MINLEN_SETTING_ID,
    NUMERIC_AUX_CODES,
    SETTINGS,
    PwcheckError,
    SettingsError,
    type_name,
)

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


class BackendUnavailable(PwcheckError):
    """Neither the binding nor the shared library can be used."""


class DictionaryError(PwcheckError):
    """The cracklib dictionary is missing or broken."""


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
        raw = value.value  # bytes, or None when no dictionary path is set
        if not raw:
            return None
        return raw.decode("utf-8", "replace")


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
