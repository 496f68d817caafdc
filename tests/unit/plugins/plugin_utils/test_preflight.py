# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""plugin_utils/_preflight.py: one host's secrets turned into findings, verdicts and one message."""


import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._ks_content import input_problems
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import build_policies
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preflight import (
    PreflightError,
    check_all,
    check_fail_on,
    delivery_for,
    failure_message,
    is_secret,
    problem_findings,
    release_facts,
    secret,
    verdict_counts,
    trips,
    warnings_for,
)
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak
from ansible_collections.kickstart.pwpolicy.tests.unit.samples import tagged

STRONG = "Xk9#mQ2!zLp7qR5@wT-Vb3"
WEAK = "password1"


def findings_for(*items, product="server", target="RHEL9", pwpolicies=None):
    return check_all("web01", list(items), build_policies(pwpolicies, product=product, target=target, every_name=True))


def test_effective_policies_are_the_preset_overridden_field_by_field():
    policies = build_policies({"root": {"minlen": 20}}, product="server", target="RHEL9", every_name=True)
    assert policies["root"].minlen == 20
    assert policies["root"].minquality == build_policies(product="server", target="RHEL9", every_name=True)["root"].minquality
    assert sorted(policies) == ["luks", "root", "user"]


def test_without_a_product_omitted_fields_take_the_release_defaults():
    policies = build_policies({"user": {"minlen": 9}}, target="RHEL8", every_name=True)
    assert policies["user"].minlen == 9
    assert set(policies) == {"root", "user", "luks"}


def test_a_bad_product_or_override_is_a_preflight_error():
    with pytest.raises(PwpolicyError):
        build_policies(product="desktop", every_name=True)
    with pytest.raises(PwpolicyError):
        build_policies({"root": {"minlen": "long"}}, product="server", every_name=True)


def test_release_facts_gives_the_matrix_entry_or_none():
    assert release_facts(None) is None
    assert release_facts("") is None
    assert release_facts("rhel9")["name"] == "RHEL9"


@pytest.mark.parametrize("value, expected", [(None, "rejected"), ("weak", "weak"), ("never", "never")])
def test_fail_on_values(value, expected):
    assert check_fail_on(value) == expected


@pytest.mark.parametrize("value", ["WEAK", "all", 1, ""])
def test_fail_on_rejects_anything_else(value):
    with pytest.raises(PreflightError, match="fail_on must be one of rejected, weak, never"):
        check_fail_on(value)


def test_verdicts_of_strong_weak_and_unreadable_secrets():
    found = findings_for(
        secret("root", "root", value=STRONG, user="root"),
        secret("user:alice", "user", value=WEAK, user="alice"),
        secret("luks", "luks", error="cannot be decrypted", hint="use the right vault id"),
    )
    assert [(f["secret"], f["verdict"], f["ok"]) for f in found] == [
        ("root", "accepted", True), ("user:alice", "rejected", False), ("luks", "error", False)]
    assert found[1]["reasons"] and len(found[1]["hints"]) >= 1
    assert found[2]["reasons"] == ["cannot be decrypted"] and found[2]["hints"] == ["use the right vault id"]
    assert found[1]["policy"]["name"] == "user"
    assert verdict_counts(found) == {"accepted": 1, "accepted_weak": 0, "rejected": 1, "error": 1}


def test_a_non_string_secret_is_an_error_finding():
    (found,) = findings_for(secret("root", "root", value=12345678, user="root"))
    assert found["verdict"] == "error" and "is not a string (got a number)" in found["reasons"][0]


def test_a_checker_error_is_an_error_finding_without_the_value():
    def broken(value, policy, user=None):
        raise PwpolicyError("libpwquality has no dictionary")

    policies = build_policies(product="server", target="RHEL9", every_name=True)
    (found,) = check_all("web01", [secret("root", "root", value=STRONG, user="root")], policies, checker=broken)
    assert found["verdict"] == "error"
    assert "could not be checked: libpwquality has no dictionary" in found["reasons"][0]
    assert_no_leak(STRONG, found)


