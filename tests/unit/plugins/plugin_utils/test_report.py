# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""plugin_utils/_report.py: the audit's table, JSON and JUnit XML over many hosts' findings."""

import hashlib
import json
import os
import stat
import xml.etree.ElementTree as ET

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _audit_files
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preflight import error_finding
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._report import (
    FILE_KEYS,
    FINGERPRINT,
    KEYS,
    SARIF_SCHEMA,
    ReportError,
    clean,
    files_failure,
    fingerprint,
    gather,
    host_failures,
    outcome,
    findings_table,
    sarif_uri,
    to_json,
    to_junit,
    to_sarif,
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


def test_table_has_a_header_a_row_per_secret_and_its_reasons_and_hints_under_it():
    lines = findings_table(FINDINGS).splitlines()
    assert lines[0].split() == ["HOST", "SECRET", "VERDICT"]
    assert lines[1].split() == ["web01", "root", "accepted"]  # nothing to say: one line
    assert lines[2].split() == ["web01", "user:alice", "rejected"]
    assert lines[3:5] == ["    reason: shorter than 15 characters (has 8)", "    hint:   add at least 7 more"]
    assert len(lines) == 1 + len(FINDINGS) + 2 * 3


LONG_REASON = ("libpwquality scores it 9, below this policy's minquality of 30, and it is shorter than the profile "
               "asks: " + "every word of this reason is kept " * 12)
LONG_HINT = "make it longer or less predictable; " * 10


@pytest.mark.parametrize("host, path", [
    ("web01", "ks/server.ks"),
    ("web-" + "x" * 200 + ".example.org", "kickstarts/" + "deep/" * 40 + "server.ks"),
    ("h" * 59, "p" * 61),
])
def test_no_line_of_the_table_is_longer_than_120_and_nothing_is_lost(host, path):
    found = [finding(host, "user:" + "a" * 32, "accepted_weak", [LONG_REASON], [LONG_HINT]),
             finding(host, "root", "rejected", ["shorter than 15 characters (has 9)"], ["add 6 more"], waived=True),
             file_finding(path, 12345, "rootpw", "root", ["plaintext", "known_weak"])]
    lines = findings_table(found).splitlines()
    assert max(len(line) for line in lines) <= 120, [line for line in lines if len(line) > 120]
    # Every character of every cell is in its column, in order; every reason and hint is under its row.
    rows, details, under = [], [], False
    for line in lines[1:]:  # a row's lines (what wraps in its columns), then the lines under it
        under = line.lstrip().startswith(("reason:", "hint:")) or (under and line.startswith(" "))
        (details if under else rows).append(line)
    secret, verdict = lines[0].index("SECRET"), lines[0].index("VERDICT")
    assert "".join(line[:secret].strip() for line in rows) == host + host + path + ":12345"
    assert "".join(line[secret:verdict].strip() for line in rows) == "user:" + "a" * 32 + "root" + "rootpw"
    assert [line[verdict:] for line in rows if line[verdict:].strip()] == [
        "accepted_weak", "rejected (waived)", "rejected"]
    details = " ".join(" ".join(details).split())
    for text in (LONG_REASON, LONG_HINT):
        assert " ".join(text.split()) in details
    assert lines[0].split()[:3] == ["HOST", "OR", "FILE"]


def test_a_long_reason_wraps_under_the_row_with_a_hanging_indent():
    lines = findings_table([finding("ws02", "root", "accepted_weak", [LONG_REASON])]).splitlines()
    assert lines[1].split() == ["ws02", "root", "accepted_weak"]
    assert lines[2].startswith("    reason: libpwquality scores it 9")
    assert len(lines) > 3 and all(line.startswith(" " * 12) and line[12] != " " for line in lines[3:])


def test_a_host_name_longer_than_its_column_wraps_within_it():
    host = "h" * 70
    lines = findings_table([finding(host, "root", "rejected", ["short"]), finding("b", "luks", "accepted")]).splitlines()
    assert lines[1] == "h" * 60 + "  root    rejected"
    assert lines[2] == "  " + "h" * 10  # the rest, indented: not a row of its own
    assert lines[3] == "    reason: short"
    assert lines[4].split() == ["b", "luks", "accepted"]


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


def test_the_table_shows_control_characters_escaped_one_line_per_text():
    lines = findings_table([finding(HOSTILE, "root", "rejected", ["r\r\n"], ["h\x85"])]).splitlines()
    assert len(lines) == 4
    assert lines[1].startswith("web\\x01\\x1b[31m\\x0b01\\x0a\\u2028\\ud800  root")
    assert lines[2:] == ["    reason: r\\x0d\\x0a", "    hint:   h\\x85"]


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


# ---------------------------------------------------------------------------
# Files' findings beside the hosts', and SARIF
# ---------------------------------------------------------------------------
def file_finding(path, line, command, account, ids, reasons=None):
    """A file's finding as plugin_utils/_audit_files.py makes one (its own constructor, with made-up words)."""
    found = {"host": None, "secret": _audit_files.secret_label(command, account), "file": path, "line": line,
             "command": command, "account": account, "form": "plaintext" if "plaintext" in ids else "crypt",
             "scheme": None, "cost": None, "tried": None, "findings": list(ids),
             "reasons": reasons or ["reason of %s" % i for i in ids], "hints": ["hint of %s" % i for i in ids],
             "verdict": _audit_files.verdict_of(ids), "score": None, "strength": None, "policy": None}
    found["ok"] = found["verdict"] != "rejected"
    return found


FILES = [
    file_finding("ks/server.ks", 3, "rootpw", "root", ["plaintext"]),
    file_finding("ks/server.ks", 4, "user", "ops", ["legacy_scheme", "known_weak"]),
    file_finding("ks/server.ks", 9, "part", None, []),
    file_finding("ks/old.ks", 2, "rootpw", "root", ["low_cost"]),
    _audit_files.unreadable("ks/blob.ks", "file ks/blob.ks is not UTF-8 text (byte 3); it must be UTF-8", "fix it"),
    _audit_files.unmatched("moved/*.ks"),
]


def sarif(findings):
    return json.loads(to_sarif(findings))


def test_a_file_s_finding_keeps_its_keys_and_a_host_s_its_own():
    data = json.loads(to_json(FINDINGS[:1] + FILES[:1]))
    assert list(data[0]) == list(KEYS)
    assert list(data[1]) == list(FILE_KEYS) and (data[1]["file"], data[1]["line"]) == ("ks/server.ks", 3)
    assert list(clean(dict(FILES[1], extra=1))) == list(FILE_KEYS)


def test_the_table_names_a_file_s_row_by_file_and_line():
    lines = findings_table(FINDINGS[:1] + FILES).splitlines()
    assert lines[0].split()[:5] == ["HOST", "OR", "FILE", "SECRET", "VERDICT"]
    assert lines[1].split()[:3] == ["web01", "root", "accepted"]
    rows = [line.split()[:3] for line in lines if not line.startswith(" ")]
    assert rows[3] == ["ks/server.ks:4", "user:ops", "rejected"]
    assert rows[6] == ["ks/blob.ks", "file", "error"]
    assert findings_table(FINDINGS).splitlines()[0].split()[0] == "HOST"  # hosts alone: as before


def test_the_message_counts_files_and_names_patterns_that_match_no_file():
    files = ["ks/server.ks", "ks/old.ks", "ks/blob.ks", "ks/empty.ks"]
    assert outcome(FILES, "rejected", [], files)[1].startswith(
        # The file that cannot be read and the pattern are no secrets: counted apart.
        "2 of 4 secrets and 2 other findings in 2 of 4 files fail (fail_on=rejected): 1 accepted, 1 accepted_weak, "
        "2 rejected, 2 error; "
        "files: ks/blob.ks, ks/server.ks; patterns that match no file: moved/*.ks")
    assert outcome(FILES, "weak", ["web01"], files)[1].startswith(
        "3 of 4 secrets and 2 other findings on 0 of 1 hosts and in 3 of 4 files fail (fail_on=weak)")
    assert outcome(FILES[2:3], "rejected", None, ["ks/server.ks"])[1] == (
        "1 secrets in 1 files checked, none fails (fail_on=rejected): 1 accepted")
    assert outcome(FINDINGS + FILES[:1], "never", ["web01", "db01"], ["ks/server.ks"])[1].startswith(
        "5 secrets on 2 hosts and in 1 files checked, none fails")
    # Files' findings handed over without the list of files are counted by their own files.
    assert outcome(FILES[:2], "rejected")[1].startswith("2 of 2 secrets in 1 of 1 files fail")


def test_junit_has_a_suite_per_file_and_a_case_per_secret_with_its_line():
    root = ET.fromstring(to_junit(FINDINGS + FILES, "rejected"))
    suites = {suite.get("name"): suite for suite in root.findall("testsuite")}
    assert sorted(suites) == ["db01", "ks/blob.ks", "ks/old.ks", "ks/server.ks", "moved/*.ks", "web01"]
    server = suites["ks/server.ks"]
    cases = server.findall("testcase")
    assert [c.get("name") for c in cases] == ["rootpw (line 3)", "user:ops (line 4)", "part (line 9)"]
    assert (cases[1].get("file"), cases[1].get("line"), cases[1].get("classname")) == ("ks/server.ks", "4",
                                                                                       "ks/server.ks")
    assert (server.get("tests"), server.get("failures"), server.get("errors")) == ("3", "2", "0")
    assert suites["ks/old.ks"].find("testcase/failure") is None  # low_cost is weak: passes under rejected
    assert suites["ks/blob.ks"].find("testcase/error") is not None
    assert suites["moved/*.ks"].find("testcase").get("file") is None  # a pattern is no file
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("10", "3", "3")


def test_sarif_has_the_required_shape_of_2_1_0():
    log = sarif(FINDINGS + FILES)
    assert (log["version"], log["$schema"]) == ("2.1.0", SARIF_SCHEMA)
    assert len(log["runs"]) == 1
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "kickstart.pwpolicy"
    ids = [rule["id"] for rule in driver["rules"]]
    assert ids == ["plaintext", "legacy_scheme", "low_cost", "known_weak", "policy", "unparsed", "not_checked",
                   "deviation", "unreadable"]
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"] and rule["help"]["text"]
        assert rule["defaultConfiguration"]["level"] in ("note", "warning", "error")  # note: not checked
    assert run["invocations"][0]["executionSuccessful"] is True
    for result in run["results"]:
        assert ids[result["ruleIndex"]] == result["ruleId"]
        assert result["level"] in ("none", "note", "warning", "error")
        assert result["message"]["text"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uri"] and location["region"]["startLine"] >= 1
        assert list(result["partialFingerprints"]) == [FINGERPRINT]
        assert len(result["partialFingerprints"][FINGERPRINT]) == 64


def test_sarif_has_one_result_per_finding_of_a_file_and_no_host():
    results = sarif(FINDINGS + FILES)["runs"][0]["results"]
    rows = [(r["ruleId"], r["level"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
             r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results]
    assert rows == [("plaintext", "error", "ks/server.ks", 3), ("legacy_scheme", "warning", "ks/server.ks", 4),
                    ("known_weak", "error", "ks/server.ks", 4), ("low_cost", "warning", "ks/old.ks", 2),
                    ("unreadable", "error", "ks/blob.ks", 1)]
    assert results[2]["message"]["text"] == "user:ops: reason of known_weak. What to do: hint of known_weak"
    assert results[4]["message"]["text"].startswith("file ks/blob.ks is not UTF-8 text")
    assert all(r["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
               for r in results)
    assert not any("web01" in json.dumps(r) or "db01" in json.dumps(r) for r in results)


def test_a_pattern_that_matches_no_file_is_a_tool_notification_not_a_result():
    run = sarif(FILES[-1:])["runs"][0]
    assert run["results"] == []
    note = run["invocations"][0]["toolExecutionNotifications"][0]
    assert note["level"] == "error" and note["message"]["text"].startswith(
        "kickstart_audit_paths pattern moved/*.ks matches no file")


def test_sarif_without_files_is_an_empty_run():
    run = sarif(FINDINGS)["runs"][0]
    assert run["results"] == [] and "toolExecutionNotifications" not in run["invocations"][0]


def fingerprints(findings):
    return [r["partialFingerprints"][FINGERPRINT] for r in sarif(findings)["runs"][0]["results"]]


def test_fingerprints_are_stable_when_lines_move_and_differ_between_findings():
    moved = [dict(f, line=f["line"] + 12) if f.get("line") else f for f in FILES]
    assert fingerprints(FILES) == fingerprints(moved)
    assert len(set(fingerprints(FILES))) == len(fingerprints(FILES))


def test_a_fingerprint_takes_nothing_from_the_account():
    # An account comes out of an option's value (a URL's user part may be a token): it is not hashed.
    other_account = [dict(FILES[1], account="dba", secret="user:dba")]
    assert fingerprints(other_account) == fingerprints(FILES[1:2])
    token = "ghp_Wq3Zr8Ty1Uk5Ip9Ol2Nm7Bv4Cx6Za0Sd3Fg8"
    url = file_finding("ks/a.ks", 3, "url", token, ["plaintext"])
    assert fingerprints([url]) == fingerprints([dict(url, account=None)])


def test_two_alike_findings_of_one_file_get_two_fingerprints_by_their_order():
    twice = [file_finding("ks/a.ks", 5, "part", None, ["plaintext"]),
             file_finding("ks/a.ks", 9, "part", None, ["plaintext"])]
    first, second = fingerprints(twice)
    assert first != second
    assert fingerprints([dict(twice[0], line=1), dict(twice[1], line=2)]) == [first, second]


def test_a_fingerprint_is_the_sha256_of_path_command_rule_and_order_only():
    # Nothing of an option's value goes in: the value is computed from the documented fields alone.
    expected = hashlib.sha256("ks/server.ks\0user\0known_weak\x000".encode()).hexdigest()
    assert fingerprint("ks/server.ks", "user", "known_weak", 0) == expected
    result = sarif(FILES[1:2])["runs"][0]["results"][1]
    assert result["partialFingerprints"] == {FINGERPRINT: expected}
    assert FINGERPRINT == "kickstartPwpolicy/v2"


def test_a_token_in_a_url_shows_in_no_report(tmp_path):
    # The whole path: the file read as the audit reads it, then every report of it.
    token, other = "ghp_Wq3Zr8Ty1Uk5Ip9Ol2Nm7Bv4Cx6Za0Sd3Fg8", "yumtok3nAbCdEf0123456789"
    path = tmp_path / "repo.ks"
    path.write_text("url --url=https://%s:x-oauth-basic@github.com/org/os\n"
                    "repo --name=x --baseurl=https://%s:@yum.example.com/el9/\n" % (token, other))
    found = _audit_files.file_findings(str(path), budget=0)
    assert [(f["secret"], f["account"], f["findings"]) for f in found] == [
        ("url credentials", None, ["plaintext"]), ("repo credentials", None, ["plaintext"])]
    reports = (findings_table(found), to_json(found), to_junit(found, "rejected"), to_sarif(found))
    for secret in (token, other):
        assert_no_leak(secret, reports)
        digest = hashlib.sha256(secret.encode()).hexdigest()
        assert digest not in "".join(reports)


@pytest.mark.parametrize("path, uri, base", [
    ("ks/server.ks", "ks/server.ks", "%SRCROOT%"),
    ("ks/my kick#start%.ks", "ks/my%20kick%23start%25.ks", "%SRCROOT%"),
    ("c:evil.ks", "c%3Aevil.ks", "%SRCROOT%"),  # never read as a scheme
    ("/srv/ks/a b.ks", "file:///srv/ks/a%20b.ks", None),
    ("ks/\udcff.ks", "ks/%FF.ks", "%SRCROOT%"),  # a name that is not UTF-8, as Python reads it
])
def test_sarif_uris_are_uri_references(path, uri, base):
    assert sarif_uri(path) == (uri, base)


def test_the_sarif_driver_has_the_collections_version():
    import yaml
    from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _report
    from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import ROOT
    with open(os.path.join(ROOT, "galaxy.yml")) as handle:
        version = yaml.safe_load(handle)["version"]
    driver = json.loads(to_sarif([]))["runs"][0]["tool"]["driver"]
    assert driver["version"] == _report.TOOL_VERSION == version


def test_each_failing_host_gets_a_short_message_naming_what_fails():
    found = FINDINGS + [finding("web02", "root", "accepted")] + FILES
    assert host_failures(found, "rejected") == {
        "web01": "1 of 2 secrets fail (fail_on=rejected): user:alice rejected",
        "db01": "1 of 2 secrets fail (fail_on=rejected): root error"}
    assert host_failures(found, "weak")["db01"] == "2 of 2 secrets fail (fail_on=weak): luks accepted_weak, root error"
    assert host_failures(found, "never") == {}
    many = [finding("big", "user:u%02d" % i, "rejected", ["r"]) for i in range(12)]
    assert host_failures(many, "rejected")["big"].endswith("user:u09 rejected and 2 more")
    assert_no_leak("reason of", host_failures(found, "weak"))  # what fails, not why: the table says why


def test_the_files_failure_counts_and_names_the_files_alone():
    files = ["ks/server.ks", "ks/old.ks", "ks/blob.ks"]
    message = files_failure(FINDINGS + FILES, "rejected", files)
    assert message.startswith("2 of 4 secrets and 2 other findings in 2 of 3 files fail (fail_on=rejected): ")
    assert "files: ks/blob.ks, ks/server.ks" in message and "patterns that match no file: moved/*.ks" in message
    assert "host" not in message
    assert files_failure(FINDINGS + FILES[2:3], "rejected", files) is None
