# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the files' part of one audit run's JSON, JUnit and SARIF reports against what files.py expects.

  verify_files.py EXPECTED_JSON REPORT_JSON REPORT_XML REPORT_SARIF FAIL_ON PATH_PREFIX [FINGERPRINTS_OUT]

The SARIF report is checked for the required shape of SARIF 2.1.0 and for one
result per finding of a file (none for a host).  Only the expected findings
of paths that start with PATH_PREFIX are looked for.  FINGERPRINTS_OUT gets one
line per result, "RULE URI FINGERPRINT", for comparing runs.  Prints each
problem and exits 1 when there is one.
"""

import json
import sys
import xml.etree.ElementTree as ET

FILE_KEYS = ["host", "secret", "verdict", "ok", "score", "strength", "reasons", "hints", "policy",
             "file", "line", "command", "account", "form", "scheme", "cost", "tried", "findings"]
TRIPS = {"rejected": ("rejected", "error"), "weak": ("accepted_weak", "unparsed", "rejected", "error"), "never": ()}
LEVELS = {"plaintext": "error", "known_weak": "error", "policy": "error", "legacy_scheme": "warning",
          "low_cost": "warning", "unparsed": "warning", "not_checked": "note", "deviation": "error",
          "unreadable": "error"}
SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


def key_of(finding):
    where = finding["file"] + (":%d" % finding["line"] if finding["line"] else "")
    return "%s %s" % (where, finding["secret"])


def check_json(expected, findings, problems):
    got = {}
    for finding in findings:
        if finding.get("host") is not None:
            continue
        if list(finding) != FILE_KEYS:
            problems.append("file finding keys %s, expected %s" % (list(finding), FILE_KEYS))
            continue
        got[key_of(finding)] = [finding["verdict"], finding["findings"]]
        if finding["verdict"] != "accepted" and not (finding["reasons"] and finding["hints"]):
            problems.append("%s: %s without reasons and hints" % (key_of(finding), finding["verdict"]))
    for key in sorted(set(got) | set(expected)):
        if got.get(key) != expected.get(key):
            problems.append("%s: %s, expected %s" % (key, got.get(key), expected.get(key)))


def check_junit(expected, xml_file, fail_on, problems):
    root = ET.parse(xml_file).getroot()
    wanted = {}
    for key, (verdict, dummy) in expected.items():
        where, secret = key.split(" ")
        path, dummy, line = where.partition(":")
        wanted.setdefault(path, []).append(("%s (line %s)" % (secret, line) if line else secret, verdict))
    for path, cases in wanted.items():
        suite = root.find("testsuite[@name='%s']" % path)
        if suite is None:
            problems.append("JUnit: no testsuite for %s" % path)
            continue
        names = sorted(case.get("name") for case in suite.findall("testcase"))
        if names != sorted(name for name, dummy in cases):
            problems.append("JUnit %s: testcases %s, expected %s" % (path, names, sorted(cases)))
        for name, verdict in cases:
            case = suite.find("testcase[@name='%s']" % name)
            if case is None:
                continue
            if case.get("file") != path:
                problems.append("JUnit %s %s: file attribute %r" % (path, name, case.get("file")))
            kind = ("error" if verdict == "error" else "failure") if verdict in TRIPS[fail_on] else None
            for tag in ("failure", "error"):
                if (case.find(tag) is not None) != (tag == kind):
                    problems.append("JUnit %s %s: %s %s, expected %s under fail_on=%s"
                                    % (path, name, "has" if case.find(tag) is not None else "lacks", tag, kind,
                                       fail_on))


def check_sarif(expected, sarif_file, problems, out):
    with open(sarif_file) as handle:
        log = json.load(handle)
    if log.get("version") != "2.1.0" or log.get("$schema") != SCHEMA:
        problems.append("SARIF version %r, $schema %r" % (log.get("version"), log.get("$schema")))
    runs = log.get("runs") or []
    if len(runs) != 1:
        problems.append("SARIF: %d runs, expected 1" % len(runs))
        return
    run = runs[0]
    driver = run.get("tool", {}).get("driver", {})
    rules = [rule.get("id") for rule in driver.get("rules", [])]
    if driver.get("name") != "kickstart.pwpolicy" or sorted(rules) != sorted(LEVELS):
        problems.append("SARIF driver %r with rules %s" % (driver.get("name"), rules))
    if [inv.get("executionSuccessful") for inv in run.get("invocations", [])] != [True]:
        problems.append("SARIF: invocations %s" % run.get("invocations"))
    wanted = []
    for key, (dummy, ids) in expected.items():
        where = key.split(" ")[0]
        path, dummy, line = where.partition(":")
        wanted.extend((rule, path, int(line or 1), LEVELS[rule]) for rule in ids)
    got, seen = [], set()
    for result in run.get("results", []):
        try:
            location = result["locations"][0]["physicalLocation"]
            got.append((result["ruleId"], location["artifactLocation"]["uri"], location["region"]["startLine"],
                        result["level"]))
            if rules[result["ruleIndex"]] != result["ruleId"] or not result["message"]["text"]:
                problems.append("SARIF result %s: ruleIndex or message wrong" % (got[-1],))
            prints = result["partialFingerprints"]
            value = prints["kickstartPwpolicy/v2"]
            if list(prints) != ["kickstartPwpolicy/v2"] or len(value) != 64 or value in seen:
                problems.append("SARIF result %s: fingerprints %s" % (got[-1], prints))
            seen.add(value)
            out.append("%s %s %s" % (result["ruleId"], location["artifactLocation"]["uri"], value))
        except (KeyError, IndexError, TypeError) as exc:
            problems.append("SARIF result without %s: %s" % (exc, result))
    if sorted(got) != sorted(wanted):
        problems.append("SARIF results %s, expected %s" % (sorted(got), sorted(wanted)))


def main(expected_file, json_file, xml_file, sarif_file, fail_on, prefix, prints_file=None):
    problems, prints = [], []
    with open(expected_file) as handle:
        expected = dict((key, value) for key, value in json.load(handle).items() if key.startswith(prefix))
    with open(json_file) as handle:
        check_json(expected, json.load(handle), problems)
    check_junit(expected, xml_file, fail_on, problems)
    check_sarif(expected, sarif_file, problems, prints)
    if prints_file:
        with open(prints_file, "w") as handle:
            handle.write("".join(line + "\n" for line in sorted(prints)))
    for problem in problems:
        print("verify_files: " + problem)
    print("verify_files: %d file findings expected, %d problems" % (len(expected), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
