# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The pwpolicy_compliant test: the ok of the pwpolicy_check report."""

import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.kickstart.pwpolicy.plugins.filter.pwpolicy_check import pwpolicy_check
from ansible_collections.kickstart.pwpolicy.plugins.test.pwpolicy_compliant import TestModule as PluginTestModule
from ansible_collections.kickstart.pwpolicy.plugins.test.pwpolicy_compliant import pwpolicy_compliant

SECRET = "Xk9#mQ2!zLp7qR5@wT"


def test_registered():
    found = PluginTestModule().tests()
    assert list(found) == ["pwpolicy_compliant"] and found["pwpolicy_compliant"].__wrapped__ is pwpolicy_compliant  # behind the option check


@pytest.mark.parametrize("password,policy,kwargs,expected,verdict", [
    (SECRET, "root", dict(product="server"), True, "accepted"),
    ("Summer2024", "root", dict(product="server"), False, "rejected"),  # strict: too short
    ("password1", "root", dict(product="workstation"), True, "accepted_weak"),  # not strict: coached
    ("", "root", dict(product="workstation"), True, "accepted"),  # emptyok: root locked
    ("", "user", dict(product="workstation"), False, "rejected"),  # not emptyok, even when not strict
    ("Xk9alicEQ2!zW", "user", dict(product="server", user="alice"), False, "rejected"),
    ("Xk9alicEQ2!zWp7q", "user", dict(product="server", user="bob"), True, "accepted"),
    (SECRET, {"name": "luks", "minlen": 24, "strict": False}, {}, True, "accepted_weak"),
    (SECRET, "luks", dict(target="F22", settings={"minclass": 4}), True, "accepted"),
])
def test_compliant_is_the_reports_ok(password, policy, kwargs, expected, verdict):
    assert pwpolicy_compliant(password, policy, **kwargs) is expected
    assert pwpolicy_check(password, policy, **kwargs)["verdict"] == verdict


def test_errors_do_not_leak():
    with pytest.raises(AnsibleFilterError) as info:
        pwpolicy_compliant("root", SECRET)
    assert SECRET not in str(info.value)


@pytest.mark.parametrize("password,policy,kwargs,expected", [
    ("password1", "root", dict(product="workstation"), False),  # accepted_weak no longer counts
    (SECRET, "root", dict(product="server"), True),  # accepted still does
    ("Summer2024", "root", dict(product="server"), False),  # rejected stays rejected
])
def test_allow_weak_false_refuses_accepted_weak(password, policy, kwargs, expected):
    assert pwpolicy_compliant(password, policy, allow_weak=False, **kwargs) is expected


def test_allow_weak_defaults_to_true():
    assert pwpolicy_check("password1", "root", product="workstation")["verdict"] == "accepted_weak"
    assert pwpolicy_compliant("password1", "root", product="workstation") is True


def test_allow_weak_must_be_a_boolean():
    with pytest.raises(AnsibleFilterError, match="allow_weak must be true or false, got a str"):
        pwpolicy_compliant(SECRET, "root", product="server", allow_weak="no")


@pytest.mark.parametrize("password,policy,kwargs,expected", [
    ("Kx9#mQ2", "root", dict(product="workstation"), (True, False)),  # text mode refuses it: too short
    ("", {"name": "user", "emptyok": False}, dict(product="workstation"), (False, True)),  # empty: no password
    ("Kx9#mQ2", {"name": "luks", "minlen": 6, "minquality": 0}, dict(fips=True), (False, False)),
    ("Kx9#mQ2!", {"name": "luks", "minlen": 6, "minquality": 0}, dict(fips=True), (True, True)),
])
def test_rules_and_fips_as_for_the_filter(password, policy, kwargs, expected):
    got = tuple(pwpolicy_compliant(password, policy, rules=rules, **kwargs) for rules in ("collection", "installer"))
    assert got == expected
    for rules, compliant in zip(("collection", "installer"), got):
        assert compliant is pwpolicy_check(password, policy, rules=rules, **kwargs)["ok"]


def test_allow_weak_false_with_installer_rules():
    # The LUKS dialog lets a non-strict policy take a passphrase libpwquality rejects; allow_weak=false does not.
    policy = {"name": "luks", "minlen": 8, "minquality": 0, "strict": False}
    assert pwpolicy_check("password", policy, rules="installer")["verdict"] == "accepted_weak"
    assert pwpolicy_compliant("password", policy, rules="installer") is True
    assert pwpolicy_compliant("password", policy, rules="installer", allow_weak=False) is False


def test_wrong_rules_is_an_error_without_the_password():
    with pytest.raises(AnsibleFilterError, match="rules must be one of collection, installer") as info:
        pwpolicy_compliant(SECRET, "root", product="server", rules="tui")
    assert SECRET not in str(info.value)
