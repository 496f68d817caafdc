# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""pwpolicy_check(estimate=...): the guess estimate and the exposures, only when asked for, never a secret."""

import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.kickstart.pwpolicy.plugins.filter.pwpolicy_check import pwpolicy_check
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _guesses
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak

pytest.importorskip("zxcvbn")

SECRET = "Xk9#mQ2!zLp7qR5@wT"
PASSPHRASE = "maple drift quartz lantern 42 orbit"
NEW_FIELDS = {"guesses_log10", "exposures", "weakest_seconds", "weakest_attack", "weakest_seconds_with_plaintext"}


def test_without_estimate_the_report_and_the_cost_are_unchanged(monkeypatch):
    def refuse():
        raise AssertionError("zxcvbn must not run without estimate")

    monkeypatch.setattr(_guesses, "_zxcvbn", refuse)
    for estimate in ({}, {"estimate": None}, {"estimate": False}):
        report = pwpolicy_check(SECRET, "root", product="server", **estimate)
        assert not NEW_FIELDS & set(report)


@pytest.mark.parametrize("secret, policy, user, attacks", [
    (SECRET, "root", None, ["online_login", "offline_sha512crypt"]),
    (SECRET, "user", "bellatrix", ["online_login", "offline_sha512crypt"]),
    (PASSPHRASE, "luks", None, ["offline_luks2_argon2id", "kickstart_plaintext"]),
])
def test_estimate_adds_the_exposures_of_each_kind_of_secret(secret, policy, user, attacks):
    report = pwpolicy_check(secret, policy, user=user, product="server", estimate=True)
    assert NEW_FIELDS <= set(report)
    assert [item["attack"] for item in report["exposures"]] == attacks
    assert report["guesses_log10"] > 15 and report["weakest_seconds"] > 0
    assert_no_leak(secret, report, piece=5)


def test_the_model_options_change_the_result():
    fast = pwpolicy_check(SECRET, "root", product="server", estimate={"rounds": 5000})
    slow = pwpolicy_check(SECRET, "root", product="server", estimate={"rounds": 500000})
    assert fast["weakest_seconds"] == pytest.approx(slow["weakest_seconds"] / 100, rel=0.01)
    fips = pwpolicy_check(PASSPHRASE, "luks", product="server", estimate={"fips": True, "luks_in_kickstart": False})
    assert [item["attack"] for item in fips["exposures"]] == ["offline_luks2_pbkdf2"]
    assert fips["weakest_seconds_with_plaintext"] == fips["weakest_seconds"]


@pytest.mark.parametrize("estimate, attack", [
    (True, "offline_luks2_pbkdf2"),
    ({"luks_in_kickstart": False}, "offline_luks2_pbkdf2"),
    ({"fips": False}, "offline_luks2_argon2id"),
])
def test_fips_also_models_a_fips_keyslot_unless_the_estimate_says_otherwise(estimate, attack):
    report = pwpolicy_check(PASSPHRASE, "luks", product="server", fips=True, estimate=estimate)
    assert report["exposures"][0]["attack"] == attack


def test_the_account_and_host_names_lower_the_estimate():
    secret = "Bellatrix-Builder-77"
    plain = pwpolicy_check(secret, "user", user="someone", product="workstation", estimate=True)
    named = pwpolicy_check(secret, "user", user="bellatrix", product="workstation",
                           estimate={"hostname": "builder.example.org"})
    assert named["guesses_log10"] < plain["guesses_log10"]
    assert_no_leak(secret, plain, named, piece=5)


@pytest.mark.parametrize("estimate, message", [
    ({"rounds": 10}, "rounds must be between 1000"),
    ({"colour": "red"}, "unknown option"),
    ("sure", "must be true, false or a dict"),
])
def test_bad_estimate_options_fail_clearly_without_the_secret(estimate, message):
    with pytest.raises(AnsibleFilterError, match=message) as caught:
        pwpolicy_check(SECRET, "root", product="server", estimate=estimate)
    assert_no_leak(SECRET, str(caught.value), piece=5)
