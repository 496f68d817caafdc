# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""How many guesses an attacker needs for one password, estimated with zxcvbn.

zxcvbn (PyPI ``zxcvbn``, the Python port of Dropbox's estimator) is imported
only when an estimate is asked for: nothing else in the collection needs it,
and a run that asks for no estimate never pays for the import.

Only numbers leave this module: ``guesses_log10``, rounded, and zxcvbn's
``score`` (0 to 4).  zxcvbn's result also holds the password itself and the
matched pieces of it (``sequence``, each with its ``token``), its feedback,
and timings; none of that is read, returned or logged.

Faithful to the reference.  The port is pinned (requirements.txt) and follows
Dropbox's zxcvbn 4.4.2 but for one thing: its ``scoring.REFERENCE_YEAR`` is
frozen at 2017, where the reference takes the current year (dates and years
near it are the ones tried first).  Every estimate here sets it to the current
year first; the unit tests compare the estimates with the reference's.

Bounded, one at a time.  Only the first :data:`ZXCVBN_MAX_LENGTH` characters
are estimated (zxcvbn's run time grows quickly with the length of its input).
The port keeps the user inputs of a call in a module-level dictionary and
the reference year in a module-level variable, so two calls from two threads
would see each other's: every call holds :data:`_LOCK`.

Once per secret.  A fleet shares secrets (one vaulted root password for
hundreds of hosts), so each process remembers the estimates it made (at most
:data:`ESTIMATES_KEPT`, the least recently used forgotten first), keyed by an
HMAC-SHA256 of the secret and of the inputs that can change its estimate,
under a key drawn from ``os.urandom`` when the module is imported and held in
memory only.  Neither a secret nor anything that could be compared with a
secret's hash outside this process is kept.  :func:`keyed_digest` is that
same keyed hash, for comparing secrets with one another in memory.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime
import hashlib
import hmac
import os
import struct
import threading
from collections import OrderedDict

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError

# The characters of a secret that are estimated.  zxcvbn's time grows with the
# square of the length and with the letters a string of symbols can stand for
# (about 2 s of one core for 72 such characters, 3.5 s for 100 on the machine
# that measured it); the port refuses more than its ``max_length`` (72 by
# default) and Dropbox's README advises estimating only the first part of a long
# password.  Source: https://github.com/dwolfhub/zxcvbn-python (README, "max_length").
# Guessing a longer secret is never easier than guessing its first 100 characters.
ZXCVBN_MAX_LENGTH = 100

# How many estimates one process remembers (each a 32-byte keyed hash and two numbers).
ESTIMATES_KEPT = 10000

# Words an attacker tries first for an installer's secrets, besides the
# account and host names: the distributions, the installer and the product.
PRODUCT_WORDS = ("fedora", "rhel", "redhat", "centos", "linux", "anaconda", "kickstart", "installer")

INSTALL_HINT = ("guess estimates need the Python package zxcvbn on the controller (the Python that runs "
                "Ansible): pip install zxcvbn==4.5.0, or pip install -r requirements.txt from the collection; "
                "leave estimate unset to check without estimates")

_KEY = os.urandom(32)
_LOCK = threading.Lock()
# keyed hash -> (guesses_log10, score), and the estimator those came from.
_ESTIMATES = OrderedDict()
_MADE_BY = [None]


def _after_fork():
    """A forked process gets a lock of its own (one held by another thread at the fork would never be released)."""
    global _LOCK  # pylint: disable=global-statement
    _LOCK = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


class EstimatorMissing(PwpolicyError):
    """zxcvbn is not installed on the controller: the same for every host of a run."""


def _zxcvbn():
    """zxcvbn's entry point, or a clear error saying how to install it."""
    try:
        from zxcvbn import zxcvbn  # pylint: disable=import-outside-toplevel
    except ImportError:
        raise EstimatorMissing(INSTALL_HINT)
    return zxcvbn


def _internals():
    """``(scoring, l33t_table)``: the port's scoring module (its reference year) and its l33t table (None if not
    known, which keys every estimate by all its inputs)."""
    try:
        from zxcvbn import matching, scoring  # pylint: disable=import-outside-toplevel
    except ImportError:
        raise EstimatorMissing(INSTALL_HINT)
    return scoring, getattr(matching, "L33T_TABLE", None)


def reference_year():
    """The year zxcvbn counts recent years from: the current one, as the reference takes it."""
    return datetime.date.today().year


def keyed_digest(*texts):
    """HMAC-SHA256 of ``texts`` under this process's random key: equal for equal texts, and nothing else."""
    message = bytearray()
    for text in texts:
        data = text.encode("utf-8", "surrogatepass")
        message += struct.pack(">Q", len(data)) + data
    return hmac.new(_KEY, bytes(message), hashlib.sha256).digest()


def user_inputs(account=None, hostname=None, product=None):
    """The words zxcvbn penalises: the account name, the host name (and its first label), the product words."""
    words = list(PRODUCT_WORDS)
    for word in (account, product):
        if word:
            words.append(str(word))
    if hostname:
        hostname = str(hostname)
        words.append(hostname)
        words.extend(part for part in hostname.split(".") if part)
    return words


def text_inputs(inputs):
    """The strings of ``inputs``, in their order: the port would make ``None`` the word "none", a number its digits."""
    words = []
    for word in inputs or ():
        if isinstance(word, bytes):
            try:
                word = word.decode("utf-8")
            except UnicodeDecodeError:
                continue
        if isinstance(word, str) and word:
            words.append(str(word))
    return words


def _l33t_in(word, text, table):
    """Whether ``word`` could be read in ``text`` with some characters read as the letters they stand for."""
    size = len(word)
    for start in range(len(text) - size + 1):
        if all(char == letter or char in table.get(letter, ()) for char, letter in zip(text[start:start + size], word)):
            return True
    return False


def matchable_inputs(password, words, table):
    """``[(word, rank)]``: the user inputs zxcvbn could match in ``password``, each with the rank it gets.

    zxcvbn lowers the inputs and ranks them by their place in the list (a word given twice keeps its last
    place); an input changes an estimate only where the password holds it, lowered, forwards, backwards or with
    l33t substitutions.  Two calls with the same password and the same matchable inputs give the same estimate,
    whatever else their lists hold (the host name of another host that shares the secret).  Where that cannot be
    worked out simply (a password beyond ASCII, whose lower case may change its length, or an unknown version of
    the port), every input counts.
    """
    ranked = {}
    for rank, word in enumerate((word.lower() for word in words), 1):
        ranked[word] = rank
    if table is None or not password.isascii():
        return sorted(ranked.items())
    lower = password.lower()
    backwards = lower[::-1]
    return sorted((word, rank) for word, rank in ranked.items()
                  if word in lower or word in backwards or _l33t_in(word, lower, table))


def estimate(password, inputs=()):
    """``{guesses_log10, score}`` of ``password`` (its first ZXCVBN_MAX_LENGTH characters), with ``inputs``.

    ``guesses_log10`` is rounded to two decimals; an empty password is 0.0 and score 0.  Each distinct
    (password, matchable inputs, year) is estimated once per process.
    """
    if not password:
        return {"guesses_log10": 0.0, "score": 0}
    estimator = _zxcvbn()
    scoring, table = _internals()
    password = password[:ZXCVBN_MAX_LENGTH]
    words = text_inputs(inputs)
    year = reference_year()
    parts = [str(year), password]
    for word, rank in matchable_inputs(password, words, table):
        parts.extend((word, str(rank)))
    key = keyed_digest(*parts)
    with _LOCK:
        if _MADE_BY[0] is not estimator:  # what another estimator said is not this one's
            _ESTIMATES.clear()
            _MADE_BY[0] = estimator
        found = _ESTIMATES.get(key)
        if found is None:
            scoring.REFERENCE_YEAR = year
            # Only the numbers are kept: the result dict also holds the password and its matched pieces.
            result = estimator(password, user_inputs=words, max_length=ZXCVBN_MAX_LENGTH)
            found = (round(float(result["guesses_log10"]), 2), int(result["score"]))
            _ESTIMATES[key] = found
            if len(_ESTIMATES) > ESTIMATES_KEPT:
                _ESTIMATES.popitem(last=False)
        else:
            _ESTIMATES.move_to_end(key)
    return {"guesses_log10": found[0], "score": found[1]}


def guesses_log10(password, inputs=()):
    """log10 of the guesses zxcvbn estimates for ``password`` (its first ZXCVBN_MAX_LENGTH characters).

    Returns a float rounded to two decimals; 0.0 for an empty password.
    """
    return estimate(password, inputs)["guesses_log10"]
