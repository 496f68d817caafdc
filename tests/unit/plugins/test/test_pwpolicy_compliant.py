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
    assert PluginTestModule().tests() == {"pwpolicy_compliant": pwpolicy_compliant}


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
