# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The two sets of rules side by side: rules='collection' (the default) and rules='installer', and fips.

installer: root and user as the text mode's password prompt takes them, luks as
the graphical passphrase dialog does.
"""

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _verdict as verdict
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._installer_rules import ASCII_REASON
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._pw_reasons import KEYBOARD_HINT
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.plugin_utils.pwq_helpers import STRONG, check, policy

SHORT = "Xk9#mQ2!zL"            # 10 characters, libpwquality has nothing else against it
DICTIONARY = "password"         # libpwquality: based on a dictionary word
NON_ASCII = "Überweisung-Kx9#mQ2!zLp"
NON_ASCII_SHORT = "Über-Kx9"    # 8 characters
SEVEN = "Xk9#mQ2"


def pol(name="root", minlen=8, minquality=1, strict=False, emptyok=False):
    return policy(name=name, minlen=minlen, minquality=minquality, strict=strict, emptyok=emptyok)


# (password, policy, fips, collection verdict, installer verdict)
TABLE = [
    # Accepted under both.
    (STRONG, pol("root", 12, 1, True), False, "accepted", "accepted"),
    (STRONG, pol("user", 12, 1, False), False, "accepted", "accepted"),
    (STRONG, pol("luks", 12, 1, True), False, "accepted", "accepted"),
    (NON_ASCII, pol("root", 8, 1, True), False, "accepted", "accepted"),
    (NON_ASCII, pol("luks", 8, 1, True), False, "accepted", "accepted"),  # the ASCII check alone only warns
    # Too short in characters: text mode always refuses it; the LUKS dialog lets a non-strict policy through.
    (SHORT, pol("root", 12, 1, False), False, "accepted_weak", "rejected"),
    (SHORT, pol("user", 12, 1, False), False, "accepted_weak", "rejected"),
    (SHORT, pol("root", 12, 1, True), False, "rejected", "rejected"),
    (SHORT, pol("luks", 12, 1, False), False, "accepted_weak", "accepted_weak"),
    (SHORT, pol("luks", 12, 1, True), False, "rejected", "rejected"),
    # libpwquality rejects it: a failure for the collection; for text mode only when minquality is above 0.
    (DICTIONARY, pol("root", 8, 0, False), False, "accepted_weak", "accepted"),
    (DICTIONARY, pol("root", 8, 0, True), False, "rejected", "accepted"),
    (DICTIONARY, pol("user", 8, 1, False), False, "accepted_weak", "accepted_weak"),
    (DICTIONARY, pol("user", 8, 1, True), False, "rejected", "rejected"),
    (DICTIONARY, pol("luks", 8, 0, False), False, "accepted_weak", "accepted_weak"),
    (DICTIONARY, pol("luks", 8, 0, True), False, "rejected", "rejected"),
    # Below minquality (STRONG scores 43 at minlen 18): the LUKS dialog never looks at minquality.
    (STRONG, pol("root", 18, 61, False), False, "accepted_weak", "accepted_weak"),
    (STRONG, pol("root", 18, 61, True), False, "rejected", "rejected"),
    (STRONG, pol("luks", 18, 61, True), False, "rejected", "accepted"),
    # Empty: text mode takes it as "no password"; the LUKS dialog never takes it.
    ("", pol("root", 8, 1, True, emptyok=False), False, "rejected", "accepted"),
    ("", pol("user", 8, 1, False, emptyok=False), False, "rejected", "accepted"),
    ("", pol("root", 8, 1, False, emptyok=True), False, "accepted", "accepted"),
    ("", pol("luks", 8, 1, False, emptyok=True), False, "accepted", "rejected"),
    ("", pol("luks", 8, 1, False, emptyok=False), False, "rejected", "rejected"),
    # The LUKS dialog: a failed check and non-ASCII characters together cannot be saved, strict or not.
    (NON_ASCII_SHORT, pol("luks", 12, 1, False), False, "accepted_weak", "rejected"),
    (NON_ASCII_SHORT, pol("root", 12, 1, False), False, "accepted_weak", "rejected"),
    # FIPS: a LUKS passphrase under 8 characters is refused under both rules, strict or not.
    (SEVEN, pol("luks", 6, 0, False), True, "rejected", "rejected"),
    (SEVEN, pol("luks", 6, 0, False), False, "accepted", "accepted"),
    (SHORT, pol("luks", 6, 0, False), True, "accepted", "accepted"),     # 10 characters are enough
    (SEVEN, pol("root", 6, 0, False), True, "accepted", "accepted"),     # FIPS is about LUKS only
    ("Xk9#m", pol("luks", 4, 0, False), True, "rejected", "rejected"),   # FIPS and libpwquality's 6
]


@pytest.mark.parametrize("rules,column", [("collection", 3), ("installer", 4)])
@pytest.mark.parametrize("row", TABLE, ids=lambda row: "%s-%s-minlen%d-q%d-%s%s" % (
    row[1].name, "empty" if not row[0] else len(row[0]), row[1].minlen, row[1].minquality,
    "strict" if row[1].strict else "notstrict", "-fips" if row[2] else ""))
def test_rules_table(backend, row, rules, column):
    password, pol_, fips = row[0], row[1], row[2]
    report = check(backend, password, pol_, user="bob", rules=rules, fips=fips)
    assert report["verdict"] == row[column]
    assert report["ok"] is (row[column] != "rejected")
    # A rejected or weak password always says why; an accepted one never lists a reason.
    assert bool(report["reasons"]) is (row[column] != "accepted")


def test_collection_is_the_default(backend):
    assert check(backend, SHORT, pol("root", 12)) == check(backend, SHORT, pol("root", 12), rules="collection")


def test_installer_text_mode_reports_every_reason_of_a_short_password(backend):
    report = check(backend, "sunshine99", pol("root", 15, 1, False), rules="installer")
    assert report["verdict"] == "rejected"
    assert report["reasons"] == ["shorter than 15 characters (has 10)", "is based on a dictionary word"]
    # With minquality 0 text mode takes what libpwquality rejects: only the length is a reason.
    report = check(backend, "sunshine99", pol("root", 15, 0, False), rules="installer")
    assert report["reasons"] == ["shorter than 15 characters (has 10)"]


def test_installer_text_mode_minquality_zero_takes_what_libpwquality_rejects(backend):
    report = check(backend, DICTIONARY, pol("root", 8, 0, True), rules="installer")
    assert (report["verdict"], report["reasons"], report["strength"], report["score"]) == \
        ("accepted", [], "weak", 0)


def test_installer_empty_means_unset_for_text_mode_and_is_refused_by_the_luks_dialog(backend):
    report = check(backend, "", pol("root", 8, 1, True), rules="installer")
    assert (report["verdict"], report["strength"], report["reasons"]) == ("accepted", "empty", [])
    report = check(backend, "", pol("luks", 8, 1, False, emptyok=True), rules="installer")
    assert report["reasons"] == ["is empty, and the installer's passphrase dialog never takes an empty passphrase"]


def test_installer_luks_ignores_minquality_but_not_the_score(backend):
    collection = check(backend, STRONG, pol("luks", 18, 61, True))
    assert collection["reasons"] == ["libpwquality scores it 43, below this policy's minquality of 61"]
    report = check(backend, STRONG, pol("luks", 18, 61, True), rules="installer")
    assert (report["reasons"], report["score"], report["strength"]) == ([], 43, "good")


def test_installer_luks_non_ascii_with_a_failure_says_why(backend):
    report = check(backend, NON_ASCII_SHORT, pol("luks", 12, 1, False), rules="installer")
    assert report["reasons"] == ["shorter than 12 characters (has 8)", ASCII_REASON]
    assert report["hints"][-1] == KEYBOARD_HINT and len(report["hints"]) == 3


@pytest.mark.parametrize("rules", ["collection", "installer"])
def test_fips_reason_and_hint(backend, rules):
    report = check(backend, SEVEN, pol("luks", 6, 0, False), rules=rules, fips=True)
    assert report["reasons"] == ["shorter than the 8 characters a LUKS passphrase needs in FIPS mode (has 7)"]
    assert report["hints"][0].startswith("add at least 1 more character ")


@pytest.mark.parametrize("kwargs,message", [
    (dict(rules="anaconda"), "rules must be one of collection, installer, got another string"),
    (dict(rules=None), "rules must be one of collection, installer, got NoneType"),
    (dict(fips="yes"), "fips must be true or false, got str"),
    (dict(fips=1), "fips must be true or false, got int"),
])
def test_wrong_rules_or_fips_is_an_error(backend, kwargs, message):
    with pytest.raises(verdict.PwcheckError) as info:
        verdict.check_password(STRONG, pol(), backend=backend, **kwargs)
    assert str(info.value) == message
