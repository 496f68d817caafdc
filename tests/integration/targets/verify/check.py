# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the verify playbook's JSON, JUnit and SARIF reports of the three hosts build.py made.

  check.py JSON JUNIT SARIF

Each report holds what was found where on each host: the rule ids, the file on
the host and its line (the line read from the tree itself), and SARIF places
each finding that names a file at file://HOST/path.  Exits 1 with each
mismatch named.
"""

import json
import os
import sys
import xml.etree.ElementTree as ET

problems = []


def expect(condition, what):
    if not condition:
        problems.append(what)


def line_of(tree, path, key):
    """The line of ``path`` in the host's tree that sets ``key`` (the last one: the one in effect)."""
    found = None
    with open(os.path.join(tree, path.lstrip("/"))) as handle:
        for number, text in enumerate(handle, 1):
            if text.split("#")[0].replace("=", " ").split()[:1] == [key]:
                found = number
    return found


def text_line(tree, path, number):
    with open(os.path.join(tree, path.lstrip("/"))) as handle:
        return handle.read().splitlines()[number - 1]


def main():
    json_path, junit_path, sarif_path, trees = sys.argv[1:5]
    with open(json_path) as handle:
        findings = json.load(handle)
    rows = dict()
    for item in findings:
        rows.setdefault(item["host"], []).append(
            (item["secret"], item["verdict"], (item.get("rules") or [None])[0], item.get("file"), item.get("line")))
    expect(sorted(rows) == ["drift", "shipped", "stig"], "hosts: %s" % sorted(rows))
    # stig: nothing deviates; the encryption of the file systems is not checked (a LUKS header was read).
    stig = rows.get("stig", [])
    expect(not [row for row in stig if row[1] in ("rejected", "error")], "stig fails: %s" % stig)
    for row in (("kickstart_target", "accepted", "kickstart.pwpolicy.target", None, None),
                ("profile stig", "accepted", None, None, None),
                ("role settings", "accepted", None, None, None),
                ("leftovers", "accepted", None, None, None)):
        expect(row in stig, "stig: no %s" % (row,))
    # Without kickstart_verify_secrets (no vault here) the declared LUKS passphrase is not read.
    expect(not [item for item in findings if item["secret"] == "luks"], "a LUKS estimate without the secrets")
    # The header was read (a LUKS2 device), but not which file systems sit on it.
    expect([row for row in stig if row[:3] == ("encryption", "not_checked", "RHEL-09-231190")],
           "stig: the encryption rule is not listed as not checked")
    # shipped: the judge's deviations, each with its rule, file and line; the kickstart left in /root.
    shipped = rows.get("shipped", [])
    for row in (("minlen", "rejected", "RHEL-09-611090", "/etc/security/pwquality.conf", None),
                ("min_rounds", "rejected", "RHEL-09-611050", "/etc/shadow", 1),
                ("leftover:/root/original-ks.cfg", "rejected", "kickstart.pwpolicy.leftover_secret",
                 "/root/original-ks.cfg", None)):
        expect(row in shipped, "shipped: no %s in %s" % (row, shipped))
    pam = [row for row in shipped if row[0] == "min_rounds" and row[3] == "/etc/authselect/system-auth"]
    expect(len(pam) == 1 and isinstance(pam[0][4], int) and "pam_unix.so" in text_line(
        os.path.join(trees, "shipped"), "/etc/authselect/system-auth", pam[0][4]),
        "shipped: pam_unix's line in system-auth: %s" % pam)
    expect([row for row in shipped if row[0] == "bootloader_password" and row[1] == "rejected"
            and row[2].startswith("RHEL-09-")], "shipped: no boot-loader deviation")
    expect(not [row for row in shipped if row[0].startswith("pwquality.")], "shipped: the judge's values twice")
    # drift: what the inventory declares beyond the STIG, with the STIG's rule or the collection's.
    drift = rows.get("drift", [])
    difok = [row for row in drift if row[0] == "pwquality.difok"]
    line = line_of(os.path.join(trees, "drift"), "/etc/security/pwquality.conf", "difok")
    expect(len(difok) == 1 and difok[0][1:2] == ("rejected",) and difok[0][2].startswith("RHEL-09-")
           and difok[0][3:] == ("/etc/security/pwquality.conf", line), "drift: difok %s (line %s)" % (difok, line))
    expect(("pwquality.maxsequence", "rejected", "kickstart.pwpolicy.pwquality.maxsequence",
            "/etc/security/pwquality.conf", None) in drift, "drift: no maxsequence in %s" % drift)
    expect(len([row for row in drift if row[1] == "rejected"]) == 2, "drift: not exactly 2 rejected: %s" % drift)

    suites = dict((suite.get("name"), suite) for suite in ET.parse(junit_path).getroot().findall("testsuite"))
    expect(sorted(suites) == ["drift", "shipped", "stig"], "junit suites: %s" % sorted(suites))
    counts = dict((name, suite.get("failures")) for name, suite in suites.items())
    expect(counts.get("stig") == "0" and counts.get("drift") == "2", "junit failures: %s" % counts)
    expect(int(counts.get("shipped") or 0) == len([r for r in shipped if r[1] == "rejected"]),
           "junit: shipped's failures %s" % counts.get("shipped"))
    messages = " ".join(failure.get("message") for failure in suites["shipped"].iter("failure"))
    expect("RHEL-09-611050" in messages and "/etc/shadow line 1" in messages, "junit: shipped's messages")

    with open(sarif_path) as handle:
        run = json.load(handle)["runs"][0]
    ids = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    places = set()
    for result in run["results"]:
        location = result["locations"][0]["physicalLocation"]
        expect(ids[result["ruleIndex"]] == result["ruleId"], "sarif: ruleIndex of %s" % result["ruleId"])
        places.add((result["ruleId"], result["level"], location["artifactLocation"]["uri"],
                    location["region"]["startLine"]))
    for place in (("RHEL-09-611050", "error", "file://shipped/etc/shadow", 1),
                  ("RHEL-09-611090", "error", "file://shipped/etc/security/pwquality.conf", 1),
                  ("kickstart.pwpolicy.leftover_secret", "error", "file://shipped/root/original-ks.cfg", 1),
                  (difok[0][2] if difok else "?", "error", "file://drift/etc/security/pwquality.conf", line),
                  ("kickstart.pwpolicy.pwquality.maxsequence", "error", "file://drift/etc/security/pwquality.conf",
                   1)):
        expect(place in places, "sarif: no %s" % (place,))
    expect(not [p for p in places if p[2].startswith("file://stig/") and p[1] == "error"], "sarif: stig has errors")
    if problems:
        print("\n".join(problems))
        sys.exit(1)


if __name__ == "__main__":
    main()
