# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The compliance_profile filter: the profile model's answer, errors as AnsibleFilterError."""

import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.kickstart.pwpolicy.plugins.filter.compliance_profile import FilterModule, compliance_profile
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._profiles import PROFILES, TARGETS

KEYS = ["name", "target", "source", "policies", "pwquality", "hashing", "bootloader_password", "encryption",
        "blocklist", "rules", "conflicts"]
# (profile, target): (minlen, minclass or None, boot-loader password, encryption) per release, written out.
TABLE = {
    "stig": {"RHEL8": (15, 4, True, True), "RHEL9": (15, 4, True, True), "RHEL10": (15, 4, True, True)},
    "cis_server_l1": {"RHEL8": (14, None, True, False), "RHEL9": (14, 4, True, False),
                      "RHEL10": (14, 4, True, False)},
    "cis_server_l2": {"RHEL8": (14, None, True, False), "RHEL9": (14, 4, True, False),
                      "RHEL10": (14, 4, True, False)},
    "cis_workstation_l1": {"RHEL8": (14, None, True, False), "RHEL9": (14, 4, True, False),
                           "RHEL10": (14, 4, True, False)},
    "cis_workstation_l2": {"RHEL8": (14, None, True, False), "RHEL9": (14, 4, True, False),
                           "RHEL10": (14, 4, True, False)},
    "ospp": {"RHEL8": (12, None, True, False), "RHEL9": (12, None, True, False), "RHEL10": (12, None, True, False)},
    "pci_dss": {"RHEL8": (12, None, False, False), "RHEL9": (12, None, False, False),
                "RHEL10": (12, None, False, False)},
    "anssi": {"RHEL8": (15, 4, True, False), "RHEL9": (15, 4, True, False), "RHEL10": (15, 4, True, False)},
    "nist_800_63b": {"RHEL8": (15, 0, False, False), "RHEL9": (15, 0, False, False),
                     "RHEL10": (15, 0, False, False)},
}


def test_the_filter_is_registered():
    found = FilterModule().filters()
    assert list(found) == ["compliance_profile"] and found["compliance_profile"].__wrapped__ is compliance_profile  # behind the option check


@pytest.mark.parametrize("name, target", [(n, t) for n in PROFILES for t in TARGETS])
def test_every_profile_and_release(name, target):
    minlen, minclass, bootloader, encryption = TABLE[name][target]
    found = compliance_profile(name, target.lower())
    assert list(found) == KEYS
    assert found["target"] == target
    assert found["pwquality"]["minlen"] == minlen
    assert found["pwquality"].get("minclass") == minclass
    assert found["policies"]["luks"]["minlen"] == minlen
    assert (found["bootloader_password"], found["encryption"]) == (bootloader, encryption)
    assert found["blocklist"] is (name == "nist_800_63b")  # only NIST asks for a blocklist
    assert all(set(rule) == {"id", "text"} for rule in found["rules"])
    assert found["conflicts"] == []


def test_others_give_conflicts():
    found = compliance_profile("stig", "RHEL9", others=["nist_800_63b"])
    assert found["conflicts"] and "nist_800_63b forbids composition rules" in found["conflicts"][0]
    assert compliance_profile("stig", "RHEL9", others="nist_800_63b")["conflicts"] == found["conflicts"]
    assert compliance_profile("stig", "RHEL9", others=["stig"])["conflicts"] == []


@pytest.mark.parametrize("args, message", [
    (("cis", "RHEL9"),
     "^compliance_profile: unknown compliance profile 'cis' \\(did you mean one of 'cis_server_l1', "
     "'cis_server_l2', 'cis_workstation_l1', 'cis_workstation_l2'\\?\\): give one of stig, cis_server_l1"),
    (("Vq7-Hj3k-Zr9w", "RHEL9"), "^compliance_profile: unknown compliance profile '<hidden>': give one of stig, "),
    (("stig", "RHEL11"), "^compliance_profile: compliance profile 'stig' has no values for target 'RHEL11': "
                         "give one of RHEL8, RHEL9, RHEL10$"),
    (("stig", None), "^compliance_profile: a target release is needed"),
    (("stig", "RHEL9", 3), "^compliance_profile: others must be a list of profile names, got int$"),
    (("stig", "RHEL9", ["nist"]), "^compliance_profile: unknown compliance profile 'nist'"),
])
def test_bad_input_is_a_filter_error(args, message):
    with pytest.raises(AnsibleFilterError, match=message):
        compliance_profile(*args)
