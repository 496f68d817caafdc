# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""module_utils/_hash_schemes.py: every scheme and cost, read from hashes libxcrypt makes in the test."""

import hashlib

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._hash_schemes import (
    SCHEMES,
    YESCRYPT_PARAMS,
    MemoryParams,
    grub_parts,
    identify,
    yescrypt_cost,
    yescrypt_params,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_secrets import read_secrets
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


# yescrypt's variable-length base-64, written from its documented format to build parameter fields here.
B64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def encoded(value, minimum):
    value -= minimum
    start, end, extra = 0, 47, 0
    while value >= (end + 1 - start) << (6 * extra):
        value -= (end + 1 - start) << (6 * extra)
        start, end = end + 1, end + 1 + (62 - end) // 2
        extra += 1
    tail = "".join(B64[(value >> (6 * shift)) & 63] for shift in range(extra - 1, -1, -1))
    return B64[start + (value >> (6 * extra))] + tail


def field(n_log2, r, p=1, t=0, flavor=47):
    text = encoded(flavor, 0) + encoded(n_log2, 1) + encoded(r, 1)
    have = (1 if p != 1 else 0) | (2 if t else 0)
    if have:
        text += encoded(have, 1) + (encoded(p, 2) if p != 1 else "") + (encoded(t, 1) if t else "")
    return text


@pytest.mark.parametrize("n_log2, r, p, t, flavor, cost", [
    (2, 1, 1, 0, 47, 0),          # N=4, r=1: less than cost 1's 1 MiB
    (10, 8, 1, 0, 47, 1),
    (12, 32, 1, 0, 47, 5),
    (16, 1, 1, 0, 47, 4),         # 8 MiB as N=2^16, r=1: cost 4's memory
    (11, 100, 1, 0, 47, 5),       # r in two characters: 25 MiB, between cost 5 and 6
    (10, 8, 256, 0, 47, 1),       # p in two characters
    (10, 8, 1, 1 << 20, 47, 1),   # t in four characters
    (10, 8, 3, 2, 0, 1),          # classic scrypt's flavor
    (19, 32, 1, 0, 47, 12),       # 2 GiB
    (63, 32, 1, 0, 47, 56),
])
def test_yescrypt_parameters_are_decoded_and_the_cost_computed_from_n_and_r(n_log2, r, p, t, flavor, cost):
    text = field(n_log2, r, p, t, flavor)
    assert yescrypt_params(text) == MemoryParams(flavor, 1 << n_log2, r, p, t, 0, 0)
    form = identify("$y$%s$saltsaltsaltsalt$%s" % (text, "a" * 43))
    assert (form.scheme, form.cost, form.params) == ("yescrypt", cost, yescrypt_params(text))


@pytest.mark.parametrize("text", ["", "j", "j7", "j75/", "j752", "jkn", "z75", "j75//.", "j7T...", "~75"])
def test_what_is_no_yescrypt_parameter_field_is_none(text):
    assert yescrypt_params(text) is None


@needs_libxcrypt
def test_the_decoding_agrees_with_libxcrypt_on_a_boundary_it_checks():
    # libxcrypt refuses yescrypt's read-write mode where N / p <= 3: N=1024 takes p=256 and refuses p=257, both
    # written in two characters.
    assert yescrypt_params(field(10, 8, 256)).p == 256 and yescrypt_params(field(10, 8, 257)).p == 257
    assert LIB.crypt(b"x", ("$y$%s$saltsaltsaltsalt" % field(10, 8, 256)).encode()) is not None
    assert LIB.crypt(b"x", ("$y$%s$saltsaltsaltsalt" % field(10, 8, 257)).encode()) is None


@needs_libxcrypt
def test_the_yescrypt_cost_table_is_the_computed_cost():
    for text, cost in YESCRYPT_PARAMS.items():
        assert yescrypt_cost(yescrypt_params(text)) == cost


@needs_libxcrypt
def test_cheap_nonstandard_yescrypt_parameters_get_a_cost_and_a_low_cost_finding():
    hashed = LIB.crypt(b"Xq7#pLm2-not-listed", ("$y$%s$saltsaltsaltsalt" % field(2, 1)).encode()).decode()
    entry = read_secrets("rootpw --iscrypted %s\n" % hashed, budget=0).to_list()[0]
    assert (entry["scheme"], entry["cost"]) == ("yescrypt", 0)
    assert [finding["id"] for finding in entry["findings"]] == ["low_cost"]
    assert entry["findings"][0]["reason"].startswith("yescrypt at cost 0, below 5")


def test_scrypt_parameters_are_decoded():
    form = identify("$7$CU..../....saltsalt$" + "a" * 43)
    assert (form.scheme, form.cost, form.params) == ("scrypt", 14, MemoryParams(0, 1 << 14, 32, 1, 0, 0, 0))
