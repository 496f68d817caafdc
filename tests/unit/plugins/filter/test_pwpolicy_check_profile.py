# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""pwpolicy_check and pwpolicy_compliant by compliance profile and with a blocklist: reports, one warning per
conflict, errors that name what to give and never a secret (plain, tagged and vaulted values)."""

import hashlib

import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.kickstart.pwpolicy.plugins.filter import pwpolicy_check as filter_module
from ansible_collections.kickstart.pwpolicy.plugins.filter.pwpolicy_check import pwpolicy_check
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._blocklist import HINT, REASON
from ansible_collections.kickstart.pwpolicy.plugins.test.pwpolicy_compliant import pwpolicy_compliant
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak
from ansible_collections.kickstart.pwpolicy.tests.unit.samples import tagged

SECRET = "Xk9#mQ2!zLp7qR5@wT"
BREACHED = "Vq8!tRz#2mLwPs6@-Hk4Jd"


class Recorder(object):
    def __init__(self):
        self.warnings = []

    def warning(self, message):
        self.warnings.append(message)


@pytest.fixture
def display(monkeypatch):
    recorder = Recorder()
    monkeypatch.setattr(filter_module, "Display", lambda: recorder)
    monkeypatch.setattr(filter_module, "_WARNED", set())
    return recorder


@pytest.fixture
def corpus(tmp_path):
    digest = hashlib.sha1(BREACHED.encode("utf-8")).hexdigest().upper()
    path = tmp_path / "pwned-passwords.txt"
    path.write_text("".join("%s:%d\n" % (item, 4242) for item in sorted([digest, "0" * 40, "F" * 40])))
    return str(path)


def test_a_profile_check_through_the_filter_and_the_test(display):
    report = pwpolicy_check(tagged(SECRET), "root", profile="stig", target="RHEL9")
    assert report["ok"] and report["profile"] == {"names": ["stig"], "target": "RHEL9"} and report["conflicts"] == []
    weak = pwpolicy_check("xk9#mq2!zlp7qr5@wt", "root", profile=tagged("stig"), target=tagged("RHEL9"))
    assert weak["reasons"] == [
        "needs at least 1 upper-case letter, has 0 (stig: ucredit -1)",
        "needs characters from 4 classes (digits, upper-case letters, lower-case letters, symbols), has 3 "
        "(stig: minclass 4)"]
    assert pwpolicy_compliant(SECRET, "root", profile="stig", target="RHEL9") is True
    assert pwpolicy_compliant("xk9#mq2!zlp7qr5@wt", "root", profile="stig", target="RHEL9") is False
    # A weak password a non-strict policy would let through does not pass the profile's strict policy.
    assert pwpolicy_compliant("Xk9#mQ2!zLp7", "root", product="workstation") is True
    assert pwpolicy_compliant("Xk9#mQ2!zLp7", "root", product="workstation", profile="stig", target="RHEL9") is False
    assert display.warnings == [
        "pwpolicy_check: the compliance profiles stig for RHEL9, the policy or the settings disagree; the stricter "
        "value of each applies (the report's conflicts): root policy: minlen 8 as given is looser than the 15 asked "
        "by stig (stig rule RHEL-09-611090); the stricter 15 applies | root policy: strict false as given is looser "
        "than strict true in the policies of stig; the stricter true applies | root policy: emptyok true as given is "
        "looser than emptyok false in the policies of stig; the stricter false applies | root policy: changesok true "
        "as given is looser than changesok false in the policies of stig; the stricter false applies"]


def test_conflicting_profiles_are_one_warning_however_many_passwords(display):
    reports = [pwpolicy_check(password, "user", user="alice", profile=["stig", "nist_800_63b"], target="RHEL9")
               for password in (SECRET, "correct horse battery staple", "Passwordstandard", SECRET)]
    assert len(display.warnings) == 1
    assert display.warnings[0].startswith("pwpolicy_check: the compliance profiles stig, nist_800_63b for RHEL9, the "
                                          "policy or the settings disagree; the stricter value of each applies (the "
                                          "report's conflicts): stig requires a mixture of character types")
    assert all(report["conflicts"] == reports[0]["conflicts"] and len(report["conflicts"]) == 3 for report in reports)
    assert reports[2]["reasons"][-1] == REASON  # NIST asks for a blocklist: the shipped list
    for password, report in zip((SECRET, "correct horse battery staple", SECRET), (reports[0], reports[1], reports[3])):
        assert_no_leak(password, report, display.warnings, piece=5)


def test_the_blocklist_option_of_the_filter_and_the_test(display, corpus):
    report = pwpolicy_check(BREACHED, "root", product="server", blocklist=corpus)
    assert (report["reasons"], report["hints"], report["verdict"]) == ([REASON], [HINT], "rejected")
    assert "4242" not in repr(report) and corpus not in repr(report)
    assert_no_leak(BREACHED, report, piece=5)
    assert pwpolicy_compliant(BREACHED, "root", product="server") is True
    assert pwpolicy_compliant(BREACHED, "root", product="server", blocklist=[corpus]) is False
    # With a blocklist, the shipped list of common passwords applies too.
    assert pwpolicy_check("changeme", {"name": "root", "minlen": 6, "minquality": 0}, blocklist=corpus)["reasons"] \
        == ["is based on a dictionary word", REASON]
    assert display.warnings == []


def test_vaulted_profile_and_blocklist_values(vault, corpus):  # noqa: F811
    report = pwpolicy_check(vault(BREACHED), "root", profile=vault("stig"), target="RHEL9", blocklist=vault(corpus))
    assert report["reasons"] == [REASON] and report["profile"]["names"] == ["stig"]
    assert_no_leak(BREACHED, report, piece=5)


@pytest.mark.parametrize("kwargs,message", [
    (dict(profile="stgi", target="RHEL9"),
     r"^pwpolicy_check: unknown compliance profile 'stgi' \(did you mean 'stig'\?\): give one of stig, "),
    (dict(profile="stig"), "^pwpolicy_check: compliance profile stig needs a target release: give target, one of "
                           "RHEL8, RHEL9, RHEL10$"),
    (dict(profile="stig", target="F40"), "^pwpolicy_check: compliance profile 'stig' has no values for target "
                                         "'F40': give one of RHEL8, RHEL9, RHEL10$"),
    (dict(profile="stig", target="RHEL9", rules="installer"), "^pwpolicy_check: rules=installer cannot be combined "
                                                              "with a compliance profile or a blocklist"),
    (dict(blocklist="/srv/pwned/missing.txt"), "^pwpolicy_check: blocklist /srv/pwned/missing.txt: no such file "
                                               r"\(give a sorted file of SHA1:COUNT"),
    (dict(profile=SECRET, target="RHEL9"), "^pwpolicy_check: unknown compliance profile '?<hidden>'?: give one of"),
    (dict(profile="stig," + SECRET, target="RHEL9"),
     r"^pwpolicy_check: unknown compliance profile '<hidden>' \(name 2 of the 2 given\): give one of stig, "),
    (dict(profile=["stig", SECRET], target="RHEL9"),
     r"^pwpolicy_check: unknown compliance profile '<hidden>' \(name 2 of the 2 given\): give one of stig, "),
])
def test_bad_input_is_a_filter_error_naming_what_to_give(kwargs, message):
    with pytest.raises(AnsibleFilterError, match=message) as raised:
        pwpolicy_check(SECRET, "root", **kwargs)
    assert_no_leak(SECRET, str(raised.value), piece=5)
    with pytest.raises(AnsibleFilterError, match=message):
        pwpolicy_compliant(SECRET, "root", **kwargs)


def test_a_password_given_as_the_blocklist_is_not_named():
    with pytest.raises(AnsibleFilterError) as raised:
        pwpolicy_check(SECRET, "root", product="server", blocklist=SECRET)
    assert str(raised.value).startswith("pwpolicy_check: blocklist <hidden>: no such file")
    assert_no_leak(SECRET, str(raised.value), piece=5)


def test_the_filter_the_test_and_compliance_profile_match_profile_names_in_any_case(display):
    from ansible_collections.kickstart.pwpolicy.plugins.filter.compliance_profile import compliance_profile
    report = pwpolicy_check(SECRET, "root", profile="STIG, Nist_800_63B", target="RHEL9")
    assert report["profile"]["names"] == ["stig", "nist_800_63b"]
    assert pwpolicy_compliant(SECRET, "root", profile=["Stig"], target="RHEL9") is True
    assert compliance_profile("STIG", "RHEL9", others=["NIST_800_63B"])["name"] == "stig"