def test_a_secret_with_a_line_break_stops_whatever_its_policy_says():
    value = STRONG + "\nrootpw --plaintext x"
    (found,) = findings_for(secret("luks", "luks", value=value),
                            pwpolicies={"luks": {"strict": False, "minlen": 6, "minquality": 0}})
    assert found["verdict"] == "rejected" and found["stops"] is True
    assert any("line break" in reason for reason in found["reasons"])
    assert trips(found, "never")
    assert_no_leak(value, found)
    assert_no_leak("rootpw --plaintext x", found)


def test_weak_secrets_under_a_non_strict_policy_trip_only_fail_on_weak():
    (found,) = findings_for(secret("root", "root", value=WEAK, user="root"), product="workstation", target="F40")
    assert found["verdict"] == "accepted_weak" and found["ok"]
    assert not trips(found, "rejected") and trips(found, "weak") and not trips(found, "never")
    (warning,) = warnings_for([found], "rejected")
    assert warning.startswith("root: accepted by a policy that is not strict, but weak: ")
    assert "What to do: " in warning
    assert warnings_for([found], "weak") == []  # it fails the run instead


def test_error_and_rejected_trip_rejected_but_not_never():
    found = findings_for(secret("root", "root", value=WEAK, user="root"),
                         secret("luks", "luks", error="undefined", hint="define it"))
    assert [trips(f, "rejected") for f in found] == [True, True]
    assert [trips(f, "never") for f in found] == [False, False]


def test_one_message_names_every_failing_secret_with_reasons_and_hints_and_no_value():
    found = findings_for(
        secret("root", "root", value=WEAK, user="root"),
        secret("user:bob", "user", value=STRONG, user="bob"),
        secret("user:alice", "user", value="alice2024alice", user="alice"),
    )
    message = failure_message("web01", found, "rejected", "server, RHEL9")
    lines = message.split("\n")
    assert lines[0] == "web01 (server, RHEL9): 2 of 3 secrets fail (fail_on=rejected):"
    assert lines[1].startswith("  root (policy root): rejected: ")
    assert lines[2].startswith("  user:alice (policy user): rejected: ")
    assert "user:bob" not in message
    assert message.count("What to do:") == 1
    assert WEAK not in message and "alice2024alice" not in message
    assert failure_message("web01", found[1:2], "rejected") is None


def test_the_message_is_one_line_per_secret_naming_its_variable_then_each_hint_once():
    found = findings_for(
        secret("root", "root", value="short1", user="root"),
        secret("user:alice", "user", value="password", user="alice"),
        secret("luks", "luks", value="luks"),
        secret("bootloader", "root", value="grub", user="root"),
    )
    variables = {"root": "kickstart_root_password", "user:alice": "kickstart_users[0].password",
                 "luks": "kickstart_luks_passphrase", "bootloader": "kickstart_bootloader_password"}
    message = failure_message("web01", found, "rejected", "server, RHEL9", variables)
    lines = message.split("\n")
    assert lines[0] == "web01 (server, RHEL9): 4 of 4 secrets fail (fail_on=rejected):"
    assert [line.split(" (policy")[0] for line in lines[1:5]] == [
        "  kickstart_root_password: root", "  kickstart_users[0].password: user:alice",
        "  kickstart_luks_passphrase: luks", "  kickstart_bootloader_password: bootloader"]
    assert lines[5] == "What to do:"
    hints = [line.strip() for line in lines[6:]]
    # Each hint once, with the secrets it is for; every finding's hint is among them.
    assert len(hints) == len(set(hints)) and all(line.startswith("  ") for line in lines[6:])
    for finding in found:
        for hint in finding["hints"]:
            assert [h for h in hints if h.startswith(hint + " (") and finding["secret"] in h], hint
    assert not any("What to do" in line for line in lines[1:5])
    # Shorter than the old one line with every hint of every secret.
    assert len(message) < sum(len("; ".join(f["reasons"] + f["hints"])) for f in found) + 400


