# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Options nobody declared are refused by every filter, test and lookup, naming the unknown one and the valid ones."""

import pytest
from ansible.errors import AnsibleError

from ansible_collections.kickstart.pwpolicy.plugins.filter.compliance_profile import FilterModule as ProfileFilters
from ansible_collections.kickstart.pwpolicy.plugins.filter.installer_release import FilterModule as ReleaseFilters
from ansible_collections.kickstart.pwpolicy.plugins.filter.pwpolicy_check import FilterModule as CheckFilters
from ansible_collections.kickstart.pwpolicy.plugins.filter.pwpolicy_section import FilterModule as SectionFilters
from ansible_collections.kickstart.pwpolicy.plugins.lookup.pwpolicy_password import LookupModule
from ansible_collections.kickstart.pwpolicy.plugins.test.pwpolicy_compliant import TestModule as CompliantTests
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak

SECRET = "Wq3#Zr8-Ty1!Uk5"


@pytest.mark.parametrize("plugin, args, options", [
    (CheckFilters().filters()["pwpolicy_check"], (SECRET, "root"),
     "its options are policy, user, product, target, settings, rules, fips, estimate, profile, blocklist"),
    (CompliantTests().tests()["pwpolicy_compliant"], (SECRET, "root"),
     "its options are policy, user, product, target, settings, allow_weak, rules, fips, profile, blocklist"),
    (ProfileFilters().filters()["compliance_profile"], ("stig", "RHEL9"), "its options are target, others"),
    (SectionFilters().filters()["pwpolicy_section"], ({}, "RHEL8"), "its options are target, product"),
    (ReleaseFilters().filters()["installer_release"], ("RHEL9",), "it takes no option"),
])
def test_a_misspelled_option_is_refused_by_name(plugin, args, options):
    name = plugin.__name__
    with pytest.raises(AnsibleError) as caught:
        plugin(*args, blocklst=SECRET)
    assert str(caught.value) == "%s: unknown option blocklst; %s" % (name, options)
    assert_no_leak(SECRET, str(caught.value))


def test_the_lookup_refuses_a_misspelled_option_instead_of_returning_a_password():
    with pytest.raises(AnsibleError) as caught:
        LookupModule().run([], {}, profile="stig", target="RHEL9", fiel="/srv/pw", regenrate=True)
    assert str(caught.value).startswith("pwpolicy_password: unknown options fiel, regenrate; its options are policy, "
                                        "product, profile, target,")


def test_known_options_still_work():
    assert CheckFilters().filters()["pwpolicy_check"](SECRET, "root", user="root")["verdict"] in (
        "accepted", "accepted_weak")
    assert ReleaseFilters().filters()["installer_release"]("RHEL9")["section"] is True
