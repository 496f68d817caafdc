# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The kickstart role's check by compliance profile (_profile_check.RoleProfile).

The profiles fill every policy field and libpwquality setting; a value the
user gives may ask more, never less: a looser one is a deviation that names
the variable, both values and the rule ids, and is waived (a warning) only
when the exceptions list every rule that asks for it.  Required boot-loader
passwords and encryption, the hashing scheme and its cost, and the
/etc/login.defs lines follow the same rule.
"""

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _profiles
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._profiles import ProfileError
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._profile_check import (
    RoleProfile,
    check_exceptions,
    given_fields,
    select,
)

STIG9 = ("stig", "RHEL9")


def view(profile="stig", target="RHEL9", exceptions=None, settings=None):
    return RoleProfile(select(profile, target) if profile else None, exceptions, settings)


def test_without_a_choice_of_the_user_the_profile_fills_every_policy_field():
    role = view()
    for account in ("root", "user", "luks"):
        policy = role.policy(account).to_dict()
        assert policy == dict(_profiles.policies(*STIG9)[account], name=account)
    assert role.deviations == [] and role.errors() == [] and role.warnings() == []


def test_the_product_preset_applies_where_it_asks_more_and_never_where_it_asks_less():
    role = view()
    server = role.policy("luks", given_fields("luks", None, "server")).to_dict()
    # The server preset's luks minlen (20) and minquality (30) ask more than the profile's 15 and 1.
    assert (server["minlen"], server["minquality"], server["strict"]) == (20, 30, True)
    workstation = role.policy("root", given_fields("root", None, "workstation")).to_dict()
    # The workstation preset's root policy is not strict and takes an empty password: the profile's values apply.
    assert (workstation["strict"], workstation["emptyok"], workstation["minlen"]) == (True, False, 15)
    assert role.deviations == []  # a preset is no choice of the user's


def test_a_tighter_value_applies_as_given():
    role = view()
    assert role.policy("user", {}, {"minlen": 24, "minquality": 50}).to_dict()["minlen"] == 24
    every, check, dummy = view(settings={"maxrepeat": 2, "difok": 10, "dcredit": -2}).pwquality()
    assert (every["maxrepeat"], every["difok"], every["dcredit"]) == (2, 10, -2)
    assert (check["maxrepeat"], check["difok"], check["dcredit"]) == (2, 10, -2)
    assert role.errors() == []


def test_a_looser_policy_field_names_the_variable_both_values_and_the_rule():
    role = view()
    policy = role.policy("user", {}, {"minlen": 8})
    assert role.errors() == [
        "kickstart_pwpolicies.user.minlen 8 is looser than the 15 stig (RHEL9) asks (rule RHEL-09-611090): give 15 or "
        "more, or list RHEL-09-611090 in kickstart_profile_exceptions"]
    assert policy.minlen == 8  # what would apply if it were waived; nothing is written while it is an error


@pytest.mark.parametrize("account, field, value, rules", [
    ("user", "strict", False, ["RHEL-09-611090"]),
    ("root", "strict", False, ["RHEL-09-611090", "RHEL-09-611060"]),  # the settings apply to root too
    ("luks", "emptyok", True, ["RHEL-09-611090"]),
    ("user", "changesok", True, ["RHEL-09-611090"]),
])
def test_each_looser_flag_names_the_rules_behind_it(account, field, value, rules):
    role = view()
    role.policy(account, {}, {field: value})
    deviation, = role.deviations
    assert deviation.rules == rules and deviation.what == "kickstart_pwpolicies.%s.%s" % (account, field)
    assert "is looser than the %s stig (RHEL9) asks" % ("true" if not value else "false") in role.errors()[0]
    assert "set it to %s" % ("true" if not value else "false") in role.errors()[0]


def test_an_exception_waives_a_deviation_into_a_warning_and_the_value_given_applies():
    role = view(exceptions=["RHEL-09-611090"])
    assert role.policy("user", {}, {"minlen": 8}).minlen == 8
    assert role.errors() == []
    assert role.warnings() == ["kickstart_profile_exceptions waives rule RHEL-09-611090: kickstart_pwpolicies.user."
                               "minlen 8 is looser than the 15 stig (RHEL9) asks"]


def test_every_rule_behind_a_value_must_be_listed_to_waive_it():
    role = view(exceptions=["RHEL-09-611090"])
    role.policy("root", {}, {"strict": False})
    assert len(role.errors()) == 1 and "list RHEL-09-611090, RHEL-09-611060 in" in role.errors()[0]
    both = view(exceptions=["RHEL-09-611090", "RHEL-09-611060"])
    both.policy("root", {}, {"strict": False})
    assert both.errors() == [] and len(both.warnings()) == 1


def test_a_looser_setting_is_a_deviation_a_setting_no_profile_sets_is_the_users():
    role = view(settings={"maxrepeat": 5, "minclass": 3, "maxsequence": 9, "dcredit": 0})
    every, check, origins = role.pwquality()
    assert role.errors() == [
        "kickstart_pwquality_settings.dcredit 0 is looser than the -1 stig (RHEL9) asks (rule RHEL-09-611070): give -1 "
        "or less, or list RHEL-09-611070 in kickstart_profile_exceptions",
        "kickstart_pwquality_settings.maxrepeat 5 is looser than the 3 stig (RHEL9) asks (rule RHEL-09-611125): give 3 "
        "or less, or list RHEL-09-611125 in kickstart_profile_exceptions",
        "kickstart_pwquality_settings.minclass 3 is looser than the 4 stig (RHEL9) asks (rule RHEL-09-611130): give 4 "
        "or more, or list RHEL-09-611130 in kickstart_profile_exceptions"]
    assert every["maxsequence"] == 9 and origins["maxsequence"] == ["kickstart_pwquality_settings"]
    assert role.pwquality() is role.pwquality() and len(role.deviations) == 3  # worked out once


def test_every_setting_of_the_profile_is_there_for_the_installed_system_and_a_check_gets_its_own():
    every, check, origins = view().pwquality()
    assert every == _profiles.pwquality(*STIG9)
    assert list(every) == [key for key in _profiles.PWQUALITY if key in every]  # pwquality.conf's order
    assert {"minlen", "enforce_for_root", "retry"} <= set(every)
    assert set(check) == set(every) - {"minlen", "enforce_for_root", "retry"}
    assert origins == dict((key, ["stig"]) for key in check)


def test_nist_forbids_composition_and_pattern_settings_however_strict():
    role = view("nist_800_63b", settings={"minclass": 4, "maxrepeat": 3, "usercheck": 1, "difok": 5})
    role.pwquality()
    rule = "SP 800-63B-4 3.1.1.2 composition"
    assert [(d.what, d.rules) for d in role.deviations] == [
        ("kickstart_pwquality_settings.maxrepeat", [rule]), ("kickstart_pwquality_settings.minclass", [rule])]
    assert "minclass 4 is a composition rule, which nist_800_63b (RHEL9) forbids" in role.errors()[1]
    assert role.errors()[1].endswith("leave minclass out, or list %s in kickstart_profile_exceptions" % rule)


def test_a_required_boot_loader_password_and_encryption_name_the_variable_and_the_rule():
    role = view()
    role.requirements(False, False)
    assert role.errors() == [
        "kickstart_bootloader_password is not set, but stig (RHEL9) requires a boot-loader password (rule "
        "RHEL-09-212010): set it (vaulted), or list RHEL-09-212010 in kickstart_profile_exceptions",
        "kickstart_luks_passphrase is not set, but stig (RHEL9) requires encrypted disks (rule RHEL-09-231190): set it "
        "(vaulted), or list RHEL-09-231190 in kickstart_profile_exceptions"]
    met = view()
    met.requirements(True, True)
    assert met.deviations == []
    nist = view("nist_800_63b")
    nist.requirements(False, False)
    assert nist.deviations == []  # NIST asks for neither


def test_storage_lines_without_encrypted_encrypt_nothing():
    role = view()
    role.requirements(True, True, ["part / --fstype=xfs --size=8192", "part swap --size=1024"])
    assert [d.what for d in role.deviations] == ["kickstart_content.storage"]
    assert "has no line with --encrypted" in role.errors()[0] and "RHEL-09-231190" in role.errors()[0]
    encrypted = view()
    encrypted.requirements(True, True, ["part / --fstype=xfs --size=8192 --encrypted"])
    assert encrypted.deviations == []


@pytest.mark.parametrize("line", [
    "part / --grow  # --encrypted", "part / --grow #--encrypted", "part / --grow --label='a --encrypted b'",
    'part / --grow --label="--encrypted"', "part /#x --encrypted",
])
def test_encrypted_in_a_comment_or_in_quotes_encrypts_nothing(line):
    # The installer reads the line's words with shlex (comments left out), then the command's options.
    role = view()
    role.requirements(True, True, [line])
    assert [d.what for d in role.deviations] == ["kickstart_content.storage"]


@pytest.mark.parametrize("line", ["part / --grow --encrypted", "logvol / --vgname=vg --name=root --encrypted",
                                  "part / --encrypted  # the root file system"])
def test_encrypted_as_the_installer_reads_it_meets_the_rule(line):
    role = view()
    role.requirements(True, True, ["part /boot --size=1024", line])
    assert role.deviations == []


# Every STIG rule for RHEL 9 that the %post drop-in carries: the libpwquality settings, then the hashing.
STIG9_DROPIN = ["RHEL-09-611090", "RHEL-09-611110", "RHEL-09-611065", "RHEL-09-611070", "RHEL-09-611100",
                "RHEL-09-611130", "RHEL-09-611115", "RHEL-09-611125", "RHEL-09-611120", "RHEL-09-611105",
                "RHEL-09-611060", "RHEL-09-611010", "RHEL-09-611140", "RHEL-09-611135", "RHEL-09-671025",
                "RHEL-09-611050", "RHEL-09-611055"]


def test_without_the_drop_in_the_installed_system_misses_every_setting_of_the_profile():
    role = view()
    role.requirements(True, True, None, pwquality_dropin=False)
    assert [(d.what, d.rules) for d in role.deviations] == [("kickstart_pwquality_dropin", STIG9_DROPIN)]
    assert role.errors() == [
        "kickstart_pwquality_dropin is false, so the installed system gets none of the libpwquality settings and "
        "/etc/login.defs lines stig (RHEL9) asks for (rules %s): set it to true, or list %s in "
        "kickstart_profile_exceptions" % (", ".join(STIG9_DROPIN), ", ".join(STIG9_DROPIN))]
    # With the drop-in, or without a profile, nothing is missing.
    written = view()
    written.requirements(True, True)
    assert written.deviations == []
    alone = view(None)
    alone.requirements(True, True, None, pwquality_dropin=False)
    assert alone.deviations == []


def test_the_drop_in_deviation_is_waived_by_its_rules_like_any_other():
    waived = view(exceptions=STIG9_DROPIN)
    waived.requirements(True, True, None, pwquality_dropin=False)
    assert waived.errors() == [] and waived.warnings() == [
        "kickstart_profile_exceptions waives rules %s: kickstart_pwquality_dropin is false, so the installed system "
        "gets none of the libpwquality settings and /etc/login.defs lines stig (RHEL9) asks for"
        % ", ".join(STIG9_DROPIN)]
    partly = view(exceptions=STIG9_DROPIN[:-1])
    partly.requirements(True, True, None, pwquality_dropin=False)
    assert len(partly.errors()) == 1
    # Each profile selected asks for its own rules.
    both = view("ospp,nist_800_63b", "RHEL9")
    both.requirements(True, True, None, pwquality_dropin=False)
    assert [(d.what, d.profile, d.rules) for d in both.deviations] == [
        ("kickstart_pwquality_dropin", "ospp (RHEL9)", ["FMT_SMF_EXT.1"]),
        ("kickstart_pwquality_dropin", "nist_800_63b (RHEL9)",
         ["SP 800-63B-4 3.1.1.2 length", "SP 800-63B-4 3.1.1.2 composition", "SP 800-63B-4 3.1.1.2 blocklist",
          "SP 800-63B-4 3.1.1.2 context"])]


def test_cis_workstation_asks_for_a_boot_loader_password_but_no_encryption():
    role = view("cis_workstation_l1")
    role.requirements(False, False)
    assert [(d.what, d.rules) for d in role.deviations] == [("kickstart_bootloader_password", ["1.4.1"])]


@pytest.mark.parametrize("profile, target, allowed", [
    ("stig", "RHEL10", ["sha512crypt"]),
    ("cis_server_l1", "RHEL10", ["yescrypt", "sha512crypt"]),
    ("pci_dss", "RHEL10", ["yescrypt"]),
    ("nist_800_63b", "RHEL9", None),
    (None, "RHEL9", None),
])
def test_the_schemes_a_profile_allows(profile, target, allowed):
    assert view(profile, target).allowed_schemes() == allowed


def test_two_profiles_allow_what_both_allow_and_a_waived_scheme_rule_allows_any():
    assert view(["cis_server_l1", "stig"], "RHEL10").allowed_schemes() == ["sha512crypt"]
    waived = view("stig", "RHEL9", exceptions=_profiles.rule_list("stig", "RHEL9", "schemes"))
    assert waived.allowed_schemes() is None
    partly = view("stig", "RHEL9", exceptions=["RHEL-09-611140"])
    assert partly.allowed_schemes() == ["sha512crypt"]
    assert partly.scheme_rules() == "stig (RHEL9) rules RHEL-09-611140, RHEL-09-611135, RHEL-09-671025"


def test_hash_cost_below_the_profiles_minimum():
    role = view()
    role.hash_cost("sha512crypt", 5000, "kickstart_password_hash_rounds")
    role.hash_cost("sha512crypt", 100000, "kickstart_password_hash_rounds")
    assert role.errors() == [
        "kickstart_password_hash_rounds 5000 is below the 100000 stig (RHEL9) asks for sha512crypt (rules "
        "RHEL-09-611050, RHEL-09-611055): give 100000 or more, or list RHEL-09-611050, RHEL-09-611055 in "
        "kickstart_profile_exceptions"]
    anssi = view("anssi", "RHEL10")
    anssi.hash_cost("yescrypt", 5, "kickstart_password_hash_cost")
    assert [(d.what, d.given, d.asked, d.rules) for d in anssi.deviations] == [
        ("kickstart_password_hash_cost", 5, 11, ["R68"])]
    cis = view("cis_server_l1")
    cis.hash_cost("sha512crypt", 1000, "kickstart_password_hash_rounds")
    assert cis.deviations == []  # CIS asks for no rounds


@pytest.mark.parametrize("profile, target, scheme, lines", [
    ("stig", "RHEL9", "sha512crypt", [("ENCRYPT_METHOD", "SHA512"), ("SHA_CRYPT_MIN_ROUNDS", 100000)]),
    ("anssi", "RHEL10", "yescrypt", [("ENCRYPT_METHOD", "YESCRYPT"), ("YESCRYPT_COST_FACTOR", 11)]),
    ("cis_server_l1", "RHEL10", "yescrypt", [("ENCRYPT_METHOD", "YESCRYPT")]),
    ("nist_800_63b", "RHEL9", "sha512crypt", []),
    (None, "RHEL9", "sha512crypt", []),
])
def test_login_defs_where_the_profile_asks(profile, target, scheme, lines):
    assert view(profile, target).login_defs(scheme) == lines


def test_login_defs_leave_out_what_is_waived():
    rounds = _profiles.rule_list("stig", "RHEL9", "min_rounds")
    assert view(exceptions=rounds).login_defs("sha512crypt") == [("ENCRYPT_METHOD", "SHA512")]
    schemes = _profiles.rule_list("stig", "RHEL9", "schemes")
    assert view(exceptions=schemes).login_defs("sha512crypt") == [("SHA_CRYPT_MIN_ROUNDS", 100000)]


@pytest.mark.parametrize("exceptions, words", [
    ("RHEL-09-611090", "must be a list of rule ids"),
    ([1], "must be a list of rule ids"),
    (["RHEL-09-611090", "Hunter2-secret"], "kickstart_profile_exceptions[1] is no rule of stig for RHEL9"),
    (["RHEL-09-61109"], "kickstart_profile_exceptions[0] is no rule of stig for RHEL9 that sets a value; its rules "
                        "are RHEL-09-611090, "),
])
def test_bad_exceptions_are_named_by_position_never_by_value(exceptions, words):
    with pytest.raises(ProfileError) as caught:
        check_exceptions(select(*STIG9), exceptions)
    assert words in str(caught.value)
    assert "Hunter2" not in str(caught.value)


def test_exceptions_without_a_profile_say_so():
    with pytest.raises(ProfileError, match="lists rules, but no compliance profile is selected"):
        view(None, exceptions=["RHEL-09-611090"])
    assert check_exceptions(None, []) == ()


def test_a_bad_setting_names_the_variable():
    with pytest.raises(ProfileError, match="kickstart_pwquality_settings: setting 'minlen' is not accepted"):
        view(settings={"minlen": 20})
    with pytest.raises(ProfileError, match="kickstart_pwquality_settings: unknown libpwquality setting"):
        view(settings={"minclas": 4})


def test_without_a_profile_the_settings_given_are_the_check():
    every, check, origins = view(None, settings={"minclass": 3}).pwquality()
    assert every == check == {"minclass": 3} and origins == {"minclass": ["kickstart_pwquality_settings"]}
