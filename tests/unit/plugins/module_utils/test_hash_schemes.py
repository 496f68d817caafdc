# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""module_utils/_hash_schemes.py: every scheme and cost, read from hashes libxcrypt makes in the test."""

import hashlib

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._hash_schemes import (
    SCHEMES,
    YESCRYPT_PARAMS,
    grub_parts,
    identify,
)
from ansible_collections.kickstart.pwpolicy.tests.unit.hashes import LIB, crypt_hash, needs_libxcrypt


def made(prefix, count=0):
    return crypt_hash("hunter2", prefix, count)


@needs_libxcrypt
@pytest.mark.parametrize("prefix, count, scheme, cost, legacy", [
    (b"", 0, "des", None, True),
    (b"_", 0, "bsdicrypt", 725, True),
    (b"_", 1001, "bsdicrypt", 1001, True),
    (b"$1$", 0, "md5crypt", None, True),
    (b"$md5", 0, "sunmd5", None, True),
    (b"$sha1", 0, "sha1crypt", None, True),
    (b"$3$", 0, "nthash", None, True),
    (b"$5$", 0, "sha256crypt", 5000, False),
    (b"$5$", 1000, "sha256crypt", 1000, False),
    (b"$6$", 0, "sha512crypt", 5000, False),
    (b"$6$", 656000, "sha512crypt", 656000, False),
    (b"$2b$", 4, "bcrypt", 4, False),
    (b"$2a$", 5, "bcrypt", 5, False),
    (b"$2y$", 6, "bcrypt", 6, False),
    (b"$7$", 0, "scrypt", 14, False),
    (b"$y$", 0, "yescrypt", 5, False),
    (b"$y$", 1, "yescrypt", 1, False),
    (b"$y$", 11, "yescrypt", 11, False),
    (b"$gy$", 3, "gost_yescrypt", 3, False),
])
def test_every_scheme_and_cost_is_read_from_its_hash(prefix, count, scheme, cost, legacy):
    if prefix == b"$6$" and count == 656000:
        hashed = "$6$rounds=656000$saltsalt$" + "a" * 86  # the form only: no need to hash 656,000 rounds
    else:
        hashed = made(prefix, count)
    form = identify(hashed)
    assert (form.scheme, form.legacy) == (scheme, legacy)
    if cost is not None:
        assert form.cost == cost
    elif scheme in ("sunmd5", "sha1crypt"):
        assert form.cost > 0  # libxcrypt picks random rounds for these
    else:
        assert form.cost is None


@needs_libxcrypt
def test_the_yescrypt_cost_table_is_libxcrypts():
    for cost in range(1, 12):
        assert YESCRYPT_PARAMS[LIB.gensalt(b"$y$", cost, None).decode().split("$")[2]] == cost


def test_grub_pbkdf2_hashes_are_read_with_their_iterations():
    salt = bytes(range(64))
    digest = hashlib.pbkdf2_hmac("sha512", b"hunter2", salt, 1000)
    hashed = "grub.pbkdf2.sha512.1000.%s.%s" % (salt.hex().upper(), digest.hex().upper())
    form = identify(hashed)
    assert (form.scheme, form.cost, form.legacy, form.is_grub) == ("pbkdf2_sha512", 1000, False, True)
    assert grub_parts(hashed) == (1000, salt, digest)


@pytest.mark.parametrize("value", ["", "hunter2", "$6$", "$6$salt$short", "$1$abc$" + "a" * 21, "$9$x$y",
                                   "grub.pbkdf2.sha512.x.ab.cd", "$6$" + "a" * 5000, None, 42])
def test_what_is_no_hash_is_none(value):
    assert identify(value) is None


def test_every_scheme_has_a_description_and_legacy_flag():
    for scheme, (legacy, cost_name, default, description) in SCHEMES.items():
        assert isinstance(legacy, bool) and description
        assert (default is None) or cost_name
