# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""plugin_utils/_report.py: the audit's table, JSON and JUnit XML over many hosts' findings."""

import json
import os
import stat
import xml.etree.ElementTree as ET

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preflight import error_finding
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._report import (
    KEYS,
    ReportError,
    clean,
    gather,
    outcome,
    findings_table,
    to_json,
    to_junit,
    write_report,
)


def finding(host, label, verdict, reasons=(), hints=(), **extra):
    found = {"host": host, "secret": label, "verdict": verdict, "ok": verdict.startswith("accepted"),
             "score": 50 if verdict.startswith("accepted") else 0, "strength": "fair",
             "reasons": list(reasons), "hints": list(hints), "policy": {"name": label.split(":")[0]}}
    found.update(extra)
    return found


FINDINGS = [
    finding("web01", "root", "accepted"),
    finding("web01", "user:alice", "rejected", ["shorter than 15 characters (has 8)"], ["add at least 7 more"]),
    finding("db01", "luks", "accepted_weak", ["is too simple"], ["use more character classes"]),
    finding("db01", "root", "error", ["cannot be decrypted"], ["use the right vault id"]),
]


def test_clean_keeps_the_report_keys_only():
    cleaned = clean(dict(FINDINGS[1], extra="dropped"))
    assert list(cleaned) == list(KEYS)
    assert "stops" not in clean(dict(FINDINGS[1], stops=True))  # the audit renders nothing: never only reports


@pytest.mark.parametrize("bad", [{"secret": "root", "verdict": "accepted"}, "root", dict(FINDINGS[0], verdict="ok")])
def test_clean_refuses_findings_of_the_wrong_shape(bad):
    with pytest.raises(ReportError):
        clean(bad)


def test_gather_reports_a_host_whose_check_did_not_run():
    results = {"web01": {"findings": FINDINGS[:2]}, "db01": None}
    found = gather(results, ["web01", "db01"])
    assert [(f["host"], f["secret"], f["verdict"]) for f in found] == [
        ("web01", "root", "accepted"), ("web01", "user:alice", "rejected"), ("db01", "check", "error")]


def test_table_has_a_header_and_one_line_per_secret():
    lines = findings_table(FINDINGS).splitlines()
    assert lines[0].split() == ["HOST", "SECRET", "VERDICT", "REASONS", "HINTS"]
    assert len(lines) == 1 + len(FINDINGS)
    assert lines[2].split()[:3] == ["web01", "user:alice", "rejected"]
    assert "add at least 7 more" in lines[2]


@pytest.mark.parametrize("fail_on, failing", [("rejected", 2), ("weak", 3), ("never", 0)])
def test_outcome_counts_what_trips_fail_on(fail_on, failing):
    found, message = outcome(FINDINGS, fail_on)
    assert len(found) == failing
    if failing:
        assert message.startswith("%d of 4 secrets on 2 of 2 hosts fail (fail_on=%s)" % (failing, fail_on))
    else:
        assert message.startswith("4 secrets on 2 hosts checked, none fails (fail_on=never)")


def test_json_is_one_object_per_secret_with_the_documented_keys():
    data = json.loads(to_json(FINDINGS))
    assert len(data) == 4 and all(list(item) == list(KEYS) for item in data)
    assert data[1]["reasons"] == ["shorter than 15 characters (has 8)"]


def test_junit_has_a_suite_per_host_a_case_per_secret_and_failures_per_fail_on():
    root = ET.fromstring(to_junit(FINDINGS, "rejected"))
    assert root.tag == "testsuites" and root.get("tests") == "4"
    assert (root.get("failures"), root.get("errors")) == ("1", "1")  # the error finding is an error, not a failure
    suites = {suite.get("name"): suite for suite in root.findall("testsuite")}
    assert sorted(suites) == ["db01", "web01"]
    web = suites["web01"]
    assert [case.get("name") for case in web.findall("testcase")] == ["root", "user:alice"]
    failure = web.find("testcase[@name='user:alice']/failure")
    assert failure.get("type") == "rejected"
    assert "reason: shorter than 15 characters (has 8)" in failure.text and "hint: add at least 7 more" in failure.text
    assert suites["db01"].find("testcase[@name='luks']/failure") is None  # weak passes under rejected
    assert "is too simple" in suites["db01"].find("testcase[@name='luks']/system-out").text
    weak = ET.fromstring(to_junit(FINDINGS, "weak"))
    assert (weak.get("failures"), weak.get("errors")) == ("2", "1")
    assert ET.fromstring(to_junit(FINDINGS, "never")).get("errors") == "0"


