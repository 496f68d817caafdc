# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Reports over the findings of many hosts: one table, JSON and JUnit XML.

Findings are what plugin_utils/_preflight.py makes (``host``, ``secret``,
``verdict``, ``ok``, ``score``, ``strength``, ``reasons``, ``hints``,
``policy``); they never hold a secret, and nothing here adds one.  The audit
playbook's ``audit_report`` action is the caller.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import re
import xml.etree.ElementTree as ET

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._files import replace_atomic
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preflight import (
    VERDICTS,
    check_fail_on,
    error_finding,
    verdict_counts_text,
    trips,
)

# The keys of a finding, in the order reports show them.
KEYS = ("host", "secret", "verdict", "ok", "score", "strength", "reasons", "hints", "policy")
COLUMNS = ("HOST", "SECRET", "VERDICT", "REASONS", "HINTS")
NOT_RUN = ("the check did not run for this host (it failed or was skipped before it)",
           "run the audit again with -v to see why the host's check stopped")


class ReportError(PwpolicyError):
    """Findings of a wrong shape, or a report that cannot be written."""


# What a line of the table (or an XML attribute) must not hold raw: control
# characters (C0, DEL, C1), line and paragraph separators, the bidirectional
# overrides and isolates (they reorder what a terminal shows), lone surrogates
# and the two non-characters XML forbids.
_UNSHOWN = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]")
# What XML 1.0 (its Char production) forbids anywhere: C0 controls other than
# tab, line feed and carriage return, surrogates, U+FFFE and U+FFFF.
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _escape(match):
    code = ord(match.group(0))
    return "\\x%02x" % code if code < 0x100 else "\\u%04x" % code


def visible(value):
    """``value`` as text for one line of a table or an attribute: what :data:`_UNSHOWN` matches becomes
    a visible escape (``\\x1b``, ``\\u2028``), so a host name cannot break a line, colour a terminal or
    make a report malformed."""
    return _UNSHOWN.sub(_escape, str(value))


def xml_text(value):
    """``value`` as XML 1.0 character data: line breaks and tabs kept, every character XML forbids escaped."""
    return _NOT_XML.sub(_escape, str(value))


def clean(finding):
    """A finding with exactly the report keys (anything else a caller added is dropped)."""
    if not isinstance(finding, dict) or "host" not in finding or "secret" not in finding:
        raise ReportError("each finding must be a dict with at least host, secret and verdict")
    if finding.get("verdict") not in VERDICTS:
        raise ReportError("finding %s/%s has verdict %r; valid verdicts are %s"
                          % (finding["host"], finding["secret"], finding.get("verdict"), ", ".join(VERDICTS)))
    result = dict((key, finding.get(key)) for key in KEYS)
    result["reasons"] = [str(r) for r in finding.get("reasons") or []]
    result["hints"] = [str(h) for h in finding.get("hints") or []]
    return result  # without "stops": the audit renders nothing, so fail_on=never only reports


def gather(results, hosts):
    """All findings of ``hosts`` from ``results`` (host -> the check's result, or None), in host order.

    A host whose check did not run gets one ``error`` finding, so that it
    cannot pass unnoticed.
    """
    findings = []
    for host in hosts:
        result = results.get(host)
        if not isinstance(result, dict) or not isinstance(result.get("findings"), list):
            findings.append(error_finding(host, "check", None, NOT_RUN[0], NOT_RUN[1]))
            continue
        findings.extend(clean(f) for f in result["findings"])
    return findings


# ---------------------------------------------------------------------------
# Table
# ---------------------------------------------------------------------------
def rows(findings):
    return [tuple(visible(cell) for cell in (f["host"], f["secret"], f["verdict"], "; ".join(f["reasons"]) or "-",
                                             "; ".join(f["hints"]) or "-")) for f in findings]


def findings_table(findings):
    """One text table: host, secret, verdict, reasons, hints (one line a secret)."""
    lines = [COLUMNS] + rows(findings)
    widths = [max(len(line[i]) for line in lines) for i in range(len(COLUMNS) - 1)]
    text = []
    for line in lines:
        cells = [cell.ljust(width) for cell, width in zip(line, widths)] + [line[-1]]
        text.append("  ".join(cells).rstrip())
    return "\n".join(text)


