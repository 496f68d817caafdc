# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Which password-hashing scheme a hash is, and its cost, by its form alone.

:func:`identify` reads a crypt(3) hash (every scheme libxcrypt knows, as
``/etc/shadow`` holds them) or a GRUB 2 PBKDF2 hash (``bootloader
--iscrypted --password=grub.pbkdf2.sha512.N.SALT.HASH``) and returns a
:class:`HashForm`: the scheme's name, its cost as the scheme counts it
(rounds, libxcrypt's yescrypt cost, bcrypt's log2 cost...), whether the
scheme is legacy (libxcrypt leaves it out of its ``strong`` set: DES, BSDi
and big crypt, MD5 crypt, Sun MD5, SHA-1 crypt, NT hash, bcrypt's ``$2x$``
and ``$2$``) and the cost the scheme gets by default.  Nothing is hashed;
the hash itself is never part of what is returned or raised.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

_B64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_C = "[./0-9A-Za-z]"

# libxcrypt's yescrypt parameters (the field after "$y$") for its cost scale 1 to 11, as
# crypt_gensalt_rn("$y$", cost) writes them; tests/unit checks the table against libxcrypt.
YESCRYPT_PARAMS = {"j75": 1, "j85": 2, "j7T": 3, "j8T": 4, "j9T": 5, "jAT": 6, "jBT": 7, "jCT": 8, "jDT": 9,
                   "jET": 10, "jFT": 11}

# scheme: (legacy, what the cost counts, the scheme's default cost or None, a short description)
SCHEMES = {
    "des": (True, None, None, "traditional DES crypt: only the first 8 characters count, 4,096 salts"),
    "bigcrypt": (True, None, None, "big crypt, DES crypt in 8-character pieces"),
    "bsdicrypt": (True, "rounds", 725, "BSDi extended DES crypt"),
    "md5crypt": (True, None, None, "MD5 crypt: a fixed 1,000 rounds of MD5"),
    "sunmd5": (True, "rounds", None, "Sun MD5 crypt"),
    "sha1crypt": (True, "rounds", None, "NetBSD's SHA-1 crypt"),
    "nthash": (True, None, None, "the NT hash: one unsalted MD4"),
    "sha256crypt": (False, "rounds", 5000, "SHA-256 crypt"),
    "sha512crypt": (False, "rounds", 5000, "SHA-512 crypt"),
    "sm3crypt": (False, "rounds", 5000, "SM3 crypt"),
    # bcrypt's own default (OpenBSD's, where it comes from); libxcrypt's crypt_gensalt picks 5 unasked.
    "bcrypt": (False, "cost", 10, "bcrypt"),
    "bcrypt_x": (True, "cost", 10, "bcrypt with the $2x$ sign-extension bug"),
    "scrypt": (False, "log2 N", 14, "scrypt"),
    "yescrypt": (False, "cost", 5, "yescrypt"),
    "gost_yescrypt": (False, "cost", 5, "GOST yescrypt"),
    "sm3_yescrypt": (False, "cost", 5, "SM3 yescrypt"),
    "pbkdf2_sha512": (False, "iterations", 10000, "GRUB 2's PBKDF2 with SHA-512"),
}

