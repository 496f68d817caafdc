# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The pre-flight with the role's check by profile (profile_exceptions given) and the boot-loader password.

The role's variables are read with role_vars, as the role reads them; every
deviation is one sentence of the failure (variable, values, rule id), a
waived one a warning; the boot-loader password is a secret like the others,
checked against the root policy with the profile's settings.  No result holds
a secret.
"""

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.action.check_secrets import ActionModule
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _secrets_check
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._action import check_arguments
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_check import SecretsCheck
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_reader import SecretReader
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak

ROOT = "Xk9#mQ2!zLp7qR5@wT"
LUKS = "Vb3$nM8&kW5!pZ2@rT7^"
GRUB = "Gq7%wZ4!vX8n-Rb2#kT"
WEAK_GRUB = "grubgrub"


def role_vars(**changes):
    values = dict(kickstart_product="server", kickstart_target="RHEL9", kickstart_root_password=ROOT,
                  kickstart_luks_passphrase=LUKS, kickstart_bootloader_password=GRUB, kickstart_pwpolicies={},
                  kickstart_pwquality_settings={}, kickstart_profile_exceptions=[], inventory_hostname="web01")
    values.update(changes)
    return dict((key, value) for key, value in values.items() if value is not None)


def run(profile="stig", **changes):
    args = {"role_vars": True, "profile": profile}
    result = SecretsCheck(SecretReader(lambda value: value), args).run({}, role_vars(**changes))[0]
    for secret in (ROOT, LUKS, GRUB, WEAK_GRUB):
        assert_no_leak(secret, result, piece=5)
    return result


def by_secret(result):
    return dict((finding["secret"], finding) for finding in result["findings"])


def test_the_role_passes_a_kickstart_that_meets_the_profile():
    result = run()
    assert not result.get("failed"), result["msg"]
    found = by_secret(result)
    assert [found[label]["verdict"] for label in ("root", "luks", "bootloader")] == ["accepted"] * 3
    assert found["bootloader"]["policy"]["name"] == "root"
    assert result["profile"] == {"names": ["stig"], "target": "RHEL9", "exceptions": [], "deviations": [],
                                 "waived": []}
    # The profile's policies, at least as strict as the server preset's.
    assert result["policies"]["user"]["minlen"] == 15 and result["policies"]["root"]["strict"] is True


def test_the_check_arguments_take_the_role_variables():
    check_arguments("check_secrets", ActionModule.ARGUMENT_SPEC, dict(
        bootloader_password=GRUB, pwquality_settings={"minclass": 4}, profile_exceptions=["RHEL-09-212010"]))
    assert ActionModule.ARGUMENT_SPEC["bootloader_password"]["no_log"] is True


def test_a_weak_boot_loader_password_fails_by_the_profiles_settings_never_shown():
    result = run(kickstart_bootloader_password=WEAK_GRUB)
    assert result["failed"]
    found = by_secret(result)["bootloader"]
    assert found["verdict"] == "rejected"
    assert "shorter than 15 characters (has 8)" in found["reasons"]
    assert "needs at least 1 digit, has 0 (stig: dcredit -1)" in found["reasons"]
    assert "bootloader (policy root): rejected: " in result["msg"]


def test_every_deviation_is_one_sentence_of_one_failure_with_the_secrets_still_checked():
    result = run(kickstart_bootloader_password=None, kickstart_luks_passphrase=None,
                 kickstart_pwpolicies={"user": {"minlen": 8}}, kickstart_pwquality_settings={"maxrepeat": 5},
                 kickstart_root_password="qwertz")
    assert result["failed"]
    message = result["msg"]
    # The deviations are no secrets: the count is of the one secret.
    assert message.startswith("web01 (server, RHEL9): 1 of 1 secret and 4 other values fail (fail_on=rejected):\n")
    for words in ("\n  kickstart_pwpolicies.user.minlen: 8 is looser than the 15 stig (RHEL9) asks (rule "
                  "RHEL-09-611090)\n",
                  "\n  give 15 or more, or list RHEL-09-611090 in kickstart_profile_exceptions "
                  "(kickstart_pwpolicies.user.minlen)\n",
                  "\n  kickstart_pwquality_settings.maxrepeat: 5 is looser than the 3 stig (RHEL9) asks (rule "
                  "RHEL-09-611125)\n",
                  "\n  kickstart_bootloader_password: is not set, but stig (RHEL9) requires a boot-loader password (rule "
                  "RHEL-09-212010)\n",
                  "\n  set it (vaulted), or list RHEL-09-212010 in kickstart_profile_exceptions (",
                  "\n  kickstart_luks_passphrase: is not set, but stig (RHEL9) requires encrypted disks (rule "
                  "RHEL-09-231190)\n",
                  "\n  kickstart_root_password: root (policy root): rejected: "):
        assert words in message
    # Each deviation is a finding of its own, which stops the role whatever fail_on says (and the audit lists it).
    deviations = [f for f in result["findings"] if f["secret"].startswith("kickstart_")]
    assert [(f["verdict"], f["stops"], f["policy"]) for f in deviations] == [("error", True, None)] * 4
    assert result["profile"]["deviations"][0] == (
        "kickstart_pwpolicies.user.minlen 8 is looser than the 15 stig (RHEL9) asks (rule RHEL-09-611090): give 15 or "
        "more, or list RHEL-09-611090 in kickstart_profile_exceptions")
    assert len(result["profile"]["deviations"]) == 4
    assert "qwertz" not in message


def test_exceptions_turn_deviations_into_warnings_and_the_values_given_apply():
    result = run(kickstart_bootloader_password=None, kickstart_pwpolicies={"user": {"minlen": 8}},
                 kickstart_profile_exceptions=["RHEL-09-611090", "RHEL-09-212010"])
    assert not result.get("failed"), result["msg"]
    assert result["policies"]["user"]["minlen"] == 8
    assert result["profile"]["waived"] == [
        "kickstart_profile_exceptions waives rule RHEL-09-611090: kickstart_pwpolicies.user.minlen 8 is looser than "
        "the 15 stig (RHEL9) asks",
        "kickstart_profile_exceptions waives rule RHEL-09-212010: kickstart_bootloader_password is not set, but stig "
        "(RHEL9) requires a boot-loader password"]
    assert ["web01: " + text for text in result["profile"]["waived"]] == result["warnings"]


def test_an_unknown_exception_or_profile_fails_naming_what_to_give():
    result = run(kickstart_profile_exceptions=["RHEL-09-611090", "no-such-rule"])
    assert result["failed"] and "kickstart_profile_exceptions[1] is no rule of stig for RHEL9" in result["msg"]
    assert "no-such-rule" not in result["msg"]
    result = run(profile="stog")
    assert result["failed"] and "unknown compliance profile" in result["msg"]
    result = run(kickstart_target="F40")
    assert result["failed"] and "has no values for target" in result["msg"]


def test_without_a_profile_the_settings_given_check_the_secrets():
    result = run(profile="", kickstart_pwquality_settings={"minclass": 4}, kickstart_bootloader_password="abcdefghijklmnop")
    found = by_secret(result)["bootloader"]
    assert found["verdict"] == "rejected"
    assert any("(kickstart_pwquality_settings: minclass 4)" in reason for reason in found["reasons"])
    assert "profile" not in result


def test_with_role_vars_and_no_exceptions_variable_the_check_is_the_roles():
    # The role's default (none waived): the audit and check_secrets judge a host as the role does.
    args = {"role_vars": True, "profile": "stig"}
    task_vars = role_vars(kickstart_pwpolicies={"user": {"minlen": 8}})
    del task_vars["kickstart_profile_exceptions"]
    result = SecretsCheck(SecretReader(lambda value: value), args).run({}, task_vars)[0]
    assert result["failed"] and "kickstart_pwpolicies.user.minlen: 8 is looser than the 15" in result["msg"]
    assert result["profile"]["deviations"] and result["conflicts"] == []


def test_without_role_vars_the_check_is_check_secrets_own():
    args = {"profile": "stig", "product": "server", "target": "RHEL9", "root_password": ROOT,
            "pwpolicies": {"user": {"minlen": 8}}}
    result = SecretsCheck(SecretReader(lambda value: value), args).run({}, {"inventory_hostname": "web01"})[0]
    assert not result.get("failed"), result["msg"]  # the stricter value applies, and a warning says so
    assert result["policies"]["user"]["minlen"] == 15
    assert "deviations" not in result["profile"] and result["conflicts"]


def test_a_bootloader_command_of_the_users_own_cannot_stand_beside_the_roles():
    content = {"extra_commands": ["bootloader --timeout=3"], "storage": ["part / --size=1 --encrypted"]}
    args = {"role_vars": True, "profile": "", "content": content}
    result = SecretsCheck(SecretReader(lambda value: value), args).run({}, role_vars())[0]
    found = by_secret(result)
    assert found["kickstart_content.extra_commands[0]"]["reasons"] == [
        "is a bootloader command, but the role writes the bootloader command itself with "
        "kickstart_bootloader_password, and the installer takes only the last one"]
    assert "kickstart_content.storage[0]" not in found
    # Without a boot-loader password it is the user's own bootloader command.
    alone = SecretsCheck(SecretReader(lambda value: value), args).run(
        {}, role_vars(kickstart_bootloader_password=None))[0]
    assert "kickstart_content.extra_commands[0]" not in by_secret(alone)


@pytest.mark.parametrize("line", ["bootloader --password=" + GRUB, "bootloader --iscrypted --password=grub.pbkdf2.x"])
def test_a_boot_loader_password_in_the_content_is_refused_never_shown(line):
    options = line.split(" ", 1)[1]
    for content in ({"bootloader": options}, {"extra_commands": [line]}):
        args = {"role_vars": True, "profile": "", "content": content}
        result = SecretsCheck(SecretReader(lambda value: value), args).run(
            {}, role_vars(kickstart_bootloader_password=None))[0]
        assert result["failed"]
        assert "a secret the pre-flight does not check" in result["msg"]
        assert "kickstart_bootloader_password" in result["msg"]  # the hint names where it goes
        assert_no_leak(GRUB, result, piece=5)


def test_the_weakest_link_gets_the_boot_loader_password_to_compare_not_to_estimate(monkeypatch):
    seen = []

    def host_weakest(host, items, *args, **kwargs):
        seen.extend(item["secret"] for item in items)
        return {"host": host}, [], False
    monkeypatch.setattr(_secrets_check, "host_weakest", host_weakest)
    args = {"role_vars": True, "profile": "stig", "weakest": {}}
    SecretsCheck(SecretReader(lambda value: value), args).run({}, role_vars())
    # host_weakest estimates root and luks only (test_weakest.py), and compares all three.
    assert seen == ["root", "luks", "bootloader"]


@pytest.mark.parametrize("profile", ["stig", ""])
@pytest.mark.parametrize("end", ["\r", "\x0c", "\x85", "\u2028"])
def test_a_setting_with_a_line_boundary_of_any_kind_stops_the_role_named_never_shown(profile, end):
    # Written into the %post drop-in, "\r%end\r" would end the section and the installer would read rootpw.
    injection = end.join(["acme", "%end", "rootpw --plaintext Zq8vW-Injx-77", "%post", "true"])
    result = run(profile=profile, kickstart_pwquality_settings={"badwords": injection})
    assert result["failed"]
    assert "kickstart_pwquality_settings: setting 'badwords' must be one line of text (it holds a line break)" \
        in result["msg"]
    assert_no_leak("Zq8vW-Injx-77", result, piece=5)
    assert "acme" not in str(result)


STIG9_DROPIN = ["RHEL-09-611090", "RHEL-09-611110", "RHEL-09-611065", "RHEL-09-611070", "RHEL-09-611100",
                "RHEL-09-611130", "RHEL-09-611115", "RHEL-09-611125", "RHEL-09-611120", "RHEL-09-611105",
                "RHEL-09-611060", "RHEL-09-611010", "RHEL-09-611140", "RHEL-09-611135", "RHEL-09-671025",
                "RHEL-09-611050", "RHEL-09-611055"]


@pytest.mark.parametrize("dropin", [False, "false", "no"])
def test_without_the_drop_in_a_profile_is_not_met_on_the_installed_system(dropin):
    result = run(kickstart_pwquality_dropin=dropin)
    assert result["failed"]
    assert "kickstart_pwquality_dropin: is false, so the installed system gets none of the libpwquality settings " \
           "and /etc/login.defs lines stig (RHEL9) asks for (rules RHEL-09-611090, " in result["msg"]
    found = by_secret(result)["kickstart_pwquality_dropin"]
    assert (found["verdict"], found["stops"]) == ("error", True)
    assert result["profile"]["deviations"] == [
        "kickstart_pwquality_dropin is false, so the installed system gets none of the libpwquality settings and "
        "/etc/login.defs lines stig (RHEL9) asks for (rules %s): set it to true, or list %s in "
        "kickstart_profile_exceptions" % (", ".join(STIG9_DROPIN), ", ".join(STIG9_DROPIN))]


def test_without_the_drop_in_the_waived_rules_are_said_and_the_run_goes_on():
    result = run(kickstart_pwquality_dropin=False, kickstart_profile_exceptions=STIG9_DROPIN)
    assert not result.get("failed"), result["msg"]
    assert result["profile"]["deviations"] == [] and len(result["profile"]["waived"]) == 1
    assert result["warnings"] == ["web01: " + result["profile"]["waived"][0]]
    # With the drop-in (the default, or true) or without a profile there is nothing to waive.
    for changes in ({"kickstart_pwquality_dropin": True}, {"kickstart_pwquality_dropin": None}):
        assert run(**changes)["profile"]["deviations"] == []
    assert not run(profile="", kickstart_pwquality_dropin=False).get("failed")
