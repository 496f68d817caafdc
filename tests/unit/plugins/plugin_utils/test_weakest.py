# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""One host's weakest link: the cheapest secret, the floors, the plain-http warning, the audit table, one secret
used twice."""

import sys

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _exposure as model
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _weakest
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preflight import secret
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak
from ansible_collections.kickstart.pwpolicy.tests.unit.samples import tagged

pytest.importorskip("zxcvbn")

ROOT = "Hv7!qPz2#Lm9@xR4wT6k"
ALICE = "Summer2024"
LUKS = "orbit lantern maple quartz drift"
YEAR = _weakest.WARN_SECONDS


def entries(**changes):
    options = model.options_from(True)
    options.update(hostname="web01.example.org", product="server", **changes)
    items = [secret("root", "root", value=ROOT, user="root"), secret("user:alice", "user", value=ALICE, user="alice"),
             secret("luks", "luks", value=LUKS)]
    return [_weakest.secret_entry(item, options) for item in items]


def test_the_weakest_link_is_the_cheapest_secret_and_attack():
    report = _weakest.host_report("web01", entries())
    assert report["weakest"]["secret"] == "user:alice"
    assert report["weakest"]["attack"] == "offline_sha512crypt"
    assert report["weakest"]["seconds"] < 3600
    assert "kickstart" in report["weakest"]["requires"]
    assert report["msg"].startswith("web01: weakest link user:alice: offline_sha512crypt (needs a copy of the kickstart")
    assert not report["failed"]


def test_below_the_warning_floor_warns_and_says_what_to_do():
    report = _weakest.host_report("web01", entries(), warn_seconds=YEAR)
    assert len(report["warnings"]) == 1
    warning = report["warnings"][0]
    assert "user:alice" in warning and "below 1.0 years (kickstart_warn_crack_seconds)" in warning
    assert "kickstart_password_hash_rounds" in warning
    assert "root:" not in warning  # the strong root password is not named
    assert _weakest.host_report("web01", entries(), warn_seconds=0)["warnings"] == []


def test_the_floor_fails_only_when_asked():
    assert not _weakest.host_report("web01", entries(), min_seconds=0)["failed"]
    report = _weakest.host_report("web01", entries(), min_seconds=YEAR)
    assert report["failed"] and "below kickstart_min_crack_seconds" in report["msg"]
    # A floor the host clears passes.
    strong = [entry for entry in entries() if entry["secret"] != "user:alice"]
    assert not _weakest.host_report("web01", strong, min_seconds=YEAR)["failed"]


def test_no_part_of_any_secret_in_any_field_or_message():
    report = _weakest.host_report("web01", entries(), warn_seconds=1e30, min_seconds=1e30)
    for value in (ROOT, ALICE, LUKS):
        assert_no_leak(value, report, piece=5)


@pytest.mark.parametrize("url, luks, hashes, warned", [
    ("http://boot.example.org/ks/", True, False, True),
    ("HTTP://boot.example.org/ks/", False, True, True),
    ("http://boot.example.org/ks/", False, False, False),
    ("https://boot.example.org/ks/", True, True, False),
    ("", True, True, False),
    ("nfs:server:/ks/", True, True, False),
])
def test_plain_http_warns_when_the_kickstart_holds_secrets(url, luks, hashes, warned):
    warning = _weakest.http_warning(url, luks, hashes)
    assert (warning is not None) == warned
    if warned:
        for alternative in ("HTTPS with client authentication", "short-lived URL", "rotate the LUKS passphrase",
                            "Clevis and Tang"):
            assert alternative in warning
        assert ("LUKS passphrase in plain text" in warning) == luks


def test_the_audit_table_has_a_row_per_host():
    reports = [_weakest.host_report("web01", entries()), {"host": "web02", "weakest": None, "note": "skipped"}]
    lines = _weakest.weakest_table(reports).splitlines()
    assert lines[0].split() == ["host", "secret", "attack", "time", "needs"]
    assert lines[1].split()[:3] == ["web01", "user:alice", "offline_sha512crypt"]
    assert lines[2].split()[:4] == ["web02", "-", "-", "-"] and lines[2].endswith("skipped")


def items():
    return [secret("root", "root", value=ROOT, user="root"), secret("user:alice", "user", value=ALICE, user="alice"),
            secret("luks", "luks", value=LUKS)]


def test_host_weakest_gives_the_fields_the_warnings_and_the_floor():
    options = _weakest.model_options({}, {"product": "server", "rounds": 656000}, "web01.example.org")
    fields, warnings, failed = _weakest.host_weakest("web01", items(), options, "http://boot.example.org/",
                                                     (YEAR, YEAR), require=False)
    assert fields["weakest"]["secret"] == "user:alice" and fields["estimated"] and fields["below_floor"] and failed
    assert fields["plain_http"] and any("plain http://" in text for text in warnings)
    assert any("kickstart_warn_crack_seconds" in text for text in warnings)
    assert_no_leak(ROOT, fields, warnings, piece=5)
    assert_no_leak(ALICE, fields, warnings, piece=5)
    assert_no_leak(LUKS, fields, warnings, piece=5)


def test_host_weakest_without_zxcvbn_notes_it_unless_required(monkeypatch):
    def missing(*args, **kwargs):
        raise _weakest.PwpolicyError("guess estimates need the Python package zxcvbn: pip install zxcvbn")

    monkeypatch.setattr(_weakest, "estimate_secret", missing)
    options = _weakest.model_options(None, {}, "web01")
    fields, warnings, failed = _weakest.host_weakest("web01", items(), options, "", (YEAR, 0), require=False)
    assert not fields["estimated"] and fields["weakest"] is None and not failed
    assert warnings == [fields["msg"]] and "pip install zxcvbn" in fields["msg"]
    for require, floors in ((True, (YEAR, 0)), (False, (YEAR, 60))):
        with pytest.raises(_weakest.PwpolicyError, match="web01: .*pip install zxcvbn"):
            _weakest.host_weakest("web01", items(), options, "", floors, require=require)


def test_without_zxcvbn_one_host_says_how_to_install_it_and_the_others_stay_quiet(monkeypatch):
    monkeypatch.setitem(sys.modules, "zxcvbn", None)  # import zxcvbn fails as where it is not installed
    options = _weakest.model_options(None, {}, "web01")
    seen = {}
    for host, notice in (("web01", True), ("web02", False)):
        seen[host] = _weakest.host_weakest(host, items(), options, "", (YEAR, 0), require=False, notice=notice)
    (fields, warnings, failed), (quiet_fields, quiet) = seen["web01"], seen["web02"][:2]
    assert not failed and not fields["estimated"] and not quiet_fields["estimated"]
    assert quiet == []
    assert len(warnings) == 1 and "web01" not in warnings[0] and "pip install zxcvbn" in warnings[0]
    assert quiet_fields["msg"] == "web02: weakest link not estimated: zxcvbn is not installed on the controller"


@pytest.mark.parametrize("value, message", [
    ("soon", "warn_seconds must be a number of seconds, got str"),
    (-1, "warn_seconds must not be negative"),
])
def test_seconds_arg_refuses_what_is_not_a_duration(value, message):
    with pytest.raises(_weakest.PwpolicyError, match="check_secrets: " + message):
        _weakest.seconds_arg(value, "warn_seconds", "check_secrets")


def test_model_options_take_the_given_values_over_the_estimate_and_a_default_host():
    options = _weakest.model_options({"rounds": 5000, "fips": True}, {"rounds": 10000, "product": None}, "h1")
    assert (options["rounds"], options["fips"], options["hostname"]) == (10000, True, "h1")
    with pytest.raises(_weakest.PwpolicyError, match="estimate must be a dict"):
        _weakest.model_options("yes", {}, "h1")


@pytest.mark.parametrize("value, kind", [
    (12345678, "a number"), (1234.5, "a number"), (["Hv7!qPz2"], "a list"), (True, "a boolean"),
    ({"password": "Hv7!qPz2"}, "a mapping"),
])
def test_a_secret_that_is_not_a_string_is_named_not_estimated(value, kind):
    items = [secret("root", "root", value=tagged(value), user="root"), secret("luks", "luks", value=LUKS)]
    fields, warnings, failed = _weakest.host_weakest("web01", items, model.options_from(True), "", (YEAR, 0), True)
    assert [entry["secret"] for entry in fields["secrets"]] == ["luks"]
    (named,) = [text for text in warnings if "root" in text]
    assert "web01: root is not a string (got %s), not estimated" % kind in named
    assert "Tagged" not in repr((fields, warnings)) and "int" not in named and not failed
    assert_no_leak("Hv7!qPz2", (fields, warnings))
    assert_no_leak("12345678", (fields, warnings))


def test_no_line_of_the_audit_table_is_longer_than_120():
    host = "web-" + "x" * 200 + ".example.org"
    reports = [_weakest.host_report(host, entries()), {"host": "h" * 40, "weakest": None, "note": "n " * 80},
               {"host": "web02", "weakest": None, "note": "skipped"}]
    lines = _weakest.weakest_table(reports).splitlines()
    assert max(len(line) for line in lines) <= 120
    secret = lines[0].index("secret")
    assert "".join(line[:secret].strip() for line in lines[1:]) == host + "h" * 40 + "web02"  # all of each name
    assert [line.split()[0] for line in lines if not line.startswith(" ")][-1] == "web02"


def test_the_audit_table_escapes_control_characters_in_host_names():
    reports = [_weakest.host_report("web\x1b[2J\n01", entries()), {"host": "h\u202e2", "weakest": None, "note": "n\r"}]
    lines = _weakest.weakest_table(reports).splitlines()
    assert len(lines) == 3
    assert lines[1].startswith("web\\x1b[2J\\x0a01  ") and lines[2].startswith("h\\u202e2 ")
    assert lines[2].endswith("n\\x0d")


class _Check(object):
    """check_secrets' weakest-link step, with its task arguments given as they are."""

    def __new__(cls, weakest):
        from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_check import SecretsCheck
        from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_reader import SecretReader

        return SecretsCheck(SecretReader(lambda value: value), {"weakest": weakest})


