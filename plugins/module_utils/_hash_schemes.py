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

yescrypt's cost is libxcrypt's 1 to 11 scale read from the memory the
parameters ask for: :func:`yescrypt_params` decodes the field after ``$y$``
as libxcrypt reads it (the flavor, then log2 N, then r, then optionally a bit
set saying which of p, t, g and log2 NROM follow, each a number in yescrypt's
variable-length base-64), and
a hash whose ``128 * N * r`` bytes are ``2 ** (cost - 1)`` MiB has that cost,
whether or not libxcrypt's ``crypt_gensalt`` would write its parameters (N=4,
r=1 is cost 0: less than cost 1's 1 MiB).  scrypt's ``$7$`` parameters (log2
N, then r and p in 30-bit fixed fields) are decoded the same way, so that the
known-weak check can bound the memory and time a hash asks for.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import collections
import re

_B64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_C = "[./0-9A-Za-z]"

# libxcrypt's yescrypt parameters (the field after "$y$") for its cost scale 1 to 11, as
# crypt_gensalt_rn("$y$", cost) writes them; tests/unit checks the table against libxcrypt and yescrypt_cost.
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
    ("scrypt", re.compile(r"\$7\$(%s)(%s{5})(%s{5})[^$:\n]{0,64}\$%s{43}" % (_C, _C, _C, _C))),
    ("yescrypt", re.compile(r"\$y\$(%s+)\$%s{1,86}\$%s{43}" % (_C, _C, _C))),
    ("gost_yescrypt", re.compile(r"\$gy\$(%s+)\$%s{1,86}\$%s{43}" % (_C, _C, _C))),
    ("sm3_yescrypt", re.compile(r"\$sm3y\$(%s+)\$%s{1,86}\$%s{43}" % (_C, _C, _C))),
)
_GRUB = re.compile(r"grub\.pbkdf2\.sha512\.([0-9]{1,10})\.([0-9A-Fa-f]{2,1024})\.([0-9A-Fa-f]{2,1024})")
# Longer than any hash of the schemes above: not read at all.
MAX_HASH_LENGTH = 4200


# The parameters of a yescrypt or scrypt hash: the flavor (0 classic scrypt, 1 its WORM variant, 2 and up
# yescrypt's read-write mode and its flags), N (a power of 2), r, p, t, g (hash upgrades) and NROM (a ROM's size).
MemoryParams = collections.namedtuple("MemoryParams", "flavor n r p t g nrom")
# The first flavor that is yescrypt's read-write mode (YESCRYPT_RW).
YESCRYPT_RW_FLAVOR = 2


class HashForm(object):
    """A hash's scheme and cost (``cost`` None where the scheme has none or the hash does not say).

    ``params`` are the :data:`MemoryParams` of a yescrypt or scrypt hash (None
    for the other schemes, and where the parameters cannot be read).
    """

    def __init__(self, scheme, cost, params=None):
        self.scheme = scheme
        self.cost = cost
        self.params = params
        self.legacy, self.cost_name, self.default_cost, self.description = SCHEMES[scheme]

    @property
    def is_grub(self):
        return self.scheme == "pbkdf2_sha512"

    def __repr__(self):
        return "HashForm(%r, %r)" % (self.scheme, self.cost)


def _yescrypt_number(text, pos, minimum):
    """One number of yescrypt's variable-length base-64 at ``text[pos]``: ``(value, next position)``, or None.

    The first character says how many follow: 0 to 47 is a number alone, and
    each higher range (48 to 55, 56 to 59, 60 and 61, 62, 63) adds one more
    character of 6 bits, big end first, above the values the shorter forms
    cover.  ``minimum`` is added (the smallest value the field can have).
    """
    if pos >= len(text) or text[pos] not in _B64:
        return None
    digit = _B64.index(text[pos])
    start, end, extra, value = 0, 47, 0, minimum
    while digit > end:
        value += (end + 1 - start) << (6 * extra)
        start, end = end + 1, end + 1 + (62 - end) // 2
        extra += 1
    value += (digit - start) << (6 * extra)
    pos += 1
    for shift in range(extra - 1, -1, -1):
        if pos >= len(text) or text[pos] not in _B64:
            return None
        value += _B64.index(text[pos]) << (6 * shift)
        pos += 1
    return value, pos


