# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""How many guesses an attacker needs for one password, estimated with zxcvbn.

zxcvbn (PyPI ``zxcvbn``, the Python port of Dropbox's estimator) is imported
only when an estimate is asked for: nothing else in the collection needs it,
and a run that asks for no estimate never pays for the import.

Only one number leaves this module: ``guesses_log10``, rounded.  zxcvbn's
result also holds the password itself and the matched pieces of it
(``sequence``, each with its ``token``), its feedback, and timings; none of
that is read, returned or logged.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError

# zxcvbn's run time grows quickly with the length of its input.  The Python
# port refuses input longer than its ``max_length`` (72 by default, added
# against denial of service; its README warns against raising it), and
# Dropbox's README advises passing only the first part of a long password.
# Source: https://github.com/dwolfhub/zxcvbn-python (README, "max_length").
# The estimate of the first 72 characters is a lower bound for the whole
# password: one more character never makes it easier to guess.
ZXCVBN_MAX_LENGTH = 72

# Words an attacker tries first for an installer's secrets, besides the
# account and host names: the distributions, the installer and the product.
PRODUCT_WORDS = ("fedora", "rhel", "redhat", "centos", "linux", "anaconda", "kickstart", "installer")

INSTALL_HINT = ("guess estimates need the Python package zxcvbn on the controller (the Python that runs "
                "Ansible): pip install zxcvbn, or pip install -r requirements.txt from the collection; "
                "leave estimate unset to check without estimates")


class EstimatorMissing(PwpolicyError):
    """zxcvbn is not installed on the controller: the same for every host of a run."""


def _zxcvbn():
    """zxcvbn's entry point, or a clear error saying how to install it."""
    try:
        from zxcvbn import zxcvbn  # pylint: disable=import-outside-toplevel
    except ImportError:
        raise EstimatorMissing(INSTALL_HINT)
    return zxcvbn


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


def guesses_log10(password, inputs=()):
    """log10 of the guesses zxcvbn estimates for ``password`` (its first ZXCVBN_MAX_LENGTH characters).

    Returns a float rounded to two decimals; 0.0 for an empty password.
    """
    if not password:
        return 0.0
    estimate = _zxcvbn()
    # Only the number is kept: the result dict also holds the password and its matched pieces.
    result = estimate(password[:ZXCVBN_MAX_LENGTH], user_inputs=list(inputs), max_length=ZXCVBN_MAX_LENGTH)
    return round(float(result["guesses_log10"]), 2)