@pytest.mark.parametrize("target, kept", [("F24", True), ("F25", False), ("RHEL9", False), ("F23", False)])
def test_the_pre_flight_counts_the_installed_copy_where_no_boot_option_stops_it(target, kept):
    from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import release_info

    items = [secret("root", "root", value=ROOT, user="root"), secret("luks", "luks", value=LUKS)]
    plain = {"product": "server", "target": target}
    fields, _warnings, _failed = _Check({"rounds": 656000}).weakest("web01", plain, items, {}, release_info(target))
    attacks = dict((entry["secret"], [found["attack"] for found in entry["exposures"]]) for entry in fields["secrets"])
    assert ("root_copy_sha512crypt" in attacks["root"]) is kept
    assert ("root_copy_plaintext" in attacks["luks"]) is kept
    # An estimate that says otherwise wins.
    fields, _warnings, _failed = _Check({"estimate": {"input_ks_copy": True}}).weakest(
        "web01", plain, items, {}, release_info(target))
    assert "root_copy_plaintext" in [found["attack"] for found in fields["secrets"][1]["exposures"]]


SHARED = "Lantern-Orbit-57"


def shared_items(bootloader=SHARED):
    return [secret("root", "root", value=SHARED, user="root"), secret("user:alice", "user", value=ALICE, user="alice"),
            secret("luks", "luks", value=SHARED), secret("bootloader", "root", value=bootloader, user="root")]