def test_the_count_is_of_secrets_only():
    problems = problem_findings("web01", [{"label": "kickstart_dest", "reasons": ["holds a newline"],
                                           "hints": ["give a path on one line"]}])
    secrets = findings_for(secret("root", "root", value=WEAK, user="root"),
                           secret("luks", "luks", value=STRONG))
    assert failure_message("web01", problems + secrets, "rejected").split("\n", maxsplit=1)[0] == \
        "web01: 1 of 2 secrets and 1 other value fail (fail_on=rejected):"
    assert failure_message("web01", problems + secrets[1:], "rejected").split("\n", maxsplit=1)[0] == \
        "web01: 0 of 1 secret and 1 other value fail (fail_on=rejected):"
    assert failure_message("web01", problems, "rejected").split("\n", maxsplit=1)[0] == \
        "web01: 1 value fails (fail_on=rejected):"
    assert [is_secret(f) for f in problems + secrets] == [False, True, True]


def test_input_problems_become_findings_that_always_stop_and_show_no_verdict():
    problems = input_problems(None, [{"name": "Bad Name\nrootpw x"}])
    found = problem_findings("web01", problems)
    assert [f["secret"] for f in found] == ["kickstart_users[0].name"]
    assert found[0]["verdict"] == "error" and found[0]["stops"] and found[0]["policy"] is None
    assert trips(found[0], "never")
    message = failure_message("web01", found, "never")
    assert message.startswith("web01: 1 value fails (fail_on=never):\n  kickstart_users[0].name: is not a valid "
                              "account name")
    assert "\nWhat to do:\n  " in message
    assert "rootpw" not in message


@pytest.mark.parametrize("target, delivery, flags", [
    ("RHEL9", "auto", {"section": True, "updates_image": False}),
    ("F40", "auto", {"section": False, "updates_image": True}),
    ("F34", "both", {"section": True, "updates_image": True}),
    ("RHEL8", "section", {"section": True, "updates_image": False}),
    ("RHEL10", "updates_image", {"section": False, "updates_image": True}),
])
def test_delivery_auto_picks_what_the_release_reads(target, delivery, flags):
    assert delivery_for(release_facts(target), delivery) == (flags, None)


@pytest.mark.parametrize("target, delivery, reason, auto", [
    ("F36", "section", "ignores a %anaconda pwpolicy section", "updates_image"),
    ("F40", "both", "ignores a %anaconda pwpolicy section", "updates_image"),
    ("RHEL8", "updates_image", "does not read password policies from anaconda configuration", "section"),
])
def test_a_delivery_the_installer_cannot_take_is_refused_with_what_to_use(target, delivery, reason, auto):
    flags, problem = delivery_for(release_facts(target), delivery)
    assert problem.startswith("kickstart_policy_delivery=%s cannot reach this installer: " % delivery)
    assert reason in problem
    assert problem.endswith("Use auto, which picks what the target reads (%s)." % auto)


def test_an_unknown_delivery_is_an_error():
    with pytest.raises(PreflightError, match="kickstart_policy_delivery must be one of auto, section"):
        delivery_for(release_facts("RHEL9"), "carrier-pigeon")


@pytest.mark.parametrize("value, kind", [
    (12345678, "a number"), (3.25, "a number"), (["Hv7!qPz2"], "a list"), (False, "a boolean"),
    ({"password": "Hv7!qPz2"}, "a mapping"),
])
@pytest.mark.parametrize("fail_on", ["rejected", "never"])
def test_a_non_string_secret_names_its_plain_type_and_always_stops(value, kind, fail_on):
    (found,) = findings_for(secret("user:alice", "user", value=tagged(value), user="alice"))
    assert found["verdict"] == "error" and found["reasons"] == ["is not a string (got %s)" % kind]
    message = failure_message("web01", [found], fail_on)
    assert message and "user:alice (policy user): error: is not a string (got %s)" % kind in message
    assert "Tagged" not in message and "(got int" not in message
    assert_no_leak("Hv7!qPz2", message)
    assert_no_leak("12345678", message)
