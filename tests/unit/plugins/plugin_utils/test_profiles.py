# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The compliance profiles, for every profile and release, written out independently of the model's tables."""

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import Policy
from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _profiles as model
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._pwq_settings import normalize_settings

CREDITS = dict(dcredit=-1, ucredit=-1, lcredit=-1, ocredit=-1)
STIG = dict(minlen=15, minclass=4, difok=8, maxrepeat=3, maxclassrepeat=4, dictcheck=1, retry=3, **CREDITS)
CIS = dict(minlen=14, difok=2, maxrepeat=3, maxsequence=3, dictcheck=1, enforce_for_root=1)
NIST = dict(minlen=15, minclass=0, dcredit=0, ucredit=0, lcredit=0, ocredit=0, dictcheck=1, usercheck=1)

# (profile, target): (benchmark version, pwquality, schemes, min_rounds, boot-loader password, encryption)
EXPECTED = {
    ("stig", "RHEL8"): ("V2R8", STIG, ["sha512"], 100000, True, True),
    ("stig", "RHEL9"): ("V2R9", dict(STIG, enforce_for_root=1), ["sha512"], 100000, True, True),
    ("stig", "RHEL10"): ("V1R2", dict(STIG, enforce_for_root=1), ["sha512"], 100000, True, True),
    ("cis", "RHEL8"): ("4.0.0", CIS, ["yescrypt", "sha512"], None, True, False),
    ("cis", "RHEL9"): ("2.0.0", dict(CIS, minclass=4), ["sha512"], None, True, False),
    ("cis", "RHEL10"): ("1.0.1", dict(CIS, minclass=4), ["yescrypt", "sha512"], None, True, False),
    ("ospp", "RHEL8"): ("4.2.1", dict(minlen=12, difok=4, maxrepeat=3, maxclassrepeat=4, **CREDITS), [], None,
                        True, False),
    ("ospp", "RHEL9"): ("4.3", dict(minlen=12, **CREDITS), [], None, True, False),
    ("ospp", "RHEL10"): ("4.3", dict(minlen=12, **CREDITS), [], None, True, False),
    ("pci_dss", "RHEL8"): ("4.0.1", dict(minlen=12, dcredit=-1, lcredit=-1), ["sha512"], None, False, False),
    ("pci_dss", "RHEL9"): ("4.0.1", dict(minlen=12, dcredit=-1, lcredit=-1), ["sha512"], None, False, False),
    ("pci_dss", "RHEL10"): ("4.0.1", dict(minlen=12, dcredit=-1, lcredit=-1), ["yescrypt"], None, False, False),
    ("anssi", "RHEL8"): ("2.0", dict(minlen=15, minclass=4, retry=3, **CREDITS), ["sha512"], 65536, True, False),
    ("anssi", "RHEL9"): ("2.0", dict(minlen=15, minclass=4, retry=3, **CREDITS), ["sha512"], 65536, True, False),
    ("anssi", "RHEL10"): ("2.0", dict(minlen=15, minclass=4, **CREDITS), ["yescrypt"], 11, True, False),
    ("nist_800_63b", "RHEL8"): ("Revision 4 (August 2025)", NIST, [], None, False, False),
    ("nist_800_63b", "RHEL9"): ("Revision 4 (August 2025)", NIST, [], None, False, False),
    ("nist_800_63b", "RHEL10"): ("Revision 4 (August 2025)", NIST, [], None, False, False),
}
CIS_PROFILES = ("cis_server_l1", "cis_server_l2", "cis_workstation_l1", "cis_workstation_l2")
CASES = [(name, target) for name in model.PROFILES for target in model.TARGETS]


def expected(name, target):
    return EXPECTED[("cis" if name in CIS_PROFILES else name, target)]


def test_every_profile_and_release_is_in_the_table():
    assert len(CASES) == 27
    assert set((("cis" if name in CIS_PROFILES else name), target) for name, target in CASES) == set(EXPECTED)


@pytest.mark.parametrize("name, target", CASES)
def test_profile_values(name, target):
    version, pwquality, schemes, rounds, bootloader, encryption = expected(name, target)
    found = model.profile(name, target)
    assert found["name"] == name and found["target"] == target
    assert found["source"]["version"] == version
    assert found["pwquality"] == pwquality
    assert found["hashing"] == {"schemes": schemes, "min_rounds": rounds}
    assert found["bootloader_password"] is bootloader
    assert found["encryption"] is encryption
    assert found["conflicts"] == []