def yescrypt_params(field):
    """The :data:`MemoryParams` of yescrypt's parameter field (``j9T`` of ``$y$j9T$SALT$HASH``), or None.

    None where the field is not in yescrypt's encoding: a flavor libxcrypt
    does not know, log2 N above 63, or characters left over.
    """
    numbers, pos = [], 0
    for minimum in (0, 1, 1):  # flavor, log2 N, r
        read = _yescrypt_number(field, pos, minimum)
        if read is None:
            return None
        numbers.append(read[0])
        pos = read[1]
    flavor, n_log2, r = numbers
    # libxcrypt knows the classic and WORM flavors and the read-write flavors up to every flag it has (0x3fc >> 2).
    if flavor > YESCRYPT_RW_FLAVOR + (0x3fc >> 2) or n_log2 > 63:
        return None
    p, t, g, nrom = 1, 0, 0, 0
    if pos < len(field):
        read = _yescrypt_number(field, pos, 1)
        if read is None:
            return None
        have, pos = read
        found = {}
        for bit, name, minimum in ((1, "p", 2), (2, "t", 1), (4, "g", 1), (8, "nrom", 1)):
            if have & bit:
                read = _yescrypt_number(field, pos, minimum)
                if read is None:
                    return None
                found[name], pos = read
        if found.get("nrom", 0) > 63:
            return None
        p, t, g = found.get("p", 1), found.get("t", 0), found.get("g", 0)
        nrom = 1 << found["nrom"] if "nrom" in found else 0
    if pos != len(field):
        return None
    return MemoryParams(flavor, 1 << n_log2, r, p, t, g, nrom)


def _fixed_number(text):
    """A number of crypt's little-endian base-64 (BSDi's rounds, scrypt's r and p)."""
    value = 0
    for index, char in enumerate(text):
        value |= _B64.index(char) << (6 * index)
    return value


def yescrypt_cost(params):
    """libxcrypt's yescrypt cost of ``params``: the cost whose ``2 ** (cost - 1)`` MiB is ``128 * N * r`` bytes
    (rounded down; 0 below cost 1's 1 MiB)."""
    return max(0, (params.n * params.r).bit_length() - 1 - 12)


def _params(scheme, match):
    if scheme == "scrypt":
        n_log2 = _B64.index(match.group(1))
        return MemoryParams(0, 1 << n_log2, _fixed_number(match.group(2)), _fixed_number(match.group(3)), 0, 0, 0)
    if scheme in ("yescrypt", "gost_yescrypt", "sm3_yescrypt"):
        return yescrypt_params(match.group(1))
    return None


def _cost(scheme, match, params):
    if scheme in ("sha256crypt", "sha512crypt", "sm3crypt"):
        return int(match.group(1)) if match.group(1) else 5000
    if scheme in ("sunmd5", "sha1crypt", "bcrypt", "bcrypt_x"):
        return int(match.group(1)) if match.group(1) else None
    if scheme == "bsdicrypt":
        return _fixed_number(match.group(1))
    if scheme == "scrypt":
        return _B64.index(match.group(1))
    if scheme in ("yescrypt", "gost_yescrypt", "sm3_yescrypt") and params is not None:
        return yescrypt_cost(params)
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
            params = _params(scheme, match)
            return HashForm(scheme, _cost(scheme, match, params), params)
    return None


def grub_parts(value):
    """``(iterations, salt bytes, hash bytes)`` of a GRUB 2 PBKDF2 hash, or None."""
    match = _GRUB.fullmatch(value) if isinstance(value, str) else None
    if not match or len(match.group(2)) % 2 or len(match.group(3)) % 2:
        return None
    return int(match.group(1)), bytes.fromhex(match.group(2)), bytes.fromhex(match.group(3))
