# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The posture_info module: the posture of a kickstart, its deviations from profiles, and no secret in either."""

import os

from ansible_collections.kickstart.pwpolicy.plugins.modules import posture_info as module
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak
from ansible_collections.kickstart.pwpolicy.tests.unit.module_runner import module_calls
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.module_utils.test_host_disk import (  # noqa: F401  pylint: disable=unused-import
    GRUB_SECRET,
    headers,
)
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.module_utils.test_posture import (
    GRUB,
    SECRET,
    SHA,
    STIG_RHEL9,
    without,
)
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.module_utils.test_posture_host import ROOT_SECRET, host

run, ok, fail = module_calls(module.main)


def test_a_kickstart_that_meets_the_stig(capsys):
    result = ok(capsys, content=STIG_RHEL9, profile=["stig"])
    assert result["changed"] is False and result["target"] == "RHEL9"
    assert (result["deviations"], result["waived"], result["not_checked"]) == ([], [], [])
    assert [account["form"] for account in result["posture"]["accounts"]] == ["crypt", "crypt"]
    for value in (SECRET, SHA, GRUB):
        assert_no_leak(value, result)


def test_a_deviation_names_rule_line_and_fix_and_an_exception_waives_it(capsys, tmp_path):
    path = tmp_path / "web01.ks"
    path.write_text(without(STIG_RHEL9, "bootloader "))
    os.chmod(str(path), 0o600)
    before = path.read_bytes()
    result = ok(capsys, path=str(path), profile=["stig"], check_mode=True)
    assert [(d["rule"], d["found"], d["where"]) for d in result["deviations"]] == [
        ("RHEL-09-212010", "no bootloader line", None)]
    waived = ok(capsys, path=str(path), profile=["stig"], exceptions=["RHEL-09-212010"])
    assert waived["deviations"] == [] and [d["rule"] for d in waived["waived"]] == ["RHEL-09-212010"]
    assert path.read_bytes() == before


def test_without_a_profile_only_the_posture(capsys):
    result = ok(capsys, content=STIG_RHEL9)
    assert result["deviations"] == [] and result["posture"]["autopart"]["encrypted"] is True
    assert result["posture"]["login_defs"]["SHA_CRYPT_MIN_ROUNDS"]["value"] == 100000


def test_a_profile_needs_a_rhel_target(capsys):
    message = fail(capsys, content=STIG_RHEL9.replace("#version=RHEL9", "#version=F40"), profile=["stig"])
    assert message == ("profile: the compliance profiles are for RHEL8, RHEL9, RHEL10; give target (the "
                       "kickstart is for F40)")


def test_a_nul_is_an_error_naming_the_line_without_the_text(capsys):
    result = run(capsys, content=STIG_RHEL9.replace("text\n", "te\0xt\n"))
    assert result["failed"] and result["lineno"] == 2 and "NUL" in result["msg"]
    assert_no_leak(SECRET, result)


def test_policies_the_section_must_ask_at_least(capsys):
    text = STIG_RHEL9 + "%anaconda\npwpolicy root --minlen=10 --minquality=1 --strict --nochanges --notempty\n%end\n"
    result = ok(capsys, content=text, policies={"root": {"minlen": 12, "strict": True}, "luks": {"minlen": 20}})
    assert [(d["rule"], d["found"]) for d in result["deviations"]] == [
        ("policies.root.minlen", "pwpolicy root --minlen=10"),
        ("policies.luks", "no pwpolicy luks line: the installer's own policy applies")]
    assert result["deviations"][0]["profile"] is None and result["deviations"][0]["where"]["line"] > 30
    waived = ok(capsys, content=text, policies={"root": {"minlen": 12}}, exceptions=["policies.root.minlen"])
    assert waived["deviations"] == [] and [d["rule"] for d in waived["waived"]] == ["policies.root.minlen"]
    # RHEL 10 takes its policies from anaconda configuration: the kickstart holds none to judge.
    rhel10 = ok(capsys, content="#version=RHEL10\nrootpw --lock\n", policies={"root": {"minlen": 12}})
    assert rhel10["deviations"] == [] and [d["rule"] for d in rhel10["not_checked"]] == ["policies.root"]
    bad = fail(capsys, content=text, policies={"root": {"minlenght": 12}})
    assert bad.startswith("policies: ") and "minlenght" in bad


def test_profile_names_in_any_case_and_a_typo_shown_with_a_suggestion(capsys):
    assert ok(capsys, content=STIG_RHEL9, profile=["STIG"]) == ok(capsys, content=STIG_RHEL9, profile=["stig"])
    assert fail(capsys, content=STIG_RHEL9, profile=["stig", "ospq"]).startswith(
        "profile: unknown compliance profile 'ospq' (name 2 of the 2 given, did you mean 'ospp'?): give one of stig, ")
    message = fail(capsys, content=STIG_RHEL9, profile=[SECRET])
    assert message.startswith("profile: unknown compliance profile '<hidden>': give one of stig, ")
    assert_no_leak(SECRET, message, piece=5)


def test_an_installed_host_under_root_with_its_luks_header(capsys, tmp_path, headers):  # noqa: F811
    root, hashed = host(tmp_path, "rhel9-stig", 5000)
    result = ok(capsys, source="host", root=root, devices=[headers["luks2"]], profile=["stig"], check_mode=True)
    assert result["target"] == "RHEL9" and result["posture"]["source"] == "host"
    assert [d["rule"] for d in result["deviations"]] == ["RHEL-09-611050"]
    assert result["posture"]["devices"][0]["keyslots"][0]["kdf"]["type"] == "argon2id"
    for value in (ROOT_SECRET, hashed, GRUB_SECRET):
        assert_no_leak(value, result)


def test_an_installed_host_takes_no_path_and_needs_a_rhel_release_for_a_profile(capsys, tmp_path):
    assert fail(capsys, source="host", root=str(tmp_path), content="rootpw --lock\n") == (
        "source=host reads the host itself (or root): give no path or content")
    message = fail(capsys, source="host", root=str(tmp_path), profile=["stig"])
    assert message == ("profile: the compliance profiles are for RHEL8, RHEL9, RHEL10; give target (the host under "
                       "%s is for no release it names)" % tmp_path)
