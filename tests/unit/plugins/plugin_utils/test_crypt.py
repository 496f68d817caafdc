# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""plugin_utils/_crypt.py: settings, hashes and errors, checked against libxcrypt called directly and passlib."""

import ctypes

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _crypt

LIB = ctypes.CDLL("libcrypt.so.1")
LIB.crypt.restype = ctypes.c_char_p
LIB.crypt.argtypes = [ctypes.c_char_p, ctypes.c_char_p]

PASSWORDS = ["", "a", "correct horse battery staple", "päss wörd ✓", "x" * 300]
SALTS = ["0123456789abcdef", "saltstring", "./AZaz09"]


def raw_crypt(password, setting):
    """libxcrypt's own answer, through its plain crypt() entry point."""
    return LIB.crypt(password.encode("utf-8"), setting.encode("ascii")).decode("ascii")


@pytest.mark.parametrize("rounds", [1000, 5000, 5001, 656000])
@pytest.mark.parametrize("salt", SALTS)
@pytest.mark.parametrize("password", PASSWORDS)
def test_sha512crypt_matches_libxcrypt_and_passlib(password, salt, rounds):
    passlib_hash = pytest.importorskip("passlib.hash")
    if rounds == 656000 and (password, salt) != ("a", SALTS[0]):
        pytest.skip("one slow row is enough")
    got = _crypt.hash_secret(password, "sha512crypt", salt, rounds)
    setting = "$6$%s" % salt if rounds == 5000 else "$6$rounds=%d$%s" % (rounds, salt)
    assert got == raw_crypt(password, setting)
    assert got == passlib_hash.sha512_crypt.using(salt=salt, rounds=rounds).hash(password)


def test_sha512crypt_default_rounds_are_implicit():
    assert _crypt.setting("sha512crypt", "abc") == "$6$abc"
    assert _crypt.setting("sha512crypt", "abc", 656000) == "$6$rounds=656000$abc"


@pytest.mark.parametrize("cost", [1, 3, 5])
@pytest.mark.parametrize("password", PASSWORDS[:4])
def test_yescrypt_matches_libxcrypt(password, cost):
    setting = _crypt.setting("yescrypt", "0123456789abcdef", cost)
    assert setting.startswith("$y$")
    got = _crypt.hash_secret(password, "yescrypt", "0123456789abcdef", cost)
    assert got == raw_crypt(password, setting)
    assert got.startswith(setting + "$")
    # The hash verifies as libxcrypt verifies a shadow entry: crypt(password, hash) == hash.
    assert raw_crypt(password, got) == got


def test_yescrypt_setting_is_deterministic_and_salt_dependent():
    a = _crypt.setting("yescrypt", "0123456789abcdef", 5)
    assert a == _crypt.setting("yescrypt", "0123456789abcdef", 5)
    assert a != _crypt.setting("yescrypt", "0123456789abcdeg", 5)
    assert a.split("$")[2] != _crypt.setting("yescrypt", "0123456789abcdef", 6).split("$")[2]
    # The cost's top of the scale is a setting libxcrypt accepts (hashing at it takes seconds).
    assert _crypt.setting("yescrypt", "0123456789abcdef", 11).startswith("$y$jFT$")


def test_crypt_verifies_against_a_full_hash():
    h = _crypt.hash_secret("hunter2", "sha512crypt", "abcdefgh", 1000)
    assert _crypt.crypt("hunter2", h) == h
    assert _crypt.crypt("hunter3", h) != h


@pytest.mark.parametrize("scheme, cost, words", [
    ("sha512crypt", 999, "from 1000 to 999999999"),
    ("sha512crypt", 10 ** 9, "from 1000 to 999999999"),
    ("sha512crypt", "many", "from 1000 to 999999999"),
    ("sha512crypt", True, "from 1000 to 999999999"),
    ("yescrypt", 0, "cost must be a whole number from 1 to 11"),
    ("yescrypt", 12, "cost must be a whole number from 1 to 11"),
    ("md5crypt", None, "unknown hashing scheme 'md5crypt': use one of sha512crypt, yescrypt"),
])
def test_costs_outside_the_range_name_it(scheme, cost, words):
    with pytest.raises(_crypt.CryptError) as err:
        _crypt.hash_secret("s3cret-Value", scheme, "abcdefghabcdefgh", cost)
    assert words in str(err.value)
    assert "s3cret-Value" not in str(err.value)


@pytest.mark.parametrize("scheme, salt", [
    ("sha512crypt", ""), ("sha512crypt", "a$b"), ("sha512crypt", "x" * 17),
    ("yescrypt", "short"), ("yescrypt", "x" * 65), ("yescrypt", "bad salt chars!!"),
])
def test_bad_salts_are_refused(scheme, salt):
    with pytest.raises(_crypt.CryptError):
        _crypt.setting(scheme, salt)


def test_secret_errors_hold_no_secret():
    with pytest.raises(_crypt.CryptError) as err:
        _crypt.hash_secret("nul\0inside", "sha512crypt", "abc")
    assert "nul" not in str(err.value)
    with pytest.raises(_crypt.CryptError):
        _crypt.hash_secret(12345, "sha512crypt", "abc")


def test_passlib_backend_gives_the_same_sha512crypt_bytes():
    passlib_hash = pytest.importorskip("passlib.hash")
    fallback = _crypt._Passlib(passlib_hash.sha512_crypt)
    for rounds in (5000, 7000):
        setting = _crypt.setting("sha512crypt", "0123456789abcdef", rounds)
        assert fallback.crypt(b"pw", setting.encode()).decode() == raw_crypt("pw", setting)
    assert fallback.gensalt(b"$y$", 5, b"0123456789abcdef") is None


def test_without_libxcrypt_yescrypt_says_what_to_install(monkeypatch):
    passlib_hash = pytest.importorskip("passlib.hash")
    monkeypatch.setattr(_crypt, "_BACKEND", _crypt._Passlib(passlib_hash.sha512_crypt))
    with pytest.raises(_crypt.CryptError) as err:
        _crypt.setting("yescrypt", "0123456789abcdef")
    assert "yescrypt needs libxcrypt" in str(err.value)


def test_account_salt_is_the_roles_documented_salt():
    import hashlib
    expected = hashlib.sha512(b"kickstart.pwpolicy|web1|user:alice").hexdigest()[:16]
    assert _crypt.account_salt("kickstart.pwpolicy", "web1", "user:alice") == expected
    assert _crypt.account_salt("kickstart.pwpolicy", "web2", "user:alice") != expected
    # A salt both schemes take.
    _crypt.setting("sha512crypt", expected)
    _crypt.setting("yescrypt", expected)
