# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks one audit run's JSON and JUnit reports against the verdicts inventory.py expects.

  verify.py EXPECTED_JSON REPORT_JSON REPORT_XML FAIL_ON HOST_PREFIX

Prints each problem and exits 1 when there is one.
"""

import json
import sys
import xml.etree.ElementTree as ET

KEYS = ["host", "secret", "verdict", "ok", "score", "strength", "reasons", "hints", "policy"]
TRIPS = {"rejected": ("rejected", "error"), "weak": ("accepted_weak", "rejected", "error"), "never": ()}


def main(expected_file, json_file, xml_file, fail_on, prefix):
    problems = []
    with open(expected_file) as handle:
        expected = dict((key, verdict) for key, verdict in json.load(handle).items() if key.startswith(prefix))
    with open(json_file) as handle:
        findings = json.load(handle)
    got = {}
    for finding in findings:
        if list(finding) != KEYS:
            problems.append("finding keys %s, expected %s" % (list(finding), KEYS))
        got["%s %s" % (finding["host"], finding["secret"])] = finding["verdict"]
        if finding["verdict"] != "accepted" and not (finding["reasons"] and finding["hints"]):
            problems.append("%s %s: %s without reasons and hints"
                            % (finding["host"], finding["secret"], finding["verdict"]))
    if got != expected:
        for key in sorted(set(got) | set(expected)):
            if got.get(key) != expected.get(key):
                problems.append("%s: verdict %s, expected %s" % (key, got.get(key), expected.get(key)))
    root = ET.parse(xml_file).getroot()
    hosts = sorted(set(key.split()[0] for key in expected))
    suites = dict((suite.get("name"), suite) for suite in root.findall("testsuite"))
    if sorted(suites) != hosts:
        problems.append("JUnit suites %s, expected %s" % (sorted(suites), hosts))
    failing = sorted(key for key, verdict in expected.items() if verdict in TRIPS[fail_on])
    found = []
    for name, suite in suites.items():
        cases = suite.findall("testcase")
        if suite.get("tests") != str(len(cases)):
            problems.append("suite %s: tests=%s but %d testcases" % (name, suite.get("tests"), len(cases)))
        for case in cases:
            failure = case.find("failure")
            if failure is not None:
                found.append("%s %s" % (name, case.get("name")))
                if "reason: " not in failure.text or "hint: " not in failure.text:
                    problems.append("%s %s: failure without reason or hint" % (name, case.get("name")))
    if sorted(found) != failing:
        problems.append("JUnit failures %s, expected %s" % (sorted(found), failing))
    if root.get("failures") != str(len(failing)) or root.get("tests") != str(len(expected)):
        problems.append("JUnit totals tests=%s failures=%s, expected %d and %d"
                        % (root.get("tests"), root.get("failures"), len(expected), len(failing)))
    for problem in problems:
        print("verify: " + problem)
    print("verify: %d findings, %d failing under fail_on=%s, %d problems"
          % (len(findings), len(failing), fail_on, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
