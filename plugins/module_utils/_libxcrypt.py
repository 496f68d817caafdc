# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The system's libxcrypt (``libcrypt.so.1``, the library behind ``/etc/shadow``), through ctypes.

The one binding of the collection: the controller hashes the role's
passwords with it (``plugin_utils/_crypt.py``) and the node checks a
kickstart's hashes with it (``_known_weak``).  ``crypt_rn`` gets a work area
(``struct crypt_data``) of its own in each thread, made once and reused, so
threads hash in parallel: ctypes releases the GIL around every call into a
``CDLL``.  Nothing here keeps, logs or raises a password, a setting or a hash.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ctypes
import ctypes.util
import threading

CRYPT_DATA_SIZE = 32768  # sizeof(struct crypt_data) in libxcrypt
OUTPUT_SIZE = 256        # CRYPT_GENSALT_OUTPUT_SIZE is 192
# What to install where the library is missing (every current Linux has it).
PACKAGES = "libcrypt1 on Debian and Ubuntu, libxcrypt on Fedora and RHEL"


class Libxcrypt(object):
    """``crypt_rn`` and ``crypt_gensalt_rn`` of ``libcrypt.so.1``, one work area per thread."""

    name = "libxcrypt"

    def __init__(self, lib):
        self._crypt_rn = lib.crypt_rn
        self._crypt_rn.restype = ctypes.c_char_p
        self._crypt_rn.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int]
        self._gensalt_rn = lib.crypt_gensalt_rn
        self._gensalt_rn.restype = ctypes.c_char_p
        self._gensalt_rn.argtypes = [ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p, ctypes.c_int,
                                     ctypes.c_char_p, ctypes.c_int]
        self._local = threading.local()

    def _area(self):
        area = getattr(self._local, "area", None)
        if area is None:
            area = self._local.area = ctypes.create_string_buffer(CRYPT_DATA_SIZE)
        return area

    def gensalt(self, prefix, count, rbytes):
        """``crypt_gensalt_rn``: the setting (bytes) for ``prefix`` and ``count`` from ``rbytes``, or None."""
        out = ctypes.create_string_buffer(OUTPUT_SIZE)
        return self._gensalt_rn(prefix, count, rbytes, len(rbytes) if rbytes else 0, out, OUTPUT_SIZE)

    def crypt(self, phrase, setting):
        """The hash of ``phrase`` (bytes) for ``setting`` (bytes), or None where libxcrypt refuses it."""
        result = self._crypt_rn(phrase, setting, self._area(), CRYPT_DATA_SIZE)
        # A failed crypt_rn returns NULL or a "*0"/"*1" failure token.
        if not result or result.startswith(b"*"):
            return None
        return result

    def verifier(self, hashed):
        """For the calling thread: ``phrase -> bool``, whether ``crypt(phrase, hashed) == hashed``.

        The work area is this thread's, looked up once, so a loop over
        candidates costs one ``crypt_rn`` call and one comparison each.
        (Whether libxcrypt can compute ``hashed`` at all, :meth:`crypt` tells.)
        """
        crypt_rn, area, size = self._crypt_rn, self._area(), CRYPT_DATA_SIZE

        def verify(phrase):
            return crypt_rn(phrase, hashed, area, size) == hashed
        return verify


_LOADED = []
_LOCK = threading.Lock()


def load():
    """The :class:`Libxcrypt` of this system (loaded once), or None when libxcrypt cannot be loaded."""
    with _LOCK:
        if not _LOADED:
            _LOADED.append(_load())
        return _LOADED[0]


def _load():
    for name in ("libcrypt.so.1", ctypes.util.find_library("crypt")):
        if not name:
            continue
        try:
            lib = ctypes.CDLL(name)  # a CDLL (not a PyDLL): every call releases the GIL
        except OSError:
            continue
        if hasattr(lib, "crypt_rn") and hasattr(lib, "crypt_gensalt_rn"):
            return Libxcrypt(lib)
    return None
