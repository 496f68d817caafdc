# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Crypt hashes, computed on the controller.

The one place the collection turns a password into a crypt hash, on every
ansible-core: the system's libxcrypt (``libcrypt.so.1``, the library behind
``/etc/shadow``) through the collection's one ctypes binding
(``module_utils/_libxcrypt.py``, which the node uses too), with passlib only
where libxcrypt cannot be loaded.  ``ansible.builtin.password_hash`` is not used: from ansible-core
2.21 it hashes through libxcrypt with its own salt handling and raises low
rounds silently, so the same kickstart would differ from core to core.

A hash is made from a *setting* (``$6$rounds=N$SALT`` or ``$y$PARAMS$SALT``)
and the password.  The settings are built here from a scheme, a salt string
and a cost, and are the same bytes whichever backend hashes:

* ``sha512crypt``: ``$6$rounds=N$SALT`` with SALT as given (up to 16
  characters of ``[./0-9A-Za-z]``); ``rounds=`` is left out at 5,000, the
  scheme's implicit default, as passlib and anaconda write it.
* ``yescrypt``: ``$y$PARAMS$SALT``, where libxcrypt's ``crypt_gensalt_rn``
  encodes the cost (its 1 to 11 scale; 5 is libxcrypt's and the installer's
  default) and takes the salt string's bytes as the random bytes.

The boot loader's password is no crypt hash: GRUB 2 keeps
``grub.pbkdf2.sha512.ITERATIONS.SALT.HASH`` (what ``grub2-mkpasswd-pbkdf2``
prints: PBKDF2 with HMAC-SHA-512 from Python's ``hashlib``, a 64-byte salt and
a 64-byte hash, both in upper-case hexadecimal), made by :func:`grub_hash`.

An installed hash is checked by :func:`matches`: the password hashed again
with that hash's own setting (a crypt hash is its own setting; a GRUB 2 hash
gives its salt and iterations) and compared in constant time.

Salts are derived, never random, so that a second run writes the same bytes:
SHA-512 over ``SEED|HOST|ACCOUNT`` (:func:`salt_digest`), of which an account
takes the first 16 hexadecimal digits and the boot loader all 64 bytes.

Messages never hold the password, the salt or a hash.
"""

from __future__ import annotations

import hashlib
import hmac
import threading

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _libxcrypt
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._hash_schemes import grub_parts

# (low, high, default) of each scheme's cost, as libxcrypt takes it.
COSTS = {
    "sha512crypt": (1000, 999999999, 5000),
    "yescrypt": (1, 11, 5),
}
SCHEMES = tuple(sorted(COSTS))
COST_NAMES = {"sha512crypt": "rounds", "yescrypt": "cost"}
_PREFIX = {"sha512crypt": b"$6$", "yescrypt": b"$y$"}
_SALT_CHARS = frozenset("./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_SHA512_SALT_MAX = 16
_YESCRYPT_SALT_BYTES = (16, 64)     # what crypt_gensalt_rn takes for $y$


class CryptError(PwpolicyError):
    """A hash that cannot be computed: the scheme, the cost, the salt or the backend."""


class _Passlib:
    """passlib's pure-Python SHA-512 crypt, where libxcrypt is missing (it has no yescrypt)."""

    name = "passlib"

    def __init__(self, sha512_crypt):
        self._sha512 = sha512_crypt

    def gensalt(self, prefix, count, rbytes):
        return None

    def crypt(self, phrase, setting):
        parts = setting.decode("ascii").split("$")
        if parts[1] != "6":
            return None
        rounds = 5000
        if parts[2].startswith("rounds="):
            rounds = int(parts[2][len("rounds="):])
            salt = parts[3]
        else:
            salt = parts[2]
        return self._sha512.using(salt=salt, rounds=rounds).hash(phrase).encode("ascii")


_BACKEND = None
_BACKEND_LOCK = threading.Lock()


def backend():
    """The hashing backend: libxcrypt when it loads, else passlib; a CryptError naming both when neither does."""
    global _BACKEND
    with _BACKEND_LOCK:
        if _BACKEND is None:
            _BACKEND = _load_backend()
        return _BACKEND


def _load_backend():
    found = _libxcrypt.load()
    if found is not None:
        return found
    try:
        from passlib.hash import sha512_crypt
    except ImportError:
        raise CryptError(
            "cannot hash passwords on the controller: libxcrypt (libcrypt.so.1, package libcrypt1 on Debian, "
            "libxcrypt on Fedora) could not be loaded and passlib is not installed for this Python. Install "
            "either one on the controller.")
    return _Passlib(sha512_crypt)


def check_cost(scheme, cost):
    """``cost`` as an int within ``scheme``'s range (its default when None); a CryptError naming the range if not."""
    if scheme not in COSTS:
        raise CryptError("unknown hashing scheme %r: use one of %s" % (scheme, ", ".join(SCHEMES)))
    low, high, default = COSTS[scheme]
    if cost is None or cost == "":
        return default
    if isinstance(cost, bool):
        cost = None
    else:
        try:
            cost = int(cost)
        except (TypeError, ValueError):
            cost = None
    if cost is None or not low <= cost <= high:
        raise CryptError("%s %s must be a whole number from %d to %d" % (scheme, COST_NAMES[scheme], low, high))
    return cost


