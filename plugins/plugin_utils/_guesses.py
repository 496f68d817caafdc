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
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime
import os
import threading

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError

# The characters of a secret that are estimated.  zxcvbn's time grows with the
# square of the length and with the letters a string of symbols can stand for
# (about 2 s of one core for 72 such characters, 3.5 s for 100 on the machine
# that measured it); the port refuses more than its ``max_length`` (72 by
# default) and Dropbox's README advises estimating only the first part of a long
# password.  Source: https://github.com/dwolfhub/zxcvbn-python (README, "max_length").
# Guessing a longer secret is never easier than guessing its first 100 characters.
ZXCVBN_MAX_LENGTH = 100

# Words an attacker tries first for an installer's secrets, besides the
# account and host names: the distributions, the installer and the product.
PRODUCT_WORDS = ("fedora", "rhel", "redhat", "centos", "linux", "anaconda", "kickstart", "installer")

INSTALL_HINT = ("guess estimates need the Python package zxcvbn on the controller (the Python that runs "
                "Ansible): pip install zxcvbn==4.5.0, or pip install -r requirements.txt from the collection; "
                "leave estimate unset to check without estimates")

_LOCK = threading.Lock()


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


def _scoring():
    """The port's scoring module (its reference year)."""
    try:
        from zxcvbn import scoring  # pylint: disable=import-outside-toplevel
    except ImportError:
        raise EstimatorMissing(INSTALL_HINT)
    return scoring


def reference_year():
    """The year zxcvbn counts recent years from: the current one, as the reference takes it."""
    return datetime.date.today().year


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


def estimate(password, inputs=()):
    """``{guesses_log10, score}`` of ``password`` (its first ZXCVBN_MAX_LENGTH characters), with ``inputs``.

    ``guesses_log10`` is rounded to two decimals; an empty password is 0.0 and score 0.
    """
    if not password:
        return {"guesses_log10": 0.0, "score": 0}
    estimator = _zxcvbn()
    scoring = _scoring()
    password = password[:ZXCVBN_MAX_LENGTH]
    words = text_inputs(inputs)
    with _LOCK:
        scoring.REFERENCE_YEAR = reference_year()
        # Only the numbers are kept: the result dict also holds the password and its matched pieces.
        result = estimator(password, user_inputs=words, max_length=ZXCVBN_MAX_LENGTH)
        found = (round(float(result["guesses_log10"]), 2), int(result["score"]))
    return {"guesses_log10": found[0], "score": found[1]}


def guesses_log10(password, inputs=()):
    """log10 of the guesses zxcvbn estimates for ``password`` (its first ZXCVBN_MAX_LENGTH characters).

    Returns a float rounded to two decimals; 0.0 for an empty password.
    """
    return estimate(password, inputs)["guesses_log10"]