def test_junit_reports_a_secret_that_could_not_be_checked_as_an_error():
    root = ET.fromstring(to_junit(FINDINGS, "rejected"))
    db = root.find("testsuite[@name='db01']")
    assert (db.get("tests"), db.get("failures"), db.get("errors")) == ("2", "0", "1")
    error = db.find("testcase[@name='root']/error")
    assert error.get("type") == "error" and "reason: cannot be decrypted" in error.text
    assert db.find("testcase[@name='root']/failure") is None
    web = root.find("testsuite[@name='web01']")
    assert (web.get("failures"), web.get("errors")) == ("1", "0")


def test_outcome_counts_the_hosts_audited_those_without_secrets_included():
    hosts = ["web01", "db01", "empty01"]
    assert outcome(FINDINGS, "rejected", hosts)[1].startswith("2 of 4 secrets on 2 of 3 hosts fail")
    assert outcome(FINDINGS, "never", hosts)[1].startswith("4 secrets on 3 hosts checked")


def test_reports_escape_what_xml_cannot_hold_raw():
    found = [finding("h<1>", "user:a&b", "rejected", ['has "quotes" & <tags>'], ["x"])]
    root = ET.fromstring(to_junit(found, "rejected"))
    assert root.find("testsuite").get("name") == "h<1>"
    assert 'has "quotes" & <tags>' in root.find("testsuite/testcase/failure").get("message")


def test_write_report_is_atomic_and_readable(tmp_path):
    path = write_report(str(tmp_path / "audit.json"), "[]\n")
    assert open(path).read() == "[]\n"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o644
    assert os.listdir(str(tmp_path)) == ["audit.json"]


def test_write_report_into_a_missing_directory_says_what_to_do(tmp_path):
    with pytest.raises(ReportError, match="does not exist \\(create it first\\)"):
        write_report(str(tmp_path / "missing" / "audit.xml"), "<x/>")


def test_an_error_finding_has_every_report_key():
    found = error_finding("web01", "root", None, "cannot be decrypted", "use the right vault id")
    assert set(KEYS) <= set(found)


# Host names (and any value) with characters XML 1.0 forbids or a terminal obeys.
HOSTILE = "web\x01\x1b[31m\x0b01\n\u2028\ud800"


def test_junit_stays_well_formed_with_control_characters_and_surrogates_in_any_value():
    found = [finding(HOSTILE, "user:a\x02", "rejected", ["bad\x00reason\ud83d"], ["hint\x1f"])]
    text = to_junit(found, "rejected")
    root = ET.fromstring(text.encode("utf-8"))  # encodes (no lone surrogate) and parses (no forbidden character)
    suite = root.find("testsuite")
    assert suite.get("name") == "web\\x01\\x1b[31m\\x0b01\\x0a\\u2028\\ud800"
    assert suite.find("testcase").get("name") == "user:a\\x02"
    failure = suite.find("testcase/failure")
    assert "bad\\x00reason\\ud83d" in failure.get("message")
    assert "reason: bad\\x00reason\\ud83d\nhint: hint\\x1f" in failure.text  # line breaks of the text kept


def test_the_table_shows_control_characters_escaped_one_line_per_secret():
    lines = findings_table([finding(HOSTILE, "root", "rejected", ["r\r\n"], ["h\x85"])]).splitlines()
    assert len(lines) == 2
    assert lines[1].startswith("web\\x01\\x1b[31m\\x0b01\\x0a\\u2028\\ud800  root")
    assert "r\\x0d\\x0a" in lines[1] and lines[1].endswith("h\\x85")


def test_write_report_refuses_text_utf8_cannot_encode_and_leaves_no_file(tmp_path):
    target = tmp_path / "audit.xml"
    target.write_text("old\n")
    with pytest.raises(ReportError, match="cannot be encoded as UTF-8.*nothing was written"):
        write_report(str(target), "<x>\ud800</x>")
    assert os.listdir(str(tmp_path)) == ["audit.xml"] and target.read_text() == "old\n"


def test_write_report_leaves_no_temporary_file_when_the_rename_fails(tmp_path):
    (tmp_path / "audit.xml").mkdir()  # a directory in the way: the rename fails after the write
    with pytest.raises(ReportError, match="cannot write the report"):
        write_report(str(tmp_path / "audit.xml"), "[]\n")
    assert os.listdir(str(tmp_path)) == ["audit.xml"]


def test_the_run_message_shows_failing_host_names_escaped():
    _failing, message = outcome([finding(HOSTILE, "root", "rejected", ["r"], ["h"])], "rejected")
    assert "hosts: web\\x01\\x1b[31m\\x0b01\\x0a\\u2028\\ud800" in message
    assert "\x1b" not in message and "\n" not in message
