# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""rules='installer' against a plain re-statement of what the installer's screens do, over a grid.

The reference below is written step by step as the screens decide (one raw
libpwquality check at the policy's minlen, as they make it), independently of
how _verdict and _installer_rules sort failures; it only gives the verdict.
"""

import itertools

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _pwquality
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._pw_reasons import TYPABLE
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._pwq_settings import normalize_settings
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.plugin_utils.pwq_helpers import STRONG, check, policy

PASSWORDS = [
    "", "ab", "Kx9#m", "Kx9#mQ2", "Kx9#mQ2!", "password", "sunshine99", "Xk9#mQ2!zL", "zyxwvuts", "a1a1a1a1a1",
    "Über-Kx9", "Überweisung-Kx9#mQ2!zLp", "äöüß", "Xk9#mQ2!\tzLp7", STRONG, "Correct-Horse-Battery-9",
    "Xk9#mm#9kX", "Summer2024",
]
GRID = list(itertools.product(["root", "user", "luks"], [0, 4, 6, 8, 12], [0, 1, 50], [True, False], [True, False]))


def libpwquality_says(backend, password, minlen, user):
    """(quality, error): the screens' one check at the policy's minlen; quality 0 on an error."""
    rc, _aux = _pwquality.check(backend, normalize_settings(None), minlen, password, user)
    return (rc, False) if rc >= 0 else (0, True)


def text_mode(backend, password, pol, user):
    """root and user: the text mode's password prompt."""
    if not password:
        return "accepted"  # no password
    quality, _error = libpwquality_says(backend, password, pol.minlen, user)
    if len(password) < pol.minlen:
        return "rejected"  # too short is refused outright
    if quality < pol.minquality:
        return "rejected" if pol.strict else "accepted_weak"  # strict refuses, otherwise "use it anyway?"
    return "accepted"


def luks_dialog(backend, password, pol, fips):
    """luks: the graphical passphrase dialog and its Save button."""
    if not password:
        return "rejected"
    _quality, error = libpwquality_says(backend, password, pol.minlen, None)
    failed = {
        "validity": error or len(password) < pol.minlen,
        "fips": fips and len(password) < 8,
        "ascii": any(char not in TYPABLE for char in password),
    }
    failing = [name for name, did in failed.items() if did]
    if not failing or failing == ["ascii"]:
        return "accepted"
    if failing == ["validity"]:
        return "rejected" if pol.strict else "accepted_weak"
    return "rejected"


@pytest.mark.parametrize("name,minlen,minquality,strict,emptyok", GRID)
def test_installer_rules_match_the_screens(backend, name, minlen, minquality, strict, emptyok):
    pol = policy(name=name, minlen=minlen, minquality=minquality, strict=strict, emptyok=emptyok)
    account = {"root": "root", "user": "bob", "luks": None}[name]
    for password, fips in itertools.product(PASSWORDS, [False, True]):
        if name == "luks":
            expected = luks_dialog(backend, password, pol, fips)
        else:
            expected = text_mode(backend, password, pol, account)
        report = check(backend, password, pol, user="bob", rules="installer", fips=fips)
        assert report["verdict"] == expected, "password #%d, fips=%s" % (PASSWORDS.index(password), fips)