def outcome(findings, fail_on, hosts=None):
    """(failing findings, message) for the whole run.

    ``hosts``, the hosts audited, counts those without any secret too;
    without it, the hosts of ``findings`` are counted.
    """
    fail_on = check_fail_on(fail_on)
    failing = [f for f in findings if trips(f, fail_on)]
    hosts = sorted(set(f["host"] for f in findings) | set(hosts or ()))
    bad_hosts = sorted(set(f["host"] for f in failing))
    text = verdict_counts_text(findings)
    if failing:
        message = ("%d of %d secrets on %d of %d hosts fail (fail_on=%s): %s; hosts: %s"
                   % (len(failing), len(findings), len(bad_hosts), len(hosts), fail_on, text,
                      ", ".join(visible(host) for host in bad_hosts[:20]) + (" and %d more" % (len(bad_hosts) - 20) if len(bad_hosts) > 20 else "")))
    else:
        message = "%d secrets on %d hosts checked, none fails (fail_on=%s)%s" % (
            len(findings), len(hosts), fail_on, ": " + text if text else "")
    return failing, message


# ---------------------------------------------------------------------------
# JSON and JUnit XML
# ---------------------------------------------------------------------------
def to_json(findings):
    """The findings as a JSON array, one object per secret."""
    return json.dumps([dict((key, f.get(key)) for key in KEYS) for f in findings], indent=2, sort_keys=False) + "\n"


def _failure_text(finding):
    lines = ["verdict: %s" % finding["verdict"]]
    lines.extend("reason: %s" % r for r in finding["reasons"])
    lines.extend("hint: %s" % h for h in finding["hints"])
    return "\n".join(lines)


def to_junit(findings, fail_on, name="kickstart.pwpolicy audit"):
    """JUnit XML: one testsuite per host, one testcase per secret.

    A finding that trips ``fail_on`` is a ``failure`` (a secret the policy
    rejects, or finds weak), or an ``error`` when the secret could not be
    checked at all (verdict ``error``); each is counted as such.
    """
    fail_on = check_fail_on(fail_on)
    by_host = {}
    for finding in findings:
        by_host.setdefault(finding["host"], []).append(finding)
    root = ET.Element("testsuites", name=name)
    totals = dict(tests=0, failures=0, errors=0)
    for host, host_findings in by_host.items():
        suite = ET.SubElement(root, "testsuite", name=visible(host), skipped="0", time="0")
        counts = dict(tests=len(host_findings), failures=0, errors=0)
        for finding in host_findings:
            case = ET.SubElement(suite, "testcase", classname=visible(host), name=visible(finding["secret"]),
                                 time="0")
            if trips(finding, fail_on):
                kind = "error" if finding["verdict"] == "error" else "failure"
                counts[kind + "s"] += 1
                element = ET.SubElement(case, kind, type=visible(finding["verdict"]),
                                        message=visible("%s: %s" % (finding["verdict"], "; ".join(finding["reasons"]))))
                element.text = xml_text(_failure_text(finding))
            elif finding["verdict"] != "accepted":
                out = ET.SubElement(case, "system-out")
                out.text = xml_text(_failure_text(finding))
        for key in ("tests", "failures", "errors"):
            suite.set(key, str(counts[key]))
            totals[key] += counts[key]
    for key in ("tests", "failures", "errors"):
        root.set(key, str(totals[key]))
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_report(path, text):
    """Write ``text`` to ``path`` atomically (a temporary file beside it, renamed), mode 0644.

    Reports hold no secret; they are readable by the CI system that collects
    them.  Text that UTF-8 cannot encode (a lone surrogate) is refused before
    any file is created.
    """
    path = os.path.abspath(os.path.expanduser(path))
    directory = os.path.dirname(path)
    if not os.path.isdir(directory):
        raise ReportError("cannot write the report %s: directory %s does not exist (create it first)"
                          % (path, directory))
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ReportError("cannot write the report %s: character %d (U+%04X) cannot be encoded as UTF-8 (a lone "
                          "surrogate); the findings given to the report hold text that is not valid Unicode, "
                          "nothing was written" % (path, exc.start, ord(text[exc.start])))
    try:
        replace_atomic(path, data, lambda tmp: os.chmod(tmp, 0o644))
    except OSError as exc:
        raise ReportError("cannot write the report %s: %s" % (path, exc.strerror or exc))
    return path