_ROUNDS = r"(?:rounds=([0-9]{1,10})\$)?"
_PATTERNS = (
    ("des", re.compile(r"%s{13}" % _C)),
    ("bigcrypt", re.compile(r"%s{13}(?:%s{11}){1,7}" % (_C, _C))),
    ("bsdicrypt", re.compile(r"_(%s{4})%s{4}%s{11}" % (_C, _C, _C))),
    ("md5crypt", re.compile(r"\$1\$[^$:\n]{0,8}\$%s{22}" % _C)),
    ("sunmd5", re.compile(r"\$md5(?:,rounds=([0-9]{1,10}))?\$[^$:\n]{0,64}\$\$?%s{22}" % _C)),
    ("sha1crypt", re.compile(r"\$sha1\$([0-9]{1,10})\$[^$:\n]{0,64}\$%s{28}" % _C)),
    ("nthash", re.compile(r"\$3\$\$[0-9a-f]{32}")),
    ("sha256crypt", re.compile(r"\$5\$%s[^$:\n]{0,16}\$%s{43}" % (_ROUNDS, _C))),
    ("sha512crypt", re.compile(r"\$6\$%s[^$:\n]{0,16}\$%s{86}" % (_ROUNDS, _C))),
    ("sm3crypt", re.compile(r"\$sm3\$%s[^$:\n]{0,16}\$%s{43}" % (_ROUNDS, _C))),
    ("bcrypt", re.compile(r"\$2[aby]?\$([0-9]{2})\$%s{53}" % _C)),
    ("bcrypt_x", re.compile(r"\$2x\$([0-9]{2})\$%s{53}" % _C)),
    ("scrypt", re.compile(r"\$7\$(%s)%s{10}[^$:\n]{0,64}\$%s{43}" % (_C, _C, _C))),
    ("yescrypt", re.compile(r"\$y\$(%s+)\$%s{1,86}\$%s{43}" % (_C, _C, _C))),
    ("gost_yescrypt", re.compile(r"\$gy\$(%s+)\$%s{1,86}\$%s{43}" % (_C, _C, _C))),
    ("sm3_yescrypt", re.compile(r"\$sm3y\$(%s+)\$%s{1,86}\$%s{43}" % (_C, _C, _C))),
)
_GRUB = re.compile(r"grub\.pbkdf2\.sha512\.([0-9]{1,10})\.([0-9A-Fa-f]{2,1024})\.([0-9A-Fa-f]{2,1024})")
# Longer than any hash of the schemes above: not read at all.
MAX_HASH_LENGTH = 4200


class HashForm(object):
    """A hash's scheme and cost (``cost`` None where the scheme has none or the hash does not say)."""

    def __init__(self, scheme, cost):
        self.scheme = scheme
        self.cost = cost
        self.legacy, self.cost_name, self.default_cost, self.description = SCHEMES[scheme]

    @property
    def is_grub(self):
        return self.scheme == "pbkdf2_sha512"

    def __repr__(self):
        return "HashForm(%r, %r)" % (self.scheme, self.cost)


def _b64_number(text):
    """A number in crypt's little-endian base-64 (BSDi's rounds)."""
    value = 0
    for index, char in enumerate(text):
        value |= _B64.index(char) << (6 * index)
    return value


def _cost(scheme, match):
    if scheme in ("sha256crypt", "sha512crypt", "sm3crypt"):
        return int(match.group(1)) if match.group(1) else 5000
    if scheme in ("sunmd5", "sha1crypt", "bcrypt", "bcrypt_x"):
        return int(match.group(1)) if match.group(1) else None
    if scheme == "bsdicrypt":
        return _b64_number(match.group(1))
    if scheme == "scrypt":
        return _B64.index(match.group(1))
    if scheme in ("yescrypt", "gost_yescrypt", "sm3_yescrypt"):
        return YESCRYPT_PARAMS.get(match.group(1))
    return None


def identify(value):
    """The :class:`HashForm` of ``value``, or None when it is no hash of a scheme known here."""
    if not isinstance(value, str) or len(value) > MAX_HASH_LENGTH:
        return None
    grub = _GRUB.fullmatch(value)
    if grub:
        return HashForm("pbkdf2_sha512", int(grub.group(1)))
    for scheme, pattern in _PATTERNS:
        match = pattern.fullmatch(value)
        if match:
            return HashForm(scheme, _cost(scheme, match))
    return None


def grub_parts(value):
    """``(iterations, salt bytes, hash bytes)`` of a GRUB 2 PBKDF2 hash, or None."""
    match = _GRUB.fullmatch(value) if isinstance(value, str) else None
    if not match or len(match.group(2)) % 2 or len(match.group(3)) % 2:
        return None
    return int(match.group(1)), bytes.fromhex(match.group(2)), bytes.fromhex(match.group(3))