@pytest.mark.parametrize("name, target", CASES)
def test_policies_follow_the_minimum_length(name, target):
    found = model.profile(name, target)
    minlen = expected(name, target)[1]["minlen"]
    assert list(found["policies"]) == ["root", "user", "luks"]
    for policy_name, fields in found["policies"].items():
        assert fields == {"name": policy_name, "minlen": minlen, "minquality": 1, "strict": True,
                          "emptyok": False, "changesok": False}
        assert Policy(**fields).to_dict() == fields  # valid in the policy model


@pytest.mark.parametrize("name, target", CASES)
def test_every_value_has_a_rule_id_and_our_text(name, target):
    data = model.entry(name, target)
    assert data["benchmark"] and data["version"]
    for rule in data["rules"]:
        assert rule["id"].strip() and rule["text"].endswith(".")
    found = model.profile(name, target)
    assert found["rules"] == [{"id": rule["id"], "text": rule["text"]} for rule in data["rules"]]
    # Every pwquality setting, the hashing and the flags come from exactly one kind of rule.
    for key in list(found["pwquality"]) + ["schemes", "min_rounds", "bootloader_password", "encryption"]:
        values = set(repr(rule["values"][key]) for rule in data["rules"] if key in rule["values"])
        assert len(values) <= 1, key


@pytest.mark.parametrize("name, target", CASES)
def test_the_settings_a_check_can_use_are_valid_libpwquality_settings(name, target):
    settings = dict((key, value) for key, value in model.pwquality(name, target).items()
                    if key not in ("minlen", "enforce_for_root", "retry"))
    assert dict(normalize_settings(settings)) == settings


def test_rule_ids_of_the_benchmarks():
    ids = [rule["id"] for rule in model.profile("stig", "RHEL9")["rules"]]
    assert ids[0] == "RHEL-09-611090" and "RHEL-09-212010" in ids and "RHEL-09-231190" in ids
    assert [r["id"] for r in model.profile("stig", "RHEL8")["rules"]][0] == "RHEL-08-020230"
    assert "5.3.2.2.2" in [r["id"] for r in model.profile("cis_server_l1", "RHEL10")["rules"]]
    assert "5.3.3.2.2" in [r["id"] for r in model.profile("cis_workstation_l2", "RHEL9")["rules"]]
    assert [r["id"] for r in model.profile("anssi", "RHEL9")["rules"]][0] == "R31"
    assert model.profile("pci_dss", "RHEL9")["source"] == {"benchmark": "PCI-DSS", "version": "4.0.1"}
    assert model.CAC_COMMIT == "b3a2cca9352cbcefb7f00d770bfd6f679da18d6a"


@pytest.mark.parametrize("target", [" rhel9 ", "Rhel9", "RHEL9"])
def test_target_spelling(target):
    assert model.profile("stig", target)["target"] == "RHEL9"


@pytest.mark.parametrize("name, target, message", [
    ("bogus", "RHEL9", "unknown compliance profile '<hidden>': give one of stig, cis_server_l1, .*nist_800_63b"),
    ("stgi", "RHEL9", "unknown compliance profile 'stgi' \\(did you mean 'stig'\\?\\): give one of stig, "),
    (None, "RHEL9", "unknown compliance profile \\(null\\): give one of stig"),
    ("stig", "RHEL7", "compliance profile 'stig' has no values for target 'RHEL7': give one of RHEL8, RHEL9, "
                      "RHEL10"),
    ("nist_800_63b", "F40", "has no values for target 'F40': give one of RHEL8, RHEL9, RHEL10"),
    ("stig", "", "a target release is needed: give one of RHEL8, RHEL9, RHEL10"),
    ("stig", None, "a target release is needed"),
])
def test_bad_names(name, target, message):
    with pytest.raises(model.ProfileError, match=message):
        model.profile(name, target)


def test_nist_against_stig_is_a_composition_conflict():
    found = model.conflicts(["stig", "nist_800_63b"], "RHEL9")
    assert found[0].startswith("stig requires a mixture of character types (minclass 4, dcredit -1, ucredit -1, "
                               "lcredit -1, ocredit -1; rules RHEL-09-")
    assert "nist_800_63b forbids composition rules (rule SP 800-63B-4 3.1.1.2 composition)" in found[0]
    assert found[1].startswith("stig refuses passwords for the shape of their characters (maxrepeat 3, "
                               "maxclassrepeat 4; rules RHEL-09-611125, RHEL-09-611120)")
    # the same minimum length: no conflict about minlen; dictcheck agrees too
    assert not [line for line in found if line.startswith(("minlen", "dictcheck"))]
    assert model.profile("nist_800_63b", "RHEL9", ["stig"])["conflicts"] == found


