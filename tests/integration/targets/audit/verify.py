# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks one audit run's JSON and JUnit reports against the verdicts inventory.py expects.

  verify.py EXPECTED_JSON REPORT_JSON REPORT_XML FAIL_ON HOST_PREFIX [files]

With "files", the reports hold the findings of files too (verify_files.py
checks them): the hosts' part is checked alone.  Without it, any finding or
testsuite that is not a host's is a problem.  Prints each problem and exits 1
when there is one.
"""

import json
import sys
import xml.etree.ElementTree as ET

KEYS = ["host", "secret", "verdict", "ok", "score", "strength", "reasons", "hints", "policy"]
TRIPS = {"rejected": ("rejected", "error"), "weak": ("accepted_weak", "rejected", "error"), "never": ()}


def main(expected_file, json_file, xml_file, fail_on, prefix, files=None):
    problems = []
    with open(expected_file) as handle:
        expected = dict((key, verdict) for key, verdict in json.load(handle).items() if key.startswith(prefix))
    with open(json_file) as handle:
        findings = json.load(handle)
    got = {}
    if files:  # the files' findings have a file (and a null host)
        findings = [finding for finding in findings if finding.get("file") is None]
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
    suites = dict((suite.get("name"), suite) for suite in root.findall("testsuite")
                  if not files or suite.get("name") in hosts)
    if sorted(suites) != hosts:
        problems.append("JUnit suites %s, expected %s" % (sorted(suites), hosts))
    tripping = [(key, verdict) for key, verdict in expected.items() if verdict in TRIPS[fail_on]]
    # A secret that could not be checked is a JUnit error; one the policy rejects (or finds weak) a failure.
    wanted = dict(failure=sorted(key for key, verdict in tripping if verdict != "error"),
                  error=sorted(key for key, verdict in tripping if verdict == "error"))
    found = dict(failure=[], error=[])
    for name, suite in suites.items():
        cases = suite.findall("testcase")
        if suite.get("tests") != str(len(cases)):
            problems.append("suite %s: tests=%s but %d testcases" % (name, suite.get("tests"), len(cases)))
        for kind in ("failure", "error"):
            if suite.get(kind + "s") != str(sum(case.find(kind) is not None for case in cases)):
                problems.append("suite %s: %ss=%s does not count its cases" % (name, kind, suite.get(kind + "s")))
        for case in cases:
            for kind in ("failure", "error"):
                element = case.find(kind)
                if element is not None:
                    found[kind].append("%s %s" % (name, case.get("name")))
                    if "reason: " not in element.text or "hint: " not in element.text:
                        problems.append("%s %s: %s without reason or hint" % (name, case.get("name"), kind))
    for kind in ("failure", "error"):
        if sorted(found[kind]) != wanted[kind]:
            problems.append("JUnit %ss %s, expected %s" % (kind, sorted(found[kind]), wanted[kind]))
    totals = (root.get("tests"), root.get("failures"), root.get("errors"))
    if files:  # the hosts' suites add up to the hosts' part of the totals
        totals = tuple(str(sum(int(suite.get(key)) for suite in suites.values()))
                       for key in ("tests", "failures", "errors"))
    if totals != (str(len(expected)), str(len(wanted["failure"])), str(len(wanted["error"]))):
        problems.append("JUnit totals tests, failures, errors = %s, expected %d, %d, %d"
                        % (totals, len(expected), len(wanted["failure"]), len(wanted["error"])))
    failing = [key for key, _verdict in tripping]
    for problem in problems:
        print("verify: " + problem)
    print("verify: %d findings, %d failing under fail_on=%s, %d problems"
          % (len(findings), len(failing), fail_on, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