def test_one_password_for_root_luks_and_the_boot_loader_is_a_finding():
    options = _weakest.model_options({}, {"product": "server"}, "web01.example.org")
    fields, warnings, failed = _weakest.host_weakest("web01", shared_items(), options, "", (0, 0), require=False)
    (found,) = fields["reused"]
    assert found["secrets"] == ["root", "luks", "bootloader"]
    assert "root, luks and bootloader are the same secret" in found["reason"]
    assert "an offline attack on the LUKS header of the disk gives root and bootloader too" in found["reason"]
    assert "the kickstart holds the LUKS passphrase in plain text" in found["reason"]
    assert "the weakest of them: root: offline_sha512crypt" in found["reason"]
    assert "a secret of its own" in found["hint"]
    assert ["web01: %s; %s" % (found["reason"], found["hint"])] == [text for text in warnings if "same secret" in text]
    assert not failed  # said, not enforced
    # The boot loader's password is compared, never estimated.
    assert [entry["secret"] for entry in fields["secrets"]] == ["root", "user:alice", "luks"]
    assert_no_leak(SHARED, fields, warnings, piece=5)


def test_secrets_that_differ_are_no_finding_and_two_accounts_sharing_one_are():
    options = _weakest.model_options({}, {}, "web01")
    fields, warnings, dummy = _weakest.host_weakest("web01", items(), options, "", (0, 0), require=False)
    assert fields["reused"] == [] and warnings == []
    two = [secret("root", "root", value=ALICE, user="root"), secret("user:alice", "user", value=ALICE, user="alice"),
           secret("luks", "luks", value=LUKS)]
    fields, warnings, dummy = _weakest.host_weakest("web01", two, options, "", (0, 0), require=False)
    (found,) = fields["reused"]
    assert found["secrets"] == ["root", "user:alice"]
    assert found["reason"].startswith("root and user:alice are the same secret: whoever finds it for one has both")
    assert "LUKS" not in found["reason"]


