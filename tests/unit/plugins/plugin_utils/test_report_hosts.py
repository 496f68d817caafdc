# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""plugin_utils/_report.py with an installed host's findings: a file on the host and a line, rule ids, waivers.

The verify playbook's findings are a host's (its rows, its JUnit suite, its
failure) and name where on the host each was found: SARIF locates them at
``file://HOST/path`` and the line, under their own rule ids.
"""

import json
import re
import xml.etree.ElementTree as ET

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._audit_files import RULES
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._report import (
    FINGERPRINT,
    clean,
    findings_table,
    host_failures,
    host_uri,
    outcome,
    to_json,
    to_junit,
    to_sarif,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._verify import finding
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.plugin_utils.test_report import FILES, FINDINGS

HOSTS = [
    finding("web01", "minlen", "rejected", ["rule RHEL-09-611010: minlen = 8; stig (RHEL9) asks minlen = 15"],
            ["write minlen = 15 in /etc/security/pwquality.conf"], ["RHEL-09-611010"],
            {"file": "/etc/security/pwquality.conf", "line": 12}),
    finding("web01", "leftover:/root/original-ks.cfg", "rejected", ["/root/original-ks.cfg keeps 1 secret"],
            ["delete the file"], ["kickstart.pwpolicy.leftover_secret"], {"file": "/root/original-ks.cfg"}),
    finding("web01", "encryption", "not_checked", ["not checked: which file systems"], ["check it by hand"],
            ["RHEL-09-231190"]),
    finding("web01", "leftovers", "accepted", ["no kickstart left"]),
    finding("db 02", "difok", "rejected", ["difok = 1"], ["write difok = 8"], ["RHEL-09-611015", "RHEL-09-611020"],
            {"file": "/etc/security/pwquality.conf", "line": 3}, waiver="kickstart_profile_exceptions lists them"),
    finding("db 02", "kickstart_target", "accepted", ["the host runs RHEL9"], rules=["kickstart.pwpolicy.target"]),
]


def sarif(findings):
    return json.loads(to_sarif([clean(f) for f in findings]))


def test_a_host_finding_keeps_its_file_line_and_rules_and_stays_a_hosts():
    cleaned = clean(dict(HOSTS[0], extra="dropped"))
    assert (cleaned["host"], cleaned["file"], cleaned["line"], cleaned["rules"]) == (
        "web01", "/etc/security/pwquality.conf", 12, ["RHEL-09-611010"])
    assert "extra" not in cleaned and "command" not in cleaned  # not a file's finding
    entries = json.loads(to_json([clean(f) for f in HOSTS]))
    assert entries[1]["file"] == "/root/original-ks.cfg" and entries[1]["line"] is None
    assert "file" not in entries[2] and entries[2]["rules"] == ["RHEL-09-231190"]
    assert (entries[4]["waived"], entries[4]["waiver"]) == (True, "kickstart_profile_exceptions lists them")
    # The table shows the host (not a file), with the reasons under the row.
    text = findings_table([clean(f) for f in HOSTS])
    assert text.splitlines()[0].startswith("HOST ") and "\nweb01  " in text
    assert "minlen = 8; stig (RHEL9) asks minlen = 15" in text
    assert re.search(r"^db 02  difok +rejected \(waived\)$", text, re.M)


def test_installed_hosts_findings_are_counted_as_findings_not_secrets():
    found = [clean(f) for f in HOSTS]
    failing, message = outcome(found, "rejected", ["web01", "db 02", "web03"])
    assert [f["secret"] for f in failing] == ["minlen", "leftover:/root/original-ks.cfg"]
    assert message.startswith("2 of 6 findings on 1 of 3 hosts fail (fail_on=rejected)")
    assert host_failures(found, "rejected") == {
        "web01": "2 of 4 findings fail (fail_on=rejected): minlen rejected, leftover:/root/original-ks.cfg rejected"}
    assert outcome(found, "never", ["web01"])[1].startswith("6 findings on 2 hosts checked, none fails")
    # A host's secrets are still secrets.
    assert host_failures([clean(f) for f in FINDINGS], "rejected")["web01"].startswith("1 of 2 secrets fail")


def test_junit_has_a_suite_per_host_with_waived_and_not_checked_skipped():
    root = ET.fromstring(to_junit([clean(f) for f in HOSTS], "rejected", name="kickstart.pwpolicy verify"))
    suites = dict((suite.get("name"), suite) for suite in root.findall("testsuite"))
    assert sorted(suites) == ["db 02", "web01"]
    web = suites["web01"]
    assert (web.get("tests"), web.get("failures"), web.get("skipped")) == ("4", "2", "1")
    assert "RHEL-09-611010" in web.find("testcase/failure").get("message")
    assert suites["db 02"].get("skipped") == "1"


def test_sarif_locates_a_hosts_finding_at_the_file_on_the_host():
    run = sarif(FINDINGS + FILES + HOSTS)["runs"][0]
    driver = run["tool"]["driver"]
    ids = [rule["id"] for rule in driver["rules"]]
    # The files' rules first, as they were (their indexes do not move), then the hosts' rules, once each.
    assert ids[:len(RULES)] == [rule[0] for rule in RULES]
    assert ids[len(RULES):] == ["RHEL-09-611010", "kickstart.pwpolicy.leftover_secret", "RHEL-09-611015"]
    for rule in driver["rules"][len(RULES):]:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
    hosts = [r for r in run["results"] if "host" in r.get("properties", {})]
    rows = [(r["ruleId"], ids[r["ruleIndex"]], r["level"], r["locations"][0]["physicalLocation"]["artifactLocation"],
             r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in hosts]
    assert rows == [
        ("RHEL-09-611010", "RHEL-09-611010", "error", {"uri": "file://web01/etc/security/pwquality.conf"}, 12),
        ("kickstart.pwpolicy.leftover_secret", "kickstart.pwpolicy.leftover_secret", "error",
         {"uri": "file://web01/root/original-ks.cfg"}, 1),
        ("RHEL-09-611015", "RHEL-09-611015", "error", {"uri": "file://db%2002/etc/security/pwquality.conf"}, 3)]
    assert hosts[0]["message"]["text"] == ("minlen on web01: rule RHEL-09-611010: minlen = 8; stig (RHEL9) asks "
                                           "minlen = 15. What to do: write minlen = 15 in /etc/security/pwquality.conf")
    assert hosts[2]["properties"] == {"host": "db 02", "profileRules": ["RHEL-09-611015", "RHEL-09-611020"]}
    assert hosts[2]["suppressions"][0]["justification"] == "kickstart_profile_exceptions lists them"
    assert all(len(r["partialFingerprints"][FINGERPRINT]) == 64 for r in hosts)
    # Not in it: a finding without a file on the host (encryption), an accepted one, a host's secret.
    assert len(run["results"]) == 5 + 3


def test_the_host_uri_is_rfc_8089s_form_with_the_host():
    assert host_uri("web01.example.org", "/etc/login.defs") == "file://web01.example.org/etc/login.defs"
    assert host_uri("db 02", "/etc/a b#c") == "file://db%2002/etc/a%20b%23c"
    assert host_uri("h", "relative") == "file://h/relative"
