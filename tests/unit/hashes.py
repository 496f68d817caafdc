# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hashes made in the tests, by the system's libxcrypt (through the collection's binding) or hashlib."""

import hashlib
import os

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _libxcrypt

LIB = _libxcrypt.load()
needs_libxcrypt = pytest.mark.skipif(LIB is None, reason="libxcrypt is not installed here")


def crypt_hash(password, prefix, count=0):
    """A crypt hash of ``password`` in the scheme of ``prefix`` (b"$6$", ...), fresh random salt; skips the
    test when this libxcrypt makes no such hash."""
    setting = LIB.gensalt(prefix, count, None)
    if setting is None:
        pytest.skip("this libxcrypt makes no %s hashes" % prefix.decode())
    return LIB.crypt(password.encode(), setting).decode("ascii")


def grub_hash(password, iterations=10000):
    """A GRUB 2 PBKDF2 hash of ``password`` with a fresh random salt, as grub2-mkpasswd-pbkdf2 prints it."""
    salt = os.urandom(64)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations)
    return "grub.pbkdf2.sha512.%d.%s.%s" % (iterations, salt.hex().upper(), digest.hex().upper())
