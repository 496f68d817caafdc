# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""plugin_utils/_crypt.py: settings, hashes and errors, checked against libxcrypt called directly and passlib."""

import ctypes
import hashlib
import hmac
import struct

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


# ---------------------------------------------------------------------------
# GRUB 2's PBKDF2 (the boot-loader password)
# ---------------------------------------------------------------------------
def rfc8018_pbkdf2_sha512(password, salt, iterations, length=64):
    """An oracle of our own: PBKDF2 (RFC 8018, section 5.2) with HMAC-SHA-512 as its PRF, from hmac alone.

    T_i = U_1 xor U_2 xor ... xor U_c, U_1 = PRF(P, S || INT(i)), U_j = PRF(P, U_{j-1}); DK = T_1 || T_2 || ...
    """
    prf = hmac.new(password, None, hashlib.sha512)
    blocks = b""
    index = 1
    while len(blocks) < length:
        mac = prf.copy()
        mac.update(salt + struct.pack(">I", index))
        block = mac.digest()
        total = int.from_bytes(block, "big")
        for dummy in range(iterations - 1):
            mac = prf.copy()
            mac.update(block)
            block = mac.digest()
            total ^= int.from_bytes(block, "big")
        blocks += total.to_bytes(64, "big")
        index += 1
    return blocks[:length]


def documented_bootloader_salt(seed, host):
    """The salt as the role's documentation gives it: all 64 bytes of SHA-512 of SEED|HOST|bootloader."""
    return hashlib.sha512(("%s|%s|bootloader" % (seed, host)).encode("utf-8")).digest()


# Known answers, computed once with the oracle above (and checked against it again below).
GRUB_VECTORS = [
    ("Grub-Pw-8316-lynx", "kickstart.pwpolicy", "web01.example.com", 10000,
     "grub.pbkdf2.sha512.10000.D2BE812FD1698566E11790F5ADE10DCB0FB40CB9BA69043702BE6BC8C145E4D0A74D0866806E4BAA61F7432F9"
     "50AB6C9B5B36492ECFEC78C819E45CBEA337A80.FB6ACBF729C002CEFF35D141913D65FBCBDB3698FCFB17CBAAAFF2F804B483383ABFE0633C"
     "9E776547E5C0FB886F275C1C46DD1AE7BE0B865AADC6F36E7F719F"),
    ("päss wörd ✓ grub", "vector-seed", "db02", 1000,
     "grub.pbkdf2.sha512.1000.7FF16E82B6F02C61AD572E88DF0478F6E13B927D3160DD50DADA6DA1644D25C6A739135F76CBCB80076AFA74AB"
     "4D98C3A92E8F9C94E32285A243C1061CBB33EE.AAD3EF80231BDC231574A1C6695D38A9E19255315972A116DC4877FF5F10834FB52BC448B6F5"
     "510F55587D777A99A5088F0F28EB2C447C2E8F8AD8467734179A"),
    ("", "s", "h", 1000,
     "grub.pbkdf2.sha512.1000.2AE2162FE80E4F7F3A47FFBE67A5140CFD5F80D02C911882EDE1FE12668B07CC7173D583BA95158466AB5DB838"
     "B6FF1A1AB5E88C89C490696DB9F4D24659A700.FBB6ACA847E5B77ECA93BF969DFFFC6F2B6E10A93C842E5A8218C866A5CA439857B38C1005AA"
     "CD866B1DFD53FB20B5AA1384128FA16CD382E055E0E66B3E685F"),
]


@pytest.mark.parametrize("password, seed, host, iterations, expected", GRUB_VECTORS)
def test_grub_hash_known_answers(password, seed, host, iterations, expected):
    salt = _crypt.bootloader_salt(seed, host)
    assert salt == documented_bootloader_salt(seed, host)
    assert _crypt.grub_hash(password, salt, iterations) == expected


@pytest.mark.parametrize("password", PASSWORDS[:4])
@pytest.mark.parametrize("iterations", [1000, 1001, 2500])
def test_grub_hash_is_pbkdf2_hmac_sha512_as_rfc_8018_says(password, iterations):
    salt = documented_bootloader_salt("oracle", password)
    made = _crypt.grub_hash(password, salt, iterations)
    name, kind, digest_name, count, salt_hex, digest_hex = made.split(".")
    assert (name, kind, digest_name, count) == ("grub", "pbkdf2", "sha512", str(iterations))
    # grub2-mkpasswd-pbkdf2's form: 64 bytes of salt and of hash, upper-case hexadecimal.
    assert salt_hex == salt.hex().upper() and len(salt_hex) == 128
    assert digest_hex == rfc8018_pbkdf2_sha512(password.encode("utf-8"), salt, iterations).hex().upper()
    assert len(digest_hex) == 128 and digest_hex == digest_hex.upper()


def test_the_oracle_agrees_with_the_known_answers():
    for password, seed, host, iterations, expected in GRUB_VECTORS:
        digest = rfc8018_pbkdf2_sha512(password.encode("utf-8"), documented_bootloader_salt(seed, host), iterations)
        assert expected.rsplit(".", 1)[1] == digest.hex().upper()


def test_grub_hash_reads_back_as_a_grub_hash_and_verifies():
    from ansible_collections.kickstart.pwpolicy.plugins.module_utils._hash_schemes import grub_parts, identify
    made = _crypt.grub_hash("Grub-Pw-8316-lynx", _crypt.bootloader_salt("seed", "host"))
    iterations, salt, digest = grub_parts(made)
    assert (iterations, salt) == (10000, documented_bootloader_salt("seed", "host"))  # 10000: grub's default
    assert digest == hashlib.pbkdf2_hmac("sha512", b"Grub-Pw-8316-lynx", salt, iterations, 64)
    form = identify(made)
    assert (form.scheme, form.cost) == ("pbkdf2_sha512", 10000)


def test_the_boot_loader_salt_is_per_host_and_idempotent():
    one = _crypt.bootloader_salt("seed", "web01")
    assert one == _crypt.bootloader_salt("seed", "web01") and len(one) == 64
    assert one != _crypt.bootloader_salt("seed", "web02") and one != _crypt.bootloader_salt("other", "web01")
    # The accounts' salts come from the same digest (SEED|HOST|ACCOUNT), their first 16 hex digits.
    assert _crypt.account_salt("seed", "web01", "bootloader") == one.hex()[:16]


@pytest.mark.parametrize("iterations", [999, 10000001, 0, -5, "many", 1.5e9, True, [1000]])
def test_grub_iterations_outside_the_range_name_it(iterations):
    with pytest.raises(_crypt.CryptError, match="from 1000 to 10000000"):
        _crypt.check_iterations(iterations)


@pytest.mark.parametrize("given, expected", [(None, 10000), ("", 10000), (1000, 1000), ("20000", 20000),
                                             (10000000, 10000000)])
def test_grub_iterations_in_range(given, expected):
    assert _crypt.check_iterations(given) == expected


def test_grub_hash_refuses_what_grub_cannot_take_and_says_no_secret():
    salt = _crypt.bootloader_salt("s", "h")
    for bad, words in (("Grub\0Secret", "NUL"), (b"bytes", "a string")):
        with pytest.raises(_crypt.CryptError, match=words) as caught:
            _crypt.grub_hash(bad, salt)
        assert "Secret" not in str(caught.value) and "bytes" not in str(caught.value)
    with pytest.raises(_crypt.CryptError, match="64 bytes"):
        _crypt.grub_hash("Grub-Pw-8316-lynx", salt[:16])