def setting(scheme, salt, cost=None):
    """The crypt setting (str) for ``scheme``, the salt string ``salt`` and ``cost``."""
    cost = check_cost(scheme, cost)
    if not isinstance(salt, str) or not salt or not set(salt) <= _SALT_CHARS:
        raise CryptError("a %s salt must be a non-empty string of the characters ./0-9A-Za-z" % scheme)
    if scheme == "sha512crypt":
        if len(salt) > _SHA512_SALT_MAX:
            raise CryptError("a sha512crypt salt has at most %d characters" % _SHA512_SALT_MAX)
        if cost == COSTS[scheme][2]:
            return "$6$%s" % salt
        return "$6$rounds=%d$%s" % (cost, salt)
    low, high = _YESCRYPT_SALT_BYTES
    if not low <= len(salt) <= high:
        raise CryptError("a yescrypt salt string has %d to %d characters" % (low, high))
    impl = backend()
    made = impl.gensalt(_PREFIX[scheme], cost, salt.encode("ascii"))
    if made is None:
        raise CryptError(
            "yescrypt needs libxcrypt (libcrypt.so.1) on the controller; %s cannot make it. Install libxcrypt "
            "(libcrypt1 on Debian, libxcrypt on Fedora) or choose sha512crypt." % impl.name)
    return made.decode("ascii")


def crypt(secret, setting_):
    """The crypt hash (str) of ``secret`` for the full setting or hash ``setting_``; a CryptError where it cannot be."""
    if not isinstance(secret, str):
        raise CryptError("a password to hash must be a string")
    phrase = secret.encode("utf-8", "surrogatepass")
    if b"\0" in phrase:
        raise CryptError("a password to hash cannot hold a NUL character")
    impl = backend()
    result = impl.crypt(phrase, setting_.encode("ascii"))
    if result is None:
        raise CryptError("%s could not hash with this setting (scheme or cost not supported here)" % impl.name)
    return result.decode("ascii")


def salt_digest(seed, host_id, account):
    """SHA-512 over ``SEED|HOST|ACCOUNT`` (64 bytes): what every derived salt is taken from."""
    text = "%s|%s|%s" % (seed, host_id, account)
    return hashlib.sha512(text.encode("utf-8", "surrogatepass")).digest()


def account_salt(seed, host_id, account):
    """The documented per-host salt: the first 16 hex digits of SHA-512 over ``SEED|HOST|ACCOUNT``.

    ``account`` is ``root`` or ``user:NAME``.  Equal passwords on different
    machines, or of different accounts, get different hashes; the same inputs
    always the same hash, so a second run changes nothing.
    """
    return salt_digest(seed, host_id, account).hex()[:_SHA512_SALT_MAX]


# GRUB 2's PBKDF2: (low, high, default) iterations; grub2-mkpasswd-pbkdf2's default is 10,000.
GRUB_ITERATIONS = (1000, 10000000, 10000)
GRUB_SALT_BYTES = 64
GRUB_HASH_BYTES = 64
# The account a boot-loader salt is derived for (SEED|HOST|bootloader).
BOOTLOADER_ACCOUNT = "bootloader"


def check_iterations(iterations):
    """``iterations`` of GRUB 2's PBKDF2 as an int in range (the default when None or empty); a CryptError naming
    the range if not."""
    low, high, default = GRUB_ITERATIONS
    if iterations is None or iterations == "":
        return default
    number = None
    if not isinstance(iterations, bool):
        try:
            number = int(iterations)
        except (TypeError, ValueError):
            number = None
    if number is None or not low <= number <= high:
        raise CryptError("GRUB 2 PBKDF2 iterations must be a whole number from %d to %d" % (low, high))
    return number


def bootloader_salt(seed, host_id):
    """The boot loader's per-host salt: all 64 bytes of SHA-512 over ``SEED|HOST|bootloader``."""
    return salt_digest(seed, host_id, BOOTLOADER_ACCOUNT)


def grub_hash(secret, salt, iterations=None):
    """``grub.pbkdf2.sha512.ITERATIONS.SALT.HASH`` of ``secret`` with ``salt`` (bytes), as grub2-mkpasswd-pbkdf2
    writes it: PBKDF2-HMAC-SHA-512, 64 bytes of hash, salt and hash in upper-case hexadecimal."""
    iterations = check_iterations(iterations)
    if not isinstance(secret, str):
        raise CryptError("a password to hash must be a string")
    if not isinstance(salt, bytes) or len(salt) != GRUB_SALT_BYTES:
        raise CryptError("a GRUB 2 salt has %d bytes" % GRUB_SALT_BYTES)
    phrase = secret.encode("utf-8", "surrogatepass")
    if b"\0" in phrase:
        raise CryptError("a password to hash cannot hold a NUL character")
    digest = hashlib.pbkdf2_hmac("sha512", phrase, salt, iterations, GRUB_HASH_BYTES)
    return "grub.pbkdf2.sha512.%d.%s.%s" % (iterations, salt.hex().upper(), digest.hex().upper())


def hash_secret(secret, scheme, salt, cost=None):
    """``secret`` hashed with ``scheme`` at ``cost`` with the salt string ``salt``: the same bytes on every core."""
    return crypt(secret, setting(scheme, salt, cost))


def matches(secret, hashed):
    """Whether ``secret`` is the password of the hash ``hashed`` (a crypt hash, or GRUB 2's
    ``grub.pbkdf2.sha512.ITERATIONS.SALT.HASH``): hashed again with that hash's own setting, salt and cost, and
    compared in constant time.  A CryptError where it cannot be computed here (a scheme the backend does not
    know); the message never holds the password or the hash."""
    if not isinstance(secret, str):
        raise CryptError("a password to compare must be a string")
    parts = grub_parts(hashed)
    if parts is not None:
        iterations, salt, digest = parts
        phrase = secret.encode("utf-8", "surrogatepass")
        return hmac.compare_digest(hashlib.pbkdf2_hmac("sha512", phrase, salt, iterations, len(digest)), digest)
    if not isinstance(hashed, str) or not hashed.isascii():
        raise CryptError("the hash is not a crypt hash (not ASCII text)")
    return hmac.compare_digest(crypt(secret, hashed).encode("ascii"), hashed.encode("ascii"))