def test_reuse_is_said_without_zxcvbn_too(monkeypatch):
    monkeypatch.setitem(sys.modules, "zxcvbn", None)
    options = _weakest.model_options(None, {}, "web01")
    fields, warnings, dummy = _weakest.host_weakest("web01", shared_items(), options, "", (YEAR, 0), require=False)
    assert not fields["estimated"] and fields["reused"][0]["secrets"] == ["root", "luks", "bootloader"]
    assert "weakest of them" not in fields["reused"][0]["reason"]
    assert any("same secret" in text for text in warnings)


def test_the_audit_table_says_which_secrets_are_one_under_the_table():
    options = _weakest.model_options({}, {}, "web01")
    fields = _weakest.host_weakest("web01", shared_items(), options, "", (0, 0), require=False)[0]
    lines = _weakest.weakest_table([fields, {"host": "web02", "weakest": None, "note": "skipped"}]).splitlines()
    assert lines[0].split() == ["host", "secret", "attack", "time", "needs"] and len(lines) > 4
    assert lines[3].startswith("web01: root, luks and bootloader are the same secret: ")
    assert all(line.startswith("    ") for line in lines[4:]) and max(len(line) for line in lines) <= 120
    assert_no_leak(SHARED, lines, piece=5)


def test_the_pre_flight_compares_the_boot_loader_password_with_the_others():
    from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import release_info

    fields, warnings, dummy = _Check({}).weakest("web01", {"product": "server", "target": "RHEL9"}, shared_items(),
                                                 {}, release_info("RHEL9"))
    assert fields["reused"][0]["secrets"] == ["root", "luks", "bootloader"]
    assert "bootloader" not in [entry["secret"] for entry in fields["secrets"]]
    assert_no_leak(SHARED, fields, warnings, piece=5)


def test_the_weakest_link_action_reads_the_boot_loader_password_to_compare_it():
    from ansible_collections.kickstart.pwpolicy.plugins.action.weakest_link import ActionModule

    action = object.__new__(ActionModule)
    action._template, action._templar = (lambda value: value), None
    task_vars = {"kickstart_root_password": SHARED, "kickstart_luks_passphrase": SHARED,
                 "kickstart_bootloader_password": SHARED}
    items = action._read_secrets({"role_vars": True}, task_vars)
    assert [item["secret"] for item in items] == ["root", "luks", "bootloader"]
    fields = _weakest.host_weakest("web01", items, _weakest.model_options({}, {}, "web01"), "", (0, 0), False)[0]
    assert fields["reused"][0]["secrets"] == ["root", "luks", "bootloader"]
    assert [entry["secret"] for entry in fields["secrets"]] == ["root", "luks"]
