# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""check_secrets by compliance profile and with a blocklist (plugin_utils/_secrets_check.py).

Without them its arguments and results are what they were; with them each
secret is checked by the profiles' settings and compared with the lists, the
result says where the profiles, the policies and the settings disagree (and
one warning), and bad input is an error finding or a failure that names what
to give.  No result holds a secret.
"""

import hashlib

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.action.check_secrets import ActionModule
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._action import check_arguments
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._blocklist import HINT, REASON
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_check import (
    CHECK_ARGUMENT_SPEC,
    SecretsCheck,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_reader import SecretReader
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak

ROOT = "Xk9#mQ2!zLp7qR5@wT"
ALICE = "Hq4$nV8&cW2@rT6!yB"
LUKS = "correct horse battery staple"
KEYS = {"changed", "findings", "release", "summary", "fail_on", "policies", "msg", "passed"}


def run(**args):
    result = SecretsCheck(SecretReader(lambda value: value), args).run({}, {"inventory_hostname": "web01"})[0]
    assert_no_leak(ROOT, result, piece=5)
    assert_no_leak(ALICE, result, piece=5)
    return result


def secrets(**changes):
    args = dict(product="server", target="RHEL9", root_password=ROOT, users=[{"name": "alice", "password": ALICE}],
                luks_passphrase=LUKS)
    args.update(changes)
    return args


def by_secret(result):
    return dict((finding["secret"], finding) for finding in result["findings"])


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "pwned.txt"
    digests = sorted([hashlib.sha1(ALICE.encode("utf-8")).hexdigest().upper(), "0" * 40, "F" * 40])
    path.write_text("".join("%s:%d\n" % (digest, 31337) for digest in digests))
    return str(path)


def test_without_profile_or_blocklist_the_result_is_what_it_was():
    result = run(**secrets())
    assert set(result) == KEYS
    assert "profile" not in result and "conflicts" not in result and "warnings" not in result
    assert [finding["verdict"] for finding in result["findings"]] == ["accepted", "accepted", "accepted"]
    assert set(run(**secrets(profile=None, blocklist=None))) == set(result)


def test_the_action_takes_profile_and_blocklist():
    check_arguments("check_secrets", ActionModule.ARGUMENT_SPEC, dict(secrets(), profile=["stig"], blocklist="/x"))
    assert set(ActionModule.ARGUMENT_SPEC) == set(CHECK_ARGUMENT_SPEC) | {"profile", "blocklist"}


def test_each_secret_is_checked_by_the_profile_and_the_result_says_so():
    result = run(**secrets(profile="stig", fail=False))
    found = by_secret(result)
    assert found["root"]["verdict"] == "accepted" and found["user:alice"]["verdict"] == "accepted"
    assert found["luks"]["verdict"] == "rejected"
    assert found["luks"]["reasons"] == [
        "has more than 4 characters of one class in a row (stig: maxclassrepeat 4)",
        "needs at least 1 digit, has 0 (stig: dcredit -1)",
        "needs at least 1 upper-case letter, has 0 (stig: ucredit -1)",
        "needs characters from 4 classes (digits, upper-case letters, lower-case letters, symbols), has 2 "
        "(stig: minclass 4)"]
    assert found["luks"]["hints"][1:] == ["add a digit", "add an upper-case ASCII letter",
                                          "add a digit and an upper-case ASCII letter"]
    assert result["profile"] == {"names": ["stig"], "target": "RHEL9"}
    assert result["conflicts"] == [] and "warnings" not in result
    # Server's preset is stricter where it is (LUKS 20 characters, quality 30): it stays.
    assert result["policies"]["luks"] == {"name": "luks", "minlen": 20, "minquality": 30, "strict": True,
                                          "emptyok": False, "changesok": False}
    assert result["failed"] is False and "luks (policy luks): rejected: " in result["msg"]


def test_a_looser_product_gives_way_to_the_profile_and_one_warning_says_so():
    result = run(**secrets(product="workstation", root_password="Xk9#mQ2!zLp7", profile=["nist_800_63b", "stig"],
                           fail=False))
    assert by_secret(result)["root"]["reasons"] == ["shorter than 15 characters (has 12)"]
    assert "root policy: minlen 8 as given is looser than the 15 asked by nist_800_63b, stig (nist_800_63b rule " \
           "SP 800-63B-4 3.1.1.2 length; stig rule RHEL-09-611090); the stricter 15 applies" in result["conflicts"]
    assert result["conflicts"][0].startswith("stig requires a mixture of character types")
    assert len(result["warnings"]) == 1 and result["warnings"][0].startswith(
        "the compliance profiles nist_800_63b, stig for RHEL9, the policies or the settings disagree; the stricter "
        "value of each applies (conflicts): stig requires a mixture")
    assert_no_leak("Xk9#mQ2!zLp7", result, piece=5)


def test_a_breached_secret_is_a_finding_without_the_entry(corpus):
    result = run(**secrets(blocklist=corpus))
    alice = by_secret(result)["user:alice"]
    assert (alice["verdict"], alice["reasons"], alice["hints"]) == ("rejected", [REASON], [HINT])
    assert "31337" not in repr(result) and "profile" not in result and "conflicts" not in result
    assert result["failed"] is True and "user:alice (policy user): rejected: " + REASON in result["msg"]
    # The shipped list comes with the blocklist: a common LUKS passphrase is refused too, and not without it.
    common = run(**secrets(blocklist=corpus, luks_passphrase="q1w2e3r4t5y6u7i8o9p0"))
    assert REASON in by_secret(common)["luks"]["reasons"]
    assert REASON not in by_secret(run(**secrets(luks_passphrase="q1w2e3r4t5y6u7i8o9p0")))["luks"]["reasons"]


def test_nist_asks_for_the_shipped_list():
    result = run(**secrets(profile="nist_800_63b", luks_passphrase="q1w2e3r4t5y6u7i8o9p0"))
    assert REASON in by_secret(result)["luks"]["reasons"]


def test_an_unknown_profile_or_a_target_without_values_is_an_error_finding_for_each_secret():
    result = run(**secrets(profile="stgi", fail=False))
    assert [finding["verdict"] for finding in result["findings"]] == ["error"] * 3
    assert result["findings"][0]["reasons"] == [
        # (a typo of a profile name is shown, with the name it is close to)
        "its policy could not be resolved: check_secrets: profile: unknown compliance profile 'stgi' (did you mean "
        "'stig'?): give one of stig, cis_server_l1, cis_server_l2, cis_workstation_l1, cis_workstation_l2, ospp, "
        "pci_dss, anssi, nist_800_63b"]
    assert result["findings"][0]["hints"] == [
        "fix kickstart_product, kickstart_target, kickstart_pwpolicies or the compliance profile (kickstart_profile)"]
    failed = run(**secrets(profile="stig", target="F40"))
    assert failed["failed"] is True and failed["msg"] == ("check_secrets: compliance profile 'stig' has no values "
                                                          "for target 'F40': give one of RHEL8, RHEL9, RHEL10")
    # Without a profile, the hint is what it was.
    bad = run(**secrets(product="laptop", fail=False))
    assert bad["findings"][0]["hints"] == ["fix kickstart_product, kickstart_target or kickstart_pwpolicies"]


@pytest.mark.parametrize("profile", ["stig,Vq7-Hj3k-Zr9w", "stig, Vq7-Hj3k-Zr9w", ["stig", "Vq7-Hj3k-Zr9w"]])
@pytest.mark.parametrize("exceptions", [None, []])
def test_an_unknown_profile_among_others_is_hidden_as_one_alone(profile, exceptions):
    # exceptions=[]: the role's check by profile (the role and the audit give kickstart_profile_exceptions).
    args = secrets(profile=profile, fail=False)
    if exceptions is not None:
        args["profile_exceptions"] = exceptions
    result = run(**args)
    reasons = [reason for finding in result["findings"] for reason in finding["reasons"]]
    assert reasons and all(reason.endswith(
        "check_secrets: profile: unknown compliance profile '<hidden>' (name 2 of the 2 given): give one of stig, "
        "cis_server_l1, cis_server_l2, cis_workstation_l1, cis_workstation_l2, ospp, pci_dss, anssi, nist_800_63b")
        for reason in reasons)
    assert_no_leak("Vq7-Hj3k-Zr9w", result, piece=5)


def test_an_unusable_blocklist_fails_before_any_secret_is_read(tmp_path):
    read = []
    reader = SecretReader(lambda value: read.append(value) or value)
    args = secrets(blocklist=str(tmp_path / "missing.txt"))
    result = SecretsCheck(reader, args).run({}, {"inventory_hostname": "web01"})[0]
    assert result == {"failed": True, "changed": False,
                      "msg": "check_secrets: blocklist %s: no such file (give a sorted file of SHA1:COUNT (40 "
                             "hexadecimal digits, a colon, a count), sorted by the hash, or a range directory)"
                             % (tmp_path / "missing.txt")}
    assert ROOT not in read and LUKS not in " ".join(str(value) for value in read)


def test_a_corpus_that_breaks_during_a_check_is_an_error_finding_naming_it(tmp_path):
    broken = tmp_path / "broken.txt"
    broken.write_text("this is no corpus\n")
    result = run(**secrets(blocklist=str(broken), fail=False))
    found = result["findings"][0]
    assert found["verdict"] == "error" and found["hints"] == ["fix or replace the blocklist, then run again"]
    assert found["reasons"][0].startswith("could not be checked: blocklist %s: a line is not SHA1:COUNT" % broken)


def test_the_role_names_its_variables_shows_a_typo_and_matches_names_in_any_case():
    # role_vars: the role's own check (kickstart_profile), its messages without the action's name.
    result = run(**secrets(profile="stgi", role_vars=True, fail=False))
    assert result["findings"][0]["reasons"] == [
        "its policy could not be resolved: kickstart_profile: unknown compliance profile 'stgi' (did you mean "
        "'stig'?): give one of stig, cis_server_l1, cis_server_l2, cis_workstation_l1, cis_workstation_l2, ospp, "
        "pci_dss, anssi, nist_800_63b"]
    assert result["passed"] is False and run(**secrets())["passed"] is True
    missing = run(**secrets(profile="stig", target=None, role_vars=True))
    assert missing["msg"].startswith("compliance profile stig needs a target release: give kickstart_target, one of")
    assert run(**secrets(profile="STIG", target="rhel9"))["profile"] == {"names": ["stig"], "target": "RHEL9"}