def test_different_minima_are_named_with_the_stricter_value():
    found = model.conflicts(["cis_server_l1", "stig"], "RHEL9")
    assert "minlen differs: cis_server_l1 asks 14 (rule 5.3.3.2.2), stig asks 15 (rule RHEL-09-611090); " \
           "the stricter value is 15" in found
    assert "difok differs: cis_server_l1 asks 2 (rule 5.3.3.2.1), stig asks 8 (rule RHEL-09-611115); " \
           "the stricter value is 8" in found
    assert not [line for line in found if "hashing" in line]  # both sha512


def test_hashing_schemes_that_exclude_each_other():
    found = model.conflicts(["stig", "pci_dss"], "RHEL10")
    assert found[-1].startswith("hashing schemes conflict: stig allows only sha512")
    assert "pci_dss allows only yescrypt (rule 8.3.2); no scheme meets all of them" in found[-1]
    # yescrypt's cost factor and SHA-512's rounds are not compared
    assert not [line for line in model.conflicts(["stig", "anssi"], "RHEL10") if "min_rounds" in line]
    assert "min_rounds differs: stig asks 100000" in model.conflicts(["stig", "anssi"], "RHEL9")[-1]


def test_schemes_with_a_common_one():
    found = model.conflicts(["cis_server_l1", "pci_dss"], "RHEL10")
    assert found[-1].startswith("hashing schemes differ: ")
    assert found[-1].endswith("only yescrypt meets all of them")


def test_no_conflicts_for_one_profile_or_the_same_twice():
    assert model.conflicts(["stig"], "RHEL9") == []
    assert model.conflicts(["stig", "stig"], "RHEL9") == []
    assert model.conflicts("stig", "RHEL9") == []
    assert model.conflicts(["cis_server_l1", "cis_workstation_l2"], "RHEL9") == []


def test_conflicts_refuse_unknown_names():
    with pytest.raises(model.ProfileError, match="unknown compliance profile 'nist' \\(did you mean 'nist_800_63b'\\?\\)"):
        model.conflicts(["stig", "nist"], "RHEL9")


@pytest.mark.parametrize("name", ["stig", "STIG", " Stig ", "NIST_800_63B", "Cis_Server_L1"])
def test_profile_names_match_in_any_case(name):
    assert model.profile_name(name) == name.strip().lower()
    assert model.profile(name, "RHEL9")["name"] == name.strip().lower()
    assert model.profile_names("%s, ospp" % name) == [name.strip().lower(), "ospp"]


@pytest.mark.parametrize("first, second, expected", [
    ("stig", "stig", 0), ("stgi", "stig", 1), ("sitg", "stig", 1), ("stg", "stig", 1), ("stiig", "stig", 1),
    ("tsgi", "stig", 2), ("ospp", "stig", 4), ("", "abc", 3), ("ca", "abc", 3),
])
def test_distance_counts_a_swap_of_neighbours_as_one_edit(first, second, expected):
    assert model.distance(first, second) == expected


@pytest.mark.parametrize("value, shown", [
    # A plain name token within two edits of a profile name (or a benchmark's short name) is a typo: shown.
    ("stgi", "'stgi' (did you mean 'stig'?)"),
    ("STGI", "'STGI' (did you mean 'stig'?)"),
    ("pci-dss", "'pci-dss' (did you mean 'pci_dss'?)"),
    ("cis_server_1", "'cis_server_1' (did you mean 'cis_server_l1'?)"),
    ("nist", "'nist' (did you mean 'nist_800_63b'?)"),
    # Anything else stays hidden: too far, not a name token, too long, not a string.
    ("bogus", "'<hidden>'"),
    ("Vq7-Hj3k-Zr9w", "'<hidden>'"),
    ("st ig", "'<hidden>'"),
    ("stig!", "'<hidden>'"),
    ("stig" + "x" * 30, "'<hidden>'"),
    ("", "'<hidden>'"),
    (7, "(a number)"),
])
def test_an_unknown_profile_is_shown_only_when_it_is_a_typo_of_a_name(value, shown):
    message = str(model.unknown_profile(value, variable="kickstart_profile"))
    assert message == "kickstart_profile: unknown compliance profile %s: give one of %s" % (
        shown, ", ".join(model.PROFILES))


def test_of_several_the_unknown_one_is_named_by_position_with_its_suggestion():
    with pytest.raises(model.ProfileError) as raised:
        model.profile_names("stig,ANSSI,ospq")
    assert str(raised.value).startswith("unknown compliance profile 'ospq' (name 3 of the 3 given, did you mean "
                                        "'ospp'?): give one of stig, ")
    with pytest.raises(model.ProfileError) as raised:
        model.profile_names(["stig", "Vq7-Hj3k-Zr9w"], "kickstart_profile")
    assert str(raised.value).startswith("kickstart_profile: unknown compliance profile '<hidden>' (name 2 of the 2 "
                                        "given): give one of stig, ")
